# Generated from spec/embeddings/gemini_embeddings.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Gemini embedContent / batchEmbedContents codec: rows of spec/embeddings/gemini_embeddings.yaml as straight-line code."""

from __future__ import annotations

from typing import Any

from interlingua._codec_support import drop_ext, split_ext
from interlingua._embed_support import (
    PART_JOINER,
    input_text,
    vector_from_floats,
)
from interlingua._errors import InvalidInput, UnsupportedFeature
from interlingua._losses import Ctx
from interlingua._wire import expect_dict, expect_int, expect_list, expect_str

from .embeddings_canonical import (
    Embedding,
    EmbeddingsRequest,
    EmbeddingsResponse,
    EmbedInput,
    EmbedUsage,
)

PROTOCOL = "gemini_embeddings"
TITLE = "Gemini embedContent / batchEmbedContents"
UPSTREAMS: tuple[str, ...] = ("gemini",)
ERRORS = "gemini"  # its clients read errors in this protocol's shape
MAX_INPUTS = 100  # inputs per call; a larger batch is split
INBOUND_PATHS: tuple[str, ...] = ()
MODEL_PREFIXES: tuple[str, ...] = ("/v1beta/models/", "/v1/models/", "/models/")
ACTIONS: dict[str, str] = {"embedContent": "single", "batchEmbedContents": "batch"}
UPSTREAM_PATH = "/models/{model}:batchEmbedContents"
BATCH_KEY = "requests"  # the request objects' list (None: inputs in one field)
MODEL_IN_PATH = True
ENCODINGS: tuple[str, ...] = ("float",)
TASK_DECODE: dict[str, str] = {
    "RETRIEVAL_QUERY": "retrieval_query",
    "RETRIEVAL_DOCUMENT": "retrieval_document",
    "SEMANTIC_SIMILARITY": "semantic_similarity",
    "CLASSIFICATION": "classification",
    "CLUSTERING": "clustering",
    "QUESTION_ANSWERING": "question_answering",
    "FACT_VERIFICATION": "fact_verification",
    "CODE_RETRIEVAL_QUERY": "code_retrieval_query",
    "TASK_TYPE_UNSPECIFIED": "unspecified",
}
TASK_ENCODE: dict[str, str] = {
    "retrieval_query": "RETRIEVAL_QUERY",
    "retrieval_document": "RETRIEVAL_DOCUMENT",
    "semantic_similarity": "SEMANTIC_SIMILARITY",
    "classification": "CLASSIFICATION",
    "clustering": "CLUSTERING",
    "question_answering": "QUESTION_ANSWERING",
    "fact_verification": "FACT_VERIFICATION",
    "code_retrieval_query": "CODE_RETRIEVAL_QUERY",
    "unspecified": "TASK_TYPE_UNSPECIFIED",
}
_REQUEST_KEYS = frozenset(["content", "model", "outputDimensionality", "taskType", "title"])
_RESPONSE_KEYS = frozenset(["embedding", "embeddings", "usageMetadata"])
_ITEM_KEYS = frozenset(["values"])
_RESPONSE_NESTED: dict[str, frozenset[str]] = {}
SUPPORT: dict[str, tuple[str, str]] = {
    "text_input": ("full", "content.parts[].text"),
    "token_input": (
        "unsupported",
        "text only: token arrays are refused (no tokenizer to turn them into text)",
    ),
    "multipart_input": (
        "full",
        "several parts in one content; parts other than text only between Gemini endpoints",
    ),
    "dimensions": ("full", "outputDimensionality (one value per call)"),
    "vector_encoding": (
        "lossy",
        "values are JSON numbers; the gateway encodes base64 for an OpenAI caller",
    ),
    "task_type": ("full", "taskType per input"),
    "title": ("full", "title per input"),
    "user": ("unsupported", ""),
    "usage": ("lossy", "usageMetadata when the API sends it"),
    "batch": ("full", "up to 100 requests per batchEmbedContents call"),
    "extensions": ("lossy", "fields with no canonical home go back only to this protocol"),
}


def _count(v: Any, path: str) -> int | None:
    return None if v is None else expect_int(v, path)


def _read_content(v: Any, path: str) -> EmbedInput:
    """A content object (``{parts: [{text}, ...]}``) -> one input."""
    c = expect_dict(v, path)
    parts = expect_list(c.get("parts"), path + ".parts")
    texts: list[str] = []
    for k, p in enumerate(parts):
        p = expect_dict(p, f"{path}.parts[{k}]")
        t = p.get("text")
        if t is not None and len(p) == 1:
            texts.append(expect_str(t, f"{path}.parts[{k}].text"))
    inp = EmbedInput(text=PART_JOINER.join(texts))
    if len(texts) != len(parts) or len(texts) != 1 or len(c) != 1:
        said = [k for k, x in c.items() if k != "parts" and x is not None]
        other = len(texts) != len(parts)  # a part that is not one text
        inp.hints = {"wire": c, "other_parts": other, "text_parts": len(texts), "fields": said}
    return inp


def _dec_fields(w: dict[str, Any], path: str, req: EmbeddingsRequest, k: int) -> None:
    v = w.get("model")
    if v is not None:
        v = expect_str(v, path + "model")
        v = v.removeprefix("models/")
        if k and req.model is not None and v != req.model:
            raise InvalidInput(
                f"differs from the first request ({req.model!r}): one value per call",
                path=path + "model",
            )
        req.model = v
    v = w.get("outputDimensionality")
    if v is not None:
        v = expect_int(v, path + "outputDimensionality")
        if k and req.dimensions is not None and v != req.dimensions:
            raise InvalidInput(
                f"differs from the first request ({req.dimensions!r}): one value per call",
                path=path + "outputDimensionality",
            )
        req.dimensions = v
    return None


