"""Helpers the generated embeddings codecs call (generated/<id>_codec.py of spec/embeddings):
the input forms, the vector forms (floats, base64 float32), and the split / join of a batch.

An input form and a vector form are named by a row (``input: {form: ...}``, ``encodings:``);
codegen picks the helper, so nothing here knows a protocol by name.
"""

from __future__ import annotations

import base64
import binascii
import math
import struct
from operator import attrgetter
from typing import Any

from ._errors import InvalidInput, UnsupportedFeature
from ._losses import Ctx
from ._wire import _kind, expect_dict, expect_list, expect_str
from .generated.embeddings_canonical import (
    Embedding,
    EmbeddingsRequest,
    EmbeddingsResponse,
    EmbedInput,
    EmbedUsage,
)

__all__ = [
    "encode_task",
    "in_index_order",
    "report_joined",
    "base64_from_vector",
    "by_index",
    "floats_from_vector",
    "join_responses",
    "read_content",
    "read_input_list",
    "split_request",
    "text_only",
    "vector_from_base64",
    "vector_from_floats",
    "write_content",
    "write_input_list",
]

PART_JOINER = "\n"  # several text parts of one input, toward a protocol with one string per input


# ---------------------------------------------------------------- input forms


def _tokens(v: list[Any], path: str) -> list[int]:
    for i, t in enumerate(v):
        if type(t) is not int or t < 0:
            raise InvalidInput(
                f"expected a token id (an integer >= 0), got {t!r:.40}", path=f"{path}[{i}]"
            )
    return v


def read_input_list(
    v: Any, path: str, tokens: bool = False, unlisted: bool = False
) -> tuple[list[EmbedInput], bool]:
    """``list`` form: the inputs of a call in one list of strings (with ``tokens``, token arrays
    too; with ``unlisted``, one string or one token array as it is) -> (inputs, single: the
    caller sent one input unlisted)."""
    if unlisted and type(v) is str:
        return [EmbedInput(text=v)], True
    items = expect_list(v, path)
    if not items:
        raise InvalidInput("expected at least one input", path=path)
    if unlisted and tokens and type(items[0]) is int:
        return [EmbedInput(tokens=_tokens(items, path))], True
    out: list[EmbedInput] = []
    for i, item in enumerate(items):
        if type(item) is str:
            out.append(EmbedInput(text=item))
        elif tokens and type(item) is list:
            out.append(EmbedInput(tokens=_tokens(item, f"{path}[{i}]")))
        else:
            what = "a string or a token array" if tokens else "a string"
            raise InvalidInput(f"expected {what}, got {_kind(item)}", path=f"{path}[{i}]")
    return out, False


def write_input_list(
    inputs: list[EmbedInput], single: bool, path: str, ctx: Ctx, tokens: bool = False
) -> Any:
    """The ``list`` form's wire value: one kind for all inputs, text (or, with ``tokens``, token
    arrays); ``single``: one input written unlisted, as the caller sent it."""
    values: list[Any] = []
    if tokens and inputs and all(i.tokens is not None for i in inputs):
        values = [i.tokens for i in inputs]
    else:
        for k, i in enumerate(inputs):
            if tokens and i.tokens is not None:  # token arrays mixed with text: no such list
                raise UnsupportedFeature(
                    "token arrays and text cannot be mixed in one call", path=f"{path}[{k}]"
                )
            values.append(text_only(i, f"inputs[{k}]", ctx))
    return values[0] if single and len(values) == 1 else values


def text_only(inp: EmbedInput, path: str, ctx: Ctx) -> str:
    """The text of an input toward a protocol that takes text: token arrays (no tokenizer here)
    and another protocol's content parts other than text are refused."""
    if inp.tokens is not None:
        raise UnsupportedFeature(
            f"{ctx.target} takes text only: token arrays cannot be sent (no tokenizer)", path=path
        )
    if inp.hints is not None and inp.hints.get("other_parts"):
        raise UnsupportedFeature(
            f"{ctx.source} content parts other than text cannot be embedded by {ctx.target}",
            path=path,
        )
    return inp.text or ""


def encode_task(v: str, table: dict[str, str], default: str | None, path: str, ctx: Ctx) -> Any:
    """The raw task type of ``v``; one the target has no row for is its ``default`` (or left
    out), reported; the same protocol gets its own raw value back."""
    raw = table.get(v)
    if raw is not None or ctx.same:
        return raw if raw is not None else v
    sent = f": sent as {default!r}" if default is not None else ""
    ctx.loss(path, f"task type {v!r} has no {ctx.target} equivalent{sent}", "no row", "task_type")
    return default


