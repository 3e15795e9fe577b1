"""Streams: Anthropic Messages <-> OpenAI Chat, on recorded traffic and on the edge cases.

What every test measures against is the source stream decoded to canonical events directly
(``decode_stream``): what a translation carries must read back the same from the target.

Decisions recorded here:

- A Chat stream that ends after a ``finish_reason`` chunk (with or without its usage chunk) but
  without ``data: [DONE]`` is *completed*. Real servers did exactly this (TGI before PR #2221,
  oobabooga before #4778, llama-box, ik_llama.cpp #467) and every client accepted it: the OpenAI
  SDK iterates until the body ends and never requires ``[DONE]``, vercel/ai neither. A Chat stream
  with neither ``finish_reason`` nor ``[DONE]`` is *disconnected*.
- An Anthropic stream is completed only by ``message_stop``: a ``message_delta`` with its
  stop_reason followed by the end of the body is a disconnect, so the Chat encoder holds the
  ``finish_reason`` back until the terminal event (a cut stream never reads as a stop).
- Nothing after the terminal event (or an error) is translated. Some vercel/ai recordings are
  several responses concatenated (programmatic tool calling, tool search): the first one is the
  stream; the rest is counted as ignored.
- A second ``message_start`` with the same id is ignored; a different id inside an open message
  fails the stream (vercel/ai issue 18331, ``spliced-message-start``).
- A Chat chunk with a truthy ``error`` fails the stream even beside ``choices`` (OpenRouter), as
  the OpenAI SDK raises on it; its status comes from an int ``code``, ``status_code`` (Groq) or
  the error type.
- Chat ``delta.refusal`` has no canonical stream event yet: it becomes text of its own part
  rather than being dropped in silence.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from functools import cache
from typing import Any

import interlingua
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from interlingua import (
    StreamTranslator,
    atranslate_stream,
    stream_decoder,
    stream_encoder,
    translate_stream,
)
from interlingua.generated.canonical import (
    ErrorEvent,
    Finish,
    FinishEvent,
    ReasoningDelta,
    ReasoningEnd,
    ReasoningPart,
    ReasoningStart,
    StreamEnd,
    StreamStart,
    TextDelta,
    TextEnd,
    TextPart,
    TextStart,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallPart,
    ToolCallStart,
    Usage,
    UsageEvent,
)
from interlingua.streams.accumulate import Accumulator, StreamFailed, accumulate

from tests.stream_util import (
    RecordedStream,
    args_of,
    claude_code_streams,
    decode_stream,
    expected_finish,
    load_client_sse,
    recorded_streams,
    sdk_snapshot,
    split_at,
    sse_payloads,
    view,
)

A = "anthropic_messages"
C = "openai_chat"
OTHER = {A: C, C: A}

RECORDED = recorded_streams()


def _id(rs: RecordedStream) -> str:
    return rs.name.split("/", 1)[1][-70:]


@cache
def _sse(name: str) -> bytes:
    return next(rs for rs in RECORDED if rs.name == name).sse()


@cache
def _translated(name: str, source: str, target: str) -> bytes:
    return b"".join(translate_stream([_sse(name)], source=source, target=target))


def translate(data: bytes, source: str, target: str) -> bytes:
    return b"".join(translate_stream([data], source=source, target=target))


def partial(events: list[Any]) -> Any:
    """The message a stream carried, whatever its ending."""
    acc = Accumulator()
    for ev in events:
        acc.feed(ev)
    return acc.response()


def ending(events: list[Any]) -> str:
    ends = [e.ending for e in events if type(e) is StreamEnd]
    assert len(ends) == 1, ends
    return ends[0]


def anthropic_sse(*payloads: dict[str, Any]) -> bytes:
    return b"".join(
        b"event: " + p["type"].encode() + b"\ndata: " + orjson.dumps(p) + b"\n\n" for p in payloads
    )


def chat_sse(*payloads: dict[str, Any] | str) -> bytes:
    return b"".join(
        b"data: " + (p.encode() if isinstance(p, str) else orjson.dumps(p)) + b"\n\n"
        for p in payloads
    )


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **kw: Any) -> dict:
    return {
        "id": "chatcmpl-q",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}],
        **kw,
    }


def chat_data(out: bytes) -> list[Any]:
    """The JSON payloads of a Chat stream ([DONE] kept as the string)."""
    evs = sse_payloads(out)
    assert all(name is None for name, _ in evs), "Chat SSE has no event: lines"
    return [d if d == "[DONE]" else orjson.loads(d) for _, d in evs]


def anthropic_data(out: bytes) -> list[dict[str, Any]]:
    evs = sse_payloads(out)
    payloads = [orjson.loads(d) for _, d in evs]
    for (name, _), p in zip(evs, payloads):  # Claude Code needs event: on every event
        assert name == p["type"]
    return payloads


# ---------------------------------------------------------------- a message to play with
MSG_START = {
    "type": "message_start",
    "message": {
        "id": "msg_01A",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 12, "cache_read_input_tokens": 30, "output_tokens": 1},
    },
}


def block_start(i: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": i, "content_block": block}


def block_delta(i: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": i, "delta": delta}


def block_stop(i: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": i}


PARALLEL = [
    MSG_START,
    block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
    block_delta(0, {"type": "thinking_delta", "thinking": "Two cities: "}),
    block_delta(0, {"type": "thinking_delta", "thinking": "two calls. ✓"}),
    block_delta(0, {"type": "signature_delta", "signature": "EqQBCkYIBRgCKkBsig=="}),
    block_stop(0),
    block_start(1, {"type": "text", "text": ""}),
    {"type": "ping"},
    block_delta(1, {"type": "text_delta", "text": "Checking Paris "}),
    block_delta(1, {"type": "text_delta", "text": "and Zürich — 東京 later."}),
    block_stop(1),
    block_start(2, {"type": "tool_use", "id": "toolu_01P", "name": "get_weather", "input": {}}),
    block_delta(2, {"type": "input_json_delta", "partial_json": ""}),
    block_delta(2, {"type": "input_json_delta", "partial_json": '{"city": "Pa'}),
    block_delta(2, {"type": "input_json_delta", "partial_json": 'ris"}'}),
    block_stop(2),
    block_start(3, {"type": "tool_use", "id": "toolu_01Z", "name": "get_weather", "input": {}}),
    block_delta(3, {"type": "input_json_delta", "partial_json": '{"city": "Zürich", "unit": "c"}'}),
    block_stop(3),
    {
        "type": "message_delta",
        "delta": {"stop_reason": "tool_use", "stop_sequence": None},
        "usage": {"output_tokens": 88},
    },
    {"type": "message_stop"},
]
PARALLEL_SSE = anthropic_sse(*PARALLEL)
PARALLEL_CALLS = [
    ("toolu_01P", "get_weather", {"city": "Paris"}),
    ("toolu_01Z", "get_weather", {"city": "Zürich", "unit": "c"}),
]

CHAT_PARALLEL = chat_sse(
    chunk({"role": "assistant", "content": ""}),
    chunk({"content": "Looking"}),
    chunk({"content": " up."}),
    chunk(
        {
            "tool_calls": [
                {
                    "index": 0,
                    "id": "call_a",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": ""},
                }
            ]
        }
    ),
    chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city":'}}]}),
    chunk({"tool_calls": [{"index": 0, "function": {"arguments": ' "Paris"}'}}]}),
    chunk(
        {
            "tool_calls": [
                {
                    "index": 1,
                    "id": "call_b",
                    "type": "function",
                    "function": {"name": "get_time", "arguments": '{"tz": "CET"}'},
                }
            ]
        }
    ),
    chunk({}, "tool_calls"),
    {
        **chunk(),
        "choices": [],
        "usage": {
            "prompt_tokens": 50,
            "completion_tokens": 20,
            "total_tokens": 70,
            "prompt_tokens_details": {"cached_tokens": 10},
        },
    },
    "[DONE]",
)


# ---------------------------------------------------------------- recorded streams
def check_translation(data: bytes, source: str, target: str, out: bytes) -> None:
    """``out`` (``data`` translated) carries what ``data`` carried."""
    src = decode_stream(data, source)
    got = decode_stream(out, target)
    assert ending(got) == ending(src)
    a, b = partial(src), partial(got)
    assert view(b) == view(a)
    if ending(src) != "completed":
        return
    if a.id:
        assert b.id == a.id
    if a.model:
        assert b.model == a.model
    unified = a.finish.unified if a.finish else "stop"
    assert b.finish is not None
    assert b.finish.unified == (unified if target == source else expected_finish(unified, target))
    if a.usage is not None and a.usage.raw:
        for f in ("input_total", "input_cache_read", "output_total"):
            assert getattr(b.usage, f) == getattr(a.usage, f), f
    if target == A:
        anthropic_data(out)
    else:
        payloads = chat_data(out)
        indices = [
            tc["index"]
            for p in payloads
            if type(p) is dict
            for c in p.get("choices") or ()
            for tc in c["delta"].get("tool_calls") or ()
            if "id" in tc
        ]
        assert indices == list(range(len(view(a)["calls"])))


@pytest.mark.parametrize("rs", RECORDED, ids=_id)
def test_recorded_stream_translates(rs: RecordedStream) -> None:
    data = _sse(rs.name)
    for target in (OTHER[rs.pid], rs.pid):
        check_translation(data, rs.pid, target, _translated(rs.name, rs.pid, target))


@pytest.mark.parametrize("rs", RECORDED, ids=_id)
def test_recorded_stream_round_trip(rs: RecordedStream) -> None:
    there = _translated(rs.name, rs.pid, OTHER[rs.pid])
    back = translate(there, OTHER[rs.pid], rs.pid)
    assert view(partial(decode_stream(back, rs.pid))) == view(
        partial(decode_stream(_sse(rs.name), rs.pid))
    )


@pytest.mark.parametrize("path", claude_code_streams(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_claude_code_answers_translate(path: Any) -> None:
    data = load_client_sse(path)
    for target in (C, A):
        check_translation(data, A, target, translate(data, A, target))


def test_recorded_corpus_is_there() -> None:
    from tests.conftest import need_fixtures

    need_fixtures()
    assert {rs.pid for rs in RECORDED} == {A, C}
    assert len(RECORDED) >= 100


# ---------------------------------------------------------------- chunking never matters
def _crlf(data: bytes) -> bytes:
    return data.replace(b"\n", b"\r\n")


SPLIT_CASES: list[tuple[str, bytes, str]] = [
    ("parallel", PARALLEL_SSE, A),
    ("parallel-crlf", _crlf(PARALLEL_SSE), A),
    ("chat-parallel", CHAT_PARALLEL, C),
    ("chat-parallel-cr", CHAT_PARALLEL.replace(b"\n", b"\r"), C),
    ("anthropic-cut", PARALLEL_SSE[:-30], A),
]
for _name in (
    "anthropic/pydantic-ai-cassettes/test_anthropic/test_anthropic_model_thinking_part_redacted_stream/00.response.sse",
    "openai-chat/openai-python/inline-snapshot-external/f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin",
    "openai-chat/pydantic-ai-cassettes/compatible-openrouter.ai/test_openrouter/test_openrouter_streaming_reasoning/00.response.sse",
    "anthropic/anthropic-sdk-python/fable-fallback/stream-a-toolrefusal.sse",
):
    for _rs in RECORDED:
        if _rs.name == _name:
            SPLIT_CASES.append((_name.rsplit("/", 2)[-2], _rs.sse(), _rs.pid))


@cache
def _whole(i: int, target: str) -> bytes:
    _, data, source = SPLIT_CASES[i]
    return translate(data, source, target)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(data=st.data())
def test_split_anywhere_same_bytes(data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(SPLIT_CASES) - 1), label="case")
    _, raw, source = SPLIT_CASES[i]
    target = data.draw(st.sampled_from([A, C]), label="target")
    cuts = data.draw(st.lists(st.integers(0, len(raw)), max_size=40), label="cuts")
    out = b"".join(translate_stream(split_at(raw, cuts), source=source, target=target))
    assert out == _whole(i, target)


@pytest.mark.parametrize("i", range(len(SPLIT_CASES)), ids=[c[0] for c in SPLIT_CASES])
def test_byte_by_byte_and_async_same_bytes(i: int) -> None:
    _, raw, source = SPLIT_CASES[i]
    target = OTHER[source]
    one = [raw[j : j + 1] for j in range(len(raw))]
    assert b"".join(translate_stream(one, source=source, target=target)) == _whole(i, target)

    async def chunks() -> AsyncIterator[bytes]:
        for c in split_at(raw, range(0, len(raw), 7)):
            yield c

    async def run() -> bytes:
        return b"".join(
            [c async for c in atranslate_stream(chunks(), source=source, target=target)]
        )

    assert asyncio.run(run()) == _whole(i, target)


# ---------------------------------------------------------------- the accumulator
def test_accumulate_text_reasoning_signature_tools_usage_finish() -> None:
    r = accumulate(decode_stream(PARALLEL_SSE, A), source=A)
    assert r.id == "msg_01A" and r.model == "claude-sonnet-4-5" and r.source == A
    assert [type(p) for p in r.parts] == [ReasoningPart, TextPart, ToolCallPart, ToolCallPart]
    reasoning, text, c1, c2 = r.parts
    assert reasoning == ReasoningPart(
        text="Two cities: two calls. ✓", signature="EqQBCkYIBRgCKkBsig==", owner=A
    )
    assert text == TextPart(text="Checking Paris and Zürich — 東京 later.")
    assert (c1.id, c1.name, c1.arguments) == ("toolu_01P", "get_weather", '{"city": "Paris"}')
    assert (c2.id, args_of(c2.arguments)) == ("toolu_01Z", {"city": "Zürich", "unit": "c"})
    assert r.finish == Finish(unified="tool_calls", raw="tool_use")
    assert r.usage is not None
    assert (r.usage.input_total, r.usage.input_cache_read, r.usage.output_total) == (42, 30, 88)


def test_accumulate_interleaved_calls_by_key_and_lenient_deltas() -> None:
    events = [
        StreamStart(id="x"),
        ToolCallStart(key="a", id="call_a", name="f"),
        ToolCallStart(key="b", id="call_b", name="g"),
        ToolCallDelta(key="a", arguments='{"x":'),
        ToolCallDelta(key="b", arguments='{"y": 2}'),
        ToolCallDelta(key="a", arguments=" 1}"),
        ToolCallEnd(key="a"),
        ToolCallEnd(key="b"),
        ToolCallStart(key="c", id="call_c", name="h"),  # no arguments at all
        ToolCallEnd(key="c"),
        TextDelta(key="t", text="no start, "),  # a delta without its start still counts
        TextDelta(key="t", text="kept"),
        ReasoningStart(key="r"),
        ReasoningEnd(key="r", redacted="opaque", owner=A),
        ToolCallStart(key="a", id="call_a2", name="f"),  # a key reused after its end
        ToolCallDelta(key="a", arguments="{not json"),
        UsageEvent(usage=Usage(input_total=3, output_total=4)),
        FinishEvent(finish=Finish(unified="tool_calls", raw="tool_calls")),
        StreamEnd(ending="completed"),
    ]
    r = accumulate(events)
    calls = [(p.id, p.arguments) for p in r.parts if type(p) is ToolCallPart]
    assert calls == [
        ("call_a", '{"x": 1}'),
        ("call_b", '{"y": 2}'),
        ("call_c", "{}"),
        ("call_a2", "{not json"),  # invalid JSON surfaced as it came
    ]
    assert [p.text for p in r.parts if type(p) is TextPart] == ["no start, kept"]
    assert [p.redacted for p in r.parts if type(p) is ReasoningPart] == ["opaque"]
    assert r.usage is not None and r.usage.output_total == 4


def test_accumulate_failed_and_disconnected_raise_with_partial() -> None:
    sse = anthropic_sse(
        *PARALLEL[:9],
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    )
    with pytest.raises(StreamFailed) as e:
        accumulate(decode_stream(sse, A))
    assert e.value.ending == "failed"
    assert (e.value.error.type, e.value.error.message, e.value.status) == (
        "overloaded",
        "Overloaded",
        529,
    )
    assert view(e.value.partial)["text"] == "Checking Paris "

    with pytest.raises(StreamFailed) as e:
        accumulate(decode_stream(anthropic_sse(*PARALLEL[:-1]), A))
    assert e.value.ending == "disconnected"
    assert (e.value.error.type, e.value.status) == ("bad_gateway", 502)
    assert view(e.value.partial)["calls"] == PARALLEL_CALLS


def _sdk_twin(rs: RecordedStream) -> dict[str, Any]:
    """The recorded stream accumulated by its official SDK: its non-streamed twin."""
    body: dict[str, Any] = sdk_snapshot(_sse(rs.name), rs.pid).model_dump(
        mode="json", warnings=False, exclude_none=True
    )
    if rs.pid == C:  # the SDK concatenates a role repeated on every chunk (OpenRouter)
        body["choices"][0]["message"]["role"] = "assistant"
    return body


def _pairable(rs: RecordedStream) -> bool:
    if rs.meta["size"] > 150_000:  # the SDK's pydantic parsing of thousands of chunks: slow
        return False
    data = _sse(rs.name)
    if rs.pid == A and data.count(b"message_start") > 2:  # event: + type: one message only
        return False
    if "incomplete_partial_json" in rs.name:  # the SDK repairs cut JSON; we keep it as sent
        return False
    if rs.name.endswith("anthropic-fallback-tool-call.sse"):  # openai SDK: IndexError at index 1
        return False
    if "annotations_stream" in rs.name:  # openai SDK: annotations without index cannot merge
        return False
    return ending(decode_stream(data, rs.pid)) == "completed"


@pytest.mark.parametrize("rs", [rs for rs in RECORDED if _pairable(rs)], ids=_id)
def test_accumulated_stream_matches_translated_response(rs: RecordedStream) -> None:
    """translate_response(twin) == accumulate(decode(translate_stream(stream))).

    The twin of a recorded stream is what its official SDK accumulates from it (a recording of
    the same call non-streamed does not exist: vercel's ``X.1.json`` / ``X.1.chunks.txt`` are two
    different generations)."""
    import interlingua

    twin = _sdk_twin(rs)
    if "refusal" in (twin.get("choices") or [{}])[0].get("message", {}):
        pytest.skip("Chat refusal: a RefusalPart in responses, text in streams (no stream event)")
    for target in (OTHER[rs.pid], rs.pid):
        body = interlingua.translate_response(twin, source=rs.pid, target=target).body
        want = interlingua.decode_response(body, target)
        got = accumulate(decode_stream(_translated(rs.name, rs.pid, target), target))
        a, b = view(want), view(got)
        if (rs.pid, target) == (C, A):
            # translate_response drops unsigned Chat reasoning for Anthropic (a reported loss);
            # a stream has no loss channel and keeps it as a thinking block.
            del a["reasoning"], b["reasoning"]
        assert b == a
        assert got.finish is not None and want.finish is not None
        assert got.finish.unified == want.finish.unified
        if rs.pid == target and want.usage is not None and twin.get("usage"):
            assert got.usage is not None
            assert (got.usage.input_total, got.usage.output_total) == (
                want.usage.input_total,
                want.usage.output_total,
            )


# ---------------------------------------------------------------- endings: failed
def test_anthropic_midstream_error_becomes_chat_error_chunk() -> None:
    err = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    out = translate(anthropic_sse(*PARALLEL[:12], err), A, C)
    payloads = chat_data(out)
    assert "[DONE]" not in payloads
    # the same body translate_error gives Chat callers (overloaded: 503), the status in `code`
    assert payloads[-1] == {
        "error": {"message": "Overloaded", "type": "server_error", "param": None, "code": 503}
    }
    assert all(c["finish_reason"] is None for p in payloads[:-1] for c in p["choices"])
    text = "".join(p["choices"][0]["delta"].get("content") or "" for p in payloads[:-1])
    assert text == "Checking Paris and Zürich — 東京 later."


@pytest.mark.parametrize("raw", ["api_error", "overloaded_error", "rate_limit_error"])
def test_responses_stream_error_type_is_the_http_errors(raw: str) -> None:
    """An in-band error gets the raw type the target's HTTP errors have (one rule,
    ``raw_error_type``): Anthropic api_error is Responses server_error, not its own name."""
    err = {"type": "error", "error": {"type": raw, "message": "boom"}}
    out = translate(anthropic_sse(*PARALLEL[:12], err), A, "openai_responses")
    event = next(orjson.loads(d) for _, d in sse_payloads(out) if b'"type":"error"' in d.encode())
    _, body = interlingua.translate_error(
        500, {"type": "error", "error": err["error"]}, source=A, target="openai_responses"
    )
    assert event["code"] == event["error"]["type"] == body["error"]["type"]


def test_chat_error_chunk_becomes_anthropic_error_event() -> None:
    sse = chat_sse(
        chunk({"role": "assistant", "content": "Hi"}),
        {"error": {"message": "Rate limit reached", "type": "rate_limit_error", "code": None}},
    )
    payloads = anthropic_data(translate(sse, C, A))
    assert payloads[-1] == {
        "type": "error",
        "error": {"type": "rate_limit_error", "message": "Rate limit reached"},
    }
    types = [p["type"] for p in payloads]
    assert "message_stop" not in types and "message_delta" not in types


@pytest.mark.parametrize(
    "name, status, message",
    [
        (
            "compatible-api.groq.com/test_groq/test_tool_use_failed_error_streaming/00",
            400,
            "Tool call validation failed",
        ),
        (
            "compatible-openrouter.ai/test_openrouter/test_openrouter_stream_error/00",
            400,
            "Token limit reached",
        ),
    ],
)
def test_recorded_chat_errors_fail_the_stream(name: str, status: int, message: str) -> None:
    rs = [r for r in RECORDED if name in r.name]
    if not rs:
        pytest.skip("../shared/fixtures is absent")
    events = decode_stream(rs[0].sse(), C)
    err = [e.error for e in events if type(e) is ErrorEvent]
    assert len(err) == 1 and err[0].status == status and err[0].message.startswith(message)
    assert ending(events) == "failed"
    payloads = anthropic_data(_translated(rs[0].name, C, A))
    assert payloads[-1]["type"] == "error"
    assert payloads[-1]["error"]["type"] == "invalid_request_error"
    assert {p["type"] for p in payloads}.isdisjoint({"message_delta", "message_stop"})


def test_error_round_trip_keeps_type_and_message() -> None:
    err = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
    back = translate(translate(anthropic_sse(MSG_START, err), A, C), C, A)
    assert anthropic_data(back)[-1] == err


# ---------------------------------------------------------------- endings: disconnected
def assert_disconnected(out: bytes, target: str) -> None:
    if target == A:
        payloads = anthropic_data(out)
        assert payloads[-1]["type"] == "error"
        assert {p["type"] for p in payloads}.isdisjoint({"message_stop", "message_delta"})
    else:
        payloads = chat_data(out)
        assert "[DONE]" not in payloads
        assert "error" in payloads[-1]
        assert all(c["finish_reason"] is None for p in payloads[:-1] for c in p["choices"])
    assert ending(decode_stream(out, target)) == "failed"


def _cut_before_end(data: bytes, pid: str) -> bytes | None:
    """The stream without its terminal event (and for Chat, without its finish_reason chunk:
    a finish_reason completes a Chat stream)."""
    kept = []
    for name, d in sse_payloads(data):
        p = None if d == "[DONE]" else orjson.loads(d)
        if pid == A and type(p) is dict and p.get("type") == "message_stop":
            break
        if pid == C and (
            p is None
            or any(c.get("finish_reason") for c in (p.get("choices") or []) if type(c) is dict)
        ):
            break
        kept.append((name, d))
    else:
        return None
    return b"".join(
        (b"event: " + n.encode() + b"\n" if n else b"") + b"data: " + d.encode() + b"\n\n"
        for n, d in kept
    )


@pytest.mark.parametrize("rs", RECORDED, ids=_id)
def test_recorded_stream_cut_before_its_end_is_disconnected(rs: RecordedStream) -> None:
    if ending(decode_stream(_sse(rs.name), rs.pid)) != "completed":
        pytest.skip("the recording fails before its end")
    cut = _cut_before_end(_sse(rs.name), rs.pid)
    assert cut is not None
    assert ending(decode_stream(cut, rs.pid)) == "disconnected"
    for target in (OTHER[rs.pid], rs.pid):
        assert_disconnected(translate(cut, rs.pid, target), target)


@pytest.mark.parametrize("source, data", [(A, PARALLEL_SSE), (C, CHAT_PARALLEL)])
def test_cut_anywhere_before_the_end_is_disconnected(source: str, data: bytes) -> None:
    end = data.rfind(b"message_stop") if source == A else data.find(b'"tool_calls"}')
    for n in range(0, end, max(1, end // 40)):
        for target in (A, C):
            assert_disconnected(translate(data[:n], source, target), target)


def test_anthropic_stop_reason_without_message_stop_is_not_a_stop() -> None:
    out = translate(anthropic_sse(*PARALLEL[:-1]), A, C)
    assert_disconnected(out, C)
    assert b'"finish_reason":"tool_calls"' not in out


def test_chat_finish_without_done_completes() -> None:
    """Decision (module doc): finish_reason (+ usage), then the body ends -> completed."""
    usage = {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}
    head = [chunk({"role": "assistant", "content": "Hi"}), chunk({}, "stop")]
    for payloads in (head, [*head, {**chunk(), "choices": [], "usage": usage}]):
        data = chat_sse(*payloads)
        assert ending(decode_stream(data, C)) == "completed"
        out = anthropic_data(translate(data, C, A))
        assert [p["type"] for p in out[-2:]] == ["message_delta", "message_stop"]
        assert out[-2]["delta"]["stop_reason"] == "end_turn"
        assert out[-2]["usage"]["output_tokens"] == (2 if len(payloads) == 3 else 0)
    # a finish_reason chunk carrying the usage itself (DeepSeek, Groq), no [DONE]
    data = chat_sse(chunk({"content": "Hi"}), chunk({}, "length", usage=usage))
    out = anthropic_data(translate(data, C, A))
    assert out[-2]["delta"]["stop_reason"] == "max_tokens" and out[-1]["type"] == "message_stop"


def test_chat_without_finish_or_done_is_disconnected() -> None:
    data = chat_sse(chunk({"role": "assistant", "content": "Hel"}), chunk({"content": "lo"}))
    assert ending(decode_stream(data, C)) == "disconnected"
    assert_disconnected(translate(data, C, A), A)


def test_empty_upstream_is_disconnected() -> None:
    for source in (A, C):
        for target in (A, C):
            assert_disconnected(translate(b"", source, target), target)


def test_nothing_after_the_terminal_event() -> None:
    extra = anthropic_sse(MSG_START, block_start(0, {"type": "text", "text": ""}))
    assert translate(PARALLEL_SSE + extra, A, C) == translate(PARALLEL_SSE, A, C)
    extra = chat_sse(chunk({"content": "late"}))
    assert translate(CHAT_PARALLEL + extra, C, A) == translate(CHAT_PARALLEL, C, A)


def test_duplicate_message_start_ignored_spliced_one_fails() -> None:
    dup = anthropic_sse(MSG_START, *PARALLEL)
    assert translate(dup, A, C) == translate(PARALLEL_SSE, A, C)
    other = {**MSG_START, "message": {**MSG_START["message"], "id": "msg_02B"}}
    spliced = anthropic_sse(*PARALLEL[:14], other, *PARALLEL[1:])
    events = decode_stream(spliced, A)
    assert ending(events) == "failed"
    assert [e.error.type for e in events if type(e) is ErrorEvent] == ["bad_gateway"]
    assert_disconnected(translate(spliced, A, C), C)


# ---------------------------------------------------------------- pings, comments, unknowns
def test_pings_comments_and_unknown_events_are_ignored() -> None:
    noisy = anthropic_sse(
        *PARALLEL[:3],
        {"type": "ping"},
        {"type": "some_future_event", "x": 1},
        *PARALLEL[3:],
    ).replace(b"event: message_start", b": keep-alive\n\nevent: message_start")
    quiet = anthropic_sse(*(p for p in PARALLEL if p["type"] != "ping"))
    for target in (A, C):
        assert translate(noisy, A, target) == translate(quiet, A, target)
    assert b"ping" not in translate(noisy, A, A)
    dec = stream_decoder(A)
    from interlingua._sse import SSEDecoder

    for ev in SSEDecoder().feed(noisy):
        dec.feed(ev)
    assert dec.ignored == 1  # the unknown event, counted; pings are not even that


def test_openrouter_processing_comments_are_ignored() -> None:
    data = b": OPENROUTER PROCESSING\n\n" + CHAT_PARALLEL.replace(
        b"\n\ndata:", b"\n\n: OPENROUTER PROCESSING\n\ndata:"
    )
    assert translate(data, C, A) == translate(CHAT_PARALLEL, C, A)


# ---------------------------------------------------------------- parallel tool calls
def test_anthropic_parallel_calls_become_two_chat_calls() -> None:
    payloads = chat_data(translate(PARALLEL_SSE, A, C))
    calls: dict[int, dict[str, Any]] = {}
    for p in payloads:
        for c in p.get("choices") or () if type(p) is dict else ():
            for tc in c["delta"].get("tool_calls") or ():
                call = calls.setdefault(tc["index"], {"id": None, "name": None, "args": ""})
                call["id"] = tc.get("id") or call["id"]
                call["name"] = (tc.get("function") or {}).get("name") or call["name"]
                call["args"] += (tc.get("function") or {}).get("arguments") or ""
    assert sorted(calls) == [0, 1]
    assert [(c["id"], c["name"], orjson.loads(c["args"])) for c in calls.values()] == PARALLEL_CALLS
    assert [c["finish_reason"] for p in payloads if type(p) is dict for c in p["choices"]][
        -1
    ] == "tool_calls"
    assert payloads[-2]["usage"]["prompt_tokens"] == 42  # 12 + 30 cached, cache-inclusive
    assert payloads[-2]["usage"]["prompt_tokens_details"]["cached_tokens"] == 30


def test_chat_parallel_calls_become_two_anthropic_blocks() -> None:
    payloads = anthropic_data(translate(CHAT_PARALLEL, C, A))
    starts = [p for p in payloads if p["type"] == "content_block_start"]
    assert [s["content_block"]["type"] for s in starts] == ["text", "tool_use", "tool_use"]
    assert [s["index"] for s in starts] == [0, 1, 2]
    args = {i: "" for i in (1, 2)}
    for p in payloads:
        if p["type"] == "content_block_delta" and p["delta"]["type"] == "input_json_delta":
            args[p["index"]] += p["delta"]["partial_json"]
    assert [(s["content_block"]["id"], s["content_block"]["name"]) for s in starts[1:]] == [
        ("call_a", "get_weather"),
        ("call_b", "get_time"),
    ]
    assert [orjson.loads(a) for a in args.values()] == [{"city": "Paris"}, {"tz": "CET"}]
    # one block open at a time: every start follows the previous block's stop
    opened: list[int] = []
    for p in payloads:
        if p["type"] == "content_block_start":
            assert not opened
            opened.append(p["index"])
        elif p["type"] == "content_block_stop":
            assert opened == [p["index"]]
            opened.clear()
        elif p["type"] == "content_block_delta":
            assert opened == [p["index"]]
    usage = payloads[-2]["usage"]
    assert (usage["input_tokens"], usage["cache_read_input_tokens"]) == (40, 10)


def test_interleaved_chat_call_deltas_stay_inside_their_blocks() -> None:
    """A Chat dialect interleaving the argument deltas of parallel calls: Anthropic blocks never
    interleave, so the second call waits until the first block ends."""

    def tc(i: int, **kw: Any) -> dict[str, Any]:
        return {"index": i, **kw}

    data = chat_sse(
        chunk(
            {
                "tool_calls": [
                    tc(0, id="a", function={"name": "f", "arguments": '{"x":'}),
                    tc(1, id="b", function={"name": "g", "arguments": '{"y":'}),
                ]
            }
        ),
        chunk(
            {
                "tool_calls": [
                    tc(0, function={"arguments": " 1}"}),
                    tc(1, function={"arguments": " 2}"}),
                ]
            }
        ),
        chunk({}, "tool_calls"),
        "[DONE]",
    )
    r = accumulate(decode_stream(translate(data, C, A), A))
    assert [(p.id, args_of(p.arguments)) for p in r.parts] == [("a", {"x": 1}), ("b", {"y": 2})]
    stopped: set[int] = set()
    for p in anthropic_data(translate(data, C, A)):
        if p["type"] == "content_block_stop":
            stopped.add(p["index"])
        elif p["type"] == "content_block_delta":
            assert p["index"] not in stopped


def test_recorded_parallel_chat_calls() -> None:
    rs = [r for r in RECORDED if "parallel-tools" in r.features and r.pid == C]
    if not rs:
        pytest.skip("../shared/fixtures is absent")
    for r in rs:
        want = view(partial(decode_stream(_sse(r.name), C)))["calls"]
        assert len(want) >= 2
        payloads = anthropic_data(_translated(r.name, C, A))
        blocks = [p["content_block"] for p in payloads if p["type"] == "content_block_start"]
        assert [(b["id"], b["name"]) for b in blocks if b["type"] == "tool_use"] == [
            (i, n) for i, n, _ in want
        ]


# ---------------------------------------------------------------- Chat dialects
def test_dialect_tool_quirks_id_zero_null_arguments_index_from_one() -> None:
    data = chat_sse(
        chunk({"role": "assistant"}),
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
        chunk({"tool_calls": [{"index": 1, "function": {"arguments": None}}]}),
        chunk({"tool_calls": [{"index": 1, "function": {"arguments": '{"path"'}}]}),
        chunk({"tool_calls": [{"index": 1, "function": {"arguments": ': "."}'}}]}),
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 2,
                        "id": "1",
                        "type": "function",
                        "function": {"name": "pwd", "arguments": None},
                    }
                ]
            }
        ),
        chunk({}, "tool_calls"),
    )  # and no [DONE]
    r = accumulate(decode_stream(data, C))
    assert [(p.id, p.name, p.arguments) for p in r.parts if type(p) is ToolCallPart] == [
        ("0", "ls", '{"path": "."}'),
        ("1", "pwd", "{}"),
    ]
    payloads = anthropic_data(translate(data, C, A))
    uses = [p for p in payloads if p["type"] == "content_block_start"]
    assert [(u["index"], u["content_block"]["id"]) for u in uses] == [(0, "0"), (1, "1")]
    # back to Chat: indices from 0, and "{}" for the call that sent no arguments
    chat = accumulate(decode_stream(translate(data, C, C), C))
    assert [(p.id, p.arguments) for p in chat.parts if type(p) is ToolCallPart] == [
        ("0", '{"path": "."}'),
        ("1", "{}"),
    ]


def test_dialect_every_call_at_index_zero_with_its_own_id() -> None:
    data = chat_sse(
        chunk(
            {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "a", "arguments": "{}"}}]}
        ),
        chunk(
            {
                "tool_calls": [
                    {"index": 0, "id": "c2", "function": {"name": "b", "arguments": '{"n": 1}'}}
                ]
            }
        ),
        chunk({}, "tool_calls"),
        "[DONE]",
    )
    r = accumulate(decode_stream(data, C))
    assert [(p.id, p.name, p.arguments) for p in r.parts if type(p) is ToolCallPart] == [
        ("c1", "a", "{}"),
        ("c2", "b", '{"n": 1}'),
    ]


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_dialect_reasoning_fields(field: str) -> None:
    data = chat_sse(
        chunk({"role": "assistant", field: "Let me "}),
        chunk({field: "think."}),
        chunk({"content": "42"}),
        chunk({}, "stop"),
        "[DONE]",
    )
    payloads = anthropic_data(translate(data, C, A))
    starts = [p["content_block"]["type"] for p in payloads if p["type"] == "content_block_start"]
    assert starts == ["thinking", "text"]
    thinking = "".join(
        p["delta"]["thinking"]
        for p in payloads
        if p["type"] == "content_block_delta" and p["delta"]["type"] == "thinking_delta"
    )
    assert thinking == "Let me think."
    # no signature was made by Chat: none is invented
    assert not any(
        p["type"] == "content_block_delta" and p["delta"]["type"] == "signature_delta"
        for p in payloads
    )


def test_recorded_reasoning_dialects() -> None:
    seen = set()
    for rs in RECORDED:
        if rs.pid != C or "reasoning" not in rs.features:
            continue
        data = _sse(rs.name)
        for field in (b'"reasoning_content":"', b'"reasoning":"'):
            if field in data:
                seen.add(field)
        want = view(partial(decode_stream(data, C)))["reasoning"]
        if not want:  # only encrypted reasoning_details (OpenRouter / xAI): no text to carry
            continue
        got = "".join(
            p["delta"]["thinking"]
            for p in anthropic_data(_translated(rs.name, C, A))
            if p["type"] == "content_block_delta" and p["delta"]["type"] == "thinking_delta"
        )
        assert got == want, rs.name
    if RECORDED:
        assert seen == {b'"reasoning_content":"', b'"reasoning":"'}


def test_azure_prompt_filter_chunk_does_not_name_the_message() -> None:
    data = chat_sse(
        {
            "choices": [],
            "created": 0,
            "id": "",
            "model": "",
            "object": "",
            "prompt_filter_results": [],
        },
        chunk({"role": "assistant", "content": "Hi"}),
        chunk({}, "stop"),
        "[DONE]",
    )
    start = anthropic_data(translate(data, C, A))[0]
    assert start["message"]["id"] == "chatcmpl-q" and start["message"]["model"] == "m"


def test_chat_refusal_is_text_not_dropped() -> None:
    data = chat_sse(
        chunk({"role": "assistant", "content": None, "refusal": None}),
        chunk({"refusal": "I can't help"}),
        chunk({"refusal": " with that."}),
        chunk({}, "stop"),
        "[DONE]",
    )
    assert view(accumulate(decode_stream(translate(data, C, A), A)))["text"] == (
        "I can't help with that."
    )


def test_anthropic_redacted_thinking_and_signature_stay_with_anthropic() -> None:
    sse = anthropic_sse(
        MSG_START,
        block_start(0, {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va"}),
        block_stop(0),
        *PARALLEL[1:],
    )
    same = anthropic_data(translate(sse, A, A))
    assert same[1]["content_block"] == {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va"}
    sigs = [
        p["delta"]["signature"]
        for p in same
        if p["type"] == "content_block_delta" and p["delta"]["type"] == "signature_delta"
    ]
    assert sigs == ["EqQBCkYIBRgCKkBsig=="]
    chat = translate(sse, A, C)
    assert b"EmwKAhgBEgy3va" not in chat and b"EqQBCkYIBRgCKkBsig==" not in chat
    assert b'"reasoning_content":"Two cities: "' in chat


def test_encoders_fed_directly() -> None:
    """The state machines are usable without the translator (the gateway's way)."""
    enc = stream_encoder(C)
    out = b"".join(
        b"".join(enc.feed(e))
        for e in [
            StreamStart(id="r1", model="m"),
            TextStart(key="t"),
            TextDelta(key="t", text="ok"),
            TextEnd(key="t"),
            ReasoningStart(key="r"),
            ReasoningDelta(key="r", text="hm"),
            ReasoningEnd(key="r"),
            FinishEvent(finish=Finish(unified="stop", raw="end_turn")),
            StreamEnd(ending="completed"),
        ]
    ) + b"".join(enc.close())
    assert out.endswith(b"data: [DONE]\n\n")
    assert [p["choices"][0]["finish_reason"] for p in chat_data(out)[:-1]][-1] == "stop"
    enc = stream_encoder(A)
    assert b"".join(enc.close()).endswith(
        b'"message":"upstream stream ended without its terminal event"}}\n\n'
    )


def test_dropped_stream_signatures_are_reported_as_losses() -> None:
    """A stream has no room for a loss report: the translator lists what it could not carry."""
    sig = {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "signature_delta", "signature": "SIG"},
    }
    data = anthropic_sse(
        {
            "type": "message_start",
            "message": {
                "id": "m",
                "type": "message",
                "role": "assistant",
                "model": "x",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 3, "output_tokens": 1},
            },
        },
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "hm"},
        },
        sig,
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 5},
        },
        {"type": "message_stop"},
    )
    to_chat = StreamTranslator(A, C)
    to_chat.feed(data)
    to_chat.close()
    assert [(loss.feature, loss.path) for loss in to_chat.losses] == [
        ("reasoning_replay", "stream.reasoning[0]")
    ]
    assert to_chat.usage is not None and to_chat.usage.output_total == 5
    same = StreamTranslator(A, A)
    same.feed(data)
    same.close()
    assert same.losses == []  # back to its owner
    carried = StreamTranslator(A, "openai_responses")
    carried.feed(data)
    carried.close()
    assert carried.losses == []  # rides in the reasoning envelope


