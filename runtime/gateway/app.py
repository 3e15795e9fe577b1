"""The gateway's ASGI app: every available protocol served at its usual paths.

A request is decoded from the caller's protocol to the canonical model, its model name mapped,
routed to an upstream, encoded in the upstream's protocol and sent; the answer (a body, an error
or a stream) comes back translated into the caller's protocol. The routes (calls, token counts,
model lists) and the accepted inbound keys are made from the ``http`` section of each protocol's
spec (``codec.HTTP``) for every protocol the library has, so a protocol that lands in the
library is served without a change here.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx
import orjson
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .._api import load_json
from .._errors import InterlinguaError, brief
from .._losses import Ctx
from .._pipeline import decode_request, decode_response, encode_request, encode_response
from .._protocols import PROTOCOLS, UnknownProtocol, protocol
from ..generated.registry import SERVER_STATE as STATEFUL
from ..generated.spec_types import HttpAuth
from ..streams import stream_decoder, stream_encoder
from .config import Config, Upstream
from .counting import count_tokens, estimate_tokens
from .disconnect import until_disconnect
from .embeddings import embeddings_routes
from .errors import GatewayError, JsonAnswer, answered, failure_response, upstream_error_response
from .fallback import fallback_handlers
from .listing import ModelCatalog, answer, model_listing
from .log import GATEWAY_ID_HEADER, AccessRecord
from .observe import Observers
from .redact import install_redaction
from .requested import requested_model
from .retry import send_with_retries
from .routing import TableApp, post
from .shutdown import DEFAULT_SHUTDOWN_TIMEOUT, Drain
from .state.keeper import StateCall, StateKeeper
from .state.passthrough import ResponsesUpstreams
from .state.routes import state_routes
from .streaming import SSEStreamResponse
from .upstream import (
    UpstreamAnswer,
    UpstreamPool,
    UpstreamRequest,
    http_spec,
    read_answer,
)

__all__ = ["create_app", "estimate_tokens", "model_listing", "servable"]

_log = logging.getLogger("interlingua.gateway")


class Gateway:
    drain: Drain | None = None  # the shutdown's bound for open streams (create_app sets it)

    def __init__(self, cfg: Config, pool: UpstreamPool, served: list[str] | None = None) -> None:
        self.cfg = cfg
        self.pool = pool
        self.observers = Observers(cfg)  # metrics and traces
        self.state = StateKeeper(None, 0)  # create_app gives it the configured store
        self.catalog = ModelCatalog(cfg, pool)  # the model lists (listing.py)
        self._routes: dict[str, tuple[str, list[Upstream]]] = {}  # route()
        served = servable() if served is None else served
        # every way a served protocol's client presents a key (spec: http.auth)
        self.auths: tuple[HttpAuth, ...] = tuple(
            dict.fromkeys(http_spec(pid).auth for pid in served)
        )

    # -- the gateway's own checks ---------------------------------------------------------
    def check_key(self, request: Request) -> None:
        keys = self.cfg.inbound_keys
        if not keys:
            return
        h = request.headers
        given: list[str | None] = []
        for a in self.auths:
            value = h.get(a.header)
            given.append(a.key_in(value) if value is not None else None)
            if a.query:
                given.append(request.query_params.get(a.query))
        for g in given:
            if g and any(hmac.compare_digest(g.encode(), k.encode()) for k in keys):
                return
        raise GatewayError("authentication", "missing or invalid API key", 401)

    async def read_body(self, request: Request) -> bytes:
        """The whole request body (413 past ``max_body_bytes``), read from the ASGI messages
        straight (Starlette's ``stream()`` is an async generator: more work per message)."""
        limit = self.cfg.max_body_bytes
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise _too_large(limit)
        chunks: list[bytes] = []
        size = 0
        receive = request.receive
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientDisconnect()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise _too_large(limit)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    def route(self, requested: str) -> tuple[str, list[Upstream]]:
        """The model's mapped name and its upstreams (config.py), kept per name: the globs of
        the model map and of the upstreams' models are matched once, not on every call."""
        route = self._routes.get(requested)
        if route is None:
            mapped = self.cfg.map_model(requested)
            route = (mapped, self.cfg.candidates(requested, mapped))
            if len(self._routes) >= 4096:  # model names come from callers: a bounded table
                self._routes.clear()
            self._routes[requested] = route
        return route

    # -- the translated call --------------------------------------------------------------
    async def handle(
        self, request: Request, inbound: str, count: bool = False
    ) -> Response | SSEStreamResponse:
        """One call of ``inbound``'s clients; ``count``: its token-count route."""
        rec = AccessRecord(request.method, request.scope["path"], inbound)
        self.observers.begin(rec, request.headers)
        resp: Response | SSEStreamResponse
        try:
            if count:
                self.check_key(request)
                resp = await count_tokens(self, request, inbound, rec, None)
            else:
                resp = await self._handle(request, inbound, rec)
        except Exception as e:  # every failure reaches the caller in its own protocol
            resp = failure_response(e, rec, inbound)
        if isinstance(resp, Response):
            answered(resp, rec, inbound)
        return resp

    async def _handle(
        self, request: Request, inbound: str, rec: AccessRecord
    ) -> Response | SSEStreamResponse:
        self.check_key(request)
        url_model, action = self._url_target(request, inbound)
        if action == "count_tokens":
            return await count_tokens(self, request, inbound, rec, url_model)
        wire_in = load_json(await self.read_body(request))
        requested = requested_model(wire_in, inbound, url_model)
        mapped, candidates = self.route(requested)
        rec.model, rec.upstream_model = requested, mapped
        if not candidates:
            decode_request(wire_in, inbound)  # an invalid body is a 400 naming its path first
            raise GatewayError("not_found", f"no upstream serves the model {brief(requested)}", 404)
        calls: dict[tuple[str, str | None], StateCall] = {}  # per upstream protocol and dialect
        usage_asked: dict[str, bool] = {}  # per upstream protocol: usage asked for at the end

        async def build(up: Upstream) -> tuple[UpstreamRequest, tuple[Ctx, StateCall]]:
            """The call for ``up``: decoded toward its protocol, so that what it cannot carry
            is reported on decode too, exactly as translate_request reports it."""
            call = calls.get((up.protocol, up.dialect))
            if call is None:
                call = calls[up.protocol, up.dialect] = await self.state.begin_for(
                    wire_in, inbound, up.protocol, up.dialect
                )
            same = up.protocol == inbound
            ctx = Ctx(inbound, up.protocol)
            req = decode_request(call.wire, inbound, ctx)
            if url_model is not None:
                req.model = url_model
                req.stream = action == "stream"
            rec.stream = bool(req.stream)
            req.model = mapped
            opt_in = getattr(protocol(up.protocol, up.dialect).FLAGS, "stream_usage_opt_in", None)
            if req.stream and opt_in and not same:
                req.include_usage = True  # so the caller gets usage, and the access log too
            await call.restore(req, ctx)
            usage_asked[up.protocol] = bool(req.stream and req.include_usage)
            wire_out = encode_request(req, up.protocol, ctx, dialect=up.dialect)
            built = self.pool.build(up, wire_out, mapped, rec.stream, request.headers, same)
            self.observers.outgoing(rec, built.headers)
            return built, (ctx, call)

        async def exchange() -> tuple[Upstream, tuple[Ctx, StateCall], UpstreamAnswer, bytes]:
            """The attempts, then (unless a stream is relayed) the whole answer."""
            up, made, upstream = await send_with_retries(candidates, build, self.pool.call, rec)
            if rec.stream and upstream.status_code < 400:
                return up, made, upstream, b""
            return up, made, upstream, await read_answer(upstream)

        up, (ctx, call), upstream, body = await until_disconnect(request, exchange)
        rec.upstream, rec.upstream_name = up.protocol, up.name
        rec.add_losses(ctx.losses)
        extra = {**self.ids(rec, inbound, up, upstream.headers), **call.headers}
        if ctx.losses:
            extra["x-interlingua-losses"] = str(len(ctx.losses))
        if rec.stream and upstream.status_code < 400:
            try:
                asked = usage_asked.get(up.protocol, False)
                translator = call.translator(up.protocol, inbound, up.dialect, asked)
            except BaseException:
                await upstream.aclose()
                raise
            on_end = call.finish_stream if call.active else None
            sse = SSEStreamResponse(upstream, translator, rec, extra, on_end)  # closes upstream
            sse.open_streams, sse.drain = self.observers.open_streams, self.drain
            return sse

        if upstream.status_code >= 400:
            rec.error = f"upstream_{upstream.status_code}"
            resp = upstream_error_response(
                upstream.status_code, body, upstream.headers, source=up.protocol, target=inbound
            )
            resp.headers.update(extra)
            return resp
        return await self._response(body, up.protocol, inbound, rec, extra, call, up.dialect)

    def ids(
        self, rec: AccessRecord, inbound: str, up: Upstream, headers: Mapping[str, str]
    ) -> dict[str, str]:
        """The request ids for the caller: the upstream's own (logged) in the header the
        caller's SDK reads (spec: http.request_id_header), the gateway's when the upstream
        sent none; the gateway's always in its own header."""
        name = http_spec(up.protocol).request_id_header
        rec.upstream_request_id = headers.get(name) if name else None
        out = {GATEWAY_ID_HEADER: rec.request_id}
        mine = http_spec(inbound).request_id_header
        if mine:
            out[mine] = rec.upstream_request_id or rec.request_id
        return out

    async def _response(
        self,
        body: bytes,
        source: str,
        target: str,
        rec: AccessRecord,
        headers: dict[str, str],
        call: StateCall,
        dialect: str | None = None,
    ) -> Response:
        ctx = Ctx(source, target)
        try:
            resp = decode_response(load_json(body), source, ctx, dialect=dialect)
        except InterlinguaError as e:
            raise GatewayError(
                "bad_gateway", f"the upstream sent an invalid {source} response: {e}", 502
            ) from None
        rec.usage, rec.response_model = resp.usage, resp.model
        if source == target and not (call.active and call.turn):
            content = body  # pass-through: the upstream's bytes, untouched
            out = None
        else:
            out = load_json(body) if source == target else encode_response(resp, target, ctx)
            rec.add_losses(ctx.losses)
            if rec.losses:
                headers["x-interlingua-losses"] = str(rec.losses)
        if call.active:
            await call.finish_body(resp, out)
        if out is not None:
            content = orjson.dumps(out)
        return JsonAnswer(content, headers)

    def _url_target(self, request: Request, inbound: str) -> tuple[str | None, str]:
        """(model, action) named in the URL (``{target}`` = ``<model>:<action>``), or (None,
        "generate") when the protocol names neither there."""
        target = request.path_params.get("target")
        if target is None:
            return None, "generate"
        model, sep, action = target.rpartition(":")
        kind = http_spec(inbound).url_actions.get(action)
        if not sep or not model or kind is None:
            raise GatewayError("not_found", f"unknown method {brief(target)}", 404)
        return model, kind

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


def _too_large(limit: int) -> GatewayError:
    return GatewayError("request_too_large", f"request body is larger than {limit} bytes", 413)


def _endpoint(gw: Gateway, pid: str, count: bool = False) -> Any:
    async def endpoint(request: Request) -> Any:
        return await gw.handle(request, pid, count)

    endpoint.__name__ = f"{'count_tokens' if count else 'handle'}_{pid}"
    return endpoint


def _listing(gw: Gateway, path: str, pids: tuple[str, ...]) -> Any:
    async def endpoint(request: Request) -> Any:
        return await answer(gw, request, path, pids)

    endpoint.__name__ = f"models_{'_'.join(pids)}"
    return endpoint


def servable() -> list[str]:
    """The protocols the gateway can serve: every one the library has (codec and streams), with
    an ``http`` section. A protocol that fails to load is left out (and logged), never fatal to
    the others."""
    out = []
    for pid in PROTOCOLS:
        try:
            if getattr(protocol(pid), "HTTP", None) is None:
                continue
            stream_decoder(pid)
            stream_encoder(pid)
        except (UnknownProtocol, ModuleNotFoundError):
            continue
        except Exception as e:
            _log.warning("protocol %s failed to load (%r); not served", pid, e)
            continue
        out.append(pid)
    return out


def create_app(
    cfg: Config,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    shutdown_timeout: float = DEFAULT_SHUTDOWN_TIMEOUT,
) -> Starlette:
    """The ASGI app. ``transport`` replaces the network for the upstream calls (tests);
    ``shutdown_timeout``: open streams end in band before it runs out (shutdown.py)."""
    install_redaction()  # no query string (a ?key=) in any log line
    pool = UpstreamPool(transport)
    served = servable()
    gw = Gateway(cfg, pool, served)
    gw.drain = Drain(shutdown_timeout)
    gw.state = keeper = StateKeeper.from_config(cfg)
    routes = [Route("/healthz", gw.healthz, methods=["GET"])]
    if gw.observers.metrics is not None:
        routes.append(Route("/metrics", gw.observers.metrics.endpoint, methods=["GET"]))
    if STATEFUL in served:  # the stored responses (GET / DELETE /v1/responses/{id})
        kept_upstream = ResponsesUpstreams(cfg, pool, STATEFUL)  # ids a Responses upstream holds
        routes += state_routes(
            keeper, http_spec(STATEFUL).inbound_paths, gw.check_key, kept_upstream
        )
    listed: dict[str, tuple[str, ...]] = {}  # GET path -> the protocols listing models there
    for pid in served:
        if (m := http_spec(pid).models) is not None:
            for path in m.paths:
                listed[path] = (*listed.get(path, ()), pid)
    for p, pids in listed.items():  # the list, and one model (GET /v1/models/{id})
        ep = _listing(gw, p, pids)
        routes += [
            Route(p, ep, methods=["GET"]),
            Route(p + "/{model_id:path}", ep, methods=["GET"]),
        ]
    routes += embeddings_routes(gw, served)  # before the chat routes: {model}:<action> paths
    for pid in served:
        count = http_spec(pid).count_tokens
        if count is not None and count.inbound_paths:
            ep = _endpoint(gw, pid, count=True)
            routes += [post(p, ep) for p in count.inbound_paths]
    for pid in served:
        ep = _endpoint(gw, pid)
        routes += [post(path, ep) for path in http_spec(pid).inbound_paths]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        gw.drain.listen()  # type: ignore[union-attr]
        yield
        await pool.aclose()
        await keeper.aclose()

    # the call routes without a regular expression or middleware per request (routing.py)
    app = TableApp(routes=routes, lifespan=lifespan, exception_handlers=fallback_handlers(served))
    app.state.gateway = gw
    return app
