"""The upstream connections: the lean HTTP/1.1 client (h1.py), aiohttp behind a proxy.

The translated calls go through ``UpstreamTransport.send``: a plain request in
(``UpstreamRequest``: URL, headers, body, timeouts), an answer out with the part of
``httpx.Response`` the gateway reads (``status_code``, ``headers``, ``aread``, ``aiter_bytes``,
``aclose``). Other callers (``UpstreamPool.client``) get the same connections behind httpx's
transport interface (``handle_async_request``).

Which client carries a call is decided by its URL: one the environment sends through a proxy
(``HTTP_PROXY``, ``HTTPS_PROXY``, ``NO_PROXY``, looked up once per scheme and host) goes over
aiohttp, which speaks to proxies; every other one over h1.py's keep-alive connections, which cost
about a sixth of aiohttp's client per call (docs/performance.md, "Gateway overhead").

What both keep of httpx's client: keep-alive connections, no redirects followed, one TLS context,
the read timeout between bytes and the connect timeout of each request, gzip and deflate bodies
decoded; failures raised as the httpx exceptions the gateway handles (ConnectError and
ConnectTimeout before a request left, ReadTimeout, RemoteProtocolError, ReadError). No cookie is
kept between calls (callers share the gateway).
"""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp
import httpx
from aiohttp.helpers import BasicAuth, get_env_proxy_for_url
from multidict import CIMultiDict
from yarl import URL

from .h1 import H1Pool, Target

__all__ = ["AiohttpAnswer", "AiohttpTransport", "UpstreamRequest", "UpstreamTransport"]

# what aiohttp decodes (auto_decompress): the Accept-Encoding every request is sent with
ACCEPT_ENCODING = "gzip, deflate"
# set by httpx from the body, the URL or the encoding: aiohttp writes its own
_SKIP = frozenset({"content-length", "host", "transfer-encoding", "accept-encoding"})


class UpstreamRequest:
    """A POST to an upstream: what ``AiohttpTransport.send`` needs, nothing parsed twice."""

    __slots__ = ("url", "headers", "content", "timeout")

    def __init__(
        self,
        url: URL,
        headers: dict[str, str],
        content: bytes,
        timeout: tuple[float | None, float | None],  # (connect, read between bytes)
    ) -> None:
        self.url, self.headers, self.content, self.timeout = url, headers, content, timeout

    def to_httpx(self) -> httpx.Request:
        """The same request for an httpx transport (the tests' ``httpx.MockTransport``)."""
        connect, read = self.timeout
        return httpx.Request(
            "POST",
            str(self.url),
            content=self.content,
            headers=self.headers,
            extensions={"timeout": {"connect": connect, "read": read, "write": read, "pool": read}},
        )


def _mapped(e: BaseException, connecting: bool) -> httpx.HTTPError:
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
    return kind(msg)


_FAILURES = (aiohttp.ClientError, TimeoutError)


async def _chunks(resp: aiohttp.ClientResponse) -> AsyncIterator[bytes]:
    """The body as it arrives (each chunk at once), failures as httpx exceptions."""
    content = resp.content
    try:
        while True:
            chunk = await content.readany()
            if not chunk:
                return
            yield chunk
    except _FAILURES as e:
        raise _mapped(e, False) from e


def _release(resp: aiohttp.ClientResponse) -> None:
    if resp.content.at_eof():
        resp.release()  # read to its end: the connection goes back to the pool
    else:
        resp.close()  # unread: the connection is closed (a cancelled stream ends upstream)


class AiohttpAnswer:
    """An upstream's answer, open: its status and headers are in, its body is read (``aread``)
    or relayed (``aiter_bytes``) by the caller, who closes it (``aclose``)."""

    __slots__ = ("status_code", "headers", "_resp", "_body")
    closes_at_once = True  # aclose never waits (upstream.close_answer)

    def __init__(self, resp: aiohttp.ClientResponse) -> None:
        self.status_code = resp.status
        self.headers: Mapping[str, str] = resp.headers
        self._resp = resp
        self._body: bytes | None = None

    async def aread(self) -> bytes:
        """The whole body (kept: read again after ``aclose``, as httpx's is)."""
        if self._body is None:
            try:
                self._body = await self._resp.read()
            except _FAILURES as e:
                raise _mapped(e, False) from e
        return self._body

    def aiter_bytes(self) -> AsyncIterator[bytes]:
        return _chunks(self._resp)

    async def aclose(self) -> None:
        _release(self._resp)


class _Body(httpx.AsyncByteStream):
    """An aiohttp body behind httpx's stream interface (``handle_async_request``)."""

    __slots__ = ("resp",)

    def __init__(self, resp: aiohttp.ClientResponse) -> None:
        self.resp = resp

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in _chunks(self.resp):
            yield chunk

    async def aclose(self) -> None:
        _release(self.resp)


