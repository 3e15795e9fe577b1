"""The gateway's embeddings routes, judged by the official SDKs: ``openai`` embeddings.create
(float and base64) and ``google-genai`` models.embed_content (one and many contents) through the
gateway to a fake upstream of the other protocol; vectors compared bit for bit.

The fake upstream answers OpenAI ``/v1/embeddings`` with float32 values (as OpenAI computes
them) and Gemini ``:batchEmbedContents`` with short decimals (as Gemini's JSON prints them), each
a function of the text, and refuses a batch above the protocol's limit as the real APIs do.
"""

from __future__ import annotations

import base64
import hashlib
import os
import random
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.gateway_upstream import ServerThread

pytest.importorskip("starlette")
KEY_ENV = "IL_TEST_EMB_UPSTREAM_KEY"
INBOUND_ENV = "IL_TEST_EMB_INBOUND"
INBOUND_KEY = "emb-client-key"


def values(text: str, n: int) -> list[float]:
    rnd = random.Random(hashlib.sha256(text.encode()).digest())
    return [rnd.uniform(-1, 1) for _ in range(n)]


def openai_vector(text: str, n: int) -> list[float]:
    """float32 values, as OpenAI's floats are."""
    return list(struct.unpack(f"<{n}f", struct.pack(f"<{n}f", *values(text, n))))


def gemini_vector(text: str, n: int) -> list[float]:
    """Short decimals (not float32-exact), as Gemini's JSON prints them."""
    return [round(x, 7) for x in values(text, n)]


def f32(xs: list[float]) -> bytes:
    return struct.pack(f"<{len(xs)}f", *xs)


@dataclass
class Seen:
    calls: list[tuple[str, dict[str, Any], dict[str, str]]] = field(default_factory=list)


def upstream_app(seen: Seen) -> Starlette:
    async def openai(request: Request) -> Response:
        body = orjson.loads(await request.body())
        seen.calls.append(("openai", body, dict(request.headers)))
        inputs = body["input"] if type(body["input"]) is list else [body["input"]]
        if len(inputs) > 2048:
            err = {"error": {"message": "too many inputs", "type": "invalid_request_error"}}
            return Response(orjson.dumps(err), status_code=400)
        n = body.get("dimensions", 8)
        data = []
        for i, text in enumerate(inputs):
            vec = openai_vector(str(text), n)
            emb: Any = vec
            if body.get("encoding_format") == "base64":
                emb = base64.b64encode(f32(vec)).decode()
            data.append({"object": "embedding", "index": i, "embedding": emb})
        usage = {"prompt_tokens": 3 * len(inputs), "total_tokens": 3 * len(inputs)}
        out = {"object": "list", "data": data[::-1], "model": body["model"], "usage": usage}
        return Response(orjson.dumps(out), headers={"x-request-id": "req_up_1"})

    async def gemini(request: Request) -> Response:
        body = orjson.loads(await request.body())
        seen.calls.append(("gemini", body, dict(request.headers)))
        reqs = body["requests"]
        if "err-429" in request.path_params["model"]:
            err = {"error": {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}}
            return Response(orjson.dumps(err), status_code=429, headers={"retry-after": "7"})
        if len(reqs) > 100:
            err = {
                "error": {
                    "code": 400,
                    "message": "at most 100 requests",
                    "status": "INVALID_ARGUMENT",
                }
            }
            return Response(orjson.dumps(err), status_code=400)
        embs = [
            {
                "values": gemini_vector(
                    r["content"]["parts"][0]["text"], r.get("outputDimensionality", 8)
                )
            }
            for r in reqs
        ]
        return Response(orjson.dumps({"embeddings": embs}))

    async def cohere(request: Request) -> Response:
        body = orjson.loads(await request.body())
        seen.calls.append(("cohere", body, dict(request.headers)))
        if len(body["texts"]) > 96:
            return Response(orjson.dumps({"message": "too many texts"}), status_code=400)
        n = body.get("output_dimension", 8)
        out = {
            "id": "emb-up",
            "response_type": "embeddings_by_type",
            "embeddings": {"float": [gemini_vector(t, n) for t in body["texts"]]},
            "texts": body["texts"],
            "meta": {"billed_units": {"input_tokens": 2 * len(body["texts"])}},
        }
        return Response(orjson.dumps(out))

    return Starlette(
        routes=[
            Route("/v2/embed", cohere, methods=["POST"]),
            Route("/v1/embeddings", openai, methods=["POST"]),
            Route("/v1beta/models/{model}:batchEmbedContents", gemini, methods=["POST"]),
        ]
    )


@dataclass
class EmbStack:
    url: str
    seen: Seen


