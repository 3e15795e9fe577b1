"""Model lists and token counts through the gateway, with the official SDKs as clients
(anthropic ``models.list`` / ``models.retrieve`` / ``messages.count_tokens``, openai
``models.list`` / ``models.retrieve``, google-genai ``models.list`` / ``models.get`` /
``models.count_tokens``) in front of fake upstreams that list their own models and count.

- lists merge the configured names with each upstream's own list (fetched once, cached), an
  upstream whose list fails is left out, and each SDK gets its own shape (google-genai's default
  ``/v1/models`` too, told apart by its ``x-goog-api-key``);
- counts ask the upstream when its protocol can count, translated (Anthropic -> Gemini
  ``countTokens``, Gemini -> Anthropic ``count_tokens``), and otherwise estimate from text and
  media formulas: a 300 KB image is never 100,000 tokens.
"""

from __future__ import annotations

import base64
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import orjson  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import Response  # noqa: E402
from starlette.routing import Route  # noqa: E402

from tests import gateway_upstream as gu  # noqa: E402

KEY = "gw-key-1"


def _json(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status, media_type="application/json")


@dataclass
class Fake:
    lists: list[str] = field(default_factory=list)  # paths of the list GETs received
    counts: list[tuple[str, Any]] = field(default_factory=list)  # (path, body) of the counts

    def app(self) -> Starlette:
        async def oa_models(request: Request) -> Response:
            self.lists.append(request.url.path)
            ids = ["gpt-up-1", "gpt-up-2", "other-up"]  # other-up: not served (models globs)
            return _json({"object": "list", "data": [{"id": i, "object": "model"} for i in ids]})

        async def an_models(request: Request) -> Response:
            self.lists.append(request.url.path + "?" + request.url.query)
            item = {"id": "claude-up-1", "type": "model", "display_name": "Claude Up"}
            return _json({"data": [item], "has_more": False})

        async def ge_models(request: Request) -> Response:
            self.lists.append(request.url.path + "?" + request.url.query)
            return _json({"models": [{"name": "models/gemini-up-1", "displayName": "G"}]})

        async def broken(request: Request) -> Response:
            self.lists.append(request.url.path)
            return _json({"error": {"message": "boom", "type": "server_error"}}, 500)

        async def an_count(request: Request) -> Response:
            self.counts.append((request.url.path, orjson.loads(await request.body())))
            return _json({"input_tokens": 4242})

        async def rs_count(request: Request) -> Response:
            self.counts.append((request.url.path, orjson.loads(await request.body())))
            return _json({"object": "response.input_tokens", "input_tokens": 99})

        async def ge_count(request: Request) -> Response:
            self.counts.append((request.url.path, orjson.loads(await request.body())))
            return _json({"totalTokens": 777, "promptTokensDetails": []})

        return Starlette(
            routes=[
                Route("/oa/v1/models", oa_models),
                Route("/an/v1/models", an_models),
                Route("/ge/v1beta/models", ge_models),
                Route("/bad/v1/models", broken),
                Route("/an/v1/messages/count_tokens", an_count, methods=["POST"]),
                Route("/ge/v1beta/models/{target}", ge_count, methods=["POST"]),
                Route("/rs/v1/responses/input_tokens", rs_count, methods=["POST"]),
            ]
        )


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[str, Fake]]:
    from interlingua.gateway.app import create_app
    from interlingua.gateway.config import load_config

    fake = Fake()
    upstream = gu.ServerThread(fake.app())
    upstream.start()
    gateway = None
    saved = os.environ.get("IL_TEST_MODELS_KEYS")
    os.environ["IL_TEST_MODELS_KEYS"] = KEY
    try:
        u = upstream.url
        cfg = load_config(
            data={
                "state": "off",
                "inbound_keys_env": "IL_TEST_MODELS_KEYS",
                "model_map": {"my-alias": "gpt-up-1"},
                "upstreams": [
                    {
                        "name": "oa",
                        "protocol": "openai_chat",
                        "base_url": u + "/oa/v1",
                        "models": ["gpt-*"],
                    },
                    {
                        "name": "an",
                        "protocol": "anthropic_messages",
                        "base_url": u + "/an/v1",
                        "models": ["claude-*"],
                    },
                    {
                        "name": "ge",
                        "protocol": "gemini",
                        "base_url": u + "/ge/v1beta",
                        "models": ["gemini-*"],
                    },
                    {
                        "name": "bad",
                        "protocol": "openai_chat",
                        "base_url": u + "/bad/v1",
                        "models": ["bad-*", "bad-configured"],
                    },
                    {
                        "name": "rs",
                        "protocol": "openai_responses",
                        "base_url": u + "/rs/v1",
                        "models": ["o-*"],
                    },
                ],
            }  # fmt: skip
        )
        gateway = gu.ServerThread(create_app(cfg))
        gateway.start()
        yield gateway.url, fake
    finally:
        if gateway is not None:
            gateway.stop()
        upstream.stop()
        if saved is None:
            os.environ.pop("IL_TEST_MODELS_KEYS", None)
        else:
            os.environ["IL_TEST_MODELS_KEYS"] = saved