class AiohttpTransport(httpx.AsyncBaseTransport):
    """One aiohttp session (made in the running event loop on first use) for every upstream."""

    def __init__(self, tls: ssl.SSLContext) -> None:
        self.tls = tls
        self.session: aiohttp.ClientSession | None = None
        self.proxies: dict[tuple[str, str], tuple[URL | None, BasicAuth | None]] = {}
        self.timeouts: dict[tuple[float | None, float | None], aiohttp.ClientTimeout] = {}

    def _session(self) -> aiohttp.ClientSession:
        s = self.session
        if s is None or s.closed:
            connector = aiohttp.TCPConnector(
                limit=0,
                ssl=self.tls,
                keepalive_timeout=5,  # idle connections: 5 s, as httpx
            )
            s = self.session = aiohttp.ClientSession(
                connector=connector,
                trust_env=False,  # the proxy: self.proxy()
                cookie_jar=aiohttp.DummyCookieJar(),
                timeout=aiohttp.ClientTimeout(total=None),
            )
        return s

    def proxy(self, url: URL) -> tuple[URL | None, BasicAuth | None]:
        """The proxy the environment names for the URL's scheme and host, looked up once
        (aiohttp's ``trust_env`` looks it up in a thread on every request)."""
        key = (url.scheme, url.host or "")
        found = self.proxies.get(key)
        if found is None:
            try:
                found = get_env_proxy_for_url(url)
            except LookupError:
                found = (None, None)
            self.proxies[key] = found
        return found

    def timeout(self, connect: float | None, read: float | None) -> aiohttp.ClientTimeout:
        t = self.timeouts.get((connect, read))
        if t is None:
            t = self.timeouts[(connect, read)] = aiohttp.ClientTimeout(
                total=None, sock_connect=connect, sock_read=read
            )
        return t

    async def _open(
        self,
        method: str,
        url: URL,
        headers: Mapping[str, str],
        content: bytes | None,
        timeout: aiohttp.ClientTimeout,
    ) -> aiohttp.ClientResponse:
        proxy, proxy_auth = self.proxy(url)
        try:
            return await self._session()._request(
                method,
                url,
                headers=headers,
                data=content,
                allow_redirects=False,
                proxy=proxy,
                proxy_auth=proxy_auth,
                timeout=timeout,
            )
        except _FAILURES as e:
            raise _mapped(e, True) from e

    async def send(self, request: UpstreamRequest) -> AiohttpAnswer:
        """Send and return once the headers are in (the body is the caller's to read)."""
        timeout = self.timeout(*request.timeout)
        resp = await self._open("POST", request.url, request.headers, request.content, timeout)
        return AiohttpAnswer(resp)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        t: dict[str, Any] = request.extensions.get("timeout") or {}
        headers = CIMultiDict((k, v) for k, v in request.headers.items() if k.lower() not in _SKIP)
        headers["Accept-Encoding"] = ACCEPT_ENCODING
        resp = await self._open(
            request.method,
            URL(str(request.url), encoded=True),
            headers,
            request.content or None,  # a GET has no body (and no Content-Length: 0)
            self.timeout(t.get("connect"), t.get("read")),
        )
        # the body comes decoded: its encoding and length are not passed on to httpx
        return httpx.Response(
            resp.status,
            headers=[
                (k, v)
                for k, v in resp.raw_headers
                if k.lower() not in (b"content-encoding", b"content-length")
            ],
            stream=_Body(resp),
            request=request,
            extensions={"http_version": b"HTTP/1.1", "reason_phrase": (resp.reason or "").encode()},
        )

    async def aclose(self) -> None:
        if self.session is not None:
            await self.session.close()
            self.session = None


def _response(request: httpx.Request, answer: Any, headers: Any) -> httpx.Response:
    """An httpx response over an open answer (its body comes decoded: its encoding and length
    are not passed on)."""
    return httpx.Response(
        answer.status_code,
        headers=[
            (k, v) for k, v in headers if k.lower() not in ("content-encoding", "content-length")
        ],
        stream=_Stream(answer),
        request=request,
        extensions={"http_version": b"HTTP/1.1"},
    )


class _Stream(httpx.AsyncByteStream):
    __slots__ = ("answer",)

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.answer.aiter_bytes():
            yield chunk

    async def aclose(self) -> None:
        await self.answer.aclose()


class UpstreamTransport(httpx.AsyncBaseTransport):
    """h1.py's connections for every upstream URL that no proxy is named for, aiohttp's for the
    others."""

    def __init__(self, tls: ssl.SSLContext) -> None:
        self.h1 = H1Pool(tls)
        self.aio = AiohttpTransport(tls)
        self.targets: dict[URL, Target | None] = {}

    def target(self, url: URL) -> Target | None:
        """Where a direct connection goes, or None when the URL goes through a proxy."""
        t = self.targets.get(url, False)
        if t is False:
            if len(self.targets) > 10_000:  # model names in paths: keep the cache bounded
                self.targets.clear()
            t = None
            if self.aio.proxy(url)[0] is None and url.scheme in ("http", "https") and url.host:
                t = Target(url.scheme, url.raw_host or "", url.explicit_port, url.raw_path_qs)
            self.targets[url] = t
        return t  # type: ignore[return-value]

    async def send(self, request: UpstreamRequest) -> Any:
        t = self.target(request.url)
        if t is None:
            return await self.aio.send(request)
        return await self.h1.send("POST", t, request.headers, request.content, request.timeout)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = URL(str(request.url), encoded=True)
        t = self.target(url)
        if t is None:
            return await self.aio.handle_async_request(request)
        timeouts: dict[str, Any] = request.extensions.get("timeout") or {}
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _SKIP}
        headers["accept-encoding"] = ACCEPT_ENCODING
        answer = await self.h1.send(
            request.method,
            t,
            headers,
            request.content or None,  # a GET has no body (and no Content-Length: 0)
            (timeouts.get("connect"), timeouts.get("read")),
        )
        return _response(request, answer, answer.headers.items())

    async def aclose(self) -> None:
        await self.h1.aclose()
        await self.aio.aclose()
