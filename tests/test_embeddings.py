"""Embeddings across protocols (spec/embeddings): the library's translations, their losses, the
base64 vectors (exact, hypothesis), the split and join of a batch, the CLI."""

from __future__ import annotations

import base64
import io
import math
import struct
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from interlingua import (
    EMBEDDINGS_PROTOCOLS,
    InvalidInput,
    LossError,
    UnsupportedFeature,
    join_embeddings_responses,
    split_embeddings_request,
    translate_embeddings_request,
    translate_embeddings_response,
)
from interlingua._embed_support import base64_from_vector, vector_from_base64
from interlingua._embeddings import embeddings_protocol

ROOT = Path(__file__).resolve().parent.parent

OPENAI_REQUEST = {
    "model": "text-embedding-3-small",
    "input": ["北京今天会下雨吗？", "北京今日天气预报"],  # seed 003's embeddings request
    "encoding_format": "float",
}
OPENAI_RESPONSE = {
    "object": "list",
    "data": [
        {"object": "embedding", "index": 0, "embedding": [0.0123, -0.0456, 0.0789]},
        {"object": "embedding", "index": 1, "embedding": [0.5, -0.25, 0.125]},
    ],
    "model": "text-embedding-3-small",
    "usage": {"prompt_tokens": 12, "total_tokens": 12},
}
GEMINI_BATCH = {
    "requests": [
        {
            "model": "models/gemini-embedding-001",
            "content": {"parts": [{"text": "What is the meaning of life?"}]},
            "taskType": "RETRIEVAL_DOCUMENT",
            "title": "Life",
            "outputDimensionality": 3,
        },
        {
            "model": "models/gemini-embedding-001",
            "content": {"parts": [{"text": "How does a bird fly?"}]},
            "taskType": "RETRIEVAL_DOCUMENT",
            "outputDimensionality": 3,
        },
    ]
}
GEMINI_RESPONSE = {"embeddings": [{"values": [0.1, -0.2, 0.3]}, {"values": [1e-8, 2.5, -3.0]}]}
COHERE_REQUEST = {
    "model": "embed-v4.0",
    "texts": ["hello", "goodbye"],
    "input_type": "search_query",
    "embedding_types": ["float"],
    "output_dimension": 256,
}
COHERE_RESPONSE = {
    "id": "emb-1",
    "response_type": "embeddings_by_type",
    "embeddings": {"float": [[0.25, -0.5], [1.0, 2.0]]},
    "texts": ["hello", "goodbye"],
    "meta": {"api_version": {"version": "2"}, "billed_units": {"input_tokens": 2}},
}


def test_the_registry_lists_every_spec_file() -> None:
    files = {p.stem for p in (ROOT / "spec" / "embeddings").glob("*.yaml")} - {"canonical"}
    assert set(EMBEDDINGS_PROTOCOLS) == files
    assert embeddings_protocol("openai_chat").PROTOCOL == "openai_embeddings"
    assert embeddings_protocol("openai_responses").PROTOCOL == "openai_embeddings"
    assert embeddings_protocol("gemini").PROTOCOL == "gemini_embeddings"


@pytest.mark.parametrize(
    "pid, body",
    [
        ("openai_embeddings", OPENAI_REQUEST),
        ("openai_embeddings", {"model": "m", "input": "one", "dimensions": 64, "user": "u-1"}),
        ("openai_embeddings", {"model": "m", "input": [1, 2, 3], "encoding_format": "base64"}),
        ("openai_embeddings", {"model": "m", "input": [[1, 2], [3]], "extra_body_key": True}),
        ("gemini_embeddings", GEMINI_BATCH),
        (
            "gemini_embeddings",
            {"content": {"parts": [{"text": "a"}, {"text": "b"}], "role": "user"}},
        ),
        ("gemini_embeddings", {"model": "models/e", "content": {"parts": [{"text": "x"}]}}),
        ("cohere_embeddings", COHERE_REQUEST),
        ("cohere_embeddings", {**COHERE_REQUEST, "input_type": "image", "truncate": "END"}),
    ],
)
def test_same_protocol_request_is_the_identity(pid: str, body: dict[str, Any]) -> None:
    out = translate_embeddings_request(body, source=pid, target=pid)
    assert out.body == body
    assert out.losses == []


@pytest.mark.parametrize(
    "pid, body",
    [
        ("openai_embeddings", OPENAI_RESPONSE),
        ("gemini_embeddings", GEMINI_RESPONSE),
        ("gemini_embeddings", {"embedding": {"values": [0.5, 0.25]}}),
        (
            "gemini_embeddings",
            {
                "embeddings": [{"values": [0.5]}],
                "usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 3},
            },
        ),
    ],
)
def test_same_protocol_response_is_the_identity(pid: str, body: dict[str, Any]) -> None:
    single = {"content": {"parts": [{"text": "x"}]}} if "embedding" in body else None
    single = COHERE_REQUEST if pid == "cohere_embeddings" else single
    out = translate_embeddings_response(body, source=pid, target=pid, request=single)
    assert out.body == body
    assert out.losses == []


