"""Dialects chosen per call (spec/dialects): OpenRouter reasoning_details with their owners,
DeepSeek reasoning_content, Groq x_groq.usage, on recorded traffic of those hosts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from interlingua import (
    Ctx,
    InterlinguaError,
    StreamTranslator,
    UnknownDialect,
    encode_response,
    translate_request,
    translate_response,
    translate_stream,
)
from interlingua._protocols import dialects
from interlingua.streams import stream_decoder

from tests.conftest import need_fixtures
from tests.stream_util import accumulate_stream, load_stream, sse_payloads

A, C, R, G = "anthropic_messages", "openai_chat", "openai_responses", "gemini"
CASSETTES = Path("recorded/openai-chat/pydantic-ai-cassettes")
OPENROUTER = CASSETTES / "compatible-openrouter.ai"
CLAUDE_THINKING = (
    "test_openrouter/test_openrouter_thinking_true_emits_effort_medium/00.response.json"
)
CLAUDE_STREAM = "test_openrouter/test_openrouter_streaming_reasoning/00.response.sse"
GPT5 = "test_openrouter/test_openrouter_usage/01.response.json"  # summary + encrypted


def recorded(rel: Path | str) -> Path:
    return need_fixtures() / rel


def body(rel: Path | str) -> Any:
    return json.loads(recorded(rel).read_text())


def anthropic_events(sse: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(d) for _, d in sse_payloads(sse)]


def next_turn(content: list[dict[str, Any]]) -> dict[str, Any]:
    """An Anthropic client's next request, its assistant turn being ``content``."""
    return {
        "model": "anthropic/claude-sonnet-4.5",
        "max_tokens": 256,
        "messages": [
            {"role": "user", "content": "Reply with the single word: ok"},
            {"role": "assistant", "content": content},
            {"role": "user", "content": "and again"},
        ],
    }


def test_the_dialects_and_their_base() -> None:
    assert dialects() == {"deepseek": C, "groq": C, "openrouter": C}


def test_unknown_dialect_or_one_of_another_protocol_is_a_typed_error() -> None:
    with pytest.raises(UnknownDialect, match="unknown dialect 'openrutor' .*openrouter"):
        translate_request({"model": "m", "messages": []}, source=C, target=A, dialect="openrutor")
    with pytest.raises(UnknownDialect, match="'openrouter' is a dialect of openai_chat, not of"):
        translate_response({}, source=A, target=G, dialect="openrouter")
    with pytest.raises(UnknownDialect):
        stream_decoder(A, "openrouter")
    with pytest.raises(InterlinguaError):
        StreamTranslator(R, A, "groq")


def test_openrouter_claude_thinking_reaches_an_anthropic_client_and_goes_back() -> None:
    wire = body(OPENROUTER / CLAUDE_THINKING)
    item = wire["choices"][0]["message"]["reasoning_details"][0]
    out = translate_response(wire, source=C, target=A, dialect="openrouter")
    thinking = [b for b in out.body["content"] if b["type"] == "thinking"]
    assert thinking == [
        {"type": "thinking", "thinking": item["text"], "signature": item["signature"]}
    ]
    assert not [x for x in out.losses if x.feature == "reasoning_replay"]
    # without the dialect the signature has no home in Chat: the thinking arrives unsigned
    plain = translate_response(wire, source=C, target=A)
    assert [b.get("signature") for b in plain.body["content"] if b["type"] == "thinking"] == [""]
    # the Anthropic client sends the signed block back: OpenRouter gets it in reasoning_details
    req = translate_request(
        next_turn(out.body["content"]), source=A, target=C, dialect="openrouter"
    )
    sent = req.body["messages"][1]
    assert sent["reasoning_details"] == [
        {
            "type": "reasoning.text",
            "text": item["text"],
            "signature": item["signature"],
            "format": "anthropic-claude-v1",
            "index": 0,
        }
    ]
    assert sent["reasoning"] == item["text"] and sent["content"] == "ok"
    assert not [x for x in req.losses if x.feature == "reasoning_replay"]
    # plain Chat cannot carry it: dropped and reported
    plain_req = translate_request(next_turn(out.body["content"]), source=A, target=C)
    assert "reasoning_details" not in plain_req.body["messages"][1]
    assert [x.feature for x in plain_req.losses] == ["reasoning_replay"]


