"""Stream rows for protocols that send and take whole parts (Gemini), compiled for the generic
machines: item groups in the generated ``dispatch``, optional list elements.

**Item groups.** Rows with ``each`` whose own conditions (``when``, ``present``) say which item
they take are read against the item, not the event. Consecutive rows with the same ``at`` and
``each`` form one pass over the list: each item runs the first of them whose conditions hold
(an item none of them takes is counted as ignored), in the items' order.

**Optional list elements.** In an encode template a key ending in ``?`` is left out when its
value is None (``stream_encode``); a list element (a dict) of literals and optional keys none of
which has a value is left out too (Gemini's last chunk: a signature part only when one waits).
"""

from __future__ import annotations

import re
from typing import Any

from .stream_block import parts
from .stream_entry import Start
from .stream_fast import pass_on
from .stream_model import DecodeRow, StreamSpec
from .stream_render import _paths, _Readers
from .stream_steps import steps

__all__ = ["item_groups", "items_code", "optional_item", "read_ats"]


_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def inline_read(r: _Readers, path: str | list[str], var: str, where: str, is_dict: bool) -> str:
    """An expression reading ``path`` (the first present of several) from ``var``, a dict
    (the event, an item) unless ``is_dict`` is false: short plain paths are read inline, the
    others through a reader function."""
    if not isinstance(path, str) or not path:
        return f"{r.first(path, where)}({var})"
    a, _, b = path.partition(".")
    if not is_dict:
        if _KEY.match(path):
            return f"({var}.get({path!r}) if type({var}) is dict else None)"
        return f"{r(path, where)}({var})"
    if _KEY.match(path):
        return f"{var}.get({path!r})"
    if _KEY.match(a) and _KEY.match(b):
        return f"(_v.get({b!r}) if type(_v := {var}.get({a!r})) is dict else None)"
    if _KEY.match(a) and b.isdigit():
        return f"(_v[{b}] if type(_v := {var}.get({a!r})) is list and len(_v) > {b} else None)"
    return f"{r(path, where)}({var})"


def read_ats(
    ats: dict[str, str], r: _Readers, where: str, known: dict[str, list[str]]
) -> list[str]:
    """Read each ``at`` path once; a longer one goes on from a shorter one read before. An
    object's keys with no canonical home (``stream_known``) are reported as it is read."""
    lines: list[str] = []
    done: list[tuple[str, str]] = []
    for path, name in sorted(ats.items(), key=lambda a: len(a[0])):
        base, rest = "d", path
        for p2, n2 in done:
            if path.startswith(p2 + "."):
                base, rest = n2, path[len(p2) + 1 :]
        done.append((path, name))
        lines.append(f"    {name} = {r.on(rest, base, where, base == 'd')}")
        if path in known:
            k = f"_K{name}"
            r.src.append(f"{k} = frozenset({known[path]!r})  # {path}: keys with a home")
            lines += [
                f"    if type({name}) is dict and not {k}.issuperset({name}):",
                f"        m.drop_fields({name}, {k}, {path!r})",
            ]
    return lines


def item_groups(s: StreamSpec) -> dict[int, list[int]]:
    """First row of each item group -> the rows of the group (rows in no group: absent)."""
    out: dict[int, list[int]] = {}
    i = 0
    rows = s.decode
    while i < len(rows):
        row = rows[i]
        j = i + 1
        while j < len(rows) and (rows[j].at, rows[j].each) == (row.at, row.each) and row.each:
            j += 1
        if row.each is not None and (j - i > 1 or row.sure):
            out[i] = list(range(i, j))
        i = j
    return out


