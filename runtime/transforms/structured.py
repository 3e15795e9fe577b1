"""response_format: structured output (canonical ResponseFormat), one helper for every protocol,
driven by its ``response_format`` rows (codec.SETTINGS["format"], codegen/settings.py): the path
of the format type and its wire values, the paths of name / description / schema / strict, the
fields a format needs, a schema in the OpenAPI subset (Gemini responseSchema), the objects whose
other keys ride along for the same protocol (Responses text.verbosity)."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_bool, expect_dict, expect_str
from ..generated.canonical import Request, ResponseFormat
from ._base import Codec, Transform
from ._paths import dig, obj_at, put

__all__ = ["RESPONSE_FORMAT", "openapi_to_json_schema"]

_EXPECT = {"schema": expect_dict, "strict": expect_bool}  # the others are strings


def openapi_to_json_schema(s: Any) -> Any:
    """Gemini's OpenAPI-subset Schema (``type: OBJECT``, ``nullable``) -> JSON Schema."""
    if type(s) is list:
        return [openapi_to_json_schema(x) for x in s]
    if type(s) is not dict:
        return s
    out: dict[str, Any] = {}
    for k, v in s.items():
        if k == "type" and type(v) is str:
            out[k] = v.lower()
        elif k in ("properties", "$defs", "definitions") and type(v) is dict:
            out[k] = {n: openapi_to_json_schema(x) for n, x in v.items()}
        elif k in ("items", "anyOf", "oneOf", "allOf", "not", "additionalProperties"):
            out[k] = openapi_to_json_schema(v)
        elif k != "nullable":
            out[k] = v
    if s.get("nullable") is True and type(out.get("type")) is str:
        out["type"] = [out["type"], "null"]
    return out


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    rule = codec.SETTINGS["format"]
    if w.keys().isdisjoint(rule["top"]):
        return
    tsegs = rule["type"]
    fields = rule["fields"]
    raw = dig(w, tsegs)
    schema = dig(w, fields["schema"]) if "schema" in fields else None
    openapi = rule["schema_openapi"]
    if schema is None and openapi is not None:
        schema = dig(w, openapi)
        if schema is not None:
            schema = openapi_to_json_schema(expect_dict(schema, ".".join(openapi)))
    hints: dict[str, Any] = {}
    for name, (segs, known) in rule["keep"].items():
        obj = dig(w, segs)
        if obj is not None:
            rest = {k: v for k, v in expect_dict(obj, name).items() if k not in known or v is None}
            hints["rest " + name] = rest
            for k, v in rest.items() if not ctx.same else ():
                if v is not None:
                    ctx.loss(
                        f"{name}.{k}",
                        f"field {brief(k)} of {ctx.source} has no equivalent",
                        f"{ctx.target} cannot carry it",
                        "structured_output",
                    )
    if raw is None and schema is None and (rule["unknown"] or dig(w, tsegs[:-1]) is None):
        _add_hints(req, hints)
        return  # no format (a present object without its type is refused below)
    path = ".".join(tsegs)
    ftype = rule["decode"].get(expect_str(raw, path)) if raw is not None else rule["unknown"]
    if ftype is None:
        if rule["unknown"] is None:
            raise InvalidInput(f"unknown {tsegs[-2]} type {brief(raw)}", path=path)
        ftype = rule["unknown"]
    rf = ResponseFormat(type="json_schema" if schema is not None else ftype)
    if rf.type == "json_schema":
        for f, segs in fields.items():
            if segs[:-1] != tsegs[:-1]:  # a sub-object of its own (Chat json_schema) is needed
                expect_dict(dig(w, segs[:-1]), ".".join(segs[:-1]))
            v = schema if f == "schema" else dig(w, segs)
            if v is not None or f in rule["required"]:
                setattr(rf, f, _EXPECT.get(f, expect_str)(v, ".".join(segs)))
    if rule["raw_same"]:  # which keys and values the client sent, for the identity
        wire = hints["format_wire"] = {}
        for segs in (tsegs, *fields.values(), *([openapi] if openapi else [])):
            parent = dig(w, segs[:-1])
            if parent is not None and segs[-1] in parent:
                wire[".".join(segs)] = parent[segs[-1]]
    req.response_format = rf
    _add_hints(req, hints)


def _add_hints(req: Request, hints: dict[str, Any]) -> None:
    if hints:
        req.hints = {**(req.hints or {}), **hints}


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    rf = req.response_format
    if rf is None and (not ctx.same or not req.hints):
        return
    rule = codec.SETTINGS["format"]
    hints = (req.hints or {}) if ctx.same else {}
    if "format_wire" in hints:  # the source's own keys and values (raw_same)
        for path, v in hints["format_wire"].items():
            put(out, tuple(path.split(".")), v)
    elif rf is not None:
        _encode_format(rf, out, rule, ctx)
    for name, (segs, _) in rule["keep"].items():
        rest = hints.get("rest " + name)
        if rest is not None:
            obj = obj_at(out, segs)
            for k, v in rest.items():
                obj.setdefault(k, v)


def _encode_format(rf: ResponseFormat, out: dict[str, Any], rule: dict[str, Any], ctx: Ctx) -> None:
    wire = rule["encode"].get(rf.type)
    schema = rf.type == "json_schema"
    if wire is None or (schema and any(getattr(rf, f) is None for f in rule["required"])):
        if rf.type != "text":  # text is every protocol's default: nothing is lost
            ctx.loss(
                "response_format",
                f"response format {rf.type!r} dropped",
                f"{ctx.target} has no such format" if wire is None else "it needs a schema",
                "structured_output",
            )
        return
    put(out, rule["type"], wire)
    if not schema:
        return
    fields = rule["fields"]
    for f, segs in fields.items():
        v = getattr(rf, f)
        if f == "name" and v is None:
            v = rule["default_name"]
        if v is not None:
            put(out, segs, v)
    for f in ("strict", "name", "description"):  # the fields the target has no path for
        v = getattr(rf, f)
        if f not in fields and v is not None and v is not True:  # strict: always enforced
            ctx.loss(
                f"response_format.{f}",
                f"schema {f} dropped" if v is not False else "strict: false dropped",
                f"{ctx.target} output format has no {f}",
                "structured_output",
            )


RESPONSE_FORMAT = Transform(
    name="response_format",
    doc=__doc__ or "",
    decode_request=_decode,
    encode_request=_encode,
)
