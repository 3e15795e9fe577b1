"""Compile a protocol's stream rows into generated/<id>_stream.py.

Each dotted path becomes a small lenient reader function (``None`` when a step is missing or of
the wrong type), each decode row a ``Rule`` of those readers, and each encode template a function
that builds the wire body straight from the canonical event: the generic machines in
``runtime/streams`` run them and never look at a protocol's name.
"""

from __future__ import annotations

import re
from typing import Any

from .stream_block import Facts, block_step, end_steps, parts, quiet
from .stream_encode import StreamSpecError, TemplateError, encode_view
from .stream_entry import Start, entry
from .stream_fast import delta_only as _delta_only
from .stream_fast import fast_action, pass_on
from .stream_feed import FEED_EVENTS, feed_funcs
from .stream_known import known_fields
from .stream_model import DecodeRow, StreamSpec
from .stream_pending import IMPORTS, pending_funcs
from .stream_sequential import sequential_funcs
from .stream_state import block_class
from .stream_steps import steps

_ENVELOPE = ("synth_id", "wrap_id")  # the call-id rules a block step may call
# what the compiled dispatch calls outside the machine: an in-band error read as an HTTP error
# body is, a second message spliced in (stream_steps.py)
_DECODE_IMPORTS = {
    "_error_info": "from interlingua._pipeline import error_info as _error_info",
    "_upstream_error": "from interlingua.streams.machine import upstream_error as _upstream_error",
    "_brief": "from interlingua._errors import brief as _brief",
}
_DISPATCH_NAMES = ("DELTA", "new_ToolCallDelta", "UsageEvent", "StreamStart", "ReasoningEnd",
                   "ErrorEvent", "FinishEvent")  # fmt: skip
_PREFIX = re.compile(r"^[\w.:-]*$")  # a key prefix written as it is in an f-string
_SEG = re.compile(
    r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\[(?P<field>[A-Za-z_]+)=(?P<value>[^\]]+)\])?$"
)


def _literal(v: str) -> Any:
    if v.isdigit():
        return int(v)
    if v in ("true", "false"):
        return v == "true"
    return v


class _Readers:
    """Collects one reader function per distinct path."""

    def __init__(self, seed: dict[str, str] | None = None) -> None:
        self.names: dict[str, str] = {}
        self.src: list[str] = []
        # a dialect's readers take the names its base's have (the same code, shared)
        self.seed = seed or {}
        self.n = len(self.seed)

    def _name(self, key: str) -> str:
        name = self.seed.get(key)
        if name is None:
            name, self.n = f"_r{self.n}", self.n + 1
        return name

    def __call__(self, path: str, where: str) -> str:
        if path in self.names:
            return self.names[path]
        name = self._name(path)
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

    def first(self, paths: str | list[str], where: str) -> str:
        """A reader of the first present (not None) of several paths."""
        if isinstance(paths, str) or len(paths) == 1:
            return self(paths if isinstance(paths, str) else paths[0], where)
        inner = [self(p, where) for p in paths]
        key = "first:" + "|".join(paths)
        if key in self.names:
            return self.names[key]
        name = self._name(key)
        lines = [f"def {name}(v: Any) -> Any:  # first of {', '.join(paths)}"]
        plain = [p.isidentifier() for p in paths]  # one key: read inline
        if any(plain):
            lines += ["    if type(v) is not dict:", "        return None"]
        for fn, path, one in zip(inner, paths, plain, strict=True):
            lines.append(f"    x = v.get({path!r})" if one else f"    x = {fn}(v)")
            lines += ["    if x is not None:", "        return x"]
        lines.append("    return None")
        self.names[key] = name
        self.src.append("\n".join(lines))
        return name

    def on(self, path: str | list[str], var: str, where: str, is_dict: bool = True) -> str:
        """An expression reading ``path`` from ``var`` (stream_parts.inline_read)."""
        from .stream_parts import inline_read

        return inline_read(self, path, var, where, is_dict)

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


def _op(row: DecodeRow) -> str:
    """The one thing a row does, when it does one thing only (the machine's short paths)."""
    does = {
        "block": bool(row.key or row.key_const),
        "start": row.start is not None,
        "error": row.error is not None,
        "usage": bool(row.usage),
        "other": bool(row.count or row.ends or row.finish or row.blocked or row.end or row.each),
    }
    if row.start is not None and row.restart != "ignore":
        does["other"] = True
    one = [k for k, v in does.items() if v]
    return one[0] if len(one) == 1 and one[0] != "other" else ""


