"""Regression tests of issue 11 (library side): each input that once raised something other than
a typed error, or passed as a clean answer, now fails the way the rules say."""

from __future__ import annotations

from typing import Any

import interlingua
import orjson
import pytest
from interlingua._wire import MAX_DEPTH, check_depth, check_parsed, check_writable, parse_json

A, C, R, G, K = "anthropic_messages", "openai_chat", "openai_responses", "gemini", "cohere_v2"
ALL = interlingua.available()

CALL = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}


def _anthropic_with_result(result: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": [CALL]},
            {"role": "user", "content": [result]},
        ],
    }


# ------------------------------------------------------------ tool results without content


@pytest.mark.parametrize("target", ALL)
def test_a_tool_result_without_content_translates_everywhere(target: str) -> None:
    """``content`` of an Anthropic tool_result is optional: absent, the result is empty."""
    req = _anthropic_with_result({"type": "tool_result", "tool_use_id": "toolu_1"})
    t = interlingua.translate_request(req, source=A, target=target)
    t.to_bytes()
    body = t.body
    if target in (C, K):  # a tool message must have its content
        assert body["messages"][-1] == {"role": "tool", "tool_call_id": "toolu_1", "content": ""}
    elif target == R:
        assert body["input"][-1]["output"] == ""
    elif target == G:
        fr = body["contents"][-1]["parts"][0]["functionResponse"]
        assert fr["name"] == "get_weather" and fr["id"] == "toolu_1"


def test_a_chat_tool_message_without_content_is_invalid() -> None:
    req = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1"},
        ],
    }
    for target in ALL:
        with pytest.raises(interlingua.InvalidInput) as info:
            interlingua.translate_request(req, source=C, target=target)
        assert info.value.path == "messages[2].content" and info.value.status == 400


# ------------------------------------------------------------ deep nesting


def _deep_request(levels: int) -> bytes:
    """A Chat request whose tool schema nests ``levels`` arrays deep."""
    inner = b"[" * levels + b"]" * levels
    return (
        b'{"model":"m","messages":[{"role":"user","content":"hi"}],'
        b'"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object",'
        b'"default":' + inner + b"}}}]}"
    )


@pytest.mark.parametrize("levels", [MAX_DEPTH - 6, MAX_DEPTH - 5])
def test_nesting_the_serialiser_can_write_translates(levels: int) -> None:
    """5 levels of the body sit around the arrays: 5 + levels = MAX_DEPTH is still fine, and
    every target can write it back (their envelopes add a few levels)."""
    for target in ALL:
        interlingua.translate_request(_deep_request(levels), source=C, target=target).to_bytes()


@pytest.mark.parametrize("levels", [MAX_DEPTH - 4, 255, 300, 600, 1019])
def test_deeper_nesting_is_refused_with_its_path(levels: int) -> None:
    for target in ALL:
        with pytest.raises(interlingua.InvalidInput) as info:
            interlingua.translate_request(_deep_request(levels), source=C, target=target)
        assert f"nested deeper than {MAX_DEPTH} levels" in info.value.message
        assert info.value.path.startswith("tools[0].function.parameters.default[0]")
        assert len(str(info.value)) < 200


def _nest(levels: int, leaf: bytes, kind: str) -> bytes:
    """``levels`` containers around ``leaf`` (arrays, objects, or both in turn)."""
    text = leaf
    for i in range(levels):
        obj = kind == "dict" or (kind == "mixed" and i % 2)
        text = b'{"k":' + text + b', "s": "\xc3\xa9t\xc3\xa9"}' if obj else b"[1," + text + b"]"
    return text


@pytest.mark.parametrize("kind", ["list", "dict", "mixed"])
@pytest.mark.parametrize(
    ("levels", "leaf"),
    [(MAX_DEPTH, b'"x"'), (MAX_DEPTH, b"[]"), (MAX_DEPTH, b"{}"), (MAX_DEPTH - 1, b"[[]]")]
    + [(MAX_DEPTH + 1, b"1"), (MAX_DEPTH - 1, b'{"a": []}'), (MAX_DEPTH - 2, b"[[]]")],
)
def test_the_parsed_probe_agrees_with_the_serialiser(kind: str, levels: int, leaf: bytes) -> None:
    """parse_json's probe (one level a call) refuses exactly what the serialiser's probe and the
    walk refuse: a container more than MAX_DEPTH levels down, even an empty one; a string or a
    number just below the last allowed level is fine."""
    text = _nest(levels, leaf, kind)
    value = orjson.loads(text)
    outcomes = []
    for check in (check_parsed, check_writable, check_depth, parse_json):
        try:
            check(text if check is parse_json else value)
            outcomes.append("ok")
        except interlingua.InvalidInput as e:
            outcomes.append(e.path)
    assert len(set(outcomes)) == 1, outcomes
    assert (outcomes[0] == "ok") == (text.count(b"[") + text.count(b"{") <= MAX_DEPTH)


