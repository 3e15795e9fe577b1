"""The public API: bytes or dicts in, translated body and reported losses out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import orjson

from ._errors import InvalidInput, LossError
from ._losses import Ctx, Loss
from ._pipeline import (
    decode_error,
    decode_request,
    decode_response,
    encode_error,
    encode_request,
    encode_response,
)
from ._protocols import protocol, sides
from ._wire import check_parsed, check_writable, parse_json
from .generated.spec_types import HttpSpec

__all__ = ["Translation", "translate_request", "translate_response", "translate_error", "load_json"]


@dataclass(slots=True)
class Translation:
    """A translated request or response: ``body`` (a dict) and the ``losses`` it took."""

    body: dict[str, Any]
    losses: list[Loss] = field(default_factory=list)
    path: str | None = None  # the target endpoint path when the protocol puts state in the URL

    def to_bytes(self) -> bytes:
        """The body as JSON. A dict given to the library may hold what JSON cannot (a lone
        surrogate, an integer past 64 bits): that is InvalidInput, never a bare TypeError."""
        try:
            return orjson.dumps(self.body)
        except TypeError as e:
            raise InvalidInput(f"the translated body cannot be written as JSON: {e}") from None


def load_json(body: bytes | str | dict[str, Any]) -> Any:
    """A body as the library takes it -> the parsed value. Not JSON, or nested deeper than the
    serialiser can write back (``MAX_DEPTH``), is InvalidInput."""
    t = type(body)
    if t is dict:
        check_writable(body)
        return body
    if t is not bytes and t is not str and not isinstance(body, bytes | bytearray | memoryview):
        raise InvalidInput(f"body must be bytes, str or dict, got {type(body).__name__}")
    return parse_json(body)  # type: ignore[arg-type]


def _finish(body: dict[str, Any], ctx: Ctx, strict: bool) -> Translation:
    if strict and ctx.losses:
        raise LossError(ctx.losses)
    return Translation(body, ctx.losses)


def translate_request(
    body: bytes | str | dict[str, Any],
    *,
    source: str,
    target: str,
    strict: bool = False,
    model: str | None = None,
    stream: bool | None = None,
    dialect: str | None = None,
) -> Translation:
    """``model`` / ``stream``: for sources that keep them in the URL (Gemini), or to override.
    When the target keeps them in the URL, the result's ``path`` is the endpoint to call.
    ``dialect`` (spec/dialects, e.g. ``"openrouter"``) applies to the side(s) speaking its base
    protocol; a dialect of neither side is an UnknownDialect error."""
    sd, td = sides(dialect, source, target)
    ctx = Ctx(source, target)
    req = decode_request(load_json(body), source, ctx, dialect=sd)
    if model is not None:
        req.model = model
    if stream is not None:
        req.stream = stream
    wire = encode_request(req, target, ctx, dialect=td)
    out = _finish(wire, ctx, strict)
    http = protocol(target).HTTP  # the endpoint, when the model (and stream) is in the URL
    tmpl = http.upstream_stream_path if req.stream else None
    out.path = model_path(http, tmpl or http.upstream_path, req.model)
    return out


def model_path(http: HttpSpec, template: str, model: str | None) -> str | None:
    """The endpoint path ``http.base_path + template`` with the model filled in (``model_url``)
    when the template keeps the model in the URL (Gemini) and a model is known; else None."""
    if model is None or "{model}" not in template:
        return None
    return http.base_path + model_url(http, template, model)


def model_url(http: HttpSpec, template: str, model: str) -> str:
    """``template`` (a path below a base_url) with ``{model}`` replaced by the model, its name
    prefix left out, quoted as one path segment: a name with ``/``, ``:`` or a space (an
    OpenRouter ``anthropic/claude-sonnet-4``) names the model, never another resource."""
    return template.replace("{model}", quote(http.bare_model(model), safe=""))


def translate_response(
    body: bytes | str | dict[str, Any],
    *,
    source: str,
    target: str,
    strict: bool = False,
    dialect: str | None = None,
) -> Translation:
    sd, td = sides(dialect, source, target)
    ctx = Ctx(source, target)
    resp = decode_response(load_json(body), source, ctx, dialect=sd)
    wire = encode_response(resp, target, ctx, dialect=td)
    return _finish(wire, ctx, strict)


def translate_error(
    status: int, body: bytes | str | dict[str, Any] | None, *, source: str, target: str
) -> tuple[int, dict[str, Any]]:
    """An error body of ``source`` -> (status, body) for a ``target`` client. Never raises on
    a malformed body: whatever arrived becomes the message (at most 2,000 characters; a body
    nested too deep to quote is summarised)."""
    parsed: Any = body
    try:
        if type(body) is bytes or type(body) is str:
            parsed = orjson.loads(body)
            check_parsed(parsed)
        elif type(body) is dict or type(body) is list:
            check_writable(body)
    except orjson.JSONDecodeError:  # not JSON: the text is the message
        parsed = body.decode("utf-8", "replace") if type(body) is bytes else body  # type: ignore[union-attr]
    except InvalidInput as e:  # too deep to quote, or not Unicode
        parsed = f"upstream error (HTTP {status}): a body {e.message}"
    if type(status) is not int or not 100 <= status <= 599:
        status = 502  # not an HTTP status: the upstream is broken
    return encode_error(decode_error(status, parsed, source), target)
