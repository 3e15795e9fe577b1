"""Failures through the gateway reach each official SDK as that SDK's own error type.

Upstream HTTP errors (400/401/429/500/529) keep their status (429 its Retry-After; overloaded is
529 for Anthropic and 503 for the others, as each protocol names it); a refused connection is a
502, an upstream timeout a 504; a stream cut in the middle, a broken connection and an in-band
error event all end the caller's stream with its own in-band error (never a clean stop); the
gateway's own refusals (inbound key, body size, bad request, unknown model) come in the caller's
protocol too. A client that goes away cancels the upstream stream."""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import anthropic  # noqa: E402
import openai  # noqa: E402
from google.genai import errors as genai_errors  # noqa: E402
from interlingua import encode_error  # noqa: E402
from interlingua.gateway.app import servable  # noqa: E402
from interlingua.generated.canonical import ErrorInfo  # noqa: E402

from tests.gateway_upstream import (  # noqa: E402
    INBOUND_KEY,
    Stack,
    _status_type,
    anthropic_client,
    openai_client,
    running_stack,
)

UPSTREAMS = servable()
# the clients these tests drive with their official SDK (Cohere is tested as an upstream here;
# its SDK judges it as a client in tests/test_sdk_judge_cohere.py and test_cohere_stream.py)
CLIENTS = [p for p in UPSTREAMS if p != "cohere_v2"]
QUESTION = "What is the weather in Paris?"

_OPENAI_ERRORS: dict[int, type[Exception]] = {
    400: openai.BadRequestError,
    401: openai.AuthenticationError,
    404: openai.NotFoundError,
    413: openai.APIStatusError,
    429: openai.RateLimitError,
    500: openai.InternalServerError,
    502: openai.InternalServerError,
    503: openai.InternalServerError,
    504: openai.InternalServerError,
    529: openai.InternalServerError,
}
# status -> the error class each SDK raises for it
SDK_ERRORS: dict[str, dict[int, type[Exception]]] = {
    "anthropic_messages": {
        400: anthropic.BadRequestError,
        401: anthropic.AuthenticationError,
        404: anthropic.NotFoundError,
        413: anthropic.ContentTooLargeError,
        429: anthropic.RateLimitError,
        500: anthropic.InternalServerError,
        502: anthropic.InternalServerError,
        503: anthropic.ServiceUnavailableError,
        504: anthropic.GatewayTimeoutError,
        529: anthropic.OverloadedError,
    },
    "openai_chat": _OPENAI_ERRORS,
    "openai_responses": _OPENAI_ERRORS,
    "gemini": {
        s: genai_errors.ClientError if s < 500 else genai_errors.ServerError
        for s in (400, 401, 404, 413, 429, 500, 502, 503, 504, 529)
    },
}


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    with running_stack() as s:
        yield s


@functools.cache
def gemini_client(url: str, key: str) -> Any:
    from google import genai
    from google.genai import types

    opts = types.HttpOptions(
        base_url=url, timeout=10_000, retry_options=types.HttpRetryOptions(attempts=1)
    )
    return genai.Client(api_key=key, http_options=opts)


def call(
    stack: Stack,
    inbound: str,
    model: str,
    stream: bool,
    key: str = INBOUND_KEY,
    text: str = QUESTION,
) -> Any:
    """One turn through the gateway with the SDK of ``inbound`` (a stream is read to its end;
    a Responses stream returns its failure event, if any)."""
    messages = [{"role": "user", "content": text}]
    if inbound == "anthropic_messages":
        ac = anthropic_client(stack.url, key)
        if stream:
            with ac.messages.stream(model=model, max_tokens=64, messages=messages) as s:
                return s.get_final_message()
        return ac.messages.create(model=model, max_tokens=64, messages=messages)
    if inbound == "openai_chat":
        oc = openai_client(stack.url, key)
        if stream:
            with oc.chat.completions.stream(model=model, messages=messages) as s:
                return s.get_final_completion()
        return oc.chat.completions.create(model=model, messages=messages)
    if inbound == "openai_responses":
        rc = openai_client(stack.url, key)
        if stream:
            with rc.responses.stream(model=model, input=messages) as s:
                failed = [e for e in s if e.type in ("error", "response.failed")]
                return failed[0] if failed else s.get_final_response()
        return rc.responses.create(model=model, input=messages)
    gc = gemini_client(stack.url, key)
    if stream:
        return list(gc.models.generate_content_stream(model=model, contents=text))
    return gc.models.generate_content(model=model, contents=text)


