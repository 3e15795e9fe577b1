"""The SQLite backend: one file, shared safely by the processes of one machine (WAL mode).

Calls run inline on the event loop: a lookup or a write of one conversation turn takes tens of
microseconds (``make bench`` measures it), less than a thread hop. Expiry times are wall-clock
seconds so that every process agrees on them; expired rows are deleted on a sweep every
``SWEEP_EVERY`` seconds of writes, and never read before that.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

from .store import StateUnavailable

__all__ = ["SQLiteStore"]

SWEEP_EVERY = 300.0  # seconds

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v BLOB NOT NULL, exp REAL NOT NULL)"
    " WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS kv_exp ON kv (exp)",
)


class SQLiteStore:
    name = "sqlite"

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._next_sweep = 0.0

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                if self.path != ":memory:":
                    Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                for stmt in _SCHEMA:
                    db.execute(stmt)
            except (OSError, sqlite3.Error) as e:
                raise StateUnavailable(f"sqlite state store {self.path}: {e}") from None
            self._db = db
        return self._db

    def _fail(self, e: Exception) -> StateUnavailable:
        return StateUnavailable(f"sqlite state store {self.path}: {e}")

    async def get_many(self, keys: list[str]) -> list[bytes | None]:
        if not keys:
            return []
        db = self._conn()
        marks = ",".join("?" * len(keys))
        try:
            rows = db.execute(
                f"SELECT k, v FROM kv WHERE k IN ({marks}) AND exp > ?", (*keys, time.time())
            ).fetchall()
        except sqlite3.Error as e:
            raise self._fail(e) from None
        found = dict(rows)
        return [found.get(k) for k in keys]

    async def put_many(
        self, items: list[tuple[str, bytes]], ttl: float, renew: Sequence[str] = ()
    ) -> None:
        if not items and not renew:
            return
        db = self._conn()
        now = time.time()
        exp = now + ttl
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(
                    "INSERT OR REPLACE INTO kv (k, v, exp) VALUES (?, ?, ?)",
                    [(k, v, exp) for k, v in items],
                )
                if renew:
                    self._touch(db, list(renew), now, exp)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            raise self._fail(e) from None
        if now >= self._next_sweep:
            await self.sweep()

    @staticmethod
    def _touch(db: sqlite3.Connection, keys: list[str], now: float, exp: float) -> None:
        marks = ",".join("?" * len(keys))
        db.execute(f"UPDATE kv SET exp = ? WHERE k IN ({marks}) AND exp > ?", (exp, *keys, now))

    async def touch_many(self, keys: list[str], ttl: float) -> None:
        if not keys:
            return
        now = time.time()
        try:
            self._touch(self._conn(), keys, now, now + ttl)
        except sqlite3.Error as e:
            raise self._fail(e) from None

    async def delete_many(self, keys: list[str]) -> int:
        if not keys:
            return 0
        marks = ",".join("?" * len(keys))
        try:
            db = self._conn()
            live = db.execute(
                f"SELECT count(*) FROM kv WHERE k IN ({marks}) AND exp > ?", (*keys, time.time())
            ).fetchone()[0]
            db.execute(f"DELETE FROM kv WHERE k IN ({marks})", keys)
        except sqlite3.Error as e:
            raise self._fail(e) from None
        return int(live)

    async def sweep(self) -> int:
        now = time.time()
        self._next_sweep = now + SWEEP_EVERY
        try:
            cur = self._conn().execute("DELETE FROM kv WHERE exp <= ?", (now,))
        except sqlite3.Error as e:
            raise self._fail(e) from None
        return cur.rowcount

    async def aclose(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
