"""Compile a protocol's stream ``encode`` templates into functions of generated/<id>_stream.py.

Each canonical event's template becomes ``_<event>(s, ev, i)`` returning the SSE frame (``s``:
the encoder, ``ev``: the canonical event, ``i``: the block's index): the bytes before the data
(its ``event:`` line, ``data: ``), the body as JSON, the blank line. A template of several rows
returns their frames joined, each row under its ``if`` / ``unless`` condition; an end row whose
condition does not hold returns None. In
end templates the value under ``item_key`` is kept for ``$output`` (``s.keep``) and the one under
``part_key`` for the group's ``$parts`` (``_keep_part``). A key ending in ``?`` is left out when
its value is None."""

from __future__ import annotations

from typing import Any

from .stream_model import TEMPLATE_VARS, EncodeSpec, TemplateRow
from .stream_pending import var_exprs

# template variable -> Python expression (s: the encoder, ev: the canonical event, i: index;
# s.cur: the block (or group) the event belongs to)
VAR_EXPR = {
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
    "$format": "FORMATS.get(ev.owner, UNKNOWN_OWNER)",
    "$finish": "s.finish_raw",
    "$stop_sequence": "s.stop_sequence",
    "$usage": "s.usage_wire()",
    "$error": "ev.error.message",
    "$seq": "next(s.seq)",
    "$item_id": "s.cur.wid",
    "$part": "s.cur.part",
    "$parts": "[v for _, v in sorted(s.cur.parts.items())]",  # kept in position order
    "$output": "[v for _, v in sorted(s.kept.items())]",
    "$text_all": '"".join(s.cur.pieces)',
    "$arguments_all": '"".join(s.cur.pieces)',
    "$status": "s.status",
    "$status_failed": 'None if s.status == "completed" else s.status',
    "$arguments_object": (
        '_arguments_object("".join(s.cur.pieces), "stream.tool_call.arguments", s.ctx)'
    ),
    **var_exprs("", "none"),  # (the template's event and the protocol's flag decide: _vars)
}
assert set(VAR_EXPR) == set(TEMPLATE_VARS)

# template row condition -> Python expression
COND_EXPR = {
    "usage": "s.usage is not None",
    "first": "s.cur.deltas == 1",
    "text": "s.cur.deltas > 0",
    "completed": 's.status == "completed"',
}


class StreamSpecError(ValueError):
    """A stream row or template codegen cannot make sense of; the message names it."""


TemplateError = StreamSpecError


def expand(body: Any, defs: dict[str, dict[str, Any]], where: str) -> Any:
    """``{$use: name, k: v}``: the named body, then the fields a caller set on the encoder's
    ``envelope`` (the gateway's stored-response fields), then ``k`` (at codegen time)."""
    if isinstance(body, dict):
        if "$use" in body:
            name = body["$use"]
            if name not in defs:
                raise TemplateError(f"{where}: unknown def {name!r} (known: {sorted(defs)})")
            rest = {k: v for k, v in body.items() if k != "$use"}
            base = {k: v for k, v in defs[name].items() if k not in rest}
            body = {**base, "$envelope": True, **rest}  # the caller's fields in between
        return {k: expand(v, defs, where) for k, v in body.items()}
    if isinstance(body, list):
        return [expand(v, defs, where) for v in body]
    return body


# in a block's end template the start event's fields are the block's (its start event)
END_EXPR = {"$call_id": "s.cur.ev.id", "$name": "s.cur.ev.name"}


def _vars(ev: str, foreign: str) -> dict[str, str]:
    """The variables of the template of ``ev`` (``foreign``: the protocol's foreign_reasoning)."""
    return {**VAR_EXPR, **var_exprs(ev, foreign), **(END_EXPR if ev.endswith("_end") else {})}


def template(
    body: Any,
    where: str,
    keep: dict[str, str] | None = None,
    x: dict[str, str] = VAR_EXPR,
    n: list[int] | None = None,
) -> str:
    """A template value as a Python expression over s / ev / i; ``keep``: top-level key ->
    the encoder method that records its value; ``x``: the variables' expressions (``_vars``).
    An optional key is written only when its value (read once, into a local ``_o<n>``) is not
    None."""
    n = [0] if n is None else n
    if isinstance(body, str) and body.startswith("$"):
        if body not in x:
            raise TemplateError(f"{where}: unknown variable {body!r} (known: {sorted(x)})")
        return x[body]
    if isinstance(body, dict):
        items = []
        for k, v in body.items():
            if k == "$envelope":  # fields a caller set on the encoder's ``envelope``
                items.append("**s.envelope")
                continue
            key = k[:-1] if isinstance(k, str) and k.endswith("?") else k
            expr = template(v, where, None, x, n)
            if keep and key in keep:
                expr = f"{keep[key]}{expr})"
            if key != k:
                o = f"_o{n[0]}"
                n[0] += 1
                items.append(f"**({{{key!r}: {o}}} if ({o} := {expr}) is not None else _NONE)")
            else:
                items.append(f"{key!r}: {expr}")
        return "{" + ", ".join(items) + "}"
    if isinstance(body, list):
        from .stream_parts import optional_item  # an element of optional keys only: kept if set

        items = [template(v, where, None, x, n) for v in body]
        opts = [optional_item(v) for v in body]
        return "[" + ", ".join(f"*_some({x}, {o!r})" if o else x for x, o in zip(items, opts)) + "]"
    return repr(body)


