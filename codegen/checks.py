"""Cross-file checks pydantic cannot do. Every name a row uses must exist in spec/canonical.yaml,
every row must be the only one for its key, wire types must agree with canonical types, and every
canonical enum value must encode. Each problem is recorded on its SourceFile with the row's line."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .canonical_model import CanonicalSpec
from .checks_parts import part_row_problems
from .envelope import envelope_problems
from .envelope_code import compile_problems
from .errors import error_shape_problems
from .items import check_items
from .messages_flat import check_flat_messages
from .part_walk import part_walk_problems
from .reasoning_items import check_reasoning_items
from .settings import format_problems, reasoning_problems
from .snake_case import snake_case_problems
from .source import Loc, SourceFile
from .spec_model import WIRE_TYPES_FOR, EnumRow, FieldRow, ProtocolSpec
from .spec_turns import turns_problems
from .stream_checks import stream_problems
from .tool_choice import tool_choice_problems
from .tool_entries import tool_entries_problems
from .transform_rows import canonical_transform_problems, protocol_transform_problems
from .turns_code import check_turns

# protocol enum table -> the canonical enum its `unified` values come from
ENUM_TABLES = {
    "finish_reasons": "FinishReason",
    "tool_choice": "ToolChoiceMode",
    "roles": "Role",
    "errors": "ErrorType",
}
# field row lists -> the canonical type their `c` names a field of
FIELD_LISTS = {
    "request_fields": "Request",
    "response_fields": "Response",
    "tool_fields": "Tool",
    "usage_fields": "Usage",
}
# usage rows that name no Usage field: `input` (total or uncached per flags) and `total`
USAGE_VIRTUAL = {"input": "int", "total": "int"}


def _base(ctype: str) -> str:
    return ctype.removesuffix(" | None")


def _one_of(names: Iterable[str]) -> str:
    return f"(expected one of {', '.join(sorted(names))})"


def _unique(src: SourceFile, loc: Loc, items: list[Any], key: Any, what: str) -> None:
    """Refuse a second item with the same ``key(item)`` (None: not keyed) in the list at loc;
    ``what`` names it, ``{k!r}`` standing for the key."""
    first: dict[Any, int] = {}
    for i, item in enumerate(items):
        k = key(item)
        if k is None:
            continue
        if k in first:
            line = src.lines.get((*loc, first[k]), 0)
            src.error(
                (*loc, i), f"{what.format(k=k)} again (first at line {line}, {loc[-1]}[{first[k]}])"
            )
        else:
            first[k] = i


# names a canonical field type may use besides the spec's own types
TYPE_WORDS = {"str", "int", "float", "bool", "dict", "list", "Any", "None", "Part", "StreamEvent"}


def check_canonical(c: CanonicalSpec, src: SourceFile) -> None:
    _unique(src, ("features",), c.features, lambda f: f.id, "feature {k!r}")
    _unique(src, ("enums",), c.enums, lambda e: e.name, "enum {k!r}")
    _unique(src, ("types",), c.types, lambda t: t.name, "type {k!r}")
    for loc, msg in canonical_transform_problems(c):
        src.error(loc, msg)
    for i, e in enumerate(c.enums):
        _unique(src, ("enums", i, "values"), e.items(), lambda v: v.value, "value {k!r}")
    for what, needed, have in (
        ("enums", ENUM_TABLES.values(), {e.name for e in c.enums}),
        ("types", FIELD_LISTS.values(), {t.name for t in c.types}),
    ):
        missing = [n for n in needed if n not in have]
        if missing:
            src.error((what,), f"missing {', '.join(missing)} (the protocol rows map to them)")
    _check_budgets(c, src)
    known = TYPE_WORDS | {t.name for t in c.types}
    for i, t in enumerate(c.types):
        _unique(src, ("types", i, "fields"), t.fields, lambda f: f.name, "field {k!r}")
        for j, f in enumerate(t.fields):
            unknown = [w for w in re.findall(r"[A-Za-z_]\w*", f.type) if w not in known]
            if unknown:
                src.error(
                    ("types", i, "fields", j, "type"),
                    f"unknown type {unknown[0]!r} (a type of canonical.yaml or one of "
                    f"{', '.join(sorted(TYPE_WORDS))})",
                )


def _check_budgets(c: CanonicalSpec, src: SourceFile) -> None:
    """The thinking-budget rule: budgets ascending (a budget converts to the smallest effort
    covering it), the default and unknown efforts rows of the table."""
    efforts = list(c.effort_budgets)
    for prev, (effort, budget) in zip(efforts, list(c.effort_budgets.items())[1:], strict=False):
        if budget <= c.effort_budgets[prev]:
            src.error(
                ("effort_budgets", effort),
                f"{budget} is not above {prev}'s {c.effort_budgets[prev]} (budgets ascend)",
            )
    for key in ("effort_default", "effort_unknown"):
        if getattr(c, key) not in c.effort_budgets:
            src.error(
                (key,),
                f"{getattr(c, key)!r} is not an effort of effort_budgets "
                f"(expected one of {', '.join(efforts)})",
            )


class _ProtocolChecks:
    def __init__(self, c: CanonicalSpec, p: ProtocolSpec, src: SourceFile) -> None:
        self.c, self.p, self.src = c, p, src
        self.features = {f.id for f in c.features}
        self.types = {t.name: t for t in c.types}
        self.parts = {t.part: t for t in c.types if t.part}
        self.enums = {e.name: [v.value for v in e.items()] for e in c.enums}

    def feature(self, loc: Loc, fid: str | None) -> None:
        if fid is not None and fid not in self.features:
            self.src.error(loc, f"unknown feature {fid!r} (expected a feature of canonical.yaml)")

    def fields(self, loc: Loc, rows: list[FieldRow], tname: str, virtual: dict[str, str]) -> None:
        ctypes = {f.name: f.type for f in self.types[tname].fields} | virtual
        for j, f in enumerate(rows):
            self.feature((*loc, j, "feature"), f.feature)
            ctype = ctypes.get(f.c)
            if ctype is None:
                self.src.error((*loc, j, "c"), f"{tname} has no field {f.c!r} {_one_of(ctypes)}")
                continue
            allowed = WIRE_TYPES_FOR.get(_base(ctype), set())
            if f.type not in allowed:
                fix = f"one of {', '.join(sorted(allowed))}" if allowed else "a transform"
                self.src.error(
                    (*loc, j, "type"),
                    f"wire type {f.type!r} cannot carry {tname}.{f.c} ({ctype}); it needs {fix}",
                )
            if f.aliases and loc != ("request_fields",):  # the request template alone reads them
                self.src.error((*loc, j, "aliases"), "only a request row reads another wire key")
            for k, a in enumerate(f.aliases):
                if "." in a:
                    self.src.error(
                        (*loc, j, "aliases", k), "an alias is a top-level key, not a path"
                    )
            if f.default is not None and (f.required or _base(ctype) != "str" or f.type != "str"):
                self.src.error(
                    (*loc, j, "default"), "a default is for an optional str row of a str field"
                )
        _unique(self.src, loc, rows, lambda f: f.c, "a row for c {k!r}")

    def enum_table(self, table: str) -> None:
        enum_name = ENUM_TABLES[table]
        allowed = self.enums[enum_name]
        rows: list[EnumRow] = getattr(self.p, table)
        for i, r in enumerate(rows):
            if r.unified not in allowed:
                self.src.error(
                    (table, i, "unified"),
                    f"{r.unified!r} is not a {enum_name} {_one_of(allowed)}",
                )
        _unique(self.src, (table,), rows, lambda r: tuple(r.model_dump().items()), "the same row")
        status = table == "errors"  # error rows decode per (raw type, HTTP status)

        def dec(r: EnumRow) -> Any:
            return None if r.only == "encode" else ((r.raw, r.status) if status else r.raw)

        def enc(r: EnumRow) -> Any:
            return None if r.only == "decode" else r.unified

        _unique(self.src, (table,), rows, dec, "a decode row for raw {k!r}")
        _unique(self.src, (table,), rows, enc, "an encode row for unified {k!r}")
        self.enum_default(table, enum_name, allowed, rows)

    def enum_default(
        self, table: str, enum_name: str, allowed: list[str], rows: list[EnumRow]
    ) -> None:
        d = getattr(self.p.enum_defaults, table)
        loc: Loc = ("enum_defaults", table)
        raws = {r.raw for r in rows if r.only != "encode"}
        if d is not None and d.decode is not None and d.decode not in allowed:
            self.src.error(
                (*loc, "decode"), f"{d.decode!r} is not a {enum_name} {_one_of(allowed)}"
            )
        if d is not None and d.encode is not None:
            if d.encode not in raws:
                self.src.error(
                    (*loc, "encode"),
                    f"{d.encode!r} is not the raw value of a {table} decode row {_one_of(raws)}",
                )
            return
        encoded = {r.unified for r in rows if r.only != "decode"}
        exempt: set[str | None] = set()
        if table == "roles":
            exempt = set(self.structural_roles())
        elif table == "tool_choice":  # modes tool_choice_rule writes without a row
            rule = self.p.tool_choice_rule
            exempt = {rule.absent_means} | ({"tool"} if rule.named_as else set())
            for key in ("absent_means", "named_as"):
                mode = getattr(rule, key)
                if mode is not None and mode not in allowed:
                    self.src.error(
                        ("tool_choice_rule", key),
                        f"{mode!r} is not a {enum_name} {_one_of(allowed)}",
                    )
        missing = [v for v in allowed if v not in encoded and v not in exempt]
        if missing:
            self.src.error(
                (table,),
                f"no encode row for {enum_name} {', '.join(missing)} and no "
                f"enum_defaults.{table}.encode",
            )

    def structural_roles(self) -> set[str]:
        """Roles the flags route without a wire role (tool results in user turns or items,
        system text in a top-level field), so they need no encode row."""
        out = set()
        if self.p.flags.tool_results != "tool_messages":
            out.add("tool")
        if self.p.flags.system_placement != "in_messages":
            out |= {"system", "developer"}
        return out

    def part_rows(self) -> None:
        for i, row in enumerate(self.p.parts):
            self.feature(("parts", i, "feature"), row.feature)
            ctype = self.parts.get(row.part)
            if ctype is None:
                self.src.error(
                    ("parts", i, "part"), f"unknown part kind {row.part!r} {_one_of(self.parts)}"
                )
                continue
            self.fields(("parts", i, "fields"), row.fields, ctype.name, {})
            for j, f in enumerate(row.fields):
                if f.same_only:
                    where = ("parts", i, "fields", j, "same_only")
                    self.src.error(where, "only a request row is kept for its source")
                if f.type == "result_wrap":
                    self.result_wrap(("parts", i, "fields", j, "type"), ctype.name)
            for w in row.whens:
                if w not in {f.name for f in ctype.fields}:
                    self.src.error(("parts", i, "when"), f"{ctype.name} has no field {w!r}")
        _unique(self.src, ("parts",), self.p.parts, lambda r: r.model_dump_json(), "the same row")
        _unique(self.src, ("native_parts",), self.p.native_parts, lambda n: n, "native part {k!r}")

    def result_wrap(self, loc: Loc, tname: str) -> None:
        """A result_wrap field is read by the codec's decode_result into the part's text, is_error
        and hints: the flag that compiles it, and the fields it fills."""
        if self.p.flags.turns.result_wrap is None:
            self.src.error(
                loc, "result_wrap needs flags.turns.result_wrap (how the text is wrapped)"
            )
        missing = {"is_error", "hints"} - {f.name for f in self.types[tname].fields}
        if missing:
            self.src.error(loc, f"{tname} has no {' and '.join(sorted(missing))} to read it into")

    def run(self) -> None:
        p, src = self.p, self.src
        self.part_rows()
        for group, tname in FIELD_LISTS.items():
            virtual = USAGE_VIRTUAL if group == "usage_fields" else {}
            self.fields((group,), getattr(p, group), tname, virtual)
            for j, f in enumerate(getattr(p, group)):
                if f.omit_zero and group != "usage_fields":
                    src.error((group, j, "omit_zero"), "only a usage row leaves a zero count out")
                if f.same_only and group != "request_fields":
                    src.error((group, j, "same_only"), "only a request row is kept for its source")
                if f.type == "result_wrap":
                    src.error((group, j, "type"), "result_wrap: only a tool result part row's")
        top = {f.name for t in ("Request", "Response") for f in self.types[t].fields}
        for i, name in enumerate(p.implicit):
            if name not in top:
                src.error(("implicit", i), f"no Request or Response field {name!r}")
        for table in ENUM_TABLES:
            self.enum_table(table)
        raws = {r.raw for r in p.finish_reasons if r.only != "encode"}
        if p.finish_rule.numeric and "hints" not in {f.name for f in self.types["Finish"].fields}:
            src.error(("finish_rule", "numeric"), "no Finish.hints to keep the number in")
        for n, raw in p.finish_rule.numeric.items():
            if raw not in raws:
                src.error(
                    ("finish_rule", "numeric", str(n)),
                    f"{raw!r} is not the raw value of a finish_reasons decode row {_one_of(raws)}",
                )
        events = {t.event for t in self.c.types if t.event}
        for i, ev in enumerate(p.stream_events):
            self.feature(("stream_events", i, "feature"), ev.feature)
            for j, kind in enumerate(ev.emits):
                if kind not in events:
                    src.error(
                        ("stream_events", i, "emits", j),
                        f"unknown canonical event {kind!r} {_one_of(events)}",
                    )
        _unique(
            src, ("stream_events",), p.stream_events, lambda e: e.model_dump_json(), "the same row"
        )
        for i, row in enumerate(p.stream.decode if p.stream is not None else ()):
            self.feature(("stream", "decode", i, "feature"), row.feature)
            if row.blocked and (p.response_envelope is None or p.response_envelope.blocked is None):
                src.error(
                    ("stream", "decode", i, "blocked"),
                    "no response_envelope.blocked row says where a refused prompt's reason is",
                )
        for loc, msg in stream_problems(p.stream) if p.stream is not None else ():
            src.error(loc, msg)
        rf = (
            {f.name for f in self.types["ResponseFormat"].fields}
            if "ResponseFormat" in self.types
            else set()
        )
        finish_raws = {r.raw for r in p.finish_reasons}
        for loc, msg in envelope_problems(p.response_envelope, finish_raws):
            src.error(loc, msg)
        for loc, msg in compile_problems(p, self.enums["FinishReason"]):
            src.error(loc, msg)
        for loc, msg in format_problems(p.response_format, rf) if p.response_format else ():
            src.error(loc, msg)
        for loc, msg in reasoning_problems(p.reasoning) if p.reasoning else ():
            src.error(loc, msg)
        modes = [v.value for e in self.c.enums if e.name == "ToolChoiceMode" for v in e.items()]
        for loc, msg in tool_choice_problems(p, modes):
            src.error(loc, msg)
        for loc, msg in error_shape_problems(p, self.enums["ErrorType"]):
            src.error(loc, msg)
        for loc, msg in snake_case_problems(p):
            src.error(loc, msg)
        for loc, msg in protocol_transform_problems(self.c, p):
            src.error(loc, msg)
        _unique(src, ("transforms",), p.transforms, lambda t: t, "transform {k!r}")
        for fid in p.support:
            self.feature(("support", fid), fid)
        missing = self.features - set(p.support)
        if missing:
            src.error(("support",), f"no entry for features {sorted(missing)}")


def check_flag_rows(c: CanonicalSpec, p: ProtocolSpec, src: SourceFile) -> None:
    """The rows read as the flags say: the user-turn walk's (flags.turns) and the item list's.
    Run on each protocol and on each dialect's merged protocol (codegen/dialects.py), whose
    flags may differ from its base's."""
    for loc, msg in turns_problems(p):
        src.error(loc, msg)
    check_turns(c, p, src)
    check_items(c, p, src)


