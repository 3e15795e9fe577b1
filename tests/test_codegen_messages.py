"""Flat message rows (``messages:``, codegen/messages_flat.py) on the tiny spec: the codec's
compiled message functions (decode_message, encode_message, decode_messages, encode_messages)
are executed; a row change changes the keys they read and write, a step no row asks for is not
in the code; codegen refuses rows it cannot compile with the file, the line and the row."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

# the tiny canonical model with the parts a flat message holds and the messages_flat transform
FLAT_CANONICAL = (
    CANONICAL.replace(
        "transforms: {tiny_messages: {compiled: tools}}",
        "transforms: {tiny_messages: {compiled: tools}, messages_flat: "
        "{compiled: messages, rows: [messages], "
        "flags: {tool_calls: message_field, tool_results: tool_messages}}}",
    )
    .replace(
        "{name: Role, values: [user, assistant]}", "{name: Role, values: [user, assistant, tool]}"
    )
    .replace(
        "  - {id: native_parts, title: Native parts}\n",
        "  - {id: native_parts, title: Native parts}\n  - {id: tools, title: Tools}\n"
        "  - {id: reasoning_replay, title: Reasoning}\n",
    )
    .replace(
        '      - {name: role, type: "str"}\n      - {name: parts, type: "list[Part]", factory: list}\n',
        '      - {name: role, type: "str"}\n      - {name: parts, type: "list[Part]", factory: list}\n'
        '      - {name: name, type: "str | None"}\n'
        '      - {name: ext, type: "dict[str, Any] | None"}\n'
        '      - {name: hints, type: "dict[str, Any] | None"}\n',
    )
    .replace(
        "  - name: NativePart\n",
        """  - name: ToolCallPart
    part: tool_call
    feature: tools
    fields:
      - {name: id, type: "str"}
      - {name: name, type: "str"}
      - {name: arguments, type: "str"}
      - {name: ext, type: "dict[str, Any] | None"}
  - name: ToolResultPart
    part: tool_result
    feature: tools
    fields:
      - {name: call_id, type: "str"}
      - {name: content, type: "list[Part] | None", factory: list}
      - {name: ext, type: "dict[str, Any] | None"}
      - {name: hints, type: "dict[str, Any] | None"}
  - name: ReasoningPart
    part: reasoning
    feature: reasoning_replay
    fields:
      - {name: text, type: "str", default: "''"}
      - {name: signature, type: "str | None"}
      - {name: redacted, type: "str | None"}
      - {name: owner, type: "str | None"}
  - name: RefusalPart
    part: refusal
    feature: text
    fields:
      - {name: text, type: "str"}
  - name: NativePart
""",
    )
)

MESSAGES = """\
messages:
  calls: actions
  refusal: declined
"""

FLAT_PROTOCOL = (
    PROTOCOL.replace(
        "  tool_calls: message_field\n",
        "  tool_calls: message_field\n  reasoning_fields: [thoughts]\n  plan_field: plan\n",
    )
    .replace(
        "tool_fields:\n",
        """  - part: tool_call
    feature: tools
    match: {type: function}
    fields:
      - {c: id, w: id, required: true}
      - {c: name, w: fn.name, required: true}
      - {c: arguments, w: fn.args, type: json_string_text, required: true}
  - part: tool_result
    feature: tools
    match: {role: tool}
    fields:
      - {c: call_id, w: call_id, required: true}
      - {c: content, w: content, type: parts, required: true}