@pytest.fixture(scope="module")
def stack() -> Iterator[EmbStack]:
    from interlingua.gateway.app import create_app
    from interlingua.gateway.config import load_config

    os.environ[KEY_ENV] = "sk-up"
    os.environ[INBOUND_ENV] = INBOUND_KEY
    seen = Seen()
    up = ServerThread(upstream_app(seen))
    up.start()
    cfg = load_config(
        data={
            "inbound_keys_env": INBOUND_ENV,
            "model_map": {"openai-alias": "text-embedding-3-small"},
            "upstreams": [
                {
                    "name": "claude",
                    "protocol": "anthropic_messages",
                    "base_url": up.url + "/v1",
                    "models": ["claude-*"],
                    "api_key_env": KEY_ENV,
                },
                {
                    "name": "oa",
                    "protocol": "openai_chat",
                    "base_url": up.url + "/v1",
                    "models": ["text-embedding-*"],
                    "api_key_env": KEY_ENV,
                    "retries": 0,
                },
                {
                    "name": "co",
                    "protocol": "cohere_v2",
                    "base_url": up.url + "/v2",
                    "models": ["embed-*"],
                    "api_key_env": KEY_ENV,
                    "retries": 0,
                },
                {
                    "name": "gm",
                    "protocol": "gemini",
                    "base_url": up.url + "/v1beta",
                    "models": ["gemini-embedding-*"],
                    "api_key_env": KEY_ENV,
                    "retries": 0,
                },
            ],
        }
    )
    gw = ServerThread(create_app(cfg))
    gw.start()
    try:
        yield EmbStack(gw.url, seen)
    finally:
        gw.stop()
        up.stop()


def openai_client(stack: EmbStack) -> Any:
    openai = pytest.importorskip("openai")
    return openai.OpenAI(base_url=stack.url + "/v1", api_key=INBOUND_KEY, max_retries=0, timeout=10)


def genai_client(stack: EmbStack) -> Any:
    genai = pytest.importorskip("google.genai")
    from google.genai import types

    opts = types.HttpOptions(
        base_url=stack.url, timeout=10_000, retry_options=types.HttpRetryOptions(attempts=1)
    )
    return genai.Client(api_key=INBOUND_KEY, http_options=opts)


TEXTS = ["北京今天会下雨吗？", "北京今日天气预报", "How does a bird fly?"]


def test_openai_sdk_float_through_gemini_upstream(stack: EmbStack) -> None:
    stack.seen.calls.clear()
    res = openai_client(stack).embeddings.create(
        model="gemini-embedding-001", input=TEXTS, encoding_format="float", dimensions=16
    )
    assert [d.index for d in res.data] == [0, 1, 2]
    for d, text in zip(res.data, TEXTS, strict=True):
        assert d.embedding == gemini_vector(text, 16)  # the upstream's doubles, exactly
    assert res.model == "gemini-embedding-001"
    ((kind, body, headers),) = stack.seen.calls
    assert kind == "gemini" and headers["x-goog-api-key"] == "sk-up"
    assert body["requests"][0] == {
        "model": "models/gemini-embedding-001",
        "content": {"parts": [{"text": TEXTS[0]}]},
        "outputDimensionality": 16,
    }


def test_openai_sdk_base64_through_gemini_upstream(stack: EmbStack) -> None:
    client = openai_client(stack)
    raw = client.embeddings.with_raw_response.create(
        model="gemini-embedding-001", input="one text", encoding_format="base64"
    )
    assert raw.headers["x-interlingua-losses"] == "1"  # usage: Gemini reported none
    body = orjson.loads(raw.content)
    assert f32(gemini_vector("one text", 8)) == base64.b64decode(body["data"][0]["embedding"])
    res = client.embeddings.create(model="gemini-embedding-001", input=TEXTS)  # SDK default: base64
    for d, text in zip(res.data, TEXTS, strict=True):
        assert f32(d.embedding) == f32(gemini_vector(text, 8))


def test_a_batch_larger_than_the_upstream_limit_is_split_and_joined(stack: EmbStack) -> None:
    stack.seen.calls.clear()
    texts = [f"document number {i}" for i in range(250)]
    res = openai_client(stack).embeddings.create(
        model="gemini-embedding-001", input=texts, encoding_format="float"
    )
    assert [len(b["requests"]) for _, b, _ in stack.seen.calls] == [100, 100, 50]
    assert [d.index for d in res.data] == list(range(250))
    assert all(d.embedding == gemini_vector(t, 8) for d, t in zip(res.data, texts, strict=True))


def test_openai_sdk_through_openai_upstream_is_untouched(stack: EmbStack) -> None:
    res = openai_client(stack).embeddings.create(model="openai-alias", input=TEXTS[:2])
    assert [d.index for d in res.data] == [1, 0]  # the upstream's bytes, in its order
    for d in res.data:
        text = TEXTS[d.index]
        assert f32(d.embedding) == f32(openai_vector(text, 8))
    assert res.usage.prompt_tokens == 6


