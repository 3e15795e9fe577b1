"""The usage rule every response and stream shares (which counts a target cannot carry, the
source's own usage object back to its protocol), and

content_blocks_response: ``content`` blocks, ``stop_reason`` and ``usage`` of an Anthropic Messages
response (its other fields are the response_envelope row's). Message-shaped responses (Chat, Cohere) are
message_response (rows: response_envelope)."""

from __future__ import annotations

from typing import Any

from .._codec_support import deep_merge
from .._errors import InvalidInput
from .._finish import read_finish, write_finish
from .._losses import Ctx, Loss
from ..generated.canonical import Response, Usage
from ._base import Codec, Transform


def usage_losses(u: Usage, codec: Codec, target: str, path: str) -> list[Loss]:
    """The counts of ``u`` the target's usage has no field for (responses and streams alike)."""
    return [
        Loss(
            f"{path}.{name}",
            f"{name} count {n} dropped (still included in the totals)",
            f"{target} usage has no such count",
            "usage",
        )
        for name in ("input_cache_read", "input_cache_write", "output_reasoning")
        if (n := getattr(u, name)) and name not in codec.USAGE_CARRIED
    ]


def encode_usage(resp: Response, codec: Codec, ctx: Ctx) -> dict[str, Any]:
    u = resp.usage
    if u is None:
        return codec.encode_usage(Usage())  # type: ignore[no-any-return]
    out: dict[str, Any] = codec.encode_usage(u)
    ctx.losses += usage_losses(u, codec, ctx.target, codec.USAGE_PATH)
    if ctx.same and u.raw is not None:
        if _counts(codec.decode_usage(u.raw, codec.USAGE_PATH)) == _counts(u):
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
    resp.finish = read_finish(codec, w, "")


def _encode_blocks(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    out["content"] = content = codec.encode_parts(resp.parts, None, "content", ctx)
    if not ctx.same:  # reasoning text shown from elsewhere (envelopes.shown) has no signature,
        # which the Messages API types as a string: an empty one, as streams send
        for b in content:
            if b.get("type") == "thinking":
                b.setdefault("signature", "")
    write_finish(codec, resp.finish, out, ctx, "stop_reason")


CONTENT_BLOCKS_RESPONSE = Transform(
    name="content_blocks_response",
    doc=__doc__ or "",
    decode_response=_decode_blocks,
    encode_response=_encode_blocks,
)
