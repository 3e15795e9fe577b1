"""The tool_choice rule compiled (codegen/tool_choice.py, templates/_codec_tool_choice.j2) on the
tiny inline spec: a rule whose fields contradict each other is refused with file, line and row,
and each rule shape's generated decode_tool_choice / encode_tool_choice is executed on small
bodies (modes, named choices, another spelling, the parallel switch, a parent object, a mode
written by leaving the field out, a strict switch for all tools)."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

CANON = (
    CANONICAL.replace(
        "{name: ToolChoiceMode, values: [auto, none]}",
        "{name: ToolChoiceMode, values: [auto, none, required, tool]}",
    )
    .replace(
        '      - {name: tools, type: "list[Tool]", factory: list}\n',
        '      - {name: tools, type: "list[Tool]", factory: list}\n'
        '      - {name: tool_choice, type: "ToolChoice | None"}\n'
        '      - {name: parallel_tool_calls, type: "bool | None"}\n',
    )
    .replace(
        '      - {name: kind, type: "str", default: "\'function\'"}\n',
        '      - {name: kind, type: "str", default: "\'function\'"}\n'
        '      - {name: strict, type: "bool | None"}\n',
    )
    .replace(
        "  - name: TextPart\n",
        "  - name: ToolChoice\n"
        "    fields:\n"
        '      - {name: mode, type: "str"}\n'
        '      - {name: name, type: "str | None"}\n'
        "  - name: TextPart\n",
    )
)
ROWS = "tool_choice:\n  - {unified: auto, raw: AUTO}\n  - {unified: none, raw: NONE}\n"
assert ROWS in PROTOCOL
CHAT_ROWS = (
    "tool_choice:\n  - {unified: auto, raw: auto}\n  - {unified: none, raw: none}\n"
    "  - {unified: required, raw: required}\n  - {unified: required, raw: any, only: decode}\n"
    "  - {unified: tool, raw: function}\n"
)
CHAT_RULE = "tool_choice_rule: {name: function.name}\n"
AT = "transforms: [tiny_messages]\n"


def tiny(rows: str, rule: str, parallel: str = "none", default: str = "") -> str:
    """The tiny protocol with these tool_choice rows, rule, parallel flag and decode default."""
    out = PROTOCOL.replace(ROWS, rows).replace(AT, rule + AT)
    out = out.replace("  parallel_flag: none\n", f"  parallel_flag: {parallel}\n")
    if default:
        old = "  finish_reasons: {decode: other, encode: COMPLETE}\n"
        out = out.replace(old, old + f"  tool_choice: {{decode: {default}}}\n")
    return out


CHAT = tiny(CHAT_ROWS, CHAT_RULE, "parallel_tool_calls")


def refused(tmp_path: Path, old: str, new: str, drop: str = "") -> tuple[str, str]:
    """Edit the Chat-like tiny spec (and ``drop`` a row), load it: (the error, "file:line:" of
    the edit)."""
    assert CHAT.count(old) == 1, old
    edited = CHAT.replace(old, new).replace(drop, "")
    spec = write_spec(tmp_path, CANON, edited)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = edited[: edited.index(new.strip())].count("\n") + 1
    return str(info.value), f"{spec / 'protocols/tiny_v2.yaml'}:{line}:"


def test_the_chat_like_rule_loads(tmp_path: Path) -> None:
    load_spec(write_spec(tmp_path, CANON, CHAT))


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("{names: allowed}", "tool_choice_rule.names: only for form object, instead of name"),
        (
            "{other_objects: true, named_as: required}",
            "tool_choice_rule.other_objects: only for form string with a named form (name)",
        ),
        (
            "{name: function.name, named_as: none}",
            "tool_choice_rule.named_as: only for a protocol with no named form (name, names)",
        ),
        ("{name: function..name}", "tool_choice_rule.name: 'function..name' has an empty key"),
        (
            "{at: config., name: name}",
            "tool_choice_rule.at: 'config.' has an empty key",
        ),
        (
            "{mode: kind, named_as: required}",
            "tool_choice_rule.mode: only for form object or a named form (name)",
        ),
        (
            "{form: object, mode: name, name: name}",
            "tool_choice_rule.mode: 'name' is also the key of name",
        ),
        (
            "{name: name, absent_means: none}",
            "tool_choice_rule.absent_means: 'none' has an encode row in tool_choice (none): it "
            "is written by the row, not left out",
        ),
        (
            "{name: name, strict_path: tool_choice}",
            "tool_choice_rule.strict_path: 'tool_choice' is also the key of the choice or switch",
        ),
        (
            "{form: object}",
            "tool_choice_rule: a named choice (mode tool) needs a named form (name, names) or "
            "named_as",
        ),
    ],
)
def test_contradictory_rules_are_refused(tmp_path: Path, rule: str, words: str) -> None:
    msg, at = refused(tmp_path, CHAT_RULE, f"tool_choice_rule: {rule}\n")
    assert msg == f"{at} {words}"


def test_named_as_needs_an_encode_row(tmp_path: Path) -> None:
    new = "tool_choice_rule: {named_as: tool}\n"
    msg, at = refused(tmp_path, CHAT_RULE, new, drop="  - {unified: tool, raw: function}\n")
    assert msg == f"{at} tool_choice_rule.named_as: 'tool' has no encode row in tool_choice"


def test_the_parallel_switch_inside_the_choice_needs_an_object(tmp_path: Path) -> None:
    new = "  parallel_flag: disable_parallel_tool_use\n"
    msg, at = refused(tmp_path, "  parallel_flag: parallel_tool_calls\n", new)
    assert msg == (
        f"{at} flags.parallel_flag: disable_parallel_tool_use sits inside the choice: needs "
        "form object"
    )


# ---------------------------------------------------------------- the generated functions


def _canonical(codec: ModuleType) -> Any:
    return importlib.import_module(codec.__name__.rsplit(".", 1)[0] + ".canonical")


def _decode(codec: ModuleType, wire: dict[str, Any], target: str = "tiny_v2") -> tuple[Any, Ctx]:
    req, ctx = _canonical(codec).Request(), Ctx("tiny_v2", target)
    codec.decode_tool_choice(wire, req, ctx)
    return req, ctx


def _encode(codec: ModuleType, req: Any, target: str = "tiny_v2") -> tuple[Any, Ctx]:
    out: dict[str, Any] = {}
    ctx = Ctx("other" if target != "tiny_v2" else "tiny_v2", target)
    codec.encode_tool_choice(req, out, ctx)
    return out, ctx


def _tc(codec: ModuleType, mode: str, name: str | None = None) -> Any:
    return _canonical(codec).ToolChoice(mode=mode, name=name)


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return generate(tmp_path_factory.mktemp("chat"), CHAT, CANON)


def test_no_rule_dict_at_run_time(chat: ModuleType) -> None:
    assert not hasattr(chat, "TOOL_CHOICE_RULE")
    # the top-level keys the compiled rule reads: the choice's and the switch beside it
    assert frozenset({"tool_choice", "parallel_tool_calls"}) == chat.TOOL_CHOICE_KEYS


def test_bare_modes_named_objects_and_the_switch_beside(chat: ModuleType) -> None:
    wire = {
        "tool_choice": {"type": "function", "function": {"name": "f"}},
        "parallel_tool_calls": False,
    }
    req, ctx = _decode(chat, wire)
    assert req.tool_choice == _tc(chat, "tool", "f") and req.parallel_tool_calls is False
    assert _encode(chat, req)[0] == {"parallel_tool_calls": False, **wire}
    req, _ = _decode(chat, {"tool_choice": "required"})
    assert req.tool_choice == _tc(chat, "required") and _encode(chat, req)[0] == {
        "tool_choice": "required"
    }
    with pytest.raises(InvalidInput, match="expected an object") as e:
        _decode(chat, {"tool_choice": {"type": "function"}})
    assert e.value.path == "tool_choice.function"
    with pytest.raises(
        InvalidInput, match=r"unknown tool_choice 'sometimes' \(expected one of any,"
    ):
        _decode(chat, {"tool_choice": "sometimes"})


def test_another_spelling_goes_back_as_it_came_and_is_reported_elsewhere(chat: ModuleType) -> None:
    req, ctx = _decode(chat, {"tool_choice": "any"})
    assert req.tool_choice == _tc(chat, "required") and ctx.losses == []
    assert _encode(chat, req)[0] == {"tool_choice": "any"}
    assert _encode(chat, req, "openai_chat")[0] == {"tool_choice": "required"}
    req, ctx = _decode(chat, {"tool_choice": "any"}, "openai_chat")
    assert [(x.path, x.what) for x in ctx.losses] == [
        ("tool_choice", "mode 'any' sent as 'required'")
    ]


@pytest.fixture(scope="module")
def anthropic(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    rows = CHAT_ROWS.replace("raw: function}", "raw: tool}").replace(
        "  - {unified: required, raw: any, only: decode}\n", ""
    )
    rule = "tool_choice_rule: {form: object, name: name}\n"
    protocol = tiny(rows, rule, "disable_parallel_tool_use")
    return generate(tmp_path_factory.mktemp("ant"), protocol, CANON)


def test_an_object_with_the_parallel_switch_inside(anthropic: ModuleType) -> None:
    wire = {"tool_choice": {"type": "tool", "name": "f", "disable_parallel_tool_use": True}}
    req, _ = _decode(anthropic, wire)
    assert req.tool_choice == _tc(anthropic, "tool", "f") and req.parallel_tool_calls is False
    assert _encode(anthropic, req)[0] == wire
    req = _canonical(anthropic).Request(parallel_tool_calls=False)  # the switch needs a choice
    assert _encode(anthropic, req)[0] == {
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": True}
    }
    with pytest.raises(InvalidInput, match="unknown tool_choice 'any'") as e:
        _decode(anthropic, {"tool_choice": {"type": "any"}})
    assert e.value.path == "tool_choice.type"


@pytest.fixture(scope="module")
def nested(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    rows = (
        "tool_choice:\n  - {unified: auto, raw: AUTO}\n  - {unified: none, raw: NONE}\n"
        "  - {unified: required, raw: ANY}\n  - {unified: tool, raw: ANY, only: encode}\n"
        "  - {unified: auto, raw: VALIDATED, only: decode}\n"
    )
    rule = (
        "tool_choice_rule: {at: config.calling.choice, form: object, mode: kind, names: allowed}\n"
    )
    return generate(tmp_path_factory.mktemp("nested"), tiny(rows, rule, default="auto"), CANON)


def test_a_choice_in_objects_with_allowed_names(nested: ModuleType) -> None:
    """form object at a nested path: the parent goes back whole to the same protocol and its
    other keys are reported for another; one allowed name with the required mode is a named
    choice, more are reported; an unknown mode is the decode default."""
    wire = {"config": {"calling": {"choice": {"kind": "ANY", "allowed": ["f"]}, "k": 1}}}
    req, ctx = _decode(nested, wire)
    assert req.tool_choice == _tc(nested, "tool", "f") and _encode(nested, req)[0] == wire
    req, ctx = _decode(nested, wire, "openai_chat")
    assert [x.path for x in ctx.losses] == ["config.calling.k"]
    out, _ = _encode(nested, req, "openai_chat")
    assert out == {"config": {"calling": {"choice": {"kind": "ANY", "allowed": ["f"]}}}}
    two = {"config": {"calling": {"choice": {"kind": "ANY", "allowed": ["f", "g"]}}}}
    req, ctx = _decode(nested, two, "openai_chat")
    assert req.tool_choice == _tc(nested, "required")
    assert [(x.path, x.what) for x in ctx.losses] == [
        ("config.calling.choice.allowed", "restriction to 2 functions dropped")
    ]
    req, ctx = _decode(nested, {"config": {"calling": {"choice": {"kind": "LATER"}}}}, "x")
    assert req.tool_choice == _tc(nested, "auto")
    assert [x.what for x in ctx.losses] == ["mode 'LATER' sent as 'auto'"]
    with pytest.raises(InvalidInput, match="expected an object") as e:
        _decode(nested, {"config": {"calling": 3}})
    assert e.value.path == "config.calling"
    with pytest.raises(InvalidInput, match="unknown tool_choice 7") as e:
        _decode(nested, {"config": {"calling": {"choice": {"kind": 7}}}})
    assert e.value.path == "config.calling.choice.kind"


@pytest.fixture(scope="module")
def cohere(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    rows = "tool_choice:\n  - {unified: required, raw: REQUIRED}\n  - {unified: none, raw: NONE}\n"
    rule = "tool_choice_rule: {absent_means: auto, named_as: required, strict_path: strict_all}\n"
    return generate(tmp_path_factory.mktemp("cohere"), tiny(rows, rule), CANON)


def test_auto_by_omission_no_named_form_and_one_strict_switch(cohere: ModuleType) -> None:
    c = _canonical(cohere)
    assert frozenset({"tool_choice", "strict_all"}) == cohere.TOOL_CHOICE_KEYS  # no switch
    tools = [c.Tool(name="f", strict=True), c.Tool(name="g", strict=False)]
    req = c.Request(tools=tools, tool_choice=_tc(cohere, "tool", "f"), parallel_tool_calls=False)
    out, ctx = _encode(cohere, req, "tiny_v2")
    assert out == {"strict_all": False, "tool_choice": "REQUIRED"}
    assert [(x.path, x.what) for x in ctx.losses] == [
        ("strict_all", "per-tool strict flags sent as strict_all: False"),
        ("parallel_tool_calls", "parallel_tool_calls: false dropped"),
        ("tool_choice", "tool_choice naming 'f' sent as 'REQUIRED'"),
    ]
    assert _encode(cohere, c.Request(tool_choice=_tc(cohere, "auto")))[0] == {}
    req = c.Request(tools=[c.Tool(name="f")])
    cohere.decode_tool_choice({"strict_all": True, "tool_choice": "NONE"}, req, Ctx("a", "b"))
    assert req.tools[0].strict is True and req.tool_choice == _tc(cohere, "none")
    with pytest.raises(InvalidInput, match="unknown tool_choice"):  # no named form: no object
        _decode(cohere, {"tool_choice": {"type": "function"}})


@pytest.fixture(scope="module")
def responses(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    rule = "tool_choice_rule: {name: name, other_objects: true}\n"
    return generate(tmp_path_factory.mktemp("resp"), tiny(CHAT_ROWS, rule), CANON)


def test_another_object_is_kept_for_its_protocol(responses: ModuleType) -> None:
    obj = {
        "type": "allowed_tools",
        "mode": "required",
        "tools": [{"type": "function", "name": "f"}],
    }
    req, ctx = _decode(responses, {"tool_choice": obj})
    assert req.tool_choice == _tc(responses, "required") and _encode(responses, req)[0] == {
        "tool_choice": obj
    }
    req, ctx = _decode(responses, {"tool_choice": obj}, "openai_chat")
    assert [x.what for x in ctx.losses] == ["tool_choice 'allowed_tools' sent as 'required'"]
    assert _encode(responses, req, "openai_chat")[0] == {"tool_choice": "required"}
    req, _ = _decode(responses, {"tool_choice": {"type": "function", "name": "f"}})
    assert _encode(responses, req)[0] == {"tool_choice": {"type": "function", "name": "f"}}


def test_a_bare_string_by_default(tmp_path: Path) -> None:
    """The default rule (no tool_choice_rule): the choice is the bare raw mode at tool_choice;
    a canonical model without a named mode needs no named form."""
    canon = CANON.replace("[auto, none, required, tool]", "[auto, none]")
    codec = generate(tmp_path, PROTOCOL, canon)
    req, _ = _decode(codec, {"tool_choice": "NONE"})
    assert req.tool_choice == _tc(codec, "none") and _encode(codec, req)[0] == {
        "tool_choice": "NONE"
    }
    with pytest.raises(InvalidInput, match="unknown tool_choice") as e:  # no named form: no object
        _decode(codec, {"tool_choice": {"type": "function"}})
    assert e.value.path == "tool_choice"