def _conds(row: DecodeRow, r: _Readers, where: str, local: dict[str, str]) -> list[str]:
    """The row's conditions on ``item``: presence first (it decides most items)."""
    out = [f"{local.get(p) or r.on(p, 'item', where)} is not None" for p in _paths(row.present)]
    for path, want in row.when.items():
        vals = tuple(want) if isinstance(want, list) else (want,)
        get = local.get(path) or r.on(path, "item", where)
        if len(vals) > 1:
            out.append(f"{get} in {vals!r}")
        elif vals[0] is None or isinstance(vals[0], bool):
            out.append(f"{get} is {vals[0]!r}")
        else:
            out.append(f"{get} == {vals[0]!r}")
    return out


def items_code(
    s: StreamSpec, ids: list[int], base: str, r: _Readers, where: str, ind: str, place: Start
) -> list[str]:
    """The pass over the items of one group: first matching row per item."""
    first = s.decode[ids[0]]
    w0 = f"{where}: stream.decode[{ids[0]}]"
    paths = [p for i in ids for p in _paths(s.decode[i].present)]  # read once per item
    shared = sorted({p for p in paths if paths.count(p) > 1}, key=paths.index)
    local = {p: f"v{n}" for n, p in enumerate(shared)}
    lines = [
        f"{ind}items = {r(first.each or '', w0)}({base})",
        f"{ind}if type(items) is list:",
        f"{ind}    for pos, item in enumerate(items):",
        f"{ind}        if type(item) is not dict:",
        f"{ind}            m.ignored += 1",
        f"{ind}            continue",
    ]
    lines += [f"{ind}        {v} = {r.on(p, 'item', w0)}" for p, v in local.items()]
    return lines + _chain(s, ids, r, where, local, ind + "        ", place)


def _chain(
    s: StreamSpec,
    ids: list[int],
    r: _Readers,
    where: str,
    local: dict[str, str],
    ind: str,
    place: Start,
) -> list[str]:
    """``if / elif`` over the rows; a run of rows led by the same shared presence and closed by
    a row with only that presence is nested under one test of it (the run takes such items)."""
    lines: list[str] = []
    word, k = "if", 0
    while k < len(ids):
        i = ids[k]
        row, w = s.decode[i], f"{where}: stream.decode[{i}]"
        conds = _conds(row, r, w, local)
        run = _run(s, ids[k:], local)
        if len(run) > 1:
            lines.append(f"{ind}{word} {conds[0]}:")
            for j in run:
                rest = [c for c in _conds(s.decode[j], r, where, local) if c != conds[0]]
                lines.append(
                    f"{ind}    {('if' if j == run[0] else 'elif') if rest else 'else'}"
                    + (f" {' and '.join(rest)}:" if rest else ":")
                )
                act = _item_action(s.decode[j], j, r, where, s, place)
                lines += [f"{ind}        {x}" for x in act]
            k += len(run)
            word = "elif"
            continue
        lines.append(f"{ind}{word} {' and '.join(conds)}:" if conds else f"{ind}else:")
        lines += [f"{ind}    {x}" for x in _item_action(row, i, r, w, s, place)]
        if not conds:
            return lines
        word = "elif"
        k += 1
    return lines + [f"{ind}else:", f"{ind}    m.ignored += 1"]


def _run(s: StreamSpec, ids: list[int], local: dict[str, str]) -> list[int]:
    """The rows from the first one led by its shared presence up to the one with that presence
    only (none: [])."""
    lead = _paths(s.decode[ids[0]].present)[:1]
    if not lead or lead[0] not in local:
        return []
    for n, j in enumerate(ids):
        row = s.decode[j]
        if _paths(row.present)[:1] != lead:
            return []
        if _paths(row.present) == lead and not row.when:
            return ids[: n + 1]
    return []