def _action(
    row: DecodeRow,
    i: int,
    base: str,
    r: _Readers,
    where: str,
    ind: str,
    implicit: bool,
    fresh: bool,
    place: Start,
) -> list[str]:
    """The statements that run row ``i`` on the wire object ``base``: the machine's short
    paths for a row that only passes a value on to a block, else the row's steps
    (``stream_steps``)."""
    op = _op(row)
    block = f"_block{i}"
    if row.each is not None:
        each = steps(row, i, "item", "pos", r, where, implicit, place)
        return [
            f"{ind}items = {r(row.each, where)}({base})",
            f"{ind}if type(items) is list:",
            f"{ind}    for pos, item in enumerate(items):",
            f"{ind}        if type(item) is dict:",
            *[f"{ind}            {x}" for x in each],
        ]
    if op == "block" and _delta_only(row) and not implicit and _PREFIX.match(row.key_prefix):
        # the machine's shortest path: the value and the wire key (made from the key's first
        # path as _block makes it) read here, inline where short
        key, value = (
            r.on(p, base, where, base == "d")
            for p in (_paths(row.key)[0], (_paths(row.text) or [row.arguments or ""])[0])
        )
        wkey = f"{row.key_prefix}{{{key}}}"
        if row.sub is not None:
            wkey += (
                f":{{_s if (_s := {r.on(row.sub, base, where, base == 'd')}) is not None else 0}}"
            )
        return pass_on(row.text is None, block, base, f'f"{wkey}"', value, ind, fresh=fresh)
    fast = fast_action(row, block, base, r, where, ind, implicit, op, fresh)
    if fast is not None:
        return fast
    if op == "block" and implicit and quiet(row):  # the row's fields are read first: most
        values = [  # chunks lack them
            p for name in ("text", "arguments", "call_id") for p in _paths(getattr(row, name))
        ]
        cond = " or ".join(r.on(p, base, where, base == "d") for p in values) or "False"
        return [f"{ind}if {cond}:", f"{ind}    {block}(m, {base}, None, out)"]
    return [f"{ind}{x}" for x in steps(row, i, base, "None", r, where, implicit, place)]


def _dispatch(s: StreamSpec, where: str, r: _Readers, place: Start) -> list[str]:
    """``dispatch(m, d, out) -> matched``: the rows as straight-line code (first matching row, or
    every row in order), its returns written by ``place``."""
    first = s.match == "first"
    lines = ["def dispatch(m: Any, d: Any, out: list[Any]) -> bool:"]
    groups: dict[str | None, list[int]] = {}
    for i, row in enumerate(s.decode):
        ons: list[str | None] = list(_paths(row.event)) or [None]
        for on in ons:
            groups.setdefault(on, []).append(i)

    from .stream_parts import item_groups, items_code, read_ats

    groups_at = item_groups(s)
    in_group = {i for ids in groups_at.values() for i in ids[1:]}

    def rows(ids: list[int], ind: str) -> list[str]:
        out: list[str] = []
        read: dict[str, str] = {}  # a `when` path -> the local it is read into, once
        for i in ids:
            if i in in_group:  # run by the pass over the items of its group
                continue
            row, w = s.decode[i], f"{where}: stream.decode[{i}]"
            conds = []
            for path, want in row.when.items() if i not in groups_at else ():
                vals = tuple(want) if isinstance(want, list) else (want,)
                if path not in read:
                    read[path] = f"w{len(whens)}"
                    whens.append(path)
                    out.append(f"{ind}{read[path]} = {r.on(path, 'd', w)}")
                get = read[path]
                conds.append(f"{get} == {vals[0]!r}" if len(vals) == 1 else f"{get} in {vals!r}")
            if i not in groups_at:
                conds += [f"{r.on(path, 'd', w)} is not None" for path in _paths(row.present)]
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
            if i in groups_at:
                out += items_code(s, groups_at[i], base, r, where, inner, place)
            else:
                out += _action(row, i, base, r, w, inner, s.blocks == "implicit", parts(s), place)
            if first:
                out += place.ret("True", inner)
            elif _op(row) == "" and row.each is None:  # only such a row can end the stream
                out += [f"{inner}if m.ended is not None:", *place.ret("True", inner + "    ")]
        return out

    ats: dict[str, str] = {}
    whens: list[str] = []
    if first:  # the keys of `at` objects that no row reads: reported before the rows run
        known = known_fields(s)
        lines += read_ats({at: f"k{i}" for i, at in enumerate(known)}, r, where, known)
    quiet: list[str] = []  # known events that yield nothing (ping)
    if s.recognise is not None:
        kind = (
            f"d.get({s.recognise!r})"
            if s.recognise.isidentifier()
            else f"{r(s.recognise, where)}(d)"
        )
        lines.append(f"    kind = {kind}")  # d is a dict (stream_entry's guard)
        for event, ids in groups.items():
            if event is None:
                continue
            body = rows(ids, "        ")
            if first and body == ["        return True"]:
                quiet.append(event)
                continue
            lines += [f"    if kind == {event!r}:", *body]
            last = s.decode[ids[-1]]
            if not (first and not last.when and last.at is None):  # else it always returned
                lines += place.ret("False" if first else "matched", "        ")
        if quiet and groups.get(None):
            lines += [f"    if kind in {tuple(quiet)!r}:", *place.ret("True", "        ")]
    body = rows(groups.get(None, []), "    ")
    if not first:
        lines.append("    matched = False")
        lines += read_ats(ats, r, where, known_fields(s))
    lines += body
    if quiet and not groups.get(None):
        lines += place.ret(f"kind in {tuple(quiet)!r}", "    ")
    else:
        lines += place.ret("False" if first else "matched", "    ")
    return lines