def test_an_unknown_finish_value_is_kept_same_protocol_in_streams_as_in_responses() -> None:
    """vLLM ends a stream with ``finish_reason: abort``, which no Chat row names. Chat -> Chat
    keeps it (the response path did; the stream path wrote the default ``stop``), and toward
    another protocol both paths report the finish as lossy."""
    from interlingua import StreamTranslator, translate_response

    from tests.conftest import need_fixtures

    rel = "recorded/openai-chat/tmc-langchaingo-cassettes/TestClient_CreateChatCompletionStream"
    raw = (need_fixtures() / rel / "00.response.sse").read_bytes()
    assert raw.count(b'"finish_reason":"stop"') == 1
    raw = raw.replace(b'"finish_reason":"stop"', b'"finish_reason":"abort"')

    def stream(target: str) -> tuple[bytes, list[Any]]:
        t = StreamTranslator("openai_chat", target)
        out = t.feed(raw) + t.close()
        return out, t.losses

    out, losses = stream("openai_chat")
    assert b'"finish_reason":"abort"' in out and not [
        x for x in losses if x.path == "stream.finish"
    ]
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "5"}, "finish_reason": "abort"}
        ],
    }
    back = translate_response(body, source="openai_chat", target="openai_chat")
    assert back.body["choices"][0]["finish_reason"] == "abort"
    # one rule (_finish.finish_wire) reports it: the same words from both paths, for every target
    # (Responses and Gemini have a value for any ending: neither path reports a loss there)
    lossy = []
    for target in ("anthropic_messages", "openai_responses", "gemini", "cohere_v2"):
        _, losses = stream(target)
        said = [(x.what, x.why, x.feature) for x in losses if x.path == "stream.finish"]
        resp = translate_response(body, source="openai_chat", target=target)
        assert said == [
            (x.what, x.why, x.feature) for x in resp.losses if x.feature == "finish_reason"
        ], target
        lossy += [target] if said else []
    assert lossy == ["anthropic_messages", "cohere_v2"]
    to_a = translate_response(body, source="openai_chat", target="anthropic_messages")
    assert [x.what for x in to_a.losses if x.feature == "finish_reason"] == [
        "finish reason 'abort' sent as 'end_turn'"
    ]


