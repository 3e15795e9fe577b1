"""The HTTP/1.1 protocol ``interlingua serve`` runs: uvicorn's httptools protocol with three costs
per call less. The app is the same ASGI app under any server; only the server side differs.

- **Disconnects without a watcher task.** A call that waits on its upstream must learn that its
  caller left (disconnect.py). Under any ASGI server that means a task blocked on ``receive()``
  for each call: a task made and cancelled per call (~40 K instructions of a ~750 K call). Here
  the connection itself says so: ``connection_lost`` fires the ``Watch`` the call registered
  with in ``scope["extensions"]["interlingua.disconnect"]``; reading is resumed on registering,
  as a ``receive()`` would, so that the disconnect is seen.
- **One keep-alive timer per connection**, not one made per answer and cancelled per request:
  it is moved on when it fires early.
- **One write per answer.** uvicorn writes an answer's status line and headers as soon as the
  app starts it, then the body: two system calls, two packets, and a caller woken twice. Here
  the writes go through ``_Out``, which holds a head with a ``Content-Length`` until the body's
  write and sends both as one (a head is also let go when its answer completes without a body
  write, e.g. to HEAD, and before a close). A stream's head (no length) is held for the rest of
  the loop's turn only: it leaves with the first events when the upstream's first read was
  already in, alone at the next turn otherwise (never later than that: a caller waiting for a
  slow first token still gets the head at once).

Everything else (parsing, keep-alive, pipelining, flow control, graceful shutdown, ``--workers``)
is uvicorn's own.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .disconnect import DISCONNECT, Watch, disconnect_hook

__all__ = ["GatewayHttpProtocol"]

_SIZED = b"\r\ncontent-length: "  # uvicorn writes header names in lower case


class _Out:
    """A connection's writes, as uvicorn's cycles make them: a sized answer's head held until
    the next write (its body) and sent with it."""

    __slots__ = ("real", "held", "head_next", "loop")

    def __init__(self, real: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.real = real
        self.loop = loop
        self.held = b""
        self.head_next = True  # the next write that starts with "HTTP/1.1 " is an answer's head

    def write(self, data: bytes) -> None:
        if self.head_next and data[:9] == b"HTTP/1.1 " and data[9:12] != b"100":
            self.head_next = False
            self.held = data
            if _SIZED not in data:  # a stream's: with its first events if they are ready in
                self.loop.call_soon(self.flush)  # this turn of the loop, else alone at the next
            return
        if self.held:
            data, self.held = self.held + data, b""
        self.real.write(data)

    def flush(self) -> None:
        if self.held:
            data, self.held = self.held, b""
            if not self.real.is_closing():
                self.real.write(data)

    def close(self) -> None:
        self.flush()
        self.real.close()

    def is_closing(self) -> bool:
        return self.real.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.real.get_extra_info(name, default)


class GatewayHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the disconnect callbacks and one-write answers."""

    out: _Out
    idle_since: float | None = None  # when the last answer completed, None while busy

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.out = _Out(transport, self.loop)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.scope["extensions"] = {DISCONNECT: Watch(self.flow)}  # type: ignore[dict-item]

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        cycle = self.cycle
        if cycle is not None and cycle.transport is self.transport:
            cycle.transport = self.out  # type: ignore[assignment]

    def on_response_complete(self) -> None:
        """uvicorn's, but for the keep-alive timer: armed once and moved on when it fires,
        instead of a timer made at each answer and cancelled at the next request."""
        out = self.out
        out.flush()  # an answer with no body write (HEAD, 204, 304)
        out.head_next = True  # the next answer on this connection
        self.server_state.total_requests += 1
        if self.transport.is_closing():
            return
        self.flow.resume_reading()
        if self.pipeline:
            cycle, app = self.pipeline.pop()
            self._start_asgi_task(cycle, app)
            return
        self.idle_since = self.loop.time()
        if self.timeout_keep_alive_task is None:
            self.timeout_keep_alive_task = self.loop.call_later(
                self.timeout_keep_alive, self.timeout_keep_alive_handler
            )

    def _unset_keepalive_if_required(self) -> None:
        self.idle_since = None  # data came in: not idle (the timer finds out when it fires)

    def timeout_keep_alive_handler(self) -> None:
        self.timeout_keep_alive_task = None
        if self.idle_since is None:
            return  # busy: armed again when the answer is complete
        left = self.idle_since + self.timeout_keep_alive - self.loop.time()
        if left > 0:
            self.timeout_keep_alive_task = self.loop.call_later(
                left, self.timeout_keep_alive_handler
            )
        elif not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timeout_keep_alive_task is not None:
            self.timeout_keep_alive_task.cancel()
            self.timeout_keep_alive_task = None
        cycle = self.cycle
        watch = None
        if cycle is not None and not cycle.response_complete:
            watch = disconnect_hook(cycle.scope)
        super().connection_lost(exc)
        if watch is not None:
            watch.fire()
