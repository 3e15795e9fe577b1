"""Wire models: JSON Schema derived from the rows, turned into pydantic models by
datamodel-code-generator. They are for opt-in validation at the edges, never the hot path."""

from __future__ import annotations

import json
from typing import Any

from datamodel_code_generator import DataModelType, InputFileType, PythonVersion, generate
from datamodel_code_generator.format import Formatter

from .render import header
from .spec_model import FieldRow, ProtocolSpec

_JSON: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "number": {"type": "number"},
    "whole_number": {"type": "number"},
    "bool": {"type": "boolean"},
    "object": {"type": "object"},
    "array": {"type": "array"},
    "any": {},
    "str_list": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    "json_object_text": {"type": "object"},
    "json_string_text": {"type": ["string", "null"]},
    "parts": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "object"}}]},
    "data_url": {"type": "string"},
    "base64_text": {"type": "string"},
    "result_wrap": {},  # any JSON value (an object, as the API says; null too)
}


def _insert(schema: dict[str, Any], segs: list[str], leaf: dict[str, Any], required: bool) -> None:
    cur = schema
    for s in segs[:-1]:
        cur = cur.setdefault("properties", {}).setdefault(s, {"type": "object"})
    cur.setdefault("properties", {})[segs[-1]] = leaf
    if required:
        req = cur.setdefault("required", [])
        if segs[-1] not in req:
            req.append(segs[-1])


def _object(
    title: str, rows: list[FieldRow], match: dict[str, str | bool] | None = None
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "title": title, "additionalProperties": True}
    for path, const in (match or {}).items():
        _insert(schema, path.split("."), {"const": const}, True)
    for f in rows:
        _insert(schema, f.w.split("."), dict(_JSON[f.type]), f.required)
    return schema


def _camel(s: str) -> str:
    return "".join(w.capitalize() for w in s.replace(".", "_").split("_"))


def wire_schema(p: ProtocolSpec) -> dict[str, Any]:
    defs: dict[str, Any] = {}
    for i, row in enumerate(p.parts):
        name = _camel(f"{row.part}_{'_'.join(map(str, row.match.values()))}_{i}")
        defs[name] = _object(name, row.fields, row.match)
    defs["Tool"] = _object("Tool", p.tool_fields)
    defs["Usage"] = _object("Usage", p.usage_fields)
    defs["RequestFields"] = _object("RequestFields", p.request_fields)
    defs["ResponseFields"] = _object("ResponseFields", p.response_fields)
    return {
        "$defs": defs,
        "title": _camel(p.id) + "Wire",
        "type": "object",
        "properties": {k: {"$ref": f"#/$defs/{k}"} for k in defs},
    }


def render_wire_models(p: ProtocolSpec, source: str) -> str:
    code = generate(
        json.dumps(wire_schema(p)),
        input_file_type=InputFileType.JsonSchema,
        output_model_type=DataModelType.PydanticV2BaseModel,
        target_python_version=PythonVersion.PY_311,
        disable_timestamp=True,
        formatters=[Formatter.BUILTIN],
        use_annotated=False,
        custom_file_header=header(source).rstrip("\n")
        + f'\n"""Pydantic wire models of {p.title} (opt-in validation)."""',
    )
    assert isinstance(code, str)
    return code
