"""flags.turns (codegen/spec_turns.py, codegen/turns_code.py): the rows codegen checks against
the protocol's other rows and refuses to compile, with file and line, and the turn walk compiled
from them into the tiny codec (decode_turns, encode_turns, _user_turn), executed with the named
flags.turns.system_form / keep_turn_keys (how a system prompt and a turn's parts are said)."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx
from interlingua.generated.canonical import Message, Request
from interlingua.transforms._util import role_of

from codegen.load import SpecError, load_spec
from tests.test_codegen_checks import refused
from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

FLAGS = "  tool_results: tool_messages\n"
BLOCKS = "  tool_results: user_turn_blocks\n"
# the tiny canonical model with a tool result part and messages that hold names, ext and hints
# (what the compiled walk reads and writes)
TURNS_CANONICAL = CANONICAL.replace(
    '      - {name: role, type: "str"}\n      - {name: parts, type: "list[Part]", factory: list}\n',
    """      - {name: role, type: "str"}
      - {name: parts, type: "list[Part]", factory: list}
      - {name: name, type: "str | None"}
      - {name: ext, type: "dict[str, Any] | None"}
      - {name: hints, type: "dict[str, Any] | None"}
""",
).replace(
    "  - name: NativePart\n",
    """  - name: ToolResultPart
    part: tool_result
    feature: text
    fields:
      - {name: call_id, type: "str"}
      - {name: content, type: "list[Part]", factory: list}
  - name: NativePart
