"""The generic stream encoder: canonical events -> SSE bytes, through a protocol's compiled
templates (``rules.StreamRows``).

It owns block lifecycle on the wire (how a block of each kind starts and ends, and what a start,
delta or end event does, is compiled from the encode rows: ``codegen/stream_lifecycle.py``,
``codegen/stream_feed.py``; where one block is open at a time, which block is open and which
calls wait: ``codegen/stream_sequential.py``, ``ROWS.settle`` at the endings; where blocks are
grouped, how the open group ends: ``ROWS.end_group``), reasoning blocks started lazily (so
opaque redacted reasoning can take their place), and the endings: the finish (through the finish
rule, losses reported) and usage only at a completed end, an in-band error otherwise
(``error_frame`` where the target has no error template: the body its HTTP errors have).

Item-shaped streams (OpenAI Responses; see the template variables in codegen/stream_model.py)
use, as their rows say: wire item ids (the codec's ``ITEM_ID_PREFIXES``), blocks grouped into
one wire item (the encode section's ``group``: text parts in a message item), sequence numbers,
the whole text of a block, the finished items and parts kept for the final object
(``$output``, ``$parts``), the status of items a failure ends (the raw error type and opaque
reasoning state for the client are read in place by the compiled templates:
codegen/stream_pending.py)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import count
from typing import Any

import orjson

from .._finish import finish_wire
from .._losses import Ctx
from .._pipeline import encode_error
from ..generated.canonical import (
    ErrorEvent,
    ErrorInfo,
    FinishEvent,
    StreamEnd,
    StreamStart,
    Usage,
    UsageEvent,
)
from ..transforms.responses_item_list import ItemIds
from .machine import DISCONNECTED
from .rules import StreamRows

__all__ = ["Encoder", "error_frame"]


def error_frame(err: ErrorInfo, target: str, prefix: bytes) -> bytes:
    """An in-band error event: the body ``encode_error`` gives the target's HTTP errors (with
    the status where its error_shape row says an in-band error carries it)."""
    return prefix + orjson.dumps(encode_error(err, target, inband=True)[1]) + b"\n\n"


class Encoder:
    """``losses``: what the target could not say (a finish reason it has no value for);
    ``cur``: the block (or group) a template is written for."""

    def __init__(self, codec: Any, rows: StreamRows) -> None:
        self.codec = codec
        self.closed = False
        # what the target could not say, through the rules the response path reports with; the
        # source is the translator's (StreamTranslator sets it: ctx.same keeps an unknown finish)
        self.ctx = Ctx("", rows.protocol)
        self.losses = self.ctx.losses
        self.rows = rows
        self.pid = rows.protocol
        self.on = rows.on
        self.id = rows.id_default
        self.model = "unknown"
        self.created = 0
        self.usage: Usage | None = None
        self.finish: FinishEvent | None = None
        self.finish_raw: str | int | None = None
        self.stop_sequence: str | None = None
        self.started = False
        self.blocks: dict[str, Any] = {}
        self.current: Any | None = None  # sequential: the open block
        self.waiting: dict[str, Any] = {}  # sequential: tool calls waiting, in order
        self.counters: dict[str, int] = {}
        self.calls = 0
        self.sig: str | None = None  # opaque state waiting for the next part ($pending_signature)
        self.foreign: list[Any] = []  # other protocols' reasoning, for one envelope (its rows')
        self.cur: Any = None
        self.seq = count()  # the next sequence number ($seq)
        self.status = "completed"  # "incomplete" once the stream fails
        self.kept: dict[int, Any] = {}
        self.ids: ItemIds | None = None
        self.group: Any | None = None  # the open group (the encode section's group)
        # fields a caller sets on the stream's object (every `$use` body of the templates): the
        # gateway's previous_response_id, store and echoed request fields
        self.envelope: dict[str, Any] = {}

    def usage_wire(self) -> Any:
        return self.codec.encode_usage(self.usage or Usage())

    def take_signature(self) -> str | None:
        """``$pending_signature``: the waiting state, taken."""
        sig, self.sig = self.sig, None
        return sig

    def keep(self, item: Any) -> Any:
        """A finished wire item (an end template's ``item_key``), kept for ``$output``."""
        self.kept[self.cur.index] = item
        return item

    def wire_id(self, kind: str, key: str, index: int) -> str:
        """The block's wire item id (``ItemIds``, the rule responses share): a canonical key
        (a part's is "<item key>:<position>") is the source's own id."""
        if self.ids is None:  # the first item: the stream's id is known
            self.ids = ItemIds(self.codec.ITEM_ID_PREFIXES, self.id)
        return self.ids.take(kind, key.partition(":")[0], index)

    # ------------------------------------------------------------------ feed
    def feed(self, ev: Any) -> list[bytes]:
        if self.closed:  # after the terminal event or an error the stream is over
            return []
        t = type(ev)
        out: list[bytes] = []
        if not self.started:
            self._start(ev if t is StreamStart else StreamStart(), out)
        on = self.on.get(t)  # starts, deltas, ends: compiled per protocol (stream_feed.py)
        if on is not None:
            on(self, ev, out)
        elif t is UsageEvent:
            self.usage = ev.usage
        elif t is FinishEvent:
            self.finish = ev
        elif t is ErrorEvent:
            self._fail(ev, out)
        elif t is StreamEnd:
            out += self._end(ev.ending)
        return out

    def _start(self, ev: StreamStart, out: list[bytes]) -> None:
        self.started = True
        if ev.id:
            self.id = ev.id
        if ev.model:
            self.model = ev.model
        if ev.created:
            self.created = ev.created
        if ev.usage is not None:
            self.usage = ev.usage
        if self.rows.start is not None:
            out.append(self.rows.start(self, ev, 0))

    # ---------------------------------------------------------------- blocks
    def _fail(self, ev: ErrorEvent, out: list[bytes]) -> None:
        """A failing stream: the blocks still open end as incomplete (never completed), then
        the error."""
        self.closed = True
        self.status = "incomplete"
        self.rows.settle(self, out)
        self.rows.end_group(self, out)
        self._end_open(self.blocks.values(), out)
        out.append(self.rows.error(self, ev, 0))

    def _end_open(self, blocks: Iterable[Any], out: list[bytes]) -> None:
        """The ``blocks`` not ended yet end: the source never ended them (their kind's compiled
        end, with no end event: a reasoning block's stands in one with no state)."""
        for b in list(blocks):
            if not b.ended:
                self.rows.finish[b.kind](self, b, None, out)

    # --------------------------------------------------------------- endings
    def _end(self, ending: str) -> list[bytes]:
        if self.closed:
            return []
        out: list[bytes] = []
        if not self.started:
            self._start(StreamStart(), out)
        self.closed = True
        if ending != "completed":
            self._fail(ErrorEvent(error=DISCONNECTED), out)
            return out
        self.rows.settle(self, out)
        self._end_open(self.blocks.values(), out)
        self.rows.end_group(self, out)
        f = self.finish.finish if self.finish is not None else None
        self.stop_sequence = self.finish.stop_sequence if self.finish is not None else None
        enc = self.codec.encode_finish
        self.finish_raw = finish_wire(enc, f, self.calls > 0, self.ctx, "stream.finish")
        self.rows.end(self, None, out)  # (compiled: the end rows under their conditions, then done)
        return out

    def close(self) -> list[bytes]:
        return self._end("disconnected") if not self.closed else []
