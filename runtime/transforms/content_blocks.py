"""content_blocks_response: ``content`` blocks and ``stop_reason`` of an Anthropic Messages
response (its usage and other fields are the response_envelope row's). Message-shaped responses
(Chat, Cohere) are message_response (rows: response_envelope)."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput
from .._losses import Ctx
from ..generated.canonical import Response
from ._base import Codec, Transform


def _decode_blocks(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    content = w.get("content")
    if content is None:
        raise InvalidInput("missing required field", path="content")
    resp.parts = codec.decode_parts(content, "content", ctx)
    resp.finish = codec.read_finish(w)


def _encode_blocks(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    out["content"] = content = codec.encode_parts(resp.parts, None, "content", ctx)
    if not ctx.same:  # reasoning text shown from elsewhere (envelopes.shown) has no signature,
        # which the Messages API types as a string: an empty one, as streams send
        for b in content:
            if b.get("type") == "thinking":
                b.setdefault("signature", "")
    codec.write_finish(resp.finish, out, ctx)


CONTENT_BLOCKS_RESPONSE = Transform(
    name="content_blocks_response",
    doc=__doc__ or "",
    decode_response=_decode_blocks,
    encode_response=_encode_blocks,
)
