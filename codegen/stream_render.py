"""Compile a protocol's stream rows into generated/<id>_stream.py.

Each dotted path becomes a small lenient reader function (``None`` when a step is missing or of
the wrong type), each decode row a ``Rule`` of those readers, and each encode template a function
that builds the wire body straight from the canonical event: the generic machines in
``runtime/streams`` run them and never look at a protocol's name.
"""

from __future__ import annotations

import re
from pathlib import Path
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
    if row.when:
        conds = []
        for path, want in row.when.items():
            vals = tuple(want) if isinstance(want, list) else (want,)
            conds.append(f"({r(path, where)}, {vals!r})")
        args.append(f"when=({', '.join(conds)},)")
    for name in ("at", "each", "key", "call_id", "name", "arguments", "arguments_object"):
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


def stream_view(s: StreamSpec, where: str, event_names: bool) -> dict[str, Any]:
    """What the stream template needs: reader sources, rules by event kind, encoder functions."""
    r = _Readers()
    by_on: dict[str, list[str]] = {}
    every: list[str] = []
    for i, row in enumerate(s.decode):
        rw = f"{where}: stream.decode[{i}]"
        rule = _rule(row, rw, r)
        ons = _paths(row.event)
        if not ons:
            every.append(rule)
        for on in ons:
            by_on.setdefault(on, []).append(rule)
    if s.recognise is None and by_on:
        raise StreamSpecError(f"{where}: rows with `event` need the stream's `recognise` path")
    recognise = r(s.recognise, f"{where}: stream.recognise") if s.recognise else None
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
        "recognise": recognise,
        "by_on": by_on,
        "every": every,
        "s": s,
        "enc": enc,
        "funcs": funcs,
        "end": end,
    }


STREAMS = Path(__file__).resolve().parent.parent / "runtime" / "streams"


def stream_problems(s: StreamSpec) -> list[tuple[tuple[str | int, ...], str]]:
    """What codegen cannot make sense of in a stream section, as (key path, message)."""
    out: list[tuple[tuple[str | int, ...], str]] = []
    if s.transform is not None and not (STREAMS / f"{s.transform}.py").is_file():
        out.append(
            (("stream", "transform"), f"no stream transform runtime/streams/{s.transform}.py")
        )
    for i, row in enumerate(s.decode):
        loc: tuple[str | int, ...] = ("stream", "decode", i)
        if row.event is not None and s.recognise is None:
            out.append(((*loc, "event"), "a row with `event` needs the stream's `recognise` path"))
        paths = [p for name in _PATH_FIELDS for p in _paths(getattr(row, name))]
        paths += list(row.when) + list((row.start or {}).values())
        for path in paths:
            bad = [seg for seg in path.split(".") if not seg.isdigit() and not _SEG.match(seg)]
            if bad:
                out.append((loc, f"bad path segment {bad[0]!r} in {path!r}"))
    if s.encode is not None:
        bodies: list[tuple[tuple[str | int, ...], Any]] = [
            (("stream", "encode", "events", ev), body) for ev, body in s.encode.events.items()
        ]
        bodies += [(("stream", "encode", "end", j), t.body) for j, t in enumerate(s.encode.end)]
        for loc, body in bodies:
            for var in _vars(body):
                if var not in _VAR_EXPR:
                    out.append((loc, f"unknown variable {var!r} (known: {', '.join(_VAR_EXPR)})"))
    return out


_PATH_FIELDS = (
    "at", "each", "key", "call_id", "name", "arguments", "arguments_object", "signature",
    "redacted", "finish", "stop_sequence", "error", "text", "usage",
)  # fmt: skip


def _vars(body: Any) -> list[str]:
    if isinstance(body, str):
        return [body] if body.startswith("$") else []
    if isinstance(body, dict):
        return [v for x in body.values() for v in _vars(x)]
    if isinstance(body, list):
        return [v for x in body for v in _vars(x)]
    return []
