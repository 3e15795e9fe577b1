"""A block's life on the wire, compiled per block kind from a protocol's ``encode`` section: how
a text, reasoning or tool-call block starts (``_begin_<kind>``) and ends (``_finish_<kind>``) in
generated/<id>_stream.py. The section says it all when codegen runs: the index counter of each
kind (``index``), whether blocks of a kind share one wire item (``group``), whether blocks have
wire item ids (``ids``), which templates exist (a redacted reasoning block, a signature delta),
whether opaque state waits for the next part (``$pending_signature``), the argument text of a call
that streamed none (``empty_arguments``). The encoder (``runtime/streams/encoder.py``) keeps what
varies at run time: which block is open, which calls wait, the open group, the counters' values.

A block starts once (the encoder marks it started and calls ``_begin_<kind>``): a block of the
grouped kind joins the open group or starts one (its wire item: the group's index and id); any
other kind ends the open group, takes the next index of its counter (tool calls are counted), its
wire item id, and writes its start template. A block ends (``_finish_<kind>``, its source's end
event or none, for which a reasoning block's end stands in one with no state): a call's own
signature (its id's envelope) and another protocol's reasoning state wait for the next part; a
reasoning block whose state is for this client and redacted, and that never started, is written as
the redacted template instead; else it starts if it has not, and its signature goes out; a call
that streamed no argument text gets ``empty_arguments`` (only in a completed stream: a cut call's
arguments never ended); its end template is written."""

from __future__ import annotations

import re
from typing import Any

from .stream_model import EncodeSpec

KINDS = ("text", "reasoning", "tool_call")


def _count(enc: EncodeSpec, kind: str, target: str) -> list[str]:
    """``target`` takes the next index of the kind's counter (no counter: it keeps -1)."""
    name = enc.counters.get(kind)
    if name is None:
        return []
    return [f"    s.counters[{name!r}] = {target} = s.counters.get({name!r}, -1) + 1"]


def _write(tpl: str, events: set[str], ev: str, block: str) -> list[str]:
    """The template ``tpl`` written for ``block`` (nothing where the protocol has none)."""
    if tpl not in events:
        return []
    return [f"    s.cur = {block}", f"    out.append(_{tpl}(s, {ev}, {block}.index))"]


def begin(enc: EncodeSpec, kind: str, events: set[str]) -> list[str]:
    """The body of ``_begin_<kind>(s, b, out)``."""
    if enc.group == kind:  # the group's wire item starts with its first block
        return [
            "    g = s.group",
            "    if g is None:",
            '        g = s.group = _ItemBlock("group", None, b.key)',
            "        g.started = True",
            *["    " + x for x in _count(enc, kind, "g.index")],
            f"        g.wid = s.wire_id({kind!r}, b.key, g.index)",
            *["    " + x for x in _write("group_start", events, "None", "g")],
            "    b.group, b.index, b.part, b.wid = g, g.index, len(g.children), g.wid",
            "    g.children.append(b)",
            *_write(f"{kind}_start", events, "b.ev", "b"),
        ]
    out = ["    _end_group(s, out)"] if enc.group is not None else []
    out += _count(enc, kind, "b.index")
    if kind == "tool_call":
        out.append("    s.calls += 1")
    if enc.ids:
        out.append(f"    b.wid = s.wire_id({kind!r}, b.key, b.index)")
    return out + _write(f"{kind}_start", events, "b.ev", "b") or ["    pass"]