def status_of(exc: Any) -> int:
    return int(getattr(exc, "status_code", None) or exc.code)


def expected_status(status: int, inbound: str) -> int:
    """The status a caller of ``inbound`` sees for an upstream ``status``: the same, except
    where the protocols name one condition differently (overloaded: 529 Anthropic, 503 others)."""
    info = ErrorInfo(type=_status_type(status), message="", status=status)
    return encode_error(info, inbound)[0]


def stream_failure(stack: Stack, inbound: str, model: str) -> str:
    """Read a stream that must fail; the message of the caller's in-band error."""
    raises: Any = {
        "anthropic_messages": anthropic.APIStatusError,  # raised on the `event: error`
        "openai_chat": openai.APIError,  # raised on a `data: {"error": ...}` chunk
        "openai_responses": openai.APIError,  # raised on the `error` event (before .failed)
        "gemini": genai_errors.APIError,
    }[inbound]
    with pytest.raises(raises) as ei:
        call(stack, inbound, model, True)
    return str(ei.value.message)


PAIRS = [(i, u) for i in CLIENTS for u in UPSTREAMS]
PAIR_IDS = [f"{i}->{u}" for i, u in PAIRS]


# every status without streaming; two with it (an error before the stream starts takes the same
# path whatever the status)
STATUS_MODES = [(s, False) for s in (400, 401, 429, 500, 529)] + [(429, True), (529, True)]


@pytest.mark.parametrize("inbound,upstream", PAIRS, ids=PAIR_IDS)
@pytest.mark.parametrize(
    "status,stream",
    STATUS_MODES,
    ids=[f"{s}-{'stream' if m else 'whole'}" for s, m in STATUS_MODES],
)
def test_upstream_http_error(
    stack: Stack, inbound: str, upstream: str, status: int, stream: bool
) -> None:
    stack.need(inbound, upstream)
    want = expected_status(status, inbound)
    with pytest.raises(SDK_ERRORS[inbound][want]) as ei:
        call(stack, inbound, f"{upstream}--err-{status}", stream)
    exc: Any = ei.value
    assert status_of(exc) == want
    assert f"scripted {status}" in exc.message
    if status == 429:
        assert exc.response.headers["retry-after"] == "7"


@pytest.mark.parametrize("inbound,upstream", PAIRS, ids=PAIR_IDS)
@pytest.mark.parametrize(
    "scenario,status,stream",
    [("refused", 502, False), ("slow", 504, False), ("refused", 502, True), ("slow", 504, True)],
    ids=["refused-whole", "timeout-whole", "refused-stream", "timeout-stream"],
)
def test_transport_failure(
    stack: Stack, inbound: str, upstream: str, scenario: str, status: int, stream: bool
) -> None:
    stack.need(inbound, upstream)
    started = time.monotonic()
    with pytest.raises(SDK_ERRORS[inbound][status]) as ei:
        call(stack, inbound, f"{upstream}--{scenario}", stream)
    assert status_of(ei.value) == status
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("inbound,upstream", PAIRS, ids=PAIR_IDS)
@pytest.mark.parametrize(
    "scenario,message",
    [("cut", "terminal event"), ("drop", "broke off"), ("midstream-error", "scripted overload")],
)
def test_stream_failure_is_in_band(
    stack: Stack, inbound: str, upstream: str, scenario: str, message: str
) -> None:
    stack.need(inbound, upstream)
    assert message in stream_failure(stack, inbound, f"{upstream}--{scenario}")


def test_midstream_error_keeps_its_type(stack: Stack) -> None:
    stack.need("anthropic_messages")
    with pytest.raises(anthropic.APIStatusError) as ei:
        call(stack, "anthropic_messages", "anthropic_messages--midstream-error", True)
    body: Any = ei.value.body
    assert body["error"]["type"] == "overloaded_error"


@pytest.mark.parametrize("inbound", CLIENTS)
def test_inbound_key_required(stack: Stack, inbound: str) -> None:
    stack.need(inbound)
    with pytest.raises(SDK_ERRORS[inbound][401]) as ei:
        call(stack, inbound, f"{inbound}--tool-loop", False, key="wrong-key")
    assert status_of(ei.value) == 401
    assert "API key" in str(ei.value)


