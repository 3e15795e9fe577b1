"""Reasoning parity: what a client sees of a recorded answer does not depend on whether it came
as a stream or as a response.

For every recorded stream of ../shared/fixtures (all four protocols) and every target protocol:

- **stream path**: the stream translated with ``StreamTranslator`` (the public stream API), the
  target's SSE decoded and accumulated back to a canonical Response;
- **response path**: the source stream accumulated (``interlingua.streams.accumulate``), encoded
  as the source protocol's own response body (``encode_response``), translated with
  ``translate_response`` and decoded back.

Both must give the same reasoning text (joined), visible text, tool calls (name + parsed
arguments) and unified finish reason, and report the same loss features, except for the
differences documented in ``ONLY_RESPONSE`` (``test_documented_differences_still_occur`` keeps
that table honest). A source stream that does not complete has no response: its translated
stream must not complete either.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import interlingua
import orjson
import pytest
from interlingua import Ctx, StreamTranslator, decode_response, encode_response
from interlingua.generated.canonical import ReasoningPart, Response, TextPart, ToolCallPart
from interlingua.streams.accumulate import accumulate
from interlingua.transforms.call_id_envelope import unwrap_id

from tests.stream_util import ALL_PID, RecordedStream, args_of, decode_stream, recorded_streams

TARGETS = tuple(ALL_PID.values())  # the protocols with recorded streams
OUT = (*TARGETS, "cohere_v2")  # every protocol a stream is translated into

# Loss features only the response path reports, and why. The stream path reports nothing the
# response path does not (ONLY_STREAM is empty).
ONLY_RESPONSE = {
    "tool_call": "arguments cut by max_tokens are not JSON: a stream passes the text on, a "
    "response body holding an object (Anthropic input) sends {} and reports it",
}
ONLY_STREAM: dict[str, str] = {}

STREAMS = recorded_streams(*ALL_PID)


def _view(r: Response) -> dict[str, Any]:
    return {
        "reasoning": "".join(p.text for p in r.parts if type(p) is ReasoningPart),
        "text": "".join(p.text for p in r.parts if type(p) is TextPart),
        "calls": [(p.name, args_of(p.arguments)) for p in r.parts if type(p) is ToolCallPart],
        "finish": r.finish.unified if r.finish is not None else None,
    }


@cache
def _source(rs: RecordedStream) -> tuple[bytes, Response | None, dict[str, Any], set[str]]:
    """The stream's SSE, its accumulated response (None when it does not complete), that
    response as the source protocol's body, and the losses of writing that body."""
    data = rs.sse()
    try:
        resp = accumulate(decode_stream(data, rs.pid))
    except interlingua.InterlinguaError:
        return data, None, {}, set()
    ctx = Ctx(rs.pid, rs.pid)
    body = encode_response(resp, rs.pid, ctx)
    # what the stream carried with no canonical home never reached the accumulated body: both
    # paths lose it (the stream path says so)
    same = StreamTranslator(rs.pid, rs.pid)
    same.feed(data)
    same.close()
    dropped = {x.feature for x in same.losses if x.feature == "extensions"}
    return data, resp, body, {loss.feature for loss in ctx.losses} | dropped


def _stream_path(data: bytes, source: str, target: str) -> tuple[Response | None, set[str]]:
    t = StreamTranslator(source, target)
    out = t.feed(data) + t.close()
    try:
        got: Response | None = accumulate(decode_stream(out, target))
    except interlingua.InterlinguaError:
        got = None  # the translated stream ended in an error event
    return got, {loss.feature for loss in t.losses}


def _response_path(
    body: dict[str, Any], source: str, target: str, lost: set[str]
) -> tuple[Response, set[str]]:
    t = interlingua.translate_response(body, source=source, target=target)
    return decode_response(t.body, target), lost | {loss.feature for loss in t.losses}


@cache
def _compare(rs: RecordedStream, target: str) -> tuple[list[str], set[str]]:
    """The differences found (empty when the paths agree) and the documented loss features
    only the response path reported."""
    data, resp, body, lost = _source(rs)
    streamed, s_lost = _stream_path(data, rs.pid, target)
    if resp is None:
        return (
            [] if streamed is None else ["the source failed, the translated stream did not"]
        ), set()
    if streamed is None:
        return ["the translated stream failed"], set()
    answered, r_lost = _response_path(body, rs.pid, target, lost)
    a, b = _view(streamed), _view(answered)
    diffs = [f"{k}: stream {a[k]!r:.120} != response {b[k]!r:.120}" for k in a if a[k] != b[k]]
    if diffs and diffs[0].startswith("calls") and _cut_arguments(a["calls"], b["calls"], r_lost):
        diffs.pop(0)
    only_r, only_s = r_lost - s_lost, s_lost - r_lost
    diffs += [
        f"loss {f!r} only in the response path" for f in sorted(only_r - ONLY_RESPONSE.keys())
    ]
    diffs += [f"loss {f!r} only in the stream path" for f in sorted(only_s - ONLY_STREAM.keys())]
    return diffs, only_r & ONLY_RESPONSE.keys()


