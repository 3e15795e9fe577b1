"""Retries, fallback, request ids, trace context and cancel, through the gateway app.

The upstreams are scripted (httpx.MockTransport): each answers its next scripted status (with
its headers), a refused connection, or a stream that breaks after its first event. The caller is
an httpx client on the app in process; cancel runs both servers on loopback."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from interlingua._losses import Ctx  # noqa: E402
from interlingua._pipeline import encode_response  # noqa: E402
from interlingua.gateway.app import create_app  # noqa: E402
from interlingua.gateway.config import Upstream, load_config  # noqa: E402
from interlingua.gateway.log import ACCESS_LOGGER  # noqa: E402
from interlingua.gateway.retry import backoff_delay, retry_after  # noqa: E402
from interlingua.generated.canonical import Finish, Response, TextPart, Usage  # noqa: E402

from tests.gateway_upstream import ServerThread, _encode_stream, _events  # noqa: E402

PROTOCOL_OF_HOST = {"a.test": "anthropic_messages", "b.test": "openai_chat", "c.test": "gemini"}
REFUSED = "refused"
BREAK = "break"


def answer(pid: str, status: int, headers: dict[str, str], stream: bool) -> httpx.Response:
    if status >= 400:
        body = {"error": {"type": "rate_limit_error", "message": "slow down"}, "type": "error"}
        return httpx.Response(status, json=body, headers=headers)
    if stream:
        chunks = _encode_stream(pid, _events([TextPart(text="hello there")], "stop", "m"))
        return httpx.Response(
            200,
            content=b"".join(chunks),
            headers={**headers, "content-type": "text/event-stream"},
        )
    resp = Response(
        id="r1",
        model="m",
        parts=[TextPart(text="hello")],
        finish=Finish(unified="stop"),
        usage=Usage(input_total=5, output_total=1),
    )
    body = orjson.dumps(encode_response(resp, pid, Ctx(pid, pid)))
    return httpx.Response(200, content=body, headers=headers)


class Script:
    """Per upstream host: what its next calls get (a status, REFUSED or BREAK; then 200)."""

    def __init__(self, **plan: list[Any]) -> None:
        self.plan = {h.replace("_", "."): list(v) for h, v in plan.items()}
        self.calls: list[tuple[str, float, dict[str, str]]] = []
        self.headers: dict[str, str] = {}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        host = request.url.host
        self.calls.append((host, time.monotonic(), dict(request.headers)))
        pid = PROTOCOL_OF_HOST[host]
        stream = request.headers.get("accept") == "text/event-stream"
        step = self.plan.get(host, []).pop(0) if self.plan.get(host) else 200
        headers = dict(self.headers)
        if isinstance(step, tuple):
            step, headers = step[0], {**headers, **step[1]}
        if step == REFUSED:
            raise httpx.ConnectError("connection refused", request=request)
        if step == BREAK:

            async def broken() -> Any:
                yield _encode_stream(pid, _events([TextPart(text="partial")], "stop", "m"))[0]
                raise httpx.ReadError("connection reset", request=request)

            return httpx.Response(
                200, content=broken(), headers={"content-type": "text/event-stream"}
            )
        return answer(pid, step, headers, stream)

    def hosts(self) -> list[str]:
        return [h for h, _, _ in self.calls]


def upstream(host: str, **kw: Any) -> dict[str, Any]:
    pid = PROTOCOL_OF_HOST[host]
    base = f"http://{host}" + ("/v1beta" if pid == "gemini" else "/v1")
    return {"name": host, "protocol": pid, "base_url": base, "api_key_env": "", **kw}


def cfg_data(*ups: dict[str, Any]) -> dict[str, Any]:
    return {"upstreams": list(ups), "state": "memory"}


FAST = {"backoff": 0.01, "backoff_max": 0.05}


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(record.getMessage()))


@pytest.fixture
def access() -> Iterator[Collect]:
    h = Collect()
    level = ACCESS_LOGGER.level
    ACCESS_LOGGER.addHandler(h)
    ACCESS_LOGGER.setLevel(logging.INFO)
    try:
        yield h
    finally:
        ACCESS_LOGGER.removeHandler(h)
        ACCESS_LOGGER.setLevel(level)


def call(
    data: dict[str, Any],
    script: Script,
    path: str = "/v1/chat/completions",
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    app = create_app(load_config(data=data), transport=httpx.MockTransport(script))
    body = body or {"model": "claude-x", "messages": [{"role": "user", "content": "hi"}]}

    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gw") as c:
            r = await c.post(path, json=body, headers=headers)
            await r.aread()
            return r

    return asyncio.run(run())


def test_429_is_retried_after_what_the_upstream_asked(access: Collect) -> None:
    script = Script(a_test=[(429, {"retry-after-ms": "150"}), (503, {}), 200])
    r = call(cfg_data(upstream("a.test", **FAST)), script)
    assert r.status_code == 200, r.text
    assert r.json()["choices"][0]["message"]["content"] == "hello"
    assert script.hosts() == ["a.test"] * 3
    (_, t0, _), (_, t1, _), (_, t2, _) = script.calls
    assert 0.14 <= t1 - t0 < 1.0  # retry-after-ms honoured
    assert t2 - t1 < 0.1  # then the configured (fast) backoff
    line = access.lines[-1]
    assert [(a["upstream"], a["outcome"]) for a in line["attempts"]] == [
        ("a.test", 429),
        ("a.test", 503),
    ]
    assert line["attempts"][0]["wait_ms"] == 150 and line["upstream_name"] == "a.test"


def test_fallback_to_the_next_upstream_of_another_protocol(access: Collect) -> None:
    """a.test (Anthropic) refuses connections, then b.test (Chat) answers: the caller (Chat)
    gets b's answer, translated from its own protocol this time (a pass-through)."""
    script = Script(a_test=[REFUSED, REFUSED])
    data = cfg_data(upstream("a.test", retries=1, **FAST), upstream("b.test"))
    r = call(data, script)
    assert r.status_code == 200, r.text
    assert script.hosts() == ["a.test", "a.test", "b.test"]
    line = access.lines[-1]
    assert (line["upstream_name"], line["upstream"]) == ("b.test", "openai_chat")
    assert [a["outcome"] for a in line["attempts"]] == ["ConnectError", "ConnectError"]