def test_a_finish_value_that_is_no_reason_is_refused_in_streams_as_in_responses() -> None:
    """One finish rule (the codec's decode_finish) for both paths: a Chat finish_reason that is
    an object is refused by the response path (InvalidInput naming its path) and by the stream
    decoder (it wrote the value's str() as the raw reason), whose translator fails the stream
    in-band with the same words."""
    from interlingua import StreamTranslator, translate_response
    from interlingua._errors import InvalidInput

    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "5"}, "finish_reason": {}}
        ],
    }
    with pytest.raises(InvalidInput, match="finish_reason: expected a string, got dict"):
        translate_response(body, source="openai_chat", target="anthropic_messages")
    with pytest.raises(InvalidInput, match="finish_reason: expected a string, got dict"):
        decode_stream(chat_sse(chunk({"content": "5"}), chunk(finish={})), "openai_chat")  # type: ignore[arg-type]
    t = StreamTranslator("openai_chat", "anthropic_messages")
    out = t.feed(chat_sse(chunk({"content": "5"}), chunk(finish=[1]))) + t.close()  # type: ignore[arg-type]
    assert t.decoder.ended == "failed"
    assert b'"text":"5"' in out and b"event: error" in out
    assert b"invalid stream event: choices[index=0].finish_reason: expected a string" in out


