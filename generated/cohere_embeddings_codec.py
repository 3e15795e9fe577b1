# Generated from spec/embeddings/cohere_embeddings.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Cohere v2 Embed codec: rows of spec/embeddings/cohere_embeddings.yaml as straight-line code."""

from __future__ import annotations

from typing import Any

from interlingua._codec_support import dig, drop_ext, report_ext, split_ext
from interlingua._embed_support import (
    input_text,
    vector_from_floats,
)
from interlingua._errors import InvalidInput, UnsupportedFeature
from interlingua._losses import Ctx
from interlingua._wire import _kind, expect_dict, expect_int, expect_list, expect_str

from .embeddings_canonical import (
    Embedding,
    EmbeddingsRequest,
    EmbeddingsResponse,
    EmbedInput,
    EmbedUsage,
)

PROTOCOL = "cohere_embeddings"
TITLE = "Cohere v2 Embed"
UPSTREAMS: tuple[str, ...] = ("cohere_v2",)
ERRORS = "cohere_v2"  # its clients read errors in this protocol's shape
MAX_INPUTS = 96  # inputs per call; a larger batch is split
INBOUND_PATHS: tuple[str, ...] = ("/v2/embed",)
MODEL_PREFIXES: tuple[str, ...] = ()
ACTIONS: dict[str, str] = {}
UPSTREAM_PATH = "/embed"
BATCH_KEY = None  # the request objects' list (None: inputs in one field)
MODEL_IN_PATH = False
ENCODINGS: tuple[str, ...] = ("float",)
TASK_DECODE: dict[str, str] = {
    "search_document": "retrieval_document",
    "search_query": "retrieval_query",
    "classification": "classification",
    "clustering": "clustering",
}
TASK_ENCODE: dict[str, str] = {
    "retrieval_document": "search_document",
    "retrieval_query": "search_query",
    "classification": "classification",
    "clustering": "clustering",
}
_REQUEST_KEYS = frozenset(["input_type", "model", "output_dimension", "texts"])
_RESPONSE_KEYS = frozenset(["embeddings", "id", "meta", "response_type", "texts"])
_ITEM_KEYS = frozenset([""])
_RESPONSE_NESTED: dict[str, frozenset[str]] = {
    "embeddings": frozenset(["float"]),
    "meta": frozenset(["billed_units"]),
}
SUPPORT: dict[str, tuple[str, str]] = {
    "text_input": ("full", "texts"),
    "token_input": ("unsupported", "text only: token arrays are refused (no tokenizer)"),
    "multipart_input": (
        "lossy",
        "one string per text: several text parts are joined with a newline; inputs[] (mixed text and images) is not read",
    ),
    "dimensions": ("full", "output_dimension (Embed v4)"),
    "vector_encoding": (
        "lossy",
        "float vectors (embedding_types [float]); int8 / binary / base64 types only between Cohere endpoints",
    ),
    "task_type": (
        "lossy",
        "one input_type per call (search_document when none is given); semantic similarity and the Gemini-only types have none",
    ),
    "title": ("unsupported", ""),
    "user": ("unsupported", ""),
    "usage": ("lossy", "meta.billed_units.input_tokens"),
    "batch": ("full", "up to 96 texts per call"),
    "extensions": ("lossy", "fields with no canonical home go back only to this protocol"),
}


def _count(v: Any, path: str) -> int | None:
    return None if v is None else expect_int(v, path)


def _read_inputs(v: Any) -> tuple[list[EmbedInput], bool]:
    """The inputs of the call (``texts``), and whether one came unlisted."""
    items = expect_list(v, "texts")
    if not items:
        raise InvalidInput("expected at least one input", path="texts")
    out: list[EmbedInput] = []
    for i, x in enumerate(items):
        if type(x) is str:
            out.append(EmbedInput(text=x))
        else:
            raise InvalidInput(f"expected a string, got {_kind(x)}", path=f"texts[{i}]")
    return out, False


def _dec_fields(w: dict[str, Any], path: str, req: EmbeddingsRequest, k: int) -> None:
    v = w.get("model")
    if v is not None:
        v = expect_str(v, path + "model")
        req.model = v
    v = w.get("output_dimension")
    if v is not None:
        v = expect_int(v, path + "output_dimension")
        req.dimensions = v
    return None


