"""A caller that goes away cancels its upstream call, streamed or not.

A non-streamed call runs its upstream work (the attempts, the waits between them, reading the
answer) while a watcher task reads the caller's connection: when the ASGI server reports
``http.disconnect`` the watcher cancels the call's task, which closes the upstream connection,
and ``ClientGone`` is raised. Streams watch the same way while they relay (streaming.py). The
watcher starts once the request body has been read (it would otherwise take body chunks).

Plain asyncio (one task, ``Task.cancel`` / ``uncancel``) rather than an anyio task group: on a
fast upstream the task group's set-up and cancel cost as much as the HTTP exchange. Under
``interlingua serve`` (server.py) not even the task: the connection calls back when it is lost.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

__all__ = [
    "DISCONNECT",
    "ClientGone",
    "DisconnectWatch",
    "Watch",
    "disconnect_hook",
    "until_disconnect",
]

T = TypeVar("T")

Receive = Callable[[], Awaitable[Any]]


DISCONNECT = "interlingua.disconnect"  # the scope extension of server.py: a Watch


class Watch:
    """What a call registers with to hear of its caller's disconnect (``add`` / ``discard``);
    the server's connection calls ``fire`` when it is lost (server.py)."""

    __slots__ = ("hooks", "flow", "lost")

    def __init__(self, flow: Any) -> None:
        self.hooks: list[Callable[[], None]] = []
        self.flow = flow
        self.lost = False

    def add(self, callback: Callable[[], None]) -> None:
        if self.lost:  # the caller left before the call registered: as receive() would say
            callback()
            return
        self.hooks.append(callback)
        self.flow.resume_reading()  # as a receive() would: a disconnect is then seen

    def discard(self, callback: Callable[[], None]) -> None:
        if callback in self.hooks:
            self.hooks.remove(callback)

    def fire(self) -> None:
        self.lost = True
        for callback in list(self.hooks):
            callback()


def disconnect_hook(scope: Any) -> Watch | None:
    """The server's ``Watch`` for this call, or None under another server."""
    ext = scope.get("extensions")
    return ext.get(DISCONNECT) if ext else None  # type: ignore[no-any-return]


class ClientGone(Exception):
    """The caller disconnected before its answer was ready."""


class DisconnectWatch:
    """``with DisconnectWatch(receive) as w:`` cancels the current task when the caller
    disconnects; on the way out ``w.gone`` tells whether it did (the cancellation it caused is
    then taken back: ``uncancel``)."""

    __slots__ = ("receive", "hook", "task", "watcher", "gone")

    def __init__(self, receive: Receive, scope: Any = None) -> None:
        self.receive = receive
        self.hook = disconnect_hook(scope) if scope is not None else None
        self.gone = False
        self.watcher: asyncio.Task[None] | None = None

    def _lost(self) -> None:  # the server's callback (server.py)
        self.gone = True
        self.task.cancel()

    async def _watch(self) -> None:
        while True:
            message = await self.receive()
            if message["type"] == "http.disconnect":
                self.gone = True
                self.task.cancel()
                return

    def __enter__(self) -> DisconnectWatch:
        task = asyncio.current_task()
        assert task is not None
        self.task = task
        if self.hook is not None:
            self.hook.add(self._lost)
        else:
            self.watcher = asyncio.get_running_loop().create_task(self._watch())
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        if self.watcher is not None:
            self.watcher.cancel()
        else:
            self.hook.discard(self._lost)  # type: ignore[union-attr]
        if self.gone and self.task.uncancel() == 0 and kind in (None, asyncio.CancelledError):
            raise ClientGone() from None  # our own cancel (another one is passed on)


async def until_disconnect(request: Any, work: Callable[[], Awaitable[T]]) -> T:
    """``work()``'s result, or ClientGone when the caller left first (``work`` is cancelled)."""
    with DisconnectWatch(request.receive, request.scope):
        return await work()
