"""The upstream connections: aiohttp's client behind httpx's transport interface.

The gateway builds ``httpx.Request`` objects and reads ``httpx.Response`` objects (retries,
errors, streams and the tests' ``httpx.MockTransport`` all speak httpx); the bytes go over
aiohttp's connection pool, whose HTTP parser is compiled: on loopback an httpx client call costs
about 0.7-1 ms of CPU, this one about 0.2 ms (docs/performance.md, "Gateway overhead").

What httpx's client did and this keeps: keep-alive connections, no redirects followed, the
proxy environment variables (``HTTP_PROXY``, ``HTTPS_PROXY``, ``NO_PROXY``), one TLS context, the read timeout between bytes
and the connect timeout of each request (``request.extensions["timeout"]``), the body decoded
by httpx (``Content-Encoding``); aiohttp's failures raised as the httpx exceptions the gateway
already handles (ConnectError and ConnectTimeout before a request left, ReadTimeout,
RemoteProtocolError, ReadError). No cookie is kept between calls (callers share the gateway).
"""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import httpx
from aiohttp.helpers import BasicAuth, get_env_proxy_for_url
from multidict import CIMultiDict
from yarl import URL

__all__ = ["AiohttpTransport"]

# set by httpx from the body and the URL: aiohttp writes its own
_SKIP = frozenset({b"content-length", b"host", b"transfer-encoding"})


def _mapped(e: BaseException, request: httpx.Request, connecting: bool) -> httpx.HTTPError:
    """The httpx exception for an aiohttp failure (``connecting``: no response yet)."""
    msg = str(e) or type(e).__name__
    kind: type[httpx.TransportError]
    if isinstance(e, aiohttp.ConnectionTimeoutError):
        kind = httpx.ConnectTimeout
    elif isinstance(e, TimeoutError):  # aiohttp.SocketTimeoutError: no byte for `read` seconds
        kind = httpx.ReadTimeout
    elif isinstance(e, aiohttp.ClientConnectorError):  # refused, unknown host, TLS
        kind = httpx.ConnectError
    elif isinstance(  # closed early, a cut body, a malformed response
        e,
        aiohttp.ServerDisconnectedError | aiohttp.ClientPayloadError | aiohttp.ClientResponseError,
    ):
        kind = httpx.RemoteProtocolError
    elif isinstance(e, aiohttp.InvalidURL):
        kind = httpx.UnsupportedProtocol
    else:  # ClientOSError (reset) and the rest
        kind = httpx.ConnectError if connecting and isinstance(e, OSError) else httpx.ReadError
    return kind(msg, request=request)


class _Body(httpx.AsyncByteStream):
    """The response body as aiohttp receives it (each chunk as soon as it arrives)."""

    __slots__ = ("resp", "request")

    def __init__(self, resp: aiohttp.ClientResponse, request: httpx.Request) -> None:
        self.resp = resp
        self.request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        content = self.resp.content
        try:
            while True:
                chunk = await content.readany()
                if not chunk:
                    return
                yield chunk
        except (aiohttp.ClientError, TimeoutError) as e:
            raise _mapped(e, self.request, False) from e

    async def aclose(self) -> None:
        resp = self.resp
        if resp.content.at_eof():
            resp.release()  # the connection goes back to the pool
        else:
            resp.close()  # unread: the connection is closed (a cancelled stream ends upstream)


class AiohttpTransport(httpx.AsyncBaseTransport):
    """One aiohttp session (made in the running event loop on first use) for every upstream."""

    def __init__(self, tls: ssl.SSLContext, keepalive: int = 50) -> None:
        self.tls = tls
        self.keepalive = keepalive
        self.session: aiohttp.ClientSession | None = None
        self.proxies: dict[tuple[str, str], tuple[URL | None, BasicAuth | None]] = {}

    def proxy(self, url: URL) -> tuple[URL | None, BasicAuth | None]:
        """The proxy the environment names for the URL's scheme and host (HTTP(S)_PROXY,
        NO_PROXY), looked up once: aiohttp's ``trust_env`` looks it up in a thread on every
        request."""
        key = (url.scheme, url.host or "")
        found = self.proxies.get(key)
        if found is None:
            try:
                found = get_env_proxy_for_url(url)
            except LookupError:
                found = (None, None)
            self.proxies[key] = found
        return found

    def _session(self) -> aiohttp.ClientSession:
        s = self.session
        if s is None or s.closed:
            connector = aiohttp.TCPConnector(limit=0, ssl=self.tls, keepalive_timeout=15)
            s = self.session = aiohttp.ClientSession(
                connector=connector,
                trust_env=False,  # the proxy: self.proxy()
                auto_decompress=False,  # httpx decodes Content-Encoding
                cookie_jar=aiohttp.DummyCookieJar(),
                timeout=aiohttp.ClientTimeout(total=None),
                skip_auto_headers=("Accept-Encoding",),
            )
        return s

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        t: dict[str, Any] = request.extensions.get("timeout") or {}
        headers = CIMultiDict(
            (k.decode("latin-1"), v.decode("latin-1"))
            for k, v in request.headers.raw
            if k.lower() not in _SKIP
        )
        headers.setdefault("Accept-Encoding", "gzip, deflate")  # what httpx's client sent
        url = URL(str(request.url), encoded=True)
        proxy, proxy_auth = self.proxy(url)
        try:
            resp = await self._session()._request(
                request.method,
                url,
                proxy=proxy,
                proxy_auth=proxy_auth,
                headers=headers,
                data=request.content,
                allow_redirects=False,
                timeout=aiohttp.ClientTimeout(
                    total=None, sock_connect=t.get("connect"), sock_read=t.get("read")
                ),
            )
        except (aiohttp.ClientError, TimeoutError) as e:
            raise _mapped(e, request, True) from e
        return httpx.Response(
            resp.status,
            headers=resp.raw_headers,
            stream=_Body(resp, request),
            request=request,
            extensions={"http_version": b"HTTP/1.1", "reason_phrase": (resp.reason or "").encode()},
        )

    async def aclose(self) -> None:
        if self.session is not None:
            await self.session.close()
            self.session = None
