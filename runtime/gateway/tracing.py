"""OpenTelemetry traces (optional: ``pip install interlingua[otel]`` and an SDK configured by the
application, e.g. ``opentelemetry-instrument interlingua serve``).

One CLIENT span per translated call, named ``{gen_ai.operation.name} {gen_ai.request.model}``
with the GenAI semantic conventions: ``gen_ai.operation.name`` (chat), ``gen_ai.provider.name``
(spec: http.otel_provider of the upstream's protocol), ``gen_ai.request.model`` (the model sent
upstream), ``gen_ai.response.model``, ``gen_ai.usage.input_tokens`` / ``output_tokens``,
``server.address``, ``http.response.status_code``, ``error.type``; and the gateway's own
``interlingua.*`` (inbound and upstream protocol, upstream name, losses, request id). Never a
key, never prompt or answer text. The span's parent is the caller's ``traceparent``; the
upstream gets the span's own. Without the package, or without an SDK (no recording span), the
caller's trace context is forwarded as it came."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .log import AccessRecord

try:
    from opentelemetry import propagate, trace
    from opentelemetry.trace import SpanKind, Status, StatusCode
except ImportError:  # the [otel] extra is not installed
    trace = None  # type: ignore[assignment]

__all__ = ["enabled", "start", "inject"]

_TRACER: Any = None
# the global providers before an SDK is set up (their spans never record)
_NO_SDK: Any = (trace.ProxyTracerProvider, trace.NoOpTracerProvider) if trace is not None else ()
# opentelemetry-api keeps the global provider in trace._TRACER_PROVIDER: None until it is set
# (once, by set_tracer_provider, or by get_tracer_provider from OTEL_PYTHON_TRACER_PROVIDER).
# While it is None and that variable was unset at the start, there is no SDK: known without
# get_tracer_provider's look-up of the variable in os.environ on every call (~6 K instructions).
_UNKNOWN = object()
_FROM_ENV = trace is not None and "OTEL_PYTHON_TRACER_PROVIDER" in os.environ


def enabled() -> bool:
    return trace is not None


def _no_sdk() -> bool:
    provider = getattr(trace, "_TRACER_PROVIDER", _UNKNOWN)
    if provider is None and not _FROM_ENV:
        return True
    if provider is None or provider is _UNKNOWN:
        provider = trace.get_tracer_provider()
    return isinstance(provider, _NO_SDK)


def start(caller: Mapping[str, str]) -> Any:
    """A span for the call, its parent the caller's trace context (None: tracing is off)."""
    global _TRACER
    if trace is None or _no_sdk():
        return None  # no SDK set up: the span would not record
    if _TRACER is None:
        _TRACER = trace.get_tracer("interlingua.gateway")
    parent = propagate.extract(caller) if "traceparent" in caller else None
    span = _TRACER.start_span("chat", context=parent, kind=SpanKind.CLIENT)
    if not span.is_recording():
        return None
    return span


def inject(span: Any, headers: Any) -> None:
    """The span's trace context into the upstream request's headers."""
    carrier: dict[str, str] = {}
    propagate.inject(carrier, context=trace.set_span_in_context(span))
    for k, v in carrier.items():
        headers[k] = v


def finish(span: Any, rec: AccessRecord, provider: str | None, server: str | None) -> None:
    model = rec.upstream_model or rec.model
    if model:
        span.update_name(f"chat {model}")
    attrs: dict[str, Any] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": model,
        "gen_ai.provider.name": provider,
        "gen_ai.response.model": rec.response_model,
        "server.address": server,
        "http.response.status_code": rec.status,
        "interlingua.inbound": rec.inbound,
        "interlingua.upstream": rec.upstream,
        "interlingua.upstream_name": rec.upstream_name,
        "interlingua.request_id": rec.request_id,
        "interlingua.losses": rec.losses,
        "interlingua.stream": rec.stream,
    }
    if rec.usage is not None:
        attrs["gen_ai.usage.input_tokens"] = rec.usage.input_total
        attrs["gen_ai.usage.output_tokens"] = rec.usage.output_total
    if rec.error:
        attrs["error.type"] = rec.error
        span.set_status(Status(StatusCode.ERROR))
    span.set_attributes({k: v for k, v in attrs.items() if v is not None})
    span.end()
