"""A caller that goes away cancels its upstream call, streamed or not.

A non-streamed call runs its upstream work (the attempts, the waits between them, reading the
answer) while a watcher task reads the caller's connection: when the ASGI server reports
``http.disconnect`` the watcher cancels the call's task, which closes the upstream connection,
and ``ClientGone`` is raised. Streams watch the same way while they relay (streaming.py). The
watcher starts once the request body has been read (it would otherwise take body chunks).

Plain asyncio (one task, ``Task.cancel`` / ``uncancel``) rather than an anyio task group: on a
fast upstream the task group's set-up and cancel cost as much as the HTTP exchange."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

__all__ = ["ClientGone", "DisconnectWatch", "until_disconnect"]

T = TypeVar("T")

Receive = Callable[[], Awaitable[Any]]


class ClientGone(Exception):
    """The caller disconnected before its answer was ready."""


class DisconnectWatch:
    """``with DisconnectWatch(receive) as w:`` cancels the current task when the caller
    disconnects; on the way out ``w.gone`` tells whether it did (the cancellation it caused is
    then taken back: ``uncancel``)."""

    __slots__ = ("receive", "task", "watcher", "gone")

    def __init__(self, receive: Receive) -> None:
        self.receive = receive
        self.gone = False

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
        self.watcher = asyncio.get_running_loop().create_task(self._watch())
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        self.watcher.cancel()
        if self.gone and self.task.uncancel() == 0 and kind in (None, asyncio.CancelledError):
            raise ClientGone() from None  # our own cancel (another one is passed on)


async def until_disconnect(request: Any, work: Callable[[], Awaitable[T]]) -> T:
    """``work()``'s result, or ClientGone when the caller left first (``work`` is cancelled)."""
    with DisconnectWatch(request.receive):
        return await work()