def _cut_arguments(streamed: list[Any], answered: list[Any], r_lost: set[str]) -> bool:
    """The ``tool_call`` row of ONLY_RESPONSE: the same calls, where arguments that are not JSON
    (kept as text by the stream) were sent as {} by the response, which reported it."""
    return (
        "tool_call" in r_lost
        and len(streamed) == len(answered)
        and all(
            s == r or (s[0] == r[0] and type(s[1]) is str and r[1] == {})
            for s, r in zip(streamed, answered, strict=True)
        )
    )


@pytest.mark.parametrize("target", OUT)
@pytest.mark.parametrize("rs", STREAMS, ids=lambda rs: rs.name)
def test_stream_and_response_show_the_same(rs: RecordedStream, target: str) -> None:
    diffs, _ = _compare(rs, target)
    assert diffs == [], f"{rs.pid} -> {target}"


def test_documented_differences_still_occur() -> None:
    """Every row of ONLY_RESPONSE is still needed somewhere: a fixed difference loses its row."""
    if not STREAMS:
        pytest.skip("../shared/fixtures is absent")
    used: set[str] = set()
    for rs in STREAMS:
        for target in OUT:
            used |= _compare(rs, target)[1]
    assert used == set(ONLY_RESPONSE), f"rows no longer needed: {set(ONLY_RESPONSE) - used}"


def test_reasoning_reaches_every_target_of_a_reasoning_stream() -> None:
    """Not only the same on both paths: reasoning text reaches every target, as a thinking
    block, a Responses summary, a Gemini thought part or Chat's reasoning field."""
    if not STREAMS:
        pytest.skip("../shared/fixtures is absent")
    sources = set()
    for rs in STREAMS:
        _, resp, body, lost = _source(rs)
        if resp is None or not _view(resp)["reasoning"]:
            continue
        sources.add(rs.pid)
        for target in OUT:
            answered, _ = _response_path(body, rs.pid, target, lost)
            assert _view(answered)["reasoning"] == _view(resp)["reasoning"], (rs.name, target)
    assert sources == set(TARGETS)  # recorded reasoning streams of all four protocols


# ---------------------------------------------------------------- the same without ../shared

G, R, C, A = "gemini", "openai_responses", "openai_chat", "anthropic_messages"
GEMINI = {  # thinking, then a call whose signature rides in the call id (call_id_envelope)
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {"text": "Paris first.", "thought": True, "thoughtSignature": "c2lnQQ=="},
                    {
                        "functionCall": {"name": "weather", "args": {"city": "Paris"}},
                        "thoughtSignature": "c2lnQg==",
                    },
                ],
            },
            "finishReason": "STOP",
        }
    ],
    "usageMetadata": {"promptTokenCount": 9, "candidatesTokenCount": 5, "totalTokenCount": 14},
}
RESPONSES = {
    "id": "resp_1",
    "object": "response",
    "status": "completed",
    "output": [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "Paris first."}],
            "encrypted_content": "gAAAAB-opaque",
        },
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "weather",
            "arguments": '{"city":"Paris"}',
        },
    ],
    "usage": {"input_tokens": 9, "output_tokens": 5, "total_tokens": 14},
}
CHAT = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 0,
    "model": "deepseek-reasoner",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": "Paris.",
                "reasoning_content": "Paris first.",
            },
            "finish_reason": "stop",
        }
    ],
}
BODIES = {G: GEMINI, R: RESPONSES, C: CHAT}
STATE = {G: True, R: True, C: False}  # the source's reasoning carries opaque state


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("source", list(BODIES))
def test_response_reasoning_is_shown_and_its_state_reported(source: str, target: str) -> None:
    t = interlingua.translate_response(BODIES[source], source=source, target=target)
    back = decode_response(t.body, target)
    assert _view(back)["reasoning"] == "Paris first."
    lost = [loss.path for loss in t.losses if loss.feature == "reasoning_replay"]
    assert lost == (["parts[0]"] if STATE[source] and target != source else [])
    wire = str(t.body)
    assert ("c2lnQQ==" in wire) == (source == target == G)  # a thought signature: Gemini only
    assert ("gAAAAB-opaque" in wire) == (source == target == R)
    if source == G:  # the call's signature still rides in its id, for every client
        call = next(p for p in back.parts if type(p) is ToolCallPart)
        assert unwrap_id(call.id)[1] == (None if target == G else "c2lnQg==")


def test_a_thought_without_signature_survives_gemini_to_gemini() -> None:
    """A streamed thought with no signature, accumulated and sent as a Gemini response."""
    sse = (
        b"data: "
        + orjson.dumps(
            {
                "candidates": [
                    {
                        "content": {
                            "role": "model",
                            "parts": [{"text": "hmm", "thought": True}, {"text": "Hi."}],
                        },
                        "finishReason": "STOP",
                    }
                ]
            }
        )
        + b"\n\n"
    )
    resp = accumulate(decode_stream(sse, G))
    ctx = Ctx(G, G)
    body = encode_response(resp, G, ctx)
    assert body["candidates"][0]["content"]["parts"][:1] == [{"text": "hmm", "thought": True}]
    assert ctx.losses == []
