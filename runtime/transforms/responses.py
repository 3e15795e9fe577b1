"""Response envelopes.

content_blocks_response: {id, type: message, role, model, content: [blocks], stop_reason,
stop_sequence, usage} (Anthropic Messages).
chat_choice_response: {id, object: chat.completion, created, model, choices: [{index, message,
finish_reason}], usage} (OpenAI Chat Completions); choices beyond the first are reported."""

from __future__ import annotations

from typing import Any

from .._codec_support import deep_merge, report_ext
from .._errors import InvalidInput
from .._finish import finish_from_wire, finish_to_wire
from .._losses import Ctx
from .._wire import expect_dict, expect_list
from ..generated.canonical import Message, Part, ReasoningPart, Response, Usage
from ._base import Codec, Transform
from .messages_flat import decode_message, encode_message


def _finish(resp: Response, path: str, codec: Codec, ctx: Ctx) -> str | None:
    """The response's finish on the wire (none stays none: a response still being made)."""
    if resp.finish is None:
        return None
    return finish_to_wire(codec, resp.finish, ctx, path)


def decode_usage(w: dict[str, Any], codec: Codec) -> Usage | None:
    """The response's ``usage`` object, when it has one (absent or null: None)."""
    u = w.get("usage")
    return codec.decode_usage(u, "usage") if u is not None else None  # type: ignore[no-any-return]


def encode_usage(resp: Response, codec: Codec, ctx: Ctx) -> dict[str, Any]:
    u = resp.usage
    if u is None:
        return codec.encode_usage(Usage())  # type: ignore[no-any-return]
    out: dict[str, Any] = codec.encode_usage(u)
    for name in ("input_cache_read", "input_cache_write", "output_reasoning"):
        n = getattr(u, name)
        if n and name not in codec.USAGE_CARRIED:
            ctx.loss(
                f"usage.{name}",
                f"{name} count {n} dropped (still included in the totals)",
                f"{ctx.target} usage has no such count",
                "usage",
            )
    if ctx.same and u.raw is not None:
        if _counts(codec.decode_usage(u.raw, "usage")) == _counts(u):
            return u.raw  # unchanged since decoding: the source's own usage object, exactly
        return deep_merge(u.raw, out)
    return out


def _counts(u: Any) -> tuple[int, ...]:
    return (
        u.input_total,
        u.input_cache_read,
        u.input_cache_write,
        u.output_total,
        u.output_reasoning,
    )


