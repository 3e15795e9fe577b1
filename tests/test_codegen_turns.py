"""flags.turns (codegen/spec_turns.py): the rows codegen checks against the protocol's other
rows, with file and line, and the generated flags the shared layout helpers
(runtime/transforms/turns.py) run on, on the tiny inline spec."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from interlingua._errors import InvalidInput
from interlingua.generated.canonical import (
    Message,
    TextPart,
    ToolResultPart,
)
from interlingua.transforms._util import role_of
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
