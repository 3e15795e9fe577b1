"""``GET /metrics``: the gateway's Prometheus metrics (prometheus-client, in the [gateway] extra).

Every count is made from the access record of a finished call (log.py), so the metrics and the
log always agree; labels are protocol ids, upstream names, statuses, loss features and error
types, never a key, a model's answer or prompt text. Open streams are counted while they last.

- ``interlingua_requests_total{inbound, upstream, status}``
- ``interlingua_request_duration_seconds{inbound, upstream}`` and
  ``interlingua_time_to_first_byte_seconds{inbound, upstream}`` (histograms)
- ``interlingua_tokens_total{upstream, direction}`` (direction: input / output)
- ``interlingua_losses_total{feature}``
- ``interlingua_upstream_failures_total{upstream, outcome, then}`` (then: retry, fallback,
  give_up) and ``interlingua_fallbacks_total{from_upstream, to_upstream}``
- ``interlingua_open_streams``

With ``--workers N`` each process counts its own calls: a scrape reaches one of them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from starlette.requests import Request
from starlette.responses import Response

if TYPE_CHECKING:
    from .log import AccessRecord

__all__ = ["Metrics"]

_LATENCY = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)


class Metrics:
    """One registry per gateway app (several apps in one process count apart)."""

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "interlingua_requests", "Calls answered", ["inbound", "upstream", "status"], registry=r
        )
        self.latency = Histogram(
            "interlingua_request_duration_seconds",
            "Time from the request to the end of the answer",
            ["inbound", "upstream"],
            buckets=_LATENCY,
            registry=r,
        )
        self.ttfb = Histogram(
            "interlingua_time_to_first_byte_seconds",
            "Time from the request to the first byte sent to the caller",
            ["inbound", "upstream"],
            buckets=_LATENCY,
            registry=r,
        )
        self.tokens = Counter(
            "interlingua_tokens",
            "Tokens the upstreams reported",
            ["upstream", "direction"],
            registry=r,
        )
        self.losses = Counter(
            "interlingua_losses", "What a translation could not carry", ["feature"], registry=r
        )
        self.failures = Counter(
            "interlingua_upstream_failures",
            "Failed upstream attempts before an answer, and what followed",
            ["upstream", "outcome", "then"],
            registry=r,
        )
        self.fallbacks = Counter(
            "interlingua_fallbacks",
            "Calls passed on to the next upstream",
            ["from_upstream", "to_upstream"],
            registry=r,
        )
        self.open_streams = Gauge("interlingua_open_streams", "Streams in progress", registry=r)

        # each labelled series, looked up once (labels() takes a lock and builds its key)
        self._series: dict[tuple[Any, ...], Any] = {}

    def _of(self, metric: Any, *labels: str) -> Any:
        key = (metric, *labels)
        series = self._series.get(key)
        if series is None:
            series = self._series[key] = metric.labels(*labels)
        return series

    def observe(self, rec: AccessRecord, latency: float) -> None:
        """Count one finished call (called by AccessRecord.emit)."""
        inbound = rec.inbound or ""
        upstream = rec.upstream_name or ""
        of = self._of
        of(self.requests, inbound, upstream, str(rec.status or 0)).inc()
        of(self.latency, inbound, upstream).observe(latency)
        if rec.ttfb is not None:
            of(self.ttfb, inbound, upstream).observe(rec.ttfb)
        u = rec.usage
        if u is not None:
            if u.input_total:
                of(self.tokens, upstream, "input").inc(u.input_total)
            if u.output_total:
                of(self.tokens, upstream, "output").inc(u.output_total)
        for feature in rec.loss_features:
            of(self.losses, feature).inc()
        for i, a in enumerate(rec.attempts):
            self.failures.labels(a["upstream"], str(a["outcome"]), a["then"]).inc()
            if a["then"] == "fallback":
                later = rec.attempts[i + 1]["upstream"] if i + 1 < len(rec.attempts) else upstream
                self.fallbacks.labels(a["upstream"], later).inc()

    async def endpoint(self, request: Request) -> Response:
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)