def test_retry_after_longer_than_the_cap_falls_back_at_once(access: Collect) -> None:
    script = Script(a_test=[(529, {"retry-after": "120"})])
    data = cfg_data(upstream("a.test", retry_after_max=5, **FAST), upstream("b.test"))
    started = time.monotonic()
    r = call(data, script)
    assert r.status_code == 200 and time.monotonic() - started < 2
    assert script.hosts() == ["a.test", "b.test"]
    assert access.lines[-1]["attempts"] == [
        {"upstream": "a.test", "outcome": 529, "wait_ms": None, "then": "fallback"}
    ]


def test_no_retry_for_a_client_error_and_the_last_failure_reaches_the_caller() -> None:
    script = Script(a_test=[400])
    r = call(cfg_data(upstream("a.test", **FAST), upstream("b.test")), script)
    assert r.status_code == 400 and script.hosts() == ["a.test"]
    # every attempt fails: the caller gets the last one, its Retry-After passed on
    script = Script(a_test=[(429, {"retry-after": "0"})] * 3)
    r = call(cfg_data(upstream("a.test", retries=2, fallback=[], **FAST)), script)
    assert r.status_code == 429 and r.headers["retry-after"] == "0"
    assert r.json()["error"]["type"] == "rate_limit_exceeded" or r.json()["error"]
    assert script.hosts() == ["a.test"] * 3


def test_fallback_follows_the_configured_order_and_models() -> None:
    script = Script(a_test=[503], c_test=[503])
    data = cfg_data(
        upstream("a.test", retries=0, models=["claude-*"], fallback=["c.test", "b.test"]),
        upstream("b.test", models=["claude-*"]),
        upstream("c.test", retries=0, models=["claude-*"]),
    )
    assert call(data, script).status_code == 200
    assert script.hosts() == ["a.test", "c.test", "b.test"]
    # an upstream whose models do not match is never a fallback
    script = Script(a_test=[503])
    data = cfg_data(upstream("a.test", retries=0), upstream("b.test", models=["gpt-*"]))
    assert call(data, script).status_code == 503 and script.hosts() == ["a.test"]


def test_never_a_retry_after_the_first_byte(access: Collect) -> None:
    """A stream that breaks after its first event is not sent again (a tool call must never
    run twice because of the gateway): the caller's stream ends with an in-band error."""
    script = Script(a_test=[BREAK])
    data = cfg_data(upstream("a.test", **FAST), upstream("b.test"))
    body = {
        "model": "claude-x",
        "stream": True,
        "messages": [{"role": "user", "content": "hi"}],
    }
    r = call(data, script, body=body)
    assert r.status_code == 200 and script.hosts() == ["a.test"]
    assert r.text.index("msg_scripted") < r.text.index('"error"')  # its first event, then the error
    assert access.lines[-1]["attempts"] is None


