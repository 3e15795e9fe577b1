"""The state store backends behind one interface: memory, SQLite (the default) and Redis.

Every backend: reads and writes several keys at once, misses read as None, entries expire after
their TTL and are swept, deletes count only live entries, a failure is ``StateUnavailable``
naming the backend (never a value, never a password)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from interlingua.gateway.state import MemoryStore, StateUnavailable, default_state_url, open_store

from tests.redis_util import redis_server


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    yield from redis_server()


@pytest.fixture(params=["memory", "sqlite", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    if request.param == "memory":
        s = open_store("memory")
    elif request.param == "sqlite":
        s = open_store(f"sqlite:///{tmp_path}/sub/state.db")
    else:
        s = open_store(request.getfixturevalue("redis_url"))
    assert s is not None
    yield s
    asyncio.run(s.aclose())


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_put_get_delete(store: Any) -> None:
    async def go() -> None:
        tag = os.urandom(4).hex()
        k1, k2, k3 = (f"t:{tag}:{i}" for i in range(3))
        await store.put_many([(k1, b"one"), (k2, b"\x00two")], 60)
        assert await store.get_many([k1, k3, k2]) == [b"one", None, b"\x00two"]
        await store.put_many([(k1, b"uno")], 60)  # replaced
        assert await store.get_many([k1]) == [b"uno"]
        assert await store.delete_many([k1, k3]) == 1
        assert await store.get_many([k1, k2]) == [None, b"\x00two"]
        assert await store.get_many([]) == []
        await store.aclose()

    # each backend opens its connection on first use, inside this loop
    run(go())


def test_entries_expire_and_are_swept(store: Any) -> None:
    async def go() -> None:
        tag = os.urandom(4).hex()
        await store.put_many([(f"x:{tag}", b"short")], 0.2)
        await store.put_many([(f"y:{tag}", b"long")], 60)
        await asyncio.sleep(0.35)
        assert await store.get_many([f"x:{tag}", f"y:{tag}"]) == [None, b"long"]
        assert await store.delete_many([f"x:{tag}"]) == 0  # expired: not a live entry
        await store.put_many([(f"z:{tag}", b"z")], 0.05)
        await asyncio.sleep(0.1)
        swept = await store.sweep()
        assert swept >= (0 if store.name == "redis" else 1)  # Redis expires keys itself
        await store.aclose()

    run(go())


def test_reads_renew_the_ttl(store: Any) -> None:
    """touch_many (and put_many's renew) start a live entry's TTL again; an expired entry stays
    expired."""

    async def go() -> None:
        tag = os.urandom(4).hex()
        a, b, c, gone = (f"r:{tag}:{n}" for n in ("a", "b", "c", "gone"))
        await store.put_many([(a, b"a"), (b, b"b"), (gone, b"g")], 0.3)
        await asyncio.sleep(0.35)  # `gone` expired
        await store.put_many([(a, b"a"), (b, b"b")], 0.3)
        await asyncio.sleep(0.15)
        await store.touch_many([a, gone], 60)
        await store.put_many([(c, b"c")], 60, renew=[b])
        await asyncio.sleep(0.3)  # 0.45 s after the write: only the renewed ones live
        assert await store.get_many([a, b, c, gone]) == [b"a", b"b", b"c", None]
        await store.touch_many([], 60)
        await store.aclose()

    run(go())


def test_memory_sweep_with_a_clock() -> None:
    now = [1000.0]
    s = MemoryStore(clock=lambda: now[0])
    run(s.put_many([("a", b"1"), ("b", b"2")], 30 * 24 * 3600))
    now[0] += 30 * 24 * 3600 - 1
    assert run(s.get_many(["a"])) == [b"1"]
    now[0] += 2
    assert run(s.sweep()) == 2 and len(s) == 0


def test_sqlite_file_shared_by_two_connections(tmp_path: Path) -> None:
    """Two processes of one machine share the file (WAL): a second store sees the first's write."""
    url = f"sqlite:///{tmp_path}/state.db"
    a, b = open_store(url), open_store(url)
    assert a is not None and b is not None
    run(a.put_many([("k", b"v")], 60))
    assert run(b.get_many(["k"])) == [b"v"]
    with sqlite3.connect(tmp_path / "state.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_sqlite_failure_is_state_unavailable(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    s = open_store(f"sqlite:///{blocker}/state.db")
    assert s is not None
    with pytest.raises(StateUnavailable, match="sqlite state store"):
        run(s.get_many(["k"]))


def test_redis_down_is_state_unavailable_without_password() -> None:
    pytest.importorskip("redis")
    s = open_store("redis://:hunter2@127.0.0.1:1/0")
    assert s is not None
    with pytest.raises(StateUnavailable) as e:
        run(s.get_many(["k"]))
    assert "redis state store redis://127.0.0.1:1/0" in str(e.value)
    assert "hunter2" not in str(e.value)


def test_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", "/var/lib/me")
    assert default_state_url() == "sqlite:////var/lib/me/interlingua/state.db"
    assert open_store("off") is None
    with pytest.raises(ValueError) as e:
        open_store("postgres://u:secret@h/db")
    assert "secret" not in str(e.value)


def test_missing_redis_fails_in_ci_and_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.redis_util import _missing

    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        _missing("no Redis")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        _missing("no Redis")


def test_bench_gateway_state_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """``make bench``'s store cost: every store answers a real conversation turn."""
    pytest.importorskip("starlette")
    from bench.gateway_state import main

    assert main(["--turns", "2", "--rounds", "3"]) == 0
    out = capsys.readouterr().out
    for name in ("no store", "memory", "sqlite"):
        assert f"| {name} | " in out and f"| {name} | n/a" not in out
