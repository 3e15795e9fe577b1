"""The HTTP protocol ``interlingua serve`` runs (gateway/server.py): uvicorn's httptools protocol
whose answers with a length leave in one write (a stream's head at once, before its events; a
head with no body write is not held back), whose lost connections call back the call waiting
on its upstream (no watcher task), and whose one keep-alive timer per connection closes it once
idle for the timeout."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("httptools")

import uvicorn  # noqa: E402
from interlingua.gateway.app import create_app  # noqa: E402
from interlingua.gateway.config import load_config  # noqa: E402
from interlingua.gateway.server import GatewayHttpProtocol  # noqa: E402
from uvicorn.server import ServerState  # noqa: E402

from tests.test_gateway_retry import Script, cfg_data, upstream  # noqa: E402


class Transport(asyncio.Transport):
    """Records what the protocol writes."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False
        self.reading = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8080)}.get(name)

    def write(self, data: bytes) -> None:  # type: ignore[override]
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True


def connect(app: Any, **options: Any) -> tuple[GatewayHttpProtocol, Transport, ServerState]:
    config = uvicorn.Config(app, http=GatewayHttpProtocol, log_level="critical", **options)
    config.load()
    state = ServerState()
    protocol = GatewayHttpProtocol(config=config, server_state=state, app_state={})
    transport = Transport()
    protocol.connection_made(transport)
    return protocol, transport, state


def post(path: str, body: dict[str, Any]) -> bytes:
    data = orjson.dumps(body)
    head = f"POST {path} HTTP/1.1\r\nhost: gw\r\ncontent-type: application/json\r\n"
    return head.encode() + f"content-length: {len(data)}\r\n\r\n".encode() + data


async def settle(state: ServerState) -> None:
    for _ in range(200):
        if not state.tasks:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the call did not end")


def gateway(answer: Any) -> Any:
    return create_app(
        load_config(data=cfg_data(upstream("b.test"))), transport=httpx.MockTransport(answer)
    )


def test_an_answer_leaves_in_one_write_and_keeps_the_connection() -> None:
    async def run() -> None:
        protocol, transport, state = connect(gateway(Script()))
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        for _ in range(2):  # keep-alive: the second call on the same connection
            transport.writes.clear()
            protocol.data_received(post("/v1/chat/completions", body))
            await settle(state)
            assert len(transport.writes) == 1, transport.writes
            head, _, payload = transport.writes[0].partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200 OK") and b"x-interlingua-request-id" in head
            assert orjson.loads(payload)["choices"][0]["message"]["content"] == "hello"
        assert not transport.closed
        transport.writes.clear()
        protocol.data_received(b"GET /healthz HTTP/1.1\r\nhost: gw\r\nconnection: close\r\n\r\n")
        await settle(state)
        assert transport.writes[0].startswith(b"HTTP/1.1 200") and transport.closed

    asyncio.run(run())


