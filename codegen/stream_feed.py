"""The encoder's handling of the events that build and end blocks, compiled per protocol from
its ``encode`` section into generated/<id>_stream.py (``ROWS.on``: canonical event type ->
handler, and ``ROWS.args``): a block's start, a text or reasoning delta, a call's argument text,
a block's end (a reasoning end with no block: its state waits for the next part where the
templates write it, ``_lone_end``, codegen/stream_pending.py; else it says nothing).

The section decides when codegen runs what the encoder (``runtime/streams/encoder.py``) would
otherwise ask at every event: whether blocks are sequential (one open at a time: a delta for a
block that is not the open one opens a new block, and a tool call that starts while another one
is open waits with its argument text: codegen/stream_sequential.py), whether a kind's text is kept (``accumulate``: the
templates read it), and whether a kind has a delta template at all. A block starts on the wire
once (its kind's compiled ``_begin_<kind>``, codegen/stream_lifecycle.py); a reasoning block
starts with its first delta (so opaque redacted reasoning can take its place)."""

from __future__ import annotations

from .stream_model import EncodeSpec
from .stream_sequential import open_block

__all__ = ["FEED_EVENTS", "feed_funcs"]

_DELTA_EVENT = {"text": "TextDelta", "reasoning": "ReasoningDelta"}
_START_EVENT = {"text": "TextStart", "reasoning": "ReasoningStart", "tool_call": "ToolCallStart"}
_END_EVENTS = ("TextEnd", "ToolCallEnd", "ReasoningEnd")
FEED_EVENTS = (*_DELTA_EVENT.values(), "ToolCallDelta", *_START_EVENT.values(), *_END_EVENTS)


def _open(enc: EncodeSpec, kind: str, ind: str) -> list[str]:
    """A new block of ``kind`` for ``ev.key`` (sequential: the open one ends first)."""
    return [ind + line for line in open_block(enc, kind)]


def _starts(kind: str, ind: str) -> list[str]:
    return [f"{ind}b.started = True", f"{ind}_begin_{kind}(s, b, out)"]


def _takes(kind: str, value: str, events: set[str], acc: tuple[str, ...]) -> list[str]:
    """What a delta of a started block does: its text kept, its template written."""
    out = ["    b.deltas += 1", f"    b.pieces.append(ev.{value})"] if kind in acc else []
    if f"{kind}_delta" in events:
        out += ["    s.cur = b", f"    out.append(_{kind}_delta(s, ev, b.index))"]
    return out


def feed_funcs(
    enc: EncodeSpec, events: set[str], acc: tuple[str, ...], lone: bool
) -> dict[str, str]:
    """Handler name -> its source (``ROWS.on``: event class -> handler; ``lone``: the module
    has ``_lone_end``)."""
    seq = enc.blocks == "sequential"
    fns: dict[str, list[str]] = {}
    for kind, cls in _DELTA_EVENT.items():
        other = f"b.kind != {kind!r}" + (" or s.current is not b" if seq else "")
        fns[f"_on_{cls}"] = [
            "    b = s.blocks.get(ev.key)",
            f"    if b is None or b.ended or {other}:",
            *_open(enc, kind, "        "),
            "    if not b.started:",
            *_starts(kind, "        "),
            *_takes(kind, "text", events, acc),
        ]
    call = [
        "    b = s.blocks.get(ev.key)",
        '    if b is None or b.kind != "tool_call":',
        "        return",
    ]
    if seq:  # a call waiting for the open one keeps its text
        call += [
            "    if b.queued is not None:",
            "        b.queued.append(ev.arguments)",
            "        return",
        ]
    fns["_on_ToolCallDelta"] = [*call, "    if not b.ended:", "        _args(s, b, ev, out)"]
    fns["_args"] = ["    b.args = True", *_takes("tool_call", "arguments", events, acc)]
    for kind, cls in _START_EVENT.items():
        body = _open(enc, kind, "    ")
        if kind == "reasoning":  # it starts with its first delta
            body[0] = body[0] if seq else body[0].replace("b = ", "", 1)
        elif kind == "tool_call" and seq:
            body += ["    if b.queued is None:", *_starts(kind, "        ")]
        else:
            body += _starts(kind, "    ")
        fns[f"_on_{cls}"] = body
    end = "_end_block(s, b, ev, out)" if seq else "s.rows.finish[b.kind](s, b, ev, out)"
    for cls in _END_EVENTS:  # (a block of any kind ends the same way)
        fns[f"_on_{cls}"] = [
            "    b = s.blocks.get(ev.key)",
            "    if b is not None and not b.ended:",
            f"        {end}",
        ]
    if lone:
        fns["_on_ReasoningEnd"] += ["    elif b is None:", "        _lone_end(s, ev)"]
    return {name: "\n".join(lines) for name, lines in fns.items()}