def stream_view(
    s: StreamSpec,
    where: str,
    event_names: bool,
    seed: dict[str, str] | None = None,
    foreign: str = "none",
) -> dict[str, Any]:
    """What the stream template needs: reader sources, rules, the dispatch function, encoder
    functions (``seed``: the reader names of the base protocol, for a dialect; ``foreign``: the
    protocol's flag foreign_reasoning)."""
    from .stream_lifecycle import group_funcs, lifecycle_view
    from .stream_parts import accumulate_kinds, rules_imports, writes_pending

    r = _Readers(seed)
    facts = Facts(
        implicit=s.blocks == "implicit",
        parts=parts(s),
        subs=any(row.sub for row in s.decode),
        random_ids=s.missing_call_id == "random",
    )
    names: set[str] = set()  # what the block steps use
    blocks = [
        block_step(row, i, f"{where}: stream.decode[{i}]", r, facts, names)
        for i, row in enumerate(s.decode)
        if row.key is not None or row.key_const is not None
    ]
    ends = end_steps(s.decode, names)
    if s.recognise is None and any(row.event for row in s.decode):
        raise StreamSpecError(f"{where}: rows with `event` need the stream's `recognise` path")
    dispatch = entry(s, _dispatch(s, where, r, Start(s)))  # the start, a list of events
    used = "".join(dispatch)
    names |= {n for n in _DISPATCH_NAMES if f"_{n}(" in used or f"_{n}." in used}
    name_path = (s.recognise or "type") if event_names else None
    try:
        enc = encode_view(s.encode, where, name_path, foreign)
    except TemplateError as e:
        raise StreamSpecError(str(e)) from None
    events = {f["ev"] for f in enc["funcs"]}
    pending = writes_pending(s)
    life = lifecycle_view(s.encode, events, pending, foreign == "parts")
    held = pending_funcs(pending, foreign)
    code = "".join([*(f["body"] for f in enc["funcs"]), *life["begin"].values(),
                    *life["finish"].values(), *held.values()])  # fmt: skip
    feed = feed_funcs(s.encode, events, accumulate_kinds(enc["funcs"]), "_lone_end" in held)
    names |= {n for n in FEED_EVENTS}
    strategy = {**sequential_funcs(s.encode), **group_funcs(s.encode)}
    decoding = "\n".join([*blocks, *ends.values(), *dispatch])
    encoding = "\n".join([code, enc["end"], *feed.values(), *strategy.values()])
    names |= {n.lstrip("_") for n in life["names"] if n in ("_ToolCallDelta", "_ReasoningEnd")}
    return {
        "life": life,
        "strategy": strategy,
        "classes": [
            block_class("_Block", decoding, True),
            block_class("_ItemBlock", encoding, False),
        ],
        "feed": feed,
        "readers": r.src,
        "reader_names": r.names,
        "blocks": blocks,
        "ends": ends,
        "canonical": sorted(n for n in names if n not in ("DELTA", *_ENVELOPE)),
        "delta": "DELTA" in names,
        "envelope": sorted(n for n in names if n in _ENVELOPE),
        "dispatch": "\n".join(dispatch),
        "s": s,
        "enc": s.encode,
        "funcs": enc["funcs"],
        "omit": "_omit(" in "".join([*(f["body"] for f in enc["funcs"]), enc["end"]]),
        "end": enc["end"],
        "error_frame": any(f["body"].startswith("    return _error_frame(") for f in enc["funcs"]),
        "special": [*([s.done_sentinel] if s.done_sentinel else []), *s.skip_data],
        "assemblers": sorted({row.assemble for row in s.decode if row.assemble}),
        "imports": rules_imports([*enc["funcs"], {"body": enc["end"]}]),
        "arguments_object": any("_arguments_object(" in f["body"] for f in enc["funcs"]),
        "held": list(held.values()),
        "held_imports": [
            line
            for name, line in {**IMPORTS, **_DECODE_IMPORTS}.items()
            if f"{name}(" in code + used or f"{name})" in code
        ],
    }
