"""The access log: one JSON object per request on the ``interlingua.gateway.access`` logger.

Fields: ``request_id``, ``method``, ``path``, ``inbound`` and ``upstream`` protocol,
``upstream_name``, ``model`` (as requested) and ``upstream_model`` (after the model map),
``stream``, ``status``, ``latency_ms``, ``ttfb_ms`` (first byte sent to the caller),
``usage`` (input/output tokens when the upstream reported them), ``losses`` (how many fields the
translation could not carry) and ``loss_paths`` (each one's path and feature), ``ending`` (streams: completed / failed / disconnected /
cancelled) and ``error`` (the error type, never its text), ``upstream_request_id`` (the id the
upstream gave the call) and ``attempts`` (each failed try before the answer: upstream, status or
connect error, the wait before the next one; see retry.py). Never a key, never prompt text.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

import orjson

from .._losses import Loss
from ..generated.canonical import Usage

__all__ = [
    "ACCESS_LOGGER", "GATEWAY_ID_HEADER", "AccessRecord", "JsonLines", "configure_access_log",
]  # fmt: skip

ACCESS_LOGGER = logging.getLogger("interlingua.gateway.access")
# request ids: 96 bits of the random module (seeded from os.urandom, again in a forked child):
# an id names a call and guards nothing, so no system call per call for it
_bits = random.getrandbits
_clock = time.perf_counter
GATEWAY_ID_HEADER = "x-interlingua-request-id"  # the gateway's own id, on every answer


class AccessRecord:
    """One call, as the access log, the metrics and the trace see it (a plain class: a
    dataclass's generated ``__init__`` with its default factories cost more than the rest of
    the record)."""

    __slots__ = (
        "method", "path", "inbound", "request_id", "start", "upstream", "upstream_name", "model",
        "upstream_model", "stream", "status", "ttfb", "usage", "losses", "loss_paths", "ending",
        "error", "done", "upstream_request_id", "response_model", "loss_features", "span",
        "sinks", "attempts",
    )  # fmt: skip

    def __init__(self, method: str, path: str, inbound: str | None = None) -> None:
        self.method = method
        self.path = path
        self.inbound = inbound
        self.request_id = f"req_{_bits(96):024x}"
        self.start = _clock()
        self.upstream: str | None = None
        self.upstream_name: str | None = None
        self.model: str | None = None
        self.upstream_model: str | None = None
        self.stream = False
        self.status: int | None = None
        self.ttfb: float | None = None
        self.usage: Usage | None = None
        self.losses = 0
        self.loss_paths: list[str] = []
        self.ending: str | None = None
        self.error: str | None = None
        self.done = False
        self.upstream_request_id: str | None = None
        self.response_model: str | None = None
        self.loss_features: list[str] = []
        self.span: Any = None  # the OpenTelemetry span of the call (tracing.py), if traced
        # metrics, traces
        self.sinks: tuple[Callable[[AccessRecord, float], None], ...] = ()
        self.attempts: list[dict[str, Any]] = []  # each failed try (retry.py)

    def add_losses(self, losses: list[Loss]) -> None:
        if not losses:
            return
        self.losses += len(losses)
        self.loss_paths += [f"{x.path} ({x.feature})" for x in losses]
        self.loss_features += [x.feature for x in losses]

    def first_byte(self) -> None:
        if self.ttfb is None:
            self.ttfb = _clock() - self.start

    def as_dict(self) -> dict[str, Any]:
        now = _clock()
        usage = None
        if self.usage is not None:
            usage = {
                "input_tokens": self.usage.input_total,
                "output_tokens": self.usage.output_total,
                "cache_read_tokens": self.usage.input_cache_read,
                "reasoning_tokens": self.usage.output_reasoning,
            }
        return {
            "request_id": self.request_id,
            "method": self.method,
            "path": self.path,
            "inbound": self.inbound,
            "upstream": self.upstream,
            "upstream_name": self.upstream_name,
            "model": self.model,
            "upstream_model": self.upstream_model,
            "stream": self.stream,
            "status": self.status,
            "latency_ms": _ms(now - self.start),
            "ttfb_ms": None if self.ttfb is None else _ms(self.ttfb),
            "usage": usage,
            "losses": self.losses,
            "loss_paths": self.loss_paths,
            "ending": self.ending,
            "error": self.error,
            "upstream_request_id": self.upstream_request_id,
            "attempts": self.attempts or None,
        }

    def emit(self) -> None:
        """Log once (a stream logs when it ends, not when its headers leave)."""
        if self.done:
            return
        self.done = True
        if self.sinks:
            latency = _clock() - self.start
            for sink in self.sinks:
                try:
                    sink(self, latency)
                except Exception:  # metrics and traces never fail a call
                    logging.getLogger("interlingua.gateway").exception("metrics/trace sink")
        if ACCESS_LOGGER.isEnabledFor(logging.INFO):
            line = orjson.dumps(self.as_dict())
            direct = _direct()
            if direct is not None:
                direct.put(line)
                return
            # a record made here: Logger.info would first walk the stack for the caller's
            # file and line, which no access log line shows
            ACCESS_LOGGER.handle(
                ACCESS_LOGGER.makeRecord(
                    ACCESS_LOGGER.name, logging.INFO, __file__, 0, line.decode(), (), None
                )
            )


def _ms(seconds: float) -> float:
    """Milliseconds to two decimals (``round(x, 2)`` formats the float as a string first)."""
    return int(seconds * 100_000 + 0.5) / 100


class JsonLines(logging.StreamHandler):  # type: ignore[type-arg]
    """The access log's own handler (configure_access_log): the message alone, one per line.
    The gateway's calls ``put`` their lines as bytes, written to the stream's binary buffer
    (no str made to be encoded back)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logging.Formatter("%(message)s"))

    def put(self, line: bytes) -> None:
        try:
            stream = self.stream
            raw = getattr(stream, "buffer", None)
            if raw is None:
                stream.write(line.decode() + "\n")
            else:
                stream.flush()  # whatever was written as text goes first
                raw.write(line + b"\n")
                raw.flush()
        except Exception:  # as logging's handlers: a failed write never fails a call
            self.handleError(logging.makeLogRecord({"msg": line.decode(errors="replace")}))


def _direct() -> JsonLines | None:
    """The handler to write to straight, when the access logger has only its own handler and
    nothing filters: a LogRecord and logging's handler chain would cost more than the rest of
    the access record (the line written is the same)."""
    handlers = ACCESS_LOGGER.handlers
    if len(handlers) != 1 or ACCESS_LOGGER.filters:
        return None
    h = handlers[0]
    if type(h) is not JsonLines or h.filters or h.level > logging.INFO:
        return None
    return h


def configure_access_log(level: int = logging.INFO) -> None:
    """JSON lines on stderr (what ``interlingua serve`` uses)."""
    if ACCESS_LOGGER.handlers:
        return
    ACCESS_LOGGER.addHandler(JsonLines())
    ACCESS_LOGGER.setLevel(level)
    ACCESS_LOGGER.propagate = False
