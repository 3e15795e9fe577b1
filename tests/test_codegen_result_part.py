"""A tool result part row whose content is a ``result_wrap`` field (Gemini ``functionResponse``:
the result's JSON value <-> its text, is_error and hints through flags.turns.result_wrap), on
the tiny spec: the generated part decoder and encoder are run (a wrapped text, an error, any
other JSON value; a part that is not text reported under the row's feature; another protocol's
result wrapped in the row's keys), and rows codegen cannot compile are refused with file, line
and row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from interlingua._losses import Ctx

from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import CANONICAL, PROTOCOL, refusal

RESULT_TYPE = """\
  - name: ToolResultPart
    part: tool_result
    feature: tool_result
    fields:
      - {name: call_id, type: "str"}
      - {name: content, type: "list[Part] | None", factory: list}
      - {name: is_error, type: "bool | None"}
      - {name: ext, type: "dict[str, Any] | None"}
      - {name: hints, type: "dict[str, Any] | None"}
"""
CANON = CANONICAL.replace(
    "  - {id: native_parts, title: Native parts}\n",
    "  - {id: native_parts, title: Native parts}\n  - {id: tool_result, title: Tool results}\n",
).replace("  - name: NativePart\n", RESULT_TYPE + "  - name: NativePart\n")
WRAP = "  turns: {result_wrap: {text: out, error: fault, read: [result]}}\n"
ROW = """\
  - part: tool_result
    feature: tool_result
    match: {type: result}
    fields:
      - {c: call_id, w: ref, required: true}
      - {c: content, w: value, type: result_wrap}
"""
TINY = (
    PROTOCOL.replace("  sse_event_names: true\n", "  sse_event_names: true\n" + WRAP)
    .replace("tool_fields:\n", ROW + "tool_fields:\n")
    .replace("support:\n", 'support:\n  tool_result: {level: lossy, note: "results hold text"}\n')
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate(tmp_path_factory.mktemp("tiny_result_part"), TINY, CANON)


@pytest.mark.parametrize(
    ("value", "text", "is_error"),
    [({"out": "sunny"}, "sunny", None), ({"fault": "no city"}, "no city", True),
     ({"temp": 21}, '{"temp":21}', None), (None, "", None)],
)  # fmt: skip
def test_a_result_part_is_read_and_written_back(
    tiny: Any, value: Any, text: str, is_error: Any
) -> None:
    c = canonical_of(tiny)
    wire = {"type": "result", "ref": "c1", **({"value": value} if value is not None else {})}
    part = tiny.decode_part(wire, "p", Ctx("tiny_v2", "other"))
    assert type(part) is c.ToolResultPart
    assert (part.call_id, part.content, part.is_error) == ("c1", [c.TextPart(text=text)], is_error)
    same = Ctx("tiny_v2", "tiny_v2")
    assert (tiny.encode_part(part, "p", same), same.losses) == (wire, [])


def test_another_protocols_result_is_wrapped_and_its_other_parts_reported(tiny: Any) -> None:
    c = canonical_of(tiny)
    image = c.NativePart(type="image", data={}, owner="other")
    part = c.ToolResultPart(call_id="c1", content=[c.TextPart(text="no"), image], is_error=True)
    ctx = Ctx("other", "tiny_v2")
    assert tiny.encode_part(part, "p", ctx) == {
        "type": "result",
        "ref": "c1",
        "value": {"fault": "no"},
    }
    assert [(loss.path, loss.feature, loss.why) for loss in ctx.losses] == [
        ("p.content[1]", "tool_result", "tiny_v2 lossy: results hold text")
    ]


@pytest.mark.parametrize(
    ("protocol", "marker", "words"),
    [
        (TINY.replace(WRAP, ""), "{c: content, w: value, type: result_wrap}",
         "result_wrap needs flags.turns.result_wrap"),
        (TINY.replace("{c: id, w: id}", "{c: parts, w: id, type: result_wrap}"),
         "{c: parts, w: id, type: result_wrap}", "result_wrap: only a tool result part row's"),
    ],
)  # fmt: skip
def test_rows_that_cannot_compile_are_refused(
    tmp_path: Path, protocol: str, marker: str, words: str
) -> None:
    assert words in refusal(tmp_path, CANON, protocol, marker)


def test_a_result_type_without_is_error_is_refused(tmp_path: Path) -> None:
    canon = CANON.replace('      - {name: is_error, type: "bool | None"}\n', "")
    msg = refusal(tmp_path, canon, TINY, "{c: content, w: value, type: result_wrap}")
    assert "ToolResultPart has no is_error to read it into" in msg
