"""response_format: structured output as Chat's ``response_format`` ({type: text |
json_object | json_schema, json_schema: {name, schema, strict, description}}). The bare
{type: json_schema, schema} object Anthropic keeps in output_config.format shares the helpers."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_bool, expect_dict, expect_str
from ..generated.canonical import Request, ResponseFormat
from ._base import Codec, Transform


def decode_format_object(fmt: dict[str, Any], path: str) -> ResponseFormat:
    t = expect_str(fmt.get("type"), path + ".type")
    if t != "json_schema":
        raise InvalidInput(f"unknown format type {brief(t)}", path=path + ".type")
    return ResponseFormat(
        type="json_schema", schema=expect_dict(fmt.get("schema"), path + ".schema")
    )


def encode_format_object(
    rf: ResponseFormat, ctx: Ctx, *, allow_name: bool
) -> dict[str, Any] | None:
    if rf.type != "json_schema" or rf.schema is None:
        if rf.type != "text":
            ctx.loss(
                "response_format",
                f"response format {rf.type!r} dropped",
                f"{ctx.target} supports json_schema only",
                "structured_output",
            )
        return None
    if not allow_name:
        if rf.strict is False:
            ctx.loss(
                "response_format.strict",
                "strict: false dropped",
                "the target always enforces the schema",
                "structured_output",
            )
        for field in ("name", "description"):
            if getattr(rf, field) is not None:
                ctx.loss(
                    f"response_format.{field}",
                    f"schema {field} dropped",
                    f"{ctx.target} output format has no {field}",
                    "structured_output",
                )
    return {"type": "json_schema", "schema": rf.schema}


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    rf = w.get("response_format")
    if rf is None:
        return
    rf = expect_dict(rf, "response_format")
    t = expect_str(rf.get("type"), "response_format.type")
    if t == "json_schema":
        js = expect_dict(rf.get("json_schema"), "response_format.json_schema")
        strict = js.get("strict")
        desc = js.get("description")
        req.response_format = ResponseFormat(
            type=t,
            name=expect_str(js.get("name"), "response_format.json_schema.name")
            if js.get("name") is not None
            else None,
            schema=expect_dict(js.get("schema"), "response_format.json_schema.schema")
            if js.get("schema") is not None
            else None,
            strict=expect_bool(strict, "response_format.json_schema.strict")
            if strict is not None
            else None,
            description=expect_str(desc, "response_format.json_schema.description")
            if desc is not None
            else None,
        )
    elif t in ("text", "json_object"):
        req.response_format = ResponseFormat(type=t)
    else:
        raise InvalidInput(f"unknown response_format type {brief(t)}", path="response_format.type")


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    rf = req.response_format
    if rf is None:
        return
    if rf.type != "json_schema":
        out["response_format"] = {"type": rf.type}
        return
    js: dict[str, Any] = {"name": rf.name or "response"}
    if rf.description is not None:
        js["description"] = rf.description
    if rf.schema is not None:
        js["schema"] = rf.schema
    if rf.strict is not None:
        js["strict"] = rf.strict
    out["response_format"] = {"type": "json_schema", "json_schema": js}


RESPONSE_FORMAT = Transform(
    name="response_format",
    doc=__doc__ or "",
    request_keys=frozenset({"response_format"}),
    decode_request=_decode,
    encode_request=_encode,
)