def test_nesting_past_the_parser_limit_is_invalid_json() -> None:
    with pytest.raises(interlingua.InvalidInput, match="not valid JSON"):
        interlingua.translate_request(_deep_request(1100), source=C, target=A)


def test_a_deep_dict_or_a_lone_surrogate_given_as_a_dict_is_refused() -> None:
    deep: Any = "x"
    for _ in range(3000):  # past the interpreter's recursion limit too
        deep = {"a": deep}
    req = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "metadata": deep}
    with pytest.raises(interlingua.InvalidInput, match="nested deeper"):
        interlingua.translate_request(req, source=C, target=A)
    req = {"model": "m", "messages": [{"role": "user", "content": "a\ud800b"}]}
    with pytest.raises(interlingua.InvalidInput) as info:
        interlingua.translate_request(req, source=C, target=G)
    assert info.value.path == "messages[0].content" and "surrogate" in info.value.message


def test_a_deep_stream_event_fails_the_stream_in_band() -> None:
    deep = b"[" * 400 + b"]" * 400
    chunk = b'{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
    events = [
        b"data: " + chunk + b'"delta":{"content":"Hi"}}]}\n\n',
        b"data: " + chunk + b'"delta":{"content":"x","extra":' + deep + b"}}]}\n\n",
        b"data: [DONE]\n\n",
    ]
    for target in ALL:
        t = interlingua.StreamTranslator(C, target)
        out = b"".join(t.feed(e) for e in events) + t.close()
        assert t.decoder.ended == "failed"
        assert f"nested deeper than {MAX_DEPTH} levels".encode() in out


# ------------------------------------------------------------ error messages


def test_error_messages_quote_user_values_briefly() -> None:
    for role in ("x" * 1_000_000, {"a": [1] * 100_000}, 10**5000):
        req = {"model": "m", "messages": [{"role": role, "content": "hi"}]}
        with pytest.raises(interlingua.InvalidInput) as info:
            interlingua.translate_request(req, source=C, target=A)
        assert info.value.path == "messages[0].role"
        assert len(str(info.value)) < 500


def _nested_error(levels: int) -> bytes:
    return b'{"error":{"message":' + b'{"a":' * levels + b"1" + b"}" * levels + b"}}"


@pytest.mark.parametrize("levels", [10, 300, 1020])
@pytest.mark.parametrize("source", ALL)
def test_translate_error_never_raises_on_deep_bodies(levels: int, source: str) -> None:
    for body in (_nested_error(levels), orjson.loads(_nested_error(min(levels, 250)))):
        for target in ALL:
            status, out = interlingua.translate_error(502, body, source=source, target=target)
            assert status >= 400 and len(orjson.dumps(out)) < 3000
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    status, out = interlingua.translate_error(500, {"error": deep}, source=source, target=A)
    assert "nested deeper" in out["error"]["message"]


@pytest.mark.parametrize("body", [b"<html>" + b"x" * 2_000_000, "y" * 2_000_000])
def test_translate_error_caps_the_message(body: Any) -> None:
    for target in ALL:
        _, out = interlingua.translate_error(502, body, source=C, target=target)
        assert len(orjson.dumps(out)) < 2500


def test_translate_error_sends_valid_json_for_any_dict() -> None:
    body = {"error": {"type": "rate\ud800", "message": "m\udfff", "code": {"deep": [1]}}}
    for target in ALL:
        status, out = interlingua.translate_error(429, body, source=C, target=target)
        orjson.dumps(out)
        assert status == 429
    assert interlingua.translate_error(0, b"", source=C, target=A)[0] == 502


# ------------------------------------------------------------ streams with wrong types


def _chat_stream(*choices: Any) -> bytes:
    head = {"id": "c1", "object": "chat.completion.chunk", "model": "m", "created": 1}
    out = [b"data: " + orjson.dumps({**head, "choices": c}) + b"\n\n" for c in choices]
    return b"".join(out) + b"data: [DONE]\n\n"


