# Generated from spec/embeddings/openai_embeddings.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""OpenAI Embeddings codec: rows of spec/embeddings/openai_embeddings.yaml as straight-line code."""

from __future__ import annotations

from typing import Any

from interlingua._codec_support import drop_ext, report_ext, split_ext
from interlingua._embed_support import (
    base64_from_vector,
    in_index_order,
    input_text,
    token_ids,
    vector_from_base64,
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

PROTOCOL = "openai_embeddings"
TITLE = "OpenAI Embeddings"
UPSTREAMS: tuple[str, ...] = ("openai_chat", "openai_responses")
ERRORS = "openai_chat"  # its clients read errors in this protocol's shape
MAX_INPUTS = 2048  # inputs per call; a larger batch is split
INBOUND_PATHS: tuple[str, ...] = ("/v1/embeddings", "/embeddings")
MODEL_PREFIXES: tuple[str, ...] = ()
ACTIONS: dict[str, str] = {}
UPSTREAM_PATH = "/embeddings"
BATCH_KEY = None  # the request objects' list (None: inputs in one field)
MODEL_IN_PATH = False
ENCODINGS: tuple[str, ...] = ("float", "base64")
TASK_DECODE: dict[str, str] = {}
TASK_ENCODE: dict[str, str] = {}
_REQUEST_KEYS = frozenset(["dimensions", "encoding_format", "input", "model", "user"])
_RESPONSE_KEYS = frozenset(["data", "model", "object", "usage"])
_ITEM_KEYS = frozenset(["embedding", "index", "object"])
_RESPONSE_NESTED: dict[str, frozenset[str]] = {}
SUPPORT: dict[str, tuple[str, str]] = {
    "text_input": ("full", ""),
    "token_input": ("full", "a token array or a list of them"),
    "multipart_input": (
        "lossy",
        "one string per input: several text parts are joined with a newline",
    ),
    "dimensions": ("full", "dimensions"),
    "vector_encoding": ("full", "encoding_format: base64 (little-endian float32)"),
    "task_type": ("unsupported", "no task type: the model embeds queries and documents alike"),
    "title": ("unsupported", ""),
    "user": ("full", ""),
    "usage": ("full", "prompt_tokens, total_tokens"),
    "batch": ("full", "up to 2048 inputs per call"),
    "extensions": ("lossy", "fields with no canonical home go back only to this protocol"),
}


def _count(v: Any, path: str) -> int | None:
    return None if v is None else expect_int(v, path)


def _read_inputs(v: Any) -> tuple[list[EmbedInput], bool]:
    """The inputs of the call (``input``), and whether one came unlisted."""
    if type(v) is str:
        return [EmbedInput(text=v)], True
    items = expect_list(v, "input")
    if not items:
        raise InvalidInput("expected at least one input", path="input")
    if type(items[0]) is int:
        return [EmbedInput(tokens=token_ids(items, "input"))], True
    out: list[EmbedInput] = []
    for i, x in enumerate(items):
        if type(x) is str:
            out.append(EmbedInput(text=x))
        elif type(x) is list:
            out.append(EmbedInput(tokens=token_ids(x, f"input[{i}]")))
        else:
            raise InvalidInput(
                f"expected a string or a token array, got {_kind(x)}", path=f"input[{i}]"
            )
    return out, False


def _dec_fields(w: dict[str, Any], path: str, req: EmbeddingsRequest, k: int) -> None:
    v = w.get("model")
    if v is not None:
        v = expect_str(v, path + "model")
        req.model = v
    v = w.get("dimensions")
    if v is not None:
        v = expect_int(v, path + "dimensions")
        req.dimensions = v
    v = w.get("encoding_format")
    if v is not None:
        v = expect_str(v, path + "encoding_format")
        if v not in ENCODINGS:
            raise InvalidInput(
                f"expected one of {', '.join(ENCODINGS)}, got {v!r:.40}",
                path=path + "encoding_format",
            )
        req.encoding_format = v
    v = w.get("user")
    if v is not None:
        v = expect_str(v, path + "user")
        req.user = v
    return None


def decode_request(w: Any, ctx: Ctx) -> EmbeddingsRequest:
    w = expect_dict(w, "")
    req = EmbeddingsRequest(source=PROTOCOL)
    req.inputs, single = _read_inputs(w.get("input"))
    _dec_fields(w, "", req, 0)
    req.ext = split_ext(w, _REQUEST_KEYS)
    req.hints = {"single": single}
    return req


def encode_request(req: EmbeddingsRequest, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}
    single = bool(req.hints and req.hints.get("single"))
    off = req.hints.get("offset", 0) if req.hints else 0  # a part of a split batch
    tokens = bool(req.inputs) and all(i.tokens is not None for i in req.inputs)
    values: list[Any] = []
    for k, inp in enumerate(req.inputs):
        path = f"inputs[{k + off}]"
        if inp.task_type is not None:
            ctx.loss(
                path + ".task_type",
                "task_type dropped",
                "openai_embeddings unsupported: no task type: the model embeds queries and documents alike",
                "task_type",
            )
        if inp.title is not None:
            ctx.loss(path + ".title", "title dropped", "openai_embeddings unsupported", "title")
        if tokens:
            values.append(inp.tokens)
        elif inp.tokens is not None:  # token arrays mixed with text: no such list
            raise UnsupportedFeature(
                "token arrays and text cannot be mixed in one call", path=f"input[{k}]"
            )
        else:
            values.append(
                input_text(
                    inp,
                    path,
                    ctx,
                    "openai_embeddings lossy: one string per input: several text parts are joined with a newline",
                )
            )
        if inp.ext:
            report_ext(inp.ext, path, ctx)
    if req.model is not None:
        out["model"] = req.model
    out["input"] = values[0] if single and len(values) == 1 else values
    if req.dimensions is not None:
        out["dimensions"] = req.dimensions
    if req.encoding_format is not None:
        out["encoding_format"] = req.encoding_format
    if req.user is not None:
        out["user"] = req.user
    if req.ext:
        drop_ext(req.ext, out, "", ctx)
    return out


def decode_response(w: Any, ctx: Ctx) -> EmbeddingsResponse:
    w = expect_dict(w, "")
    resp = EmbeddingsResponse(source=PROTOCOL)
    items: Any = w.get("data")
    base = "data"
    for k, it in enumerate(expect_list(items, base)):
        p = f"{base}[{k}]"
        it = expect_dict(it, p)
        v = it.get("embedding")
        if type(v) is str:
            vec = vector_from_base64(v, p + ".embedding")
            resp.hints = {**(resp.hints or {}), "encoding": "base64"}
        else:
            vec = vector_from_floats(v, p + ".embedding")
        i = it.get("index")
        i = k if i is None else expect_int(i, p + ".index")
        resp.embeddings.append(Embedding(index=i, vector=vec, ext=split_ext(it, _ITEM_KEYS)))
    in_index_order(resp.embeddings, base)
    v = w.get("model")
    if v is not None:
        v = expect_str(v, "model")
        resp.model = v
    u = w.get("usage")
    if u is not None:
        u = expect_dict(u, "usage")
        resp.usage = EmbedUsage(
            input_tokens=_count(u.get("prompt_tokens"), "usage.prompt_tokens"),
            total_tokens=_count(u.get("total_tokens"), "usage.total_tokens"),
        )
    resp.ext = split_ext(w, _RESPONSE_KEYS, _RESPONSE_NESTED)
    return resp


def encode_response(
    resp: EmbeddingsResponse, ctx: Ctx, req: EmbeddingsRequest | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"object": "list"}
    v = (
        resp.model
        if resp.model is not None
        else (getattr(req, "model", None) if req is not None else None)
    )
    if v is not None:
        out["model"] = v
    fmt = req.encoding_format if req is not None else None
    if fmt is None and ctx.same and resp.hints:
        fmt = resp.hints.get("encoding")
    b64 = fmt == "base64"
    items: list[Any] = []
    for k, e in enumerate(resp.embeddings):
        it: dict[str, Any] = {"object": "embedding"}
        it["index"] = e.index
        it["embedding"] = base64_from_vector(e.vector, f"data[{k}].embedding") if b64 else e.vector
        if e.ext:
            drop_ext(e.ext, it, f"data[{k}]", ctx)
        items.append(it)
    out["data"] = items
    u = resp.usage
    if u is None or u.input_tokens is None:
        ctx.loss("usage", "usage unknown: written as 0", f"{ctx.source} reported none", "usage")
        u = EmbedUsage(input_tokens=0, total_tokens=0)
    if u is not None:
        usage = {
            "prompt_tokens": u.input_tokens,
            "total_tokens": u.total_tokens if u.total_tokens is not None else u.input_tokens,
        }
        out["usage"] = {k: v for k, v in usage.items() if v is not None}
    if resp.ext:
        drop_ext(resp.ext, out, "", ctx)
    return out