def test_call_arguments_that_are_no_json_object_are_reported_as_the_response_path_does() -> None:
    """A Chat call whose argument text is cut JSON, toward Gemini (whose calls carry an object):
    the stream sends {} and reports it with the words the response path uses for the same call
    (one rule, ``_codec_support.arguments_object``)."""
    from interlingua import StreamTranslator, translate_response

    call = {"index": 0, "id": "call_1", "type": "function"}
    raw = chat_sse(
        chunk({"role": "assistant", "tool_calls": [{**call, "function": {"name": "w"}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city": "Par'}}]}),
        chunk(finish="tool_calls"),
        "[DONE]",
    )
    t = StreamTranslator("openai_chat", "gemini")
    out = t.feed(raw) + t.close()
    (sent,) = [orjson.loads(p) for _, p in sse_payloads(out) if "functionCall" in p]
    assert sent["candidates"][0]["content"]["parts"][0]["functionCall"]["args"] == {}
    (lost,) = [x for x in t.losses if x.feature == "tool_call"]
    assert lost.path == "stream.tool_call.arguments"
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{**call, "function": {"name": "w", "arguments": '{"city": "Par'}}],
    }
    body = {
        "id": "chatcmpl-q",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
    }
    resp = translate_response(body, source="openai_chat", target="gemini")
    (twin,) = [x for x in resp.losses if x.feature == "tool_call"]
    assert (lost.what, lost.why) == (twin.what, twin.why)
    assert lost.what.endswith("; sent as {}")
