"""``GET /metrics`` (Prometheus) and OpenTelemetry spans, after real calls through the gateway:
requests by protocol, upstream and status, latency and time to first byte, tokens, losses by
feature, failed attempts, fallbacks and open streams; one GenAI span per call whose parent is
the caller's traceparent and whose id goes upstream. Neither carries a key or prompt text."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")
pytest.importorskip("prometheus_client")

from interlingua.gateway.app import create_app  # noqa: E402
from interlingua.gateway.config import load_config  # noqa: E402
from interlingua.generated.canonical import TextPart  # noqa: E402

from tests.gateway_upstream import _encode_stream, _events  # noqa: E402
from tests.test_gateway_retry import REFUSED, Script, cfg_data, upstream  # noqa: E402

SECRET_PROMPT = "my-secret-prompt-text"
KEY_ENV = "IL_METRICS_TEST_KEY"
KEY = "sk-metrics-secret-987"


def calls(app: Any, *requests: tuple[str, dict[str, Any], dict[str, str]]) -> list[httpx.Response]:
    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        out = []
        async with httpx.AsyncClient(transport=transport, base_url="http://gw") as c:
            for path, body, headers in requests:
                r = await c.post(path, json=body, headers=headers)
                await r.aread()
                out.append(r)
            out.append(await c.get("/metrics"))
        return out

    return asyncio.run(run())


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition ``text`` (0 when absent)."""
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        head, _, value = line.rpartition(" ")
        if all(f'{k}="{v}"' in head for k, v in labels.items()):
            return float(value)
    return 0.0


def test_metrics_after_real_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    script = Script(a_test=[429, REFUSED, REFUSED])
    data = cfg_data(
        upstream("a.test", retries=1, backoff=0.01, api_key_env=KEY_ENV), upstream("b.test")
    )
    app = create_app(load_config(data=data), transport=httpx.MockTransport(script))
    msg = [{"role": "user", "content": SECRET_PROMPT}]
    chat = ("/v1/chat/completions", {"model": "m", "messages": msg}, {})
    stream = ("/v1/chat/completions", {"model": "m", "messages": msg, "stream": True}, {})
    *answers, metrics = calls(app, chat, chat, stream)
    assert [r.status_code for r in answers] == [200, 200, 200]
    assert metrics.status_code == 200
    assert metrics.headers["content-type"].startswith("text/plain")
    m = metrics.text
    assert SECRET_PROMPT not in m and KEY not in m
    # call 1: a.test 429 then refused -> b.test; calls 2 and 3: a.test answers (200)
    assert (
        sample(
            m, "interlingua_requests_total", inbound="openai_chat", upstream="b.test", status="200"
        )
        == 1
    )
    assert (
        sample(
            m, "interlingua_requests_total", inbound="openai_chat", upstream="a.test", status="200"
        )
        == 2
    )
    assert (
        sample(
            m, "interlingua_upstream_failures_total", upstream="a.test", outcome="429", then="retry"
        )
        == 1
    )
    assert (
        sample(
            m,
            "interlingua_upstream_failures_total",
            upstream="a.test",
            outcome="ConnectError",
            then="fallback",
        )
        == 1
    )
    assert (
        sample(m, "interlingua_fallbacks_total", from_upstream="a.test", to_upstream="b.test") == 1
    )
    assert (
        sample(
            m,
            "interlingua_request_duration_seconds_count",
            inbound="openai_chat",
            upstream="a.test",
        )
        == 2
    )
    assert (
        sample(
            m,
            "interlingua_time_to_first_byte_seconds_count",
            inbound="openai_chat",
            upstream="a.test",
        )
        == 2
    )
    # a.test: 5 input tokens (the body), 11 (the stream); b.test: 5. Only the calls that went to
    # Anthropic (a.test) had the max_tokens default reported
    assert sample(m, "interlingua_tokens_total", upstream="a.test", direction="input") == 5 + 11
    assert sample(m, "interlingua_tokens_total", upstream="b.test", direction="input") == 5
    assert sample(m, "interlingua_losses_total", feature="max_tokens") == 2
    assert sample(m, "interlingua_open_streams") == 0


