"""Canonical stream events -> one canonical Response (I/O-free).

For callers that need one message from a stream (a non-streaming client in front of a
streaming-only upstream, a log of what was said); the tests use it to compare a stream with its
non-streamed twin. Parts are keyed by the event ``key`` while they
are open (a key may be reused once its part ended) and kept in the order they started; text,
reasoning text and tool-call arguments are joined once, when the part ends. Arguments stay the
raw JSON text (parsed on demand, invalid JSON is kept, never crashed on); a call that streamed no
argument text gets ``"{}"``, as a non-streamed response of a call without arguments has.

The stream's ending decides what ``accumulate`` returns: ``completed`` gives the Response;
``failed`` (an error event) and ``disconnected`` (no terminal event) raise ``StreamFailed``, which
carries the error and the partial Response. ``Accumulator`` gives the same, fed one event at a
time, for callers that want the partial message without an exception.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._errors import InterlinguaError
from ..generated.canonical import (
    ErrorEvent,
    ErrorInfo,
    FinishEvent,
    ReasoningDelta,
    ReasoningEnd,
    ReasoningPart,
    ReasoningStart,
    Response,
    StreamEnd,
    StreamStart,
    TextDelta,
    TextEnd,
    TextPart,
    TextStart,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallPart,
    ToolCallStart,
    UsageEvent,
)
from .machine import DISCONNECTED

__all__ = ["Accumulator", "StreamFailed", "accumulate"]


class StreamFailed(InterlinguaError):
    """The stream did not complete: ``error`` says why, ``partial`` holds what arrived."""

    status = 502
    error_type = "bad_gateway"

    def __init__(self, error: ErrorInfo, ending: str, partial: Response) -> None:
        super().__init__(error.message)
        self.error = error
        self.ending = ending
        self.partial = partial
        self.status = error.status
        self.error_type = error.type


class Accumulator:
    """Feed canonical events (``feed``), read the message so far (``response()``)."""

    __slots__ = ("resp", "open", "pieces", "ending", "error")

    def __init__(self, source: str = "") -> None:
        self.resp = Response(source=source)
        self.open: dict[str, int] = {}  # key -> index of its open part in resp.parts
        self.pieces: list[list[str]] = []  # per part: its text / argument pieces, not joined yet
        self.ending: str | None = None
        self.error: ErrorInfo | None = None

    def _start(self, key: str, part: Any) -> int:
        i = len(self.resp.parts)
        self.open[key] = i
        self.resp.parts.append(part)
        self.pieces.append([])
        return i

    def _piece(self, key: str, kind: type, text: str) -> None:
        i = self.open.get(key)
        if i is None or type(self.resp.parts[i]) is not kind:  # a delta without start: lenient
            i = self._start(
                key, kind(id="", name="", arguments="") if kind is ToolCallPart else kind(text="")
            )
        self.pieces[i].append(text)

    def _join(self, i: int) -> Any:
        p = self.resp.parts[i]
        text = "".join(self.pieces[i])
        if type(p) is ToolCallPart:
            p.arguments = text or "{}"
        else:
            p.text = text
        return p

    def feed(self, ev: Any) -> None:
        t = type(ev)
        if t is TextDelta:
            self._piece(ev.key, TextPart, ev.text)
        elif t is ToolCallDelta:
            self._piece(ev.key, ToolCallPart, ev.arguments)
        elif t is ReasoningDelta:
            self._piece(ev.key, ReasoningPart, ev.text)
        elif t is TextStart:
            self._start(ev.key, TextPart(text=""))
        elif t is ToolCallStart:
            self._start(ev.key, ToolCallPart(id=ev.id, name=ev.name, arguments=""))
        elif t is ReasoningStart:
            self._start(ev.key, ReasoningPart())
        elif t is TextEnd or t is ToolCallEnd:
            i = self.open.pop(ev.key, None)
            if i is not None:
                self._join(i)
        elif t is ReasoningEnd:
            i = self.open.pop(ev.key, None)
            if i is None and (ev.signature or ev.redacted):  # opaque state with no start: keep it
                i = self._start(ev.key, ReasoningPart())
                del self.open[ev.key]
            if i is not None:
                p = self._join(i)
                p.signature = ev.signature
                p.redacted = ev.redacted
                p.owner = ev.owner
        elif t is StreamStart:
            r = self.resp
            r.id = ev.id if ev.id is not None else r.id
            r.model = ev.model if ev.model is not None else r.model
            r.created = ev.created if ev.created is not None else r.created
            r.usage = ev.usage if ev.usage is not None else r.usage
        elif t is UsageEvent:
            self.resp.usage = ev.usage
        elif t is FinishEvent:
            self.resp.finish = ev.finish
            self.resp.stop_sequence = ev.stop_sequence
        elif t is ErrorEvent:
            self.error = self.error or ev.error
        elif t is StreamEnd:
            self.ending = self.ending or ev.ending

    def response(self) -> Response:
        """The message so far, parts still open included with what they have received."""
        for i in self.open.values():
            self._join(i)
        return self.resp


def accumulate(events: Iterable[Any], source: str = "") -> Response:
    """A whole canonical stream -> its Response; raises ``StreamFailed`` unless it completed."""
    acc = Accumulator(source)
    feed = acc.feed
    for ev in events:
        feed(ev)
    resp = acc.response()
    if acc.ending == "completed" and acc.error is None:
        return resp
    ending = acc.ending or "disconnected"
    err = acc.error or DISCONNECTED
    raise StreamFailed(err, "failed" if acc.error is not None else ending, resp)
