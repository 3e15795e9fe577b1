"""A caller that goes away cancels its upstream call, streamed or not.

Streams watch for the disconnect themselves (streaming.py). A non-streamed call runs its
upstream work (the attempts, the waits between them, reading the answer) under a watcher of the
caller's connection: when the ASGI server reports ``http.disconnect`` the work is cancelled,
which closes the upstream connection, and ``ClientGone`` is raised. The watcher starts once the
request body has been read (it would otherwise take body chunks)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio
from starlette.requests import Request

__all__ = ["ClientGone", "until_disconnect"]

T = TypeVar("T")


class ClientGone(Exception):
    """The caller disconnected before its answer was ready."""


async def until_disconnect(request: Request, work: Callable[[], Awaitable[T]]) -> T:
    """``work()``'s result, or ClientGone when the caller left first (``work`` is cancelled)."""
    gone = False
    result: list[T] = []
    failed: Exception | None = None
    async with anyio.create_task_group() as tg:

        async def watch() -> None:
            nonlocal gone
            while True:
                message = await request.receive()
                if message["type"] == "http.disconnect":
                    gone = True
                    tg.cancel_scope.cancel()
                    return

        tg.start_soon(watch)
        try:
            result.append(await work())
        except Exception as e:  # raised as it is, not in a task group's exception group
            failed = e
        tg.cancel_scope.cancel()
    if failed is not None:
        raise failed
    if gone or not result:
        raise ClientGone()
    return result[0]
