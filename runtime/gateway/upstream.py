"""Calling an upstream: its URL, headers and auth, over one pooled httpx client.

The wire facts (endpoint path, auth header, constant headers) are each protocol's ``http``
section of its spec, read from the generated codec (``codec.HTTP``).

``base_url`` is everything in front of the endpoint path, version included, as the OpenAI SDKs
take it: ``https://api.openai.com/v1``, ``https://api.anthropic.com/v1``,
``https://generativelanguage.googleapis.com/v1beta``, ``http://127.0.0.1:11434/v1``.
"""

from __future__ import annotations

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
    """The connections to every upstream: one transport (transport.py: aiohttp's pool behind
    httpx's interface, or the one given, e.g. the tests' ``httpx.MockTransport``) that the
    requests built here go to directly: no httpx client in between (its per-call work, cookies
    and redirects, costs more than the HTTP exchange on a fast upstream)."""

    def __init__(self, transport: httpx.AsyncBaseTransport | None = None) -> None:
        if transport is None:
            from .transport import AiohttpTransport

            # one context (loading the CA store takes ~50 ms)
            transport = AiohttpTransport(ssl.create_default_context())
        self.transport = transport
        # for other callers (model lists): a client over the same connections
        self.client = httpx.AsyncClient(transport=transport, follow_redirects=False, timeout=None)
        self._urls: dict[tuple[str, str], httpx.URL] = {}
        self._timeouts: dict[tuple[float | None, float | None], dict[str, float | None]] = {}

    def url(self, up: Upstream, path: str) -> httpx.URL:
        """The parsed URL (kept: parsing one costs more than the rest of building a request)."""
        key = (up.base_url, path)
        url = self._urls.get(key)
        if url is None:
            if len(self._urls) > 10_000:  # model names in paths: keep the cache bounded
                self._urls.clear()
            url = self._urls[key] = httpx.URL(up.base_url + path)
        return url

    def timeout(self, up: Upstream) -> dict[str, float | None]:
        """httpx's per-request timeout extension: ``timeout`` between bytes, ``connect``."""
        key = (up.timeout, up.connect_timeout)
        t = self._timeouts.get(key)
        if t is None:
            t = self._timeouts[key] = httpx.Timeout(
                up.timeout, connect=up.connect_timeout
            ).as_dict()
        return t

    def request(
        self, up: Upstream, path: str, content: bytes, headers: dict[str, str]
    ) -> httpx.Request:
        return httpx.Request(
            "POST",
            self.url(up, path),
            content=content,
            headers=headers,
            extensions={"timeout": self.timeout(up)},
        )

    def headers(
        self, up: Upstream, stream: bool, caller: Mapping[str, str], same: bool
    ) -> dict[str, str]:
        http = http_spec(up.protocol)
        h = {
            "content-type": "application/json",
            "accept": "text/event-stream" if stream else "application/json",
            "user-agent": "interlingua-gateway",
            "accept-encoding": "gzip, deflate",  # what httpx decodes without extra packages
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
        return self.request(up, path, orjson.dumps(body), self.headers(up, stream, caller, same))

    def build_count_tokens(
        self, up: Upstream, body: bytes, caller: Mapping[str, str]
    ) -> httpx.Request | None:
        count = http_spec(up.protocol).count_tokens
        if count is None or count.upstream_path is None:
            return None
        return self.request(up, count.upstream_path, body, self.headers(up, False, caller, True))

    async def send(self, request: httpx.Request) -> httpx.Response:
        """Send and return once the headers are in; the body is read (or streamed) by the caller,
        who must close the response."""
        response = await self.transport.handle_async_request(request)
        response.request = request
        return response

    async def aclose(self) -> None:
        await self.client.aclose()  # closes the transport
