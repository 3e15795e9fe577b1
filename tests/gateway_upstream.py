"""A test upstream for the gateway: an ASGI app that speaks every available protocol.

The scenario is named by the model the upstream receives (``<anything>--<scenario>``; a model
without ``--`` plays the tool loop):

- tool loop: a request without a tool result gets a tool call (the first turn), one with a tool
  result gets a text answer that quotes the result (the second turn). The first turn replays a
  recorded real response from ../shared/fixtures/recorded where one fits (``RECORDED``), and a
  scripted one otherwise. The second turn checks that the result answers a call this upstream
  made (by id, or by name for protocols without call ids).
- ``err-NNN``: an HTTP error NNN in the protocol's own shape (429 with ``Retry-After: 7``);
- ``slow``: answers after ``SLOW_SECONDS`` (longer than the gateway's timeout for it);
- ``cut``: a stream that stops in the middle (no terminal event, the connection ends cleanly);
- ``drop``: a stream whose connection breaks in the middle (no end of the chunked body);
- ``midstream-error``: a stream with the protocol's in-band error event in the middle;
- ``endless``: text deltas every 50 ms for 10 s; a cut-off is noted in ``state.cancelled``.

Scripted answers are canonical events and responses encoded with interlingua's own encoders, so
every protocol the library lists as available is served without a line here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import socket
import threading
import time
import traceback
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from interlingua import (
    decode_request,
    decode_response,
    encode_error,
    encode_response,
)
from interlingua._losses import Ctx
from interlingua.gateway.app import servable as available
from interlingua.generated.canonical import (
    ErrorEvent,
    ErrorInfo,
    Finish,
    FinishEvent,
    Response,
    StreamEnd,
    StreamStart,
    TextDelta,
    TextEnd,
    TextPart,
    TextStart,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallPart,
    ToolCallStart,
    ToolResultPart,
    Usage,
    UsageEvent,
)
from interlingua.streams import stream_encoder
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.responses import Response as HTTPResponse
from starlette.routing import Route

from tests.conftest import FIXTURES
from tests.stream_util import accumulate_stream, load_stream

SLOW_SECONDS = 0.3
RECORDED = FIXTURES / "recorded"
# protocol -> (recorded non-streamed tool-call response, recorded tool-call stream)
RECORDED_FIRST_TURN: dict[str, tuple[str, str]] = {
    "anthropic_messages": (
        "anthropic/vercel-ai/anthropic-tool-no-args.json",
        "anthropic/anthropic-sdk-python/streaming-fixtures/tool_use_response.txt",
    ),
    "openai_chat": (
        "openai-chat/openai-python/inline-snapshots/test_completions/"
        "test_pydantic_tool_model_all_types.response.json",
        "openai-chat/openai-python/inline-snapshot-external/"
        "2018feb66ae13fcf5333d61b95849decc68d3f63bd38172889367e1afb1e04f7.bin",
    ),
}
# protocol -> the path prefix its base_url ends with, and its endpoint paths
PATHS: dict[str, tuple[str, ...]] = {
    "anthropic_messages": ("/v1/messages",),
    "openai_chat": ("/v1/chat/completions",),
    "openai_responses": ("/v1/responses",),
    "gemini": ("/v1beta/models/{target}",),
    "cohere_v2": ("/v2/chat",),
}
BASE_SUFFIX = {"gemini": "/v1beta", "cohere_v2": "/v2"}

SCRIPTED_CALL = ToolCallPart(id="call_scripted_1", name="get_weather", arguments='{"city":"Paris"}')


def answer_text(result: str) -> str:
    return f"The tool said: {result}"


@dataclass
class Seen:
    """One request the upstream received."""

    protocol: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class UpstreamState:
    requests: list[Seen] = field(default_factory=list)
    issued_ids: set[str] = field(default_factory=lambda: {SCRIPTED_CALL.id})
    issued_names: set[str] = field(default_factory=lambda: {SCRIPTED_CALL.name})
    use_recorded: bool = True
    cancelled: list[str] = field(default_factory=list)  # models whose endless stream was cut


def _recorded(pid: str, stream: bool) -> Path | None:
    rel = RECORDED_FIRST_TURN.get(pid)
    if rel is None:
        return None
    path = RECORDED / rel[1 if stream else 0]
    return path if path.is_file() else None


def _events(parts: list[Any], finish: str, model: str) -> list[Any]:
    evs: list[Any] = [StreamStart(id="msg_scripted", model=model)]
    for i, p in enumerate(parts):
        key = f"p{i}"
        if type(p) is TextPart:
            half = len(p.text) // 2
            evs += [TextStart(key=key), TextDelta(key=key, text=p.text[:half])]
            evs += [TextDelta(key=key, text=p.text[half:]), TextEnd(key=key)]
        else:
            half = len(p.arguments) // 2
            evs += [ToolCallStart(key=key, id=p.id, name=p.name)]
            evs += [ToolCallDelta(key=key, arguments=p.arguments[:half])]
            evs += [ToolCallDelta(key=key, arguments=p.arguments[half:]), ToolCallEnd(key=key)]
    evs += [
        UsageEvent(usage=Usage(input_total=11, output_total=7)),
        FinishEvent(finish=Finish(unified=finish)),
        StreamEnd(ending="completed"),
    ]
    return evs


def _encode_stream(pid: str, events: list[Any], close: bool = True) -> list[bytes]:
    enc = stream_encoder(pid)
    out: list[bytes] = []
    for ev in events:
        out += enc.feed(ev)
    if close:
        out += enc.close()
    return [b for b in out if b]


def _status_type(status: int) -> str:
    return {
        400: "invalid_request",
        401: "authentication",
        403: "permission",
        404: "not_found",
        429: "rate_limit",
        529: "overloaded",
    }.get(status, "api_error")


def create_upstream_app(state: UpstreamState) -> Starlette:
    def json(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> HTTPResponse:
        return HTTPResponse(orjson.dumps(body), status, headers, media_type="application/json")

    def sse(chunks: list[bytes], *, fail: bool = False, delay: float = 0.0) -> StreamingResponse:
        async def gen() -> AsyncIterator[bytes]:
            for c in chunks:
                yield c
                await asyncio.sleep(delay)
            if fail:
                raise RuntimeError("scripted connection drop")

        return StreamingResponse(gen(), media_type="text/event-stream")

    async def handle(request: Request, pid: str) -> HTTPResponse:
        body = orjson.loads(await request.body())
        state.requests.append(Seen(pid, request.url.path, dict(request.headers), body))
        req = decode_request(body, pid)
        target = request.path_params.get("target")
        if target:  # the model and the streaming mode are in the URL
            model, _, action = target.rpartition(":")
            stream = action == "streamGenerateContent"
        else:
            model, stream = req.model or "", bool(req.stream)
        scenario = model.split("--", 1)[1] if "--" in model else "tool-loop"
        if scenario.startswith("err-"):
            status = int(scenario[4:])
            info = ErrorInfo(type=_status_type(status), message=f"scripted {status}", status=status)
            st, err = encode_error(info, pid)
            return json(err, st, {"retry-after": "7"} if status == 429 else None)
        if scenario == "slow":
            await asyncio.sleep(SLOW_SECONDS)
        results = [
            p for m in req.messages for p in m.parts if type(p) is ToolResultPart
        ]  # the second turn carries the tool result
        if scenario == "endless":
            return StreamingResponse(_endless(state, pid, model), media_type="text/event-stream")
        if scenario in ("cut", "drop", "midstream-error"):
            # some text, then a tool call whose arguments stop half way
            evs = _events([TextPart(text="Let me check."), SCRIPTED_CALL], "tool_calls", model)
            head = evs[:8]
            if scenario == "midstream-error":
                err = ErrorInfo(type="overloaded", message="scripted overload", status=529)
                head += [ErrorEvent(error=err), StreamEnd(ending="failed")]
                return sse(_encode_stream(pid, head))
            return sse(_encode_stream(pid, head, close=False), fail=scenario == "drop")
        if results:
            r = results[-1]
            if r.call_id not in state.issued_ids and r.name not in state.issued_names:
                st, err = encode_error(
                    ErrorInfo(
                        type="invalid_request", message=f"unknown call {r.call_id}", status=400
                    ),
                    pid,
                )
                return json(err, st)
            text = "".join(p.text for p in r.content if type(p) is TextPart)
            parts: list[Any] = [TextPart(text=answer_text(text))]
            finish = "stop"
        else:
            recorded = _recorded(pid, stream) if state.use_recorded else None
            if recorded is not None:
                if stream:
                    data = load_stream(recorded, pid)
                    acc = accumulate_stream(data, pid)
                    _issue(state, acc.parts)
                    return sse([data[i : i + 512] for i in range(0, len(data), 512)])
                data = recorded.read_bytes()
                _issue(state, decode_response(orjson.loads(data), pid).parts)
                return HTTPResponse(data, media_type="application/json")
            parts = [SCRIPTED_CALL]
            finish = "tool_calls"
        if stream:
            return sse(_encode_stream(pid, _events(parts, finish, model)))
        resp = Response(
            id="msg_scripted",
            model=model,
            parts=parts,
            finish=Finish(unified=finish),
            usage=Usage(input_total=11, output_total=7),
        )
        # encoded as if translated (not same-protocol), so text is a plain string as APIs send it
        return json(encode_response(resp, pid, Ctx("scripted", pid)))

    async def count_tokens(request: Request) -> HTTPResponse:
        body = orjson.loads(await request.body())
        state.requests.append(Seen("count_tokens", request.url.path, dict(request.headers), body))
        return JSONResponse({"input_tokens": 42})

    def endpoint(pid: str) -> Any:
        async def ep(request: Request) -> HTTPResponse:
            try:
                return await handle(request, pid)
            except Exception:  # a bug here shows in the test's failure, not as a bare 500
                detail = traceback.format_exc()
                return HTTPResponse(detail, 500, media_type="text/plain")

        return ep

    routes = [Route("/v1/messages/count_tokens", count_tokens, methods=["POST"])]
    for pid in available():
        routes += [Route(p, endpoint(pid), methods=["POST"]) for p in PATHS.get(pid, ())]
    return Starlette(routes=routes)


async def _endless(state: UpstreamState, pid: str, model: str) -> AsyncIterator[bytes]:
    """A stream that keeps going for 10 s; notes in ``state.cancelled`` when it is cut off."""
    enc = stream_encoder(pid)
    try:
        for b in enc.feed(StreamStart(id="msg_endless", model=model)) + enc.feed(
            TextStart(key="t")
        ):
            yield b
        for i in range(200):
            for b in enc.feed(TextDelta(key="t", text=f"{i} ")):
                yield b
            await asyncio.sleep(0.05)
    except BaseException:
        state.cancelled.append(model)
        raise


def _issue(state: UpstreamState, parts: list[Any]) -> None:
    for p in parts:
        if type(p) is ToolCallPart:
            state.issued_ids.add(p.id)
            state.issued_names.add(p.name)


# ---------------------------------------------------------------- servers for the tests


class ServerThread:
    """uvicorn serving ``app`` on a free port of 127.0.0.1, in a background thread (``http``:
    the protocol class, e.g. the one ``interlingua serve`` runs; uvicorn's own by default)."""

    def __init__(self, app: Any, http: Any = "auto") -> None:
        import uvicorn

        # proto=IPPROTO_TCP: asyncio sets TCP_NODELAY only on sockets that say they are TCP;
        # without it every response waits ~40 ms for a delayed ACK (Nagle)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port: int = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        cfg = uvicorn.Config(app, log_level="critical", timeout_graceful_shutdown=1, http=http)
        self.server = uvicorn.Server(cfg)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("test server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def free_closed_port() -> int:
    """A port nothing listens on (connection refused)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port: int = s.getsockname()[1]
    s.close()
    return port


UPSTREAM_KEY_ENV = "IL_TEST_UPSTREAM_KEY"
UPSTREAM_KEY = "sk-upstream-secret-0123"
INBOUND_KEYS_ENV = "IL_TEST_INBOUND_KEYS"
INBOUND_KEY = "client-key-4567"
MAPPED_MODEL = "upstream-model"


def gateway_config_data(upstream_url: str, refused_port: int) -> dict[str, Any]:
    """Per upstream protocol P: models ``P--...`` route to the test upstream speaking P
    (``P--slow`` through a 0.05 s timeout, ``P--refused`` to a closed port); ``*--tool-loop``
    maps to ``upstream-model``."""
    ups: list[dict[str, Any]] = []
    for pid in available():
        base = upstream_url + BASE_SUFFIX.get(pid, "/v1")
        ups += [
            {
                "name": f"slow-{pid}",
                "protocol": pid,
                "base_url": base,
                "models": [f"{pid}--slow"],
                "timeout": 0.05,
            },
            {
                "name": f"refused-{pid}",
                "protocol": pid,
                "base_url": f"http://127.0.0.1:{refused_port}/v1",
                "models": [f"{pid}--refused"],
            },
            {
                "name": f"to-{pid}",
                "protocol": pid,
                "base_url": base,
                "models": [f"{pid}--*"],
                "api_key_env": UPSTREAM_KEY_ENV,
                "headers": {"x-extra": "yes"},
                "timeout": 10,
            },
        ]
    for up in ups:  # one attempt: these tests see each failure as it is (test_gateway_retry)
        up.update(retries=0, fallback=[])
    return {
        "model_map": {"*--tool-loop": MAPPED_MODEL},
        "upstreams": ups,
        "inbound_keys_env": INBOUND_KEYS_ENV,
        "max_body_bytes": 200_000,
    }


@dataclass
class Stack:
    gateway: ServerThread
    upstream: ServerThread
    state: UpstreamState
    protocols: list[str]  # the protocols served when the stack started

    def need(self, *pids: str) -> None:
        """Skip when a protocol was not servable when the stack started (it is being added)."""
        missing = [p for p in pids if p not in self.protocols]
        if missing:
            import pytest

            pytest.skip(f"not servable: {', '.join(missing)}")

    @property
    def url(self) -> str:
        return self.gateway.url


@contextlib.contextmanager
def running_stack() -> Iterator[Stack]:
    """The test upstream and a gateway in front of it, both on free ports; stopped after. The
    gateway runs on the HTTP protocol ``interlingua serve`` runs (gateway/server.py)."""
    from interlingua.gateway.app import create_app
    from interlingua.gateway.config import load_config
    from interlingua.gateway.server import GatewayHttpProtocol

    saved = {k: os.environ.get(k) for k in (UPSTREAM_KEY_ENV, INBOUND_KEYS_ENV)}
    os.environ[UPSTREAM_KEY_ENV] = UPSTREAM_KEY
    os.environ[INBOUND_KEYS_ENV] = INBOUND_KEY
    state = UpstreamState()
    upstream = ServerThread(create_upstream_app(state))
    upstream.start()
    gateway = None
    try:
        cfg = load_config(data=gateway_config_data(upstream.url, free_closed_port()))
        gateway = ServerThread(create_app(cfg), http=GatewayHttpProtocol)
        gateway.start()
        yield Stack(gateway, upstream, state, [u.protocol for u in cfg.upstreams][::3])
    finally:
        if gateway is not None:
            gateway.stop()
        upstream.stop()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# ---------------------------------------------------------------- the official SDK clients


@functools.cache  # building an SDK client takes ~50 ms: one per (gateway, key)
def anthropic_client(url: str, key: str = INBOUND_KEY) -> Any:
    import anthropic

    return anthropic.Anthropic(base_url=url, api_key=key, max_retries=0, timeout=10)


@functools.cache
def openai_client(url: str, key: str = INBOUND_KEY) -> Any:
    import openai

    return openai.OpenAI(base_url=url + "/v1", api_key=key, max_retries=0, timeout=10)
