"""messages_blocks: a top-level ``system`` plus ``messages`` of content blocks, where tool calls
are assistant blocks and tool results are blocks at the start of the next user turn
(Anthropic Messages). Canonical keeps one ``tool`` message per result, in order."""

from __future__ import annotations

from typing import Any

from .._codec_support import drop_ext, split_ext
from .._errors import InvalidInput, brief
from .._losses import Ctx
from ..generated.canonical import Message, Part, Request, TextPart, ToolResultPart
from ._base import Codec, Transform
from ._util import message_dict, messages_list, role_of, text_content

_MSG_KEYS = frozenset({"role", "content"})


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    out: list[Message] = []
    system = w.get("system")
    if system is not None:
        if type(system) is str:
            out.append(
                Message(role="system", parts=[TextPart(text=system)], hints={"string": True})
            )
        else:
            out.append(Message(role="system", parts=codec.decode_parts(system, "system", ctx)))
    raw = messages_list(w)
    separate = False  # the previous user turn held only tool results
    for i, m in enumerate(raw):
        path = f"messages[{i}]"
        m = message_dict(m, path)
        role = role_of(m, path, codec)
        content = m.get("content")
        hints: dict[str, Any] | None = None
        if type(content) is str:
            parts: list[Part] = [TextPart(text=content)]
            hints = {"string": True}
        elif content is None:
            raise InvalidInput("missing required field", path=path + ".content")
        else:
            parts = codec.decode_parts(content, path + ".content", ctx)
        ext = None if _MSG_KEYS.issuperset(m) else split_ext(m, _MSG_KEYS)
        if separate and role == "user":
            hints = {**(hints or {}), "separate": True}
        separate = False
        if role == "user" and ToolResultPart in map(type, parts):
            rest = [p for p in parts if type(p) is not ToolResultPart]
            tools = [Message(role="tool", parts=[p]) for p in parts if type(p) is ToolResultPart]
            tools[0].hints = {"turn_start": True}  # the wire turn the results came in
            if not rest:
                tools[0].ext = ext  # the turn's own unknown fields ride on its first result
            out.extend(tools)
            if rest:
                out.append(Message(role="user", parts=rest, ext=ext))
            separate = not rest
            continue
        out.append(Message(role=role, parts=parts, ext=ext, hints=hints))
    req.messages = out


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    msgs = req.messages
    i = 0
    system_blocks: list[Any] = []
    system_string: str | None = None
    while i < len(msgs) and msgs[i].role in ("system", "developer"):
        m = msgs[i]
        if i == 0 and m.hints and m.hints.get("string") and len(m.parts) == 1:
            system_string = m.parts[0].text  # type: ignore[union-attr]
        system_blocks.extend(codec.encode_parts(m.parts, None, f"messages[{i}].content", ctx))
        i += 1
    if system_string is not None and i == 1:
        out["system"] = system_string
    elif system_blocks:
        out["system"] = system_blocks
    wire: list[dict[str, Any]] = []
    pending: dict[str, Any] | None = None
    for j in range(i, len(msgs)):
        m = msgs[j]
        path = f"messages[{j}]"
        if m.name is not None:
            ctx.loss(
                path + ".name",
                f"message name {brief(m.name)} dropped",
                f"{ctx.target} messages have no name",
                "roles",
            )
        if m.role == "tool":
            blocks = [
                codec.encode_part(p, f"{path}.content[{k}]", ctx) for k, p in enumerate(m.parts)
            ]
            if pending is not None and ctx.same and m.hints and m.hints.get("turn_start"):
                pending = None  # the source had a new user turn here
            if pending is None:
                pending = {"role": "user", "content": []}
                wire.append(pending)
            pending["content"].extend(b for b in blocks if b is not None)
            if m.ext:
                drop_ext(m.ext, pending, path, ctx)
            continue
        if m.role in ("system", "developer") and not codec.FLAGS.system_messages_in_turns:
            blocks = codec.encode_parts(m.parts, None, path + ".content", ctx)
            out["system"] = [*_as_blocks(out.get("system")), *blocks]
            ctx.loss(
                path,
                f"{m.role} message hoisted into the system prompt",
                "position lost",
                "system_position",
            )
            pending = None
            continue
        if m.role == "user" and pending is not None and not (m.hints and m.hints.get("separate")):
            pending["content"].extend(codec.encode_parts(m.parts, None, path + ".content", ctx))
            if m.ext:
                drop_ext(m.ext, pending, path, ctx)
            pending = None
            continue
        pending = None
        msg: dict[str, Any] = {
            "role": codec.ROLE_ENCODE[m.role],
            "content": text_content(m, codec, path + ".content", ctx),
        }
        if m.ext:
            drop_ext(m.ext, msg, path, ctx)
        wire.append(msg)
    out["messages"] = wire


def _as_blocks(system: Any) -> list[Any]:
    if system is None:
        return []
    if type(system) is str:
        return [{"type": "text", "text": system}]
    return list(system)


MESSAGES_BLOCKS = Transform(
    name="messages_blocks",
    doc=__doc__ or "",
    request_keys=frozenset({"system", "messages"}),
    decode_request=_decode,
    encode_request=_encode,
)