def genai(url: str) -> Any:
    from google import genai
    from google.genai import types

    return genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=url))


SERVED = ["my-alias", "bad-configured", "gpt-up-1", "gpt-up-2", "claude-up-1", "gemini-up-1"]


# ------------------------------------------------------------------------------ model lists


def test_openai_lists_and_retrieves_merged_models(stack: tuple[str, Fake]) -> None:
    import openai

    url, fake = stack
    c = gu.openai_client(url, KEY)
    ids = [m.id for m in c.models.list()]
    assert ids == SERVED  # configured first, then each upstream's own; other-up not served
    m = c.models.retrieve("claude-up-1")
    assert m.id == "claude-up-1" and m.object == "model"
    assert c.models.retrieve("my-alias").id == "my-alias"
    with pytest.raises(openai.NotFoundError):
        c.models.retrieve("gpt-nope")  # its upstream's list does not have it
    with pytest.raises(openai.NotFoundError):
        c.models.retrieve("nobody-serves-this")
    # the bad upstream's list failed: a model it serves is not refused for that
    assert c.models.retrieve("bad-anything").id == "bad-anything"
    # fetched once per upstream, then cached (the failed one is not asked again at once)
    c.models.list()
    assert sorted(p.split("?")[0] for p in fake.lists) == [
        "/an/v1/models",
        "/bad/v1/models",
        "/ge/v1beta/models",
        "/oa/v1/models",
    ]
    assert "/an/v1/models?limit=1000" in fake.lists
    assert "/ge/v1beta/models?pageSize=1000" in fake.lists


def test_anthropic_lists_and_retrieves(stack: tuple[str, Fake]) -> None:
    import anthropic

    url, _ = stack
    c = gu.anthropic_client(url, KEY)
    page = c.models.list()
    assert [m.id for m in page.data] == SERVED
    assert page.first_id == SERVED[0] and page.last_id == SERVED[-1]
    m = c.models.retrieve("gemini-up-1")
    assert (m.id, m.type, m.display_name) == ("gemini-up-1", "model", "gemini-up-1")
    with pytest.raises(anthropic.NotFoundError) as e:
        c.models.retrieve("nobody-serves-this")
    assert e.value.body["error"]["type"] == "not_found_error"  # type: ignore[index]


def test_google_genai_default_list_gets_the_gemini_shape(stack: tuple[str, Fake]) -> None:
    """google-genai 3.x lists ``GET /v1/models`` (api version v1) with x-goog-api-key."""
    from google.genai import errors

    url, _ = stack
    g = genai(url)
    names = [m.name for m in g.models.list()]
    assert names == [f"models/{n}" for n in SERVED]
    got = g.models.get(model="gemini-up-1")
    assert got.name == "models/gemini-up-1"
    assert got.supported_actions == ["generateContent", "streamGenerateContent"]
    with pytest.raises(errors.ClientError) as e:
        g.models.get(model="nobody-serves-this")
    assert e.value.code == 404 and e.value.status == "NOT_FOUND"
    # the same path without a Gemini key: OpenAI's and Anthropic's shape
    import httpx

    body = httpx.get(url + "/v1/models", headers={"authorization": f"Bearer {KEY}"}).json()
    assert "data" in body and "models" not in body
    body = httpx.get(url + "/v1beta/models", params={"key": KEY}).json()
    assert [m["name"] for m in body["models"]][-1] == "models/gemini-up-1"


