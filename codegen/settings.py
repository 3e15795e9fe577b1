"""The spec language, protocols/*.yaml request-settings sections: ``response_format:`` (structured
output, canonical ResponseFormat). Rows give wire paths and value tables; the generic helper in
runtime/transforms/structured.py reads them from the codec's ``SETTINGS`` (plain data built
here), so no protocol has settings code of its own.

Paths are dotted from the request body (``response_format.json_schema.name``)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .source import Loc
from .spec_http import Strict

# canonical ResponseFormat.type values (spec/canonical.yaml documents them on the field)
FORMAT_TYPES = ("text", "json_object", "json_schema")


class FormatRows(Strict):
    """Structured output on the wire: the format type's path and values, the paths of the
    ResponseFormat fields. A field with no path is reported when a schema carries it."""

    type: str = Field(description="path of the format type (Gemini: the MIME type)")
    types: dict[str, str] = Field(
        description="canonical format type -> wire value; several may share one wire value (the "
        "first decodes it; a schema makes any format json_schema). A type without a row is "
        "dropped and reported (text silently: it is the default)"
    )
    unknown: str | None = Field(
        None,
        description="canonical type an unknown wire value decodes as (the type may then be "
        "absent too); none: an unknown value is refused and a present object needs its type",
    )
    fields: dict[str, str] = Field(
        description="ResponseFormat field -> path, read and written for json_schema formats "
        "(in this order on the wire)"
    )
    required: list[str] = Field(
        default_factory=list,
        description="fields a json_schema format must have: refused on decode when absent, "
        "dropped (and reported) on encode",
    )
    default_name: str | None = Field(None, description="name written for a schema without one")
    schema_openapi: str | None = Field(
        None,
        description="path of a schema in the OpenAPI subset (Gemini responseSchema), accepted "
        "on decode when the JSON Schema path is absent and converted to JSON Schema",
    )
    keep: list[str] = Field(
        default_factory=list,
        description="objects on the paths whose other keys (and known keys sent as null) ride "
        "in hints: written back to the same protocol, reported for another (text.verbosity)",
    )
    raw_same: bool = Field(
        False,
        description="the wire values at the paths go back as they came to the same protocol "
        "(Gemini: which schema key and MIME type the client used)",
    )


def _paths(rows: FormatRows) -> list[str]:
    return [
        rows.type,
        *rows.fields.values(),
        *([rows.schema_openapi] if rows.schema_openapi else []),
    ]


def format_problems(rows: FormatRows, fields: set[str]) -> list[tuple[Loc, str]]:
    """What is wrong with a protocol's ``response_format`` rows (``fields``: ResponseFormat's
    fields in canonical.yaml), as (location, message) pairs."""
    loc: Loc = ("response_format",)
    out: list[tuple[Loc, str]] = []
    for t in rows.types:
        if t not in FORMAT_TYPES:
            out.append(
                (
                    (*loc, "types", t),
                    f"{t!r} is not a format type (expected one of {', '.join(FORMAT_TYPES)})",
                )
            )
    if rows.unknown is not None and rows.unknown not in rows.types:
        out.append(
            (
                (*loc, "unknown"),
                f"{rows.unknown!r} has no row in types (expected one of {', '.join(rows.types)})",
            )
        )
    settable = sorted(fields - {"type"})
    for f in rows.fields:
        if f not in settable:
            out.append(
                (
                    (*loc, "fields", f),
                    f"ResponseFormat has no field {f!r} (expected one of {', '.join(settable)})",
                )
            )
    for i, f in enumerate(rows.required):
        if f not in rows.fields:
            out.append(
                (
                    (*loc, "required", i),
                    f"{f!r} has no path in fields (expected one of {', '.join(rows.fields)})",
                )
            )
    paths = _paths(rows)
    seen: set[str] = set()
    for p in paths:
        if p in seen:
            out.append((loc, f"two rows write the path {p!r}"))
        seen.add(p)
    for i, obj in enumerate(rows.keep):
        if not any(p.startswith(obj + ".") for p in paths):
            out.append(((*loc, "keep", i), f"{obj!r} is not an object on a path of these rows"))
    return out


def _segs(path: str) -> tuple[str, ...]:
    return tuple(path.split("."))


def settings_view(rows: FormatRows | None) -> dict[str, Any]:
    """The codec's SETTINGS constant: paths split, the decode table built, the keys each kept
    object knows."""
    if rows is None:
        return {"format": None}
    decode: dict[str, str] = {}
    for c, w in rows.types.items():
        decode.setdefault(w, c)
    paths = _paths(rows)
    known = {
        obj: sorted({p[len(obj) + 1 :].split(".")[0] for p in paths if p.startswith(obj + ".")})
        for obj in rows.keep
    }
    fmt = {
        "type": _segs(rows.type),
        "encode": dict(rows.types),
        "decode": decode,
        "unknown": rows.unknown,
        "fields": {f: _segs(p) for f, p in rows.fields.items()},
        "required": tuple(rows.required),
        "default_name": rows.default_name,
        "schema_openapi": _segs(rows.schema_openapi) if rows.schema_openapi else None,
        "keep": {obj: (_segs(obj), tuple(keys)) for obj, keys in known.items()},
        "raw_same": rows.raw_same,
    }
    return {"format": fmt}


def with_settings_keys(request: dict[str, Any], rows: FormatRows | None) -> dict[str, Any]:
    """The request view of codegen.render with the keys the settings rows own: top-level keys,
    and keys inside objects the field rows share (Gemini generationConfig), so nothing of
    theirs rides in ext."""
    nested = request["nested"]
    for p in _paths(rows) if rows is not None else ():
        segs = _segs(p)
        request["row_keys"].add(segs[0])
        if len(segs) > 1 and segs[0] in nested:
            nested[segs[0]].add(segs[1])
    return request
