"""`make bench` still works: the suite runs in-process with --quick on a few workloads.

Speed is never asserted; only that every contender passed its output check and was timed."""

from __future__ import annotations

import io

import orjson

from bench import contenders
from bench.cli import run
from tests.conftest import need_fixtures


def test_bench_quick_runs_and_checks_every_contender() -> None:
    need_fixtures()
    only = ["request-small-a2c", "response-parallel-tools-c2a"]
    if contenders.has_translate_stream():
        only.append("stream-1000-c2a")
    buf = io.StringIO()
    result = run(["--quick", "--no-litellm", "--only", *only], out=buf)

    assert [w["id"] for w in result["workloads"]] == only
    for w in result["workloads"]:
        assert set(w["contenders"]) == {"floor", "interlingua"}, w["notes"]
        assert not [n for n in w["notes"] if "left out" in n]
        assert w["contenders"]["interlingua"]["x_floor"] > 0
    text = buf.getvalue()
    assert "| small request, Anthropic → Chat |" in text
    last = orjson.loads(text.strip().splitlines()[-1])  # the JSON line
    assert [w["id"] for w in last["workloads"]] == only
    assert last["memory"] is None  # not selected


def test_bench_checks_catch_a_wrong_contender() -> None:
    """A contender that drops a tool call is left out of the timing, not measured."""
    need_fixtures()
    from bench import checks, data

    raw = data.chat_parallel_response()
    good = contenders.interlingua_response(raw, contenders.CHAT, contenders.ANTHROPIC)()
    body = orjson.loads(good)
    body["content"] = body["content"][:-1]
    try:
        checks.check_response(raw, orjson.dumps(body), contenders.CHAT, contenders.ANTHROPIC)
    except checks.CheckFailed:
        return
    raise AssertionError("a lost tool call passed the check")