def test_inbound_key_missing_raw(stack: Stack) -> None:
    stack.need("anthropic_messages", "openai_chat")
    r = httpx.post(stack.url + "/v1/messages", json={})
    assert r.status_code == 401
    assert r.json()["error"]["type"] == "authentication_error"
    r = httpx.post(stack.url + "/v1/chat/completions", json={})
    assert r.status_code == 401 and r.json()["error"]["message"]
    assert httpx.get(stack.url + "/v1/models").status_code == 401
    assert httpx.get(stack.url + "/healthz").status_code == 200  # health needs no key


@pytest.mark.parametrize("inbound", CLIENTS)
def test_body_too_large(stack: Stack, inbound: str) -> None:
    stack.need(inbound)
    with pytest.raises(SDK_ERRORS[inbound][413]) as ei:
        call(stack, inbound, f"{inbound}--tool-loop", False, text="x" * 300_000)
    assert status_of(ei.value) == 413


def test_invalid_request_names_the_path(stack: Stack) -> None:
    stack.need("anthropic_messages", "openai_chat")
    with pytest.raises(anthropic.BadRequestError) as ei:
        anthropic_client(stack.url).messages.create(
            model="openai_chat--tool-loop",
            max_tokens=8,
            messages=[{"role": "user", "content": 123}],  # type: ignore[list-item]
        )
    assert "messages[0].content" in ei.value.message
    body: Any = ei.value.body
    assert body["error"]["type"] == "invalid_request_error"
    h = {"authorization": f"Bearer {INBOUND_KEY}"}
    r = httpx.post(stack.url + "/v1/chat/completions", content=b"{not json", headers=h)
    assert r.status_code == 400 and "JSON" in r.json()["error"]["message"]


@pytest.mark.parametrize("inbound", CLIENTS)
def test_unknown_model_is_404(stack: Stack, inbound: str) -> None:
    stack.need(inbound)
    with pytest.raises(SDK_ERRORS[inbound][404]) as ei:
        call(stack, inbound, "no-such-model", False)
    assert "no-such-model" in str(ei.value)


def raw_stream_request(inbound: str, model: str) -> tuple[str, dict[str, str], dict[str, Any]]:
    """(path, headers, body) of a streamed request in ``inbound``'s own wire form."""
    msgs = [{"role": "user", "content": QUESTION}]
    if inbound == "anthropic_messages":
        body = {"model": model, "max_tokens": 8, "messages": msgs, "stream": True}
        return "/v1/messages", {"x-api-key": INBOUND_KEY}, body
    bearer = {"authorization": f"Bearer {INBOUND_KEY}"}
    if inbound == "openai_chat":
        return "/v1/chat/completions", bearer, {"model": model, "messages": msgs, "stream": True}
    if inbound == "openai_responses":
        return "/v1/responses", bearer, {"model": model, "input": msgs, "stream": True}
    body = {"contents": [{"role": "user", "parts": [{"text": QUESTION}]}]}
    path = f"/v1beta/models/{model}:streamGenerateContent?alt=sse"
    return path, {"x-goog-api-key": INBOUND_KEY}, body


@pytest.mark.parametrize("inbound,upstream", PAIRS, ids=PAIR_IDS)
def test_client_disconnect_cancels_upstream(stack: Stack, inbound: str, upstream: str) -> None:
    """The first bytes arrive while the upstream still streams (no buffering), and closing the
    client's connection cancels the upstream stream."""
    stack.need(inbound, upstream)
    model = f"{upstream}--endless"
    path, headers, body = raw_stream_request(inbound, model)
    before = stack.state.cancelled.count(model)
    started = time.monotonic()
    with httpx.stream("POST", stack.url + path, json=body, headers=headers, timeout=5) as r:
        assert r.status_code == 200
        assert next(r.iter_bytes())
    assert time.monotonic() - started < 3  # the upstream stream lasts 10 s
    deadline = time.monotonic() + 5
    while stack.state.cancelled.count(model) == before:
        assert time.monotonic() < deadline, "the upstream stream was not cancelled"
        time.sleep(0.02)
