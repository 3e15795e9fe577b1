"""Token counts (spec: http.count_tokens): a same-protocol upstream's own count when the mode is
native, else the gateway's estimate."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .._api import load_json
from .._errors import InterlinguaError
from .errors import GatewayError, upstream_error_response
from .log import AccessRecord
from .upstream import http_spec

if TYPE_CHECKING:
    from .app import Gateway

__all__ = ["count_tokens", "estimate_tokens"]


def estimate_tokens(body: Any) -> int:
    """The documented estimate when the upstream cannot count: the request's JSON size / 4."""
    return max(1, len(orjson.dumps(body)) // 4)


async def count_tokens(
    gw: Gateway, request: Request, inbound: str, rec: AccessRecord, url_model: str | None
) -> Response:
    """The protocol's token count (spec: http.count_tokens): the gateway's estimate, or a
    same-protocol upstream's own count when the mode is native."""
    spec = http_spec(inbound).count_tokens
    if spec is None:  # routes are only made for protocols with a count
        raise GatewayError("not_found", "no token count in this protocol", 404)
    wire_in = load_json(await gw.read_body(request))
    body: Any = wire_in
    if spec.fields:
        if type(wire_in) is not dict:
            raise InterlinguaError("expected a JSON object", path="")
        body = {k: v for k, v in wire_in.items() if k in spec.fields}
    if url_model is not None:
        requested = url_model
    else:
        requested = str(body.get("model") or "") if type(body) is dict else ""
    if spec.mode == "estimate":
        rec.model = requested
        return JSONResponse({spec.result_field: estimate_tokens(body)})
    mapped = gw.cfg.map_model(requested)
    up = gw.cfg.route(requested, mapped)
    rec.model, rec.upstream_model = requested, mapped
    if up is None:
        raise GatewayError("not_found", f"no upstream serves the model {requested!r}", 404)
    rec.upstream, rec.upstream_name = up.protocol, up.name
    if type(body) is dict and not http_spec(inbound).model_in_path:
        body["model"] = mapped
    up_req = None
    if up.protocol == inbound:
        up_req = gw.pool.build_count_tokens(up, orjson.dumps(body), request.headers)
    if up_req is not None:
        upstream = await gw.pool.send(up_req)
        try:
            data = await upstream.aread()
        finally:
            await upstream.aclose()
        if upstream.status_code < 400:
            return Response(data, media_type="application/json")
        if upstream.status_code not in (404, 405, 501):  # no count endpoint: estimate
            return upstream_error_response(
                upstream.status_code, data, upstream.headers, source=up.protocol, target=inbound
            )
    return JSONResponse({spec.result_field: estimate_tokens(body)})
