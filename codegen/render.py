"""Turn the validated spec into Python source text (jinja2 templates, StrictUndefined)."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import jinja2

from .canonical_model import CanonicalType
from .items import items_view
from .load import Spec
from .settings import settings_view, with_settings_keys
from .spec_model import FieldRow, PartRow, ProtocolSpec
from .spec_types import pysrc

TEMPLATES = Path(__file__).parent / "templates"
# canonical fields a transform in runtime/transforms handles instead of a row
TRANSFORM_HANDLED = {
    "Request": {
        "messages",
        "tools",
        "tool_choice",
        "reasoning",
        "response_format",
        "source",
        "ext",
        "hints",
        "parallel_tool_calls",
        "model",
        "stream",
    },
    "Response": {"parts", "finish", "usage", "source", "ext", "hints", "id", "model"},
    "Tool": {"kind", "ext", "hints"},
}
# part fields handled by the encoders generically (ext) or that select rows (owner)
PART_GENERIC = {"ext", "hints", "owner", "id"}


def header(source: str) -> str:
    return (
        f"# Generated from {source} by `make generate` (python -m codegen). Do not edit by hand.\n"
    )


def _pyrepr(v: Any) -> str:
    if isinstance(v, frozenset | set):
        return "{" + ", ".join(json.dumps(x) for x in sorted(v)) + "}" if v else "set()"
    if isinstance(v, list | tuple) and not v:
        return "()" if isinstance(v, tuple) else "[]"
    return repr(v)


def _pytuple(v: list[str]) -> str:
    return "(" + "".join(json.dumps(x) + ", " for x in v) + ")"


@functools.cache
def env() -> jinja2.Environment:
    """One environment, so each template compiles once per run (not once per protocol)."""
    e = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=False,
        autoescape=False,
    )
    e.filters["pyrepr"] = _pyrepr
    e.filters["pytuple"] = _pytuple
    e.filters["upper_snake"] = lambda s: re.sub(r"(?<!^)([A-Z])", r"_\1", s).upper()
    return e


class FieldView:
    """A FieldRow plus what the templates need to write code for it."""

    def __init__(self, row: FieldRow, target: str | None = None) -> None:
        self.row = row
        self.segs = row.w.split(".")
        self.leaf = self.segs[-1]
        self.parent_expr = "".join(f".setdefault({json.dumps(s)}, {{}})" for s in self.segs[:-1])
        self.target = target or row.c
        self.encode_expr = ""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.row, name)


def _ctype_fields(ctype: CanonicalType) -> dict[str, Any]:
    return {f.name: f for f in ctype.fields}


def _dropped(
    ctype: CanonicalType, mapped: set[str], extra_handled: set[str]
) -> list[dict[str, str]]:
    out = []
    for f in ctype.fields:
        if f.name in mapped or f.name in extra_handled or f.feature is None:
            continue
        cond = "" if f.type.startswith("bool") else " is not None"
        out.append({"name": f.name, "feature": f.feature, "cond": cond})
    return out


def _nested_known(paths: list[str]) -> dict[str, set[str]]:
    """Known keys of each known sub-object (one level deep), from dotted wire paths."""
    out: dict[str, set[str]] = {}
    for path in paths:
        segs = path.split(".")
        if len(segs) > 1:
            out.setdefault(segs[0], set()).add(segs[1])
    return out


def _split_ext_expr(w: str, known: str, nested_name: str, nested: dict[str, Any]) -> str:
    """``split_ext`` with its common case (every key known) tested inline, when nothing is nested."""
    if nested:
        return f"split_ext({w}, {known}, {nested_name})"
    return f"None if {known}.issuperset({w}) else split_ext({w}, {known})"


def _missing_expr(segs: tuple[str, ...]) -> str:
    """True when the wire path ``segs`` (one or two keys) is absent or null in ``w``."""
    first = json.dumps(segs[0])
    if len(segs) == 1:
        return f"w.get({first}) is None"
    return f"type(w.get({first})) is not dict or w[{first}].get({json.dumps(segs[1])}) is None"


def _part_row_view(p: ProtocolSpec, row: PartRow, ctype: CanonicalType, fn: str) -> dict[str, Any]:
    fields = [FieldView(f) for f in row.fields]
    literal: dict[str, Any] = {}
    for path, const in row.match.items():
        cur = literal
        segs = path.split(".")
        for s in segs[:-1]:
            cur = cur.setdefault(s, {})
        cur[segs[-1]] = const
    tests = []
    if row.present is not None:
        tests.append(f"{json.dumps(row.present)} in w")
    if row.media is not None:
        mf = next(f for f in row.fields if f.c == "media_type")
        tests.append(
            f"str(dig(w, {json.dumps(mf.w.split('.'))}, path) or '').startswith({json.dumps(row.media)})"
        )
    for path, const in row.match.items():
        segs = path.split(".")
        if len(segs) == 1:
            tests.append(f"w.get({json.dumps(segs[0])}) == {json.dumps(const)}")
        else:
            tests.append(f"dig(w, {json.dumps(segs)}, path) == {json.dumps(const)}")
    mapped = {f.c for f in row.fields}
    has_data_url = any(f.type == "data_url" for f in row.fields)
    if has_data_url:
        mapped |= {"url", "media_type", "data"}
    ctor: list[tuple[str, str]] = []
    names = _ctype_fields(ctype)
    for f in row.fields:
        if f.type == "data_url":
            ctor += [("url", "v_url"), ("media_type", "v_media_type"), ("data", "v_data")]
        else:
            ctor.append((f.c, f"v_{f.c}"))
        if f.type == "parts" and "hints" in names:
            ctor.append(("hints", f"{{'string': True}} if s_{f.c} else None"))
    if "owner" in names and row.feature == "reasoning_replay":
        ctor.append(("owner", "PROTOCOL"))
    has_ext = "ext" in names
    known = {path.split(".")[0] for path in row.match} | {f.segs[0] for f in fields}
    nested = _nested_known([*row.match, *(f.w for f in row.fields)])
    if has_ext:
        ctor.append(
            ("ext", _split_ext_expr("w", f"_KNOWN_{fn.upper()}", f"_NESTED_{fn.upper()}", nested))
        )
    # wire paths the encoder always writes although the source may omit them (or send null)
    shape = [tuple(path.split(".")) for path in row.match]
    shape += [tuple(f.segs) for f in fields if f.type == "json_string_text" and f.required]
    if "hints" in names:
        if any(f.type == "parts" for f in row.fields):
            shape = []  # hints carry the string-content flag instead
        else:
            call = f"wire_shape_hints(w, _SHAPE_{fn.upper()})"
            if shape and all(len(segs) <= 2 for segs in shape):
                # inline test for the common case (every path present and not null)
                missing = " or ".join(_missing_expr(segs) for segs in shape)
                call = f"{call} if {missing} else None"
            elif not shape:
                call = "None"
            ctor.append(("hints", call))
    has_shape = "hints" in names and not any(f.type == "parts" for f in row.fields)
    dropped = _dropped(ctype, mapped, PART_GENERIC)
    return {
        "fn": fn,
        "row": row,
        "when": row.when,
        "fields": fields,
        "literal": literal,
        "test": " and ".join(tests) or "True",
        "ctor": ctor,
        "known": known,
        "nested": nested,
        "shape": tuple(shape),
        "has_shape": has_shape,
        "dropped": dropped,
        "has_ext": has_ext,
        "has_data_url": has_data_url,
    }


def render_codec(spec: Spec, p: ProtocolSpec, source: str, dialect: str | None = None) -> str:
    types = {t.name: t for t in spec.canonical.types}
    part_types = {t.part: t for t in spec.canonical.types if t.part}
    rows_by_kind: dict[str, list[dict[str, Any]]] = {}
    for i, row in enumerate(p.parts):
        view = _part_row_view(p, row, part_types[row.part], f"{row.part}_{i}")
        rows_by_kind.setdefault(row.part, []).append(view)
    kinds = list(rows_by_kind)
    enc_rows_by_kind = {
        k: [r for r in rows if not r["row"].decode_only] for k, rows in rows_by_kind.items()
    }
    # content parts decode by their primary discriminator; tool calls/results may live elsewhere
    # parts without a type field (Gemini) are recognised by the presence of a key, row by row
    presence_rows = [v for rows in rows_by_kind.values() for v in rows if v["row"].present]
    presence_rows.sort(key=lambda v: p.parts.index(v["row"]))
    part_key = next(iter(p.parts[0].match), "")
    part_dispatch: dict[str, str] = {}
    for row in p.parts:
        key, value = next(iter(row.match.items()), ("", ""))
        if key == part_key and not row.present and row.encode_only is None:
            part_dispatch.setdefault(value, row.part)
    content_kinds = [
        k
        for k in kinds
        if any(r.present or next(iter(r.match), "") == part_key for r in p.parts if r.part == k)
    ]
    if p.flags.tool_calls == "message_field":
        content_kinds = [k for k in content_kinds if k != "tool_call"]
        part_dispatch = {v: k for v, k in part_dispatch.items() if k != "tool_call"}

    def enum(table: str) -> dict[str, Any]:
        dec: dict[str, str] = {}
        enc: dict[str, str] = {}
        for r in getattr(p, table):
            if r.only != "encode":
                dec.setdefault(r.raw, r.unified)
            if r.only != "decode":
                enc.setdefault(r.unified, r.raw)
        d = getattr(p.enum_defaults, table)
        defaults = {k: getattr(d, k) for k in ("decode", "encode") if d and getattr(d, k)}
        return {"decode": dec, "encode": enc, "defaults": defaults}

    enums = {
        "finish": enum("finish_reasons"),
        "tool_choice": enum("tool_choice"),
        "role": enum("roles"),
        "error": enum("errors"),
    }
    error_status: dict[str, int] = {}
    for r in p.errors:
        if r.only != "decode" and r.status is not None:
            error_status.setdefault(r.unified, r.status)

    tool_fields = [FieldView(f) for f in p.tool_fields]
    tool_ctor = [(f.c, f"v_{f.c}") for f in p.tool_fields]
    tool_known = {f.w.split(".")[0] for f in p.tool_fields}
    tool_nested = _nested_known([f.w for f in p.tool_fields])
    if p.tool_wrapper:
        tool_ctor.append(("ext", "split_ext(outer, _KNOWN_TOOL_OUTER, _NESTED_TOOL_OUTER)"))
        tool_ctor.append(
            (
                "hints",
                'wire_shape_hints(outer, (("type",),)) if outer.get("type") is None else None',
            )
        )
    else:
        tool_ctor.append(("ext", _split_ext_expr("w", "_KNOWN_TOOL", "_NESTED_TOOL", tool_nested)))
        if p.tool_type and "type" not in tool_known:
            # an explicit `type: <tool_type>` is optional on the wire: a hint, never an extension
            tool_known.add("type")
            tool_ctor.append(("hints", '{"type": w["type"]} if "type" in w else None'))
    tool = {
        "outer_known": sorted({"type", p.tool_wrapper}) if p.tool_wrapper else [],
        "type_hint": bool(p.tool_type and not p.tool_wrapper and "hints" in dict(tool_ctor)),
        "nested": tool_nested,
        "fields": tool_fields,
        "ctor": tool_ctor,
        "known": tool_known,
        "dropped": _dropped(
            types["Tool"],
            {f.c for f in p.tool_fields},
            # a top-level strict switch for all tools (tool_choice_rule.strict_path)
            TRANSFORM_HANDLED["Tool"] | ({"strict"} if p.tool_choice_rule.strict_path else set()),
        ),
    }

    def top(rows: list[FieldRow], tname: str) -> dict[str, Any]:
        fields = [FieldView(f) for f in rows]
        return {
            "fields": fields,
            "row_keys": {f.segs[0] for f in fields} | {a for f in rows for a in f.aliases},
            "nested": _nested_known([f.w for f in rows]),
            "wire_names": {f.c: f.w for f in rows if "." not in f.w},
            "dropped": _dropped(
                types[tname], {f.c for f in rows}, TRANSFORM_HANDLED[tname] | set(p.implicit)
            ),
        }

    usage_targets = {"input": "input_total"}
    usage_fields = []
    usage_extra = []
    for f in p.usage_fields:
        v = FieldView(f, usage_targets.get(f.c, f.c))
        if f.c == "input":
            v.encode_expr = (
                "u.input_total"
                if p.flags.usage_input_includes_cache
                else "u.input_total - u.input_cache_read - u.input_cache_write"
            )
        elif f.c == "total":
            v.encode_expr = "u.input_total + u.output_total"
            usage_extra.append(v)
            continue
        elif f.c == "output_total" and not p.flags.usage_output_includes_reasoning:
            v.encode_expr = "u.output_total - u.output_reasoning"
        else:
            v.encode_expr = f"u.{f.c}"
        usage_fields.append(v)

    return (
        env()
        .get_template("codec.py.j2")
        .render(
            header=header(source),
            p=p,
            dialect=dialect,
            reasoning_details=_reasoning_details(p),
            items=items_view(p),
            flags=pysrc(p.flags),
            http=pysrc(p.http),
            kinds=kinds,
            part_types=part_types,
            rows_by_kind=rows_by_kind,
            enc_rows_by_kind=enc_rows_by_kind,
            part_key=part_key,
            part_dispatch=part_dispatch,
            presence_rows=presence_rows,
            native_parts=p.native_parts,
            content_kinds=content_kinds,
            enums=enums,
            error_status=error_status,
            error_rows=tuple((r.raw, r.status, r.unified) for r in p.errors if r.only != "encode"),
            tool=tool,
            request=with_settings_keys(
                top(p.request_fields, "Request"), p.response_format, p.reasoning
            ),
            settings=settings_view(p.response_format, p.reasoning),
            response=top(p.response_fields, "Response"),
            usage={
                "fields": usage_fields,
                "extra": usage_extra,
                "carried": {f.target for f in usage_fields},
            },
        )
    )


def _reasoning_details(p: ProtocolSpec) -> dict[str, Any] | None:
    """The reasoning_details rows as plain data: owners both ways, items by wire type."""
    rd = p.reasoning_details
    if rd is None:
        return None
    return {
        "field": rd.field,
        "type_key": rd.type_key,
        "owner_key": rd.owner_key,
        "id_key": rd.id_key,
        "unknown_owner": rd.unknown_owner,
        "index_key": rd.index_key,
        "owners": {o.format: (o.owner, o.signature_in) for o in rd.owners},
        "formats": {o.owner: o.format for o in rd.owners},
        "text_items": {o.owner: o.text_item for o in rd.owners if o.text_item},
        "items": {r.type: r.model_dump(exclude={"type"}) for r in rd.items},
    }


def render_canonical(spec: Spec, source: str) -> str:
    c = spec.canonical
    error_enum = next(e for e in c.enums if e.name == "ErrorType")
    return (
        env()
        .get_template("canonical.py.j2")
        .render(
            header=header(source),
            spec=c,
            error_enum=error_enum,
            parts=[t.name for t in c.types if t.part],
            events=[t.name for t in c.types if t.event],
        )
    )