"""
        + MESSAGES
        + "tool_fields:\n",
    )
    .replace(
        "  - {unified: assistant, raw: chatbot}\n",
        "  - {unified: assistant, raw: chatbot}\n  - {unified: tool, raw: tool}\n",
    )
    .replace("transforms: [tiny_messages]", "transforms: [messages_flat]")
    .replace(
        "  native_parts: {level: unsupported}\n",
        "  native_parts: {level: unsupported}\n  tools: {level: full}\n"
        "  reasoning_replay: {level: unsupported}\n",
    )
)

ASSISTANT = {
    "role": "chatbot",
    "thoughts": "think",
    "plan": "I will call f",
    "actions": [{"type": "function", "id": "c1", "fn": {"name": "f", "args": "{}"}}],
    "declined": None,
    "mood": "calm",
}


def flat_codec(tmp_path: Path, edit: tuple[str, str] | None = None) -> ModuleType:
    protocol = FLAT_PROTOCOL if edit is None else FLAT_PROTOCOL.replace(*edit)
    assert edit is None or FLAT_PROTOCOL.count(edit[0]) == 1, edit
    return generate(tmp_path, protocol, FLAT_CANONICAL)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return flat_codec(tmp_path_factory.mktemp("tiny_flat"))


def test_the_compiled_message_reads_the_rows_keys(tiny: ModuleType) -> None:
    codec, ctx = tiny, Ctx("tiny_v2", "tiny_v2")
    m = codec.decode_message(ASSISTANT, "messages[1]", ctx)
    assert m.role == "assistant"
    assert [type(p).__name__ for p in m.parts] == ["ReasoningPart", "TextPart", "ToolCallPart"]
    assert [m.parts[0].text, m.parts[1].text, m.parts[2].name] == ["think", "I will call f", "f"]
    assert m.ext == {"mood": "calm"}  # a key no row reads rides along
    assert m.hints == {
        "absent": True,
        "reasoning_field": "thoughts",
        "plan": True,
        "refusal_null": True,
    }
    # back to the same protocol: the message as it came
    assert codec.encode_message(m, "messages[1]", ctx, True) == [ASSISTANT]
    # a tool message: its one result, by the tool_result row
    tool = codec.decode_message({"role": "tool", "call_id": "c1", "content": "ok"}, "m", ctx)
    assert tool.role == "tool" and tool.parts[0].call_id == "c1"


def test_the_list_and_what_another_protocol_gets(tiny: ModuleType) -> None:
    codec, c = tiny, canonical_of(tiny)
    req = c.Request()
    with pytest.raises(InvalidInput, match="at least one message"):
        codec.decode_messages({"messages": []}, req, Ctx("tiny_v2", "tiny_v2"))
    codec.decode_messages(
        {"messages": [{"role": "user", "content": "hi"}, ASSISTANT]}, req, Ctx("tiny_v2", "x")
    )
    assert [m.role for m in req.messages] == ["user", "assistant"]
    out: dict[str, Any] = {}
    ctx = Ctx("x", "tiny_v2")  # from another protocol: no reasoning back, reported
    codec.encode_messages(req, out, ctx)
    assert out["messages"][1]["plan"] == "I will call f" and "thoughts" not in out["messages"][1]
    assert [(x.path, x.what, x.feature) for x in ctx.losses] == [
        ("messages[1].content[0]", "reasoning block dropped", "reasoning_replay"),
        ("messages[1].mood", "field 'mood' of x has no equivalent", "extensions"),
    ]


def test_the_text_rows_keys_say_when_content_goes_as_a_string(tmp_path: Path) -> None:
    """A lone plain text part from another protocol goes as a string where its block holds only
    the keys of the text part row (TEXT_BLOCK_KEYS: its match keys and its text's), whatever the
    protocol calls them."""
    row = "    match: {type: text}\n    fields:\n      - {c: text, w: text, required: true}\n"
    words = "    match: {kind: words}\n    fields:\n      - {c: text, w: body, required: true}\n"
    codec = flat_codec(tmp_path, (row, words))
    assert {"kind", "body"} == codec.TEXT_BLOCK_KEYS
    c = canonical_of(codec)
    hi = c.Message(role="user", parts=[c.TextPart(text="hi")])
    out: dict[str, Any] = {}
    codec.encode_messages(c.Request(messages=[hi]), out, Ctx("x", "tiny_v2"))
    assert out["messages"] == [{"role": "user", "content": "hi"}]
    two = c.Message(role="user", parts=[c.TextPart(text="hi"), c.TextPart(text="there")])
    codec.encode_messages(c.Request(messages=[two]), out, Ctx("x", "tiny_v2"))
    assert out["messages"][0]["content"] == [
        {"kind": "words", "body": "hi"},
        {"kind": "words", "body": "there"},
    ]


def test_a_row_change_changes_the_keys(tmp_path: Path) -> None:
    codec = flat_codec(tmp_path, ("  calls: actions\n", "  calls: tool_calls\n"))
    ctx = Ctx("tiny_v2", "tiny_v2")
    wire = {
        **{k: v for k, v in ASSISTANT.items() if k != "actions"},
        "tool_calls": ASSISTANT["actions"],
    }
    m = codec.decode_message(wire, "m", ctx)
    assert m.ext == {"mood": "calm"} and type(m.parts[-1]).__name__ == "ToolCallPart"
    assert codec.encode_message(m, "m", ctx, True) == [wire]


def test_only_the_steps_the_rows_ask_for(tiny: ModuleType, tmp_path: Path) -> None:
    src = inspect.getsource(tiny)
    assert '"thoughts"' in src and '"plan"' in src and '"declined"' in src
    assert "media" not in inspect.getsource(tiny.encode_messages)  # no media_after_results row
    bare = flat_codec(
        tmp_path,
        ("  reasoning_fields: [thoughts]\n  plan_field: plan\n", "\n"),
    )
    enc = inspect.getsource(bare.encode_message)
    assert "reasoning block dropped" not in enc and "ReasoningPart" not in enc
    assert '"plan"' not in enc
    moved = flat_codec(tmp_path / "m", ("  refusal: declined\n", "  media_after_results: user\n"))
    assert '"role": "user"' in inspect.getsource(moved.encode_messages)
    assert "declined" not in inspect.getsource(moved)


def test_a_dialect_flag_reading_a_message_key_again_is_refused(tmp_path: Path) -> None:
    """A dialect's reasoning field that is a key the base's messages rows read (its tool calls'):
    refused at the dialect's flag, as the base's own flag would be."""
    spec = write_spec(tmp_path, FLAT_CANONICAL, FLAT_PROTOCOL)
    (spec / "dialects").mkdir()
    overlay = "name: acme\nprotocol: tiny_v2\ntitle: Acme\nflags:\n  reasoning_fields: [actions]\n"
    (spec / "dialects" / "acme.yaml").write_text(overlay, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    assert str(info.value) == (
        f"{spec / 'dialects' / 'acme.yaml'}:5: flags.reasoning_fields[0] actions: "
        "message key 'actions' is read twice"
    )


def _refused(tmp_path: Path, old: str, new: str, at: str) -> str:
    assert FLAT_PROTOCOL.count(old) == 1, old
    edited = FLAT_PROTOCOL.replace(old, new)
    spec = write_spec(tmp_path, FLAT_CANONICAL, edited)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = edited[: edited.index(at)].count("\n") + 1
    msg = str(info.value)
    assert msg.startswith(f"{spec / 'protocols/tiny_v2.yaml'}:{line}: "), msg
    return msg


@pytest.mark.parametrize(
    ("old", "new", "at", "expected"),
    [
        (
            MESSAGES,
            "",
            "transforms: [messages_flat]",
            "transforms[0] messages_flat: transform messages_flat needs `messages`",
        ),
        (
            "  refusal: declined\n",
            "  refusal: plan\n",
            "  refusal: plan",
            "message key 'plan' is read twice",
        ),
        (
            "  calls: actions\n",
            "  calls: content\n",
            "  calls: content",
            "message key 'content' is read twice",
        ),
        (
            "  refusal: declined\n",
            "  media_after_results: robot\n",
            "  media_after_results",
            "'robot' is not the unified role of a roles encode row (expected one of assistant, tool, user)",
        ),
        (
            "  tool_calls: message_field\n",
            "  tool_calls: content_blocks\n",
            "transforms: [messages_flat]",
            "transform messages_flat needs flags.tool_calls: message_field (got content_blocks)",
        ),
        (
            "transforms: [messages_flat]",
            "transforms: [tiny_messages]",
            "messages:",
            "messages rows are read by the messages_flat transform alone",
        ),
    ],
)
def test_rows_it_cannot_compile_are_refused(
    tmp_path: Path, old: str, new: str, at: str, expected: str
) -> None:
    assert expected in _refused(tmp_path, old, new, at)