def test_openrouter_claude_thinking_stream_reaches_an_anthropic_client_and_goes_back() -> None:
    raw = recorded(OPENROUTER / CLAUDE_STREAM).read_bytes()
    sigs = [
        d["signature"]
        for line in raw.decode().splitlines()
        if line.startswith("data: {")
        for d in orjson.loads(line[6:])["choices"][0]["delta"].get("reasoning_details") or []
        if d.get("signature")
    ]
    t = StreamTranslator(C, A, "openrouter")
    sse = t.feed(raw) + t.close()
    events = anthropic_events(sse)
    deltas = [e["delta"] for e in events if e["type"] == "content_block_delta"]
    assert [d["signature"] for d in deltas if d["type"] == "signature_delta"] == sigs
    assert (
        "".join(d.get("thinking", "") for d in deltas)
        == "This is a simple arithmetic question. 2+2 equals 4."
    )
    assert [x.feature for x in t.losses] == ["usage"]  # output_reasoning: no Anthropic field
    # the Anthropic client's view of it, sent back to OpenRouter on the next request
    content = encode_response(accumulate_stream(sse, A), A, Ctx(A, A))["content"]
    req = translate_request(next_turn(content), source=A, target=C, dialect="openrouter")
    (item,) = req.body["messages"][1]["reasoning_details"]
    assert (item["signature"], item["format"]) == (sigs[0], "anthropic-claude-v1")
    # plain Chat rows do not read reasoning_details: the thinking arrives unsigned
    plain = anthropic_events(b"".join(translate_stream([raw], source=C, target=A)))
    assert not [e for e in plain if e.get("delta", {}).get("type") == "signature_delta"]


def _signed_details(items: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(d["format"], d["signature"]) for d in items if d.get("signature")]


def test_anthropic_thinking_reaches_openrouter_signed_in_streams_and_responses() -> None:
    """An Anthropic upstream's signed thinking (the recorded Claude stream, as Anthropic sends
    it) reaches an OpenRouter client with its signature in reasoning_details in a stream and in
    a response alike, and goes back only to Anthropic."""
    raw = recorded(OPENROUTER / CLAUDE_STREAM).read_bytes()
    up = StreamTranslator(C, A, "openrouter")
    anthropic_sse = up.feed(raw) + up.close()
    s = StreamTranslator(A, C, "openrouter")
    streamed = [
        d
        for _, data in sse_payloads(s.feed(anthropic_sse) + s.close())
        if data.startswith("{")
        for c in orjson.loads(data)["choices"]
        for d in c["delta"].get("reasoning_details") or []
    ]
    body = encode_response(accumulate_stream(anthropic_sse, A), A, Ctx(A, A))
    (sig,) = [b["signature"] for b in body["content"] if b["type"] == "thinking"]
    out = translate_response(body, source=A, target=C, dialect="openrouter")
    msg = out.body["choices"][0]["message"]
    signed = [("anthropic-claude-v1", sig)]
    assert _signed_details(streamed) == _signed_details(msg["reasoning_details"]) == signed
    assert msg["reasoning"] == "This is a simple arithmetic question. 2+2 equals 4."
    assert not [x for x in (*s.losses, *out.losses) if x.feature == "reasoning_replay"]
    # the OpenRouter client's next turn: the signed block back to Anthropic, not to Gemini
    turn = {
        "model": "m",
        "messages": [{"role": "user", "content": "2+2?"}, msg, {"role": "user", "content": "ok"}],
    }
    back = translate_request(turn, source=C, target=A, dialect="openrouter").body
    assert [b.get("signature") for b in back["messages"][1]["content"]] == [sig, None]
    gem = translate_request(turn, source=C, target=G, dialect="openrouter")
    assert sig not in json.dumps(gem.body)
    assert "reasoning_replay" in {x.feature for x in gem.losses}


def test_openai_responses_state_from_openrouter_goes_only_to_its_owner() -> None:
    wire = body(OPENROUTER / GPT5)
    summary, enc = wire["choices"][0]["message"]["reasoning_details"]
    out = translate_response(wire, source=C, target=R, dialect="openrouter")
    (item,) = [o for o in out.body["output"] if o["type"] == "reasoning"]
    assert (item["id"], item["encrypted_content"]) == (enc["id"], enc["data"])
    assert item["summary"][0]["text"] == summary["summary"]
    # a Codex-style client sends the item back: OpenRouter gets both items again
    req = translate_request(
        {"model": "openai/gpt-5-mini", "input": [{"role": "user", "content": "hi"}, item]},
        source=R,
        target=C,
        dialect="openrouter",
    )
    sent = req.body["messages"][1]["reasoning_details"]
    assert [(d["type"], d["format"]) for d in sent] == [
        ("reasoning.summary", "openai-responses-v1"),
        ("reasoning.encrypted", "openai-responses-v1"),
    ]
    assert (sent[0]["summary"], sent[1]["data"], sent[1]["id"]) == (
        summary["summary"],
        enc["data"],
        enc["id"],
    )
    # an Anthropic client shows the summary; the encrypted state is not its own: reported
    to_a = translate_response(wire, source=C, target=A, dialect="openrouter")
    assert [b["thinking"] for b in to_a.body["content"] if b["type"] == "thinking"] == [
        summary["summary"]
    ]
    assert [x.feature for x in to_a.losses if x.feature == "reasoning_replay"] == [
        "reasoning_replay"
    ]