def check_protocol(c: CanonicalSpec, p: ProtocolSpec, src: SourceFile) -> None:
    _ProtocolChecks(c, p, src).run()
    check_flag_rows(c, p, src)
    if p.reasoning_details is not None:
        check_reasoning_items(p.reasoning_details, src)
    check_flat_messages(c, p, src)
    _check_tool_schema_openapi(p, src)
    for loc, msg in tool_entries_problems(p) + part_walk_problems(p) + part_row_problems(p):
        src.error(loc, msg)
    if p.id != src.path.stem:
        src.error(("id",), f"expected {src.path.stem!r} (the file name), got {p.id!r}")


def _check_tool_schema_openapi(p: ProtocolSpec, src: SourceFile) -> None:
    """The OpenAPI key of a tool converts into the parameters row, beside its key; that row
    names the feature whose loss a tool sending both keys reports (the OpenAPI one dropped)."""
    key = p.tool_schema_openapi
    if key is None:
        return
    keys = {f.w.split(".")[0] for f in p.tool_fields}
    row = next((f for f in p.tool_fields if f.c == "parameters"), None)
    if row is None:
        src.error(("tool_schema_openapi",), "no tool_fields row for parameters to convert it into")
    elif row.feature is None:
        i = p.tool_fields.index(row)
        src.error(("tool_fields", i), "no feature: the loss when a tool sends both keys")
    elif "." in key or key in keys:
        src.error(("tool_schema_openapi",), f"{key!r} is not a tool key of its own {sorted(keys)}")