WRONG_TYPED = {
    "delta is a string": _chat_stream([{"index": 0, "delta": "hello"}]),
    "choices is a number": _chat_stream(5),
    "finish_reason is an object": _chat_stream(
        [{"index": 0, "delta": {"content": "a"}, "finish_reason": {"x": 1}}]
    ),
    "text is a number": _chat_stream([{"index": 0, "delta": {"content": 5}}]),
    "tool call index is an object": _chat_stream(
        [{"index": 0, "delta": {"tool_calls": [{"index": {}, "id": "c", "function": 5}]}}]
    ),
    "anthropic usage is a string": (
        b'event: message_start\ndata: {"type":"message_start","message":{"id":"m",'
        b'"model":"c","usage":{"input_tokens":1}}}\n\n'
        b'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":'
        b'"end_turn"},"usage":{"output_tokens":"many"}}\n\n'
        b'event: message_stop\ndata: {"type":"message_stop"}\n\n'
    ),
    "anthropic text at a tool call's index": (
        b'event: message_start\ndata: {"type":"message_start","message":{"id":"m",'
        b'"model":"c","usage":{"input_tokens":1}}}\n\n'
        b'event: content_block_start\ndata: {"type":"content_block_start","index":0,'
        b'"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}\n\n'
        b'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
        b'"delta":{"type":"thinking_delta","thinking":"hm"}}\n\n'
        b'event: message_stop\ndata: {"type":"message_stop"}\n\n'
    ),
    "gemini candidates is a number": b'data: {"candidates":5}\n\n',
    "gemini parts is a string": b'data: {"candidates":[{"content":{"parts":"x"}}]}\n\n',
    "responses usage is a string": (
        b'event: response.completed\ndata: {"type":"response.completed","response":'
        b'{"id":"r","status":"completed","usage":{"input_tokens":"x"}}}\n\n'
    ),
}


@pytest.mark.parametrize("name", sorted(WRONG_TYPED))
def test_stream_decoders_never_trust_field_types(name: str) -> None:
    data = WRONG_TYPED[name]
    source = {b"event: m": A, b'data: {"cand': G, b"event: r": R}.get(data[:8], C)
    for target in ALL:
        t = interlingua.StreamTranslator(source, target)
        out = b"".join(t.feed(data[i : i + 7]) for i in range(0, len(data), 7)) + t.close()
        back = interlingua.StreamTranslator(target, target)
        back.feed(out)
        back.close()
        if t.decoder.ended == "failed":  # a typed in-band error, never an internal one
            assert b"invalid stream event" in out or b"bad_gateway" in out or b"502" in out


def test_a_usage_string_fails_the_stream_with_the_path() -> None:
    t = interlingua.StreamTranslator(A, C)
    out = t.feed(WRONG_TYPED["anthropic usage is a string"]) + t.close()
    assert t.decoder.ended == "failed"
    assert b"usage.output_tokens: expected an integer" in out


# ------------------------------------------------------------ a Chat stream cut before its usage


def test_a_chat_stream_cut_before_the_usage_asked_for_is_reported_cut() -> None:
    cut = _chat_stream(
        [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}],
        [{"index": 0, "delta": {}, "finish_reason": "stop"}],
    ).removesuffix(b"data: [DONE]\n\n")
    for target in ALL:
        t = interlingua.StreamTranslator(C, target, expect_usage=True)
        out = t.feed(cut) + t.close()
        assert t.decoder.ended == "disconnected"
        assert b"the usage is lost" in out
        plain = interlingua.StreamTranslator(C, target)  # usage not asked for: a normal end
        plain.feed(cut)
        plain.close()
        assert plain.decoder.ended == "completed"
    usage = b'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[],'
    usage += b'"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}\n\n'
    t = interlingua.StreamTranslator(C, A, expect_usage=True)  # usage came, [DONE] did not
    t.feed(cut + usage)
    t.close()
    assert t.decoder.ended == "completed"


def test_tool_arguments_nested_too_deep_are_reported_not_crashed_on() -> None:
    deep = "[" * 300 + "]" * 300
    req = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "f", "arguments": deep}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        ],
    }
    for target in (A, G):
        t = interlingua.translate_request(req, source=C, target=target)
        t.to_bytes()
        assert any("nested deeper" in loss.what for loss in t.losses)


def test_a_path_through_long_user_keys_stays_short() -> None:
    key = "k" * 100_000
    req = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "metadata": {key: "\ud800"},
    }
    with pytest.raises(interlingua.InvalidInput) as info:
        interlingua.translate_request(req, source=C, target=A)
    assert len(str(info.value)) < 300 and "surrogate" in info.value.message
