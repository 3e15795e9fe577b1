"""gemini_contents: ``systemInstruction`` plus ``contents`` of ``{role: user|model, parts}``
(Google Gemini). The parts are read and written by gemini_parts; this transform lays out the
turns with the shared ``turns`` helpers: each ``functionResponse`` of a user turn becomes one
canonical ``tool`` message, in place (flags.turns.results_order); system messages go to
``systemInstruction`` (a later one hoisted there, reported).
"""

from __future__ import annotations

from typing import Any

from .._codec_support import add_hint, drop_ext, restore_wire_names, split_ext
from .._errors import InvalidInput
from .._losses import Ctx
from .._wire import expect_dict, expect_list
from ..generated.canonical import Message, Request, TextPart, ToolCallPart
from ._base import Codec, Transform
from ._util import role_of
from .call_ids import CallIds
from .gemini_envelope import unwrap_id
from .gemini_parts import _camel, _snake, decode_parts, encode_parts
from .turns import Joiner, drop_name, hoist, leading_system, user_turn

__all__ = ["GEMINI_CONTENTS", "_camel", "_snake"]  # the recasing rule, re-exported for reasoning

_CONTENT_KEYS = frozenset({"role", "parts"})
_SYSTEM = {"system": "systemInstruction"}  # its wire key (a snake_case alias goes back so)


def _system(si: Any, codec: Codec, ctx: Ctx, ids: CallIds) -> Message:
    if type(si) is str:
        return Message(role="system", parts=[TextPart(text=si)], hints={"string": True})
    si = expect_dict(si, "systemInstruction")
    hints: dict[str, Any] = {"si_keys": sorted(si.keys() & _CONTENT_KEYS)}
    parts = decode_parts(si.get("parts") or [], "systemInstruction.parts", codec, ctx, ids, hints)
    if "role" in si:
        hints["role"] = si["role"]
    return Message(role="system", parts=parts, ext=split_ext(si, _CONTENT_KEYS), hints=hints)


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    ids = CallIds()
    msgs: list[Message] = []
    si = w.get("systemInstruction")
    if "systemInstruction" not in w and codec.FLAGS.turns.snake_case:
        si = w.get("system_instruction")
        if si is not None:
            add_hint(req, "aliases", "system", "system_instruction")
    if si is not None:
        msgs.append(_system(si, codec, ctx, ids))
    contents = w.get("contents")
    if contents is None:
        raise InvalidInput("missing required field", path="contents")
    if type(contents) is dict:
        contents = [contents]
        req.hints = {**(req.hints or {}), "contents_object": True}
    for i, c in enumerate(expect_list(contents, "contents")):
        path = f"contents[{i}]"
        c = expect_dict(c, path)
        role = role_of(c, path, codec)
        hints: dict[str, Any] = {"turn": i, "keys": sorted(c.keys() & _CONTENT_KEYS)}
        parts = decode_parts(c.get("parts", []), path + ".parts", codec, ctx, ids, hints)
        raw_role = c.get("role")
        if raw_role is not None and raw_role != codec.ROLE_ENCODE.get(role):
            hints["role"] = raw_role
        ext = split_ext(c, _CONTENT_KEYS)
        if role == "assistant":
            msgs.append(Message(role="assistant", parts=parts, ext=ext, hints=hints))
        else:
            msgs.extend(user_turn(parts, codec, hints, ext))
    req.messages = msgs


def _content(role: str, parts: list[dict[str, Any]], m: Message, ctx: Ctx) -> dict[str, Any]:
    h = (m.hints or {}) if ctx.same else {}
    c: dict[str, Any] = {"role": h.get("role", role), "parts": parts}
    if "keys" in h:
        for k in _CONTENT_KEYS - set(h["keys"]):
            if k == "role" or not c.get(k):  # absent in the source: the default (user / [])
                c.pop(k, None)
    return c


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    msgs = req.messages
    names: dict[str, str] = {}
    for m in msgs:
        for p in m.parts:
            if type(p) is ToolCallPart:
                names[unwrap_id(p.id)[0]] = p.name

    def encode(parts: list[Any], path: str, hints: Any = None) -> list[dict[str, Any]]:
        return encode_parts(parts, path, codec, ctx, names, hints)

    n = leading_system(msgs)
    si_parts: list[dict[str, Any]] = []
    for i in range(n):
        si_parts += encode(msgs[i].parts, f"messages[{i}].content", msgs[i].hints)
    turns = Joiner(codec)
    for j in range(n, len(msgs)):
        m = msgs[j]
        path = f"messages[{j}]"
        drop_name(m, path, ctx)
        hoisted = hoist(m, path, codec, ctx, "systemInstruction", encode)
        if hoisted is not None:
            si_parts += hoisted
            continue
        parts = encode(m.parts, path + ".content", m.hints)
        h = m.hints or {}
        tag = h.get("turn") if ctx.same else None
        cur = turns.join(m, None if tag is None else tag != turns.tag)
        if cur is not None:
            cur.setdefault("parts", []).extend(parts)
        else:
            cur = _content(codec.ROLE_ENCODE[m.role], parts, m, ctx)
            turns.open(cur, m, tag)
        if m.ext:
            drop_ext(m.ext, cur, path, ctx)
    if n:
        _system_out(msgs[0], si_parts, out, ctx)
    elif si_parts:
        out["systemInstruction"] = {"parts": si_parts}
    restore_wire_names(out, req.hints, _SYSTEM, ctx)  # system_instruction back as it came
    out["contents"] = (
        turns.turns[0] if ctx.same and (req.hints or {}).get("contents_object") else turns.turns
    )


def _system_out(first: Message, parts: list[dict[str, Any]], out: dict[str, Any], ctx: Ctx) -> None:
    """``systemInstruction``: a string when the source sent one, else a content of ``parts``."""
    h = (first.hints or {}) if ctx.same else {}
    if h.get("string") and len(parts) == 1 and set(parts[0]) == {"text"}:
        out["systemInstruction"] = parts[0]["text"]
        return
    si: dict[str, Any] = {"parts": parts}
    if "role" in h:
        si["role"] = h["role"]
    if first.ext:
        drop_ext(first.ext, si, "messages[0]", ctx)
    out["systemInstruction"] = si


GEMINI_CONTENTS = Transform(
    name="gemini_contents",
    doc=__doc__ or "",
    request_keys=frozenset({"systemInstruction", "system_instruction", "contents"}),
    decode_request=_decode,
    encode_request=_encode,
)
