"""Calling an upstream: its URL, headers and auth, over pooled keep-alive connections.

The wire facts (endpoint path, auth header, constant headers) are each protocol's ``http``
section of its spec, read from the generated codec (``codec.HTTP``).

``base_url`` is everything in front of the endpoint path, version included, as the OpenAI SDKs
take it: ``https://api.openai.com/v1``, ``https://api.anthropic.com/v1``,
``https://generativelanguage.googleapis.com/v1beta``, ``http://127.0.0.1:11434/v1``.
"""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator, Mapping
from typing import Any, Protocol

import anyio
import httpx
import orjson
from yarl import URL

from .._api import model_url
from .._protocols import protocol
from ..generated.spec_types import HttpSpec
from .config import Upstream
from .transport import ACCEPT_ENCODING, UpstreamRequest, UpstreamTransport

__all__ = [
    "TRACE_HEADERS", "UpstreamAnswer", "UpstreamPool", "UpstreamRequest", "close_answer", "http_spec",
    "model_url",
]  # fmt: skip

TRACE_HEADERS = ("traceparent", "tracestate")


def http_spec(pid: str) -> HttpSpec:
    """The protocol's HTTP facts (spec: http)."""
    http: HttpSpec = protocol(pid).HTTP
    return http


class UpstreamAnswer(Protocol):
    """What the gateway reads of an upstream's answer: an ``httpx.Response`` (from a transport
    given to ``create_app``), h1answer.py's ``H1Answer`` or transport.py's ``AiohttpAnswer``."""

    status_code: int

    @property
    def headers(self) -> Mapping[str, str]: ...

    async def aread(self) -> bytes: ...

    def aiter_bytes(self) -> AsyncIterator[bytes]: ...

    async def aclose(self) -> None: ...


async def close_answer(answer: UpstreamAnswer) -> None:
    """Close an answer even while its call is being cancelled. The pools' own answers close
    without waiting (``closes_at_once``: nothing can interrupt them); an httpx response (a test
    transport's) is closed in a shielded scope."""
    if getattr(answer, "closes_at_once", False):
        await answer.aclose()
        return
    with anyio.CancelScope(shield=True):
        await answer.aclose()


async def read_answer(answer: UpstreamAnswer) -> bytes:
    """The whole body of an answer, which is then closed (``close_answer``)."""
    try:
        return await answer.aread()
    finally:
        await close_answer(answer)


class UpstreamPool:
    """The connections to every upstream: transport.py's pools, or the httpx transport
    given (the tests' ``httpx.MockTransport``). The translated calls are built here as plain
    ``UpstreamRequest`` objects and sent with ``call`` (no httpx object per call: building an
    ``httpx.Request`` costs more than the HTTP exchange with a fast upstream); ``client`` is an
    httpx client over the same connections for the other callers."""

    def __init__(self, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.fast: UpstreamTransport | None = None
        if transport is None:
            # one TLS context (loading the CA store takes ~50 ms)
            transport = self.fast = UpstreamTransport(ssl.create_default_context())
        self.transport = transport
        self.client = httpx.AsyncClient(transport=transport, follow_redirects=False, timeout=None)
        self._urls: dict[tuple[str, str], URL] = {}

    def url(self, up: Upstream, path: str) -> URL:
        """The parsed URL (kept: parsing one costs more than the rest of building a request)."""
        key = (up.base_url, path)
        url = self._urls.get(key)
        if url is None:
            if len(self._urls) > 10_000:  # model names in paths: keep the cache bounded
                self._urls.clear()
            url = self._urls[key] = URL(up.base_url + path, encoded=True)
        return url

    def request(
        self, up: Upstream, path: str, content: bytes, headers: dict[str, str]
    ) -> httpx.Request:
        return self.client.build_request(
            "POST",
            up.base_url + path,
            content=content,
            headers=headers,
            timeout=httpx.Timeout(up.timeout, connect=up.connect_timeout),
        )

    def headers(
        self, up: Upstream, stream: bool, caller: Mapping[str, str], same: bool
    ) -> dict[str, str]:
        http = http_spec(up.protocol)
        h = {
            "content-type": "application/json",
            "accept": "text/event-stream" if stream else "application/json",
            "user-agent": "interlingua-gateway",
            "accept-encoding": ACCEPT_ENCODING,  # what is decoded
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
    ) -> UpstreamRequest:
        http = http_spec(up.protocol)
        path = http.upstream_path
        if stream and http.upstream_stream_path:
            path = http.upstream_stream_path
        if http.model_in_path:
            path = model_url(http, path, model)
            body.pop("model", None)
            body.pop("stream", None)
        return UpstreamRequest(
            self.url(up, path),
            self.headers(up, stream, caller, same),
            orjson.dumps(body),
            (up.connect_timeout, up.timeout),
        )

    async def call(self, request: UpstreamRequest) -> UpstreamAnswer:
        """Send a translated call and return once the headers are in; the body is read (or
        streamed) by the caller, who must close the answer."""
        if self.fast is not None:
            return await self.fast.send(request)
        return await self.client.send(request.to_httpx(), stream=True)

    async def send(self, request: httpx.Request) -> httpx.Response:
        """``call`` for a request built with ``client`` (or ``request``)."""
        return await self.client.send(request, stream=True)

    async def fetch(self, request: httpx.Request) -> tuple[httpx.Response, bytes]:
        """``send``, then the whole body (the answer closed)."""
        answer = await self.send(request)
        return answer, await read_answer(answer)

    async def aclose(self) -> None:
        await self.client.aclose()  # closes the transport