def decode_request(w: Any, ctx: Ctx) -> EmbeddingsRequest:
    w = expect_dict(w, "")
    req = EmbeddingsRequest(source=PROTOCOL)
    req.inputs, single = _read_inputs(w.get("texts"))
    _dec_fields(w, "", req, 0)
    req.ext = split_ext(w, _REQUEST_KEYS)
    v = w.get("input_type")
    if v is not None:
        v = expect_str(v, "input_type")
        v = TASK_DECODE.get(v, v)  # an unknown raw value is kept raw
        req.inputs[0].task_type = v
    for inp in req.inputs[1:]:
        inp.task_type = req.inputs[0].task_type
    req.hints = {"single": single}
    return req


def encode_request(req: EmbeddingsRequest, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}
    off = req.hints.get("offset", 0) if req.hints else 0  # a part of a split batch
    if req.user is not None:
        ctx.loss("user", "user dropped", "cohere_embeddings unsupported", "user")
    values: list[Any] = []
    for k, inp in enumerate(req.inputs):
        path = f"inputs[{k + off}]"
        if inp.tokens is not None:
            raise UnsupportedFeature(
                "cohere_embeddings takes text only: token arrays cannot be sent (no tokenizer)",
                path=path,
            )
        if inp.title is not None:
            ctx.loss(path + ".title", "title dropped", "cohere_embeddings unsupported", "title")
        values.append(
            input_text(
                inp,
                path,
                ctx,
                "cohere_embeddings lossy: one string per text: several text parts are joined with a newline; inputs[] (mixed text and images) is not read",
            )
        )
        if inp.ext:
            report_ext(inp.ext, path, ctx)
    if req.model is not None:
        out["model"] = req.model
    out["texts"] = values
    if req.dimensions is not None:
        out["output_dimension"] = req.dimensions
    shared = req.inputs[0] if req.inputs else EmbedInput()
    for k, inp in enumerate(req.inputs):
        if inp.task_type != shared.task_type:
            ctx.loss(
                f"inputs[{k + off}].task_type",
                f"differs from the first input's ({shared.task_type!r}): one value per call",
                "cohere_embeddings lossy: one input_type per call (search_document when none is given); semantic similarity and the Gemini-only types have none",
                "task_type",
            )
    if shared.task_type is not None:
        raw = TASK_ENCODE.get(shared.task_type, shared.task_type if ctx.same else None)
        if raw is None:
            ctx.loss(
                "inputs[0]" + ".task_type",
                f"task type {shared.task_type!r} has no {ctx.target} equivalent: sent as 'search_document'",
                "no row",
                "task_type",
            )
            raw = "search_document"
        out["input_type"] = raw
    else:
        out["input_type"] = "search_document"
    if req.ext:
        drop_ext(req.ext, out, "", ctx)
    out.setdefault("embedding_types", ["float"])
    return out


def decode_response(w: Any, ctx: Ctx) -> EmbeddingsResponse:
    w = expect_dict(w, "")
    resp = EmbeddingsResponse(source=PROTOCOL)
    items: Any = dig(w, ["embeddings", "float"], "")
    base = "embeddings.float"
    for k, it in enumerate(expect_list(items, base)):
        p = f"{base}[{k}]"
        v = it
        vec = vector_from_floats(v, p)
        resp.embeddings.append(Embedding(index=k, vector=vec, ext=None))
    v = w.get("id")
    if v is not None:
        v = expect_str(v, "id")
        resp.id = v
    u = dig(w, ["meta", "billed_units"], "")
    if u is not None:
        u = expect_dict(u, "meta.billed_units")
        resp.usage = EmbedUsage(
            input_tokens=_count(u.get("input_tokens"), "meta.billed_units.input_tokens"),
        )
    resp.ext = split_ext(w, _RESPONSE_KEYS, _RESPONSE_NESTED)
    return resp


def encode_response(
    resp: EmbeddingsResponse, ctx: Ctx, req: EmbeddingsRequest | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"response_type": "embeddings_by_type"}
    v = resp.id if resp.id is not None else (getattr(req, "id", None) if req is not None else None)
    if v is not None:
        out["id"] = v
    items: list[Any] = [e.vector for e in resp.embeddings]
    out.setdefault("embeddings", {})["float"] = items
    if req is not None:
        out["texts"] = [i.text or "" for i in req.inputs]
    u = resp.usage
    if u is not None:
        usage = {
            "input_tokens": u.input_tokens,
        }
        out.setdefault("meta", {})["billed_units"] = {
            k: v for k, v in usage.items() if v is not None
        }
    if resp.ext:
        drop_ext(resp.ext, out, "", ctx)
    return out
