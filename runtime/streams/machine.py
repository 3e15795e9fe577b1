"""The generic stream decoder: wire SSE events -> canonical events, driven by a protocol's
compiled stream rows (``rules.StreamRows``).

A decoder is I/O-free, fed one event at a time (``feed``) and finished by ``close``, so the same
object serves sync, async, the CLI and the gateway. It owns what every protocol shares: the start
(once, at the head of its event's output, as the compiled dispatch places it:
codegen/stream_entry.py; a second message spliced in fails the stream where the rows say so),
block lifecycle per vendor key (start / delta / end, implicit ends where the protocol has no end
events), tool-argument text passed on per call, opaque reasoning state gathered per block and
handed out with its end, usage merged as it grows, the finish rule, in-band errors and the three
endings (completed, failed, disconnected).

Whole parts (Gemini) need no protocol name here either: opaque state on an item that is no
reasoning (``lone_signature``) becomes a reasoning end with no start in the compiled dispatch; a
signature on a call rides in its id (the signature envelope, wrapped by the row's compiled step,
which also makes the id of a call sent without one, as ``missing_call_id`` says); call arguments
sent in pieces are joined by a named stream transform (``assemble``, fed by the row's compiled
step) and passed on as one delta by the call's compiled end; a data line holding a list of events
runs each (``batches``, compiled into the dispatch: codegen/stream_entry.py).

What a row reads is compiled into the dispatch (codegen/stream_steps.py): the finish through
the finish rule (the codec's ``decode_finish``, the response path's); an in-band error (a row's
``error`` path and ``error_type``) read by the codec's ``read_error`` (error_shape compiled) and
the error table, as HTTP errors are; a second start where the rows say ``restart: fail`` (another
message spliced in fails the stream). A stream that went wrong on its own is a bad gateway
(``upstream_error``): data that is not JSON (``bad_data``), a cut stream (``DISCONNECTED``), a
usage asked for that never came (``USAGE_LOST``), a second message spliced in."""

from __future__ import annotations

from typing import Any

import orjson

from .._codec_support import said
from .._errors import InvalidInput
from .._sse import SSEEvent
from .._wire import MAX_DEPTH, check_parsed
from ..generated.canonical import (
    ErrorEvent,
    ErrorInfo,
    StreamEnd,
    Usage,
    new_ReasoningDelta,
    new_TextDelta,
)
from .rules import StreamRows

__all__ = ["DELTA", "DISCONNECTED", "Decoder", "upstream_error"]

# a text or reasoning block's delta
DELTA = {"text": new_TextDelta, "reasoning": new_ReasoningDelta}
_DEEP = 2 * MAX_DEPTH  # data longer than this may nest deeper than the encoders write back


def upstream_error(message: str) -> ErrorInfo:
    """An upstream stream that went wrong on its own: a bad gateway (502)."""
    return ErrorInfo(type="bad_gateway", message=message, status=502)


DISCONNECTED = upstream_error("upstream stream ended without its terminal event")
USAGE_LOST = upstream_error(
    "upstream stream ended after its finish but before the usage it was asked for and its "
    "terminal event: the usage is lost"
)


def bad_data(e: Exception) -> ErrorEvent:
    """The in-band failure of an event whose data is not JSON (``e``: orjson's error) or nests
    deeper than the encoders can write (``InvalidInput`` from ``check_parsed``)."""
    why = f"has a value {e}" if isinstance(e, InvalidInput) else "is not JSON"
    return ErrorEvent(error=upstream_error(f"upstream sent an SSE event that {why}"))


