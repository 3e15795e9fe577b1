"""Envelopes and rules as rows: the response envelope (message_response), the tool_choice rule
(absent auto, no named form, no parallel switch, one strict switch) and error bodies without a
type path. Each rule is one helper driven by spec rows; these tests run it through every
protocol that has the row."""

from __future__ import annotations

import interlingua
import pytest
from interlingua._losses import Ctx
from interlingua.generated.canonical import Request, Tool, ToolChoice

CHAT_RESPONSE = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 7,
    "model": "m",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Hi", "annotations": [{"url": "u"}]},
            "finish_reason": "stop",
            "logprobs": None,
        }
    ],
    "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4},
}


def test_chat_envelope_is_read_from_rows_and_written_back_exactly() -> None:
    t = interlingua.translate_response(CHAT_RESPONSE, source="openai_chat", target="openai_chat")
    assert t.body == CHAT_RESPONSE and not t.losses


def test_unknown_message_fields_are_reported_toward_other_protocols() -> None:
    t = interlingua.translate_response(
        CHAT_RESPONSE, source="openai_chat", target="anthropic_messages"
    )
    assert [(x.path, x.feature) for x in t.losses] == [
        ("choices[0].message.annotations", "extensions")
    ]
    assert t.body["content"] == [{"type": "text", "text": "Hi"}]


def _req(**kw: object) -> Request:
    return Request(
        model="m",
        tools=[Tool(name="get_weather", parameters={"type": "object"})],
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("target", ["openai_chat", "openai_responses", "gemini"])
def test_parallel_false_without_a_switch_is_reported_only_where_there_is_none(
    target: str,
) -> None:
    ctx = Ctx("anthropic_messages", target)
    out = interlingua.encode_request(_req(parallel_tool_calls=False), target, ctx)
    reported = [x for x in ctx.losses if x.feature == "parallel_tool_calls"]
    if target == "gemini":
        assert reported and "no switch for parallel tool calls" in reported[0].why
        assert "parallel_tool_calls" not in out
    else:
        assert not reported and out["parallel_tool_calls"] is False


def test_named_choice_keeps_its_name_where_the_protocol_has_a_named_form() -> None:
    ctx = Ctx("anthropic_messages", "openai_chat")
    out = interlingua.encode_request(
        _req(tool_choice=ToolChoice(mode="tool", name="get_weather")), "openai_chat", ctx
    )
    assert out["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}
    assert not ctx.losses


# a mode's other spelling (a decode-only tool_choice row), bare (Mistral's Chat "any") or inside
# an object (Gemini VALIDATED): one rule for both
CHAT_TURN = {"messages": [{"role": "user", "content": "Weather?"}]}
GEMINI_TURN = {"contents": [{"role": "user", "parts": [{"text": "Weather?"}]}]}
SPELLINGS = [
    ("openai_chat", {**CHAT_TURN, "tool_choice": "any"}, "tool_choice", "any", "required"),
    (
        "gemini",
        {**GEMINI_TURN, "toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}}},
        "toolConfig.functionCallingConfig.mode",
        "VALIDATED",
        "auto",
    ),
]


@pytest.mark.parametrize(("source", "body", "path", "raw", "mode"), SPELLINGS)
@pytest.mark.parametrize("target", ["anthropic_messages", "openai_responses", "cohere_v2"])
def test_another_spelling_of_a_mode_is_reported_bare_or_in_an_object(
    source: str, body: dict[str, object], path: str, raw: str, mode: str, target: str
) -> None:
    t = interlingua.translate_request({"model": "m", **body}, source=source, target=target)
    assert [(x.path, x.what) for x in t.losses if x.feature == "tool_choice"] == [
        (path, f"mode {raw!r} sent as {mode!r}")
    ]
    same = interlingua.translate_request(body, source=source, target=source)
    assert same.body == body and not same.losses  # the spelling goes back as it came


def test_one_dig_for_part_rows_and_settings_rows() -> None:
    """``_codec_support.dig``, the one reader of a dotted wire path (the compiled part rows pass
    the part's path, the settings rows read from the body's root): absent objects on the way
    read as None; a non-object is refused at its own path, never one starting with a dot."""
    from interlingua._codec_support import dig

    body = {"generationConfig": {"thinkingConfig": {"thinkingBudget": 512}}, "meta": "x"}
    assert dig(body, ("generationConfig", "thinkingConfig", "thinkingBudget")) == 512
    assert dig(body, ["generationConfig", "responseSchema", "type"]) is None
    with pytest.raises(interlingua.InvalidInput) as info:
        dig(body, ["meta", "billed_units"])
    assert info.value.path == "meta"
    with pytest.raises(interlingua.InvalidInput) as info:
        dig(body, ["meta", "billed_units"], "contents[0].parts[1]")
    assert info.value.path == "contents[0].parts[1].meta"


_FORMAT_OTHER_KEYS = [
    (
        "openai_chat",
        {
            "response_format": {
                "type": "json_schema",
                "extra_top": 2,
                "json_schema": {"name": "x", "schema": {"type": "object"}, "extra_thing": 1},
            }
        },
        ["response_format.extra_top", "response_format.json_schema.extra_thing"],
    ),
    (
        "anthropic_messages",
        {
            "max_tokens": 10,
            "output_config": {"format": {"type": "json_schema", "schema": {}, "x": 1}},
        },
        ["output_config.format.x"],
    ),
    (
        "cohere_v2",
        {"response_format": {"type": "json_object", "json_schema": {}, "y": 3}},
        ["response_format.y"],
    ),
]


@pytest.mark.parametrize(("pid", "extra", "paths"), _FORMAT_OTHER_KEYS)
def test_other_keys_of_a_format_object_go_back_or_are_reported(
    pid: str, extra: dict, paths: list[str]
) -> None:
    """response_format rows ``keep``: a format object's keys no row reads go back as they came
    to the same protocol, and are reported one by one (in the words of every other key with no
    canonical home) toward another; before, they vanished on both ways."""
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], **extra}
    same = interlingua.translate_request(body, source=pid, target=pid)
    assert same.losses == [] and {k: same.body[k] for k in extra} == extra
    other = interlingua.translate_request(body, source=pid, target="gemini")
    lost = {x.path: x for x in other.losses if x.feature == "structured_output"}
    assert paths == [p for p in lost if p in paths] and set(paths) <= lost.keys()
    for p in paths:
        assert lost[p].what == f"field {p.rsplit('.', 1)[1]!r} of {pid} has no equivalent"