def event_name(body: dict[str, Any], name_path: str | None, where: str) -> str | None:
    """The SSE ``event:`` name: the body's value at the path that recognises events."""
    if name_path is None:
        return None
    t: Any = body
    for seg in name_path.split("."):
        t = t.get(seg) if isinstance(t, dict) else None
    if not isinstance(t, str) or t.startswith("$"):
        raise TemplateError(f"{where}: a named event needs a literal `{name_path}`")
    return t


def sse_prefix(event: str | None) -> bytes:
    """The bytes an SSE event has before its JSON data: its ``event:`` line when it is named."""
    return b"data: " if event is None else b"event: " + event.encode() + b"\ndata: "


def _prefix(body: dict[str, Any], name_path: str | None, where: str) -> bytes:
    return sse_prefix(event_name(body, name_path, where))


def _conds(row: TemplateRow) -> list[str]:
    out = []
    if row.if_ is not None:
        out.append(COND_EXPR[row.if_])
    if row.unless is not None:
        out.append(f"not ({COND_EXPR[row.unless]})")
    if row.finish_in is not None:
        out.append(f"s.finish_raw in {tuple(row.finish_in)!r}")
    if row.finish_not_in is not None:
        out.append(f"s.finish_raw not in {tuple(row.finish_not_in)!r}")
    return out


def _keep(enc: EncodeSpec, ev: str) -> dict[str, str]:
    keep = {}
    if enc.item_key is not None and ev.endswith("_end"):
        keep[enc.item_key] = "s.keep("
    if enc.part_key is not None and enc.group is not None and ev == f"{enc.group}_end":
        keep[enc.part_key] = "_keep_part(s, "  # (codegen/stream_lifecycle.group_funcs)
    return keep


def _frame(expr: str, prefix: bytes) -> str:
    """The SSE frame of a body expression (the prefix is a constant of the row)."""
    return f'{prefix!r} + _dumps({expr}) + b"\\n\\n"'


def _body(
    ev: str, rows: list[TemplateRow], enc: EncodeSpec, name: str | None, w: str, foreign: str
) -> str:
    """The body of a template function of several rows: their frames, joined."""
    lines = ["    out: list[bytes] = []"]
    for j, row in enumerate(rows):
        full = expand({**enc.envelope, **row.body}, enc.defs, w)
        expr = template(full, f"{w}[{j}]", _keep(enc, ev), _vars(ev, foreign))
        frame = _frame(expr, _prefix(full, name, f"{w}[{j}]"))
        conds = _conds(row)
        if conds:
            lines += [f"    if {' and '.join(conds)}:", f"        out.append({frame})"]
        else:
            lines.append(f"    out.append({frame})")
    return "\n".join([*lines, '    return b"".join(out)'])


def encode_view(
    enc: EncodeSpec, where: str, name_path: str | None, foreign: str = "none"
) -> dict[str, Any]:
    """The template functions (``funcs``: per canonical event) and the body of ``_ending``, the
    frames of a completed ending (``end`` rows under their conditions, then ``done``);
    ``foreign``: the protocol's flag foreign_reasoning."""
    funcs: list[dict[str, Any]] = []
    for ev, tpl in enc.events.items():
        w = f"{where}: stream.encode.events.{ev}"
        if isinstance(tpl, list):
            funcs.append({"ev": ev, "body": _body(ev, tpl, enc, name_path, w, foreign)})
            continue
        full = expand({**enc.envelope, **tpl}, enc.defs, w)
        expr = template(full, w, _keep(enc, ev), _vars(ev, foreign))
        frame = _frame(expr, _prefix(full, name_path, w))
        funcs.append({"ev": ev, "body": f"    return {frame}"})
    if "error" not in enc.events:  # an in-band error: the body the protocol's HTTP errors have
        prefix = sse_prefix("error" if name_path is not None else None)
        funcs.append(
            {"ev": "error", "body": f"    return _error_frame(ev.error, s.pid, {prefix!r})"}
        )
    end = []  # the ending's frames, in order (a row whose condition does not hold: none)
    for j, row in enumerate(enc.end):
        w = f"{where}: stream.encode.end[{j}]"
        full = expand({**enc.envelope, **row.body}, enc.defs, w)
        expr = template(full, w, _keep(enc, "end"), _vars("end", foreign))
        frame = _frame(expr, _prefix(full, name_path, w))
        conds = _conds(row)
        if conds:
            end.append(f"    if {' and '.join(conds)}:\n        out.append({frame})")
        else:
            end.append(f"    out.append({frame})")
    if enc.done is not None:
        done = sse_prefix(None) + enc.done.encode() + b"\n\n"
        end.append(f"    out.append({done!r})")
    return {"funcs": funcs, "end": "\n".join(end) or "    pass"}
