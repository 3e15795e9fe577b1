"""Response envelopes.

content_blocks_response: {id, type: message, role, model, content: [blocks], stop_reason,
stop_sequence, usage} (Anthropic Messages).
chat_choice_response: {id, object: chat.completion, created, model, choices: [{index, message,
finish_reason}], usage} (OpenAI Chat Completions); choices beyond the first are reported."""

from __future__ import annotations

from typing import Any

from .._codec_support import deep_merge
from .._errors import InvalidInput
from .._losses import Ctx
from .._wire import expect_dict, expect_list, expect_str
from ..generated.canonical import Finish, Message, Response
from ._base import Codec, Transform
from .messages_flat import decode_message, encode_message


def decode_finish(raw: Any, path: str, codec: Codec) -> Finish | None:
    if raw is None:
        return None
    raw = expect_str(raw, path)
    return Finish(unified=codec.FINISH_DECODE.get(raw, "other"), raw=raw)


def encode_finish(f: Finish | None, path: str, codec: Codec, ctx: Ctx) -> str | None:
    if f is None:
        return None
    if ctx.same and f.raw is not None:
        return f.raw
    raw: str = codec.FINISH_ENCODE.get(f.unified) or codec.FINISH_ENCODE["stop"]
    if codec.FINISH_DECODE.get(raw) != f.unified:
        ctx.loss(
            path,
            f"finish reason {f.raw or f.unified!r} sent as {raw!r}",
            f"{ctx.target} has no such reason",
            "finish_reason",
        )
    return raw


def encode_usage(resp: Response, codec: Codec, ctx: Ctx) -> dict[str, Any]:
    u = resp.usage
    if u is None:
        return codec.encode_usage(_zero())  # type: ignore[no-any-return]
    out: dict[str, Any] = codec.encode_usage(u)
    if ctx.same and u.raw is not None:
        return deep_merge(u.raw, out)
    return out


def _zero() -> Any:
    from ..generated.canonical import Usage

    return Usage()


def _decode_blocks(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    content = w.get("content")
    if content is None:
        raise InvalidInput("missing required field", path="content")
    resp.parts = codec.decode_parts(content, "content", ctx)
    resp.finish = decode_finish(w.get("stop_reason"), "stop_reason", codec)
    u = w.get("usage")
    resp.usage = codec.decode_usage(u, "usage") if u is not None else None


def _encode_blocks(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    out.setdefault("id", resp.id or "msg_interlingua")
    out["type"] = "message"
    out["role"] = "assistant"
    out.setdefault("model", resp.model or "unknown")
    out["content"] = codec.encode_parts(resp.parts, None, "content", ctx)
    out["stop_reason"] = encode_finish(resp.finish, "stop_reason", codec, ctx)
    out.setdefault("stop_sequence", None)
    out["usage"] = encode_usage(resp, codec, ctx)


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
    resp.finish = decode_finish(c0.get("finish_reason"), "choices[0].finish_reason", codec)
    u = w.get("usage")
    resp.usage = codec.decode_usage(u, "usage") if u is not None else None
    hints: dict[str, Any] = {}
    extra = {k: v for k, v in c0.items() if k not in _CHOICE_KEYS}
    if extra:
        hints["choice_ext"] = extra
    if msg.ext:
        hints["message_ext"] = msg.ext
    if msg.hints:
        hints["message_hints"] = msg.hints
    if len(choices) > 1:
        hints["more_choices"] = choices[1:]
    resp.hints = hints or None


def _encode_choice(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    hints = resp.hints or {}
    msg = Message(
        role="assistant",
        parts=resp.parts,
        ext=hints.get("message_ext") if ctx.same else None,
        hints=hints.get("message_hints"),
    )
    wire_msg = encode_message(msg, "choices[0].message", codec, ctx, reasoning_out=True)[0]
    choice: dict[str, Any] = {
        "index": 0,
        "message": wire_msg,
        "finish_reason": encode_finish(resp.finish, "choices[0].finish_reason", codec, ctx),
    }
    if ctx.same:
        choice.update(hints.get("choice_ext") or {})
    else:
        choice["logprobs"] = None
    out.setdefault("id", resp.id or "chatcmpl-interlingua")
    out["object"] = "chat.completion"
    out.setdefault("created", resp.created or 0)
    out.setdefault("model", resp.model or "unknown")
    out["choices"] = [choice, *(hints.get("more_choices") or [] if ctx.same else [])]
    if resp.usage is not None or not ctx.same:
        out["usage"] = encode_usage(resp, codec, ctx)


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
