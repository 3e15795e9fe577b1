"""The official SDKs are the judges: what we emit must be what ``anthropic`` and ``openai`` read.

Every translated stream is fed to ``messages.stream(...).get_final_message()`` /
``chat.completions.stream(...).get_final_completion()`` through a mock transport; translated
responses to ``messages.create`` / ``chat.completions.create``; translated errors must raise
the SDK's own class for their status. Where the source stream is readable by its own SDK, the
expected message is that SDK's reading of it: two official judges, no code of ours in between.

Both SDKs run on ``httpx2`` (anthropic 2.x, openai 3.x refuse ``httpx`` objects), so the mock
transport is ``httpx2.MockTransport``; clients have ``max_retries=0``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import anthropic
import interlingua
import openai
import pytest
from interlingua.generated.canonical import TextPart, ToolCallPart
from interlingua.streams.accumulate import Accumulator, accumulate

from tests.conftest import FIXTURES
from tests.stream_util import (
    PID,
    RecordedStream,
    args_of,
    claude_code_streams,
    decode_stream,
    load_client_sse,
    mock_client,
    recorded_streams,
    sdk_final_completion,
    sdk_final_message,
    sdk_snapshot,
    view,
)
from tests.test_streams import CHAT_PARALLEL, PARALLEL_CALLS, PARALLEL_SSE, chat_sse, chunk, ending

A = "anthropic_messages"
C = "openai_chat"
OTHER = {A: C, C: A}


def translate(data: bytes, source: str, target: str) -> bytes:
    return b"".join(interlingua.translate_stream([data], source=source, target=target))


# ---------------------------------------------------------------- what an SDK object says
def message_view(m: Any) -> dict[str, Any]:
    """An anthropic Message: text, reasoning, (id, name, input) of its tool_use blocks."""
    return {
        "text": "".join(b.text for b in m.content if b.type == "text"),
        "reasoning": "".join(b.thinking for b in m.content if b.type == "thinking"),
        "calls": [(b.id, b.name, b.input) for b in m.content if b.type == "tool_use"],
    }


def completion_view(c: Any) -> dict[str, Any]:
    """An openai ChatCompletion: content (+ refusal), reasoning dialect field, tool calls."""
    msg = c.choices[0].message
    assert msg.content is None or type(msg.content) is str, "message.content must be a string"
    extra = msg.model_extra or {}
    return {
        "text": (msg.content or "") + (msg.refusal or ""),
        "reasoning": extra.get("reasoning_content") or extra.get("reasoning") or "",
        "calls": [
            (tc.id, tc.function.name, args_of(tc.function.arguments)) for tc in msg.tool_calls or ()
        ],
    }


def openai_final(sse: bytes) -> Any:
    """``get_final_completion()``; for the endings its parser refuses (length, content_filter)
    the SDK's own error is expected, then its snapshot is read."""
    client = mock_client("openai", sse)
    with client.chat.completions.stream(
        model="gpt-test", messages=[{"role": "user", "content": "hi"}]
    ) as s:
        try:
            return s.get_final_completion()
        except (openai.LengthFinishReasonError, openai.ContentFilterFinishReasonError):
            snap = s.current_completion_snapshot
            assert snap.choices[0].finish_reason in ("length", "content_filter")
            return snap


# ---------------------------------------------------------------- recorded streams
def _single_completed(rs: RecordedStream) -> bool:
    data = rs.sse()
    if rs.pid == A and data.count(b"message_start") > 2:  # concatenated responses
        return False
    return ending(decode_stream(data, rs.pid)) == "completed"


# Streams over 150 kB (Groq reasoning runs of thousands of chunks) only cost time here: the SDK
# parses every chunk with pydantic; test_streams translates them all.
STREAMS = [rs for rs in recorded_streams() if rs.meta["size"] <= 150_000 and _single_completed(rs)]


@cache
def _source_view(name: str) -> dict[str, Any] | None:
    """The source stream read by its own SDK (None when that SDK cannot read it)."""
    rs = next(r for r in STREAMS if r.name == name)
    try:
        snap = sdk_snapshot(rs.sse(), rs.pid)
    except Exception:  # e.g. openai: tool index 1 first, annotations without index
        return None
    return message_view(snap) if rs.pid == A else completion_view(snap)


