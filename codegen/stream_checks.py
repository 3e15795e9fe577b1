"""What codegen refuses in a stream section (``checks.py`` reports each with its file, line and
row): rows with `event` but no `recognise` path, bad path
segments, row contents a block step could only ignore (``stream_block.block_problems``), unknown template variables, and the item rows (``item_problems``): a `sub`, `whole`,
`separator` or `error_type` with nothing to apply to, groups without their templates, variables
and conditions used where they mean nothing; for whole parts (stream_parts.py): an `assemble`
transform with no module, rows of an item group that never run, whole-call variables outside a
whole `tool_call_end`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .stream_block import block_problems
from .stream_encode import VAR_EXPR as _VAR_EXPR
from .stream_known import PATH_FIELDS, known_fields
from .stream_model import StreamSpec
from .stream_parts import unreachable
from .stream_render import _SEG, _paths

STREAMS = Path(__file__).resolve().parent.parent / "runtime" / "streams"


def stream_problems(s: StreamSpec) -> list[tuple[tuple[str | int, ...], str]]:
    """What codegen cannot make sense of in a stream section, as (key path, message)."""
    out: list[tuple[tuple[str | int, ...], str]] = []
    for i, row in enumerate(s.decode):
        loc: tuple[str | int, ...] = ("stream", "decode", i)
        if row.event is not None and s.recognise is None:
            out.append(((*loc, "event"), "a row with `event` needs the stream's `recognise` path"))
        paths = [p for name in PATH_FIELDS for p in _paths(getattr(row, name))]
        paths += list(row.when) + list((row.start or {}).values()) + _paths(row.present)
        if row.assemble is not None and not (STREAMS / f"{row.assemble}.py").is_file():
            out.append(
                ((*loc, "assemble"), f"no stream transform runtime/streams/{row.assemble}.py")
            )
        for path in paths:
            bad = [seg for seg in path.split(".") if not seg.isdigit() and not _SEG.match(seg)]
            if bad:
                out.append((loc, f"bad path segment {bad[0]!r} in {path!r}"))
        out += [((*loc, key), msg) for key, msg in block_problems(row)]
    out += item_problems(s)
    ats = known_fields(s)
    for at in s.quiet_fields:
        if at not in ats:
            where = ("stream", "quiet_fields", at)
            out.append((where, f"{at!r} is not the `at` path of any decode row"))
    bodies: list[tuple[tuple[str | int, ...], Any]] = [
        (("stream", "encode", "events", ev), body)
        if isinstance(body, dict)
        else (("stream", "encode", "events", ev), [row.body for row in body])
        for ev, body in s.encode.events.items()
    ]
    bodies += [(("stream", "encode", "defs", n), b) for n, b in s.encode.defs.items()]
    bodies += [(("stream", "encode", "end", j), t.body) for j, t in enumerate(s.encode.end)]
    for loc, body in bodies:
        for var in _vars(body):
            if var not in _VAR_EXPR:
                out.append((loc, f"unknown variable {var!r} (known: {', '.join(_VAR_EXPR)})"))
            elif var in _WHOLE_CALL and (loc[-1] != "tool_call_end" or s.encode.calls != "whole"):
                out.append((loc, f"{var} is read only by tool_call_end with `calls: whole`"))
    ev = s.encode.events
    if s.encode.calls == "whole" and (
        "tool_call_end" not in ev or "tool_call_start" in ev or "tool_call_delta" in ev
    ):
        what = "a tool_call_end template and no tool_call_start / tool_call_delta"
        out.append((("stream", "encode", "calls"), f"`calls: whole` needs {what}"))
    out += [(("stream", "decode", i), msg) for i, msg in unreachable(s)]
    return out


_WHOLE_CALL = ("$arguments_object", "$bare_call_id")


def _vars(body: Any) -> list[str]:
    if isinstance(body, str):
        return [body] if body.startswith("$") else []
    if isinstance(body, dict):
        return [v for x in body.values() for v in _vars(x)]
    if isinstance(body, list):
        return [v for x in body for v in _vars(x)]
    return []


Loc = tuple[str | int, ...]
# variables that need a setting of the encode section, and where they mean something
_NEEDS = {"$part": "group", "$parts": "group", "$item_id": "ids"}
_BLOCK_ONLY = ("$text_all", "$arguments_all", "$part", "$item_id", "$encrypted")


def item_problems(s: StreamSpec) -> list[tuple[Loc, str]]:
    """The rows for item-shaped streams (sub keys, whole values, groups ...) that say nothing."""
    out: list[tuple[Loc, str]] = []
    for i, row in enumerate(s.decode):
        loc: Loc = ("stream", "decode", i)
        if row.sub is not None and row.key is None:
            out.append(((*loc, "sub"), "`sub` is a position under `key`: the row needs `key`"))
        if row.whole and row.text is None and row.arguments is None:
            out.append(((*loc, "whole"), "`whole` needs the row's `text` or `arguments`"))
        if row.error_type is not None and row.error is None:
            out.append(((*loc, "error_type"), "`error_type` is read in the row's `error` object"))
    e = s.encode
    if e is None:
        return out
    has = {"group": e.group is not None, "ids": bool(e.ids)}
    for ev in ("group_start", "group_end"):
        if has["group"] != (ev in e.events):
            what = (
                f"`group` needs the {ev} template"
                if has["group"]
                else (f"the {ev} template needs `group`")
            )
            out.append((("stream", "encode", "events", ev), what))
    if e.part_key is not None and e.group is None:
        out.append((("stream", "encode", "part_key"), "`part_key` needs `group`"))
    tpls: list[tuple[Loc, str, Any]] = []
    for ev, tpl in e.events.items():
        entries = tpl if isinstance(tpl, list) else [tpl]
        for j, tr in enumerate(entries):
            loc = ("stream", "encode", "events", ev, j) if isinstance(tpl, list) else (
                "stream", "encode", "events", ev,
            )  # fmt: skip
            tpls.append((loc, ev, tr))
    tpls += [(("stream", "encode", "end", j), "end", tr) for j, tr in enumerate(e.end)]
    for loc, ev, tr in tpls:
        body = tr if isinstance(tr, dict) else tr.body
        block = ev not in ("start", "error", "end")
        for var in _vars(body):
            need = _NEEDS.get(var)
            if need is not None and not has[need]:
                out.append((loc, f"{var} needs the encode section's `{need}`"))
            if var in _BLOCK_ONLY and not block:
                out.append((loc, f"{var} is a block's: not in the {ev} template"))
            if var == "$parts" and ev != "group_end":
                out.append((loc, "$parts is the group's: only in group_end"))
            if var == "$encrypted" and ev != "reasoning_end":
                out.append((loc, "$encrypted is a reasoning end's: only in reasoning_end"))
            if var == "$output" and block:
                out.append((loc, "$output is the finished items: only in end rows and error"))
        for name in _uses(body):
            if name not in e.defs:
                out.append((loc, f"unknown def {name!r} (known: {', '.join(e.defs) or 'none'})"))
        if isinstance(tr, dict):
            continue
        for cond in (tr.if_, tr.unless):
            if cond in ("first", "text") and not block:
                out.append((loc, f"condition {cond!r} is a block's: not in the {ev} template"))
        if (tr.finish_in is not None or tr.finish_not_in is not None) and ev != "end":
            out.append((loc, "`finish_in` / `finish_not_in` apply to end rows only"))
    return out


def _uses(body: Any) -> list[str]:
    if isinstance(body, dict):
        here = [str(body["$use"])] if "$use" in body else []
        return here + [n for k, v in body.items() if k != "$use" for n in _uses(v)]
    if isinstance(body, list):
        return [n for x in body for n in _uses(x)]
    return []