""",
)
WRAP = "    result_wrap: {text: output, error: error}\n"


def turns(rows: str, tool_results: str = BLOCKS) -> str:
    return PROTOCOL.replace(FLAGS, tool_results + "  turns:\n" + rows)


def refused_turns(
    tmp_path: Path, protocol: str, at: str, canonical: str = TURNS_CANONICAL
) -> tuple[str, str]:
    """Load the tiny spec with this protocol (and the canonical model with a tool result part):
    (the error, "file:line:" of the line holding ``at``)."""
    spec = write_spec(tmp_path, canonical, protocol)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = protocol[: protocol.index(at)].count("\n") + 1
    return str(info.value), f"{spec / 'protocols/tiny_v2.yaml'}:{line}:"


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
        "system_form: content",
        "keep_turn_keys: true",
    ],
)
def test_turn_walk_rows_only_for_results_in_user_turns(tmp_path: Path, row: str) -> None:
    """The rows the compiled user-turn walk reads say nothing to a
    protocol whose tool results are messages of their own: refused, not ignored."""
    msg, at = refused(tmp_path, FLAGS, FLAGS + f"  turns: {{{row}}}\n", at="  turns:")
    assert msg == (
        f"{at} flags.turns.{row.split(':')[0]}: only for tool results in user turns "
        "(flags.tool_results is tool_messages)"
    )


def test_result_wrap_keys_are_distinct(tmp_path: Path) -> None:
    new = BLOCKS + "  turns: {result_wrap: {text: output, error: error, read: [output]}}\n"
    msg, at = refused_turns(tmp_path, PROTOCOL.replace(FLAGS, new), "  turns:")
    assert msg == f"{at} flags.turns.result_wrap: key 'output' named twice"


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("parts_key: role", "flags.turns.parts_key: 'role' is a turn's role key: not its parts'"),
        ("system_key: messages", "flags.turns.system_key: 'messages' is the turn list's key (key)"),
    ],
)
def test_a_walk_that_cannot_be_compiled_is_refused(tmp_path: Path, row: str, expected: str) -> None:
    msg, at = refused_turns(tmp_path, turns(WRAP + f"    {row}\n"), f"    {row.split(':')[0]}:")
    assert msg == f"{at} {expected}"


def test_results_in_user_turns_need_a_canonical_result_part(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, FLAGS, BLOCKS + "  turns:\n" + WRAP)
    assert msg == f"{at} flags.tool_results: user_turn_blocks needs a canonical tool_result part"


def test_results_in_user_turns_need_a_part_row_or_a_wrap(tmp_path: Path) -> None:
    msg, at = refused_turns(tmp_path, PROTOCOL.replace(FLAGS, BLOCKS), BLOCKS.strip())
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
    return generate(tmp_path_factory.mktemp("turns"), turns(rows), TURNS_CANONICAL)


def test_generated_turns_flags(first: ModuleType) -> None:
    t = first.FLAGS.turns
    assert (t.role_default, t.results_order) == ("user", "first")
    assert (t.result_wrap.text, t.result_wrap.error, t.result_wrap.read) == (
        "output",
        "error",
        ("result",),
    )


def test_role_default_reads_a_turn_without_role(first: ModuleType, tmp_path: Path) -> None:
    roles, default = first.ROLE_DECODE, first.FLAGS.turns.role_default
    assert role_of({"parts": []}, "turns[0]", roles, default) == "user"
    assert role_of({"role": "chatbot"}, "turns[1]", roles, default) == "assistant"
    plain = generate(tmp_path, turns(WRAP), TURNS_CANONICAL)
    with pytest.raises(InvalidInput, match="unknown role") as info:
        role_of({"parts": []}, "turns[0]", plain.ROLE_DECODE, plain.FLAGS.turns.role_default)
    assert info.value.path == "turns[0].role"


def _kinds(parts: list[Any], hints: Any, path: str, ctx: Ctx) -> list[dict[str, str]]:
    """The codec's parts writer, writing each part's kind (what joins what shows)."""
    return [{"kind": p.PART} for p in parts]


def test_results_order_places_results_and_joins_them_back(
    first: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_place = generate(tmp_path, turns(WRAP), TURNS_CANONICAL)
    for codec, order, joined in ((first, "tool user", False), (in_place, "user tool", True)):
        monkeypatch.setattr(codec, "encode_parts", _kinds)
        monkeypatch.setitem(codec.ROLE_ENCODE, "tool", "user")  # the tiny roles have no tool row
        c = canonical_of(codec)
        q, r = c.TextPart(text="q"), c.ToolResultPart(call_id="c1", content=[])
        msgs = codec._user_turn([q, r], None, {"x": 1})  # the turn's ext on its user message
        assert [(m.role, m.ext) for m in msgs] == [
            (role, {"x": 1} if role == "user" else None) for role in order.split()
        ]
        # back to the wire: a tool message joins a user turn only where results sit anywhere
        user, tool = c.Message(role="user", parts=[q]), c.Message(role="tool", parts=[r])
        req, ctx = Request(messages=[user, tool]), Ctx("openai_chat", "tiny_v2")
        out: dict[str, Any] = {}
        codec.encode_turns(req, out, ctx)
        turned = [[b["kind"] for b in t["content"]] for t in out["messages"]]
        assert turned == ([["text", "tool_result"]] if joined else [["text"], ["tool_result"]])
        # a results-only turn takes the user message after it, with either order
        req.messages = [tool, user]
        out = {}
        codec.encode_turns(req, out, ctx)
        turned = [[b["kind"] for b in t["content"]] for t in out["messages"]]
        assert turned == [["tool_result", "text"]]
        # between endpoints of this protocol the source's turns are kept (hint ``turn``)
        for m, turn in zip(req.messages, (0, 1), strict=True):
            m.hints = {"turn": turn}
        out, same = {}, Ctx("tiny_v2", "tiny_v2")
        codec.encode_turns(req, out, same)
        turned = [[b["kind"] for b in t["content"]] for t in out["messages"]]
        assert turned == [["tool_result"], ["text"]]


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
        TURNS_CANONICAL,
    )
    blocks = [{"type": "text", "text": "hi"}]
    wire = {
        "preamble": [{"type": "text", "text": "Be brief"}],
        "turns": {"role": "user", "blocks": blocks},
    }
    req, ctx = Request(), Ctx("tiny_v2", "tiny_v2")
    codec.decode_turns(wire, req, ctx)
    assert [(m.role, m.hints) for m in req.messages] == [
        ("system", None),
        ("user", None),
    ]
    assert req.hints == {"one_object": True}
    out: dict[str, Any] = {}
    codec.encode_turns(req, out, ctx)
    assert out == wire and ctx.losses == []
    # from another protocol: a list of turns; a system message after the first turn is hoisted;
    # a lone plain text part is a string (its block holds only the text row's keys)
    text = canonical_of(codec).TextPart  # the tiny codec's own part types
    req.messages = [
        Message(role=role, parts=[text(text=t)])
        for role, t in (("system", "Be brief"), ("user", "hi"), ("system", "Be kind"))
    ]
    out, ctx = {}, Ctx("openai_chat", "tiny_v2")
    codec.encode_turns(req, out, ctx)
    assert out == {
        "preamble": [{"type": "text", "text": "Be brief"}, {"type": "text", "text": "Be kind"}],
        "turns": [{"role": "user", "blocks": "hi"}],
    }
    assert [(x.path, x.what) for x in ctx.losses] == [
        ("messages[2]", "system message hoisted into preamble")
    ]
    with pytest.raises(InvalidInput, match="missing required field") as info:
        codec.decode_turns({"messages": []}, Request(), ctx)
    assert info.value.path == "turns"
    # the rows' keys are literals of the compiled walk, with only the steps they ask for
    source = inspect.getsource(codec.encode_turns)
    assert 'out["turns"]' in source and "hoisted into preamble" in source and "FLAGS" not in source
    assert {"preamble", "turns"} <= codec.REQUEST_ROW_KEYS  # the walk's keys: known, not ext
    plain = generate(tmp_path / "plain", turns(WRAP), TURNS_CANONICAL)
    source = inspect.getsource(plain.encode_turns) + inspect.getsource(plain.decode_turns)
    assert "hoisted" not in source and "one_object" not in source  # no such rows: no such steps


# the transform's canonical.yaml row says what it needs: the flag its compiled walk is emitted for
# (the row's compiled functions)
NEEDS = "{compiled: turns, flags: {tool_results: user_turn_blocks}}"
NEEDS_CANONICAL = TURNS_CANONICAL.replace(
    "transforms: {tiny_messages: {compiled: tools}}",
    f"transforms: {{tiny_messages: {NEEDS}}}",
)


def test_a_transform_whose_flag_the_protocol_lacks_is_refused(tmp_path: Path) -> None:
    """A protocol naming the turn-walk transform with tool results as messages of their own has
    no compiled walk to call: refused at its transforms row, not an AttributeError at run time."""
    msg, at = refused_turns(tmp_path, PROTOCOL, "transforms: [tiny_messages]", NEEDS_CANONICAL)
    assert msg == (
        f"{at} transforms[0] tiny_messages: transform tiny_messages needs "
        "flags.tool_results: user_turn_blocks (got tool_messages)"
    )


def test_a_transform_whose_needs_are_met_runs_its_compiled_walk(tmp_path: Path) -> None:
    """The compiled pipeline calls the compiled walk in the row's place."""
    codec = generate(tmp_path, turns(WRAP), NEEDS_CANONICAL)
    text = [{"type": "text", "text": "hi"}]
    body = {"model": "m", "system": text, "messages": [{"role": "user", "content": text}]}
    ctx = Ctx("tiny_v2", "tiny_v2")
    req = codec.decode_request(body, ctx)
    assert [m.role for m in req.messages] == ["system", "user"] and req.ext is None
    assert codec.encode_request(req, ctx) == body and ctx.losses == []