def test_every_recorded_openrouter_body_and_stream_round_trips_through_the_dialect() -> None:
    root = recorded(OPENROUTER)
    n = 0
    for path in sorted(root.rglob("*.response.json")):
        wire = json.loads(path.read_text())
        if "choices" not in wire:
            continue  # error bodies
        same = translate_response(wire, source=C, target=C, dialect="openrouter")
        assert same.body["choices"][0]["message"] == wire["choices"][0]["message"], path
        translate_response(wire, source=C, target=A, dialect="openrouter")
        n += 1
    for path in sorted(root.rglob("*.response.sse")):
        for target in (A, R, G, C):
            b"".join(
                translate_stream([path.read_bytes()], source=C, target=target, dialect="openrouter")
            )
        n += 1
    assert n >= 40


def test_deepseek_reasoning_content_both_ways() -> None:
    folder = CASSETTES / "compatible-api.deepseek.com/test_deepseek"
    wire = body(folder / "test_deepseek_model_thinking_part/00.response.json")
    text = wire["choices"][0]["message"]["reasoning_content"]
    out = translate_response(wire, source=C, target=A, dialect="deepseek")
    assert [b["thinking"] for b in out.body["content"] if b["type"] == "thinking"] == [text]
    # thinking with tool calls wants the turn's reasoning back: sent whatever the client spoke
    req = translate_request(next_turn(out.body["content"]), source=A, target=C, dialect="deepseek")
    assert req.body["messages"][1]["reasoning_content"] == text
    assert (
        "reasoning_content"
        not in translate_request(next_turn(out.body["content"]), source=A, target=C).body[
            "messages"
        ][1]
    )
    sse = load_stream(recorded(folder / "test_deepseek_model_thinking_stream/00.response.sse"), C)
    streamed = accumulate_stream(
        b"".join(translate_stream([sse], source=C, target=A, dialect="deepseek")), A
    )
    assert streamed.parts[0].text and type(streamed.parts[0]).__name__ == "ReasoningPart"
    vercel = load_stream(
        recorded(
            "recorded/openai-chat/vercel-ai/compatible/deepseek/deepseek-reasoning.chunks.txt"
        ),
        C,
    )
    got = accumulate_stream(
        b"".join(translate_stream([vercel], source=C, target=A, dialect="deepseek")), A
    )
    assert [type(p).__name__ for p in got.parts][:2] == ["ReasoningPart", "TextPart"]


def test_groq_usage_in_x_groq_is_read_only_with_the_dialect() -> None:
    sse = load_stream(
        recorded("recorded/openai-chat/vercel-ai/compatible/groq/groq-reasoning.chunks.txt"), C
    )
    with_dialect = accumulate_stream(
        b"".join(translate_stream([sse], source=C, target=A, dialect="groq")), A
    )
    assert with_dialect.usage is not None and with_dialect.usage.output_total == 1107
    assert with_dialect.parts[0].text.startswith("Okay")
    base = {"id": "chatcmpl-g", "object": "chat.completion.chunk", "created": 1, "model": "llama"}
    chunks = [
        {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]},
        {
            **base,
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            "x_groq": {
                "id": "r",
                "usage": {"prompt_tokens": 45, "completion_tokens": 7, "total_tokens": 52},
            },
        },
    ]
    data = b"".join(b"data: " + orjson.dumps(c) + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
    groq = accumulate_stream(
        b"".join(translate_stream([data], source=C, target=A, dialect="groq")), A
    )
    assert groq.usage is not None and (groq.usage.input_total, groq.usage.output_total) == (45, 7)
    plain = accumulate_stream(b"".join(translate_stream([data], source=C, target=A)), A)
    assert plain.usage is None or plain.usage.output_total == 0


def test_groq_recorded_in_band_error_reaches_an_anthropic_client_typed() -> None:
    folder = CASSETTES / "compatible-api.groq.com/test_groq/test_tool_use_failed_error_streaming"
    raw = recorded(folder / "00.response.sse").read_bytes()
    events = anthropic_events(b"".join(translate_stream([raw], source=C, target=A, dialect="groq")))
    thinking = "".join(
        e["delta"].get("thinking", "") for e in events if e["type"] == "content_block_delta"
    )
    assert thinking.startswith("We need")  # gpt-oss reasoning in `reasoning` (channel analysis)
    assert events[-1]["type"] == "error"
    assert events[-1]["error"]["type"] == "invalid_request_error"
    assert "Tool call validation failed" in events[-1]["error"]["message"]