def test_openai_base64_answer_stays_base64_and_exact() -> None:
    vec = [0.1, -2.5, 3.0e-5]
    b64 = base64.b64encode(struct.pack("<3f", *vec)).decode()
    body = {**OPENAI_RESPONSE, "data": [{"object": "embedding", "index": 0, "embedding": b64}]}
    out = translate_embeddings_response(
        body, source="openai_embeddings", target="openai_embeddings"
    )
    assert out.body == body
    gem = translate_embeddings_response(body, source="openai_embeddings", target="gemini")
    assert gem.body["embeddings"][0]["values"] == list(struct.unpack("<3f", base64.b64decode(b64)))


def test_openai_request_toward_gemini() -> None:
    body = {**OPENAI_REQUEST, "dimensions": 256, "user": "user-7"}
    out = translate_embeddings_request(body, source="openai_embeddings", target="gemini")
    assert out.body == {
        "requests": [
            {
                "model": "models/text-embedding-3-small",
                "content": {"parts": [{"text": text}]},
                "outputDimensionality": 256,
            }
            for text in OPENAI_REQUEST["input"]
        ]
    }
    assert out.path == "/v1beta/models/text-embedding-3-small:batchEmbedContents"
    assert [(x.path, x.feature) for x in out.losses] == [("user", "user")]
    with pytest.raises(LossError):
        translate_embeddings_request(body, source="openai_chat", target="gemini", strict=True)


def test_gemini_request_toward_openai_reports_task_type_and_title() -> None:
    out = translate_embeddings_request(GEMINI_BATCH, source="gemini", target="openai_chat")
    assert out.body == {
        "model": "gemini-embedding-001",
        "input": ["What is the meaning of life?", "How does a bird fly?"],
        "dimensions": 3,
    }
    assert [(x.path, x.feature) for x in out.losses] == [
        ("inputs[0].task_type", "task_type"),
        ("inputs[0].title", "title"),
        ("inputs[1].task_type", "task_type"),
    ]
    single = {"content": {"parts": [{"text": "a"}, {"text": "b"}]}}
    out = translate_embeddings_request(single, source="gemini", target="openai_chat", model="e")
    assert out.body == {"model": "e", "input": "a\nb"}
    assert [x.feature for x in out.losses] == ["multipart_input"]


def test_what_cannot_be_embedded_is_refused_with_its_path() -> None:
    tokens = {"model": "m", "input": [[1, 2], [3]]}
    with pytest.raises(UnsupportedFeature) as info:
        translate_embeddings_request(tokens, source="openai_embeddings", target="gemini")
    assert info.value.path == "inputs[0]"
    for target in ("cohere", "gemini"):  # text only: one rule for the list and content forms
        with pytest.raises(UnsupportedFeature, match=f"{target}_embeddings takes text only"):
            translate_embeddings_request(
                tokens, source="openai_chat", target=f"{target}_embeddings"
            )
    image = {"content": {"parts": [{"inlineData": {"mimeType": "image/png", "data": "AA=="}}]}}
    for target in ("openai_chat", "cohere_v2"):
        with pytest.raises(UnsupportedFeature, match="content parts other than text") as info:
            translate_embeddings_request(image, source="gemini", target=target, model="m")
        assert info.value.path == "inputs[0]"
    for bad, path in [
        ({"model": "m", "input": []}, "input"),
        ({"model": "m", "input": [1.5]}, "input[0]"),
        ({"model": "m", "input": "x", "encoding_format": "int8"}, "encoding_format"),
        ({"model": "m", "input": "x", "dimensions": "8"}, "dimensions"),
    ]:
        with pytest.raises(InvalidInput) as bad_info:
            translate_embeddings_request(bad, source="openai_embeddings", target="gemini")
        assert bad_info.value.path == path
    mixed = {
        "requests": [
            {**GEMINI_BATCH["requests"][0]},
            {**GEMINI_BATCH["requests"][1], "outputDimensionality": 9},
        ]
    }
    with pytest.raises(InvalidInput, match="one value per call") as info:
        translate_embeddings_request(mixed, source="gemini", target="openai_chat")
    assert info.value.path == "requests[1].outputDimensionality"


