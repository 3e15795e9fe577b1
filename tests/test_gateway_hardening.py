"""Regression tests of issue 11 (gateway side): bad input is never a 500, every refusal comes
in the caller's error shape (status, body, the offending path), nothing raw from an upstream
reaches the caller, no key reaches a log line."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pytest

pytest.importorskip("starlette")

from interlingua import encode_response  # noqa: E402
from interlingua._errors import UnsupportedFeature  # noqa: E402
from interlingua._losses import Ctx  # noqa: E402
from interlingua._protocols import protocol  # noqa: E402
from interlingua.gateway.app import create_app, servable  # noqa: E402
from interlingua.gateway.config import load_config  # noqa: E402
from interlingua.gateway.upstream import http_spec  # noqa: E402
from interlingua.generated.canonical import (  # noqa: E402
    ErrorInfo,
    Finish,
    Response,
    TextPart,
    Usage,
)

SERVED = servable()
MODEL = "m1"
A, C, R, G = "anthropic_messages", "openai_chat", "openai_responses", "gemini"
Answer = Callable[[httpx.Request], httpx.Response]


def answer_body(pid: str) -> bytes:
    resp = Response(
        id="r1",
        model=MODEL,
        parts=[TextPart(text="ok")],
        finish=Finish(unified="stop"),
        usage=Usage(input_total=3, output_total=1),
    )
    return orjson.dumps(encode_response(resp, pid, Ctx(pid, pid)))


def fixed(status: int, content: bytes, ctype: str = "application/json") -> Answer:
    return lambda request: httpx.Response(status, content=content, headers={"content-type": ctype})


def client(upstream: str, answer: Answer | None = None) -> httpx.AsyncClient:
    base = "http://up.test" + (
        "/v1beta" if upstream == G else "/v2" if "cohere" in upstream else "/v1"
    )
    cfg = load_config(
        data={
            "state": "memory",
            "upstreams": [
                {"name": "up", "protocol": upstream, "base_url": base, "api_key_env": ""}
            ],
        }
    )
    app = create_app(
        cfg, transport=httpx.MockTransport(answer or fixed(200, answer_body(upstream)))
    )
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw.test")


def path_of(pid: str, stream: bool = False) -> str:
    http = http_spec(pid)
    action = (
        next(a for a, k in http.url_actions.items() if k == ("stream" if stream else "generate"))
        if http.model_in_path
        else ""
    )
    return http.inbound_paths[0].replace("{target}", f"{MODEL}:{action}")


def call(
    upstream: str, inbound: str, body: Any, answer: Answer | None = None, **kw: Any
) -> httpx.Response:
    async def run() -> httpx.Response:
        async with client(upstream, answer) as c:
            content = body if type(body) is bytes else orjson.dumps(body)
            return await c.post(kw.pop("path", None) or path_of(inbound), content=content, **kw)

    return asyncio.run(run())


def in_shape(r: httpx.Response, pid: str) -> str:
    """The message of an error body in ``pid``'s shape (fails when it is not that shape): the
    codec reads it (its error_shape row's paths) and writes the same body back."""
    assert r.headers["content-type"].startswith("application/json"), r.text[:200]
    codec = protocol(pid)
    body = r.json()
    raw, message, code, param, _ = codec.read_error_body(body)
    assert type(message) is str, body
    err = ErrorInfo(type="api_error", message=message, status=r.status_code, code=code, param=param)
    assert codec.write_error(err, raw, r.status_code) == body
    return message


def chat_request(**over: Any) -> dict[str, Any]:
    return {"model": MODEL, "messages": [{"role": "user", "content": "hi"}], **over}


REQUESTS = {
    A: {"model": MODEL, "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]},
    C: chat_request(),
    R: {"model": MODEL, "input": "hi"},
    G: {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]},
}


# ------------------------------------------------------------ bad input: typed, in shape


@pytest.mark.parametrize("upstream", [R, G])
def test_a_tool_result_without_content_is_no_500(upstream: str) -> None:
    body = {
        "model": MODEL,
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1"}]},
        ],
    }
    assert call(upstream, A, body).status_code == 200


def test_a_chat_tool_message_without_content_is_a_400_naming_it() -> None:
    body = chat_request(
        messages=[
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "c"},
        ]
    )
    r = call(A, C, body)
    assert r.status_code == 400 and "messages[2].content" in in_shape(r, C)


def test_a_model_name_with_a_slash_is_one_segment_of_the_upstream_url() -> None:
    """An OpenRouter-style name toward a Gemini upstream: the call goes to the model, quoted as
    the library's ``Translation.path`` quotes it, never to another resource."""
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, content=answer_body(G))

    r = call(G, C, chat_request(model="anthropic/claude-sonnet-4"), answer)
    assert r.status_code == 200
    assert seen[0].url.raw_path == b"/v1beta/models/anthropic%2Fclaude-sonnet-4:generateContent"