def _ours(rs: RecordedStream) -> dict[str, Any]:
    acc = Accumulator()
    for ev in decode_stream(rs.sse(), rs.pid):
        acc.feed(ev)
    v = view(acc.response())
    v["calls"] = [(i, n, a) for i, n, a in v["calls"]]
    return v


@pytest.mark.parametrize("rs", STREAMS, ids=lambda r: r.name.split("/", 1)[1][-70:])
def test_sdk_reads_translated_recorded_stream(rs: RecordedStream) -> None:
    target = OTHER[rs.pid]
    out = translate(rs.sse(), rs.pid, target)
    got = (
        message_view(sdk_final_message(out)) if target == A else completion_view(openai_final(out))
    )
    want = _source_view(rs.name) or _ours(rs)
    if "incomplete_partial_json" in rs.name:
        # cut by max_tokens: anthropic's SDK repairs the partial JSON, Chat carries it as sent
        # (and the openai SDK hands it over unparsed): compare ids and names only
        assert [c[:2] for c in got.pop("calls")] == [c[:2] for c in want.pop("calls")]
    assert got == want


@pytest.mark.parametrize("path", claude_code_streams(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_openai_sdk_reads_translated_claude_code_answer(path: Path) -> None:
    data = load_client_sse(path)
    want = message_view(sdk_final_message(data))
    got = completion_view(openai_final(translate(data, A, C)))
    assert got == want
    # and the round trip still satisfies Claude Code's own SDK, signature included
    back = sdk_final_message(translate(data, A, A))
    assert back.model_dump() == sdk_final_message(data).model_dump()


def test_parallel_calls_through_openai_sdk() -> None:
    final = sdk_final_completion(translate(PARALLEL_SSE, A, C))
    msg = final.choices[0].message
    assert msg.content == "Checking Paris and Zürich — 東京 later."
    assert (msg.model_extra or {}).get("reasoning_content") == "Two cities: two calls. ✓"
    calls = [(tc.id, tc.function.name, json.loads(tc.function.arguments)) for tc in msg.tool_calls]
    assert calls == PARALLEL_CALLS
    assert final.choices[0].finish_reason == "tool_calls"
    assert final.usage is not None
    assert (final.usage.prompt_tokens, final.usage.completion_tokens) == (42, 88)
    assert final.usage.prompt_tokens_details.cached_tokens == 30
    assert final.id == "msg_01A" and final.model == "claude-sonnet-4-5"


def test_parallel_calls_through_anthropic_sdk() -> None:
    final = sdk_final_message(translate(CHAT_PARALLEL, C, A))
    assert [b.type for b in final.content] == ["text", "tool_use", "tool_use"]
    assert final.content[0].text == "Looking up."
    assert [(b.id, b.name, b.input) for b in final.content[1:]] == [
        ("call_a", "get_weather", {"city": "Paris"}),
        ("call_b", "get_time", {"tz": "CET"}),
    ]
    assert final.stop_reason == "tool_use"
    u = final.usage
    assert (u.input_tokens, u.cache_read_input_tokens, u.output_tokens) == (40, 10, 20)
    assert final.id == "chatcmpl-q"


def test_dialect_quirks_through_anthropic_sdk() -> None:
    data = chat_sse(
        chunk({"role": "assistant", "reasoning": "hmm"}),
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 1,
                        "id": "0",
                        "type": "function",
                        "function": {"name": "ls", "arguments": None},
                    }
                ]
            }
        ),
        chunk({"tool_calls": [{"index": 1, "function": {"arguments": '{"path": "."}'}}]}),
        chunk(
            {
                "tool_calls": [
                    {"index": 2, "id": "1", "function": {"name": "pwd", "arguments": None}}
                ]
            }
        ),
        chunk({}, "tool_calls"),
    )
    final = sdk_final_message(translate(data, C, A))
    assert message_view(final) == {
        "text": "",
        "reasoning": "hmm",
        "calls": [("0", "ls", {"path": "."}), ("1", "pwd", {})],
    }
    completion = sdk_final_completion(translate(data, C, C))
    assert [tc.function.arguments for tc in completion.choices[0].message.tool_calls] == [
        '{"path": "."}',
        "{}",
    ]


