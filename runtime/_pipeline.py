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
from .generated.canonical import ErrorInfo, Request, Response

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
    of an error in ``body`` -> ErrorInfo, typed by the codec's ``error_type`` (its errors rows
    compiled: codegen/errors.py). HTTP and in-band stream errors alike; ``status`` None: an
    in-band error, whose status is the one it carries, else its raw type's row's."""
    raw_type, message, code, param, carried = fields
    raw_type = clean_message(raw_type) if type(raw_type) is str else None
    unified, status = codec.error_type(raw_type, status, carried)
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
    status = codec.error_status(err.type, err.status)  # its own status of the type (529 -> 503)
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