def test_gemini_answer_for_an_openai_base64_client() -> None:
    request = {"model": "gemini-embedding-001", "input": ["a", "b"], "encoding_format": "base64"}
    out = translate_embeddings_response(
        GEMINI_RESPONSE, source="gemini", target="openai_chat", request=request
    )
    data = out.body["data"]
    assert [d["index"] for d in data] == [0, 1]
    for d, g in zip(data, GEMINI_RESPONSE["embeddings"], strict=True):
        got = struct.unpack(f"<{len(g['values'])}f", base64.b64decode(d["embedding"]))
        assert struct.pack(f"<{len(got)}f", *got) == struct.pack(f"<{len(got)}f", *g["values"])
    assert out.body["model"] == "gemini-embedding-001"
    assert out.body["usage"] == {"prompt_tokens": 0, "total_tokens": 0}
    assert [(x.path, x.feature) for x in out.losses] == [("usage", "usage")]


def test_openai_answer_out_of_order_for_a_gemini_client() -> None:
    body = {**OPENAI_RESPONSE, "data": OPENAI_RESPONSE["data"][::-1]}
    out = translate_embeddings_response(body, source="openai_embeddings", target="gemini")
    assert out.body == {
        "embeddings": [{"values": d["embedding"]} for d in OPENAI_RESPONSE["data"]],
        "usageMetadata": {"promptTokenCount": 12, "totalTokenCount": 12},
    }
    one = {"content": {"parts": [{"text": "x"}]}}
    first = {**OPENAI_RESPONSE, "data": OPENAI_RESPONSE["data"][:1]}
    out = translate_embeddings_response(
        first, source="openai_embeddings", target="gemini", request=one
    )
    assert out.body["embedding"] == {"values": [0.0123, -0.0456, 0.0789]}
    dup = {**OPENAI_RESPONSE, "data": [OPENAI_RESPONSE["data"][0]] * 2}
    with pytest.raises(InvalidInput, match="indices"):
        translate_embeddings_response(dup, source="openai_embeddings", target="gemini")


def test_split_and_join_keep_input_order() -> None:
    texts = [f"doc {i}" for i in range(5)]
    parts = split_embeddings_request(
        {"model": "m", "input": texts}, protocol="openai_chat", max_inputs=2
    )
    assert [p["input"] for p in parts] == [texts[0:2], texts[2:4], texts[4:5]]
    answers = [
        {
            "object": "list",
            "model": "m",
            "usage": {"prompt_tokens": len(p["input"]), "total_tokens": len(p["input"])},
            "data": [
                {"object": "embedding", "index": i, "embedding": [float(k * 10 + i)]}
                for i in range(len(p["input"]))
            ],
        }
        for k, p in enumerate(parts)
    ]
    joined = join_embeddings_responses(answers, protocol="openai_embeddings")
    assert [d["index"] for d in joined["data"]] == [0, 1, 2, 3, 4]
    assert [d["embedding"] for d in joined["data"]] == [[0.0], [1.0], [10.0], [11.0], [20.0]]
    assert joined["usage"] == {"prompt_tokens": 5, "total_tokens": 5}
    big = {"requests": [{"content": {"parts": [{"text": str(i)}]}} for i in range(250)]}
    assert [len(p["requests"]) for p in split_embeddings_request(big, protocol="gemini")] == [
        100,
        100,
        50,
    ]


FLOAT32 = st.floats(width=32, allow_nan=False)


@given(st.lists(FLOAT32, max_size=64))
def test_base64_round_trip_is_exact(values: list[float]) -> None:
    raw = struct.pack(f"<{len(values)}f", *values)
    text = base64.b64encode(raw).decode()
    assert base64_from_vector(vector_from_base64(text, "v"), "v") == text
    assert vector_from_base64(base64_from_vector(values, "v"), "v") == values


@given(
    st.lists(
        st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6), max_size=16
    )
)
def test_base64_rounds_doubles_to_the_nearest_float32(values: list[float]) -> None:
    got = vector_from_base64(base64_from_vector(values, "v"), "v")
    for x, y in zip(values, got, strict=True):
        assert y == struct.unpack("<f", struct.pack("<f", x))[0]
        assert math.isclose(x, y, rel_tol=2**-23, abs_tol=1e-38)


def test_bad_base64_and_out_of_range_values() -> None:
    with pytest.raises(InvalidInput, match="base64"):
        vector_from_base64("***", "data[0].embedding")
    with pytest.raises(InvalidInput, match="whole number of float32"):
        vector_from_base64(base64.b64encode(b"abc").decode(), "data[0].embedding")
    with pytest.raises(InvalidInput, match="float32 range") as info:
        base64_from_vector([0.0, 1e39], "data[0].embedding")
    assert info.value.path == "data[0].embedding[1]"


