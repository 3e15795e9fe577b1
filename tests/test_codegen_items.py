"""Item-list rows (``items:``, codegen/items.py) on the tiny spec: the codec's compiled item
functions (decode_item, decode_message, encode_message, encode_item) are executed, alone and
through the responses_items transform's item list (a row change changes what they decode and
write), and codegen refuses item rows it cannot compile with the file, the line and the key."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import ModuleType

import pytest
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx
from interlingua.transforms.responses_item_list import decode_items

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

# the tiny canonical model with a tool call part (its item type comes from its part row)
ITEM_CANONICAL = CANONICAL.replace(
    "  - {id: native_parts, title: Native parts}\n",
    "  - {id: native_parts, title: Native parts}\n  - {id: tool_call, title: Tool calls}\n",
).replace(
    "  - name: NativePart\n",
    """  - name: ToolCallPart
    part: tool_call
    feature: tool_call
    fields:
      - {name: id, type: "str"}
      - {name: name, type: "str"}
      - {name: arguments, type: "str"}
      - {name: ext, type: "dict[str, Any] | None"}
      - {name: hints, type: "dict[str, Any] | None"}
  - name: NativePart
""",
)

ITEMS = """\
items:
  message: message
  hints: {message: [type, id, status], tool_call: [id, status]}
  new: {output: {tool_call: {status: completed}}}
  text_types: {assistant: output_text, other: input_text}
  text_lists: {annotations: always}
  reasoning_text: [summary]
  summary_type: summary_text
"""

ITEM_PROTOCOL = (
    PROTOCOL.replace(
        "  tool_results: tool_messages\n  tool_calls: message_field\n",
        "  tool_results: items\n  tool_calls: items\n",
    )
    .replace(
        "parts:\n",
        """parts:
  - part: tool_call
    feature: tool_call
    match: {type: function_call}
    fields:
      - {c: id, w: call_id, required: true}
      - {c: name, w: name, required: true}
      - {c: arguments, w: arguments, type: json_string_text, required: true}
""",
    )
    .replace(
        "tool_fields:\n",
        """  - part: text
    feature: text
    match: {type: output_text}
    decode_only: true
    fields:
      - {c: text, w: text, required: true}