CONTENT_ROWS = (
    WRAP + "    role_default: user\n"
    "    parts_key: parts\n"
    "    system_key: instruction\n"
    "    system_form: content\n"
    "    keep_turn_keys: true\n"
)


def test_a_content_system_prompt_and_turn_keys_kept(tmp_path: Path) -> None:
    """system_form content: the system prompt a string or {role?, parts} (its role and unknown
    keys kept), a turn's parts a list; keep_turn_keys: a turn's role and keys as they came go
    back so between endpoints of the protocol, and the rows' forms to another's messages."""
    codec = generate(tmp_path, turns(CONTENT_ROWS), TURNS_CANONICAL)
    hi = [{"type": "text", "text": "hi"}]
    wire = {
        "instruction": {"role": "system", "parts": [{"type": "text", "text": "Be brief"}], "x": 1},
        "messages": [{"parts": hi}, {"role": "chatbot"}, {"role": "user", "parts": hi}],
    }
    req, ctx = Request(), Ctx("tiny_v2", "tiny_v2")
    codec.decode_turns(wire, req, ctx)
    assert [(m.role, m.hints, m.ext) for m in req.messages] == [
        ("system", {"role": "system"}, {"x": 1}),
        ("user", {"keys": ["parts"]}, None),
        ("assistant", {"keys": ["role"]}, None),
        ("user", {}, None),
    ]
    out: dict[str, Any] = {}
    codec.encode_turns(req, out, ctx)
    assert out == wire and ctx.losses == []
    # a content without a role stays so (a string one: content_parts, read as content blocks
    # are; its TextPart is the package's canonical one, not the tiny codec's: Gemini's tests)
    instruction = {"parts": [{"type": "text", "text": "Be brief"}]}
    req = Request()
    codec.decode_turns({"instruction": instruction, "messages": []}, req, ctx)
    out = {}
    codec.encode_turns(req, out, ctx)
    assert out == {"instruction": instruction, "messages": []}
    # to another protocol's endpoint: the rows' forms
    req, out, other = Request(), {}, Ctx("openai_chat", "tiny_v2")
    codec.decode_turns(wire, req, ctx)
    codec.encode_turns(req, out, other)
    assert out == {
        "instruction": {"parts": [{"type": "text", "text": "Be brief"}]},
        "messages": [
            {"role": "user", "parts": hi},
            {"role": "chatbot", "parts": []},
            {"role": "user", "parts": hi},
        ],
    }
    assert [x.path for x in other.losses] == ["messages[0].x"]  # the prompt's unknown key
    with pytest.raises(InvalidInput) as info:  # parts absent: none; null: refused
        codec.decode_turns({"messages": [{"parts": None}]}, Request(), ctx)
    assert info.value.path.startswith("messages[0].parts")
    source = inspect.getsource(codec.encode_turns) + inspect.getsource(codec.decode_turns)
    assert "text_content" not in source and "FLAGS" not in source  # only the rows' steps
    plain = generate(tmp_path / "plain", turns(WRAP), TURNS_CANONICAL)
    source = inspect.getsource(plain.encode_turns) + inspect.getsource(plain.decode_turns)
    assert "_TURN_KEYS -" not in source and "expect_dict(system" not in source


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ("    system_form: content\n    keep_turn_keys: true\n", "needs flags.turns.role_default"),
        (
            "    role_default: user\n    keep_turn_keys: true\n",
            "needs flags.turns.system_form: content",
        ),
    ],
)
def test_kept_turn_keys_need_a_default_role_and_content(
    tmp_path: Path, rows: str, expected: str
) -> None:
    msg, at = refused_turns(tmp_path, turns(WRAP + rows), "    keep_turn_keys:")
    assert msg == f"{at} flags.turns.keep_turn_keys: {expected}"
