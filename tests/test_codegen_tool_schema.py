"""The tool_schema_openapi row on the tiny spec: a tool's parameters sent in the OpenAPI subset
(Gemini ``parameters`` beside its ``parametersJsonSchema``) are read by the generated
``decode_tool`` as JSON Schema, written back as they came by ``encode_tool`` to the same protocol
and as JSON Schema at the parameters row's key to another; beside that key it is dropped and
reported (the parameters row's feature); rows codegen cannot compile are refused with file, line
and row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from interlingua._losses import Ctx

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

ROW = "tool_schema_openapi: oas\n"
PARAMETERS = "  - {c: parameters, w: parameters, type: object}\n"
TINY = PROTOCOL.replace("finish_reasons:\n", ROW + "finish_reasons:\n").replace(
    PARAMETERS,
    PARAMETERS.replace("}", ", feature: sampling}"),  # the loss when both are sent
)
OPENAPI = {
    "type": "OBJECT",
    "properties": {"city": {"type": "STRING"}, "days": {"type": "INTEGER", "nullable": True}},
    "required": ["city"],
}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate(tmp_path_factory.mktemp("tiny_tool_schema"), TINY)


def test_openapi_parameters_are_read_as_json_schema_and_written_back(tiny: Any) -> None:
    decl = {"name": "forecast", "description": "Weather by city", "oas": OPENAPI}
    tool = tiny.decode_tool(decl, "tools[0]", Ctx("tiny_v2", "other"))
    assert tool.parameters == {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": ["integer", "null"]}},
        "required": ["city"],
    }
    assert tool.ext is None  # the key is the row's: never an extension
    assert tiny.encode_tool(tool, "tools[0]", Ctx("tiny_v2", "tiny_v2")) == decl
    other = Ctx("tiny_v2", "other")
    out = tiny.encode_tool(tool, "tools[0]", other)
    assert out == {
        "name": "forecast",
        "description": "Weather by city",
        "parameters": tool.parameters,
    }
    assert other.losses == []


def test_the_parameters_rows_key_wins(tiny: Any) -> None:
    schema = {"type": "object", "properties": {}}
    tool = tiny.decode_tool({"name": "f", "parameters": schema}, "t", Ctx("tiny_v2", "other"))
    assert (tool.parameters, tool.hints) == (schema, None)
    both = {"name": "f", "parameters": schema, "oas": OPENAPI}  # the API takes one of the two
    for target in ("other", "tiny_v2"):  # dropped, and said, whatever the target
        ctx = Ctx("tiny_v2", target)
        tool = tiny.decode_tool(both, "t", ctx)
        assert (tool.parameters, tool.hints, tool.ext) == (schema, None, None)
        assert [(lo.path, lo.feature) for lo in ctx.losses] == [("t.oas", "sampling")]
        assert ctx.losses[0].why == "tiny_v2 lossy: no top_p; user is dropped"  # its support row
        assert tiny.encode_tool(tool, "t", ctx) == {"name": "f", "parameters": schema}


@pytest.mark.parametrize(
    ("row", "protocol", "words"),
    [
        ("tool_schema_openapi: parameters", TINY.replace(ROW, "tool_schema_openapi: parameters\n"),
         "'parameters' is not a tool key of its own"),
        ("tool_schema_openapi: oas", TINY.replace(PARAMETERS.replace("}", ", feature: sampling}"), ""),
         "no tool_fields row for parameters"),
        ("{c: parameters, w: parameters, type: object}", PROTOCOL.replace("finish_reasons:\n", ROW + "finish_reasons:\n"),
         "no feature: the loss when a tool sends both keys"),
    ],
)  # fmt: skip
def test_rows_that_cannot_compile_are_refused(
    tmp_path: Path, row: str, protocol: str, words: str
) -> None:
    spec = write_spec(tmp_path, CANONICAL, protocol)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = protocol[: protocol.index(row)].count("\n") + 1
    msg = str(info.value)
    assert msg.startswith(f"{spec / 'protocols/tiny_v2.yaml'}:{line}: "), msg
    assert words in msg
