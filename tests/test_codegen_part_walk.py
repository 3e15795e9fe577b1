"""The ``part_walk`` row (codegen/part_walk.py) and encode-only rows of type ``base64_text`` on
the tiny spec: the compiled ``decode_parts`` / ``encode_parts`` are executed. A signature on a
part other than a reasoning part reads as an attached part before it and goes back on the part
after it (alone: alone; none after: an empty text part); calls without ids get one, results their
call's by name, and both are left out again; a result without a name gets its call's (else
``unknown``, reported). A plain-text document is written as base64 data by an encode-only row,
which no decoder reads. A row the walk cannot follow is refused with file, line and row."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from interlingua._losses import Ctx
from interlingua.transforms.call_ids import CallIds

from tests.test_codegen_checks import refused
from tests.test_codegen_generate import canonical_of, generate
from tests.test_codegen_messages import FLAT_CANONICAL
from tests.tiny_spec import PROTOCOL, refusal

CANONICAL = (
    FLAT_CANONICAL.replace(
        '      - {name: call_id, type: "str"}\n',
        '      - {name: call_id, type: "str"}\n      - {name: name, type: "str | None"}\n',
    )
    .replace(
        "  - {id: tools, title: Tools}\n",
        "  - {id: tools, title: Tools}\n  - {id: file, title: Files}\n",
    )
    .replace(
        "  - name: RefusalPart\n",
        """  - name: FilePart
    part: file
    feature: file
    fields:
      - {name: media_type, type: "str | None"}
      - {name: data, type: "str | None"}
      - {name: text, type: "str | None"}
  - name: RefusalPart
""",
    )
)

ROWS = """\
  - part: reasoning
    feature: reasoning_replay
    match: {type: thinking}
    fields:
      - {c: text, w: text, default: ""}
      - {c: signature, w: sig}
  - part: tool_call
    feature: tools
    match: {type: call}
    fields:
      - {c: id, w: call.id, default: ""}
      - {c: name, w: call.name, required: true}
      - {c: arguments, w: call.args, type: json_object_text}
  - part: tool_result
    feature: tools
    match: {type: result}
    fields:
      - {c: call_id, w: result.id, default: ""}
      - {c: name, w: result.name, required: true}
  - part: file
    feature: file
    match: {type: file}
    when: data
    fields:
      - {c: media_type, w: mime, required: true}
      - {c: data, w: data, required: true}
  - part: file
    feature: file
    match: {type: file}
    when: text
    encode_only: true
    fields:
      - {c: media_type, w: mime, default: text/plain}
      - {c: text, w: data, type: base64_text, required: true}
