"""Token counts (spec: ``http.count_tokens``): the upstream's own count when its protocol has a
count endpoint, the gateway's estimate otherwise.

The count request is decoded as a call of the caller's protocol (Anthropic's count body is a
Messages request without ``max_tokens``; Gemini's is ``{contents}`` or a whole request under
``generateContentRequest``; a Responses ``input_tokens`` body is a Responses request, its
``previous_response_id`` expanded from the gateway's state when the upstream keeps none). Routed like a call, it goes to the upstream's count endpoint: as it
came when the upstream speaks the caller's protocol, translated toward the upstream's protocol
otherwise (an Anthropic client's count asked of a Gemini upstream's ``countTokens``, a Gemini
client's of an Anthropic upstream's ``count_tokens``), and the upstream's number answered in the
caller's field. An upstream without a count endpoint (or one that says 404/405/501) gets the
estimate (estimate.py): text by characters, media by the upstream provider's documented
formulas (the caller's when the upstream's protocol has none), never by base64 size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .._api import load_json
from .._errors import InterlinguaError
from .._losses import Ctx
from .._pipeline import decode_request, encode_request
from ..generated.spec_types import CountTokens, HttpSpec
from .config import Upstream
from .errors import GatewayError, upstream_error_response
from .estimate import estimate_request
from .log import AccessRecord
from .upstream import http_spec, model_url

if TYPE_CHECKING:
    from .app import Gateway

__all__ = ["count_tokens", "estimate_tokens"]

_NO_COUNT = (404, 405, 501)  # the upstream has no count endpoint: estimate


def estimate_tokens(body: Any, protocol: str = "anthropic_messages") -> int:
    """The gateway's estimate for a request body of ``protocol`` (its own formulas)."""
    return estimate_request(decode_request(body, protocol), http_spec(protocol).token_estimate)


def _request_of(wire: Any, spec: CountTokens) -> dict[str, Any]:
    """The generate request inside a count request (unwrapped, counted fields only)."""
    if type(wire) is not dict:
        raise InterlinguaError("expected a JSON object", path="")
    if spec.wrap and type(wire.get(spec.wrap)) is dict:
        return dict(wire[spec.wrap])
    if spec.fields:
        return {k: v for k, v in wire.items() if k in spec.fields}
    return dict(wire)


def _count_body(up: Upstream, spec: CountTokens, wire: dict[str, Any], model: str) -> bytes:
    """The upstream's count request from its generate request ``wire``."""
    if spec.wrap:
        inner = dict(wire)
        if spec.wrap_model:
            inner["model"] = _wrapped_model(http_spec(up.protocol), spec, model)
        inner.pop("stream", None)
        return orjson.dumps({spec.wrap: inner})
    body = {k: v for k, v in wire.items() if not spec.fields or k in spec.fields}
    if not http_spec(up.protocol).model_in_path:
        body["model"] = model
    return orjson.dumps(body)


async def count_tokens(
    gw: Gateway, request: Request, inbound: str, rec: AccessRecord, url_model: str | None
) -> Response:
    """The caller's token count: the upstream's, or the estimate."""
    spec = http_spec(inbound).count_tokens
    if spec is None:  # routes are only made for protocols with a count
        raise GatewayError("not_found", "no token count in this protocol", 404)
    wire_in = load_json(await gw.read_body(request))
    body = _request_of(wire_in, spec)
    requested = url_model if url_model is not None else str(body.get("model") or "")
    mapped = gw.cfg.map_model(requested)
    up = gw.cfg.route(requested, mapped)
    rec.model, rec.upstream_model = requested, mapped
    ctx = Ctx(inbound, up.protocol if up is not None else inbound)
    # a Responses count's previous_response_id / item_reference: the stored conversation counts
    body = (await gw.state.begin_for(body, inbound, up.protocol if up else None)).wire
    req = decode_request(body, inbound, ctx)
    up_spec = http_spec(up.protocol).count_tokens if up is not None else None
    if spec.mode == "native" and up is not None and up_spec is not None and up_spec.upstream_path:
        rec.upstream, rec.upstream_name = up.protocol, up.name
        same = up.protocol == inbound
        if same and spec.wrap:  # as it came (a nested request names the mapped model)
            inner = wire_in.get(spec.wrap)
            if type(inner) is dict:
                wrapped = _wrapped_model(http_spec(inbound), spec, mapped)
                wire_in = {**wire_in, spec.wrap: {**inner, "model": wrapped}}
            out = orjson.dumps(wire_in)
        elif same:
            out = _count_body(up, up_spec, body, mapped)
        else:
            req.model = mapped
            wire = encode_request(req, up.protocol, ctx, dialect=up.dialect)
            rec.add_losses(ctx.losses)
            out = _count_body(up, up_spec, wire, mapped)
        path = model_url(http_spec(up.protocol), up_spec.upstream_path or "", mapped)
        sent = gw.pool.request(up, path, out, gw.pool.headers(up, False, request.headers, same))
        upstream, data = await gw.pool.fetch(sent)
        if upstream.status_code < 400:
            if same:
                return Response(data, media_type="application/json")
            got = load_json(data) if data else None
            n = got.get(up_spec.result_field) if type(got) is dict else None
            if type(n) is int:
                return JSONResponse({**spec.envelope, spec.result_field: n})
        elif upstream.status_code not in _NO_COUNT:
            return upstream_error_response(
                upstream.status_code, data, upstream.headers, source=up.protocol, target=inbound
            )
    row = (up is not None and http_spec(up.protocol).token_estimate) or None
    row = row or http_spec(inbound).token_estimate
    return JSONResponse({**spec.envelope, spec.result_field: estimate_request(req, row)})


def _wrapped_model(http: HttpSpec, spec: CountTokens, model: str) -> str:
    """The model field of a nested generate request (``wrap_model``), else ``model``."""
    if spec.wrap_model:
        return spec.wrap_model.replace("{model}", http.bare_model(model))
    return model
