"""The model a call asks for, read before decoding (so that the request is decoded toward the
upstream's protocol). A call that names none is refused, never sent upstream as ``""``."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput
from .._pipeline import decode_request
from .upstream import http_spec

__all__ = ["body_model", "requested_model"]


def body_model(wire: Any, inbound: str) -> str:
    """The model a request names in its body (every protocol that keeps it out of the URL
    names it ``model``, as the pipeline encodes it)."""
    if http_spec(inbound).model_in_path or type(wire) is not dict:
        return ""
    model = wire.get("model")
    return model if type(model) is str else ""


def requested_model(wire: Any, inbound: str, url_model: str | None) -> str:
    """The model of the URL, else of the body; none is a 400 naming ``model`` (after any error
    of the body itself, which names its own path)."""
    requested = url_model if url_model is not None else body_model(wire, inbound)
    if not requested:
        decode_request(wire, inbound)
        raise InvalidInput("missing required field (the model to call)", path="model")
    return requested
