"""message_response: a response holding one assistant message in the shape of a request message
(OpenAI Chat ``choices[0].message`` + ``finish_reason``; Cohere v2 ``message`` +
``finish_reason`` at the top), with ``usage`` beside it. Where each sits, which constants are
written, which parts a message holds and whether text content is one string or a list of parts
are the protocol's ``response_envelope`` row, compiled into its codec (``read_message``,
``write_message``, ``message_parts``): no per-protocol code here."""

from __future__ import annotations

from typing import Any

from .._codec_support import report_ext, said
from .._losses import Ctx
from ..generated.canonical import Message, Response, ToolCallPart
from ._base import Codec, Transform


def _decode(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    hints: dict[str, Any] = {}  # the first choice's others and unread keys: kept, reported
    wire_msg, holder = codec.read_message(w, resp, hints, ctx)
    msg = codec.decode_message(wire_msg, codec.MESSAGE_PATH, ctx)
    resp.parts = msg.parts
    resp.finish = codec.read_finish(holder)
    hints["message_hints"] = msg.hints or {}  # decoded: its form is known
    if msg.ext:  # e.g. Cohere citations: back to the same protocol, reported for any other
        hints["message_ext"] = msg.ext
        # reported now (the target is known, its encoder never sees them): those saying something
        report_ext(said(msg.ext), codec.MESSAGE_PATH, ctx)
    resp.hints = hints


def _encode(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    hints = resp.hints or {}
    parts = codec.message_parts(resp.parts, ctx)  # the row's content_parts (others reported)
    msg = Message(
        role="assistant",
        parts=parts,
        ext=hints.get("message_ext") if ctx.same else None,
        hints=hints.get("message_hints"),
    )
    wire_msg = codec.encode_message(msg, codec.MESSAGE_PATH, ctx, True)[0]
    has_calls = any(type(p) is ToolCallPart for p in parts)  # says how an unfinished one ended
    form = ctx.same and hints.get("message_hints") is not None  # the source's form is kept
    codec.write_message(wire_msg, resp, out, ctx, has_calls, form)


MESSAGE_RESPONSE = Transform(
    decode_response=_decode,
    encode_response=_encode,
)
