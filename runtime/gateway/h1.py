"""A lean HTTP/1.1 client on asyncio: the upstream calls' keep-alive connections.

One ``H1Pool`` keeps idle connections per (scheme, host, port), the most recently used first,
each kept ``IDLE`` seconds. A call writes its request in one write (head and body), reads the
answer's head, and hands back an ``H1Answer`` whose body is read whole (``aread``) or as it
arrives (``aiter_bytes``): Content-Length, chunked, or until the upstream closes; gzip and
deflate bodies are decoded. The connection goes back to the pool once its answer was read to
the end (unless the upstream said ``Connection: close``); an answer closed before its end
closes its connection (a cancelled call ends upstream). TLS goes through the ``ssl`` context
given. ``timeout`` is the longest wait for the next byte of an answer, ``connect`` the longest
wait for a new connection.

A kept connection the upstream closed is never used: one found closed before the request is
written is dropped, and one that closes after the request was written, before any byte of the
answer, is replaced by a fresh connection for one more try only when the upstream's TCP stack
acknowledged no byte of the request (``TCP_INFO``: the upstream cannot have read it). Otherwise
the failure is the caller's (``RemoteProtocolError``): the upstream may have acted on it (the
idempotency rule, docs/gateway.md). Failures are httpx's exceptions, as the gateway handles
them: ``ConnectError`` / ``ConnectTimeout`` when the request never left, ``ReadTimeout``,
``ReadError``, ``RemoteProtocolError``.

Per call this costs about a sixth of aiohttp's client (docs/performance.md, "Gateway overhead").
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import sys

import httpx

from .h1answer import H1Answer, parse_head

__all__ = ["H1Pool", "Target"]

IDLE = 5.0  # seconds an idle connection is kept (as httpx and aiohttp kept them)
_TCP_INFO = getattr(socket, "TCP_INFO", None)
_MAX_HEAD = 1 << 16  # an answer's head longer than this is refused
HIGH_WATER = 1 << 20  # bytes read ahead of the caller before the socket stops being read


class Target:
    """Where a URL's requests go: the pool's key, the request target, the Host header."""

    __slots__ = ("key", "host", "port", "tls", "path", "host_header")

    def __init__(self, scheme: str, host: str, port: int | None, path: str) -> None:
        self.tls = scheme == "https"
        self.host = host
        self.port = port or (443 if self.tls else 80)
        self.key = (scheme, host, self.port)
        self.path = path or "/"
        name = f"[{host}]" if ":" in host else host
        self.host_header = name if port is None else f"{name}:{port}"


def _acked(transport: asyncio.BaseTransport | None) -> int | None:
    """The bytes the peer's TCP stack acknowledged on this connection (Linux), or None."""
    if _TCP_INFO is None or transport is None:
        return None
    try:
        info = transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, _TCP_INFO, 136)
    except (OSError, AttributeError, ValueError):
        return None
    return int.from_bytes(info[120:128], sys.byteorder) if len(info) >= 128 else None


