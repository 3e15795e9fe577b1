"""The Redis backend (the official ``redis`` client, ``redis.asyncio``): the state of several
gateway processes or machines behind one address.

Every key is prefixed ``interlingua:`` and written with its TTL (``SET ... PX``), so Redis
expires it itself: ``sweep`` has nothing to do. A write of several keys is one pipelined
round trip (MULTI/EXEC), a read of several one ``MGET``. Needs the ``[redis]`` extra.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from .store import StateUnavailable

__all__ = ["RedisStore"]

PREFIX = "interlingua:"


def _where(url: str) -> str:
    """host:port/db of the URL, never its password."""
    u = urlsplit(url)
    return f"{u.scheme}://{u.hostname or ''}{f':{u.port}' if u.port else ''}{u.path}"


class RedisStore:
    name = "redis"

    def __init__(self, url: str) -> None:
        try:
            import redis.asyncio as aioredis
            from redis.exceptions import RedisError
        except ImportError:
            raise ValueError(
                "state = redis://... needs the redis client: pip install 'interlingua[redis]'"
            ) from None
        self.where = _where(url)
        self._errors: tuple[type[BaseException], ...] = (RedisError, OSError)
        self._client: Any = aioredis.Redis.from_url(
            url, socket_connect_timeout=5, socket_timeout=10, health_check_interval=30
        )

    def _fail(self, e: BaseException) -> StateUnavailable:
        # a pipeline's error names the command with its arguments (a key, a stored value):
        # only the server's own message is kept
        msg = str(e).rpartition(" of pipeline caused error: ")[2].strip("(),'\"")
        return StateUnavailable(f"redis state store {self.where}: {type(e).__name__}: {msg}")

    async def get_many(self, keys: list[str]) -> list[bytes | None]:
        if not keys:
            return []
        try:
            got: list[bytes | None] = await self._client.mget([PREFIX + k for k in keys])
        except self._errors as e:
            raise self._fail(e) from None
        return got

    async def put_many(
        self, items: list[tuple[str, bytes]], ttl: float, renew: Sequence[str] = ()
    ) -> None:
        if not items and not renew:
            return
        ms = max(1, int(ttl * 1000))
        try:
            async with self._client.pipeline(transaction=True) as pipe:
                for k, v in items:
                    pipe.set(PREFIX + k, v, px=ms)
                for k in renew:  # in the same round trip
                    pipe.pexpire(PREFIX + k, ms)
                await pipe.execute()
        except self._errors as e:
            raise self._fail(e) from None

    async def touch_many(self, keys: list[str], ttl: float) -> None:
        if not keys:
            return
        ms = max(1, int(ttl * 1000))
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                for k in keys:
                    pipe.pexpire(PREFIX + k, ms)  # a missing (expired) key stays missing
                await pipe.execute()
        except self._errors as e:
            raise self._fail(e) from None

    async def delete_many(self, keys: list[str]) -> int:
        if not keys:
            return 0
        try:
            n: int = await self._client.delete(*[PREFIX + k for k in keys])
        except self._errors as e:
            raise self._fail(e) from None
        return n

    async def sweep(self) -> int:
        return 0  # Redis expires every key itself (SET ... PX)

    async def aclose(self) -> None:
        with contextlib.suppress(*self._errors):
            await self._client.aclose()