def test_lists_need_the_key(stack: tuple[str, Fake]) -> None:
    import httpx

    url, _ = stack
    r = httpx.get(url + "/v1/models/claude-up-1", headers={"x-api-key": "wrong"})
    assert r.status_code == 401 and r.json()["type"] == "error"  # Anthropic's error shape


# ------------------------------------------------------------------------------ token counts


def png(width: int, height: int, size: int) -> str:
    """A base64 PNG of ``size`` bytes with a real header (the estimate reads only that)."""
    ihdr = struct.pack(">II", width, height) + b"\x08\x02\x00\x00\x00"
    head = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + b"\0\0\0\0"
    return base64.b64encode(head + os.urandom(size - len(head))).decode()


QUESTION = [{"role": "user", "content": "What is the weather like in Paris today?"}]


def test_anthropic_count_is_asked_of_the_upstream_that_can_count(
    stack: tuple[str, Fake],
) -> None:
    url, fake = stack
    c = gu.anthropic_client(url, KEY)
    # an Anthropic upstream: the request as it came, the model mapped
    assert c.messages.count_tokens(model="claude-up-1", messages=QUESTION).input_tokens == 4242
    path, body = fake.counts[-1]
    assert path == "/an/v1/messages/count_tokens" and body["messages"] == QUESTION
    # a Gemini upstream: translated to countTokens, the whole request nested
    r = c.messages.count_tokens(
        model="gemini-up-1",
        system="Be brief.",
        messages=QUESTION,
        tools=[{"name": "weather", "input_schema": {"type": "object"}}],
    )
    assert r.input_tokens == 777
    path, body = fake.counts[-1]
    assert path == "/ge/v1beta/models/gemini-up-1:countTokens"
    inner = body["generateContentRequest"]
    assert inner["model"] == "models/gemini-up-1"
    assert inner["contents"][0]["parts"][0]["text"] == QUESTION[0]["content"]
    assert inner["systemInstruction"]["parts"][0]["text"] == "Be brief."
    assert inner["tools"][0]["functionDeclarations"][0]["name"] == "weather"


def test_google_genai_count_is_asked_of_the_upstream_that_can_count(
    stack: tuple[str, Fake],
) -> None:
    url, fake = stack
    g = genai(url)
    n = len(fake.counts)
    assert g.models.count_tokens(model="gemini-up-1", contents="Hello there").total_tokens == 777
    path, body = fake.counts[-1]
    assert path == "/ge/v1beta/models/gemini-up-1:countTokens"
    assert body["contents"][0]["parts"][0]["text"] == "Hello there"
    # a Gemini client, an Anthropic upstream: its count_tokens, translated
    assert g.models.count_tokens(model="claude-up-1", contents="Hello there").total_tokens == 4242
    path, body = fake.counts[-1]
    assert path == "/an/v1/messages/count_tokens"
    assert body["model"] == "claude-up-1" and "max_tokens" not in body
    assert body["messages"][0]["role"] == "user"
    # no count endpoint (Chat): the estimate, and the upstream is not asked
    k = len(fake.counts)
    est = g.models.count_tokens(model="gpt-up-1", contents="Hello there").total_tokens
    assert est is not None and 1 <= est <= 10
    assert len(fake.counts) == k == n + 2


def test_an_image_is_counted_by_its_size_not_its_bytes(stack: tuple[str, Fake]) -> None:
    """A 300 KB, 1920x1080 screenshot toward a Chat upstream (no count endpoint): OpenAI's
    formula (85 + 170 per 512 px tile after scaling the short side to 768: 1365x768, 6 tiles
    = 1105), plus the text; by its base64 size it would be about 100,000."""
    url, _ = stack
    c = gu.anthropic_client(url, KEY)
    image = png(1920, 1080, 300_000)
    assert len(image) >= 400_000
    msgs = [
        {
            "role": "user",
            "content": [
                {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                             "data": image}},
                {"type": "text", "text": "What is on this screenshot?"},
            ],
        }
    ]  # fmt: skip
    n = c.messages.count_tokens(model="gpt-up-1", messages=msgs).input_tokens
    assert 1105 < n < 1120
    # toward no upstream at all, the caller's own formula: width * height / 750 after scaling
    # to 1568 px and 1.2 megapixels at most (1600)
    n = c.messages.count_tokens(model="nobody-serves-this", messages=msgs).input_tokens
    assert 1600 < n < 1615