def finish(enc: EncodeSpec, kind: str, events: set[str], pending: bool, fold: bool) -> list[str]:
    """The body of ``_finish_<kind>(s, b, ev, out)`` (``ev``: the end event, or None where the
    source never ended the block; ``fold``: another protocol's reasoning folds into the next
    part's state, codegen/stream_pending.py)."""
    out: list[str] = []
    if kind == "tool_call" and pending:  # the call's own signature waits for its part
        out += [
            "    if b.ev is not None and (own := _unwrap_id(b.ev.id)[1]) is not None:",
            "        s.sig = own",
        ]
    if kind == "reasoning":
        if pending and fold:  # another protocol's reasoning state waits for the next part
            out.append('    _keep_foreign(s, "".join(b.pieces), ev)')
        if {"reasoning_signature", "reasoning_redacted"} & events:  # state for this client
            out.append("    mine = ev.owner in MINE")
        start = _wire_start(kind)
        if "reasoning_signature" in events:
            start += ["    if mine and ev.signature:", *_write_in("reasoning_signature", "b")]
        if "reasoning_redacted" in events:
            out += [
                "    if mine and ev.redacted and not b.started:",
                "        b.started = True",
                *["    " + x for x in _count(enc, kind, "b.index")],
                "        out.append(_reasoning_redacted(s, ev, b.index))",
                "    else:",
                *["    " + x for x in start],
            ]
        else:
            out += start
    else:
        out += _wire_start(kind)
    if kind == "tool_call" and enc.empty_arguments is not None:
        out += [
            '    if not b.args and s.status == "completed":  # a cut call\'s arguments never ended',
            f"        _args(s, b, _ToolCallDelta(key=b.key, arguments={enc.empty_arguments!r}), out)",
        ]
    out = [*out, "    b.ended = True", *_write(f"{kind}_end", events, "ev", "b")]
    if kind == "reasoning" and any(re.search(r"\bev\b", x) for x in out):
        # a block the source never ended (or whose key it ended as another kind) ends as a
        # reasoning end with no state would end it
        out[:0] = ["    if type(ev) is not _ReasoningEnd:", "        ev = _ReasoningEnd(key=b.key)"]
    return out


def _wire_start(kind: str) -> list[str]:
    """A block that never started on the wire starts before it ends."""
    return [
        "    if not b.started:",
        "        b.started = True",
        f"        _begin_{kind}(s, b, out)",
    ]


def group_funcs(enc: EncodeSpec) -> dict[str, str]:
    """Where blocks of a kind share one wire item (``group``), signature -> source of how the
    open group ends (its blocks first, all of the grouped kind, then its wire item: the encoder
    calls it at the endings, ``ROWS.end_group``, and a block of another kind before it starts)
    and of how a finished part is kept for the group's ``$parts`` (``part_key``); none
    elsewhere."""
    if enc.group is None:
        return {}
    fns = {
        "_end_group(s: Any, out: list[Any]) -> None": [
            "g, s.group = s.group, None",
            "if g is None:",
            "    return",
            "for b in g.children:",
            "    if not b.ended:",
            f"        _finish_{enc.group}(s, b, None, out)",
            "g.ended = True",
            "s.cur = g",
            "out.append(_group_end(s, None, g.index))",
        ],
    }
    if enc.part_key is not None:
        fns["_keep_part(s: Any, part: Any) -> Any"] = [
            "s.cur.group.parts[s.cur.part] = part",
            "return part",
        ]
    return {sig: "\n".join("    " + line for line in body) for sig, body in fns.items()}


def _write_in(tpl: str, block: str) -> list[str]:
    return [f"        s.cur = {block}", f"        out.append(_{tpl}(s, ev, {block}.index))"]


def lifecycle_view(enc: EncodeSpec, events: set[str], pending: bool, fold: bool) -> dict[str, Any]:
    """``begin`` / ``finish``: kind -> its function's body; ``names``: what they import."""
    b = {k: "\n".join(begin(enc, k, events)) for k in KINDS}
    f = {k: "\n".join(finish(enc, k, events, pending, fold)) for k in KINDS}
    text = "".join([*b.values(), *f.values()])
    names = [n for n in ("_ItemBlock", "_ToolCallDelta", "_ReasoningEnd") if f"{n}(" in text]
    return {"begin": b, "finish": f, "names": names}