def test_request_ids_and_trace_context(access: Collect) -> None:
    """The upstream's id comes back in the header the caller's SDK reads (and the log); the
    gateway's own id in x-interlingua-request-id; W3C trace context goes upstream."""
    script = Script()
    script.headers = {"request-id": "req_upstream_42"}
    trace = {
        "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "tracestate": "congo=t61rcWkgMzE",
    }
    r = call(cfg_data(upstream("a.test")), script, headers=trace)
    assert r.status_code == 200
    assert r.headers["x-request-id"] == "req_upstream_42"  # what the openai SDK reads
    gw_id = r.headers["x-interlingua-request-id"]
    line = access.lines[-1]
    assert (line["request_id"], line["upstream_request_id"]) == (gw_id, "req_upstream_42")
    sent = script.calls[0][2]
    # the same trace (its parent id is the gateway's span when an OpenTelemetry SDK records:
    # test_gateway_metrics; else the caller's, as it came)
    assert sent["traceparent"].split("-")[:2] == trace["traceparent"].split("-")[:2]
    assert sent["tracestate"] == trace["tracestate"]
    # an Anthropic caller reads request-id; an upstream without an id: the gateway's own
    body = {"model": "claude-x", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    r = call(cfg_data(upstream("c.test")), Script(), path="/v1/messages", body=body)
    assert r.status_code == 200
    assert r.headers["request-id"] == r.headers["x-interlingua-request-id"]
    assert access.lines[-1]["upstream_request_id"] is None


def test_anthropic_sdk_reads_the_upstream_request_id() -> None:
    import anthropic

    script = Script()
    script.headers = {"x-request-id": "chatcmpl-up-7"}
    app = create_app(
        load_config(data=cfg_data(upstream("b.test"))), transport=httpx.MockTransport(script)
    )
    server = ServerThread(app)
    server.start()
    try:
        client = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
        msg = client.messages.create(
            model="claude-x", max_tokens=5, messages=[{"role": "user", "content": "hi"}]
        )
        assert msg._request_id == "chatcmpl-up-7"
    finally:
        server.stop()


def test_backoff_and_retry_after_parsing() -> None:
    up = Upstream(name="u", protocol="openai_chat", base_url="http://x", backoff=0.5, backoff_max=3)
    for attempt, (lo, hi) in enumerate([(0.25, 0.5), (0.5, 1.0), (1.0, 2.0), (1.5, 3.0)]):
        waits = [backoff_delay(up, attempt) for _ in range(50)]
        assert all(lo <= w <= hi for w in waits) and len(set(waits)) > 1  # jittered
    assert retry_after(httpx.Headers({"retry-after-ms": "250", "retry-after": "9"})) == 0.25
    assert retry_after(httpx.Headers({"retry-after": "7"})) == 7
    date = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
    assert 25 < (retry_after(httpx.Headers({"retry-after": date})) or 0) <= 31
    assert retry_after(httpx.Headers({"retry-after": "soon"})) is None
    assert retry_after(httpx.Headers({})) is None


@pytest.mark.parametrize("server", ["uvicorn", "interlingua serve"])
def test_client_disconnect_cancels_a_non_streamed_call(access: Collect, server: str) -> None:
    """The caller gives up on a slow non-streamed answer: the gateway closes its upstream call
    (the upstream sees the disconnect) instead of waiting for an answer nobody reads. Under
    uvicorn's own protocol a task watches the caller; under the one ``interlingua serve`` runs,
    the lost connection calls back."""
    from interlingua.gateway.server import GatewayHttpProtocol
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    seen: list[str] = []

    async def slow(request: Request) -> JSONResponse:
        await request.body()
        seen.append("started")
        for _ in range(200):  # 10 s unless the gateway goes away
            await asyncio.sleep(0.05)
            if await request.is_disconnected():
                seen.append("cancelled")
                break
        return JSONResponse({})

    up = ServerThread(Starlette(routes=[Route("/v1/chat/completions", slow, methods=["POST"])]))
    up.start()
    data = cfg_data({**upstream("b.test"), "base_url": up.url + "/v1"})
    http = GatewayHttpProtocol if server == "interlingua serve" else "auto"
    gw = ServerThread(create_app(load_config(data=data)), http=http)
    gw.start()
    try:
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(gw.url + "/v1/chat/completions", json=body, timeout=0.5)
        deadline = time.monotonic() + 5
        while "cancelled" not in seen:
            assert time.monotonic() < deadline, f"the upstream call was not cancelled: {seen}"
            time.sleep(0.02)
        deadline = time.monotonic() + 2
        while not access.lines:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        line = access.lines[-1]
        assert (line["ending"], line["error"], line["status"]) == (
            "cancelled",
            "client_disconnected",
            499,
        )
    finally:
        gw.stop()
        up.stop()


def test_a_caller_gone_before_the_call_registers_still_cancels_it() -> None:
    """Under ``interlingua serve`` the lost connection fires the call's Watch. A caller that
    leaves after its body was read but before the call registered (the window between them)
    cancels the call all the same: the Watch remembers it was lost."""
    from interlingua.gateway.disconnect import ClientGone, DisconnectWatch, Watch

    class Flow:
        def resume_reading(self) -> None:
            pass

    async def call() -> str:
        watch = Watch(Flow())
        watch.fire()  # the connection is lost before the call registers
        scope = {"extensions": {"interlingua.disconnect": watch}}

        async def never() -> Any:
            await asyncio.sleep(3600)

        with DisconnectWatch(never, scope):
            await asyncio.sleep(5)  # the upstream work: cancelled, not run to the end
        return "answered"

    with pytest.raises(ClientGone):
        asyncio.run(asyncio.wait_for(call(), 2))
