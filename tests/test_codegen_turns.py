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
    ToolChoice,
    ToolResultPart,
)
from interlingua.transforms._util import role_of
from interlingua.transforms.tool_choice import decode_tool_choice, encode_tool_choice
from interlingua.transforms.turns import Joiner, user_turn

from tests.test_codegen_checks import refused
from tests.test_codegen_generate import generate
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


def test_results_order_only_for_results_in_user_turns(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, FLAGS, FLAGS + "  turns: {results_order: first}\n", at="  turns:")
    assert msg == (
        f"{at} flags.turns.results_order: only for tool results in user turns "
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
    assert role_of({"parts": []}, "turns[0]", first) == "user"
    assert role_of({"role": "chatbot"}, "turns[1]", first) == "assistant"
    plain = generate(tmp_path, turns("    result_wrap: {text: output, error: error}\n"))
    with pytest.raises(InvalidInput, match="unknown role") as info:
        role_of({"parts": []}, "turns[0]", plain)
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


# ---------------------------------------------------------------- tool_choice_rule

RULE_AT = "transforms: [tiny_messages]\n"


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("{names: allowed}", "tool_choice_rule.names: only for form object, instead of name"),
        (
            "{other_objects: true}",
            "tool_choice_rule.other_objects: only for form string with a named form (name)",
        ),
        (
            "{name: function.name, named_as: none}",
            "tool_choice_rule.named_as: only for a protocol with no named form (name, names)",
        ),
    ],
)
def test_tool_choice_rule_contradictions_are_refused(tmp_path: Path, rule: str, words: str) -> None:
    msg, at = refused(tmp_path, RULE_AT, f"tool_choice_rule: {rule}\n" + RULE_AT)
    assert msg == f"{at} {words}"


@pytest.fixture(scope="module")
def choice_object(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    rule = "tool_choice_rule: {at: config.choice, form: object, mode: kind}\n"
    return generate(tmp_path_factory.mktemp("choice"), PROTOCOL.replace(RULE_AT, rule + RULE_AT))


def _choice(codec: ModuleType, wire: dict[str, Any], target: str) -> tuple[Request, Any, Ctx]:
    req, out, ctx = Request(), {}, Ctx("tiny_v2", target)
    decode_tool_choice(wire, req, codec, Ctx("tiny_v2", target))
    encode_tool_choice(req, out, codec, ctx)
    return req, out, ctx


def test_tool_choice_in_an_object_at_a_path(choice_object: ModuleType) -> None:
    """form object at a nested path: the mode is read from its key, the parent goes back whole
    to the same protocol, and its other keys are reported for another."""
    assert choice_object.TOOL_CHOICE_RULE["at"] == ("config", "choice")  # split by codegen
    wire = {"config": {"choice": {"kind": "NONE"}, "retrieval": {"k": 1}}}
    req, out, _ = _choice(choice_object, wire, "tiny_v2")
    assert req.tool_choice == ToolChoice(mode="none") and out == wire
    ctx = Ctx("tiny_v2", "openai_chat")
    decode_tool_choice(wire, Request(), choice_object, ctx)
    assert [x.path for x in ctx.losses] == ["config.retrieval"]
    out = {}
    encode_tool_choice(Request(tool_choice=ToolChoice(mode="auto")), out, choice_object, ctx)
    assert out == {"config": {"choice": {"kind": "AUTO"}}}
    with pytest.raises(InvalidInput, match="unknown tool_choice 'SOMETIMES'") as e:
        _choice(choice_object, {"config": {"choice": {"kind": "SOMETIMES"}}}, "tiny_v2")
    assert e.value.path == "config.choice.kind"


def test_tool_choice_as_a_string_by_default(tmp_path: Path) -> None:
    codec = generate(tmp_path)
    assert codec.TOOL_CHOICE_RULE["form"] == "string"
    req, out, _ = _choice(codec, {"tool_choice": "NONE"}, "tiny_v2")
    assert req.tool_choice == ToolChoice(mode="none") and out == {"tool_choice": "NONE"}
    with pytest.raises(InvalidInput, match="unknown tool_choice"):  # no named form: no object
        _choice(codec, {"tool_choice": {"type": "function"}}, "tiny_v2")
