"""messages_flat: one ``messages`` list holding system/developer messages in place, assistant
``tool_calls`` beside the content, reasoning text in dialect fields, and one ``tool`` message
per tool result (OpenAI Chat Completions and its compatible servers, Cohere v2).

What differs between those protocols is rows (``messages``, the reasoning flags,
``reasoning_details``), compiled into each codec's ``decode_message`` / ``encode_message`` and
``decode_messages`` / ``encode_messages`` (codegen/messages_flat.py), which the compiled pipeline
calls (the transform row says ``compiled: messages``). Here: the tool result rule they share."""

from __future__ import annotations

from dataclasses import replace

from ..generated.canonical import Part, TextPart, ToolResultPart


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