def test_the_media_formulas() -> None:
    from interlingua._protocols import protocol
    from interlingua.gateway.estimate import image_size, image_tokens, pdf_pages

    def row(pid: str) -> Any:
        return protocol(pid).HTTP.token_estimate.image

    anthropic, gemini, openai = row("anthropic_messages"), row("gemini"), row("openai_chat")
    assert image_tokens(anthropic, (1000, 1000), None) == 1334
    assert image_tokens(anthropic, (4000, 3000), None) <= 1600  # scaled down first
    assert image_tokens(anthropic, None, None) == 1600
    assert image_tokens(gemini, (300, 200), None) == 258
    assert image_tokens(gemini, (1000, 1000), None) == 4 * 258
    assert image_tokens(openai, (1024, 1024), None) == 765
    assert image_tokens(openai, (4096, 4096), "low") == 85
    assert image_size(png(640, 480, 100)) == (640, 480)
    gif = base64.b64encode(b"GIF89a" + struct.pack("<HH", 33, 44) + b"\0" * 20).decode()
    assert image_size(gif) == (33, 44)
    jpeg = b"\xff\xd8" + b"\xff\xe0\x00\x10" + b"JFIF\0" + b"\0" * 9
    jpeg += b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", 600, 800) + b"\0" * 12
    assert image_size(base64.b64encode(jpeg).decode()) == (800, 600)
    webp = b"RIFF\0\0\0\0WEBPVP8X" + b"\0" * 8 + (799).to_bytes(3, "little")
    webp += (599).to_bytes(3, "little")
    assert image_size(base64.b64encode(webp).decode()) == (800, 600)
    pdf = b"%PDF-1.4\n1 0 obj <</Type /Pages /Count 2>>\n2 0 obj <</Type /Page>>\n"
    pdf += b"3 0 obj <</Type/Page /Parent 1 0 R>>\n"
    assert pdf_pages(base64.b64encode(pdf).decode()) == 2
    assert image_size("bm90IGFuIGltYWdl") is None


def test_responses_input_tokens_are_asked_of_the_upstream_that_can_count(
    stack: tuple[str, Fake],
) -> None:
    """openai ``responses.input_tokens.count`` (POST /v1/responses/input_tokens): an Anthropic
    upstream's count_tokens, a Responses upstream's input_tokens, the estimate for Chat; and an
    Anthropic client's count toward a Responses upstream, translated."""
    url, fake = stack
    c = gu.openai_client(url, KEY)
    r = c.responses.input_tokens.count(model="claude-up-1", input="Hello", instructions="Brief.")
    assert (r.object, r.input_tokens) == ("response.input_tokens", 4242)
    path, body = fake.counts[-1]
    assert path == "/an/v1/messages/count_tokens" and body["system"] == "Brief."
    assert c.responses.input_tokens.count(model="o-up", input="Hello").input_tokens == 99
    assert fake.counts[-1][1] == {"model": "o-up", "input": "Hello"}  # as it came
    est = c.responses.input_tokens.count(model="gpt-up-1", input="Hello there")
    assert est.object == "response.input_tokens" and 1 <= est.input_tokens <= 10
    n = gu.anthropic_client(url, KEY).messages.count_tokens(model="o-up", messages=QUESTION)
    assert n.input_tokens == 99
    path, body = fake.counts[-1]
    assert path == "/rs/v1/responses/input_tokens"
    assert body["model"] == "o-up" and "max_output_tokens" not in body
    assert body["input"][0]["content"] in (
        QUESTION[0]["content"],
        [{"type": "input_text", "text": QUESTION[0]["content"]}],
    )