def _item_action(
    row: DecodeRow, i: int, r: _Readers, where: str, s: StreamSpec, place: Start
) -> list[str]:
    out = []
    if row.lone_signature is not None:  # read here: most items carry none
        sig = r.on(row.lone_signature, "item", where)
        out += [  # opaque state on an item that is no reasoning: a reasoning end, no start
            f"if type(ls := {sig}) is str and ls:",
            "    out += m._close_all()",
            '    out.append(_ReasoningEnd(key=m._fresh("sig"), signature=ls, owner=m.pid))',
        ]
    if _fast_text(row):  # the machine's shortest path: an open block takes the text at once
        text = r.on(_paths(row.text)[0], "item", where)
        fresh = parts(s)
        return [
            *out,
            *pass_on(False, f"_block{i}", "item", repr(row.key_const), text, "", fresh=fresh),
        ]
    out += steps(row, i, "item", "pos", r, where, s.blocks == "implicit", place)
    return out or ["pass"]


def _fast_text(row: DecodeRow) -> bool:
    """A row of one text path into a constant key's text or reasoning block, nothing else."""
    others = (
        row.key, row.call_id, row.name, row.arguments, row.arguments_object, row.signature,
        row.redacted, row.owner, row.separator, row.assemble, row.pieces, row.finish, row.usage,
        row.error, row.start,
    )  # fmt: skip
    return (
        len(_paths(row.text)) == 1
        and row.key_const is not None
        and not row.key_prefix
        and row.open in (None, "text", "reasoning")
        and not (row.close or row.whole or row.count or row.end or row.ends or row.blocked)
        and all(x is None for x in others)
    )


def unreachable(s: StreamSpec) -> list[tuple[int, str]]:
    """Rows of an item group after one with no condition of its own (they never run)."""
    out = []
    for ids in item_groups(s).values():
        for k, i in enumerate(ids[:-1]):
            row = s.decode[i]
            if not (row.when or row.present):
                out += [
                    (j, f"never runs: stream.decode[{i}] takes every item first")
                    for j in ids[k + 1 :]
                ]
                break
    return out


def writes_pending(s: StreamSpec) -> bool:
    """Some template writes ``$pending_signature`` (opaque state waits for the next part)."""
    enc = s.encode
    bodies: list[Any] = []
    if enc is not None:
        for tpl in enc.events.values():
            bodies += [tpl] if isinstance(tpl, dict) else [row.body for row in tpl]
        bodies += [row.body for row in enc.end]
    return "$pending_signature" in _all_vars(bodies)


def _all_vars(b: Any) -> list[str]:
    if isinstance(b, str):
        return [b] if b.startswith("$") else []
    if isinstance(b, dict):
        return [v for x in b.values() for v in _all_vars(x)]
    if isinstance(b, list):
        return [v for x in b for v in _all_vars(x)]
    return []


KINDS = ("reasoning", "text", "tool_call")


def accumulate_kinds(funcs: list[dict[str, Any]]) -> tuple[str, ...]:
    """The block kinds whose whole text the templates read: a ``<kind>_...`` template's own
    kind, every kind for the others; reasoning when another protocol's reasoning may be folded
    into ``$pending_signature`` (its text goes in the envelope)."""
    kinds: set[str] = set()
    for f in funcs:
        body = f["body"]
        if any(x in body for x in ("s.cur.", "s.encrypted(")):
            own = [k for k in KINDS if f["ev"].startswith(k + "_")]
            kinds |= set(own or KINDS)
        if "_take_folded(" in body:
            kinds.add("reasoning")
    return tuple(sorted(kinds))


def rules_imports(funcs: list[dict[str, Any]]) -> str:
    """The helpers of runtime/streams/rules.py the template functions call."""
    body = "".join(f["body"] for f in funcs)
    used = [(n, a) for n, a in (("some", "_some("), ("NONE", "_NONE)")) if a in body]
    return "".join(f", {n} as {a.rstrip('()')}" for n, a in used)


def optional_item(v: Any) -> tuple[str, ...]:
    """The optional keys of a list element made of literals and optional keys (it is left out
    when none of them has a value); () for any other element."""
    if not isinstance(v, dict):
        return ()
    opt = tuple(k[:-1] for k in v if isinstance(k, str) and k.endswith("?"))
    if opt and all(k.endswith("?") or not _all_vars(x) for k, x in v.items()):
        return opt
    return ()