def test_open_streams_while_they_last() -> None:
    seen: list[float] = []
    holder: dict[str, Any] = {}

    def answer(request: httpx.Request) -> httpx.Response:
        async def chunks() -> Any:
            for c in _encode_stream("openai_chat", _events([TextPart(text="hi")], "stop", "m")):
                seen.append(holder["gauge"].value)  # read while the stream is open
                yield c

        return httpx.Response(200, content=chunks(), headers={"content-type": "text/event-stream"})

    app = create_app(
        load_config(data=cfg_data(upstream("b.test"))), transport=httpx.MockTransport(answer)
    )
    holder["gauge"] = app.state.gateway.observers.open_streams
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    *_, metrics = calls(app, ("/v1/chat/completions", body, {}))
    assert seen and set(seen) == {1.0}
    assert sample(metrics.text, "interlingua_open_streams") == 0


def test_spans_follow_the_genai_conventions() -> None:
    pytest.importorskip("opentelemetry.sdk")
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    script = Script(a_test=[503])
    data = cfg_data(upstream("a.test", retries=0), upstream("b.test"))
    app = create_app(load_config(data=data), transport=httpx.MockTransport(script))
    parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    body = {"model": "m", "messages": [{"role": "user", "content": SECRET_PROMPT}]}
    r, _ = calls(app, ("/v1/messages", {**body, "max_tokens": 9}, {"traceparent": parent}))
    assert r.status_code == 200
    [span] = [s for s in exporter.get_finished_spans() if s.name.startswith("chat")]
    assert span.name == "chat m"
    assert span.kind == trace.SpanKind.CLIENT
    assert format(span.context.trace_id, "032x") == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert span.parent is not None and format(span.parent.span_id, "016x") == "00f067aa0ba902b7"
    a = dict(span.attributes or {})
    assert a["gen_ai.operation.name"] == "chat"
    assert a["gen_ai.request.model"] == "m"
    assert a["gen_ai.provider.name"] == "openai"  # b.test (Chat) answered, after a.test's 503
    assert a["gen_ai.usage.input_tokens"] == 5 and a["gen_ai.usage.output_tokens"] == 1
    assert a["http.response.status_code"] == 200 and a["server.address"] == "b.test"
    assert SECRET_PROMPT not in str(a)
    # every upstream attempt carried the span's own trace context (same trace, its span id)
    sent = [h["traceparent"] for _, _, h in script.calls]
    assert len(sent) == 2 and all(
        p.split("-")[1] == "4bf92f3577b34da6a3ce929d0e0e4736" for p in sent
    )
    assert all(p.split("-")[2] == format(span.context.span_id, "016x") for p in sent)


def test_counts_read_as_prometheus_clients_own() -> None:
    """The gateway keeps its counts in plain dicts (no lock per call); scraped, they read as
    prometheus-client's own Counter and Histogram would: the same samples, bucket edges
    included (a value on a bound counts in that bucket)."""
    from types import SimpleNamespace

    from interlingua.gateway.metrics import _LATENCY, Metrics
    from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

    ours = Metrics()
    r = CollectorRegistry()
    requests = Counter("interlingua_requests", "Calls answered", ["inbound", "upstream", "status"],
                       registry=r)  # fmt: skip
    latency = Histogram("interlingua_request_duration_seconds", "x", ["inbound", "upstream"],
                        buckets=_LATENCY, registry=r)  # fmt: skip
    for i, value in enumerate([0.0, 0.005, 0.0051, 0.5, 1, 600, 601, 0.25, 7]):
        status = 200 if i % 3 else 502
        rec = SimpleNamespace(inbound="openai_chat", upstream_name="u", status=status, ttfb=None,
                              usage=None, loss_features=[], attempts=[])  # fmt: skip
        ours.observe(rec, value)  # type: ignore[arg-type]
        requests.labels("openai_chat", "u", str(status)).inc()
        latency.labels("openai_chat", "u").observe(value)

    def samples(text: str, prefix: str) -> list[str]:
        return [ln for ln in text.splitlines() if ln.startswith(prefix) and "_created" not in ln]

    mine, theirs = generate_latest(ours.registry).decode(), generate_latest(r).decode()
    for prefix in ("interlingua_requests_total", "interlingua_request_duration_seconds_"):
        assert samples(mine, prefix) == samples(theirs, prefix) and samples(mine, prefix)
    assert "interlingua_request_duration_seconds_created{" in mine
