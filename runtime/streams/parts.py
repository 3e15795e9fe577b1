"""What the generic stream decoder does for protocols that send whole parts (Gemini), as the
rows ask for it (``PartsDecoding``, mixed into ``machine.Decoder``): nothing here knows a protocol
by name (opaque state on an item that is no reasoning, ``lone_signature``, becomes a reasoning
end with no start in the compiled dispatch). A signature on a call rides in its id (the signature envelope; codegen
makes the id of a call sent without one, as ``missing_call_id`` says); call arguments sent in
pieces are joined by a named stream transform (``assemble``, fed by the row's compiled step) and
passed on as one delta when the call ends; a data line holding a list of events runs each
(``batches``). The encoder's side (opaque state held for the next part written) is compiled per
protocol: codegen/stream_pending.py."""

from __future__ import annotations

from typing import Any

from ..generated.canonical import ToolCallDelta, ToolCallStart
from ..transforms.gemini_envelope import wrap_id

__all__ = ["PartsDecoding"]


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
