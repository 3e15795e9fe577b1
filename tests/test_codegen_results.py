"""Two rows of tool results and refusals on the tiny inline spec, compiled and run:
flags.turns.result_wrap (a tool result's text as the one value of a JSON object: the generated
``decode_result`` / ``encode_result``) and response_envelope.blocked (a response with no choices
whose prompt was refused: ``read_blocked``); rows codegen cannot compile are refused with file,
line and row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from interlingua._errors import InvalidInput

from codegen.load import SpecError, load_spec
from tests.test_codegen_envelope import ENVELOPE
from tests.test_codegen_generate import generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

WRAP = "  turns: {result_wrap: {text: out, error: fault, read: [result, value]}}\n"
BLOCKED = "  blocked: {reason: feedback.block, finish: length}\n"
TINY = (
    PROTOCOL.replace("  sse_event_names: true\n", "  sse_event_names: true\n" + WRAP)
    + ENVELOPE
    + BLOCKED
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate(tmp_path_factory.mktemp("tiny_results"), TINY)


@pytest.mark.parametrize(
    ("response", "text", "is_error", "hints"),
    [
        ({"out": "sunny"}, "sunny", None, {"string": True, "wrap": "out"}),
        ({"fault": "no city"}, "no city", True, {"string": True, "wrap": "fault"}),
        ({"value": "7"}, "7", None, {"string": True, "wrap": "value"}),
        ({"out": 7}, '{"out":7}', None, {"string": True, "json": True}),
        ({"out": "a", "b": 1}, '{"out":"a","b":1}', None, {"string": True, "json": True}),
        (None, "", None, {"string": True, "json": None}),
    ],
)
def test_a_result_object_is_read_and_written_back(
    tiny: Any, response: Any, text: str, is_error: Any, hints: dict[str, Any]
) -> None:
    assert tiny.decode_result(response, "r") == (text, is_error, hints)
    assert tiny.encode_result(text, is_error, hints, True) == response  # the same protocol


def test_another_protocols_result_is_wrapped_in_the_rows_keys(tiny: Any) -> None:
    assert tiny.encode_result("sunny", None, {}, False) == {"out": "sunny"}
    assert tiny.encode_result("no", True, {}, False) == {"fault": "no"}
    assert tiny.encode_result('{"a":1}', None, {"json": True}, False) == {"out": '{"a":1}'}


def test_a_blocked_prompt_is_its_reason_where_the_row_says(tiny: Any) -> None:
    f = tiny.read_blocked({"feedback": {"block": "TOO_LONG"}})
    assert (f.unified, f.raw) == ("length", "TOO_LONG")
    assert tiny.read_blocked({"feedback": {}}) is None and tiny.read_blocked({}) is None
    with pytest.raises(InvalidInput) as info:
        tiny.read_blocked({"feedback": {"block": 3}})
    assert info.value.path == "feedback.block"


@pytest.mark.parametrize(
    ("old", "new", "marker", "words"),
    [
        (BLOCKED, BLOCKED.replace("length", "lenght"), "blocked", "'lenght' is not a FinishReason"),
        (BLOCKED, BLOCKED.replace("feedback.block", "feedback..block"), "blocked", "dotted path"),
        (WRAP, WRAP.replace("value", "out"), "result_wrap", "key 'out' named twice"),
    ],
)
def test_rows_that_cannot_compile_are_refused(
    tmp_path: Path, old: str, new: str, marker: str, words: str
) -> None:
    edited = TINY.replace(old, new)
    spec = write_spec(tmp_path, CANONICAL, edited)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = edited[: edited.index(marker)].count("\n") + 1
    msg = str(info.value)
    assert msg.startswith(f"{spec / 'protocols/tiny_v2.yaml'}:{line}: "), msg
    assert words in msg