def test_cli_takes_the_kind(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path
) -> None:
    from interlingua._cli import main

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(orjson.dumps(GEMINI_BATCH))))
    assert (
        main(
            [
                "translate",
                "--kind",
                "embeddings-request",
                "--from",
                "gemini",
                "--to",
                "openai_chat",
                "-",
            ]
        )
        == 0
    )
    out, err = capsysbinary.readouterr()
    assert orjson.loads(out)["input"] == ["What is the meaning of life?", "How does a bird fly?"]
    assert b"loss: inputs[0].task_type" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(orjson.dumps(GEMINI_RESPONSE))))
    assert (
        main(
            [
                "translate",
                "--kind",
                "embeddings-response",
                "--from",
                "gemini",
                "--to",
                "openai_embeddings",
                "-",
            ]
        )
        == 0
    )
    out, _ = capsysbinary.readouterr()
    assert orjson.loads(out)["data"][1]["embedding"] == [1e-8, 2.5, -3.0]
    asked = tmp_path / "request.json"  # the client's own request: base64 vectors
    asked.write_bytes(
        orjson.dumps({"model": "m", "input": ["a", "b"], "encoding_format": "base64"})
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(orjson.dumps(GEMINI_RESPONSE))))
    argv = ["translate", "--kind", "embeddings-response", "--from", "gemini", "--to"]
    assert main([*argv, "openai_embeddings", "--request", str(asked), "-"]) == 0
    out, _ = capsysbinary.readouterr()
    vector = orjson.loads(out)["data"][1]["embedding"]
    assert vector_from_base64(vector, "v") == pytest.approx([1e-8, 2.5, -3.0], rel=1e-6)


def test_cohere_one_input_type_per_call_and_its_default() -> None:
    out = translate_embeddings_request(GEMINI_BATCH, source="gemini", target="cohere_embeddings")
    assert out.body == {
        "model": "gemini-embedding-001",
        "texts": ["What is the meaning of life?", "How does a bird fly?"],
        "output_dimension": 3,
        "input_type": "search_document",
        "embedding_types": ["float"],
    }
    assert [(x.path, x.feature) for x in out.losses] == [("inputs[0].title", "title")]
    out = translate_embeddings_request(OPENAI_REQUEST, source="openai_chat", target="cohere_v2")
    assert out.body["input_type"] == "search_document" and out.losses == []
    similar = {"requests": [{**GEMINI_BATCH["requests"][1], "taskType": "SEMANTIC_SIMILARITY"}]}
    out = translate_embeddings_request(similar, source="gemini", target="cohere_v2")
    assert out.body["input_type"] == "search_document"
    assert [x.what for x in out.losses] == [
        "task type 'semantic_similarity' has no cohere_embeddings equivalent: sent as 'search_document'"
    ]
    mixed = {
        "requests": [
            GEMINI_BATCH["requests"][0],
            {**GEMINI_BATCH["requests"][1], "taskType": "RETRIEVAL_QUERY"},
        ]
    }
    out = translate_embeddings_request(mixed, source="gemini", target="cohere_v2")
    assert out.body["input_type"] == "search_document"
    assert ("inputs[1].task_type", "task_type") in [(x.path, x.feature) for x in out.losses]
    back = translate_embeddings_request(COHERE_REQUEST, source="cohere_v2", target="gemini")
    assert [r["taskType"] for r in back.body["requests"]] == ["RETRIEVAL_QUERY"] * 2
    assert [x.path for x in back.losses] == ["embedding_types"]


def test_cohere_answer_for_openai_and_gemini_clients() -> None:
    out = translate_embeddings_response(
        COHERE_RESPONSE,
        source="cohere_v2",
        target="openai_chat",
        request={"model": "m", "input": ["a", "b"]},
    )
    assert [d["embedding"] for d in out.body["data"]] == COHERE_RESPONSE["embeddings"]["float"]
    assert out.body["usage"] == {"prompt_tokens": 2, "total_tokens": 2}  # total: the input
    assert [x.path for x in out.losses] == ["meta.api_version"]
    out = translate_embeddings_response(
        OPENAI_RESPONSE, source="openai_chat", target="cohere_v2", request=COHERE_REQUEST
    )
    assert out.body == {
        "response_type": "embeddings_by_type",
        "embeddings": {"float": [d["embedding"] for d in OPENAI_RESPONSE["data"]]},
        "texts": ["hello", "goodbye"],
        "meta": {"billed_units": {"input_tokens": 12}},
    }


@pytest.mark.parametrize("target", ["openai_embeddings", "cohere_embeddings"])
def test_gemini_content_keys_beyond_parts_are_reported_toward_text_protocols(target: str) -> None:
    body = {"model": "models/e", "content": {"parts": [{"text": "x"}], "role": "user"}}
    out = translate_embeddings_request(body, source="gemini_embeddings", target=target)
    roles = [loss for loss in out.losses if loss.path.endswith(".role")]
    assert len(roles) == 1 and "'role'" in roles[0].what
    assert roles[0].feature == "multipart_input"
    plain = {"model": "models/e", "content": {"parts": [{"text": "x"}]}}
    assert not translate_embeddings_request(plain, source="gemini_embeddings", target=target).losses
