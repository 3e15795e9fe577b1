"""Calling an upstream: its URL, headers and auth per protocol, over one pooled httpx client.

``base_url`` is everything in front of the endpoint path, version included, as the OpenAI SDKs
take it: ``https://api.openai.com/v1``, ``https://api.anthropic.com/v1``,
``https://generativelanguage.googleapis.com/v1beta``, ``http://127.0.0.1:11434/v1``.
"""

from __future__ import annotations

import itertools
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
import orjson

from .config import Upstream

__all__ = ["WIRES", "Wire", "UpstreamPool"]


def _bearer(key: str) -> dict[str, str]:
    return {"authorization": f"Bearer {key}"}


def _x_api_key(key: str) -> dict[str, str]:
    return {"x-api-key": key}


def _goog(key: str) -> dict[str, str]:
    return {"x-goog-api-key": key}


@dataclass(frozen=True, slots=True)
class Wire:
    """How one protocol is called over HTTP."""

    path: str  # below base_url; ``{model}`` is replaced when the model lives in the URL
    auth: Callable[[str], dict[str, str]]
    headers: Mapping[str, str] = field(default_factory=dict)
    stream_path: str | None = None  # when streaming is chosen by the URL, not by the body
    model_in_path: bool = False  # the model is named in the URL, not in the body
    forward_headers: tuple[str, ...] = ()  # caller headers kept on a same-protocol pass-through
    count_tokens_path: str | None = None  # the upstream's own token count, when it has one


WIRES: dict[str, Wire] = {
    "anthropic_messages": Wire(
        path="/messages",
        auth=_x_api_key,
        headers={"anthropic-version": "2023-06-01"},
        forward_headers=("anthropic-beta",),
        count_tokens_path="/messages/count_tokens",
    ),
    "openai_chat": Wire(path="/chat/completions", auth=_bearer),
    "openai_responses": Wire(path="/responses", auth=_bearer),
    "gemini": Wire(
        path="/models/{model}:generateContent",
        stream_path="/models/{model}:streamGenerateContent?alt=sse",
        auth=_goog,
        model_in_path=True,
    ),
}


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
        wire = WIRES[up.protocol]
        h = {
            "content-type": "application/json",
            "accept": "text/event-stream" if stream else "application/json",
            "user-agent": "interlingua-gateway",
            **wire.headers,
        }
        if same:
            for name in wire.forward_headers:
                if name in caller:
                    h[name] = caller[name]
        key = up.api_key()
        if key:
            h.update(wire.auth(key))
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
        wire = WIRES[up.protocol]
        path = wire.stream_path if stream and wire.stream_path else wire.path
        if wire.model_in_path:
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
        wire = WIRES[up.protocol]
        if wire.count_tokens_path is None:
            return None
        return self.client.build_request(
            "POST",
            up.base_url + wire.count_tokens_path,
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
