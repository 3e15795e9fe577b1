"""Compile a protocol's stream rows into generated/<id>_stream.py.

Each dotted path becomes a small lenient reader function (``None`` when a step is missing or of
the wrong type), each decode row a ``Rule`` of those readers, and each encode template a function
that builds the wire body straight from the canonical event: the generic machines in
``runtime/streams`` run them and never look at a protocol's name.
"""

from __future__ import annotations

import re
from typing import Any

from .stream_model import TEMPLATE_VARS, DecodeRow, EncodeSpec, StreamSpec

_SEG = re.compile(
    r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\[(?P<field>[A-Za-z_]+)=(?P<value>[^\]]+)\])?$"
)

# template variable -> Python expression (s: the encoder, ev: the canonical event, i: index)
_VAR_EXPR = {
    "$id": "s.id",
    "$model": "s.model",
    "$created": "s.created",
    "$index": "i",
    "$text": "ev.text",
    "$arguments": "ev.arguments",
    "$call_id": "ev.id",
    "$name": "ev.name",
    "$signature": "ev.signature",
    "$redacted": "ev.redacted",
    "$format": "s.format_of(ev)",
    "$finish": "s.finish_raw",
    "$stop_sequence": "s.stop_sequence",
    "$usage": "s.usage_wire()",
    "$error": "ev.error.message",
}
assert set(_VAR_EXPR) == set(TEMPLATE_VARS)


class StreamSpecError(ValueError):
    """A stream row codegen cannot make sense of; the message names the row."""


def _literal(v: str) -> Any:
    if v.isdigit():
        return int(v)
    if v in ("true", "false"):
        return v == "true"
    return v


