"""Calling an upstream: its URL, headers and auth, over one pooled httpx client.

The wire facts (endpoint path, auth header, constant headers) are each protocol's ``http``
section of its spec, read from the generated codec (``codec.HTTP``).

``base_url`` is everything in front of the endpoint path, version included, as the OpenAI SDKs
take it: ``https://api.openai.com/v1``, ``https://api.anthropic.com/v1``,
``https://generativelanguage.googleapis.com/v1beta``, ``http://127.0.0.1:11434/v1``.
"""

from __future__ import annotations

import itertools
import ssl
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import httpx
import orjson

from .._codec_support import HttpSpec
from .._protocols import protocol
from .config import Upstream

__all__ = ["TRACE_HEADERS", "UpstreamPool", "http_spec"]

TRACE_HEADERS = ("traceparent", "tracestate")


def http_spec(pid: str) -> HttpSpec:
    """The protocol's HTTP facts (spec: http)."""
    http: HttpSpec = protocol(pid).codec.HTTP
    return http


class UpstreamPool:
    """Pooled ``httpx.AsyncClient`` connections shared by every upstream.

    The requests are spread over ``shards`` clients: httpcore's pool scans all of its
    connections for every request it places (quadratic in the number of open streams), which
    at a few hundred concurrent streams costs more than the translation itself. Each shard keeps
    its own keep-alive connections."""

    def __init__(self, transport: httpx.AsyncBaseTransport | None = None, shards: int = 8) -> None:
        tls = ssl.create_default_context()  # one context (loading the CA store takes ~50 ms)
        self.clients = [
            httpx.AsyncClient(
                transport=transport,
                verify=tls,
                limits=httpx.Limits(max_connections=None, max_keepalive_connections=50),
                follow_redirects=False,
                timeout=None,
            )
            for _ in range(1 if transport is not None else shards)
        ]
        self.client = self.clients[0]  # builds requests
        self._next = itertools.cycle(self.clients)

    def headers(
        self, up: Upstream, stream: bool, caller: Mapping[str, str], same: bool
    ) -> dict[str, str]:
        http = http_spec(up.protocol)
        h = {
            "content-type": "application/json",
            "accept": "text/event-stream" if stream else "application/json",
            "user-agent": "interlingua-gateway",
            **http.extra_headers,
        }
        if same:
            for name in http.forward_headers:
                if name in caller:
                    h[name] = caller[name]
        for name in TRACE_HEADERS:  # W3C trace context, whatever the protocols
            if name in caller:
                h[name] = caller[name]
        key = up.api_key()
        if key:
            h[http.auth.header] = http.auth.value(key)
        h.update(up.headers)
        return h

    def build(
        self,
        up: Upstream,
        body: dict[str, Any],
        model: str,
        stream: bool,
        caller: Mapping[str, str],
        same: bool,
    ) -> httpx.Request:
        http = http_spec(up.protocol)
        path = http.upstream_path
        if stream and http.upstream_stream_path:
            path = http.upstream_stream_path
        if http.model_in_path:
            path = path.replace("{model}", quote(model.removeprefix("models/"), safe=""))
            body.pop("model", None)
            body.pop("stream", None)
        return self.client.build_request(
            "POST",
            up.base_url + path,
            content=orjson.dumps(body),
            headers=self.headers(up, stream, caller, same),
            timeout=httpx.Timeout(up.timeout, connect=up.connect_timeout),
        )

    def build_count_tokens(
        self, up: Upstream, body: bytes, caller: Mapping[str, str]
    ) -> httpx.Request | None:
        count = http_spec(up.protocol).count_tokens
        if count is None or count.upstream_path is None:
            return None
        return self.client.build_request(
            "POST",
            up.base_url + count.upstream_path,
            content=body,
            headers=self.headers(up, False, caller, True),
            timeout=httpx.Timeout(up.timeout, connect=up.connect_timeout),
        )

    async def send(self, request: httpx.Request) -> httpx.Response:
        """Send and return once the headers are in; the body is read (or streamed) by the caller,
        who must close the response."""
        return await next(self._next).send(request, stream=True)

    async def aclose(self) -> None:
        for c in self.clients:
            await c.aclose()
