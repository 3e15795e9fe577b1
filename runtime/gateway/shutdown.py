"""Graceful shutdown with a bound (``--shutdown-timeout``, default 30 s).

On SIGTERM (or SIGINT) the server stops accepting connections and waits for the calls in
flight, for at most the shutdown timeout, before it cancels them. A stream on a silent upstream
would hold the process until the upstream's own timeout, and a cancelled stream is a cut the
caller cannot tell from a network failure. So the gateway listens for the signal too (chained
in front of the server's own handler when the app starts) and gives every open stream until
one second before the bound: a stream still open then ends with the caller's in-band error
ending (``overloaded``, "the gateway is shutting down"), never a cut.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Any

from ..generated.canonical import ErrorInfo

__all__ = ["DEFAULT_SHUTDOWN_TIMEOUT", "SHUTTING_DOWN", "Drain"]

DEFAULT_SHUTDOWN_TIMEOUT = 30.0
MARGIN = 1.0  # streams end this long before the server cancels what is left

SHUTTING_DOWN = ErrorInfo(
    type="overloaded",
    message="the gateway is shutting down; the stream was ended before it finished",
    status=503,
)


class Drain:
    """The shutdown's bound for open streams: each open stream is registered (a ``DrainWatch``);
    once the shutdown starts, one timer stops every stream still open a second before the
    bound."""

    def __init__(self, timeout: float = DEFAULT_SHUTDOWN_TIMEOUT) -> None:
        self.timeout = timeout
        self.started = False
        self.streams: set[DrainWatch] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """The shutdown began (callable from a signal handler or another thread)."""
        if self.started:
            return
        self.started = True
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nothing is open
                self._loop.call_soon_threadsafe(self._arm)

    def _arm(self) -> None:
        asyncio.get_running_loop().call_later(max(0.0, self.timeout - MARGIN), self.stop_all)

    def stop_all(self) -> None:
        for watch in list(self.streams):
            watch.stop()

    def listen(self) -> None:
        """Chain ``start`` in front of the server's SIGTERM / SIGINT handlers. Only the main
        thread may set signal handlers, and only a server's own handler is chained (the default
        action stays as it is): elsewhere (tests, a server in a thread) the owner calls
        ``start`` itself."""
        self._loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                previous = signal.getsignal(sig)
                if callable(previous) and previous is not signal.default_int_handler:
                    signal.signal(sig, self._handler(previous))
            except (ValueError, OSError):  # not the main thread
                return

    def _handler(self, previous: Any) -> Any:
        def handle(sig: int, frame: Any) -> None:
            self.start()
            previous(sig, frame)

        return handle


class DrainWatch:
    """``with DrainWatch(drain) as w:`` cancels the current task at the shutdown's bound; the
    cancellation is taken back on the way out and ``w.stopped`` says it happened. No task of
    its own: a stream only joins the drain's set while it is open."""

    __slots__ = ("drain", "task", "stopped")

    def __init__(self, drain: Drain | None) -> None:
        self.drain = drain
        self.stopped = False
        self.task: asyncio.Task[Any] | None = None

    def __enter__(self) -> DrainWatch:
        if self.drain is not None:
            self.task = asyncio.current_task()
            self.drain.streams.add(self)
        return self

    def stop(self) -> None:
        if not self.stopped and self.task is not None:
            self.stopped = True
            self.task.cancel()

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        if self.drain is not None:
            self.drain.streams.discard(self)
        # our own cancellation (another one is passed on): the stream ends in band
        task = self.task
        return bool(
            self.stopped
            and task is not None
            and task.uncancel() == 0
            and kind is asyncio.CancelledError
        )
