"""responses_output: a response's ``output`` items (see responses_item_list), ``status`` +
``incomplete_details`` (the finish reason, where the response_envelope row's ``finish_detail``
puts it) and ``usage`` (``input_tokens_details.cache_write_tokens`` always emitted); the fields
that echo the request (the row's ``echo``), ``object`` and the raw status are hints, written
back to Responses only."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput
from .._losses import Ctx
from .._wire import expect_list
from ..generated.canonical import Response, ToolCallPart
from ._base import Codec, Transform
from .responses_item_list import ItemIds, assistant_items, decode_items


def _decode_response(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    output = w.get("output")
    if output is None:
        raise InvalidInput("missing required field", path="output")
    msgs = decode_items(expect_list(output, "output"), "output", codec, ctx, whole=True)
    resp.parts = msgs[0].parts if msgs else []
    resp.finish = codec.read_finish(w, any(type(p) is ToolCallPart for p in resp.parts))
    # the items the parts came from, to cut them back into
    hints: dict[str, Any] = {"items": msgs[0].hints["items"] if msgs else []}  # type: ignore[index]
    # the request's echo, the object type and the raw finish: back to Responses only
    kept = {k: w[k] for k in (*codec.RESPONSE_KEPT, "object") if k in w}
    if kept:
        hints["kept"] = kept
    if kept.get("error") is not None and not ctx.same:
        ctx.loss("error", "the response's error object dropped", f"{ctx.target} has none", "errors")
    resp.hints = {**(resp.hints or {}), **hints}


def _encode_response(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    # the identity path needs a response decoded from Responses (an accumulated stream has none)
    hints = (resp.hints or {}) if ctx.same and "items" in (resp.hints or {}) else {}
    ids = ItemIds(codec.ITEM_ID_PREFIXES, resp.id or codec.RESPONSE_ID)
    items = assistant_items(resp.parts, hints, "output", codec, ctx, ids)
    kept = hints.get("kept") or {}
    if codec.FINISH_KEY not in kept:
        codec.write_finish(resp.finish, out, ctx)
    out.update(kept)  # over the envelope's defaults: the source's own values
    out["output"] = items


RESPONSES_OUTPUT = Transform(
    decode_response=_decode_response,
    encode_response=_encode_response,
)
