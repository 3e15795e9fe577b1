"""The canonical API: wire dict -> canonical -> wire dict, for requests, responses and errors.

Decoders and encoders are pure: no I/O, losses collected in the Ctx. Each protocol's walk (its
rows, then its transforms in row order) is compiled into its codec (codegen/pipeline.py): here
the codec is found and called."""

from __future__ import annotations

from typing import Any

import orjson

from ._errors import InvalidInput, brief
from ._losses import Ctx
from ._protocols import protocol
from ._wire import expect_dict
from .generated.canonical import ERROR_TYPE_STATUS, ErrorInfo, Request, Response

__all__ = [
    "decode_request",
    "encode_request",
    "decode_response",
    "encode_response",
    "decode_error",
    "encode_error",
    "raw_error_type",
    "error_info",
]


def decode_request(
    body: Any, source: str, ctx: Ctx | None = None, *, dialect: str | None = None
) -> Request:
    codec = protocol(source, dialect)  # its compiled pipeline (transforms row)
    return codec.decode_request(expect_dict(body, ""), ctx or Ctx(source, source))


def encode_request(
    req: Request, target: str, ctx: Ctx, *, dialect: str | None = None
) -> dict[str, Any]:
    return protocol(target, dialect).encode_request(req, ctx)


def decode_response(
    body: Any, source: str, ctx: Ctx | None = None, *, dialect: str | None = None
) -> Response:
    codec = protocol(source, dialect)
    return codec.decode_response(expect_dict(body, ""), ctx or Ctx(source, source))


def encode_response(
    resp: Response, target: str, ctx: Ctx, *, dialect: str | None = None
) -> dict[str, Any]:
    return protocol(target, dialect).encode_response(resp, ctx)


def decode_error(status: int, body: Any, source: str) -> ErrorInfo:
    """Any error body (even not JSON / not the protocol's shape) -> ErrorInfo, never raises: the
    fields its error_shape row says (the codec's ``read_error_body``), typed by ``error_info``."""
    if type(status) is not int:
        raise InvalidInput(f"expected an HTTP status (an int), got {brief(status)}", path="status")
    codec = protocol(source)
    return error_info(codec, source, status, body, codec.read_error_body(body))


def error_info(
    codec: Any, source: str, status: int | None, body: Any, fields: tuple[Any, ...]
) -> ErrorInfo:
    """``fields`` (raw type, message, code, param, carried status: the codec's ``read_error``)
    of an error in ``body`` -> ErrorInfo. HTTP and in-band stream errors alike; ``status``
    None: an in-band error, whose status is the one it carries, else its raw type's row's.

    The type comes from the raw type and the HTTP status together: an exact row of the
    protocol's error table wins, then the raw type's when it is not a generic one (canonical.yaml
    ``generic``: OpenAI sends ``invalid_request_error`` with 401 for a bad key, 404 for an
    unknown model), then the status's, then the raw type's, then the status alone. A status
    that is the protocol's own standard one for the type (Chat's 503 for overloaded) travels as
    the canonical status."""
    raw_type, message, code, param, carried = fields
    # no type path (Cohere: {"message", "id"}): the type comes from the HTTP status alone
    raw_type = clean_message(raw_type) if type(raw_type) is str else None
    if status is None:
        status = carried or codec.ERROR_STATUS.get(codec.ERROR_DECODE.get(raw_type), 500)
    unified = (
        codec.ERROR_EXACT.get((raw_type, status))
        or codec.ERROR_FIRM.get(raw_type)  # a raw type no status refines
        or codec.ERROR_BY_STATUS.get(status)
        or codec.ERROR_DECODE.get(raw_type)  # a generic raw type, and no row names the status
        # a status no row and no canonical type names: by its class
        or ("overloaded" if status == 503 else "api_error" if status >= 500 else "invalid_request")
    )
    status = codec.ERROR_CANONICAL_STATUS.get((status, unified), status)
    return ErrorInfo(
        type=unified,
        message=_error_message(body, message, status),
        status=status,
        raw_type=raw_type,
        param=clean_message(param) if type(param) is str else None,
        code=clean_message(str(code)) if type(code) in (str, int) else None,
        source=source,
    )


def _error_message(body: Any, message: Any, status: int) -> str:
    """``message`` (read where the row says), else the most telling text the body has; never
    longer than ``MAX_MESSAGE`` characters and always writable as JSON (lone surrogates replaced)."""
    if type(message) is not str:
        message = None
        if type(body) is str:
            message = body
        elif type(body) is dict:
            for key in ("error", "message", "detail"):
                v = body.get(key)
                if type(v) is str:
                    message = v
                    break
        if message is None and body is not None:
            try:
                message = orjson.dumps(body)[: MAX_MESSAGE * 4].decode("utf-8", "replace")
            except TypeError:  # too deep, a lone surrogate, a huge integer: not worth quoting
                message = f"upstream error (HTTP {status}): {brief(body)}"
    return clean_message(message or f"upstream error (HTTP {status})")


MAX_MESSAGE = 2000


def clean_message(text: str) -> str:
    """At most MAX_MESSAGE characters, valid UTF-8 (a lone surrogate becomes U+FFFD)."""
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 3] + "..."
    try:
        text.encode()
    except UnicodeEncodeError:
        text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return text


def encode_error(err: ErrorInfo, target: str, inband: bool = False) -> tuple[int, dict[str, Any]]:
    """``err`` -> (HTTP status, body as ``target``'s error_shape row says: the codec's
    ``write_error``); ``inband``: the body of a stream's in-band error event."""
    if not isinstance(err, ErrorInfo):
        raise InvalidInput(f"expected an ErrorInfo, got {brief(err)}", path="err")
    codec = protocol(target)
    status = err.status or codec.ERROR_STATUS.get(err.type, 500)
    if status == ERROR_TYPE_STATUS.get(err.type):
        # the canonical status of the type -> the target's own status for it (529 <-> 503)
        status = codec.ERROR_STATUS.get(err.type, status)
    return status, codec.write_error(err, raw_error_type(err, target, codec), status, inband)


def raw_error_type(err: ErrorInfo, target: str, codec: Any) -> str:
    """The raw type ``target`` (``codec``) writes for ``err``: the raw type it came with when it
    came from ``target`` (or from no protocol, and reads back as the same type), else the row of
    its type (``ERROR_RAW_DEFAULT`` when it has none). HTTP and in-band stream errors alike."""
    raw = err.raw_type
    if raw is not None and (
        err.source == target or (not err.source and codec.ERROR_DECODE.get(raw) == err.type)
    ):
        return raw
    return str(codec.ERROR_ENCODE.get(err.type) or codec.ERROR_RAW_DEFAULT)
