"""The gateway's ASGI app: every available protocol served at its usual paths.

A request is decoded from the caller's protocol to the canonical model, its model name mapped,
routed to an upstream, encoded in the upstream's protocol and sent; the answer (a body, an error
or a stream) comes back translated into the caller's protocol. The routes are made from
``INBOUND`` for every protocol ``interlingua.available()`` lists, so a protocol that lands in
the library is served without a change here.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .._api import load_json
from .._errors import InterlinguaError
from .._losses import Ctx
from .._pipeline import decode_request, decode_response, encode_request, encode_response
from .._protocols import PROTOCOLS, UnknownProtocol, protocol
from ..generated.canonical import ErrorInfo
from ..streams import stream_decoder, stream_encoder
from .config import Config
from .errors import GatewayError, error_response, info_from_exception, upstream_error_response
from .log import AccessRecord
from .streaming import ObservedTranslator, SSEStreamResponse
from .upstream import WIRES, UpstreamPool

__all__ = ["INBOUND", "GEMINI_ACTIONS", "create_app", "estimate_tokens", "servable"]

_log = logging.getLogger("interlingua.gateway")

# protocol -> the paths its clients POST to (bare and /v1-prefixed forms). ``{target}`` is
# ``<model>:<action>`` for protocols that name the model and the streaming mode in the URL.
INBOUND: dict[str, tuple[str, ...]] = {
    "anthropic_messages": ("/v1/messages", "/messages"),
    "openai_chat": ("/v1/chat/completions", "/chat/completions"),
    "openai_responses": ("/v1/responses", "/responses"),
    "gemini": ("/v1beta/models/{target}", "/v1/models/{target}", "/models/{target}"),
}
# URL action -> streaming?
GEMINI_ACTIONS = {"generateContent": False, "streamGenerateContent": True}

COUNT_TOKENS_PATHS = ("/v1/messages/count_tokens", "/messages/count_tokens")
COUNT_TOKENS_FIELDS = frozenset(
    {"model", "messages", "system", "tools", "tool_choice", "thinking", "mcp_servers"}
)


def estimate_tokens(body: Any) -> int:
    """The documented estimate when the upstream cannot count: the request's JSON size / 4."""
    return max(1, len(orjson.dumps(body)) // 4)


class Gateway:
    def __init__(self, cfg: Config, pool: UpstreamPool) -> None:
        self.cfg = cfg
        self.pool = pool

    # -- the gateway's own checks ---------------------------------------------------------
    def check_key(self, request: Request) -> None:
        keys = self.cfg.inbound_keys
        if not keys:
            return
        h = request.headers
        auth = h.get("authorization", "")
        given = [
            h.get("x-api-key"),
            h.get("x-goog-api-key"),
            auth[7:] if auth[:7].lower() == "bearer " else None,
            request.query_params.get("key"),
        ]
        for g in given:
            if g and any(hmac.compare_digest(g.encode(), k.encode()) for k in keys):
                return
        raise GatewayError("authentication", "missing or invalid API key", 401)

    async def read_body(self, request: Request) -> bytes:
        limit = self.cfg.max_body_bytes
        too_large = GatewayError(
            "request_too_large", f"request body is larger than {limit} bytes", 413
        )
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise too_large
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise too_large
            chunks.append(chunk)
        return b"".join(chunks)

    # -- the translated call --------------------------------------------------------------
    async def handle(self, request: Request, inbound: str) -> Response | SSEStreamResponse:
        rec = AccessRecord(request.method, request.url.path, inbound)
        try:
            resp = await self._handle(request, inbound, rec)
        except Exception as e:  # every failure reaches the caller in its own protocol
            info = info_from_exception(e)
            if not isinstance(e, InterlinguaError | GatewayError | httpx.HTTPError):
                _log.exception("request %s failed", rec.request_id)
                info = ErrorInfo(type="api_error", message="internal gateway error", status=500)
            resp = error_response(info, inbound)
            rec.error = info.type
        if isinstance(resp, Response):
            resp.headers["x-request-id"] = rec.request_id
            rec.status = resp.status_code
            rec.first_byte()
            rec.emit()
        return resp

    async def _handle(
        self, request: Request, inbound: str, rec: AccessRecord
    ) -> Response | SSEStreamResponse:
        self.check_key(request)
        url_model, url_stream = self._url_target(request)
        wire_in = load_json(await self.read_body(request))
        if request.path_params.get("target", "").endswith(":countTokens"):
            rec.model = url_model
            return JSONResponse({"totalTokens": estimate_tokens(wire_in)})  # Gemini's count
        ctx = Ctx(inbound, inbound)
        req = decode_request(wire_in, inbound, ctx)
        if url_model is not None:
            req.model = url_model
            req.stream = url_stream
        requested = req.model or ""
        mapped = self.cfg.map_model(requested)
        up = self.cfg.route(requested, mapped)
        rec.model, rec.upstream_model, rec.stream = requested, mapped, bool(req.stream)
        if up is None:
            raise GatewayError("not_found", f"no upstream serves the model {requested!r}", 404)
        rec.upstream, rec.upstream_name = up.protocol, up.name
        same = up.protocol == inbound
        req.model = mapped
        opt_in = getattr(protocol(up.protocol).codec.FLAGS, "stream_usage_opt_in", None)
        if req.stream and opt_in and not same:
            req.include_usage = True  # so the caller gets usage, and the access log too
        ctx.target = up.protocol
        wire_out = encode_request(req, up.protocol, ctx)
        rec.losses = len(ctx.losses)
        extra = {"x-request-id": rec.request_id}
        if ctx.losses:
            extra["x-interlingua-losses"] = str(len(ctx.losses))
        upstream_req = self.pool.build(
            up, wire_out, mapped, bool(req.stream), request.headers, same
        )
        upstream = await self.pool.send(upstream_req)
        if req.stream and upstream.status_code < 400:
            try:
                translator = ObservedTranslator(up.protocol, inbound)
            except BaseException:
                await upstream.aclose()
                raise
            return SSEStreamResponse(upstream, translator, rec, extra)  # it closes upstream
        try:
            body = await upstream.aread()
        finally:
            await upstream.aclose()
        if upstream.status_code >= 400:
            rec.error = f"upstream_{upstream.status_code}"
            return upstream_error_response(
                upstream.status_code,
                body,
                upstream.headers,
                source=up.protocol,
                target=inbound,
            )
        return self._response(body, up.protocol, inbound, rec, extra)

    def _response(
        self, body: bytes, source: str, target: str, rec: AccessRecord, headers: dict[str, str]
    ) -> Response:
        ctx = Ctx(source, target)
        try:
            resp = decode_response(load_json(body), source, ctx)
        except InterlinguaError as e:
            raise GatewayError(
                "bad_gateway", f"the upstream sent an invalid {source} response: {e}", 502
            ) from None
        rec.usage = resp.usage
        if source == target:  # pass-through: the upstream's bytes, untouched
            content = body
        else:
            content = orjson.dumps(encode_response(resp, target, ctx))
            rec.losses += len(ctx.losses)
            if rec.losses:
                headers["x-interlingua-losses"] = str(rec.losses)
        return Response(content, headers=headers, media_type="application/json")

    def _url_target(self, request: Request) -> tuple[str | None, bool]:
        target = request.path_params.get("target")
        if target is None:
            return None, False
        model, sep, action = target.rpartition(":")
        if not sep or not model or (action not in GEMINI_ACTIONS and action != "countTokens"):
            raise GatewayError("not_found", f"unknown method {target!r}", 404)
        return model, GEMINI_ACTIONS.get(action, False)

    # -- Anthropic's count_tokens ---------------------------------------------------------
    async def count_tokens(self, request: Request) -> Response:
        inbound = "anthropic_messages"
        rec = AccessRecord(request.method, request.url.path, inbound)
        try:
            resp = await self._count_tokens(request, inbound, rec)
        except Exception as e:
            info = info_from_exception(e)
            if not isinstance(e, InterlinguaError | GatewayError | httpx.HTTPError):
                _log.exception("request %s failed", rec.request_id)
                info = ErrorInfo(type="api_error", message="internal gateway error", status=500)
            resp = error_response(info, inbound)
            rec.error = info.type
        resp.headers["x-request-id"] = rec.request_id
        rec.status = resp.status_code
        rec.first_byte()
        rec.emit()
        return resp

    async def _count_tokens(self, request: Request, inbound: str, rec: AccessRecord) -> Response:
        self.check_key(request)
        wire_in = load_json(await self.read_body(request))
        if type(wire_in) is not dict:
            raise InterlinguaError("expected a JSON object", path="")
        requested = str(wire_in.get("model") or "")
        mapped = self.cfg.map_model(requested)
        up = self.cfg.route(requested, mapped)
        rec.model, rec.upstream_model = requested, mapped
        if up is None:
            raise GatewayError("not_found", f"no upstream serves the model {requested!r}", 404)
        rec.upstream, rec.upstream_name = up.protocol, up.name
        body = {k: v for k, v in wire_in.items() if k in COUNT_TOKENS_FIELDS}
        body["model"] = mapped
        up_req = None
        if up.protocol == inbound:
            up_req = self.pool.build_count_tokens(up, orjson.dumps(body), request.headers)
        if up_req is not None:
            upstream = await self.pool.send(up_req)
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
        return JSONResponse({"input_tokens": estimate_tokens(body)})

    # -- listings -------------------------------------------------------------------------
    def _listing_refused(self, request: Request, pid: str) -> Response | None:
        """401 when inbound keys are configured and the listing request has none."""
        try:
            self.check_key(request)
        except GatewayError as e:
            return error_response(e.info, pid if pid in servable() else "openai_chat")
        return None

    async def models(self, request: Request) -> Response:
        # one shape both SDKs read (Anthropic's error envelope also carries OpenAI's "error")
        refused = self._listing_refused(request, "anthropic_messages")
        if refused is not None:
            return refused
        names = self.cfg.listed_models()
        data = [
            {
                "id": n,
                "object": "model",
                "type": "model",
                "created": 0,
                "created_at": "1970-01-01T00:00:00Z",
                "owned_by": "interlingua",
                "display_name": n,
            }
            for n in names
        ]
        return JSONResponse(
            {
                "object": "list",
                "data": data,
                "has_more": False,
                "first_id": names[0] if names else None,
                "last_id": names[-1] if names else None,
            }
        )

    async def gemini_models(self, request: Request) -> Response:
        refused = self._listing_refused(request, "gemini")
        if refused is not None:
            return refused
        models = [
            {
                "name": f"models/{n}",
                "displayName": n,
                "supportedGenerationMethods": list(GEMINI_ACTIONS),
            }
            for n in self.cfg.listed_models()
        ]
        return JSONResponse({"models": models})

    async def healthz(self, request: Request) -> Response:
        return JSONResponse(
            {
                "status": "ok",
                "protocols": servable(),
                "upstreams": [
                    {"name": u.name, "protocol": u.protocol, "models": u.models}
                    for u in self.cfg.upstreams
                ],
            }
        )


def _endpoint(gw: Gateway, pid: str) -> Any:
    async def endpoint(request: Request) -> Any:
        return await gw.handle(request, pid)

    endpoint.__name__ = f"handle_{pid}"
    return endpoint


def servable() -> list[str]:
    """The protocols the gateway can serve: every one the library has (codec and streams), with
    a known wire. A protocol that fails to load is left out (and logged), never fatal to the
    others."""
    out = []
    for pid in PROTOCOLS:
        if pid not in INBOUND or pid not in WIRES:
            continue
        try:
            protocol(pid)
            stream_decoder(pid)
            stream_encoder(pid)
        except (UnknownProtocol, ModuleNotFoundError):
            continue
        except Exception as e:
            _log.warning("protocol %s failed to load (%r); not served", pid, e)
            continue
        out.append(pid)
    return out


def create_app(cfg: Config, *, transport: httpx.AsyncBaseTransport | None = None) -> Starlette:
    """The ASGI app. ``transport`` replaces the network for the upstream calls (tests)."""
    pool = UpstreamPool(transport)
    gw = Gateway(cfg, pool)
    served = servable()
    routes = [
        Route("/healthz", gw.healthz, methods=["GET"]),
        Route("/v1/models", gw.models, methods=["GET"]),
        Route("/models", gw.models, methods=["GET"]),
        Route("/v1beta/models", gw.gemini_models, methods=["GET"]),
    ]
    if "anthropic_messages" in served:
        routes += [Route(p, gw.count_tokens, methods=["POST"]) for p in COUNT_TOKENS_PATHS]
    for pid in served:
        ep = _endpoint(gw, pid)
        routes += [Route(path, ep, methods=["POST"]) for path in INBOUND[pid]]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await pool.aclose()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.gateway = gw
    return app
