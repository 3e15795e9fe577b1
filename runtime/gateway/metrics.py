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

import time
from bisect import bisect_left
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString
from starlette.requests import Request
from starlette.responses import Response

if TYPE_CHECKING:
    from .log import AccessRecord

__all__ = ["Metrics"]

_LATENCY = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)
_LE = [floatToGoString(b) for b in _LATENCY] + ["+Inf"]


class _Counter:
    """A labelled counter kept in a plain dict: the event loop is the only writer, so no lock
    per increment (prometheus-client's ``Counter`` takes one per ``inc``, and its series
    look-up another); it becomes a metric family when scraped."""

    def __init__(self, name: str, doc: str, labels: list[str]) -> None:
        self.name, self.doc, self.labels = name, doc, labels
        self.values: dict[tuple[str, ...], float] = {}
        self.created: dict[tuple[str, ...], float] = {}

    def inc(self, key: tuple[str, ...], amount: float = 1) -> None:
        values = self.values
        if key in values:
            values[key] += amount
        else:
            values[key] = amount
            self.created[key] = time.time()

    def family(self) -> Iterator[Metric]:
        out = CounterMetricFamily(self.name, self.doc, labels=self.labels)
        for key, value in list(self.values.items()):
            out.add_metric(key, value, created=self.created[key])
        yield out


class _Histogram:
    """A labelled histogram over ``_LATENCY``, kept as plain counts per bucket (as _Counter)."""

    def __init__(self, name: str, doc: str, labels: list[str]) -> None:
        self.name, self.doc, self.labels = name, doc, labels
        self.series: dict[tuple[str, ...], list[float]] = {}  # bucket counts..., sum
        self.created: dict[tuple[str, ...], float] = {}

    def observe(self, key: tuple[str, ...], value: float) -> None:
        counts = self.series.get(key)
        if counts is None:
            counts = self.series[key] = [0.0] * (len(_LATENCY) + 2)
            self.created[key] = time.time()
        counts[bisect_left(_LATENCY, value)] += 1  # the first bucket whose bound is >= value
        counts[-1] += value

    def family(self) -> Iterator[Metric]:
        out = HistogramMetricFamily(self.name, self.doc, labels=self.labels)
        created = GaugeMetricFamily(self.name + "_created", self.doc, labels=self.labels)
        for key, counts in list(self.series.items()):
            total, buckets = 0.0, []
            for le, n in zip(_LE, counts, strict=False):
                total += n
                buckets.append((le, total))
            out.add_metric(key, buckets, counts[-1])
            created.add_metric(key, self.created[key])
        yield out
        yield created  # as prometheus-client's own histograms show it


class _Gauge:
    """An unlabelled gauge in a plain attribute (as _Counter: no lock per ``inc`` / ``dec``)."""

    __slots__ = ("name", "doc", "value")

    def __init__(self, name: str, doc: str) -> None:
        self.name, self.doc, self.value = name, doc, 0.0

    def inc(self) -> None:
        self.value += 1

    def dec(self) -> None:
        self.value -= 1

    def family(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(self.name, self.doc, value=self.value)


class Metrics(Collector):
    """One registry per gateway app (several apps in one process count apart)."""

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry(auto_describe=True)
        self.requests = _Counter(
            "interlingua_requests", "Calls answered", ["inbound", "upstream", "status"]
        )
        self.latency = _Histogram(
            "interlingua_request_duration_seconds",
            "Time from the request to the end of the answer",
            ["inbound", "upstream"],
        )
        self.ttfb = _Histogram(
            "interlingua_time_to_first_byte_seconds",
            "Time from the request to the first byte sent to the caller",
            ["inbound", "upstream"],
        )
        self.tokens = _Counter(
            "interlingua_tokens", "Tokens the upstreams reported", ["upstream", "direction"]
        )
        self.losses = _Counter(
            "interlingua_losses", "What a translation could not carry", ["feature"]
        )
        self.failures = _Counter(
            "interlingua_upstream_failures",
            "Failed upstream attempts before an answer, and what followed",
            ["upstream", "outcome", "then"],
        )
        self.fallbacks = _Counter(
            "interlingua_fallbacks",
            "Calls passed on to the next upstream",
            ["from_upstream", "to_upstream"],
        )
        self.open_streams = _Gauge("interlingua_open_streams", "Streams in progress")
        self._families = (self.requests, self.latency, self.ttfb, self.tokens, self.losses,
                          self.failures, self.fallbacks, self.open_streams)  # fmt: skip
        r.register(self)

    def collect(self) -> Iterator[Metric]:
        for f in self._families:
            yield from f.family()

    def observe(self, rec: AccessRecord, latency: float) -> None:
        """Count one finished call (called by AccessRecord.emit)."""
        inbound = rec.inbound or ""
        upstream = rec.upstream_name or ""
        self.requests.inc((inbound, upstream, str(rec.status or 0)))
        series = (inbound, upstream)
        self.latency.observe(series, latency)
        if rec.ttfb is not None:
            self.ttfb.observe(series, rec.ttfb)
        u = rec.usage
        if u is not None:
            if u.input_total:
                self.tokens.inc((upstream, "input"), u.input_total)
            if u.output_total:
                self.tokens.inc((upstream, "output"), u.output_total)
        for feature in rec.loss_features:
            self.losses.inc((feature,))
        for i, a in enumerate(rec.attempts):
            self.failures.inc((a["upstream"], str(a["outcome"]), a["then"]))
            if a["then"] == "fallback":
                later = rec.attempts[i + 1]["upstream"] if i + 1 < len(rec.attempts) else upstream
                self.fallbacks.inc((a["upstream"], later))

    async def endpoint(self, request: Request) -> Response:
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)