# ---------------------------------------------------------------- in-band errors and cuts
def test_midstream_error_raises_in_openai_sdk() -> None:
    from tests.test_streams import PARALLEL, anthropic_sse

    err = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    client = mock_client("openai", translate(anthropic_sse(*PARALLEL[:10], err), A, C))
    seen = []
    with pytest.raises(openai.APIError) as e:  # noqa: PT012
        for c in client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}], stream=True
        ):
            seen.append(c)
    assert e.value.message == "Overloaded"
    assert seen and seen[-1].choices[0].delta.content == "and Zürich — 東京 later."


def test_midstream_error_raises_in_anthropic_sdk() -> None:
    data = chat_sse(
        chunk({"role": "assistant", "content": "Hi"}),
        {"error": {"message": "Rate limit reached", "type": "rate_limit_error", "code": None}},
    )
    client = mock_client("anthropic", translate(data, C, A))
    stream = client.messages.stream(
        model="m", max_tokens=8, messages=[{"role": "user", "content": "x"}]
    )
    with pytest.raises(anthropic.APIStatusError) as e, stream as s:
        for _ in s:
            pass
    assert isinstance(e.value, anthropic.APIError)
    assert e.value.body == {
        "type": "error",
        "error": {"type": "rate_limit_error", "message": "Rate limit reached"},
    }


@pytest.mark.parametrize("source, data", [(A, PARALLEL_SSE), (C, CHAT_PARALLEL)])
def test_disconnect_raises_in_both_sdks(source: str, data: bytes) -> None:
    cut = data[: len(data) * 2 // 3]
    with pytest.raises(openai.APIError, match="without its terminal event"):
        sdk_final_completion(translate(cut, source, C))
    with pytest.raises(anthropic.APIError, match="without its terminal event"):
        sdk_final_message(translate(cut, source, A))


# ---------------------------------------------------------------- non-streaming responses
def _recorded(kind: str) -> list[tuple[str, str, Path]]:
    index = FIXTURES / "recorded" / "index.jsonl"
    if not index.is_file():
        return []
    out = []
    for line in index.read_text().splitlines():
        meta = json.loads(line)
        if meta["kind"] == kind and meta["protocol"] in PID:
            out.append((meta["file"], PID[meta["protocol"]], FIXTURES / "recorded" / meta["file"]))
    return out


def _translatable(source: str, path: Path) -> bool:
    try:
        interlingua.decode_response(json.loads(path.read_bytes()), source)
    except (interlingua.InvalidInput, ValueError):  # error bodies recorded as responses
        return False
    return True


def _sampled(kind: str) -> list[tuple[str, str, Path]]:
    """Every recorded response, but only one pydantic-ai cassette in three (561 of them, many of
    one shape: the suite stays fast)."""
    out = []
    n = 0
    for r in _recorded(kind):
        if "pydantic-ai-cassettes" in r[0]:
            n += 1
            if n % 3:
                continue
        out.append(r)
    return out


RESPONSES = [r for r in _sampled("response") if r[2].suffix == ".json" and _translatable(*r[1:])]


def _create(target: str, body: dict[str, Any]) -> Any:
    raw = json.dumps(body).encode()
    if target == A:
        client = mock_client("anthropic", raw, content_type="application/json")
        return client.messages.create(
            model="m", max_tokens=8, messages=[{"role": "user", "content": "x"}]
        )
    client = mock_client("openai", raw, content_type="application/json")
    return client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])


@pytest.mark.parametrize("name, source, path", RESPONSES, ids=[r[0][-70:] for r in RESPONSES])
def test_sdk_reads_translated_response(name: str, source: str, path: Path) -> None:
    body = json.loads(path.read_bytes())
    target = OTHER[source]
    out = interlingua.translate_response(body, source=source, target=target).body
    v = message_view(_create(target, out)) if target == A else completion_view(_create(target, out))
    source_parts = interlingua.decode_response(body, source).parts
    calls = [(p.id, p.name, args_of(p.arguments)) for p in source_parts if type(p) is ToolCallPart]
    assert v["calls"] == calls  # ids, names and arguments survive, read by the official SDK
    ours = interlingua.decode_response(out, target).parts  # and the SDK reads what we meant
    text = "".join(p.text for p in ours if type(p) is TextPart or type(p).__name__ == "RefusalPart")
    assert v["text"] == text


