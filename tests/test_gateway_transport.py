"""The gateway's lean HTTP/1.1 client (runtime/gateway/h1.py) against scripted upstreams on
loopback: bodies by Content-Length, chunked and until close; SSE relayed as it arrives; gzip and
deflate; keep-alive reuse; a kept connection the upstream closed (dropped, or retried once on a
fresh connection only when the upstream took no byte of the request); timeouts; cancel; TLS
with a self-signed certificate; and the choice of client by URL (a proxy: aiohttp)."""

from __future__ import annotations

import asyncio
import gzip
import shutil
import socket
import ssl
import subprocess
import zlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("aiohttp")

from interlingua.gateway import h1  # noqa: E402
from interlingua.gateway.h1 import H1Pool, Target  # noqa: E402
from interlingua.gateway.transport import UpstreamRequest, UpstreamTransport  # noqa: E402
from yarl import URL  # noqa: E402

Action = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def reply(raw: bytes) -> Action:
    async def act(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(raw)
        await writer.drain()

    return act


def ok(body: bytes, *headers: str) -> Action:
    head = "".join(f"{h}\r\n" for h in headers)
    return reply(f"HTTP/1.1 200 OK\r\ncontent-length: {len(body)}\r\n{head}\r\n".encode() + body)


def chunked(*chunks: bytes, head: str = "") -> bytes:
    out = f"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n{head}\r\n".encode()
    for c in chunks:
        out += b"%x\r\n%s\r\n" % (len(c), c)
    return out + b"0\r\n\r\n"


class Upstream:
    """A scripted HTTP/1.1 server: one action per request, in order; every request kept."""

    def __init__(self, *actions: Action, tls: ssl.SSLContext | None = None) -> None:
        self.actions = list(actions)
        self.requests: list[tuple[bytes, bytes]] = []
        self.connections = 0
        self.writers: list[asyncio.StreamWriter] = []
        self.closed = asyncio.Event()  # a connection ended (its reader saw the end)
        self.tls = tls

    async def __aenter__(self) -> Upstream:
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0, ssl=self.tls)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: Any) -> None:
        for w in self.writers:
            w.close()
        self.server.close()

    def target(self, path: str = "/v1/chat/completions") -> Target:
        return Target("https" if self.tls else "http", "127.0.0.1", self.port, path)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.append(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.lower() == b"content-length":
                        length = int(value)
                self.requests.append((head, await reader.readexactly(length)))
                await self.actions.pop(0)(reader, writer)
        except (asyncio.IncompleteReadError, ConnectionError):
            self.closed.set()
            writer.close()


def run(coro: Awaitable[Any]) -> Any:
    return asyncio.run(coro)  # type: ignore[arg-type]


POOL_TLS = ssl.create_default_context()
TIMEOUTS = (5.0, 5.0)


async def call(pool: H1Pool, up: Upstream, body: bytes = b"{}") -> tuple[int, Any, bytes]:
    answer = await pool.send(
        "POST", up.target(), {"content-type": "application/json"}, body, TIMEOUTS
    )
    try:
        return answer.status_code, answer.headers, await answer.aread()
    finally:
        await answer.aclose()


def test_content_length_answers_reuse_one_connection() -> None:
    async def go() -> None:
        async with Upstream(ok(b'{"a":1}', "X-Request-Id: abc"), ok(b"second")) as up:
            pool = H1Pool(POOL_TLS)
            status, headers, body = await call(pool, up, b'{"q":1}')
            assert (status, body) == (200, b'{"a":1}')
            assert headers["x-request-id"] == headers.get("X-Request-ID") == "abc"
            assert "X-REQUEST-ID" in headers and headers.get("missing") is None
            assert (await call(pool, up))[2] == b"second"
            assert up.connections == 1  # kept alive
            head, sent = up.requests[0]
            assert head.startswith(b"POST /v1/chat/completions HTTP/1.1\r\n")
            assert f"host: 127.0.0.1:{up.port}\r\n".encode() in head
            assert b"content-length: 7\r\n" in head and sent == b'{"q":1}'
            await pool.aclose()

    run(go())


def test_chunked_answer_with_extensions_and_trailers() -> None:
    raw = chunked(b'{"id":', b'"x"}')
    raw = raw.replace(b"6\r\n", b"6;name=v\r\n", 1).replace(b"0\r\n\r\n", b"0\r\nx-t: 1\r\n\r\n")

    async def go() -> None:
        async with Upstream(reply(raw[:30]), ok(b"next")) as up:
            up.actions[0] = split_write(raw, 30)
            pool = H1Pool(POOL_TLS)
            assert (await call(pool, up))[2] == b'{"id":"x"}'
            assert (await call(pool, up))[2] == b"next"
            assert up.connections == 1  # a chunked answer read to its end keeps the connection
            await pool.aclose()

    run(go())


def split_write(raw: bytes, at: int) -> Action:
    async def act(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(raw[:at])
        await writer.drain()
        await asyncio.sleep(0)
        writer.write(raw[at:])
        await writer.drain()

    return act


def test_sse_stream_relayed_as_it_arrives() -> None:
    first = b'data: {"n":1}\n\n'
    rest = b'data: {"n":2}\n\ndata: [DONE]\n\n'
    got_first = asyncio.Event()

    async def stream(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n")
        writer.write(b"transfer-encoding: chunked\r\n\r\n%x\r\n%s\r\n" % (len(first), first))
        await writer.drain()
        await got_first.wait()  # the client had the first event before the rest was written
        writer.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(rest), rest))
        await writer.drain()

    async def go() -> None:
        async with Upstream(stream) as up:
            pool = H1Pool(POOL_TLS)
            answer = await pool.send("POST", up.target(), {}, b"{}", TIMEOUTS)
            assert answer.headers["content-type"] == "text/event-stream"
            chunks = []
            async for chunk in answer.aiter_bytes():
                chunks.append(chunk)
                got_first.set()
            await answer.aclose()
            assert chunks[0] == first and b"".join(chunks) == first + rest
            await pool.aclose()

    run(go())


def test_body_until_close_and_connection_close() -> None:
    async def until_close(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"a":')
        await writer.drain()
        writer.write(b"2}")
        writer.close()

    async def go() -> None:
        async with Upstream(until_close, ok(b"x", "Connection: close"), ok(b"y")) as up:
            pool = H1Pool(POOL_TLS)
            assert (await call(pool, up))[2] == b'{"a":2}'
            assert (await call(pool, up))[2] == b"x"
            assert (await call(pool, up))[2] == b"y"
            assert up.connections == 3  # neither connection could be used again
            await pool.aclose()

    run(go())


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "raw-deflate"])
def test_compressed_bodies_are_decoded(encoding: str) -> None:
    data = b'{"text":"' + b"hello " * 200 + b'"}'
    if encoding == "gzip":
        packed = gzip.compress(data)
    elif encoding == "deflate":
        packed = zlib.compress(data)
    else:
        c = zlib.compressobj(wbits=-zlib.MAX_WBITS)
        packed = c.compress(data) + c.flush()
    name = encoding.removeprefix("raw-")

    async def go() -> None:
        half = len(packed) // 2
        raw = chunked(packed[:half], packed[half:], head=f"content-encoding: {name}\r\n")
        async with Upstream(reply(raw), ok(packed, f"Content-Encoding: {name}")) as up:
            pool = H1Pool(POOL_TLS)
            assert (await call(pool, up))[2] == data
            assert (await call(pool, up))[2] == data
            head = up.requests[0][0].lower()
            await pool.aclose()
        transport = UpstreamTransport(POOL_TLS)  # what the gateway asks for
        async with Upstream(ok(packed, f"Content-Encoding: {name}")) as up:
            url = URL(f"http://127.0.0.1:{up.port}/v1/chat/completions")
            headers = {"accept-encoding": "gzip, deflate"}
            answer = await transport.send(UpstreamRequest(url, headers, b"{}", TIMEOUTS))
            assert await answer.aread() == data
            await answer.aclose()
            assert b"accept-encoding: gzip, deflate" in up.requests[0][0]
            await transport.aclose()
        assert b"content-length: 2" in head

    run(go())


