"""The gateway's embeddings routes (spec/embeddings): ``POST /v1/embeddings`` and Gemini's
``/v1beta/models/{model}:embedContent`` and ``:batchEmbedContents``, each protocol's paths read
from its rows (``INBOUND_PATHS``, ``MODEL_PREFIXES`` x ``ACTIONS``).

A call is routed by model like a chat call (model map, upstreams' ``models``, fallbacks); an
upstream serves embeddings when an embeddings protocol rides its protocol (spec row
``upstreams``), at its ``base_url`` with its key. A batch larger than the upstream's
``max_inputs`` is split, the calls made one after the other (each with retries and fallback), and
the vectors joined in input order. Errors reach the caller in the error shape its clients read
(spec row ``errors``).
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

import httpx
import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .._api import load_json
from .._embed_support import join_responses, split_request
from .._embeddings import EMBEDDINGS_PROTOCOLS, embeddings_protocol
from .._errors import InterlinguaError, InvalidInput
from .._losses import Ctx, Loss
from .._protocols import UnknownProtocol
from ..generated.canonical import Usage
from ..generated.embeddings_canonical import EmbeddingsRequest, EmbeddingsResponse
from .config import Upstream
from .disconnect import until_disconnect
from .errors import GatewayError, answered, failure_response, upstream_error_response
from .log import AccessRecord
from .retry import send_with_retries
from .routing import post
from .upstream import http_spec, model_url, read_answer

if TYPE_CHECKING:
    from .app import Gateway

__all__ = ["embeddings_routes", "upstream_embeddings"]


def upstream_embeddings(up: Upstream) -> ModuleType | None:
    """The embeddings codec an upstream answers (by its protocol), or None."""
    try:
        return embeddings_protocol(up.protocol)
    except UnknownProtocol:
        return None


def embeddings_routes(gw: Gateway, served: list[str]) -> list[Route]:
    """Every embeddings protocol whose clients' error protocol is served: its routes (to be
    placed before the chat routes, which would take ``{model}:<action>`` paths too)."""
    routes: list[Route] = []
    for eid in EMBEDDINGS_PROTOCOLS:
        codec = embeddings_protocol(eid)
        if codec.ERRORS not in served:
            continue
        routes += [post(p, _endpoint(gw, eid, None)) for p in codec.INBOUND_PATHS]
        for prefix in codec.MODEL_PREFIXES:
            for action, form in codec.ACTIONS.items():
                path = f"{prefix}{{model}}:{action}"
                routes.append(post(path, _endpoint(gw, eid, form)))
    return routes


def _endpoint(gw: Gateway, eid: str, form: str | None) -> Any:
    async def endpoint(request: Request) -> Response:
        return await handle(gw, request, eid, form)

    endpoint.__name__ = f"embeddings_{eid}_{form or 'body'}"
    return endpoint


async def handle(gw: Gateway, request: Request, eid: str, form: str | None) -> Response:
    """One embeddings call; every failure reaches the caller in its own error shape."""
    codec = embeddings_protocol(eid)
    rec = AccessRecord(request.method, request.url.path, eid)
    gw.observers.begin(rec, request.headers)
    try:
        resp = await _handle(gw, request, codec, form, rec)
    except Exception as e:
        resp = failure_response(e, rec, codec.ERRORS)
    return answered(resp, rec, codec.ERRORS)


def _decode(codec: ModuleType, wire: Any, form: str | None, url_model: str | None) -> Any:
    """The caller's request; the URL's form and model win over the body's."""
    if form is not None and codec.BATCH_KEY is not None and type(wire) is dict:
        has_batch = codec.BATCH_KEY in wire
        if form == "batch" and not has_batch:
            raise InvalidInput("missing required field", path=codec.BATCH_KEY)
        if form == "single" and has_batch:
            raise InvalidInput("a batch goes to the batch method", path=codec.BATCH_KEY)
    req = codec.decode_request(wire, Ctx(codec.PROTOCOL, codec.PROTOCOL))
    if url_model is not None:
        req.model = http_spec(codec.ERRORS).bare_model(url_model)
    return req


