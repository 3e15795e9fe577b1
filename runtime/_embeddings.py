"""Embeddings across protocols (spec/embeddings): ``translate_embeddings_request`` /
``translate_embeddings_response``, the batch split and join, and the protocol registry.

An embeddings protocol is named by its id (``openai_embeddings``, ``gemini_embeddings``,
``cohere_embeddings``) or by a chat protocol whose upstreams serve it (``openai_chat``,
``openai_responses`` -> OpenAI embeddings; ``gemini`` -> Gemini; ``cohere_v2`` -> Cohere): the
spec row ``upstreams`` says which.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

from ._api import Translation, _finish, load_json, model_path
from ._embed_support import join_responses, split_request
from ._errors import InvalidInput
from ._losses import Ctx
from ._protocols import UnknownProtocol, generated, protocol
from .generated import registry
from .generated.embeddings_canonical import EmbeddingsRequest

__all__ = [
    "EMBEDDINGS_PROTOCOLS",
    "embeddings_protocol",
    "join_embeddings_responses",
    "split_embeddings_request",
    "translate_embeddings_request",
    "translate_embeddings_response",
]

EMBEDDINGS_PROTOCOLS: tuple[str, ...] = registry.EMBEDDINGS_PROTOCOLS  # spec/embeddings/*.yaml


@cache
def embeddings_protocol(pid: str) -> ModuleType:
    """The generated codec of an embeddings protocol, by its id or by a chat protocol it rides
    (its ``upstreams`` row); UnknownProtocol when there is none."""
    eid = pid if pid in EMBEDDINGS_PROTOCOLS else registry.EMBEDDINGS_OF.get(pid)
    if eid is None:
        known = ", ".join(EMBEDDINGS_PROTOCOLS)
        raise UnknownProtocol(
            f"no embeddings protocol {pid!r} (expected one of {known}, or a chat "
            "protocol one of them rides)"
        )
    return generated(eid, None, "codec")


def _codecs(source: str, target: str) -> tuple[ModuleType, ModuleType, Ctx]:
    """The codecs of ``source`` and ``target`` and a Ctx naming their embeddings protocols."""
    src, dst = embeddings_protocol(source), embeddings_protocol(target)
    return src, dst, Ctx(src.PROTOCOL, dst.PROTOCOL)


def translate_embeddings_request(
    body: bytes | str | dict[str, Any],
    *,
    source: str,
    target: str,
    strict: bool = False,
    model: str | None = None,
) -> Translation:
    """An embeddings request of ``source`` for a ``target`` upstream. ``model``: for sources
    that keep it in the URL (Gemini), or to override; the result's ``path`` is the endpoint to
    call when the target keeps the model in the URL. Losses are reported as for chat."""
    src, dst, ctx = _codecs(source, target)
    req: EmbeddingsRequest = src.decode_request(load_json(body), ctx)
    if model is not None:
        req.model = model
    out = _finish(dst.encode_request(req, ctx), ctx, strict)
    # the model in the URL: the path below the base_url of the chat protocol it rides
    out.path = model_path(protocol(dst.UPSTREAMS[0]).HTTP, dst.UPSTREAM_PATH, req.model)
    return out


def translate_embeddings_response(
    body: bytes | str | dict[str, Any],
    *,
    source: str,
    target: str,
    strict: bool = False,
    request: bytes | str | dict[str, Any] | None = None,
) -> Translation:
    """An embeddings answer of ``source`` for a ``target`` client. ``request``: that client's
    request body (in ``target``'s protocol), which says the vectors' form (``encoding_format``
    base64 or float), single or batch answer and the model; without it: floats, batch form."""
    src, dst, ctx = _codecs(source, target)
    resp = src.decode_response(load_json(body), ctx)
    req = None  # the client's own request, read as its protocol (its losses are not this one's)
    if request is not None:
        req = dst.decode_request(load_json(request), Ctx(dst.PROTOCOL, dst.PROTOCOL))
    return _finish(dst.encode_response(resp, ctx, req), ctx, strict)


def split_embeddings_request(
    body: bytes | str | dict[str, Any], *, protocol: str, max_inputs: int | None = None
) -> list[dict[str, Any]]:
    """A request of ``protocol`` as requests of at most ``max_inputs`` inputs (default: the
    protocol's own limit, spec row ``max_inputs``), in input order; their answers join back with
    ``join_embeddings_responses``."""
    codec, _, ctx = _codecs(protocol, protocol)
    req = codec.decode_request(load_json(body), ctx)
    parts = split_request(req, max_inputs or codec.MAX_INPUTS)  # [req] when it fits
    return [codec.encode_request(p, ctx) for p in parts]


def join_embeddings_responses(
    bodies: list[bytes | str | dict[str, Any]], *, protocol: str
) -> dict[str, Any]:
    """The answers to the requests of ``split_embeddings_request``, in their order, as one
    answer: vectors renumbered in input order, usage added up."""
    if not bodies:
        raise InvalidInput("no answers to join")
    codec, _, ctx = _codecs(protocol, protocol)
    parts = [codec.decode_response(load_json(b), ctx) for b in bodies]
    joined = join_responses(parts, [len(p.embeddings) for p in parts])
    return codec.encode_response(joined, ctx, None)  # type: ignore[no-any-return]
