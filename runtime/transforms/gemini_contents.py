"""gemini_contents: ``systemInstruction`` plus ``contents`` of ``{role: user|model, parts}``
(Google Gemini). The parts are read and written by the codec's compiled parts walk (the
part_walk row: signatures, call ids by name; ``ids`` and ``names`` are this walk's); the turns
are walked by the shared ``turns`` walk (each ``functionResponse`` of a user turn becomes one
canonical ``tool`` message, in place: flags.turns.results_order; a later system message is
hoisted into ``systemInstruction``, reported); this module says how ``systemInstruction`` reads
(a string or a content) and keeps a content's role and keys as they came.
"""

from __future__ import annotations

from typing import Any

from .._codec_support import drop_ext, split_ext
from .._wire import expect_dict
from ..generated.canonical import Message, Part, Request, ToolCallPart
from .call_id_envelope import unwrap_id
from .call_ids import CallIds
from .turns import TurnWalk

__all__ = ["ContentsWalk"]

_CONTENT_KEYS = frozenset({"role", "parts"})


class ContentsWalk(TurnWalk):
    """The turn walk's hooks for Gemini contents (the gemini_contents transform row's walk)."""

    __slots__ = ("ids", "names")
    ids: CallIds  # the calls' ids, while decoding (the walk reads the system prompt first)
    names: dict[str, str]  # function names by call id, for the results, while encoding

    def decode_system(self, si: Any, path: str, req: Request) -> Message | None:
        self.ids = CallIds()
        if si is None:
            return None
        if type(si) is str:  # as content blocks say it
            return super().decode_system(si, path, req)
        si = expect_dict(si, path)
        hints: dict[str, Any] = {"role": si["role"]} if "role" in si else {}
        raw = si.get("parts") or []
        parts = self.codec.decode_parts(raw, path + ".parts", self.ctx, self.ids)
        return Message(role="system", parts=parts, ext=split_ext(si, _CONTENT_KEYS), hints=hints)

    def decode_turn(
        self, t: dict[str, Any], content: Any, path: str, role: str
    ) -> tuple[list[Part], Any]:
        keys = t.keys() & _CONTENT_KEYS  # the ones the source left out go back so
        hints: dict[str, Any] = {} if len(keys) == 2 else {"keys": sorted(keys)}
        raw = content if "parts" in t else []  # absent: none (null: refused)
        parts = self.codec.decode_parts(raw, path, self.ctx, self.ids)
        raw_role = t.get("role")
        if raw_role is not None and raw_role != self.codec.ROLE_ENCODE.get(role):
            hints["role"] = raw_role
        return parts, hints

    def encode(self, req: Request, out: dict[str, Any]) -> None:
        self.names = {}
        for m in req.messages:
            for p in m.parts:
                if type(p) is ToolCallPart:
                    self.names[unwrap_id(p.id)[0]] = p.name
        super().encode(req, out)

    def encode_parts(self, m: Message, path: str, as_list: bool) -> Any:
        return self.codec.encode_parts(m.parts, None, path, self.ctx, self.names)

    def new_turn(self, m: Message, key: str, content: Any) -> dict[str, Any]:
        c = super().new_turn(m, key, content)
        h = m.hints
        if h and self.ctx.same:  # the source's role and keys
            c["role"] = h.get("role", c["role"])
            for k in _CONTENT_KEYS - set(h.get("keys", _CONTENT_KEYS)):
                if k == "role" or not c.get(k):  # absent in the source: the default (user / [])
                    c.pop(k, None)
        return c

    def encode_system(self, req: Request, n: int, parts: list[Any], hoisted: bool) -> Any:
        """A string when the source sent one, else a content of ``parts``."""
        if not (n or parts):
            return None
        first = req.messages[0] if n else None
        h = (first.hints or {}) if first and self.ctx.same else {}
        if h.get("string") and len(parts) == 1 and parts[0].keys() == self.codec.TEXT_BLOCK_KEYS:
            return parts[0]["text"]
        si: dict[str, Any] = {"parts": parts}
        if "role" in h:
            si["role"] = h["role"]
        if first and first.ext:
            drop_ext(first.ext, si, "messages[0]", self.ctx)
        return si
