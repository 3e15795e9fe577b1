"""The generic stream decoder: wire SSE events -> canonical events, driven by a protocol's
compiled stream rows (``rules.StreamRows``).

It owns what every protocol shares: the start (once; a second message spliced in fails the
stream where the rows say so), block lifecycle per vendor key (start / delta / end, implicit ends
where the protocol has no end events), tool-argument text passed on per call, opaque reasoning
state gathered per block and handed out with its end, usage merged as it grows, the finish rule,
in-band errors and the three endings (completed, failed, disconnected)."""

from __future__ import annotations

from typing import Any

import orjson

from .._errors import InvalidInput, brief
from .._finish import decode_finish
from .._sse import SSEEvent
from .._wire import MAX_DEPTH, check_writable
from ..generated.canonical import (
    ErrorEvent,
    ErrorInfo,
    FinishEvent,
    ReasoningEnd,
    ReasoningStart,
    StreamStart,
    TextEnd,
    TextStart,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
    Usage,
    UsageEvent,
    new_ReasoningDelta,
    new_TextDelta,
    new_ToolCallDelta,
)
from ._base import StreamDecoderBase, bad_data
from .parts import PartsDecoding
from .rules import Rule, StreamRows

__all__ = ["Decoder"]

# a text or reasoning block's start event and delta
_START = {"text": TextStart, "reasoning": ReasoningStart}
_DELTA = {"text": new_TextDelta, "reasoning": new_ReasoningDelta}
_DEEP = 2 * MAX_DEPTH  # data longer than this may nest deeper than the encoders write back


class _Block:
    __slots__ = (
        "kind", "key", "call_id", "sig", "redacted", "open", "owner", "parent", "fresh", "acc",
    )  # fmt: skip

    def __init__(self, kind: str, key: str) -> None:
        self.parent: str | None = None  # the wire key it ends with (rule.sub)
        self.fresh = True  # no delta since it opened (or since its last separator)
        self.kind = kind
        self.key = key
        self.call_id: str | None = None
        self.sig: list[str] = []
        self.redacted: str | None = None
        self.open = True
        self.owner: str | None = None  # read from the wire (rule.owner); None: the protocol
        self.acc: Any = None  # (assemble transform, its state): arguments joined at the end