def read_content(v: Any, path: str) -> EmbedInput:
    """``content`` form: ``{parts: [{text}, ...], role?}`` -> one input. Several text parts are
    one input (joined when sent elsewhere); other parts are kept for the same protocol only."""
    c = expect_dict(v, path)
    parts = expect_list(c.get("parts"), path + ".parts")
    texts: list[str] = []
    other = False
    for k, p in enumerate(parts):
        p = expect_dict(p, f"{path}.parts[{k}]")
        t = p.get("text")
        if t is not None and len(p) == 1:
            texts.append(expect_str(t, f"{path}.parts[{k}].text"))
        else:
            other = True
    inp = EmbedInput(text=PART_JOINER.join(texts))
    if other or len(texts) != 1 or len(c) != 1:
        inp.hints = {"content": c, "other_parts": other, "parts": len(texts)}
    return inp


def write_content(inp: EmbedInput, path: str, ctx: Ctx) -> dict[str, Any]:
    """One input as a ``content`` object: the one it came as between endpoints of its protocol,
    else its text (``text_only``)."""
    if ctx.same and inp.hints is not None and "content" in inp.hints:
        return dict(inp.hints["content"])
    return {"parts": [{"text": text_only(inp, path, ctx)}]}


def report_joined(inp: EmbedInput, path: str, ctx: Ctx, why: str) -> None:
    """Several text parts toward a protocol with one string per input: one loss."""
    h = inp.hints
    if h is not None and h.get("parts", 1) > 1 and not ctx.same:
        n = h["parts"]
        ctx.loss(path, f"{n} text parts joined with a newline", why, "multipart_input")


# ---------------------------------------------------------------- vector forms


def vector_from_floats(v: Any, path: str) -> list[float]:
    for i, x in enumerate(expect_list(v, path)):
        if type(x) is not float and (type(x) is not int):
            raise InvalidInput(f"expected a number, got {_kind(x)}", path=f"{path}[{i}]")
    return v


def floats_from_vector(vec: list[float], path: str) -> list[float]:
    return vec


def vector_from_base64(v: Any, path: str) -> list[float]:
    """base64 of little-endian float32 values (OpenAI's ``encoding_format: base64``), exact."""
    try:
        raw = base64.b64decode(expect_str(v, path), validate=True)
    except binascii.Error as e:
        raise InvalidInput(f"not valid base64: {e}", path=path) from None
    if len(raw) % 4:
        raise InvalidInput(f"{len(raw)} bytes is not a whole number of float32 values", path=path)
    return list(struct.unpack(f"<{len(raw) // 4}f", raw))


def base64_from_vector(vec: list[float], path: str) -> str:
    """Each value rounded to the nearest float32 (exact for values that came as float32)."""
    try:
        raw = struct.pack(f"<{len(vec)}f", *vec)
    except (OverflowError, struct.error):
        bad = next((i for i, x in enumerate(vec) if not _fits_float32(x)), 0)
        raise InvalidInput("value out of float32 range", path=f"{path}[{bad}]") from None
    return base64.b64encode(raw).decode("ascii")


def _fits_float32(x: Any) -> bool:
    return isinstance(x, int | float) and (not math.isfinite(x) or abs(x) <= 3.4028234663852886e38)


by_index = attrgetter("index")  # the vectors' order


def in_index_order(items: list[Any], path: str) -> None:
    """Sort the vectors by their index, which must be 0 .. n-1 (each once)."""
    items.sort(key=by_index)
    for k, e in enumerate(items):
        if e.index != k:
            raise InvalidInput(
                f"vector indices are not 0..{len(items) - 1} (found {e.index})", path=path
            )


# ---------------------------------------------------------------- batches


def split_request(req: EmbeddingsRequest, max_inputs: int) -> list[EmbeddingsRequest]:
    """``req`` as calls of at most ``max_inputs`` inputs each, in order (one call when it fits)."""
    if max_inputs <= 0:
        raise ValueError("max_inputs must be positive")
    if len(req.inputs) <= max_inputs:
        return [req]
    out = []
    for start in range(0, len(req.inputs), max_inputs):
        part = req.__copy__()
        part.inputs = req.inputs[start : start + max_inputs]
        part.hints = {**(req.hints or {}), "single": False, "offset": start}
        out.append(part)
    return out


def join_responses(parts: list[EmbeddingsResponse], sizes: list[int]) -> EmbeddingsResponse:
    """The answers to the calls of ``split_request`` (``sizes``: inputs per call) as one:
    vectors renumbered in input order, usage added up (unknown when a part has none)."""
    if len(parts) == 1:
        return parts[0]
    out = EmbeddingsResponse(model=parts[0].model, source=parts[0].source, ext=parts[0].ext)
    offset = 0
    for resp, size in zip(parts, sizes, strict=True):
        if len(resp.embeddings) != size:
            raise InvalidInput(f"{size} inputs were sent, {len(resp.embeddings)} vectors came back")
        for e in resp.embeddings:
            out.embeddings.append(Embedding(index=e.index + offset, vector=e.vector, ext=e.ext))
        offset += size
    usages = [p.usage for p in parts]
    if all(u is not None for u in usages):
        out.usage = EmbedUsage(
            input_tokens=_sum([u.input_tokens for u in usages if u is not None]),
            total_tokens=_sum([u.total_tokens for u in usages if u is not None]),
        )
    return out


def _sum(values: list[int | None]) -> int | None:
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)