"""
        + ITEMS
        + "tool_fields:\n",
    )
    .replace("    match: {type: text}\n", "    match: {type: input_text}\n")
    .replace(
        "  native_parts: {level: unsupported}\n",
        "  native_parts: {level: unsupported}\n  tool_call: {level: full}\n",
    )
)

ASSISTANT = [
    {
        "type": "message",
        "id": "m1",
        "role": "chatbot",
        "content": [{"type": "output_text", "text": "hi", "annotations": []}],
    },
    {
        "type": "function_call",
        "id": "fc_1",
        "status": "done",
        "call_id": "c1",
        "name": "f",
        "arguments": "{}",
    },
    {"type": "web_search_call", "id": "ws_1"},
]


def items_codec(tmp_path: Path, edit: tuple[str, str] | None = None) -> ModuleType:
    protocol = ITEM_PROTOCOL if edit is None else ITEM_PROTOCOL.replace(*edit)
    return generate(tmp_path, protocol, ITEM_CANONICAL)


def test_the_compiled_item_kinds(tmp_path: Path) -> None:
    codec = items_codec(tmp_path)
    ctx = Ctx("tiny_v2", "tiny_v2")
    assert codec.ITEM_ID_PREFIXES == {}  # the item id prefixes of the stream's encode rows (none)
    assert codec.STATE_KEYS == ()  # no items.state row
    assert codec.decode_item({"type": "message"}, "input[0]", ctx) == ("message", None)
    assert codec.decode_item({"role": "user"}, "input[0]", ctx) == ("message", None)  # untyped
    kind, call = codec.decode_item(ASSISTANT[1], "input[1]", ctx)  # the call row's type
    assert (
        kind == "tool_call"
        and call.id == "c1"
        and call.hints == {"item": {"id": "fc_1", "status": "done"}}
    )
    kind, native = codec.decode_item(ASSISTANT[2], "input[2]", ctx)
    assert kind == "native" and native.type == "web_search_call"  # kept whole
    assert native.data is ASSISTANT[2] and native.owner == "tiny_v2"

    with pytest.raises(InvalidInput) as info:
        codec.decode_item({"type": 7}, "input[3]", ctx)
    assert info.value.path == "input[3].type"
    # the rows' keys are literals of the compiled functions: no row is read at run time
    source = inspect.getsource(codec.decode_item) + inspect.getsource(codec.encode_item)
    assert '"function_call"' in source and '("id", "status")' in source and "ITEM_ID" not in source


def test_the_generated_rows_drive_the_item_list(tmp_path: Path) -> None:
    codec = items_codec(tmp_path)
    ctx = Ctx("tiny_v2", "tiny_v2")
    [m] = decode_items(ASSISTANT, "input", codec, ctx)
    text, call, native = m.parts
    # (the parts are the tiny canonical model's classes)
    assert m.role == "assistant" and type(text).__name__ == "TextPart" and text.text == "hi"
    assert type(call).__name__ == "ToolCallPart" and call.id == "c1"
    assert call.hints == {"item": {"id": "fc_1", "status": "done"}}  # hints, not ext
    assert call.ext is None
    assert type(native).__name__ == "NativePart" and native.owner == "tiny_v2"
    # written back (the tiny model's part classes are not the runtime's, so item by item):
    # the same protocol gets the text type, the lists and the item bookkeeping back
    desc = m.hints["items"][0]
    assert codec.encode_message("assistant", [text], desc, "output[0]", ctx, False) == {
        "type": "message", "id": "m1", "role": "chatbot",
        "content": [{"type": "output_text", "text": "hi", "annotations": []}],
    }  # fmt: skip
    assert codec.encode_item(call, "output[1]", ctx, True) == ASSISTANT[1]
    # another protocol's response: the role's text type with its lists, a new item's status
    other = Ctx("elsewhere", "tiny_v2")
    assert codec.encode_message("assistant", [text], None, "output[0]", other, True) == {
        "type": "message", "role": "chatbot",  # no `new` row for a message: no status
        "content": [{"type": "output_text", "text": "hi", "annotations": []}],
    }  # fmt: skip
    call.hints = None
    assert codec.encode_item(call, "output[1]", other, True)["status"] == "completed"
    assert "status" not in codec.encode_item(call, "input[1]", other, False)
    assert "status" not in codec.encode_item(call, "output[1]", other, None)  # restored exactly
    # the kinds written as items of their own are the rows' (no reasoning row here); a part
    # edited since decoding into a group of them is written as a message item
    assert sorted(codec.ITEM_PARTS) == ["native", "tool_call"]
    assert codec.encode_item(text, "output[0]", ctx, None) == {
        "type": "message", "role": "chatbot", "content": [{"type": "output_text", "text": "hi", "annotations": []}],
    }  # fmt: skip
    # a user's plain text goes to another protocol's request as a string
    user = codec.encode_message("user", [text], None, "input[0]", other, False)
    assert user == {"role": "user", "content": "hi"}


def test_the_hints_and_new_rows_say_what_is_kept_and_filled_in(tmp_path: Path) -> None:
    codec = generate(
        tmp_path,
        ITEM_PROTOCOL.replace("tool_call: [id, status]}", "tool_call: [id]}").replace(
            "new: {output: {tool_call: {status: completed}}}", "new: {input: {tool_call: {x: 1}}}"
        ),
        ITEM_CANONICAL,
    )
    ctx = Ctx("tiny_v2", "tiny_v2")
    [m] = decode_items(ASSISTANT[:2], "input", codec, ctx)
    assert m.hints["items"][0]["item"] == {"type": "message", "id": "m1"}
    # a key the row does not keep rides in ext (reported elsewhere); the kept ones in hints
    call = m.parts[1]
    assert call.hints == {"item": {"id": "fc_1"}} and call.ext == {"status": "done"}
    assert codec.encode_item(call, "output[1]", ctx, True) == ASSISTANT[1]
    call.hints = call.ext = None
    other = Ctx("elsewhere", "tiny_v2")
    assert codec.encode_item(call, "input[1]", other, False)["x"] == 1  # a new input item
    assert "status" not in codec.encode_item(call, "output[1]", other, True)


def test_an_output_list_row_is_written_on_new_output_only(tmp_path: Path) -> None:
    codec = items_codec(
        tmp_path, ("  text_lists: {annotations: always}", "  text_lists: {logprobs: output}")
    )
    ctx, other = Ctx("tiny_v2", "tiny_v2"), Ctx("elsewhere", "tiny_v2")
    item = {"type": "message", "role": "chatbot", "content": [{"type": "output_text", "text": "hi", "logprobs": []}]}  # fmt: skip
    parts, desc, ext = codec.decode_message(item, "assistant", "output[0]", ctx)
    assert desc["lists"] == {"logprobs": [0]} and parts[0].ext is None and ext is None
    assert codec.encode_message("assistant", parts, desc, "output[0]", ctx, True) == item
    new = codec.encode_message("assistant", parts, None, "output[0]", other, True)
    assert new["content"] == [{"type": "output_text", "text": "hi", "logprobs": []}]
    req = codec.encode_message("assistant", parts, None, "input[0]", other, False)
    assert req["content"] == [{"type": "output_text", "text": "hi"}]  # a request's: none


def test_a_row_change_changes_the_item_list(tmp_path: Path) -> None:
    codec = items_codec(tmp_path, ("  message: message\n", "  message: turn\n"))
    ctx = Ctx("tiny_v2", "tiny_v2")
    turn = {"type": "turn", "role": "user", "content": "hello"}
    [user, assistant] = decode_items([turn, ASSISTANT[0]], "input", codec, ctx)
    assert user.role == "user" and [p.text for p in user.parts] == ["hello"]  # a string
    # a `message` item is now an item type with no row: kept whole for this protocol
    assert [type(p).__name__ for p in assistant.parts] == ["NativePart"]


def refused(tmp_path: Path, old: str, new: str) -> tuple[str, str]:
    assert ITEM_PROTOCOL.count(old) == 1, old
    edited = ITEM_PROTOCOL.replace(old, new)
    spec = write_spec(tmp_path, ITEM_CANONICAL, edited)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = edited[: edited.index(new.strip())].count("\n") + 1
    return str(info.value), f"{spec / 'protocols/tiny_v2.yaml'}:{line}:"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "  text_types: {assistant: output_text, other: input_text}",
            "  text_types: {assistant: output_txt, other: input_text}",
            "items.text_types.assistant: 'output_txt' is not a text part row's type (expected "
            "one of input_text, output_text)",
        ),
        (
            "  text_types: {assistant: output_text, other: input_text}",
            "  text_types: {assistant: output_text, other: output_text}",
            "items.text_types.other: 'output_text' is not the type a text row encodes "
            "(expected one of input_text)",
        ),
        (
            "  text_types: {assistant: output_text, other: input_text}",
            "  text_types: {assistant: output_text}",
            "items.text_types: needs `other` (the type of every other role)",
        ),
        (
            "  text_types: {assistant: output_text, other: input_text}",
            "  text_types: {model: output_text, other: input_text}",
            "items.text_types.model: 'model' is not a Role (expected one of assistant, user)",
        ),
        (
            "  message: message\n",
            "  message: function_call\n",
            "items.message: 'function_call' is a part row's type, not a message's",
        ),
        (
            "  hints: {message: [type, id, status], tool_call: [id, status]}\n",
            "  hints: {message: [type, id, status], tool_call: [id, id]}\n",
            "items.hints.tool_call: 'id' is named twice",
        ),
        (
            "  hints: {message: [type, id, status], tool_call: [id, status]}\n",
            "  hints: {message: [type, id, status], tool_call: [call_id, status]}\n",
            "items.hints.tool_call: 'call_id' is read by the tool_call row (content, not "
            "bookkeeping)",
        ),
        (
            "  hints: {message: [type, id, status], tool_call: [id, status]}\n",
            "  hints: {message: [role, id, status], tool_call: [id, status]}\n",
            "items.hints.message: 'role' is read by the message row (content, not bookkeeping)",
        ),
        (
            "  hints: {message: [type, id, status], tool_call: [id, status]}\n",
            "  hints: {message: [type, id, status], tool_result: [id, status]}\n",
            "items.hints.tool_result: no `tool_result` part row: there is no such item",
        ),
        (
            "  new: {output: {tool_call: {status: completed}}}\n",
            "  new: {output: {reasoning: {status: completed}}}\n",
            "items.new.output.reasoning: no `reasoning` part row: there is no such item",
        ),
        (
            "  new: {output: {tool_call: {status: completed}}}\n",
            "  new: {outputs: {tool_call: {status: completed}}}\n",
            "items.new.outputs",
        ),
        (
            "  hints: {message: [type, id, status], tool_call: [id, status]}\n",
            "  hints: {message: [type, id, status], call: [id, status]}\n",
            "items.hints.call",
        ),
        (
            "  summary_type: summary_text\n",
            "  summary_type: summary_text\n  file_url: {type: input_file, data: file_data, url: file_url}\n",
            "items.file_url: no `file` part row of type 'input_file' has a data_url field "
            "'file_data'",
        ),
        (
            "  tool_results: items\n",
            "  tool_results: tool_messages\n",
            "items: item rows need flags tool_calls: items and tool_results: items",
        ),
        (
            "  hints: {message: [type, id, status], tool_call: [id, status]}\n",
            "  hints: {message: [type, id, status], tool_call: [id, meta.status]}\n",
            "items.hints.tool_call: 'meta.status' is a path, not a key of the item",
        ),
        (
            "    match: {type: function_call}\n",
            "    match: {kind: function_call}\n",
            "a tool_call item needs a `type` match (items)",
        ),
        (
            "  summary_type: summary_text\n",
            "  summary_type: summary_text\n  state: [previous_id, model]\n",
            "items.state: 'model' is read by a request row: a state key is a top-level key of "
            "its own",
        ),
        (
            "  summary_type: summary_text\n",
            "  summary_type: summary_text\n  state: [session.id]\n",
            "items.state: 'session.id' is a path: a state key is a top-level key of its own",
        ),
    ],
)
def test_bad_item_rows_are_refused(tmp_path: Path, old: str, new: str, expected: str) -> None:
    msg, at = refused(tmp_path, old, new)
    assert expected in msg
    assert msg.startswith(f"{at[: at.rindex(':', 0, -1)]}:")


def test_the_items_transform_needs_item_rows(tmp_path: Path) -> None:
    canonical = CANONICAL.replace(
        "transforms: {tiny_messages: {compiled: tools}}",
        "transforms: {tiny_messages: {compiled: tools}, "
        "responses_items: {object: responses_input.RESPONSES_ITEMS, rows: [items]}}",
    )
    protocol = PROTOCOL.replace(
        "transforms: [tiny_messages]", "transforms: [tiny_messages, responses_items]"
    )
    spec = write_spec(tmp_path, canonical, protocol)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = protocol[: protocol.index("transforms: [tiny_messages, responses")].count("\n") + 1
    assert str(info.value) == (
        f"{spec / 'protocols/tiny_v2.yaml'}:{line}: transforms[1] responses_items: transform "
        "responses_items needs `items`"
    )


def test_item_rows_need_the_items_transform(tmp_path: Path) -> None:
    """The mirror of the test above: item rows no named transform reads are refused at `items`."""
    old = "transforms: {tiny_messages: {compiled: tools}}"
    assert ITEM_CANONICAL.count(old) == 1
    canonical = ITEM_CANONICAL.replace(
        old,
        old[:-1] + ", responses_items: {object: responses_input.RESPONSES_ITEMS, rows: [items]}}",
    )
    spec = write_spec(tmp_path, canonical, ITEM_PROTOCOL)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = ITEM_PROTOCOL[: ITEM_PROTOCOL.index("\nitems:")].count("\n") + 2
    assert str(info.value) == (
        f"{spec / 'protocols/tiny_v2.yaml'}:{line}: items: items rows are read by the "
        "responses_items transform alone"
    )
    named = ITEM_PROTOCOL.replace(
        "transforms: [tiny_messages]", "transforms: [tiny_messages, responses_items]"
    )
    load_spec(write_spec(tmp_path, canonical, named))


def test_hints_need_a_part_that_holds_them(tmp_path: Path) -> None:
    old = '      - {name: hints, type: "dict[str, Any] | None"}\n  - name: NativePart\n'
    assert ITEM_CANONICAL.count(old) == 1
    spec = write_spec(
        tmp_path, ITEM_CANONICAL.replace(old, "  - name: NativePart\n"), ITEM_PROTOCOL
    )
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = ITEM_PROTOCOL[: ITEM_PROTOCOL.index("  hints: {")].count("\n") + 1
    assert str(info.value) == (
        f"{spec / 'protocols/tiny_v2.yaml'}:{line}: items.hints.tool_call: the canonical "
        "tool_call part has no `hints` field"
    )


def test_the_state_row_names_keys_the_rows_read(tmp_path: Path) -> None:
    """``items.state``: request keys naming state stored by the server (responses_input refuses
    them toward another protocol): a codec table, and keys the rows read (not ext)."""
    codec = items_codec(
        tmp_path,
        ("  summary_type: summary_text\n", "  summary_type: summary_text\n  state: [thread]\n"),
    )
    assert codec.STATE_KEYS == ("thread",) and "thread" in codec.REQUEST_ROW_KEYS
