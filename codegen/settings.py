"""The spec language, protocols/*.yaml request-settings sections: ``response_format:`` (structured
output, canonical ResponseFormat) and ``reasoning:`` (ReasoningConfig). Rows give wire paths and
value tables; codegen/settings_format.py and settings_reasoning.py compile them into each codec's
``decode_response_format`` / ``encode_response_format`` and ``decode_reasoning_config`` /
``encode_reasoning_config``, so no protocol has settings code of its own. This module holds the row
models and what codegen refuses in them (a row the compiled steps could not write is refused too).

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


# canonical ReasoningConfig.mode values (spec/canonical.yaml documents them on the field)
MODES = ("enabled", "adaptive", "disabled")


class ReasoningRows(Strict):
    """The reasoning configuration on the wire: where mode, budget, effort and summary sit and
    which values the protocol knows. Every path sits in the body or in an ``ext`` object."""

    mode: str | None = Field(None, description="path of the mode (inside an ext object)")
    modes: dict[str, str] = Field(
        default_factory=dict,
        description="canonical mode -> wire value; several may share one (the first decodes it)",
    )
    budget: str | None = Field(None, description="path of the token budget")
    budget_modes: dict[str, int] = Field(
        default_factory=dict,
        description="canonical mode -> the budget value saying it (Gemini: disabled 0, "
        "adaptive -1; any other negative budget decodes as adaptive)",
    )
    budget_required: bool = Field(
        False, description="an enabled mode always carries a budget (the medium one by default)"
    )
    budget_below: str | None = Field(
        None, description="top-level request key of a limit the budget must stay below"
    )
    budget_min: int = Field(
        0,
        ge=0,
        description="the smallest budget the protocol takes (Anthropic 1024): a budget lowered "
        "below the budget_below limit (to half of it) is not lowered under it",
    )
    effort: str | None = Field(None, description="path of the effort")
    efforts: list[str] | None = Field(
        None,
        description="the wire efforts (read case-insensitively, spelling kept); another effort "
        "is sent as its budget. None: any effort",
    )
    effort_map: dict[str, str] = Field(
        default_factory=dict,
        description="canonical effort -> the wire effort sent for it (reported: Chat max -> high)",
    )
    effort_needs_mode: bool = Field(
        False,
        description="the effort is written only beside a mode the source gave (Anthropic "
        "output_config.effort); without one an effort is sent as its budget",
    )
    one_amount: bool = Field(
        False,
        description="the budget and the effort exclude each other (Gemini: thinkingBudget or "
        "thinkingLevel): given both, the budget is sent and the effort reported",
    )
    summary: str | None = Field(None, description="path of the reasoning summary setting")
    summary_bool: bool = Field(
        False, description="the summary path is a switch (Gemini includeThoughts): true <-> auto"
    )
    ext: list[str] = Field(
        default_factory=list,
        description="objects holding the paths; their other keys (and known keys sent as null) "
        "ride in ReasoningConfig.ext under the object's last key: back to the same protocol, "
        "reported for another",
    )

    def paths(self) -> list[str]:
        return [p for p in (self.mode, self.budget, self.effort, self.summary) if p is not None]


def reasoning_problems(rows: ReasoningRows) -> list[tuple[Loc, str]]:
    loc: Loc = ("reasoning",)
    out: list[tuple[Loc, str]] = []
    for key, table in (("modes", rows.modes), ("budget_modes", rows.budget_modes)):
        for m in table:
            if m not in MODES:
                out.append(
                    ((*loc, key, m), f"{m!r} is not a mode (expected one of {', '.join(MODES)})")
                )
    needs = {
        "modes": ("mode", bool(rows.modes)),
        "effort_needs_mode": ("mode", rows.effort_needs_mode),
        "budget_modes": ("budget", bool(rows.budget_modes)),
        "budget_required": ("budget", rows.budget_required),
        "budget_below": ("budget", rows.budget_below is not None),
        "efforts": ("effort", rows.efforts is not None),
        "effort_map": ("effort", bool(rows.effort_map)),
        "summary_bool": ("summary", rows.summary_bool),
    }
    for key, (path, used) in needs.items():
        if used and getattr(rows, path) is None:
            out.append(((*loc, key), f"{key} needs a {path} path"))
    if rows.one_amount and (rows.budget is None or rows.effort is None):
        out.append(((*loc, "one_amount"), "one_amount needs a budget path and an effort path"))
    if rows.budget_min and rows.budget_below is None:
        out.append(((*loc, "budget_min"), "budget_min needs budget_below (the limit it bounds)"))
    named = rows.mode is not None and set(rows.modes) <= set(MODES)  # (else: reported above)
    for m in ("enabled", "adaptive") if named else ():  # what the compiled rows write
        if m not in rows.modes:
            out.append(((*loc, "modes"), f"no wire value for the mode {m!r}"))
    for c, w in rows.effort_map.items():
        if rows.efforts is not None and w not in rows.efforts:
            out.append(
                (
                    (*loc, "effort_map", c),
                    f"{w!r} is not one of efforts ({', '.join(rows.efforts)})",
                )
            )
    if not rows.paths():
        out.append((loc, "no mode, budget or effort path"))
    for key in ("mode", "budget", "effort", "summary"):
        p = getattr(rows, key)
        parent = p.rpartition(".")[0] if p is not None else ""
        if parent and parent not in rows.ext or (key == "mode" and p is not None and not parent):
            out.append(
                (
                    (*loc, key),
                    f"{p!r} is not inside an object of ext ({', '.join(rows.ext) or 'none'})",
                )
            )
    for i, obj in enumerate(rows.ext):
        if not any(p.rpartition(".")[0] == obj for p in rows.paths()):
            out.append(((*loc, "ext", i), f"{obj!r} holds none of the paths"))
    return out


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
    if "json_schema" in rows.types and "schema" not in rows.fields:  # cannot be compiled
        out.append(
            (
                (*loc, "types", "json_schema"),
                "a json_schema format needs a schema path in fields (expected fields.schema)",
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


def known_keys(
    objs: list[str], paths: list[str]
) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each object (a dotted path) -> (its path split, the keys the rows give inside it)."""
    return {
        obj: (
            _segs(obj),
            tuple(
                sorted({p[len(obj) + 1 :].split(".")[0] for p in paths if p.startswith(obj + ".")})
            ),
        )
        for obj in objs
    }


def with_settings_keys(
    request: dict[str, Any], fmt: FormatRows | None, reasoning: ReasoningRows | None
) -> dict[str, Any]:
    """The request view of codegen.render with the keys the settings rows own: top-level keys,
    and keys inside objects the field rows share (Gemini generationConfig), so nothing of
    theirs rides in ext."""
    nested = request["nested"]
    paths = (_paths(fmt) if fmt is not None else []) + (reasoning.paths() if reasoning else [])
    for p in paths:
        segs = _segs(p)
        request["row_keys"].add(segs[0])
        if len(segs) > 1 and segs[0] in nested:
            nested[segs[0]].add(segs[1])
    return request