def test_genai_sdk_one_and_many_contents_through_openai_upstream(stack: EmbStack) -> None:
    from google.genai import types

    client = genai_client(stack)
    stack.seen.calls.clear()
    one = client.models.embed_content(model="text-embedding-3-small", contents="What is life?")
    assert one.embeddings[0].values == openai_vector("What is life?", 8)
    cfg = types.EmbedContentConfig(
        task_type="RETRIEVAL_DOCUMENT", title="Doc", output_dimensionality=32
    )
    many = client.models.embed_content(model="text-embedding-3-small", contents=TEXTS, config=cfg)
    assert len(many.embeddings) == 3
    for e, text in zip(many.embeddings, TEXTS, strict=True):
        assert f32(e.values) == f32(openai_vector(text, 32))  # upstream sent them in reverse order
        assert e.values == openai_vector(text, 32)
    kind, body, headers = stack.seen.calls[-1]
    assert kind == "openai" and headers["authorization"] == "Bearer sk-up"
    assert body == {"model": "text-embedding-3-small", "input": TEXTS, "dimensions": 32}


def test_gemini_embed_content_single_form(stack: EmbStack) -> None:
    body = {"content": {"parts": [{"text": "alone"}]}, "taskType": "RETRIEVAL_QUERY"}
    r = httpx.post(
        stack.url + "/v1beta/models/text-embedding-3-small:embedContent",
        json=body,
        headers={"x-goog-api-key": INBOUND_KEY},
    )
    assert r.status_code == 200, r.text
    assert r.json() == {
        "embedding": {"values": openai_vector("alone", 8)},
        "usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 3},
    }
    assert r.headers["x-interlingua-losses"] == "1"  # the task type OpenAI has no field for
    r = httpx.post(
        stack.url + "/v1beta/models/gemini-embedding-001:embedContent",
        json=body,
        headers={"x-goog-api-key": INBOUND_KEY},
    )
    assert r.json() == {"embedding": {"values": gemini_vector("alone", 8)}}


def test_bad_input_gets_a_typed_error_in_the_callers_protocol(stack: EmbStack) -> None:
    import openai

    client = openai_client(stack)
    with pytest.raises(openai.BadRequestError) as info:
        client.embeddings.create(
            model="gemini-embedding-001", input=[[1, 2, 3]], encoding_format="float"
        )
    assert "token arrays" in info.value.message
    with pytest.raises(openai.BadRequestError):
        client.embeddings.create(model="text-embedding-3-small", input=[], encoding_format="float")
    with pytest.raises(openai.NotFoundError):  # Anthropic has no embeddings endpoint
        client.embeddings.create(model="claude-x", input="a", encoding_format="float")
    with pytest.raises(openai.AuthenticationError):
        openai.OpenAI(base_url=stack.url + "/v1", api_key="wrong", max_retries=0).embeddings.create(
            model="text-embedding-3-small", input="a"
        )
    r = httpx.post(
        stack.url + "/v1beta/models/text-embedding-3-small:batchEmbedContents",
        json={"content": {"parts": [{"text": "a"}]}},
        headers={"x-goog-api-key": INBOUND_KEY},
    )
    assert r.status_code == 400
    assert (
        r.json()["error"]["status"] == "INVALID_ARGUMENT"
        and "requests" in r.json()["error"]["message"]
    )


def test_cohere_sdk_through_gemini_upstream_and_openai_sdk_through_cohere(stack: EmbStack) -> None:
    cohere = pytest.importorskip("cohere")
    client = cohere.ClientV2(api_key=INBOUND_KEY, base_url=stack.url, timeout=10)
    stack.seen.calls.clear()
    res = client.embed(
        model="gemini-embedding-001",
        input_type="search_query",
        texts=TEXTS,
        embedding_types=["float"],
        output_dimension=16,
    )
    assert [f32(v) for v in res.embeddings.float_] == [f32(gemini_vector(t, 16)) for t in TEXTS]
    assert res.embeddings.float_ == [gemini_vector(t, 16) for t in TEXTS]
    assert res.texts == TEXTS
    ((_, body, _),) = stack.seen.calls
    assert {r["taskType"] for r in body["requests"]} == {"RETRIEVAL_QUERY"}
    stack.seen.calls.clear()
    texts = [f"text {i}" for i in range(200)]
    out = openai_client(stack).embeddings.create(model="embed-v4.0", input=texts)  # base64
    assert [len(b["texts"]) for _, b, _ in stack.seen.calls] == [96, 96, 8]
    assert all(b["input_type"] == "search_document" for _, b, _ in stack.seen.calls)
    assert [f32(d.embedding) for d in out.data] == [f32(gemini_vector(t, 8)) for t in texts]
    assert out.usage.prompt_tokens == 400


def test_an_upstream_error_reaches_the_caller_in_its_own_shape(stack: EmbStack) -> None:
    import openai

    with pytest.raises(openai.RateLimitError) as info:
        openai_client(stack).embeddings.create(model="gemini-embedding-err-429", input="a")
    assert info.value.response.headers["retry-after"] == "7"
    assert info.value.body["type"] == "rate_limit_error"
    assert info.value.message.endswith("quota") or "quota" in info.value.message