def test_a_head_with_no_body_write_is_sent() -> None:
    """A HEAD answer has a length and no body write: its head leaves when it completes."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        headers = [(b"content-length", b"5"), (b"content-type", b"text/plain")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"hello"})

    async def run() -> None:
        protocol, transport, state = connect(app)
        protocol.data_received(b"HEAD /x HTTP/1.1\r\nhost: gw\r\n\r\n")
        await settle(state)
        assert len(transport.writes) == 1 and transport.writes[0].endswith(b"\r\n\r\n")
        assert b"content-length: 5" in transport.writes[0]
        protocol.data_received(b"GET /x HTTP/1.1\r\nhost: gw\r\n\r\n")  # the next answer
        await settle(state)
        assert (
            transport.writes[1].startswith(b"HTTP/1.1 200") and transport.writes[1][-5:] == b"hello"
        )

    asyncio.run(run())


def test_a_stream_head_leaves_before_its_events() -> None:
    release = asyncio.Event()

    def answer(request: httpx.Request) -> httpx.Response:
        async def chunks() -> Any:
            await release.wait()  # the upstream's events come later
            body = Script()(request)
            yield await body.aread()

        return httpx.Response(200, content=chunks(), headers={"content-type": "text/event-stream"})

    async def run() -> None:
        protocol, transport, state = connect(gateway(answer))
        body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
        protocol.data_received(post("/v1/chat/completions", body))
        for _ in range(200):
            if transport.writes:
                break
            await asyncio.sleep(0.01)
        assert transport.writes[0].startswith(b"HTTP/1.1 200 OK")
        assert transport.writes[0].endswith(b"\r\n\r\n")  # the head alone, no event yet
        release.set()
        await settle(state)
        assert b"[DONE]" in b"".join(transport.writes[1:])

    asyncio.run(run())


def test_a_stream_that_is_all_there_leaves_in_one_write() -> None:
    """An upstream stream whose head and body came in one read (a short answer, or a fast
    upstream): the caller gets the head, every event and the end of the chunked body in one
    write, not three (head, events, end)."""
    chunk = {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": "hi"}, "finish_reason": None}],
    }
    end = {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    sse = b"".join(b"data: " + orjson.dumps(c) + b"\n\n" for c in (chunk, end))
    sse += b"data: [DONE]\n\n"
    canned = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
    canned += f"content-length: {len(sse)}\r\n\r\n".encode() + sse

    async def upstream_conn(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
        await reader.readexactly(length)
        writer.write(canned)  # the head and the whole body in one write
        await writer.drain()
        await reader.read()  # kept alive until the gateway closes it
        writer.close()

    async def run() -> None:
        server = await asyncio.start_server(upstream_conn, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        up = {
            "name": "u",
            "protocol": "openai_chat",
            "base_url": f"http://127.0.0.1:{port}/v1",
            "api_key_env": "",
        }
        app = create_app(load_config(data=cfg_data(up)))
        protocol, transport, state = connect(app)
        body = {
            "model": "m",
            "stream": True,
            "max_tokens": 9,
            "messages": [{"role": "user", "content": "hi"}],
        }
        protocol.data_received(post("/v1/messages", body))
        await settle(state)
        assert len(transport.writes) == 1, transport.writes
        [out] = transport.writes
        assert out.startswith(b"HTTP/1.1 200 OK") and b"text/event-stream" in out
        assert b"message_stop" in out and out.endswith(b"0\r\n\r\n")
        await app.state.gateway.pool.aclose()
        server.close()

    asyncio.run(run())


def test_a_lost_connection_cancels_the_call_without_a_watcher_task() -> None:
    started, cancelled = asyncio.Event(), asyncio.Event()

    async def slow(request: httpx.Request) -> httpx.Response:
        started.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        raise AssertionError("not cancelled")

    async def run() -> None:
        protocol, transport, state = connect(gateway(slow))
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        protocol.data_received(post("/v1/chat/completions", body))
        await asyncio.wait_for(started.wait(), 5)
        assert len(asyncio.all_tasks()) == 2  # this test and the call: nobody else waits
        protocol.connection_lost(None)
        await asyncio.wait_for(cancelled.wait(), 5)
        await settle(state)
        assert transport.writes == []  # nothing answered to a caller that left

    asyncio.run(run())


def test_an_idle_connection_is_closed_after_the_keep_alive_timeout() -> None:
    """One timer per connection, moved on while calls come: the connection closes once it has
    been idle for ``timeout_keep_alive`` after its last answer, not counted from the first."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def run() -> None:
        protocol, transport, state = connect(app, timeout_keep_alive=0.2)
        get = b"GET /x HTTP/1.1\r\nhost: gw\r\n\r\n"
        for _ in range(4):  # a call every 0.1 s: never idle for 0.2 s
            protocol.data_received(get)
            await settle(state)
            await asyncio.sleep(0.1)
            assert not transport.closed
        await asyncio.sleep(0.25)
        assert transport.closed
        assert sum(w.startswith(b"HTTP/1.1 204") for w in transport.writes) == 4

    asyncio.run(run())
