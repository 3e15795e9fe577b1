"""``make bench``'s gateway overhead measurement runs: both contenders answer correctly (checked
before timing) and are timed, one at a time and concurrently. No figure is asserted."""

from __future__ import annotations

import orjson
import pytest


def test_bench_gateway_overhead_quick(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    from bench.gateway_overhead import main

    assert main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "body: one call at a time" in out
    assert "stream of 60 events: one call at a time" in out
    assert "added at p50" in out and "of the direct calls per second" in out
    result = orjson.loads(out.strip().splitlines()[-1])["gateway_overhead"]
    assert [r["kind"] for r in result] == ["body", "stream of 60 events"]
    for r in result:
        assert r["rate_direct"] > 0 and r["rate_gateway"] > 0
        assert r["p50"]["direct"] > 0 and r["p50"]["gateway"] > 0
