"""Helpers the generated embeddings codecs call (generated/<id>_codec.py of spec/embeddings)
whatever their rows: a token array's check, an input's text, the vector forms (floats, base64
float32), the vectors' order, and the split / join of a batch.

What a row decides (the list form's facts, the content form's keys, the task table, the vector
form an encoding asks for) is compiled into the codec by codegen/embed_inputs.py, so nothing here
knows a protocol, a row or a wire name.
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
from ._wire import _kind, expect_list, expect_str
from .generated.embeddings_canonical import (
    Embedding,
    EmbeddingsRequest,
    EmbeddingsResponse,
    EmbedInput,
    EmbedUsage,
)

__all__ = [
    "PART_JOINER",
    "base64_from_vector",
    "in_index_order",
    "input_text",
    "join_responses",
    "split_request",
    "token_ids",
    "vector_from_base64",
    "vector_from_floats",
]

PART_JOINER = "\n"  # several text parts of one input, toward a protocol with one string per input


# ---------------------------------------------------------------- input forms


def token_ids(v: list[Any], path: str) -> list[int]:
    """A token array (the list form of a row with ``tokens``): integers >= 0."""
    for i, t in enumerate(v):
        if type(t) is not int or t < 0:
            raise InvalidInput(
                f"expected a token id (an integer >= 0), got {t!r:.40}", path=f"{path}[{i}]"
            )
    return v


def input_text(inp: EmbedInput, path: str, ctx: Ctx, joined: str = "") -> str:
    """The text of an input toward a protocol that takes text (its codec refused a token array,
    codegen/embed_inputs.py refuse_tokens): another protocol's content parts other than text are
    refused; several text parts made one string are reported (``joined``: why, from the
    target's ``multipart_input`` row)."""
    h = inp.hints  # a content object's (codegen/embed_inputs.py read_content)
    if h is not None and h.get("other_parts"):
        raise UnsupportedFeature(
            f"{ctx.source} content parts other than text cannot be embedded by {ctx.target}",
            path=path,
        )
    if h is not None and (n := h.get("text_parts", 1)) > 1 and joined and not ctx.same:
        ctx.loss(path, f"{n} text parts joined with a newline", joined, "multipart_input")
    if h is not None and not ctx.same:  # the content object's other keys said (``role``)
        for k in h.get("fields", ()):
            why = f"{ctx.target} takes a text per input"
            ctx.loss(f"{path}.{k}", f"content field {k!r} dropped", why, "multipart_input")
    return inp.text or ""


# ---------------------------------------------------------------- vector forms


def vector_from_floats(v: Any, path: str) -> list[float]:
    for i, x in enumerate(expect_list(v, path)):
        if type(x) is not float and (type(x) is not int):
            raise InvalidInput(f"expected a number, got {_kind(x)}", path=f"{path}[{i}]")
    return v


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


def in_index_order(items: list[Any], path: str) -> None:
    """Sort the vectors by their index, which must be 0 .. n-1 (each once): a response's
    vectors are in index order from here on (its encoders write them in list order)."""
    items.sort(key=attrgetter("index"))
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
        out.embeddings += [
            Embedding(index=e.index + offset, vector=e.vector, ext=e.ext) for e in resp.embeddings
        ]
        offset += size
    usages = [p.usage for p in parts if p.usage is not None]
    if len(usages) == len(parts):
        ins, totals = [u.input_tokens for u in usages], [u.total_tokens for u in usages]
        out.usage = EmbedUsage(input_tokens=_sum(ins), total_tokens=_sum(totals))
    return out


def _sum(values: list[int | None]) -> int | None:
    return None if None in values else sum(v or 0 for v in values)
