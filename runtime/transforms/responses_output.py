"""responses_output: a response's ``output`` items (see responses_item_list). The finish
(``status`` + ``incomplete_details``, where the response_envelope row's ``finish_detail`` puts
it), ``usage`` and the fields that echo the request (the row's ``echo``, written back to
Responses only) are the compiled envelope's (codegen/envelope_code.py)."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput
from .._losses import Ctx
from .._wire import expect_list
from ..generated.canonical import Response
from ._base import Codec, Transform
from .responses_item_list import ItemIds, assistant_items, decode_items


def _decode_response(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    output = w.get("output")
    if output is None:
        raise InvalidInput("missing required field", path="output")
    msgs = decode_items(expect_list(output, "output"), "output", codec, ctx, whole=True)
    resp.parts = msgs[0].parts if msgs else []
    # the items the parts came from, to cut them back into
    items = msgs[0].hints["items"] if msgs else []  # type: ignore[index]
    resp.hints = {**(resp.hints or {}), "items": items}
    if w.get("error") is not None and not ctx.same:  # an echoed key that says something
        ctx.loss("error", "the response's error object dropped", f"{ctx.target} has none", "errors")


def _encode_response(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    # the identity path needs a response decoded from Responses (an accumulated stream has none)
    hints = (resp.hints or {}) if ctx.same and "items" in (resp.hints or {}) else {}
    ids = ItemIds(codec.ITEM_ID_PREFIXES, resp.id or codec.RESPONSE_ID)
    out["output"] = assistant_items(resp.parts, hints, "output", codec, ctx, ids)


RESPONSES_OUTPUT = Transform(
    decode_response=_decode_response,
    encode_response=_encode_response,
)
