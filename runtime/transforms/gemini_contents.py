"""gemini_contents: ``systemInstruction`` plus ``contents`` of ``{role: user|model, parts}``
(Google Gemini). The parts are read and written by gemini_parts; this transform lays out the
turns: each ``functionResponse`` of a user turn becomes one canonical ``tool`` message, in
place; system messages go to ``systemInstruction`` (a later one hoisted there, reported).
"""

from __future__ import annotations

from typing import Any

from .._codec_support import drop_ext, split_ext
from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_dict, expect_list
from ..generated.canonical import Message, Part, Request, TextPart, ToolCallPart, ToolResultPart
from ._base import Codec, Transform
from .call_ids import CallIds as CallIds
from .gemini_envelope import unwrap_id
from .gemini_parts import _camel as _camel
from .gemini_parts import _snake as _snake
from .gemini_parts import camel_part as camel_part
from .gemini_parts import decode_parts as decode_parts
from .gemini_parts import encode_parts as encode_parts
from .gemini_parts import snake_parts as snake_parts

__all__ = ["GEMINI_CONTENTS"]

_CONTENT_KEYS = frozenset({"role", "parts"})


def _system(si: Any, codec: Codec, ctx: Ctx, ids: CallIds) -> Message:
    if type(si) is str:
        return Message(role="system", parts=[TextPart(text=si)], hints={"string": True})
    si = expect_dict(si, "systemInstruction")
    parts, snake = decode_parts(si.get("parts") or [], "systemInstruction.parts", codec, ctx, ids)
    hints: dict[str, Any] = {"si_keys": sorted(si.keys() & _CONTENT_KEYS)}
    if "role" in si:
        hints["role"] = si["role"]
    if snake:
        hints["snake"] = snake
    return Message(role="system", parts=parts, ext=split_ext(si, _CONTENT_KEYS), hints=hints)


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    ids = CallIds()
    msgs: list[Message] = []
    si = w.get("systemInstruction", w.get("system_instruction"))
    if si is not None:
        msgs.append(_system(si, codec, ctx, ids))
        if "systemInstruction" not in w:
            req.hints = {**(req.hints or {}), "system_instruction_snake": True}
    contents = w.get("contents")
    if contents is None:
        raise InvalidInput("missing required field", path="contents")
    if type(contents) is dict:
        contents = [contents]
        req.hints = {**(req.hints or {}), "contents_object": True}
    for i, c in enumerate(expect_list(contents, "contents")):
        path = f"contents[{i}]"
        c = expect_dict(c, path)
        raw_role = c.get("role")
        role = codec.ROLE_DECODE.get(raw_role) if type(raw_role) is str else None
        if raw_role is None:
            role = "user"
        if role is None:
            raise InvalidInput(
                f"unknown role {brief(raw_role)} (expected user or model)", path=path
            )
        parts, snake = decode_parts(c.get("parts", []), path + ".parts", codec, ctx, ids)
        hints: dict[str, Any] = {"turn": i, "keys": sorted(c.keys() & _CONTENT_KEYS)}
        if raw_role is not None and raw_role != codec.ROLE_ENCODE.get(role):
            hints["role"] = raw_role
        if snake:
            hints["snake"] = snake
        ext = split_ext(c, _CONTENT_KEYS)
        if role == "assistant":
            msgs.append(Message(role="assistant", parts=parts, ext=ext, hints=hints))
            continue
        # a user turn: each functionResponse becomes a tool message, in place
        run: list[Part] = []
        first = len(msgs)
        for p in parts:
            if type(p) is ToolResultPart:
                if run:
                    msgs.append(Message(role="user", parts=run, hints=hints))
                    run = []
                msgs.append(Message(role="tool", parts=[p], hints=hints))
            else:
                run.append(p)
        if run or len(msgs) == first:
            msgs.append(Message(role="user", parts=run, hints=hints))
        msgs[first].ext = ext
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
    i = 0
    si_parts: list[dict[str, Any]] = []
    si_msg: Message | None = None
    while i < len(msgs) and msgs[i].role in ("system", "developer"):
        si_msg = si_msg or msgs[i]
        si_parts += encode_parts(msgs[i].parts, f"messages[{i}].content", codec, ctx, names)
        i += 1
    contents: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    cur_turn: Any = None
    cur_tools = False
    for j in range(i, len(msgs)):
        m = msgs[j]
        path = f"messages[{j}]"
        if m.role in ("system", "developer"):
            si_parts += encode_parts(m.parts, path + ".content", codec, ctx, names)
            ctx.loss(
                path,
                f"{m.role} message hoisted into systemInstruction",
                "Gemini has no system role inside contents: position lost",
                "system_position",
            )
            continue
        parts = encode_parts(m.parts, path + ".content", codec, ctx, names)
        h = m.hints or {}
        if ctx.same and h.get("snake"):
            parts = snake_parts(parts, h["snake"])
        role = codec.ROLE_ENCODE[m.role]
        turn = h.get("turn") if ctx.same else None
        if cur is not None and cur.get("role", "user") == (
            h.get("role", role) if ctx.same else role
        ):
            if turn is not None and turn == cur_turn:
                cur.setdefault("parts", []).extend(parts)
                continue
            if turn is None and role == "user" and (m.role == "tool" or cur_tools):
                cur["parts"].extend(parts)
                cur_tools = cur_tools and m.role == "tool"
                continue
        cur = _content(role, parts, m, ctx)
        cur_turn = turn
        cur_tools = m.role == "tool"
        if m.ext:
            drop_ext(m.ext, cur, path, ctx)
        contents.append(cur)
    if si_msg is not None:
        h = (si_msg.hints or {}) if ctx.same else {}
        if h.get("string") and len(si_parts) == 1 and set(si_parts[0]) == {"text"}:
            out["systemInstruction"] = si_parts[0]["text"]
        else:
            if h.get("snake"):
                si_parts = snake_parts(si_parts, h["snake"])
            si: dict[str, Any] = {"parts": si_parts}
            if "role" in h:
                si["role"] = h["role"]
            if si_msg.ext:
                drop_ext(si_msg.ext, si, "messages[0]", ctx)
            out["systemInstruction"] = si
    elif si_parts:
        out["systemInstruction"] = {"parts": si_parts}
    if (
        ctx.same
        and (req.hints or {}).get("system_instruction_snake")
        and "systemInstruction" in out
    ):
        out["system_instruction"] = out.pop("systemInstruction")
    out["contents"] = (
        contents[0] if ctx.same and (req.hints or {}).get("contents_object") else contents
    )


GEMINI_CONTENTS = Transform(
    name="gemini_contents",
    doc=__doc__ or "",
    request_keys=frozenset({"systemInstruction", "system_instruction", "contents"}),
    decode_request=_decode,
    encode_request=_encode,
)
