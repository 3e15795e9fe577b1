"""response_format: structured output (canonical ResponseFormat). Codegen compiles each protocol's
``response_format`` rows (codegen/settings_format.py) into ``decode_response_format`` /
``encode_response_format`` in its generated codec, which its compiled pipeline calls where its
``transforms`` row names ``response_format`` (canonical.yaml: ``compiled: response_format``).
What every protocol shares stays here: the OpenAPI subset's conversion to JSON Schema (Gemini
responseSchema), the loss words, and the small steps on the objects whose other keys ride in hints
(Responses text.verbosity), which the reasoning rows use too."""

from __future__ import annotations

from typing import Any

from .._losses import Ctx
from ..generated.canonical import Request, ResponseFormat

__all__ = ["openapi_to_json_schema"]

_FEATURE = "structured_output"


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


# ---------------------------------------------------------------- shared by the compiled rows


def kept_keys(obj: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """The keys of a rows' object that no row reads (and known keys sent as null)."""
    return {k: v for k, v in obj.items() if k not in known or v is None}


def keep_keys(obj: dict[str, Any], rest: dict[str, Any]) -> None:
    """Back to the same protocol: the kept keys, under what the rows wrote."""
    for k, v in rest.items():
        obj.setdefault(k, v)


def add_hints(req: Request, hints: dict[str, Any]) -> None:
    if hints:
        req.hints = {**(req.hints or {}), **hints}


def format_dropped(ftype: str, no_such: bool, ctx: Ctx) -> None:
    if ftype != "text":  # text is every protocol's default: nothing is lost
        ctx.loss(
            "response_format",
            f"response format {ftype!r} dropped",
            f"{ctx.target} has no such format" if no_such else "it needs a schema",
            _FEATURE,
        )


def schema_fields_lost(rf: ResponseFormat, fields: tuple[str, ...], ctx: Ctx) -> None:
    """The schema's fields the target has no path for (strict true: it always enforces)."""
    for f in fields:
        v = getattr(rf, f)
        if v is not None and v is not True:
            ctx.loss(
                f"response_format.{f}",
                f"schema {f} dropped" if v is not False else "strict: false dropped",
                f"{ctx.target} output format has no {f}",
                _FEATURE,
            )
