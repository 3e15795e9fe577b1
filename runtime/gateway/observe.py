"""The gateway's observers: Prometheus metrics (metrics.py, when prometheus-client is installed)
and OpenTelemetry spans (tracing.py, when opentelemetry-api is installed and an SDK records).
Both are fed from the access record of each call when it ends (AccessRecord.emit)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from . import tracing
from .config import Config
from .log import AccessRecord
from .upstream import http_spec

try:
    from .metrics import Metrics
except ImportError:  # prometheus-client is not installed: no /metrics
    Metrics = None  # type: ignore[assignment,misc]

__all__ = ["Observers"]


class Observers:
    def __init__(self, cfg: Config) -> None:
        self.metrics = Metrics() if Metrics is not None else None
        self.open_streams = self.metrics.open_streams if self.metrics is not None else None
        self.hosts = {u.name: urlsplit(u.base_url).hostname for u in cfg.upstreams}
        sinks: list[Any] = []
        if self.metrics is not None:
            sinks.append(self.metrics.observe)
        self.traced = tracing.enabled()
        if self.traced:
            sinks.append(self._end_span)
        self.sinks = tuple(sinks)

    def begin(self, rec: AccessRecord, caller: Mapping[str, str]) -> None:
        rec.sinks = self.sinks
        if self.traced:
            rec.span = tracing.start(caller)

    def outgoing(self, rec: AccessRecord, headers: Any) -> None:
        """An upstream request: it carries the call's span as its trace context."""
        if rec.span is not None:
            tracing.inject(rec.span, headers)

    def _end_span(self, rec: AccessRecord, latency: float) -> None:
        if rec.span is None:
            return
        provider = http_spec(rec.upstream).otel_provider if rec.upstream else None
        tracing.finish(rec.span, rec, provider, self.hosts.get(rec.upstream_name or ""))