@pytest.mark.parametrize("named", ["anthropic/claude-sonnet-4", "anthropic%2Fclaude-sonnet-4"])
@pytest.mark.parametrize("action", ["generateContent", "streamGenerateContent"])
def test_a_gemini_client_may_name_a_model_with_a_slash(named: str, action: str) -> None:
    """google-genai writes ``models/<name>:<action>`` with the name as given: an OpenRouter-style
    name reaches the upstream whole, plain or quoted (it was a 405: the route's parameter took
    no slash)."""
    seen: list[dict[str, Any]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(orjson.loads(request.content))
        return httpx.Response(200, content=answer_body(C))

    r = call(C, G, REQUESTS[G], answer, path=f"/v1beta/models/{named}:{action}")
    assert r.status_code == 200, r.text
    assert seen[0]["model"] == "anthropic/claude-sonnet-4"


@pytest.mark.parametrize("levels", [250, 255, 600, 1020])
@pytest.mark.parametrize("inbound", [A, C, R, G])
def test_deep_nesting_is_a_400_never_a_500(inbound: str, levels: int) -> None:
    deep = b"[" * levels + b"]" * levels
    body = orjson.dumps({**REQUESTS[inbound], "metadata": "DEEP"}).replace(b'"DEEP"', deep)
    r = call(C if inbound != C else A, inbound, body)
    assert r.status_code == 400
    assert "nested deeper" in in_shape(r, inbound)


@pytest.mark.parametrize("inbound", [A, C, R])
def test_a_request_without_a_model_is_refused(inbound: str) -> None:
    body = {k: v for k, v in REQUESTS[inbound].items() if k != "model"}
    r = call(C, inbound, body)
    assert r.status_code == 400
    assert "model" in in_shape(r, inbound)


@pytest.mark.parametrize(
    ("method", "path", "pid", "status"),
    [
        ("GET", "/v1/messages", A, 405),
        ("PUT", "/v1/chat/completions", C, 405),
        ("GET", "/v1/responses", R, 405),
        ("POST", "/v1/chat/nothing", C, 404),
        ("POST", "/v1beta/nothing", G, 404),
        ("DELETE", "/v1beta/models/x:generateContent", G, 405),
        ("POST", "/v1/nothing", A, 404),  # x-api-key: an Anthropic client
    ],
)
def test_unknown_paths_and_wrong_methods_answer_in_the_callers_shape(
    method: str, path: str, pid: str, status: int
) -> None:
    if pid not in SERVED:
        pytest.skip("not served")

    async def run() -> httpx.Response:
        async with client(C) as c:
            headers = {"x-api-key": "k"} if pid == A else {}
            return await c.request(method, path + "?key=SECRET", headers=headers)

    r = asyncio.run(run())
    assert r.status_code == status
    message = in_shape(r, pid)
    assert path in message and "SECRET" not in message
    if status == 405:  # the methods of the first route the path matches
        assert r.headers["allow"] and r.headers["allow"] in message


@pytest.mark.parametrize(
    ("inbound", "path", "body", "bad"),
    [
        (A, "/v1/messages/count_tokens", {"model": MODEL, "messages": "hi"}, "messages"),
        (A, "/v1/messages/count_tokens", {"model": MODEL}, "messages"),
        (G, f"/v1beta/models/{MODEL}:countTokens", {"contents": 5}, "contents"),
        (
            G,
            f"/v1beta/models/{MODEL}:countTokens",
            {"generateContentRequest": {"contents": [7]}},
            "contents[0]",
        ),
    ],
)
def test_token_count_routes_validate_their_body(
    inbound: str, path: str, body: Any, bad: str
) -> None:
    r = call(inbound, inbound, body, path=path)
    assert r.status_code == 400
    assert bad in in_shape(r, inbound)
    good = REQUESTS[inbound] if inbound == A else {"generateContentRequest": REQUESTS[G]}
    assert call(inbound, inbound, good, path=path).status_code == 200


# ------------------------------------------------------------ nothing raw from upstream


@pytest.mark.parametrize("body", [b"{}", b'{"candidates": []}', b'{"candidates": [{}]}', b"[]"])
def test_a_gemini_200_of_the_wrong_shape_is_an_error(body: bytes) -> None:
    r = call(G, A, REQUESTS[A], fixed(200, body))
    assert r.status_code == 502
    assert "invalid gemini response" in in_shape(r, A)


def test_a_non_json_error_page_is_summarised_not_relayed() -> None:
    page = (
        b"<html><title>502</title><body>upstream internal-db-7.corp.example:5432 refused\n"
        b'Traceback (most recent call last):\n  File "/srv/app/handler.py", line 9\n'
        + b"x" * 2_000_000
        + b"</body></html>"
    )
    for inbound in (A, C, G):
        r = call(C, inbound, REQUESTS[inbound], fixed(502, page, "text/html; charset=utf-8"))
        assert r.status_code == 502
        message = in_shape(r, inbound)
        assert len(r.content) < 1000
        for leak in ("corp.example", "/srv/app", "Traceback", "xxxx"):
            assert leak not in r.text
        assert "text/html" in message and str(len(page)) in message


def test_a_json_error_body_is_capped() -> None:
    body = orjson.dumps({"error": {"type": "server_error", "message": "y" * 1_000_000}})
    r = call(C, A, REQUESTS[A], fixed(500, body))
    assert r.status_code == 500 and len(r.content) < 3000


# ------------------------------------------------------------ streams


def sse(*chunks: Any, done: bool = True) -> bytes:
    out = b"".join(b"data: " + orjson.dumps(c) + b"\n\n" for c in chunks)
    return out + (b"data: [DONE]\n\n" if done else b"")


HEAD = {"id": "c1", "object": "chat.completion.chunk", "model": MODEL, "created": 1}


def stream_call(inbound: str, upstream_sse: bytes) -> str:
    body = {**REQUESTS[inbound], "stream": True}
    r = call(
        C, inbound, body, fixed(200, upstream_sse, "text/event-stream"), path=path_of(inbound, True)
    )
    assert r.status_code == 200
    return r.text


@pytest.mark.parametrize(
    "chunk",
    [
        {**HEAD, "choices": 5},
        {**HEAD, "choices": [{"index": 0, "delta": "hello"}]},
        {**HEAD, "choices": [{"index": 0, "delta": {"content": 5}, "finish_reason": {"x": 1}}]},
        {**HEAD, "choices": [], "usage": {"prompt_tokens": "many"}},
    ],
)
def test_wrong_typed_stream_fields_are_no_internal_error(
    chunk: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    start = {**HEAD, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]}
    with caplog.at_level(logging.ERROR, logger="interlingua.gateway"):
        text = stream_call(A, sse(start, chunk))
    assert "internal gateway error" not in text
    assert not [r for r in caplog.records if r.name == "interlingua.gateway"]


def test_a_chat_stream_cut_before_the_usage_it_was_asked_for_is_reported_cut() -> None:
    start = {**HEAD, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]}
    finish = {**HEAD, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    text = stream_call(A, sse(start, finish, done=False))  # the gateway asked for usage
    assert "event: error" in text and "usage is lost" in text
    assert "message_stop" not in text


@pytest.mark.parametrize(
    ("exc", "said"),
    [
        (UnsupportedFeature("stream.output: the target cannot say it"), "cannot say it"),
        (RuntimeError("/srv/app/secret.py line 3"), "internal gateway error"),
    ],
)
def test_a_stream_that_fails_inside_the_gateway_says_what_a_call_would(
    exc: Exception, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception while relaying a stream ends it in band with the error a call failing
    before its stream gets (info_from_exception): a typed error its type and message, anything
    else an internal error whose text stays in the log."""
    from interlingua.gateway.streaming import ObservedTranslator

    def broken(self: Any, chunk: bytes) -> bytes:
        raise exc

    monkeypatch.setattr(ObservedTranslator, "feed", broken)
    start = {**HEAD, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]}
    text = stream_call(A, sse(start))
    assert "event: error" in text and said in text
    assert "/srv/app" not in text


# ------------------------------------------------------------ no key in any log line


def test_no_query_string_reaches_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    from uvicorn.middleware.message_logger import MessageLoggerMiddleware

    cfg = load_config(
        data={
            "state": "memory",
            "upstreams": [
                {
                    "name": "up",
                    "protocol": G,
                    "base_url": "http://up.test/v1beta",
                    "api_key_env": "",
                }
            ],
        }
    )
    app: Any = MessageLoggerMiddleware(
        create_app(cfg, transport=httpx.MockTransport(fixed(200, answer_body(G))))
    )

    async def run() -> None:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://gw.test"
        ) as c:
            r = await c.post(path_of(G) + "?key=AIzaSECRET", content=orjson.dumps(REQUESTS[G]))
            assert r.status_code == 200

    loggers = [logging.getLogger(n) for n in ("uvicorn.asgi", "httpx")]
    saved = [(lg.level, lg.propagate) for lg in loggers]
    for lg in loggers:  # uvicorn's own logging config (another test's server) may stop them
        lg.addHandler(caplog.handler)
        lg.setLevel(1)  # everything, uvicorn's trace level (5) included
        lg.propagate = False
    try:
        asyncio.run(run())
        logging.getLogger("httpx").info("HTTP Request: POST https://h/v1beta/x?key=AIzaSECRET")
    finally:
        for lg, (level, propagate) in zip(loggers, saved, strict=True):
            lg.removeHandler(caplog.handler)
            lg.setLevel(level)
            lg.propagate = propagate
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "query_string" in text and "AIzaSECRET" not in text
