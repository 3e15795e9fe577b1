"""The state store: one small interface, four backends.

A store maps string keys to bytes, every entry with a time to live (``ttl`` seconds), renewed
when the entry is read for a call (``touch_many``: a conversation in use does not expire); an
expired entry reads as absent and is removed by ``sweep`` (the backends sweep on their own too: SQLite
every few minutes of writes, Redis by its key expiry, memory on access). ``open_store`` picks the
backend from the ``state`` setting:

- ``sqlite:///path/to/state.db`` (the default: a file in the user's state directory),
- ``memory`` (this process only: tests and throwaway use),
- ``redis://host:port/db`` (``rediss://`` too): several gateway processes or machines share it,
- ``off``: nothing is kept.

A backend that fails (disk full, Redis down) raises ``StateUnavailable``; the gateway turns it
into a clear error in the caller's protocol, never a silent loss of context. Values are never
logged: only keys' kinds and counts reach the logs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

__all__ = [
    "DEFAULT_TTL",
    "MemoryStore",
    "StateUnavailable",
    "Store",
    "default_state_url",
    "open_store",
]

DEFAULT_TTL = 30 * 24 * 3600  # seconds: 30 days


class StateUnavailable(Exception):
    """The store cannot be read or written (the message names the backend, never a value)."""


class Store(Protocol):
    """What the gateway needs from a backend. ``ttl`` is in seconds."""

    name: str  # the backend's kind, for the logs and errors: sqlite, memory, redis

    async def get_many(self, keys: list[str]) -> list[bytes | None]: ...

    async def put_many(
        self, items: list[tuple[str, bytes]], ttl: float, renew: Sequence[str] = ()
    ) -> None:
        """Write ``items``; ``renew``: keys whose TTL starts again in the same write."""

    async def touch_many(self, keys: list[str], ttl: float) -> None:
        """The live entries among ``keys`` expire ``ttl`` seconds from now (an expired or missing
        key stays absent)."""

    async def delete_many(self, keys: list[str]) -> int: ...

    async def sweep(self) -> int: ...

    async def aclose(self) -> None: ...


class MemoryStore:
    """A dict in this process, with expiry times (``clock`` is replaceable in tests)."""

    name = "memory"

    def __init__(self, clock: object = time.monotonic) -> None:
        self._data: dict[str, tuple[float, bytes]] = {}
        self._clock = clock

    def _now(self) -> float:
        return float(self._clock())  # type: ignore[operator]

    async def get_many(self, keys: list[str]) -> list[bytes | None]:
        now = self._now()
        out: list[bytes | None] = []
        for k in keys:
            hit = self._data.get(k)
            if hit is not None and hit[0] <= now:
                del self._data[k]
                hit = None
            out.append(None if hit is None else hit[1])
        return out

    async def put_many(
        self, items: list[tuple[str, bytes]], ttl: float, renew: Sequence[str] = ()
    ) -> None:
        expires = self._now() + ttl
        for k, v in items:
            self._data[k] = (expires, v)
        await self.touch_many(list(renew), ttl)

    async def touch_many(self, keys: list[str], ttl: float) -> None:
        now = self._now()
        for k in keys:
            hit = self._data.get(k)
            if hit is not None and hit[0] > now:
                self._data[k] = (now + ttl, hit[1])

    async def delete_many(self, keys: list[str]) -> int:
        live = await self.get_many(keys)  # expired entries do not count
        for k in keys:
            self._data.pop(k, None)
        return sum(v is not None for v in live)

    async def sweep(self) -> int:
        now = self._now()
        dead = [k for k, (exp, _) in self._data.items() if exp <= now]
        for k in dead:
            del self._data[k]
        return len(dead)

    async def aclose(self) -> None:
        self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


def default_state_url() -> str:
    """``sqlite:///`` + ``$XDG_STATE_HOME/interlingua/state.db`` (``~/.local/state`` when unset)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return "sqlite:///" + str(Path(base) / "interlingua" / "state.db")


def open_store(url: str) -> Store | None:
    """The backend a ``state`` setting names (None for ``off``); raises ValueError on a bad one.
    Opening is cheap: files and connections are made on first use."""
    if url == "off":
        return None
    if url == "memory":
        return MemoryStore()
    if url.startswith("sqlite:///"):
        from .sqlite import SQLiteStore

        return SQLiteStore(url.removeprefix("sqlite://"))
    if url.startswith(("redis://", "rediss://", "unix://")):
        from .redis_store import RedisStore

        return RedisStore(url)
    raise ValueError(
        "expected sqlite:///PATH, redis://HOST:PORT/DB, memory or off, "
        f"got a {url.partition(':')[0]!r} URL"  # never the rest: it may hold a password
    )
