"""``GET /v1/responses/{id}``, ``GET /v1/responses/{id}/input_items`` and
``DELETE /v1/responses/{id}``: the responses the gateway keeps (under each Responses path the
spec lists: ``/v1/responses`` and ``/responses``). An id the gateway does not hold goes to the
Responses upstreams that keep their own state (passthrough.py); one that nobody holds is a 404
in the Responses error shape. Reading a response renews its TTL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...generated.registry import SERVER_STATE as STATEFUL
from ..errors import GatewayError, answered, error_response, info_from_exception
from ..log import AccessRecord
from .keeper import StateKeeper, unavailable
from .passthrough import ResponsesUpstreams
from .responses import ResponsesState, not_found
from .store import StateUnavailable

__all__ = ["state_routes"]


def state_routes(
    keeper: StateKeeper,
    base_paths: tuple[str, ...],
    check_key: Callable[[Request], None],
    upstreams: ResponsesUpstreams | None = None,
) -> list[Route]:
    def endpoint(
        fn: Callable[[Request, str], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def ep(request: Request) -> Response:
            rec = AccessRecord(request.method, request.url.path, STATEFUL)
            try:
                check_key(request)
                try:
                    resp = await fn(request, request.path_params["response_id"])
                except StateUnavailable as e:
                    raise unavailable(e) from None
            except GatewayError as e:
                info = info_from_exception(e)
                rec.error = info.type
                resp = error_response(info, STATEFUL)
            return answered(resp, rec, STATEFUL)

        ep.__name__ = fn.__name__
        return ep

    async def elsewhere(request: Request, rid: str, suffix: str = "") -> Response:
        """An id the gateway does not hold: a Responses upstream's answer, or 404."""
        if upstreams is not None:
            resp = await upstreams.forward(request, f"/{quote(rid, safe='')}{suffix}")
            if resp is not None:
                return resp
        raise not_found("Response", rid, None, "response_id")

    async def _record(rid: str) -> dict[str, Any] | None:
        if keeper.responses is None:
            return None
        return await keeper.responses.get(rid, renew=True)

    async def get_response(request: Request, rid: str) -> Response:
        rec = await _record(rid)
        if rec is None:
            return await elsewhere(request, rid)
        return JSONResponse(ResponsesState.response_of(rec))

    async def delete_response(request: Request, rid: str) -> Response:
        if keeper.responses is None or not await keeper.responses.delete(rid):
            return await elsewhere(request, rid)
        return JSONResponse({"id": rid, "object": "response", "deleted": True})

    async def input_items(request: Request, rid: str) -> Response:
        rec = await _record(rid)
        if rec is None:
            return await elsewhere(request, rid, "/input_items")
        q = request.query_params
        try:
            limit = int(q.get("limit", "20"))
        except ValueError:
            raise GatewayError("invalid_request", "limit: expected an integer", 400) from None
        assert keeper.responses is not None
        page = keeper.responses.input_items(rec, q.get("order", "desc"), q.get("after"), limit)
        return JSONResponse(page)

    routes = []
    for base in base_paths:
        one = base + "/{response_id}"
        routes += [
            Route(one, endpoint(get_response), methods=["GET"]),
            Route(one, endpoint(delete_response), methods=["DELETE"]),
            Route(one + "/input_items", endpoint(input_items), methods=["GET"]),
        ]
    return routes
