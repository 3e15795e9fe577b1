"""The HTTP/1.1 protocol ``interlingua serve`` runs: uvicorn's httptools protocol with a cost per
call less. The app is the same ASGI app under any server; only the server side differs.

**Disconnects without a watcher task.** A call that waits on its upstream must learn that its
caller left (disconnect.py). Under any ASGI server that means a task blocked on ``receive()``
for each call: a task made and cancelled per call (~40 K instructions of a ~750 K call). Here
the connection itself says so: ``connection_lost`` fires the ``Watch`` the call registered with
in ``scope["extensions"]["interlingua.disconnect"]``; reading is resumed on registering, as a
``receive()`` would, so that the disconnect is seen.

Everything else (parsing, keep-alive, pipelining, flow control, graceful shutdown, ``--workers``)
is uvicorn's own.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .disconnect import DISCONNECT, Watch, disconnect_hook

__all__ = ["GatewayHttpProtocol"]


class GatewayHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the disconnect callbacks."""

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.scope["extensions"] = {DISCONNECT: Watch(self.flow)}  # type: ignore[dict-item]

    def connection_lost(self, exc: Exception | None) -> None:
        cycle = self.cycle
        watch = None
        if cycle is not None and not cycle.response_complete:
            watch = disconnect_hook(cycle.scope)
        super().connection_lost(exc)
        if watch is not None:
            watch.fire()