"""
WALK = "part_walk: {signature: sig, call_ids: by_name}\n"
WALK_PROTOCOL = (
    PROTOCOL.replace("tool_fields:\n", ROWS + WALK + "tool_fields:\n")
    .replace("  tool_calls: message_field\n", "  tool_calls: content_blocks\n")
    .replace(
        "  - {unified: assistant, raw: chatbot}\n",
        "  - {unified: assistant, raw: chatbot}\n  - {unified: tool, raw: tool}\n",
    )
    .replace(
        "  native_parts: {level: unsupported}\n",
        "  native_parts: {level: unsupported}\n  tools: {level: full}\n"
        "  reasoning_replay: {level: lossy}\n  file: {level: lossy}\n",
    )
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return generate(tmp_path_factory.mktemp("tiny_walk"), WALK_PROTOCOL, CANONICAL)


PARTS = [
    {"type": "thinking", "text": "hm", "sig": "S0"},  # its own signature: its row's
    {"type": "call", "call": {"name": "f", "args": {}}, "sig": "S1"},
    {"type": "call", "call": {"name": "f", "args": {"a": 1}}},
    {"sig": "S2"},  # alone
    {"type": "text", "text": "done", "sig": "S3"},
]
RESULTS = [
    {"type": "result", "result": {"name": "f"}},
    {"type": "result", "result": {"name": "f", "id": "given"}},
]


def test_signatures_and_ids_read_and_written_back(tiny: ModuleType) -> None:
    ctx, ids = Ctx("tiny_v2", "tiny_v2"), CallIds()
    parts = tiny.decode_parts(PARTS, "parts", ctx, ids)
    kinds = [
        (type(p).__name__, (p.ext or {}).get("attach") if hasattr(p, "ext") else None)
        for p in parts
    ]
    assert [k for k, _ in kinds] == [
        "ReasoningPart",
        "ReasoningPart",
        "ToolCallPart",
        "ToolCallPart",
        "ReasoningPart",
        "ReasoningPart",
        "TextPart",
    ]
    assert [parts[1].signature, parts[4].signature, parts[5].signature] == ["S1", "S2", "S3"]
    assert parts[4].ext == {"attach": "next", "alone": True}
    assert [parts[2].id, parts[3].id] == ["ilg_0", "ilg_1"]  # synthesised, in order
    results = tiny.decode_parts(RESULTS, "results", ctx, ids)
    assert [r.call_id for r in results] == ["ilg_0", "given"]  # by name, first come
    assert results[0].hints == {"no_id": True}
    assert tiny.encode_parts(parts, None, "parts", ctx) == PARTS  # ids left out again
    assert tiny.encode_parts(results, None, "results", ctx) == RESULTS
    assert ctx.losses == []


def test_toward_another_source(tiny: ModuleType) -> None:
    c = canonical_of(tiny)
    ctx = Ctx("other", "tiny_v2")
    parts = [
        c.ToolCallPart(id="call_1", name="f", arguments="{}"),
        c.ToolResultPart(call_id="call_1"),
        c.ToolResultPart(call_id="call_9"),
    ]
    out = tiny.encode_parts(parts, None, "m", ctx, {"call_1": "f"})
    assert out == [
        {"type": "call", "call": {"id": "call_1", "name": "f", "args": {}}},
        {"type": "result", "result": {"id": "call_1", "name": "f"}},
        {"type": "result", "result": {"id": "call_9", "name": "unknown"}},
    ]
    assert [(x.path, x.feature) for x in ctx.losses] == [("m[2].name", "tools")]


def test_an_encode_only_row_writes_base64_and_reads_nothing(tiny: ModuleType) -> None:
    c = canonical_of(tiny)
    ctx = Ctx("other", "tiny_v2")
    doc = c.FilePart(text="Grass is green.")
    assert tiny.encode_part(doc, "m", ctx) == {
        "type": "file",
        "mime": "text/plain",
        "data": "R3Jhc3MgaXMgZ3JlZW4u",
    }
    [back] = tiny.decode_parts([tiny.encode_part(doc, "m", ctx)], "m", ctx, CallIds())
    assert (back.data, back.text) == ("R3Jhc3MgaXMgZ3JlZW4u", None)  # the data row reads it
    assert not hasattr(tiny, "_dec_file_5") and ctx.losses == []


def test_a_walk_with_no_rows_to_follow_is_refused(tmp_path: Path) -> None:
    error, where = refused(
        tmp_path, "tool_fields:\n", WALK.replace("sig,", "x.y,") + "tool_fields:\n", at="part_walk"
    )
    assert where in error and "one key of a part" in error
    assert "needs a tool_call row with id" in error


@pytest.mark.parametrize(
    ("old", "new", "marker", "expected"),
    [
        (  # read, the base64 data would be taken for the text
            "    encode_only: true\n",
            "",
            "type: base64_text",
            "base64_text is only written (read, the base64 data would be the text): its row "
            "needs encode_only",
        ),
        (  # true: another row reads it back, and none does
            "    when: data\n",
            "    when: data\n    encode_only: true\n",
            "encode_only: true",
            "true says another file row reads the part back: there is none",
        ),
    ],
)
def test_an_encode_only_row_codegen_cannot_compile_is_refused(
    tmp_path: Path, old: str, new: str, marker: str, expected: str
) -> None:
    """The refusals of codegen/checks_parts.py, with file, line and row."""
    assert WALK_PROTOCOL.count(old) == 1, old
    protocol = WALK_PROTOCOL.replace(old, new)
    assert expected in refusal(tmp_path, CANONICAL, protocol, marker)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("      - {c: signature, w: sig}\n", "", "needs a reasoning row with a signature"),
        ("w: result.name,", "w: name,", "needs a tool_result name beside its call_id"),
        (  # only one reasoning row's match can say which signature is a part's own
            "  - part: tool_call\n",
            "  - part: reasoning\n    feature: reasoning_replay\n    match: {type: redacted}\n"
            "    fields:\n      - {c: redacted, w: data}\n  - part: tool_call\n",
            "needs one reasoning row, not several",
        ),
        (  # the walk writes a call's id in what the call's row wrote: one row, for every call
            "    match: {type: call}\n",
            "    match: {type: call}\n    when: arguments\n",
            "needs one tool_call row, for every part",
        ),
    ],
)
def test_a_walk_missing_the_fields_it_reads_is_refused(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    """A signature needs the reasoning row's own (one reasoning row) to tell it apart; a
    result's name is written beside its id."""
    assert WALK_PROTOCOL.count(old) == 1, old
    protocol = WALK_PROTOCOL.replace(old, new)
    assert expected in refusal(tmp_path, CANONICAL, protocol, "part_walk:")
