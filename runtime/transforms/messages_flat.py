"""messages_flat: one ``messages`` list holding system/developer messages in place, assistant
``tool_calls`` beside the content, reasoning text in dialect fields, and one ``tool`` message
per tool result (OpenAI Chat Completions and its compatible servers, Cohere v2).

What differs between those protocols is rows (``messages``, the reasoning flags,
``reasoning_details``), compiled into each codec's ``decode_message`` / ``encode_message`` and
``decode_messages`` / ``encode_messages`` (codegen/messages_flat.py). Here: the transform that
calls them, and the tool result rule they share."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .._losses import Ctx
from ..generated.canonical import Part, Request, TextPart, ToolResultPart
from ._base import Codec, Transform


def foreign_result(p: ToolResultPart, media: list[Part] | None) -> ToolResultPart:
    """A tool result from another protocol: a tool message needs its content (an empty text),
    and, when ``media`` is given, takes text only: the result's media (images, files, audio)
    go to ``media``, for a message right after the tool messages (between endpoints of one
    protocol a tool message is kept as it came)."""
    if p.content is None:
        return replace(p, content=[TextPart(text="")], hints={"string": True})
    if media is None:
        return p
    moved = [c for c in p.content if type(c) is not TextPart]
    if not moved:
        return p
    media += moved
    text = [c for c in p.content if type(c) is TextPart]
    if not text:
        text = [TextPart(text=f"({len(moved)} attachment(s) follow in the next user message)")]
    return replace(p, content=text, hints=None)


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    codec.decode_messages(w, req, ctx)


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    codec.encode_messages(req, out, ctx)


MESSAGES_FLAT = Transform(
    name="messages_flat",
    doc=__doc__ or "",
    decode_request=_decode,
    encode_request=_encode,
)
