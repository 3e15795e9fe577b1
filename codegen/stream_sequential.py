"""Where a protocol forbids interleaved blocks (its ``encode`` section's ``blocks: sequential``:
Anthropic, Cohere), one block is open on the wire at a time: the encoder's block lifecycle for it
is compiled into generated/<id>_stream.py from the section, and an interleaving protocol's module
carries none of it (its ends call the kind's ``_finish_<kind>`` through ``ROWS.finish``).

A new block (``open_block``) ends the open one (``s.current``) first, except a tool call that
starts while another call is open: it waits (``s.waiting``, in order) with the argument text it
gets (``b.queued``). A block's end (``_end_block``) ends a waiting call only as a mark; the open
block's end starts the waiting calls in order (``_flush``: each starts, takes its text and, if the
source ended it, ends), the first one still streaming staying open. Only tool calls wait, so the
calls' own start, argument and end steps are called by name. A block of another kind, the end of
the stream and a failure end the open block and every waiting call after it (``_settle``; a
failure ends them through ``Encoder._end_open``, which calls ``ROWS.end_block``)."""

from __future__ import annotations

from .stream_model import EncodeSpec

__all__ = ["open_block", "sequential_funcs"]


def open_block(enc: EncodeSpec, kind: str) -> list[str]:
    """The statements that make ``b``, the new block of ``kind`` at ``ev.key``."""
    new = f"b = s.blocks[ev.key] = _ItemBlock({kind!r}, ev, ev.key)"
    if enc.blocks != "sequential":
        return [new]
    if kind != "tool_call":
        return [new, "_settle(s, out)", "s.current = b"]
    return [
        new,
        'if (cur := s.current) is not None and cur.kind == "tool_call":  # it waits',
        "    b.queued = []",
        "    s.waiting[ev.key] = b",
        "else:",
        "    _settle(s, out)",
        "    s.current = b",
    ]


def sequential_funcs(enc: EncodeSpec) -> dict[str, str]:
    """Name -> source of the compiled strategy (none for an interleaving protocol)."""
    if enc.blocks != "sequential":
        return {}
    fns = {
        "_settle(s: Any, out: list[Any]) -> None": [
            "while (b := s.current) is not None:  # (its end starts the next waiting call)",
            "    _end_block(s, b, None, out)",
        ],
        "_end_block(s: Any, b: Any, ev: Any, out: list[Any]) -> None": [
            "if b.queued is not None:  # a call still waiting: it ends when it starts",
            "    b.ended = True",
            "    return",
            "s.rows.finish[b.kind](s, b, ev, out)",
            "if s.current is b:",
            "    s.current = None",
            "    _flush(s, out)",
        ],
        "_flush(s: Any, out: list[Any]) -> None": [
            "while s.waiting:",
            "    b = s.waiting.pop(next(iter(s.waiting)))",
            "    pieces, b.queued = b.queued, None",
            "    s.current = b",
            "    b.started = True",
            "    _begin_tool_call(s, b, out)",
            "    if pieces:",
            '        _args(s, b, _ToolCallDelta(key=b.key, arguments="".join(pieces)), out)',
            "    if not b.ended:  # still streaming: it stays open",
            "        return",
            "    b.ended = False",
            "    _finish_tool_call(s, b, None, out)",
            "    s.current = None",
        ],
    }
    return {sig: "\n".join("    " + line for line in body) for sig, body in fns.items()}