class _Readers:
    """Collects one reader function per distinct path."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.src: list[str] = []

    def __call__(self, path: str, where: str) -> str:
        if path in self.names:
            return self.names[path]
        name = f"_r{len(self.names)}"
        lines = [f"def {name}(v: Any) -> Any:  # {path}"]
        for raw in path.split("."):
            if raw.isdigit():
                lines += [
                    "    if type(v) is not list or len(v) <= " + raw + ":",
                    "        return None",
                    f"    v = v[{raw}]",
                ]
                continue
            m = _SEG.match(raw)
            if m is None:
                raise StreamSpecError(f"{where}: bad path segment {raw!r} in {path!r}")
            lines += [
                "    if type(v) is not dict:",
                "        return None",
                f"    v = v.get({m['name']!r})",
            ]
            if m["field"]:
                field, value = m["field"], _literal(m["value"])
                lines += [
                    "    if type(v) is not list:",
                    "        return None",
                    "    for x in v:",
                    f"        if type(x) is dict and x.get({field!r}, {value!r}) == {value!r}:",
                    "            v = x",
                    "            break",
                    "    else:",
                    "        return None",
                ]
        lines.append("    return v")
        self.names[path] = name
        self.src.append("\n".join(lines))
        return name

    def owner(self, path: str, where: str) -> str:
        """A reader of (owner protocol id, field for encrypted data) through OWNERS."""
        inner = self(path, where)
        name = f"_owner{inner}"
        if name not in self.names.values():
            self.names[f"owner:{path}"] = name
            self.src.append(f"def {name}(v: Any) -> Any:\n    return OWNERS.get({inner}(v))")
        return name


def _paths(v: str | list[str] | None) -> list[str]:
    if v is None:
        return []
    return [v] if isinstance(v, str) else list(v)


def _rule(row: DecodeRow, where: str, r: _Readers) -> str:
    args: list[str] = []
    for name in ("key", "call_id", "name", "arguments", "arguments_object"):
        path = getattr(row, name)
        if path is not None:
            args.append(f"{name}={r(path, where)}")
    for name in ("signature", "redacted", "finish", "stop_sequence", "error"):
        path = getattr(row, name)
        if path is not None:
            args.append(f"{name}={r(path, where)}")
    for name in ("text", "usage"):
        readers = [r(p, where) for p in _paths(getattr(row, name))]
        if readers:
            args.append(f"{name}=({', '.join(readers)},)")
    if row.owner is not None:
        args.append(f"owner={r.owner(row.owner, where)}")
    if row.key_const is not None:
        args.append(f"key_const={row.key_const!r}")
    if row.key is not None or row.key_const is not None:
        args.append("keyed=True")
        if _quiet(row):
            args.append("quiet=True")

    if row.key_prefix:
        args.append(f"key_prefix={row.key_prefix!r}")
    if row.open is not None:
        args.append(f"open={row.open!r}")
    if row.ends:
        args.append(f"ends={tuple(row.ends)!r}")
    if row.start is not None:
        trio = [
            r(row.start[k], where) if k in row.start else "None" for k in ("id", "model", "created")
        ]
        args.append(f"start=({', '.join(trio)})")
        if row.restart != "ignore":
            args.append(f"restart={row.restart!r}")
    for flag in ("close", "end", "count"):
        if getattr(row, flag):
            args.append(f"{flag}=True")
    return f"Rule({', '.join(args)})"


def _op(row: DecodeRow) -> str:
    """The one thing a row does, when it does one thing only (the machine's short paths)."""
    does = {
        "block": bool(row.key or row.key_const),
        "start": row.start is not None,
        "error": row.error is not None,
        "usage": bool(row.usage),
        "other": bool(row.count or row.ends or row.finish or row.end or row.each),
    }
    if row.start is not None and row.restart != "ignore":
        does["other"] = True
    one = [k for k, v in does.items() if v]
    return one[0] if len(one) == 1 and one[0] != "other" else ""


def _template(body: Any, where: str) -> str:
    """A template value as a Python expression over s / ev / i."""
    if isinstance(body, str) and body.startswith("$"):
        if body not in _VAR_EXPR:
            raise StreamSpecError(
                f"{where}: unknown variable {body!r} (known: {sorted(_VAR_EXPR)})"
            )
        return _VAR_EXPR[body]
    if isinstance(body, dict):
        items = ", ".join(f"{k!r}: {_template(v, where)}" for k, v in body.items())
        return "{" + items + "}"
    if isinstance(body, list):
        return "[" + ", ".join(_template(v, where) for v in body) + "]"
    return repr(body)


def _event_name(body: dict[str, Any], name_path: str | None, where: str) -> str | None:
    """The SSE ``event:`` name: the body's value at the path that recognises events."""
    if name_path is None:
        return None
    t: Any = body
    for seg in name_path.split("."):
        t = t.get(seg) if isinstance(t, dict) else None
    if not isinstance(t, str) or t.startswith("$"):
        raise StreamSpecError(f"{where}: a named event needs a literal `{name_path}`")
    return t


def _quiet(row: DecodeRow) -> bool:
    """Without text, arguments or a call id the row does nothing to its block."""
    return not (row.close or row.signature or row.redacted or row.arguments_object or row.ends)


def _action(
    row: DecodeRow, i: int, base: str, r: _Readers, where: str, ind: str, implicit: bool
) -> list[str]:
    """The statements that run row ``i`` on the wire object ``base``."""
    op = _op(row)
    rule = f"_RULES[{i}]"
    if row.each is not None:
        call = (
            "m._block"
            if op == "block" or (row.key or row.key_const) and op == "" and _only_block(row)
            else "m._apply"
        )
        args = f"{rule}, item, pos, out" if call == "m._block" else f"{rule}, item, pos, d, out"
        return [
            f"{ind}items = {r(row.each, where)}({base})",
            f"{ind}if type(items) is list:",
            f"{ind}    for pos, item in enumerate(items):",
            f"{ind}        if type(item) is dict:",
            f"{ind}            {call}({args})",
        ]
    if op == "block":
        quiet = _quiet(row)
        if quiet and implicit:  # the row's fields are read first: most chunks lack them
            values = [
                p for name in ("text", "arguments", "call_id") for p in _paths(getattr(row, name))
            ]
            cond = " or ".join(f"{r(p, where)}({base})" for p in values) or "False"
            return [f"{ind}if {cond}:", f"{ind}    m._block({rule}, {base}, None, out)"]
        return [f"{ind}m._block({rule}, {base}, None, out)"]
    if op == "usage":
        return [f"{ind}m._usage({rule}, {base}, out)"]
    if op == "start":
        return [f"{ind}if m.msg_id is None:", f"{ind}    m._apply({rule}, {base}, None, d, out)"]
    if op == "error":
        return [
            f"{ind}err = {r(row.error or '', where)}({base})",
            f"{ind}if err:",
            f"{ind}    m._fail_error(err, d, out)",
            f"{ind}    return True",
        ]
    return [f"{ind}m._apply({rule}, {base}, None, d, out)"]


def _only_block(row: DecodeRow) -> bool:
    return not (
        row.count or row.error or row.start or row.ends or row.usage or row.finish or row.end
    )


def _dispatch(s: StreamSpec, where: str, r: _Readers) -> list[str]:
    """``dispatch(m, d, out) -> matched``: the rows as straight-line code (first matching row, or
    every row in order)."""
    first = s.match == "first"
    lines = ["def dispatch(m: Any, d: Any, out: list[Any]) -> bool:"]
    groups: dict[str | None, list[int]] = {}
    for i, row in enumerate(s.decode):
        ons: list[str | None] = list(_paths(row.event)) or [None]
        for on in ons:
            groups.setdefault(on, []).append(i)

    def rows(ids: list[int], ind: str) -> list[str]:
        out: list[str] = []
        for i in ids:
            row, w = s.decode[i], f"{where}: stream.decode[{i}]"
            conds = []
            for path, want in row.when.items():
                vals = tuple(want) if isinstance(want, list) else (want,)
                get = f"{r(path, w)}(d)"
                conds.append(f"{get} == {vals[0]!r}" if len(vals) == 1 else f"{get} in {vals!r}")
            inner = ind
            base = "d"
            if row.at is not None and not first:  # read once at the top
                base = ats.setdefault(row.at, f"at{len(ats)}")
                conds.append(f"{base} is not None")
            if conds:
                out.append(f"{ind}if {' and '.join(conds)}:")
                inner += "    "
            if row.at is not None and first:
                out.append(f"{inner}b = {r(row.at, w)}(d)")
                out.append(f"{inner}if b is not None:")
                inner += "    "
                base = "b"
            if not first:
                out.append(f"{inner}matched = True")
            out += _action(row, i, base, r, w, inner, s.blocks == "implicit")
            if first:
                out.append(f"{inner}return True")
            elif _op(row) == "" and row.each is None:  # only such a row can end the stream
                out += [f"{inner}if m.ended is not None:", f"{inner}    return True"]
        return out

    ats: dict[str, str] = {}
    if s.recognise is not None:
        lines.append(f"    kind = {r(s.recognise, where)}(d)")
        for event, ids in groups.items():
            if event is None:
                continue
            lines.append(f"    if kind == {event!r}:")
            lines += rows(ids, "        ")
            last = s.decode[ids[-1]]
            if not (first and not last.when and last.at is None):  # else it always returned
                lines.append("        return " + ("False" if first else "matched"))
    body = rows(groups.get(None, []), "    ")
    if not first:
        lines.append("    matched = False")
        lines += [f"    {name} = {r(path, where)}(d)" for path, name in ats.items()]
    lines += body
    lines.append("    return " + ("False" if first else "matched"))
    return lines


def stream_view(s: StreamSpec, where: str, event_names: bool) -> dict[str, Any]:
    """What the stream template needs: reader sources, rules, the dispatch function, encoder
    functions."""
    r = _Readers()
    rules = [_rule(row, f"{where}: stream.decode[{i}]", r) for i, row in enumerate(s.decode)]
    if s.recognise is None and any(row.event for row in s.decode):
        raise StreamSpecError(f"{where}: rows with `event` need the stream's `recognise` path")
    dispatch = _dispatch(s, where, r)
    enc: EncodeSpec | None = s.encode
    name_path = (s.recognise or "type") if event_names else None
    funcs: list[dict[str, Any]] = []
    end: list[dict[str, Any]] = []
    if enc is not None:
        envelope = {k: v for k, v in enc.envelope.items()}
        for ev, body in enc.events.items():
            w = f"{where}: stream.encode.events.{ev}"
            full = {**envelope, **body}
            funcs.append(
                {"ev": ev, "expr": _template(full, w), "event": _event_name(full, name_path, w)}
            )
        for j, tpl in enumerate(enc.end):
            w = f"{where}: stream.encode.end[{j}]"
            full = {**envelope, **tpl.body}
            end.append(
                {
                    "fn": f"_end{j}",
                    "expr": _template(full, w),
                    "event": _event_name(full, name_path, w),
                    "if_usage": tpl.if_ == "usage",
                }
            )
    return {
        "readers": r.src,
        "rules": rules,
        "dispatch": "\n".join(dispatch),
        "s": s,
        "enc": enc,
        "funcs": funcs,
        "end": end,
    }
