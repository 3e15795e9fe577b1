"""What the generic stream machines do for protocols that send and take whole parts (Gemini), as
the rows ask for it: nothing here knows a protocol by name.

Decoder (``PartsDecoding``, mixed into ``machine.Decoder``): opaque state on an item that is no
reasoning becomes a reasoning end with no start (``lone_signature``); a signature on a call rides
in its id (the signature envelope; codegen makes the id of a call sent without one, as
``missing_call_id`` says); call arguments sent in pieces are joined by a named stream transform
(``assemble``, fed by the row's compiled step) and passed on as one delta when the call ends; a
data line holding a list of events runs each (``batches``).

Encoder (``PartsEncoding``, mixed into ``encoder.Encoder``): a call written whole when it ends
reads its kept argument text (``$arguments_object``: the response path's rule,
``_codec_support.arguments_object``, {} and a loss for text that is no JSON object) and
``$bare_call_id`` (the id without its
envelope, whose signature goes on the call's part);
``$pending_signature`` holds opaque state until the next part written: a signature that came
alone, a call's envelope signature, and, where ``flags.foreign_reasoning`` is ``parts``, another
protocol's reasoning (text and state) as one envelope (``transforms/reasoning_envelope``), never
put on a reasoning part (clients may drop those)."""

from __future__ import annotations

from typing import Any

from ..generated.canonical import (
    ReasoningDelta,
    ReasoningEnd,
    ReasoningPart,
    ToolCallDelta,
    ToolCallStart,
)
from ..transforms.gemini_envelope import SYNTH_PREFIX, unwrap_id, wrap_id
from ..transforms.reasoning_envelope import enveloped, parts_signature

__all__ = ["PartsDecoding", "PartsEncoding"]


class PartsDecoding:
    """Mixed into ``machine.Decoder`` (its state: rows, pid, used, seq, calls, ignored)."""

    rows: Any
    pid: str
    used: set[str]
    seq: dict[str, int]
    calls: int
    ignored: int
    ended: str | None

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

    def _batch(self, items: list[Any]) -> list[Any]:
        out: list[Any] = []
        for d in items:
            if self.ended is not None:
                break
            if type(d) is dict:
                out += self._event(d)  # type: ignore[attr-defined]
            else:
                self.ignored += 1
        return out

    def _lone(self, sig: str, out: list[Any]) -> None:
        """Opaque state on an item that is no reasoning: a reasoning end with no start."""
        out += self._close_all()  # type: ignore[attr-defined]
        out.append(ReasoningEnd(key=self._fresh("sig"), signature=sig, owner=self.pid))

    def _call(self, b: Any, cid: str, sig: str | None, name: Any, out: list[Any]) -> None:
        """A tool call opens (``sig``: opaque state on the call, which rides in its id)."""
        b.call_id = wrap_id(cid, sig) if sig else cid
        self.calls += 1
        out.append(ToolCallStart(key=b.key, id=b.call_id, name=name if type(name) is str else ""))

    def _assembled(self, b: Any, out: list[Any]) -> None:
        text = b.acc[0].text(b.acc[1])
        b.acc = None
        if text:
            out.append(ToolCallDelta(key=b.key, arguments=text))


class PartsEncoding:
    """Mixed into ``encoder.Encoder`` (its state: codec, rows, pid, cur)."""

    codec: Any
    rows: Any
    pid: str
    cur: Any

    def _parts_init(self) -> None:
        self.sig: str | None = None  # opaque state waiting for the next part
        self.foreign: list[ReasoningPart] = []  # other protocols' reasoning, for one envelope
        parts = self.codec.FLAGS.foreign_reasoning == "parts"
        self.foreign_parts = self.rows.pending and parts  # (the rows accumulate text)

    def take_signature(self, ev: Any) -> str | None:
        """``$pending_signature``: the waiting state, taken (another protocol's state is folded
        into it, except on a reasoning part)."""
        if self.foreign and type(ev) is not ReasoningDelta:
            self.sig = self.sig or parts_signature(self.foreign)
            self.foreign = []
        sig, self.sig = self.sig, None
        return sig

    def bare_call_id(self, cid: str) -> str | None:
        """``$bare_call_id``: the id without its envelope; None when we synthesised it."""
        clean = unwrap_id(cid)[0]
        return None if clean.startswith(SYNTH_PREFIX) else clean

    def _lone_end(self, ev: Any) -> None:
        """A reasoning end with no block: its state waits for the next part."""
        if ev.owner in self.rows.mine:  # (its own, or an owner its rows carry)
            if ev.signature and self.rows.pending:
                self.sig = ev.signature
        else:
            self._keep_foreign("", ev)

    def _keep_foreign(self, text: str, ev: Any) -> None:
        if self.foreign_parts and enveloped(ev.owner) and (ev.signature or ev.redacted):
            part = ReasoningPart(
                text=text, signature=ev.signature, redacted=ev.redacted, owner=ev.owner
            )
            self.foreign.append(part)
