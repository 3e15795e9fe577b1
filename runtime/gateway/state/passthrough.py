"""Stored responses that a Responses upstream keeps itself.

When the upstream speaks Responses and keeps its own state (``responses_state = "auto"``), the
ids a client holds are the upstream's: ``GET`` / ``DELETE /v1/responses/{id}`` and ``GET
.../input_items`` of an id the gateway does not hold go to the configured Responses upstreams in
order (one call per distinct URL and key), with the upstream's key and the caller's query. The
first answer that is not a 404 (or 405/501: no stored responses there) is the answer, relayed as the upstream sent it (its body is in the
Responses shape already); when every upstream says 404, or none is configured, the gateway's own
404 stands. With ``responses_state = "gateway"`` the gateway holds every id it gave out, and
nothing is forwarded.
"""

from __future__ import annotations

import logging

import httpx
from starlette.requests import Request
from starlette.responses import Response

from ..config import Config, Upstream
from ..errors import GatewayError, info_from_exception
from ..upstream import UpstreamPool, http_spec

__all__ = ["ResponsesUpstreams"]

_log = logging.getLogger("interlingua.gateway")

# an upstream's answers that say it does not hold the id (405, 501: it keeps no state at all)
_NOT_THERE = (404, 405, 501)
# the upstream's headers kept on a relayed answer
_KEEP = ("content-type", "x-request-id", "openai-processing-ms")


class ResponsesUpstreams:
    """The Responses upstreams that keep their own state, to forward stored-response calls to."""

    def __init__(self, cfg: Config, pool: UpstreamPool, protocol: str) -> None:
        self.pool = pool
        self.protocol = protocol
        seen: set[tuple[str, str | None]] = set()
        self.upstreams: list[Upstream] = []
        if cfg.responses_state == "gateway":
            return
        for up in cfg.upstreams:
            if up.protocol == protocol and (up.base_url, up.api_key_env) not in seen:
                seen.add((up.base_url, up.api_key_env))
                self.upstreams.append(up)

    async def forward(self, request: Request, suffix: str) -> Response | None:
        """The first non-404 answer of an upstream to ``request`` (``suffix``: the path after
        the protocol's endpoint, ``/{id}`` or ``/{id}/input_items``); None when every upstream
        said 404 or none is configured. Upstreams that cannot be reached are skipped; when no
        upstream answered at all, the failure is the caller's (502/504)."""
        failure: BaseException | None = None
        answered = False
        for up in self.upstreams:
            url = up.base_url + http_spec(self.protocol).upstream_path + suffix
            headers = self.pool.headers(up, False, request.headers, True)
            if request.method != "POST":
                headers.pop("content-type", None)
            req = self.pool.client.build_request(
                request.method,
                url,
                params=request.url.query,
                headers=headers,
                timeout=httpx.Timeout(up.timeout, connect=up.connect_timeout),
            )
            try:
                resp, body = await self.pool.fetch(req)
            except httpx.HTTPError as e:
                _log.warning("responses upstream %s: %s", up.name, type(e).__name__)
                failure = e
                continue
            answered = True
            if resp.status_code in _NOT_THERE:
                continue
            keep = {h: resp.headers[h] for h in _KEEP if h in resp.headers}
            keep["x-interlingua-upstream"] = up.name
            return Response(body, status_code=resp.status_code, headers=keep)
        if failure is not None and not answered:
            info = info_from_exception(failure)
            raise GatewayError(info.type, info.message, info.status or 502)
        return None