class Decoder(PartsDecoding, StreamDecoderBase):
    def __init__(self, codec: Any, rows: StreamRows) -> None:
        super().__init__(codec)
        self.rows = rows
        self.pid = rows.protocol
        self.blocks: dict[str, _Block] = {}  # wire key -> its current block
        self.open: list[_Block] = []  # open blocks in start order
        self.used: set[str] = set()  # canonical keys given out
        self.calls = 0
        self.msg_id: str | None = None  # None: not started
        self.raw_usage: dict[str, Any] = {}
        self.finished = False
        self.has_calls = False
        self.pending: StreamStart | None = None  # the start read from this event
        self.subs = False  # some block has a parent key (rule.sub)
        self.parts = rows.parts  # rows with sub / whole / separator
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
                check_writable(d)  # InvalidInput: too deep for the encoders to write back
        except (orjson.JSONDecodeError, InvalidInput) as e:
            return self._end("failed", bad_data(e))
        if type(d) is not dict:
            if type(d) is list and self.rows.batches:
                return self._batch(d)
            self.ignored += 1
            return []
        return self._event(d)

    def _event(self, d: dict[str, Any]) -> list[Any]:
        R = self.rows
        out: list[Any] = []
        matched = R.dispatch(self, d, out)
        if not matched:
            self.ignored += 1
        start = self.pending  # the start read from this event (reset here)
        if start is not None:
            self.pending = None
            # a start event of its own always starts; a start read from every chunk (Chat)
            # waits for a chunk that says something (Azure opens with an anonymous filter chunk)
            if self.msg_id is None and (start.id or out or R.start_event):
                self.msg_id = start.id or ""
                out.insert(0, start)
        return out

    def _start(self, mid: Any, model: Any, created: Any, out: list[Any]) -> bool:
        """Record the start (read by the generated dispatch, which calls this again only where
        the rows say ``restart: fail``): a second start is True (the row's other steps do not
        run), and a start of another message ends the stream."""
        mid = str(mid) if mid else None
        if self.msg_id is not None:
            if mid and mid != self.msg_id:
                err = ErrorInfo(
                    type="bad_gateway",
                    message=f"upstream started message {brief(mid)} inside message {brief(self.msg_id)}",
                    status=502,
                )
                out += self._end("failed", ErrorEvent(error=err))
            else:  # the same message started again: nothing new
                self.ignored += 1
            return True
        self.pending = StreamStart(
            id=mid,
            model=model if type(model) is str and model else None,
            created=created if type(created) is int else None,
        )
        return False

    def _usage(self, u: dict[str, Any], out: list[Any], at_start: bool = False) -> None:
        """A usage object: merged into what came before (``at_start``: the start's own usage,
        Anthropic message_start)."""
        self.raw_usage = {**self.raw_usage, **{k: v for k, v in u.items() if v is not None}}
        usage: Usage = self.codec.decode_usage(self.raw_usage, "usage")
        if at_start and self.pending is not None:
            self.pending.usage = usage
        else:
            out.append(UsageEvent(usage=usage))

    def _finish(self, raw: Any, seq: Any, unified: str | None, out: list[Any]) -> None:
        """A raw finish value through the finish rule (``unified``: the row's own, a blocked
        prompt)."""
        self.finished = True
        fin = decode_finish(self.codec, raw, self.has_calls)
        if unified is not None:
            fin.unified = unified
        out.append(FinishEvent(finish=fin, stop_sequence=seq))

    # ---------------------------------------------------------------- blocks
    def _delta(self, rule: Rule, w: Any, wkey: str, v: Any, out: list[Any]) -> None:
        """A row with one text or argument path (codegen picks it, reads the value ``v`` and
        makes the wire key ``wkey`` as ``_block`` would): an open block of its kind takes the
        delta at once, anything else goes through ``_block``."""
        b = self.blocks.get(wkey)
        if b is None or not b.open:
            self._block(rule, w, None, out)
            return
        if not v or type(v) is not str:
            return
        new = _DELTA.get(b.kind) if rule.text else None
        if new is not None:
            out.append(new(key=b.key, text=v))
        elif rule.arguments is not None and b.kind == "tool_call":
            out.append(new_ToolCallDelta(key=b.key, arguments=v))
        else:  # another kind of block (ignored ones count it)
            self._block(rule, w, None, out)
            return
        b.fresh = False

    def _block(self, rule: Rule, w: Any, pos: int | None, out: list[Any]) -> None:
        text = None
        for get in rule.text:
            t = get(w)
            if t and type(t) is str:
                text = t
                break
        args = rule.arguments(w) if rule.arguments is not None else None
        if type(args) is not str:
            args = None
        cid = rule.call_id(w) if rule.call_id is not None else None
        sig = rule.signature(w) if rule.signature is not None else None
        sig = sig if sig and type(sig) is str else None
        red = rule.redacted(w) if rule.redacted is not None else None
        red = red if red and type(red) is str else None
        if not (text or args or cid) and self.rows.implicit_blocks and rule.quiet:
            return  # a chunk without this row's fields: nothing opens, nothing moves
        if rule.key_const is not None:
            wkey = rule.key_const
        else:
            k = rule.key(w) if rule.key is not None else None
            wkey = rule.key_prefix + str(k if k is not None else pos)
        if self.parts and rule.sub is not None:
            sub = rule.sub(w)
            wkey = f"{wkey}:{sub if sub is not None else 0}"
        b = self.blocks.get(wkey)
        if rule.open is not None:
            implicit = self.rows.implicit_blocks
            if b is not None and b.open and cid and b.call_id is not None and str(cid) != b.call_id:
                self._close(b, out)  # a new call id at a known key: a new call
            if (b is None or not b.open) and (
                not implicit
                or text
                or args
                or cid
                or (rule.sure and rule.open == "tool_call")
                or ((rule.owner or rule.sure) and (sig or red))  # opaque state opens it
            ):
                b = self._new(rule, wkey, w, cid, sig, out)
                if self.parts and rule.sub is not None:  # it ends with the block of its key
                    b.parent = wkey.rpartition(":")[0]
                    self.subs = True
        if rule.close and self.subs:  # the blocks under this key end first
            for o in [o for o in self.open if o.parent == wkey]:
                self._close(o, out)
        if b is None or not b.open:
            if (text or args) and not rule.whole:
                self.ignored += 1
            return
        if self.parts and self._part(rule, b, bool(text or args), out):
            text = args = None
        if b.kind == "ignored" or (text and b.kind == "tool_call"):
            if text or args or rule.signature is not None:
                self.ignored += 1  # (text sent at the key of a tool call: not the call's)
        elif text:
            out.append(_DELTA[b.kind](key=b.key, text=text))
        if b.kind == "tool_call":
            if rule.assemble is not None:
                self._assemble(rule, b, w)
            elif args:
                out.append(new_ToolCallDelta(key=b.key, arguments=args))
            if rule.arguments_object is not None and rule.assemble is None:
                obj = rule.arguments_object(w)
                if obj and type(obj) is dict:
                    out.append(ToolCallDelta(key=b.key, arguments=orjson.dumps(obj).decode()))
        elif b.kind == "reasoning":
            if sig:
                b.sig.append(sig)
            own = rule.owner(w) if rule.owner is not None else None
            if own is not None:
                b.owner = own[0]
                if own[1] == "encrypted" and red:  # this owner's signature is encrypted data
                    b.sig.append(red)
                    red = None
            if red:
                b.redacted = red
        if rule.close:
            self._close(b, out)

    def _part(self, rule: Rule, b: _Block, value: bool, out: list[Any]) -> bool:
        """Whole values and separators (rows.parts): True when the row's value is dropped (a
        whole value after deltas)."""
        if rule.separator is not None:
            if not b.fresh and b.kind in _DELTA:
                out.append(_DELTA[b.kind](key=b.key, text=rule.separator))
            b.fresh = True
            return False
        if rule.whole and not b.fresh:  # deltas said it already
            return True
        if value:
            b.fresh = False
        return False

    def _new(self, rule: Rule, wkey: str, w: Any, cid: Any, sig: Any, out: list[Any]) -> _Block:
        kind = rule.open or "ignored"
        if self.rows.implicit_blocks:  # another kind starting ends the open blocks
            for o in list(self.open):
                if o.kind != kind or kind != "tool_call":
                    self._close(o, out)
        key = self._fresh(wkey)
        b = _Block(kind, key)
        self.blocks[wkey] = b
        self.open.append(b)
        if kind in _START:
            out.append(_START[kind](key=key))
        elif kind == "tool_call":
            b.call_id = self._call_id(cid, sig)
            self.calls += 1
            self.has_calls = True
            name = rule.name(w) if rule.name is not None else None
            out.append(ToolCallStart(key=key, id=b.call_id, name=name if type(name) is str else ""))
        else:
            self.ignored += 1
            self.drop(self._what(rule, w), "event")
        return b

    def _close(self, b: _Block, out: list[Any]) -> None:
        if not b.open:
            return
        b.open = False
        self.open.remove(b)
        if b.kind == "text":
            out.append(TextEnd(key=b.key))
        elif b.kind == "tool_call":
            if b.acc is not None:
                self._assembled(b, out)
            out.append(ToolCallEnd(key=b.key))
        elif b.kind == "reasoning":
            sig = "".join(b.sig) or None
            owner = (b.owner or self.pid) if (sig or b.redacted) else None
            out.append(ReasoningEnd(key=b.key, signature=sig, redacted=b.redacted, owner=owner))

    def _what(self, rule: Rule, w: Any) -> str:
        """The name of a dropped event or block in the loss report."""
        name = rule.label(w) if rule.label is not None else None
        return f"{rule.what}[{name}]" if type(name) is str and name else rule.what

    def _close_all(self) -> list[Any]:
        out: list[Any] = []
        for b in list(self.open):
            self._close(b, out)
        return out