@pytest.mark.parametrize("source, data", [(A, PARALLEL_SSE), (C, CHAT_PARALLEL)])
def test_accumulated_stream_answers_a_non_streaming_client(source: str, data: bytes) -> None:
    """The gateway's path: a streaming upstream, a non-streaming client."""
    resp = accumulate(decode_stream(data, source), source=source)
    for target in (A, C):
        ctx = interlingua.Ctx(source, target)
        body = interlingua.encode_response(resp, target, ctx)
        got = _create(target, body)
        v = message_view(got) if target == A else completion_view(got)
        want = (
            [(i, n, a) for i, n, a in PARALLEL_CALLS]
            if source == A
            else [
                ("call_a", "get_weather", {"city": "Paris"}),
                ("call_b", "get_time", {"tz": "CET"}),
            ]
        )
        assert v["calls"] == want


# ---------------------------------------------------------------- errors by status
ANTHROPIC_CLASS = {
    400: anthropic.BadRequestError,
    404: anthropic.NotFoundError,
    429: anthropic.RateLimitError,
    500: anthropic.InternalServerError,
}
OPENAI_CLASS = {
    400: openai.BadRequestError,
    404: openai.NotFoundError,
    429: openai.RateLimitError,
    500: openai.InternalServerError,
    529: openai.InternalServerError,
}


def _raise_through(target: str, status: int, body: dict[str, Any]) -> BaseException:
    raw = json.dumps(body).encode()
    sdk = "anthropic" if target == A else "openai"
    client = mock_client(sdk, raw, status=status, content_type="application/json")
    with pytest.raises(Exception) as e:  # noqa: PT011 - the class is asserted by the caller
        if target == A:
            client.messages.create(
                model="m", max_tokens=8, messages=[{"role": "user", "content": "x"}]
            )
        else:
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    return e.value


def _errors() -> list[tuple[str, str, int, Any]]:
    out = []
    for name, source, path in _recorded("error-response"):
        meta = json.loads(
            path.with_name(path.name.replace("response.json", "meta.json")).read_text()
        )
        out.append((name[-60:], source, int(meta["status"]), json.loads(path.read_bytes())))
    return out


SYNTHETIC_ERRORS = [
    ("anthropic-500", A, 500, {"type": "error", "error": {"type": "api_error", "message": "boom"}}),
    (
        "anthropic-529",
        A,
        529,
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    ),
    (
        "chat-500",
        C,
        500,
        {"error": {"message": "server had an error", "type": "server_error", "code": None}},
    ),
    (
        "chat-429",
        C,
        429,
        {"error": {"message": "Rate limit", "type": "requests", "code": "rate_limit_exceeded"}},
    ),
]


@pytest.mark.parametrize(
    "name, source, status, body",
    SYNTHETIC_ERRORS + _errors(),
    ids=lambda v: v if type(v) is str else "",
)
def test_translated_error_raises_the_sdk_class(
    name: str, source: str, status: int, body: Any
) -> None:
    for target in (OTHER[source], source):
        st, out = interlingua.translate_error(status, body, source=source, target=target)
        exc = _raise_through(target, st, out)
        if target == A:
            if status == 529:
                assert isinstance(exc, anthropic.APIStatusError) and exc.status_code == 529
                assert isinstance(exc, anthropic.InternalServerError | anthropic.OverloadedError)
            else:
                assert type(exc) is ANTHROPIC_CLASS[status] or isinstance(
                    exc, ANTHROPIC_CLASS[status]
                )
            assert exc.body["error"]["message"]  # type: ignore[attr-defined]
        else:
            assert isinstance(exc, OPENAI_CLASS[status])
            if status == 529:  # OpenAI has no 529: any 5xx the SDK files as InternalServerError
                assert exc.status_code >= 500  # type: ignore[attr-defined]
            else:
                assert exc.status_code == status  # type: ignore[attr-defined]
            assert exc.message  # type: ignore[attr-defined]