def _decode_blocks(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    content = w.get("content")
    if content is None:
        raise InvalidInput("missing required field", path="content")
    resp.parts = codec.decode_parts(content, "content", ctx)
    resp.finish = finish_from_wire(codec, w.get("stop_reason"), "stop_reason")
    resp.usage = decode_usage(w, codec)
    _note_absent(w, resp, _BLOCKS_ALWAYS)


_BLOCKS_ALWAYS = ("id", "type", "role", "model", "stop_reason", "stop_sequence", "usage")
_CHOICE_ALWAYS = ("id", "object", "created", "model")


def _note_absent(w: dict[str, Any], resp: Response, keys: tuple[str, ...]) -> None:
    """Keys an encoder always writes that the source left out (a wire-form hint)."""
    absent = [k for k in keys if k not in w]
    if absent:
        resp.hints = {**(resp.hints or {}), "absent": absent}


def _drop_absent(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:
    if ctx.same and resp.hints:
        for k in resp.hints.get("absent", ()):
            out.pop(k, None)


def _shown_reasoning(parts: list[Part], codec: Codec, ctx: Ctx) -> list[Part]:
    """A response shows reasoning text made elsewhere as this protocol's reasoning block with an
    empty signature (a request would not replay it: see the reasoning part encoder). Opaque
    state of another protocol is never sent on; dropping it is reported."""
    out: list[Part] = []
    for i, p in enumerate(parts):
        if type(p) is ReasoningPart and p.owner != codec.PROTOCOL:
            if p.signature or p.redacted:
                ctx.loss(
                    f"content[{i}].signature",
                    "reasoning state dropped",
                    f"it belongs to {p.owner}",
                    "reasoning_replay",
                )
            if not p.text:
                continue
            p = ReasoningPart(text=p.text, signature="", owner=codec.PROTOCOL, id=p.id)
        out.append(p)
    return out


def _encode_blocks(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    out.setdefault("id", resp.id or "msg_interlingua")
    out["type"] = "message"
    out["role"] = "assistant"
    out.setdefault("model", resp.model or "unknown")
    out["content"] = codec.encode_parts(
        _shown_reasoning(resp.parts, codec, ctx), None, "content", ctx
    )
    out["stop_reason"] = _finish(resp, "stop_reason", codec, ctx)
    out.setdefault("stop_sequence", None)
    out["usage"] = encode_usage(resp, codec, ctx)
    _drop_absent(resp, out, ctx)


_CHOICE_KEYS = frozenset({"index", "message", "finish_reason"})


def _decode_choice(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    choices = expect_list(w.get("choices"), "choices")
    if not choices:
        raise InvalidInput("no choices", path="choices")
    c0 = expect_dict(choices[0], "choices[0]")
    msg = decode_message(
        expect_dict(c0.get("message"), "choices[0].message"), "choices[0].message", codec, ctx
    )
    resp.parts = msg.parts
    resp.finish = finish_from_wire(codec, c0.get("finish_reason"), "choices[0].finish_reason")
    resp.usage = decode_usage(w, codec)
    hints: dict[str, Any] = {}
    extra = {k: v for k, v in c0.items() if k not in _CHOICE_KEYS}
    if extra:
        hints["choice_ext"] = extra
    if msg.ext:
        hints["message_ext"] = msg.ext  # written back by a Chat encoder, reported elsewhere
        said = {k: v for k, v in msg.ext.items() if v is not None and v != [] and v != {}}
        report_ext(said, "choices[0].message", ctx)
    hints["message_hints"] = msg.hints or {}  # decoded from the wire: its form is known
    resp.hints = hints or None
    if len(choices) > 1:
        # n > 1: the other choices have no canonical home; as an extension they are written
        # back between Chat endpoints and reported as lost anywhere else
        resp.ext = {**(resp.ext or {}), "choices": choices[1:]}
    _note_absent(w, resp, _CHOICE_ALWAYS)


def _encode_choice(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    hints = resp.hints or {}
    msg = Message(
        role="assistant",
        parts=resp.parts,
        ext=hints.get("message_ext") if ctx.same else None,
        hints=hints.get("message_hints"),
    )
    wire_msg = encode_message(msg, "choices[0].message", codec, ctx, reasoning_out=True)[0]
    content = wire_msg.get("content")
    from_wire = ctx.same and hints.get("message_hints") is not None  # else no form to keep
    if not from_wire and type(content) is list:
        # a completion's message.content is a string: text blocks join (what the target could
        # not carry in them was reported as each was encoded)
        texts = [b.get("text") for b in content if type(b) is dict and b.get("type") == "text"]
        if len(texts) == len(content):
            wire_msg["content"] = "".join(t for t in texts if type(t) is str)
    choice: dict[str, Any] = {
        "index": 0,
        "message": wire_msg,
        "finish_reason": _finish(resp, "choices[0].finish_reason", codec, ctx),
    }
    if ctx.same:
        choice.update(hints.get("choice_ext") or {})
    else:
        choice["logprobs"] = None
    out.setdefault("id", resp.id or "chatcmpl-interlingua")
    out["object"] = "chat.completion"
    out.setdefault("created", resp.created or 0)
    out.setdefault("model", resp.model or "unknown")
    more = (resp.ext or {}).get("choices") if ctx.same else None
    out["choices"] = [choice, *(more if type(more) is list else [])]
    if resp.usage is not None or not ctx.same:
        out["usage"] = encode_usage(resp, codec, ctx)
    _drop_absent(resp, out, ctx)


CONTENT_BLOCKS_RESPONSE = Transform(
    name="content_blocks_response",
    doc=__doc__ or "",
    response_keys=frozenset({"type", "role", "content", "stop_reason", "usage"}),
    decode_response=_decode_blocks,
    encode_response=_encode_blocks,
)
CHAT_CHOICE_RESPONSE = Transform(
    name="chat_choice_response",
    doc=__doc__ or "",
    response_keys=frozenset({"object", "choices", "usage"}),
    decode_response=_decode_choice,
    encode_response=_encode_choice,
)