class _Conn(asyncio.Protocol):
    """One connection: bytes in ``buf``; a reader waits on ``waiter``."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, key: tuple[str, str, int], alarm: _Alarm
    ) -> None:
        self.loop = loop
        self.key = key
        self.alarm = alarm
        self.deadline = 0.0  # of the current wait (loop time)
        self.tls = key[0] == "https"
        self.written = 0  # bytes written on the connection (before TLS)
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.waiter: asyncio.Future[bool] | None = None
        self.ended = False  # the upstream closed (or reset) the connection
        self.error: BaseException | None = None
        self.idle_since = 0.0
        self.base: int | None = None  # bytes acknowledged before the request was written
        self.end_acked: int | None = None  # ... when the connection ended
        self.paused = False  # reading stopped: the caller is HIGH_WATER bytes behind

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if len(self.buf) > HIGH_WATER and not self.paused and self.transport is not None:
            self.paused = True  # a slow caller holds the upstream back, not our memory
            self.transport.pause_reading()
        w = self.waiter
        if w is not None:
            self.waiter = None
            if not w.done():
                w.set_result(True)

    def _end(self, exc: BaseException | None) -> None:
        if not self.ended:
            self.ended = True
            self.end_acked = _acked(self.transport)
        if exc is not None and self.error is None:
            self.error = exc
        w = self.waiter
        if w is not None:
            self.waiter = None
            if not w.done():
                w.set_result(True)

    def eof_received(self) -> bool:
        self._end(None)
        return False  # the transport closes

    def connection_lost(self, exc: Exception | None) -> None:
        self._end(exc)

    def unsent(self) -> bool:
        """Did the connection end with no byte of the request acknowledged by the peer?"""
        return self.base is not None and self.end_acked is not None and self.end_acked <= self.base

    def resume(self) -> None:
        """Read the socket again after ``data_received`` paused it."""
        if self.paused:
            self.paused = False
            if self.transport is not None and not self.ended:
                self.transport.resume_reading()

    async def wait(self, timeout: float | None) -> None:
        """Until more bytes (or the end) arrive; ReadTimeout after ``timeout`` seconds."""
        self.resume()  # the caller took what was read
        fut: asyncio.Future[bool] = self.loop.create_future()
        self.waiter = fut
        alarm = self.alarm
        if timeout is not None:
            alarm.watch(self, timeout)
        try:
            got = await fut
        finally:
            self.waiter = None
            if timeout is not None:
                alarm.watched.discard(self)
        if not got:
            raise httpx.ReadTimeout(f"no answer from the upstream for {timeout} s")

    def broken(self, what: str) -> httpx.TransportError:
        if isinstance(self.error, OSError):
            return httpx.ReadError(f"{what}: {self.error}")
        return httpx.RemoteProtocolError(f"the upstream closed the connection {what}")

    def close(self) -> None:
        self.ended = True
        if self.transport is not None:
            self.transport.close()


class _Alarm:
    """The read timeouts of every waiting connection, on one timer at the earliest deadline
    (a timer per wait costs more, on uvloop, than the rest of a call's reading)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.watched: set[_Conn] = set()
        self.timer: asyncio.TimerHandle | None = None
        self.at = float("inf")

    def watch(self, conn: _Conn, timeout: float) -> None:
        deadline = conn.deadline = self.loop.time() + timeout
        self.watched.add(conn)
        if deadline < self.at:
            if self.timer is not None:
                self.timer.cancel()
            self.at = deadline
            self.timer = self.loop.call_at(deadline, self.ring)

    def ring(self) -> None:
        self.timer, self.at = None, float("inf")
        now = self.loop.time()
        nearest = float("inf")
        for conn in list(self.watched):
            if conn.deadline <= now:  # no byte for its timeout: its wait ends
                self.watched.discard(conn)
                fut = conn.waiter
                if fut is not None and not fut.done():
                    fut.set_result(False)
            elif conn.deadline < nearest:
                nearest = conn.deadline
        if nearest < self.at:
            self.at = nearest
            self.timer = self.loop.call_at(nearest, self.ring)

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer, self.at = None, float("inf")


class _Unsent(Exception):
    """A kept connection ended before the upstream took any byte of the request."""


class H1Pool:
    """Keep-alive connections to every upstream, for the running event loop."""

    def __init__(self, tls: ssl.SSLContext) -> None:
        self.tls = tls
        self.idle: dict[tuple[str, str, int], list[_Conn]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sweeping: asyncio.TimerHandle | None = None
        self.alarm: _Alarm | None = None  # the read timeouts (made with the loop)

    def put(self, conn: _Conn) -> None:
        if conn.ended or conn.loop is not self.loop:
            conn.close()
            return
        conn.resume()  # its answer was read to the end: the next one must be read too
        conn.idle_since = conn.loop.time()
        self.idle.setdefault(conn.key, []).append(conn)
        if self.sweeping is None:
            self.sweeping = conn.loop.call_later(IDLE, self._sweep)

    def _sweep(self) -> None:
        self.sweeping = None
        if self.loop is None:
            return
        old = self.loop.time() - IDLE
        left = False
        for conns in self.idle.values():
            for c in [c for c in conns if c.ended or c.idle_since <= old]:
                conns.remove(c)
                c.close()
            left = left or bool(conns)
        if left:
            self.sweeping = self.loop.call_later(IDLE, self._sweep)

    def _idle(self, key: tuple[str, str, int]) -> _Conn | None:
        conns = self.idle.get(key)
        if not conns:
            return None
        old = self.loop.time() - IDLE  # type: ignore[union-attr]
        while conns:
            c = conns.pop()
            if c.ended or c.buf or c.idle_since <= old or c.transport.is_closing():  # type: ignore[union-attr]
                c.close()
                continue
            return c
        return None

    async def _connect(self, target: Target, timeout: float | None) -> _Conn:
        loop, alarm = self.loop, self.alarm
        assert loop is not None and alarm is not None
        made = loop.create_connection(
            lambda: _Conn(loop, target.key, alarm),
            target.host,
            target.port,
            ssl=self.tls if target.tls else None,
            server_hostname=target.host if target.tls else None,
        )
        try:
            _, conn = await asyncio.wait_for(made, timeout)
        except TimeoutError:
            raise httpx.ConnectTimeout(f"connecting to {target.host_header} timed out") from None
        except (OSError, ssl.SSLError) as e:
            raise httpx.ConnectError(f"cannot connect to {target.host_header}: {e}") from e
        return conn

    async def send(
        self,
        method: str,
        target: Target,
        headers: dict[str, str],
        body: bytes | None,
        timeout: tuple[float | None, float | None],
    ) -> H1Answer:
        """Write the request and return once the answer's head is in."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop:  # connections belong to one event loop
            for conns in self.idle.values():
                for c in conns:
                    c.close()
            self.idle.clear()
            if self.alarm is not None:
                self.alarm.close()
            self.loop, self.sweeping, self.alarm = loop, None, _Alarm(loop)
        lines = [f"{method} {target.path} HTTP/1.1\r\nhost: {target.host_header}\r\n"]
        lines += [f"{k}: {v}\r\n" for k, v in headers.items()]
        if body is not None:
            lines.append(f"content-length: {len(body)}\r\n")
        text = "".join(lines)
        if text.count("\n") != len(lines) + 1 or text.count("\r") != len(lines) + 1:
            raise httpx.LocalProtocolError("a header name or value holds a line break")
        request = (text + "\r\n").encode()
        if body:
            request += body
        for tries in (1, 0):
            conn = self._idle(target.key) if tries else None  # the second try: a fresh one
            kept = conn is not None
            if conn is None:
                conn = await self._connect(target, timeout[0])
            try:
                return await self._exchange(conn, request, timeout[1], method == "HEAD")
            except _Unsent:
                conn.close()
                if not (kept and tries):
                    raise httpx.ConnectError(
                        "the upstream closed the connection before taking the request"
                    ) from None
            except BaseException:
                conn.close()
                raise
        raise AssertionError("unreachable")

    async def _exchange(
        self, conn: _Conn, request: bytes, timeout: float | None, head: bool
    ) -> H1Answer:
        # TCP_INFO's count of acknowledged bytes includes the SYN; with TLS the bytes on the
        # wire are not the ones written here, so the count is asked for before the request
        conn.base = _acked(conn.transport) if conn.tls else conn.written + 1
        conn.written += len(request)
        conn.transport.write(request)  # type: ignore[union-attr]
        buf = conn.buf
        while True:
            i = buf.find(b"\r\n\r\n")
            if i < 0:
                if conn.ended:
                    if not buf and conn.unsent():
                        raise _Unsent()
                    raise conn.broken("before answering")
                if len(buf) > _MAX_HEAD:
                    raise httpx.RemoteProtocolError("the upstream's answer head is too long")
                await conn.wait(timeout)
                continue
            text = buf[:i].decode("latin-1")
            del buf[: i + 4]
            status, headers, close = parse_head(text)
            if 100 <= status < 200:  # an interim answer: the real one follows
                continue
            break
        return H1Answer(self, conn, status, headers, head, timeout, not close)

    async def aclose(self) -> None:
        for conns in self.idle.values():
            for c in conns:
                c.close()
        self.idle.clear()
        if self.sweeping is not None:
            self.sweeping.cancel()
            self.sweeping = None
        if self.alarm is not None:
            self.alarm.close()