def decode_request(w: Any, ctx: Ctx) -> EmbeddingsRequest:
    w = expect_dict(w, "")
    req = EmbeddingsRequest(source=PROTOCOL)
    objs: Any = w.get("requests")
    single = objs is None  # the single form: the body is one request object
    if single:
        objs, base = [w], ""
    else:
        objs, base = expect_list(objs, "requests"), "requests"
        if not objs:
            raise InvalidInput("expected at least one request", path=base)
        req.ext = split_ext(w, frozenset({"requests"}))
    for k, o in enumerate(objs):
        path = f"{base}[{k}]." if base else ""
        o = expect_dict(o, path.rstrip("."))
        inp = _read_content(o.get("content"), path + "content")
        _dec_input(o, path, inp)
        _dec_fields(o, path, req, k)
        req.inputs.append(inp)
    req.hints = {"single": single}
    return req


def _dec_input(o: dict[str, Any], path: str, inp: EmbedInput) -> None:
    v = o.get("taskType")
    if v is not None:
        v = expect_str(v, path + "taskType")
        v = TASK_DECODE.get(v, v)  # an unknown raw value is kept raw
        inp.task_type = v
    v = o.get("title")
    if v is not None:
        v = expect_str(v, path + "title")
        inp.title = v
    inp.ext = split_ext(o, _REQUEST_KEYS)


def encode_request(req: EmbeddingsRequest, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}
    single = bool(req.hints and req.hints.get("single"))
    off = req.hints.get("offset", 0) if req.hints else 0  # a part of a split batch
    if req.user is not None:
        ctx.loss("user", "user dropped", "gemini_embeddings unsupported", "user")
    objs: list[dict[str, Any]] = []
    for k, inp in enumerate(req.inputs):
        path = f"inputs[{k + off}]"
        if inp.tokens is not None:
            raise UnsupportedFeature(
                "gemini_embeddings takes text only: token arrays cannot be sent (no tokenizer)",
                path=path,
            )
        o: dict[str, Any] = {}
        if req.model is not None:
            o["model"] = "models/" + req.model.removeprefix("models/")
        if ctx.same and inp.hints is not None and "wire" in inp.hints:  # as it came
            o["content"] = dict(inp.hints["wire"])
        else:
            o["content"] = {"parts": [{"text": input_text(inp, path, ctx)}]}
        if req.dimensions is not None:
            o["outputDimensionality"] = req.dimensions
        if inp.task_type is not None:
            raw = TASK_ENCODE.get(inp.task_type, inp.task_type if ctx.same else None)
            if raw is None:
                ctx.loss(
                    path + ".task_type",
                    f"task type {inp.task_type!r} has no {ctx.target} equivalent",
                    "no row",
                    "task_type",
                )
            else:
                o["taskType"] = raw
        if inp.title is not None:
            o["title"] = inp.title
        if inp.ext:
            drop_ext(inp.ext, o, path, ctx)
        objs.append(o)
    if single and ctx.same and len(objs) == 1:
        return objs[0]
    out["requests"] = objs
    if req.ext:
        drop_ext(req.ext, out, "", ctx)
    return out


def decode_response(w: Any, ctx: Ctx) -> EmbeddingsResponse:
    w = expect_dict(w, "")
    resp = EmbeddingsResponse(source=PROTOCOL)
    items: Any = w.get("embeddings")
    base = "embeddings"
    if items is None and "embedding" in w:
        items, base = [w["embedding"]], "embedding"
        resp.hints = {"single": True}
    for k, it in enumerate(expect_list(items, base)):
        p = f"{base}[{k}]" if base != "embedding" else base
        it = expect_dict(it, p)
        v = it.get("values")
        vec = vector_from_floats(v, p + ".values")
        resp.embeddings.append(Embedding(index=k, vector=vec, ext=split_ext(it, _ITEM_KEYS)))
    u = w.get("usageMetadata")
    if u is not None:
        u = expect_dict(u, "usageMetadata")
        resp.usage = EmbedUsage(
            input_tokens=_count(u.get("promptTokenCount"), "usageMetadata.promptTokenCount"),
            total_tokens=_count(u.get("totalTokenCount"), "usageMetadata.totalTokenCount"),
        )
    resp.ext = split_ext(w, _RESPONSE_KEYS, _RESPONSE_NESTED)
    return resp


def encode_response(
    resp: EmbeddingsResponse, ctx: Ctx, req: EmbeddingsRequest | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    items: list[Any] = []
    for k, e in enumerate(resp.embeddings):
        it: dict[str, Any] = {}
        it["values"] = e.vector
        if e.ext:
            drop_ext(e.ext, it, f"embeddings[{k}]", ctx)
        items.append(it)
    if req is not None and (req.hints or {}).get("single") and len(items) == 1:
        out["embedding"] = items[0]
    else:
        out["embeddings"] = items
    u = resp.usage
    if u is not None:
        usage = {
            "promptTokenCount": u.input_tokens,
            "totalTokenCount": u.total_tokens if u.total_tokens is not None else u.input_tokens,
        }
        out["usageMetadata"] = {k: v for k, v in usage.items() if v is not None}
    if resp.ext:
        drop_ext(resp.ext, out, "", ctx)
    return out
