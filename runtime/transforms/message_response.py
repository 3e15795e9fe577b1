"""message_response: a response holding one assistant message in the shape of a request message
(OpenAI Chat ``choices[0].message`` + ``finish_reason``; Cohere v2 ``message`` +
``finish_reason`` at the top), with ``usage`` beside it. Where each sits, which constants are
written and whether text content is one string or a list of parts are the protocol's
``response_envelope`` row (codec.RESPONSE_ENVELOPE): no per-protocol code here."""

from __future__ import annotations

from typing import Any

from .._codec_support import report_ext
from .._errors import InvalidInput
from .._losses import Ctx
from .._wire import expect_dict
from ..generated.canonical import Message, Part, Response, TextPart, ToolCallPart
from ._base import Codec, Transform
from .messages_flat import decode_message, encode_message


def _decode(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    env = codec.RESPONSE_ENVELOPE
    hints: dict[str, Any] = {}
    c0: dict[str, Any] | None = w
    prefix = ""
    if env["choices"] is not None:  # the first choice (others and unread keys: kept, reported)
        c0 = codec.first_choice(w, resp, hints, ctx)
        prefix = f"{env['choices']}[0]."
    if c0 is None:
        raise InvalidInput("no choices", path=env["choices"])
    mpath = prefix + env["message"]
    msg = decode_message(expect_dict(c0.get(env["message"]), mpath), mpath, codec, ctx)
    resp.parts = msg.parts
    resp.finish = codec.read_finish(c0)
    hints["message_hints"] = msg.hints or {}  # decoded: its form is known
    if msg.ext:  # e.g. Cohere citations: back to the same protocol, reported for any other
        hints["message_ext"] = msg.ext
        _report_said(msg.ext, mpath, ctx)
    resp.hints = hints


def _report_said(ext: dict[str, Any], path: str, ctx: Ctx) -> None:
    """Report now (the target is known, its encoder never sees them) the extensions that say
    something: an empty value (OpenAI's ``annotations: []``, ``logprobs: null``) carries nothing."""
    said = {k: v for k, v in ext.items() if v is not None and v != [] and v != {}}
    if said:
        report_ext(said, path, ctx)


def _encode(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    env = codec.RESPONSE_ENVELOPE
    hints = resp.hints or {}
    prefix = f"{env['choices']}[0]." if env["choices"] else ""
    msg_ext = hints.get("message_ext")
    parts = resp.parts
    if env["content_parts"] is not None:
        parts = _carried(parts, env["content_parts"], prefix + env["message"], ctx)
    msg = Message(
        role="assistant",
        parts=parts,
        ext=msg_ext if ctx.same else None,
        hints=hints.get("message_hints"),
    )
    wire_msg = encode_message(msg, prefix + env["message"], codec, ctx, reasoning_out=True)[0]
    content = wire_msg.get("content")
    if not (ctx.same and hints.get("message_hints") is not None):  # no source form to keep
        if env["content"] == "string" and type(content) is list:
            # text blocks join (what the target could not carry in them was reported)
            texts = [b.get("text") for b in content if type(b) is dict and b.get("type") == "text"]
            if len(texts) == len(content):
                wire_msg["content"] = "".join(t for t in texts if type(t) is str)
        elif env["content"] == "parts" and type(content) is str:  # its text part row
            wire_msg["content"] = codec.encode_parts(
                [TextPart(text=content)] if content else [], None, prefix + env["message"], ctx
            )
    has_calls = any(type(p) is ToolCallPart for p in parts)  # says how an unfinished one ended
    if env["choices"] is None:
        out[env["message"]] = wire_msg
        codec.write_finish(resp.finish, out, ctx, has_calls)
    else:
        choice: dict[str, Any] = {**env["choice_constants"], env["message"]: wire_msg}
        codec.write_finish(resp.finish, choice, ctx, has_calls)
        codec.write_choices(choice, resp, out, ctx)


def _carried(parts: list[Part], kinds: list[str], path: str, ctx: Ctx) -> list[Part]:
    """The parts a response message of the target can hold; the others are reported."""
    out = []
    for i, p in enumerate(parts):
        if p.PART in kinds or type(p) is ToolCallPart:
            out.append(p)
        else:
            ctx.loss(
                f"{path}.content[{i}]",
                f"{p.PART} part dropped",
                f"a {ctx.target} response message holds only {', '.join(kinds)}",
                p.FEATURE,
            )
    return out


MESSAGE_RESPONSE = Transform(
    name="message_response",
    doc=__doc__ or "",
    decode_response=_decode,
    encode_response=_encode,
)
