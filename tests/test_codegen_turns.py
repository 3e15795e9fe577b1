"""flags.turns (codegen/spec_turns.py): the rows codegen checks against the protocol's other
rows, with file and line, and the generated flags the shared layout helpers
(runtime/transforms/turns.py) run on, on the tiny inline spec."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx
from interlingua.generated.canonical import (
    Message,
    Request,
    TextPart,
    ToolResultPart,
)
from interlingua.transforms._util import role_of
from interlingua.transforms.messages_blocks import MESSAGES_BLOCKS
from interlingua.transforms.turns import Joiner, user_turn

from tests.test_codegen_checks import refused
from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import PROTOCOL

FLAGS = "  tool_results: tool_messages\n"
BLOCKS = "  tool_results: user_turn_blocks\n"


def turns(rows: str, tool_results: str = BLOCKS) -> str:
    return PROTOCOL.replace(FLAGS, tool_results + "  turns:\n" + rows)


def test_role_default_must_be_a_raw_role(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, FLAGS, FLAGS + "  turns: {role_default: model}\n", at="  turns:")
    assert msg == (
        f"{at} flags.turns.role_default: 'model' is not the raw value of a roles decode row "
        "(expected one of chatbot, user)"
    )


@pytest.mark.parametrize(
    "row",
    [
        "results_order: first",
        "key: turns",
        "parts_key: blocks",
        "system_key: preamble",
        "one_object: true",
    ],
)
def test_turn_walk_rows_only_for_results_in_user_turns(tmp_path: Path, row: str) -> None:
    """The rows the user-turn walk reads (runtime/transforms/turns.py) say nothing to a
    protocol whose tool results are messages of their own: refused, not ignored."""
    msg, at = refused(tmp_path, FLAGS, FLAGS + f"  turns: {{{row}}}\n", at="  turns:")
    assert msg == (
        f"{at} flags.turns.{row.split(':')[0]}: only for tool results in user turns "
        "(flags.tool_results is tool_messages)"
    )


def test_result_wrap_keys_are_distinct(tmp_path: Path) -> None:
    new = BLOCKS + "  turns: {result_wrap: {text: output, error: error, read: [output]}}\n"
    msg, at = refused(tmp_path, FLAGS, new, at="  turns:")
    assert msg == f"{at} flags.turns.result_wrap: key 'output' named twice"


def test_results_in_user_turns_need_a_part_row_or_a_wrap(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, FLAGS, BLOCKS)
    assert msg == (
        f"{at} flags.tool_results: user_turn_blocks with no tool_result part row needs "
        "flags.turns.result_wrap (how a result's text is wrapped)"
    )


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    rows = (
        "    role_default: user\n"
        "    results_order: first\n"
        "    result_wrap: {text: output, error: error, read: [result]}\n"
    )
    return generate(tmp_path_factory.mktemp("turns"), turns(rows))


def test_generated_turns_flags(first: ModuleType) -> None:
    t = first.FLAGS.turns
    assert (t.role_default, t.results_order, t.snake_case) == ("user", "first", False)
    assert (t.result_wrap.text, t.result_wrap.error, t.result_wrap.read) == (
        "output",
        "error",
        ("result",),
    )


def test_role_default_reads_a_turn_without_role(first: ModuleType, tmp_path: Path) -> None:
    roles, default = first.ROLE_DECODE, first.FLAGS.turns.role_default
    assert role_of({"parts": []}, "turns[0]", roles, default) == "user"
    assert role_of({"role": "chatbot"}, "turns[1]", roles, default) == "assistant"
    plain = generate(tmp_path, turns("    result_wrap: {text: output, error: error}\n"))
    with pytest.raises(InvalidInput, match="unknown role") as info:
        role_of({"parts": []}, "turns[0]", plain.ROLE_DECODE, plain.FLAGS.turns.role_default)
    assert info.value.path == "turns[0].role"


def test_results_order_places_results_and_joins_them_back(
    first: ModuleType, tmp_path: Path
) -> None:
    q, r = TextPart(text="q"), ToolResultPart(call_id="c1", content=[TextPart(text="ok")])
    msgs = user_turn([q, r], first, None, {"x": 1})
    assert [(m.role, m.ext) for m in msgs] == [("tool", None), ("user", {"x": 1})]
    in_place = generate(tmp_path, turns("    result_wrap: {text: output, error: error}\n"))
    msgs = user_turn([q, r], in_place, None, {"x": 1})
    assert [(m.role, m.ext) for m in msgs] == [("user", {"x": 1}), ("tool", None)]
    # back to the wire: a tool message joins a user turn only where results may sit anywhere
    for codec, joined in ((first, False), (in_place, True)):
        j = Joiner(codec)
        user, tool = Message(role="user", parts=[q]), Message(role="tool", parts=[r])
        j.open({"n": 1}, user)
        assert (j.join(tool, None) is not None) is joined
        assert j.join(tool, True) is None  # the source says: a new turn


WALK_ROWS = (
    "    result_wrap: {text: output, error: error}\n"
    "    key: turns\n"
    "    parts_key: blocks\n"
    "    system_key: preamble\n"
    "    one_object: true\n"
)


def test_the_walk_reads_and_writes_turns_by_the_rows(tmp_path: Path) -> None:
    """The generated flags.turns drive the shared walk on the tiny codec: the list, parts and
    system keys, one turn object given for the list, a later system message hoisted (reported
    with the row's key) where the protocol's turns hold no system role."""
    codec = generate(
        tmp_path,
        turns(WALK_ROWS).replace(
            "system_messages_in_turns: true", "system_messages_in_turns: false"
        ),
    )
    blocks = [{"type": "text", "text": "hi"}]
    wire = {
        "preamble": [{"type": "text", "text": "Be brief"}],
        "turns": {"role": "user", "blocks": blocks},
    }
    req, ctx = Request(), Ctx("tiny_v2", "tiny_v2")
    MESSAGES_BLOCKS.decode_request(wire, req, codec, ctx)
    assert [(m.role, m.hints) for m in req.messages] == [
        ("system", None),
        ("user", None),
    ]
    assert req.hints == {"one_object": True}
    out: dict[str, Any] = {}
    MESSAGES_BLOCKS.encode_request(req, out, codec, ctx)
    assert out == wire and ctx.losses == []
    # from another protocol: a list of turns; a system message after the first turn is hoisted
    text = canonical_of(codec).TextPart  # the tiny codec's own part types
    req.messages = [
        Message(role=role, parts=[text(text=t)])
        for role, t in (("system", "Be brief"), ("user", "hi"), ("system", "Be kind"))
    ]
    out, ctx = {}, Ctx("openai_chat", "tiny_v2")
    MESSAGES_BLOCKS.encode_request(req, out, codec, ctx)
    assert out == {
        "preamble": [{"type": "text", "text": "Be brief"}, {"type": "text", "text": "Be kind"}],
        "turns": [{"role": "user", "blocks": [{"type": "text", "text": "hi"}]}],
    }
    assert [(x.path, x.what) for x in ctx.losses] == [
        ("messages[2]", "system message hoisted into preamble")
    ]
    with pytest.raises(InvalidInput, match="missing required field") as info:
        MESSAGES_BLOCKS.decode_request({"messages": []}, Request(), codec, ctx)
    assert info.value.path == "turns"
