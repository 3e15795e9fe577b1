"""bench/instructions.py: the callgrind dumps are read back into per-call counts and ratios.

valgrind itself is not run here (a minute under load); the parsing and the table are."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import instructions


def test_counts_are_differences_of_n_and_2n_calls(tmp_path: Path) -> None:
    labels = [
        {"id": "stream-1000-a2c", "contender": "floor", "calls": 1},
        {"id": "stream-1000-a2c", "contender": "floor", "calls": 2},
        {"id": "stream-1000-a2c", "contender": "interlingua", "calls": 1},
        {"id": "stream-1000-a2c", "contender": "interlingua", "calls": 2},
        {
            "id": "stream-1000-a2c",
            "meta": {
                "title": "stream, A → C",
                "kind": "stream",
                "events": 1000,
                "target": "<=3.0x",
            },
        },
    ]
    # a fixed cost of 500 in every dump cancels out
    counts = [500 + 17_000_000, 500 + 34_000_000, 500 + 50_000_000, 500 + 100_000_000]
    (r,) = instructions._results(labels, counts)
    assert r["contenders"] == {"floor": 17_000_000, "interlingua": 50_000_000}
    assert r["x_floor"] == round(50 / 17, 3)
    text = instructions.table([r])
    assert "| stream, A → C | 17,000 /ev | 50,000 /ev | 2.94× | ≤ 3.0× |" in text

    dump = tmp_path / "cg.out.1"
    dump.write_text("events: Ir\nsummary: 1234\ntotals: 1234\n")
    assert instructions._totals(str(dump)) == 1234


def test_without_valgrind_nothing_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    buf = io.StringIO()
    assert instructions.run([], out=buf) == []
    assert "n/a (valgrind is not installed)" in buf.getvalue()