class Decoder:
    """Its endings: completed (terminal event seen), failed (an error event) or disconnected;
    and what it read no canonical home for. At close a stream is complete after a finish where
    the rows say so (and the usage asked for came), else disconnected."""

    def __init__(self, codec: Any, rows: StreamRows) -> None:
        self.codec = codec
        self.ended: str | None = None
        self.ignored = 0  # unknown event types: tolerated and counted
        # the request asked for usage at the end (Chat's stream_options.include_usage): a stream
        # that stops after its finish but before the usage is cut, not complete
        self.expect_usage = False
        # (kind, wire path) with no canonical home -> times seen; kind: "field" or "event"
        self.unread: dict[tuple[str, str], int] = {}
        self.rows = rows
        self.pid = rows.protocol
        self.blocks: dict[str, Any] = {}  # wire key -> its current block
        self.open: list[Any] = []  # open blocks in start order
        self.used: set[str] = set()  # canonical keys given out
        self.calls = 0
        self.msg_id: str | None = None  # None: not started
        self.raw_usage: dict[str, Any] = {}
        self.finished = False
        self.special = rows.special  # data lines that are no JSON
        self.seq: dict[str, int] = {}  # wire key -> next suffix for a fresh canonical key

    # ------------------------------------------------------------------ feed
    def feed(self, ev: SSEEvent) -> list[Any]:
        if self.ended is not None:  # nothing after the terminal event counts
            self.ignored += 1
            return []
        data = ev.data
        if self.special and data in self.special:
            return self._end("completed") if data == self.rows.done_sentinel else []
        try:
            d = orjson.loads(data)
            if len(data) > _DEEP:  # (shorter data cannot nest too deep)
                check_parsed(d)  # InvalidInput: too deep for the encoders to write back
        except (orjson.JSONDecodeError, InvalidInput) as e:
            return self._end("failed", bad_data(e))
        out: list[Any] = []
        if not self.rows.dispatch(self, d, out):  # the rows, the start, a list of events
            self.ignored += 1
        return out

    def usage_of(self, u: dict[str, Any]) -> Usage:
        """A usage object, merged into what came before."""
        self.raw_usage = {**self.raw_usage, **{k: v for k, v in u.items() if v is not None}}
        return self.codec.decode_usage(self.raw_usage, "usage")  # type: ignore[no-any-return]

    # ---------------------------------------------------------------- blocks
    # A row's block step is compiled per row (generated ``_block<i>``, codegen/stream_block.py);
    # a row with one text or argument path is compiled to a short path first
    # (codegen/stream_fast.py ``pass_on``): an open block of its kind takes the delta at once,
    # anything else goes through the step.
    def _new(self, kind: str, wkey: str) -> Any:
        """A block of ``kind`` opens at ``wkey`` (the step writes its start; with implicit
        blocks it ends the open ones of another kind first): the protocol's compiled block
        class, with the state its rows keep (codegen/stream_state.py)."""
        b = self.blocks[wkey] = self.rows.block(kind, self._fresh(wkey))
        self.open.append(b)
        return b

    def _fresh(self, wkey: str) -> str:
        """A canonical key not given out yet: ``wkey``, then ``wkey.1``, ``wkey.2`` ..."""
        n = self.seq.get(wkey, 0)
        key = wkey if n == 0 else f"{wkey}.{n}"
        while key in self.used:
            n += 1
            key = f"{wkey}.{n}"
        self.seq[wkey] = n + 1
        self.used.add(key)
        return key

    def _close(self, b: Any, out: list[Any]) -> None:
        """A block ends once: its kind's compiled end (``ROWS.close``, codegen/stream_block.py)
        writes its end event with what its rows gathered."""
        if b.open:
            b.open = False
            self.open.remove(b)
            self.rows.close[b.kind](self, b, out)

    def _close_all(self) -> list[Any]:
        out: list[Any] = []
        for b in list(self.open):
            self._close(b, out)
        return out

    # --------------------------------------------------------------- endings
    def drop(self, path: str, kind: str = "field") -> None:
        """A wire field or event with no canonical home: reported once, with its count."""
        self.unread[kind, path] = self.unread.get((kind, path), 0) + 1

    def drop_fields(self, obj: dict[str, Any], keys: frozenset[str], at: str) -> None:
        """Report the keys of ``obj`` outside ``keys`` that say something (``said``). The common
        case is tested first, in the loop ``said`` would run: no key outside ``keys`` holds more
        than null (Chat's ``logprobs: null`` on every chunk), so there is nothing to report."""
        for k, v in obj.items():
            if v is not None and k not in keys:
                break
        else:
            return
        for k in said(obj, keys):
            self.drop(f"{at}.{k}")

    def _end(self, ending: str, *events: Any) -> list[Any]:
        """The open blocks end, then ``events`` (an error), then the stream."""
        out = self._close_all()
        out += events
        self.ended = ending
        out.append(StreamEnd(ending=ending))
        return out

    def close(self) -> list[Any]:
        if self.ended is not None:
            return []
        if self.finished and self.rows.end_after_finish:
            if not self.expect_usage or self.raw_usage:  # the usage asked for came
                return self._end("completed")
            return self._end("disconnected", ErrorEvent(error=USAGE_LOST))
        self.ended = "disconnected"  # (the open blocks stay open: the stream was cut)
        return [StreamEnd(ending="disconnected")]
