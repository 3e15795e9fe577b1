"""Turn the validated spec into Python source text (jinja2 templates, StrictUndefined)."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import jinja2

from .envelope_code import envelope_view
from .errors import error_view, wire_statuses
from .items import items_code
from .load import Spec
from .messages_flat import flat_messages_code, text_block_keys
from .part_walk import part_walk_view
from .pipeline import pipeline_view
from .reasoning_items import carriers, reasoning_items_view
from .row_views import (
    FieldView,
    dropped_fields,
    loss_reasons,
    nested_known,
    part_row_view,
    split_ext_expr,
)
from .settings import with_settings_keys
from .settings_compile import compiled_settings
from .snake_case import snake_case_view
from .spec_model import FieldRow, ProtocolSpec
from .spec_types import pysrc
from .tool_choice import tool_choice_view
from .turns_code import turns_view
from .wire_shape import shape_reader, shape_writer

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


def render_codec(spec: Spec, p: ProtocolSpec, source: str, dialect: str | None = None) -> str:
    types = {t.name: t for t in spec.canonical.types}
    part_types = {t.part: t for t in spec.canonical.types if t.part}
    rows_by_kind: dict[str, list[dict[str, Any]]] = {}
    for i, row in enumerate(p.parts):
        view = part_row_view(p, row, part_types[row.part], f"{row.part}_{i}")
        rows_by_kind.setdefault(row.part, []).append(view)
    kinds = list(rows_by_kind)
    enc_rows_by_kind = {
        k: [r for r in rows if not r["row"].decode_only] for k, rows in rows_by_kind.items()
    }
    # content parts decode by their primary discriminator; tool calls/results may live elsewhere
    # parts without a type field (Gemini) are recognised by the presence of a key, row by row
    presence_rows = [
        v
        for rows in rows_by_kind.values()
        for v in rows
        if v["row"].present and not v["row"].encode_only
    ]
    presence_rows.sort(key=lambda v: p.parts.index(v["row"]))
    part_key = next(iter(p.parts[0].match), "")
    part_dispatch: dict[str, str] = {}
    for row in p.parts:
        key, value = next(iter(row.match.items()), ("", ""))
        if key == part_key and type(value) is str and not row.present and not row.encode_only:
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

    tool_fields = [FieldView(f) for f in p.tool_fields]
    tool_ctor = [(f.c, f"v_{f.c}") for f in p.tool_fields]
    tool_known = {f.w.split(".")[0] for f in p.tool_fields}
    tool_nested = nested_known([f.w for f in p.tool_fields])
    if p.tool_wrapper:
        tool_ctor.append(("ext", "split_ext(outer, _KNOWN_TOOL_OUTER, _NESTED_TOOL_OUTER)"))
        tool_ctor.append(
            (
                "hints",
                '_shape_tool(outer) if outer.get("type") is None else None',
            )
        )
    else:
        tool_ctor.append(("ext", split_ext_expr("w", "_KNOWN_TOOL", "_NESTED_TOOL", tool_nested)))
        if p.tool_type and "type" not in tool_known:
            # an explicit `type: <tool_type>` is optional on the wire: a hint, never an extension
            tool_known.add("type")
            tool_ctor.append(("hints", '{"type": w["type"]} if "type" in w else None'))
    if p.tool_schema_openapi:  # the parameters as sent, for the same protocol
        tool_known.add(p.tool_schema_openapi)
        tool_ctor.append(("hints", '{"openapi": v_openapi} if v_openapi is not None else None'))
    openapi = _tool_openapi(p)
    tool = {
        "outer_known": sorted({"type", p.tool_wrapper}) if p.tool_wrapper else [],
        # the wrapper's type, absent or null, goes back so to the same protocol
        "shape_reader": shape_reader("_shape_tool", (("type",),)),
        "shape_writer": shape_writer((("type",),)),
        "type_hint": bool(p.tool_type and not p.tool_wrapper and "hints" in dict(tool_ctor)),
        "nested": tool_nested,
        "fields": tool_fields,
        "ctor": tool_ctor,
        "known": tool_known,
        "openapi": openapi,
        "dropped": dropped_fields(
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
            "nested": nested_known([f.w for f in rows]),
            # fields a same-protocol encode puts back in the form they came in (a string for a
            # string list, a top-level alias), or that go back to it alone (same_only)
            "wire_forms": any(
                f.type == "str_list" or f.same_only or (f.aliases and "." not in f.w) for f in rows
            ),
            "dropped": dropped_fields(
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

    request = with_settings_keys(top(p.request_fields, "Request"), p.response_format, p.reasoning)
    response = top(p.response_fields, "Response")
    # the features of the part types encode_part has no encoder for (NativePart: its own rule)
    unencoded = sorted(
        {t.feature for k, t in part_types.items() if k not in content_kinds and t.feature}
        - {part_types["native"].feature}
    )
    request["row_keys"].update(p.items.state if p.items else ())  # read by responses_input
    turns, flat = turns_view(p), flat_messages_code(p)
    if turns is not None:  # the compiled turn walk's list and system prompt
        request["row_keys"].update((turns["key"], turns["system_key"]))
    if flat is not None:  # the compiled flat messages' list
        request["row_keys"].add(flat["list_key"])
    rows = spec.canonical.transform_rows()
    compiled_rows = {rows[n].compiled for n in p.transforms if n in rows}
    tools = "tools" in compiled_rows
    if tools:  # the compiled tools walk's list
        request["row_keys"].add("tools")
    return (
        env()
        .get_template("codec.py.j2")
        .render(
            header=header(source),
            p=p,
            dialect=dialect,
            carrier=carriers(spec, p),
            ri=reasoning_items_view(p),
            items=items_code(p),
            flat=flat,
            turns=turns,
            tools=tools,
            message_response="message_response" in compiled_rows,
            text_keys=text_block_keys(p),
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
            walk=part_walk_view(p),
            base64_rows=any(f.type == "base64_text" for r in p.parts for f in r.fields),
            content_kinds=content_kinds,
            enums={k: t for k, t in enums.items() if k != "finish"},  # finish: the rule's own
            envelope=envelope_view(spec, p, enums["finish"]),
            error_status=wire_statuses(p),
            errors=error_view(p, _error_statuses(spec), set(_error_statuses(spec, generic=True))),
            tool=tool,
            tc=tool_choice_view(p) if "ToolChoice" in types else None,
            request=request,
            compiled=compiled_settings(p.response_format, p.reasoning),
            response=response,
            why=loss_reasons(
                p,
                enc_rows_by_kind,
                tool["dropped"] + request["dropped"] + response["dropped"] + openapi["lost"],
                unencoded,
            ),
            why_part=unencoded,
            snake_case=snake_case_view(p),
            pipeline=pipeline_view(spec.canonical, p),
            usage={
                "fields": usage_fields,
                "extra": usage_extra,
                "carried": {f.target for f in usage_fields},
            },
        )
    )


def _error_statuses(spec: Spec, generic: bool = False) -> dict[str, int]:
    """canonical ErrorType -> its HTTP status (canonical.yaml); ``generic``: only the types a
    status refines."""
    enum = next((e for e in spec.canonical.enums if e.name == "ErrorType"), None)
    items = enum.items() if enum else []
    return {v.value: v.status for v in items if v.status and (v.generic or not generic)}


def render_canonical(spec: Spec, source: str) -> str:
    c = spec.canonical
    return (
        env()
        .get_template("canonical.py.j2")
        .render(
            header=header(source),
            spec=c,
            parts=[t.name for t in c.types if t.part],
            events=[t.name for t in c.types if t.event],
        )
    )


def _tool_openapi(p: ProtocolSpec) -> dict[str, Any]:
    """The tool_schema_openapi row as decode_tool / encode_tool use it: its key, the parameters
    row's key that wins when a tool sends both (``wins``), and the feature that loss reports."""
    row = next((f for f in p.tool_fields if f.c == "parameters"), None)
    if not p.tool_schema_openapi or row is None or row.feature is None:
        return {"lost": []}  # (the check refuses a row with no parameters row or feature)
    return {
        "key": p.tool_schema_openapi,
        "wins": row.w,
        "feature": row.feature,
        "lost": [{"feature": row.feature}],
    }
