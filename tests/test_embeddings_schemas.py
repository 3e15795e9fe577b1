"""The embeddings rows agree with the vendors' own schemas in ../shared/fixtures/schemas (the
OpenAI and Cohere OpenAPI files, Gemini's protos): batch limits, encodings, task types, and the
fields each answer requires are written by our encoders. Skips cleanly without ../shared."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import yaml
from interlingua import translate_embeddings_request, translate_embeddings_response
from interlingua._embeddings import embeddings_protocol

from tests.conftest import need_fixtures


@cache
def openai_schemas() -> dict[str, Any]:
    path = need_fixtures() / "schemas" / "openai" / "openapi.json"
    return json.loads(path.read_text(encoding="utf-8"))["components"]["schemas"]  # type: ignore[no-any-return]


@cache
def cohere_spec() -> dict[str, Any]:
    path = need_fixtures() / "schemas" / "cohere" / "cohere-openapi.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


GEMINI = {
    "requests": [
        {"content": {"parts": [{"text": "a"}]}, "taskType": "RETRIEVAL_QUERY"},
        {"content": {"parts": [{"text": "b"}]}, "taskType": "RETRIEVAL_QUERY"},
    ]
}
GEMINI_ANSWER = {"embeddings": [{"values": [0.5, -0.25]}, {"values": [1.0, 0.0]}]}


def test_openai_rows_match_the_openapi_file() -> None:
    s = openai_schemas()
    req = s["CreateEmbeddingRequest"]
    forms = req["properties"]["input"]["oneOf"]
    assert {f["maxItems"] for f in forms if f["type"] == "array"} == {
        embeddings_protocol("openai_embeddings").MAX_INPUTS
    }
    assert req["properties"]["encoding_format"]["enum"] == list(
        embeddings_protocol("openai_embeddings").ENCODINGS
    )
    body = translate_embeddings_request(
        GEMINI, source="gemini", target="openai_chat", model="m"
    ).body
    assert set(body) <= set(req["properties"]) and set(req["required"]) <= set(body)
    answer = translate_embeddings_response(
        GEMINI_ANSWER, source="gemini", target="openai_chat", request=body
    ).body
    resp = s["CreateEmbeddingResponse"]
    assert set(resp["required"]) <= set(answer) and set(answer) <= set(resp["properties"])
    item = s["Embedding"]
    for d in answer["data"]:
        assert set(item["required"]) <= set(d) and set(d) <= set(item["properties"])
    assert set(resp["properties"]["usage"]["required"]) == set(answer["usage"])


def test_cohere_rows_match_the_openapi_file() -> None:
    spec = cohere_spec()
    req = spec["paths"]["/v2/embed"]["post"]["requestBody"]["content"]["application/json"]
    props = req["schema"]["properties"]
    codec = embeddings_protocol("cohere_embeddings")
    assert props["texts"]["maxItems"] == codec.MAX_INPUTS
    kinds = spec["components"]["schemas"]["EmbedInputType"]["enum"]
    assert set(codec.TASK_DECODE) <= set(kinds)
    body = translate_embeddings_request(GEMINI, source="gemini", target="cohere_v2", model="m").body
    assert set(req["schema"]["required"]) <= set(body) and set(body) <= set(props)
    assert body["input_type"] == "search_query"


def test_gemini_rows_match_the_protos() -> None:
    proto = (
        need_fixtures()
        / "schemas/gemini/googleapis-protos/google/ai/generativelanguage/v1beta"
        / "generative_service.proto"
    ).read_text(encoding="utf-8")
    enum = re.search(r"enum TaskType \{(.*?)\}", proto, re.S)
    assert enum is not None
    names = set(re.findall(r"^\s*([A-Z_]+) = \d+;", enum.group(1), re.M))
    assert set(embeddings_protocol("gemini_embeddings").TASK_DECODE) == names
    request = re.search(r"message EmbedContentRequest \{(.*?)\n\}", proto, re.S)
    assert request is not None
    wire = {"model", "content", "taskType", "title", "outputDimensionality"}
    snake = set(re.findall(r"^\s*(?:optional |repeated )?\w+ (\w+) = \d+", request.group(1), re.M))
    assert {re.sub(r"_(\w)", lambda m: m.group(1).upper(), n) for n in snake} == wire
    assert "repeated float values = 1;" in proto  # float32: base64 of them is exact