async def _handle(
    gw: Gateway, request: Request, codec: ModuleType, form: str | None, rec: AccessRecord
) -> Response:
    gw.check_key(request)
    wire_in = load_json(await gw.read_body(request))
    req: EmbeddingsRequest = _decode(codec, wire_in, form, request.path_params.get("model"))
    requested = req.model or ""
    mapped = gw.cfg.map_model(requested)
    rec.model, rec.upstream_model = requested, mapped
    candidates = [u for u in gw.cfg.candidates(requested, mapped) if upstream_embeddings(u)]
    if not candidates:
        raise GatewayError("not_found", f"no upstream serves embeddings for {requested!r}", 404)
    limit = min(_target(u).MAX_INPUTS for u in candidates)
    parts = split_request(req, limit)
    answers: list[EmbeddingsResponse] = []
    losses: list[Loss] = []
    source = codec.PROTOCOL
    headers: dict[str, str] = {}
    for part in parts:
        done = await _call(gw, request, codec, part, mapped, candidates, rec, len(parts) == 1)
        if isinstance(done, Response):  # an upstream error, already in the caller's shape
            done.headers.update(headers)
            return done
        up, target, ctx, body, upstream_headers = done
        headers = gw.ids(rec, codec.ERRORS, up, upstream_headers)
        losses += [x for x in ctx.losses if x not in losses]
        single_form = codec.BATCH_KEY is not None and (req.hints or {}).get("single")
        if target.PROTOCOL == codec.PROTOCOL and len(parts) == 1 and not single_form:
            # the upstream answered in the caller's protocol and form: its bytes, untouched
            rec.add_losses(losses)
            return _json(body, headers, losses)
        try:
            answers.append(target.decode_response(load_json(body), ctx))
        except InterlinguaError as e:
            raise GatewayError(
                "bad_gateway", f"the upstream sent an invalid {target.PROTOCOL} answer: {e}", 502
            ) from None
        source = target.PROTOCOL
    joined = join_responses(answers, [len(p.inputs) for p in parts])
    if joined.usage is not None:
        rec.usage = Usage(input_total=joined.usage.input_tokens or 0)
    out_ctx = Ctx(source, codec.PROTOCOL)
    out = codec.encode_response(joined, out_ctx, req)
    losses += out_ctx.losses
    rec.add_losses(losses)
    return _json(orjson.dumps(out), headers, losses)


def _target(up: Upstream) -> ModuleType:
    target = upstream_embeddings(up)
    assert target is not None
    return target


def _json(body: bytes, headers: dict[str, str], losses: list[Loss]) -> Response:
    if losses:
        headers["x-interlingua-losses"] = str(len(losses))
    return Response(body, headers=headers, media_type="application/json")


async def _call(
    gw: Gateway,
    request: Request,
    codec: ModuleType,
    part: EmbeddingsRequest,
    model: str,
    candidates: list[Upstream],
    rec: AccessRecord,
    whole: bool,
) -> Response | tuple[Upstream, ModuleType, Ctx, bytes, httpx.Headers]:
    """One upstream call (retries, fallback) for ``part`` of the request."""

    async def build(up: Upstream) -> tuple[httpx.Request, tuple[ModuleType, Ctx]]:
        target = _target(up)
        ctx = Ctx(codec.PROTOCOL, target.PROTOCOL)
        call = part.__copy__()
        call.model = model
        call.hints = {
            **(part.hints or {}),
            "single": part.hints is not None
            and whole
            and bool(part.hints.get("single"))
            and target.BATCH_KEY is None,
        }
        body = target.encode_request(call, ctx)
        path = target.UPSTREAM_PATH
        if target.MODEL_IN_PATH:
            path = model_url(http_spec(up.protocol), path, model)
        same = target.PROTOCOL == codec.PROTOCOL
        headers = gw.pool.headers(up, False, request.headers, same)
        built = gw.pool.request(up, path, orjson.dumps(body), headers)
        gw.observers.outgoing(rec, built.headers)
        return built, (target, ctx)

    async def send() -> tuple[Upstream, tuple[ModuleType, Ctx], httpx.Response]:
        return await send_with_retries(candidates, build, gw.pool.send, rec)

    up, (target, ctx), upstream = await until_disconnect(request, send)
    rec.upstream, rec.upstream_name = up.protocol, up.name

    body = await until_disconnect(request, lambda: read_answer(upstream))
    if upstream.status_code >= 400:
        rec.error = f"upstream_{upstream.status_code}"
        resp = upstream_error_response(
            upstream.status_code, body, upstream.headers, source=up.protocol, target=codec.ERRORS
        )
        resp.headers.update(gw.ids(rec, codec.ERRORS, up, upstream.headers))
        return resp
    return up, target, ctx, body, upstream.headers
