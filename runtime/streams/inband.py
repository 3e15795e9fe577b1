"""In-band stream errors. Read by a decode row's ``error`` path (and ``error_type``): the
object -> ``ErrorInfo`` through the protocol's error table and error_shape, as HTTP errors are
(``inband_error``); written, where the target has no error template, as the body its HTTP
errors have (``error_frame``). The errors of a stream that went wrong on its own: data that is
not JSON (``bad_data``), a cut stream (``DISCONNECTED``), a usage asked for that never came
(``USAGE_LOST``)."""

from __future__ import annotations

from typing import Any

import orjson

from .._codec_support import get_dotted
from .._errors import InvalidInput
from .._pipeline import decode_error, encode_error
from .._protocols import protocol
from ..generated.canonical import ErrorEvent, ErrorInfo

__all__ = ["DISCONNECTED", "USAGE_LOST", "bad_data", "error_frame", "inband_error"]

DISCONNECTED = ErrorInfo(
    type="bad_gateway", message="upstream stream ended without its terminal event", status=502
)
USAGE_LOST = ErrorInfo(
    type="bad_gateway",
    message="upstream stream ended after its finish but before the usage it was asked for "
    "and its terminal event: the usage is lost",
    status=502,
)


def bad_data(e: Exception) -> ErrorEvent:
    """The in-band failure of an event whose data is not JSON (``e``: orjson's error) or nests
    deeper than the encoders can write (``InvalidInput`` from ``check_parsed``)."""
    why = f"has a value {e}" if isinstance(e, InvalidInput) else "is not JSON"
    err = ErrorInfo(
        type="bad_gateway", message=f"upstream sent an SSE event that {why}", status=502
    )
    return ErrorEvent(error=err)


def inband_error(codec: Any, pid: str, err: Any, d: Any, type_at: Any = None) -> ErrorInfo:
    """``err``: the value at the row's error path in event ``d``; ``type_at``: the reader of
    its raw type (``error_type``) when the error object has none where error_shape says, read
    in the error object, or in the event when the error is a bare message."""
    raw = None
    if type_at is not None:
        if type(err) is not dict:
            raw = type_at(d)
        elif err.get(_leaf(codec, "type_path")) is None:
            raw = type_at(err)
    raw = raw if type(raw) is str else None
    if type(err) is not dict:
        if raw is None:  # a bare message (Cohere's message-end delta.error)
            return ErrorInfo(type="api_error", message=str(err), status=500)
        err = {_leaf(codec, "message_path"): str(err)}  # a flat error event's message
    return decode_error(_status(codec, err, raw), _body(codec, err, d, raw), pid)


def _body(codec: Any, err: dict[str, Any], d: Any, raw: str | None) -> Any:
    """An error body in the protocol's error_shape: the event itself when the error object sits
    where the shape says, else the error object put there (``raw``: its type)."""
    shape = codec.ERROR_SHAPE
    head, _, _ = shape["message_path"].rpartition(".")
    if raw is None and (not head or get_dotted(d, head) is err):
        return d
    inner = dict(err)
    tp = shape.get("type_path")
    if raw is not None and tp and tp.startswith(head):
        inner[tp[len(head) :].lstrip(".")] = raw
    body: Any = inner
    for seg in reversed(head.split(".") if head else []):
        body = {seg: body}
    return body


def _status(codec: Any, err: dict[str, Any], raw: str | None) -> int:
    """HTTP status of an in-band error: an int ``code`` (OpenRouter), ``status_code`` (Groq),
    ``status``, else the status of its type."""
    for k in ("code", "status_code", "status"):
        v = err.get(k)
        if type(v) is int and 400 <= v <= 599:
            return v
    unified = codec.ERROR_DECODE.get(raw or err.get("type"))
    return int(codec.ERROR_STATUS.get(unified, 500)) if unified else 500


def _leaf(codec: Any, path: str) -> str:
    """The key of an error_shape path inside the error object (``error.type`` -> ``type``)."""
    return str(codec.ERROR_SHAPE.get(path) or "").rpartition(".")[2]


def error_frame(err: ErrorInfo, target: str, prefix: bytes) -> bytes:
    """An in-band error event: the same body ``encode_error`` gives the target's HTTP errors."""
    status, body = encode_error(err, target)
    code_path = protocol(target).codec.ERROR_SHAPE.get("code_path")
    if code_path:  # in band the HTTP status is gone: an empty code carries it instead
        inner = body
        *parents, leaf = code_path.split(".")
        for key in parents:
            inner = inner[key]
        if inner.get(leaf) is None:
            inner[leaf] = status
    return prefix + orjson.dumps(body) + b"\n\n"