def test_kept_connection_closed_between_calls_is_not_used() -> None:
    async def answer_then_close(reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await ok(b"one")(reader, w)
        w.close()

    async def go() -> None:
        async with Upstream(answer_then_close, ok(b"two")) as up:
            pool = H1Pool(POOL_TLS)
            assert (await call(pool, up))[2] == b"one"
            await up.closed.wait()
            await asyncio.sleep(0)  # the client's loop sees the end
            assert (await call(pool, up))[2] == b"two"
            assert up.connections == 2 and len(up.requests) == 2
            await pool.aclose()

    run(go())


async def serve_one(sock: socket.socket, answer: bytes) -> None:
    """Read one request (its body: b"{}") from a raw socket and answer it."""
    loop = asyncio.get_running_loop()
    data = b""
    while not data.endswith(b"\r\n\r\n{}"):
        data += await loop.sock_recv(sock, 65536)
    await loop.sock_sendall(sock, answer)


def test_kept_connection_closed_as_the_request_left_is_retried_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The upstream closed its end after the pool picked the connection, before the request
    arrived (its kernel answers with a reset, acknowledging no byte): the request goes once
    more on a fresh connection."""

    async def go() -> None:
        loop = asyncio.get_running_loop()
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        target = Target("http", "127.0.0.1", listener.getsockname()[1], "/")
        pool = H1Pool(POOL_TLS)
        first = asyncio.create_task(pool.send("POST", target, {}, b"{}", TIMEOUTS))
        sock, _ = await loop.sock_accept(listener)
        await serve_one(sock, b"HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\none")
        assert await (await first).aread() == b"one"
        picked = pool._idle

        def idle_then_close(key: Any) -> Any:
            conn = picked(key)
            sock.close()  # at once, before the client's loop can see it
            return conn

        monkeypatch.setattr(pool, "_idle", idle_then_close)
        second = asyncio.create_task(pool.send("POST", target, {}, b"{}", TIMEOUTS))
        fresh, _ = await loop.sock_accept(listener)
        await serve_one(fresh, b"HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\ntwo")
        assert await (await second).aread() == b"two"
        fresh.close()
        listener.close()
        await pool.aclose()

    run(go())


def test_request_the_upstream_took_is_never_sent_again() -> None:
    async def read_and_hang_up(reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        w.close()  # the request was read: the upstream may have acted on it

    async def go() -> None:
        async with Upstream(ok(b"one"), read_and_hang_up, ok(b"never")) as up:
            pool = H1Pool(POOL_TLS)
            assert (await call(pool, up))[2] == b"one"
            with pytest.raises(httpx.RemoteProtocolError):
                await call(pool, up)
            assert len(up.requests) == 2 and up.connections == 1
            await pool.aclose()

    run(go())


def test_body_cut_short_is_an_error() -> None:
    async def cut(reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        w.write(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc")
        await w.drain()
        w.close()

    async def go() -> None:
        async with Upstream(cut) as up:
            pool = H1Pool(POOL_TLS)
            with pytest.raises(httpx.RemoteProtocolError):
                await call(pool, up)
            await pool.aclose()

    run(go())


def test_read_timeout_connect_errors_and_bad_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    async def silent(reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await reader.readexactly(1)  # never answers: waits until the client leaves

    async def go() -> None:
        async with Upstream(silent) as up:
            pool = H1Pool(POOL_TLS)
            with pytest.raises(httpx.ReadTimeout):
                await pool.send("POST", up.target(), {}, b"{}", (5.0, 0.05))
            await asyncio.wait_for(up.closed.wait(), 5)  # the connection was closed
            with pytest.raises(httpx.LocalProtocolError):
                await pool.send("POST", up.target(), {"x-a": "1\r\nx-b: 2"}, b"{}", TIMEOUTS)
            await pool.aclose()
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()  # nothing listens there
        pool = H1Pool(POOL_TLS)
        with pytest.raises(httpx.ConnectError):
            await pool.send("POST", Target("http", "127.0.0.1", port, "/"), {}, b"", TIMEOUTS)

        async def never(*a: Any, **k: Any) -> Any:
            await asyncio.sleep(3600)

        monkeypatch.setattr(asyncio.get_running_loop(), "create_connection", never)
        with pytest.raises(httpx.ConnectTimeout):
            await pool.send("POST", Target("http", "127.0.0.1", port, "/"), {}, b"", (0.05, 5))

    run(go())


def test_one_alarm_serves_every_timeout() -> None:
    """A short timeout ends its call while a longer one on another connection goes on."""
    go_on = asyncio.Event()

    async def late(reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await go_on.wait()
        await ok(b"late")(reader, w)

    async def silent(reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await reader.readexactly(1)

    async def go() -> None:
        async with Upstream(late, silent) as up:
            pool = H1Pool(POOL_TLS)
            patient = asyncio.create_task(pool.send("POST", up.target(), {}, b"{}", (5, 30)))
            while not up.requests:
                await asyncio.sleep(0)
            with pytest.raises(httpx.ReadTimeout):
                await pool.send("POST", up.target(), {}, b"{}", (5.0, 0.05))
            assert not patient.done()
            go_on.set()
            answer = await patient
            assert await answer.aread() == b"late"
            await pool.aclose()

    run(go())


def test_idle_connections_expire(monkeypatch: pytest.MonkeyPatch) -> None:
    async def go() -> None:
        async with Upstream(ok(b"one"), ok(b"two")) as up:
            pool = H1Pool(POOL_TLS)
            await call(pool, up)
            monkeypatch.setattr(h1, "IDLE", 0.0)  # every idle connection is now too old
            await call(pool, up)
            assert up.connections == 2
            await pool.aclose()

    run(go())


def test_cancel_closes_the_connection() -> None:
    """A cancelled call (the caller left) ends upstream: waiting for the head, or mid-stream."""
    started = asyncio.Event()

    async def slow(reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        started.set()
        await reader.readexactly(1)  # never answers: waits until the client leaves

    async def half_stream(reader: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        w.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n")
        await w.drain()

    async def go() -> None:
        async with Upstream(slow) as up:
            pool = H1Pool(POOL_TLS)
            task = asyncio.create_task(pool.send("POST", up.target(), {}, b"{}", TIMEOUTS))
            await started.wait()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await asyncio.wait_for(up.closed.wait(), 5)
            assert not any(pool.idle.values())
        async with Upstream(half_stream) as up:
            answer = await pool.send("POST", up.target(), {}, b"{}", TIMEOUTS)
            async for chunk in answer.aiter_bytes():
                assert chunk == b"hello"
                break
            await answer.aclose()  # not read to its end
            await asyncio.wait_for(up.closed.wait(), 5)
            assert not any(pool.idle.values())
            await pool.aclose()

    run(go())


def test_interim_answer_is_skipped() -> None:
    async def go() -> None:
        async with Upstream(reply(b"HTTP/1.1 100 Continue\r\n\r\n")) as up:
            up.actions[0] = reply(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\n"
                                  b"content-length: 2\r\n\r\nok")  # fmt: skip
            pool = H1Pool(POOL_TLS)
            assert (await call(pool, up))[::2] == (201, b"ok")
            await pool.aclose()

    run(go())


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_tls_with_a_self_signed_certificate(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(cert, key)
    trusting = ssl.create_default_context(cafile=str(cert))

    async def go() -> None:
        async with Upstream(ok(b"secret"), ok(b"again"), tls=server) as up:
            pool = H1Pool(trusting)
            assert (await call(pool, up))[2] == b"secret"
            assert (await call(pool, up))[2] == b"again"
            assert up.connections == 1
            await pool.aclose()
            with pytest.raises(httpx.ConnectError):  # not trusted by the default store
                await call(H1Pool(ssl.create_default_context()), up)

    run(go())


def test_client_chosen_by_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.internal:3128")
    transport = UpstreamTransport(POOL_TLS)
    direct = transport.target(URL("http://127.0.0.1:8000/v1/chat/completions?x=1"))
    assert direct is not None and direct.key == ("http", "127.0.0.1", 8000)
    assert direct.path == "/v1/chat/completions?x=1" and direct.host_header == "127.0.0.1:8000"
    assert transport.target(URL("https://api.example.com/v1/messages")) is None  # aiohttp
    plain = transport.target(URL("http://[::1]/v1"))
    assert plain is not None and plain.host_header == "[::1]" and plain.port == 80


def test_a_slow_caller_holds_the_upstream_back() -> None:
    """An upstream much faster than the caller: at most about HIGH_WATER bytes wait in memory
    (the socket stops being read), the body arrives whole, and the kept connection serves the
    next call."""
    big = bytes(range(256)) * (5 * 4096)  # 5 MiB

    async def go() -> None:
        async with Upstream(ok(big), ok(b"next")) as up:
            pool = H1Pool(POOL_TLS)
            answer = await pool.send("POST", up.target(), {}, b"{}", TIMEOUTS)
            got, most, paused = bytearray(), 0, False
            async for piece in answer.aiter_bytes():
                got += piece
                await asyncio.sleep(0.02)  # the caller is slow: the upstream wrote it all
                conn = answer._conn  # noqa: SLF001
                if conn is not None:
                    most = max(most, len(conn.buf))
                    paused = paused or conn.paused
            await answer.aclose()
            assert bytes(got) == big
            assert paused and most <= h1.HIGH_WATER + (1 << 18)
            assert (await call(pool, up))[2] == b"next" and up.connections == 1
            await pool.aclose()

    run(go())
