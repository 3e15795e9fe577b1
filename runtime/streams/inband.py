"""In-band stream errors. Read by a decode row's ``error`` path (and ``error_type``): the
object -> ``ErrorInfo`` by the codec's ``read_error`` (error_shape compiled) and the error
table, as HTTP errors are (``inband_error``); written, where the target has no error template,
as the body its HTTP errors have (``error_frame``). The errors of a stream that went wrong on its
own: data that is not JSON (``bad_data``), a cut stream (``DISCONNECTED``), a usage asked for
that never came (``USAGE_LOST``)."""

from __future__ import annotations

from typing import Any

import orjson

from .._errors import InvalidInput
from .._pipeline import encode_error, error_info
from ..generated.canonical import ErrorEvent, ErrorInfo

__all__ = [
    "DISCONNECTED", "USAGE_LOST", "bad_data", "error_frame", "inband_error", "upstream_error",
]  # fmt: skip


def upstream_error(message: str) -> ErrorInfo:
    """An upstream stream that went wrong on its own: a bad gateway (502)."""
    return ErrorInfo(type="bad_gateway", message=message, status=502)


DISCONNECTED = upstream_error("upstream stream ended without its terminal event")
USAGE_LOST = upstream_error(
    "upstream stream ended after its finish but before the usage it was asked for and its "
    "terminal event: the usage is lost"
)


def bad_data(e: Exception) -> ErrorEvent:
    """The in-band failure of an event whose data is not JSON (``e``: orjson's error) or nests
    deeper than the encoders can write (``InvalidInput`` from ``check_parsed``)."""
    why = f"has a value {e}" if isinstance(e, InvalidInput) else "is not JSON"
    return ErrorEvent(error=upstream_error(f"upstream sent an SSE event that {why}"))


def inband_error(codec: Any, pid: str, err: Any, d: Any, type_at: Any = None) -> ErrorInfo:
    """``err``: the value at the row's error path in event ``d``: the error object, read by the
    codec's ``read_error`` as an HTTP error body's is; ``type_at``: the reader of its raw type
    (``error_type``) when it has none where error_shape says, read in the error object, or in
    the event when the error is a bare message (Cohere's message-end delta.error, Responses'
    flat error event), whose code, param and status are then the event's own. The status is
    the one it carries, else its type's."""
    if type(err) is dict:
        fields = codec.read_error(err, type_at(err) if type_at is not None else None)
    else:
        code, param, carried = codec.read_error(d)[2:]
        fields = (type_at(d) if type_at is not None else None, err, code, param, carried)
    return error_info(codec, pid, None, d, fields)


def error_frame(err: ErrorInfo, target: str, prefix: bytes) -> bytes:
    """An in-band error event: the body ``encode_error`` gives the target's HTTP errors (with
    the status where its error_shape row says an in-band error carries it)."""
    return prefix + orjson.dumps(encode_error(err, target, inband=True)[1]) + b"\n\n"
