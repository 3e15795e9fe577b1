"""messages_blocks: a top-level ``system`` plus ``messages`` of content blocks, where tool calls
are assistant blocks and tool results are blocks at the start of the next user turn
(Anthropic Messages). Canonical keeps one ``tool`` message per result, in order; the layout
decisions are the shared ones of ``turns``."""

from __future__ import annotations

from typing import Any

from .._codec_support import drop_ext, split_ext
from .._errors import InvalidInput
from .._losses import Ctx
from .._wire import expect_dict
from ..generated.canonical import Message, Request, ToolResultPart
from ._base import Codec, Transform
from ._util import content_parts, messages_list, role_of, text_content
from .turns import Joiner, drop_name, hoist, leading_system, user_turn

_MSG_KEYS = frozenset({"role", "content"})


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    out: list[Message] = []
    system = w.get("system")
    if system is not None:
        parts, hints = content_parts(system, "system", codec, ctx)
        out.append(Message(role="system", parts=parts, hints=hints))
    raw = messages_list(w)
    separate = False  # the previous user turn held only tool results
    for i, m in enumerate(raw):
        path = f"messages[{i}]"
        m = expect_dict(m, path)
        role = role_of(m, path, codec)
        content = m.get("content")
        if content is None:
            raise InvalidInput("missing required field", path=path + ".content")
        parts, hints = content_parts(content, path + ".content", codec, ctx)
        ext = None if _MSG_KEYS.issuperset(m) else split_ext(m, _MSG_KEYS)
        if separate and role == "user":
            hints = {**(hints or {}), "separate": True}
        separate = False
        if role == "user" and ToolResultPart in map(type, parts):
            turn = user_turn(parts, codec, None, ext)
            turn[0].hints = {"turn_start": True}  # the wire turn the results came in
            out.extend(turn)
            separate = turn[-1].role == "tool"
            continue
        out.append(Message(role=role, parts=parts, ext=ext, hints=hints))
    req.messages = out


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    msgs = req.messages
    n = leading_system(msgs)
    system_blocks: list[Any] = []
    for i in range(n):
        system_blocks += codec.encode_parts(msgs[i].parts, None, f"messages[{i}].content", ctx)
    h = msgs[0].hints if n == 1 else None
    string = bool(h and h.get("string")) and len(msgs[0].parts) == 1  # the source's form
    turns = Joiner(codec)
    for j in range(n, len(msgs)):
        m = msgs[j]
        path = f"messages[{j}]"
        drop_name(m, path, ctx)
        hoisted = hoist(
            m,
            path,
            codec,
            ctx,
            "the system prompt",
            lambda p, q: codec.encode_parts(p, None, q, ctx),
        )
        if hoisted is not None:
            system_blocks += hoisted
            string = False
            continue
        h = m.hints or {}
        tool = m.role == "tool"
        starts = (tool and ctx.same and h.get("turn_start")) or (not tool and h.get("separate"))
        turn = turns.join(m, True if starts else None)
        if tool:
            blocks = [
                codec.encode_part(p, f"{path}.content[{k}]", ctx) for k, p in enumerate(m.parts)
            ]
            content: Any = [b for b in blocks if b is not None]
        elif turn is not None:
            content = codec.encode_parts(m.parts, None, path + ".content", ctx)
        else:
            content = text_content(m, codec, path + ".content", ctx)
        if turn is not None:
            turn["content"].extend(content)
        else:
            turn = {"role": "user" if tool else codec.ROLE_ENCODE[m.role], "content": content}
            turns.open(turn, m)
        if m.ext:
            drop_ext(m.ext, turn, path, ctx)
    if string:
        out["system"] = msgs[0].parts[0].text  # type: ignore[union-attr]
    elif system_blocks:
        out["system"] = system_blocks
    out["messages"] = turns.turns


MESSAGES_BLOCKS = Transform(
    name="messages_blocks",
    doc=__doc__ or "",
    request_keys=frozenset({"system", "messages"}),
    decode_request=_decode,
    encode_request=_encode,
)
