"""Every failure reaches the caller in its own protocol's error shape, with a matching status.

- an upstream HTTP error: its body translated (``translate_error``), its status kept, and the
  headers that tell a client when to retry (Retry-After) passed on;
- the upstream cannot be reached -> 502 (``bad_gateway``); it is too slow -> 504 (``timeout``);
- an invalid request -> 400 naming the path (the library's typed errors carry it);
- the gateway's own refusals: 401 (inbound key), 404 (no route), 413 (body too large).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Mapping
from typing import Any

import httpx
import orjson
from starlette.responses import Response

from .._api import translate_error
from .._errors import InterlinguaError
from .._pipeline import encode_error
from .._wire import parse_json
from ..generated.canonical import ErrorInfo
from .disconnect import ClientGone
from .log import GATEWAY_ID_HEADER, AccessRecord
from .upstream import http_spec

_log = logging.getLogger("interlingua.gateway")

__all__ = [
    "RETRY_HEADERS",
    "GatewayError",
    "JsonAnswer",
    "error_response",
    "info_from_exception",
    "page_summary",
    "upstream_error_response",
]

# response headers of an upstream error that a client needs to pace its retries
RETRY_HEADERS = ("retry-after", "retry-after-ms", "x-should-retry")


class GatewayError(Exception):
    """A refusal by the gateway itself, already typed (canonical error type and status)."""

    def __init__(self, error_type: str, message: str, status: int) -> None:
        super().__init__(message)
        self.info = ErrorInfo(type=error_type, message=message, status=status)


_MEDIA_TYPE = re.compile(r"[a-z0-9][a-z0-9.+-]{0,40}/[a-z0-9][a-z0-9.+-]{0,40}")


def page_summary(status: int, body: bytes, content_type: str | None) -> str:
    """What a caller learns of an upstream error that is not a JSON error body: no text of it
    (it may name internal hosts and paths, or hold a traceback)."""
    media = _MEDIA_TYPE.match((content_type or "").strip().lower())
    kind = media.group(0) if media else "unknown"
    return (
        f"upstream error (HTTP {status}): the upstream answered with a {kind} body of "
        f"{len(body)} bytes, not a JSON error; it is not relayed"
    )


def error_response(
    info: ErrorInfo, protocol: str, headers: dict[str, str] | None = None
) -> Response:
    status, body = encode_error(info, protocol)
    return Response(
        orjson.dumps(body), status_code=status, headers=headers, media_type="application/json"
    )


def info_from_exception(exc: BaseException) -> ErrorInfo:
    """A transport failure, a gateway refusal or a typed interlingua error -> ErrorInfo;
    anything else is an internal error (its text is not the caller's to read)."""
    if isinstance(exc, GatewayError):
        return exc.info
    if isinstance(exc, httpx.TimeoutException):
        return ErrorInfo(
            type="timeout", message=f"upstream timed out ({type(exc).__name__})", status=504
        )
    if isinstance(exc, httpx.HTTPError):
        detail = str(exc) or type(exc).__name__
        return ErrorInfo(type="bad_gateway", message=f"upstream unreachable: {detail}", status=502)
    if isinstance(exc, InterlinguaError):  # its type and status; bad input: a 400 naming the path
        return ErrorInfo(
            type=exc.error_type, message=str(exc), status=exc.status, param=exc.path or None
        )
    return ErrorInfo(type="api_error", message="internal gateway error", status=500)


def failure_response(exc: Exception, rec: AccessRecord, protocol: str) -> Response:
    """The answer to a call that raised ``exc``, in ``protocol``'s error shape: 499 when the
    caller left (nobody reads it); an unexpected exception is logged and said as an internal
    error."""
    if isinstance(exc, ClientGone):
        rec.ending, rec.error = "cancelled", "client_disconnected"
        return Response(status_code=499)
    info = info_from_exception(exc)
    if not isinstance(exc, InterlinguaError | GatewayError | httpx.HTTPError):
        _log.exception("request %s failed", rec.request_id)
    rec.error = info.type
    return error_response(info, protocol)


_GATEWAY_ID = GATEWAY_ID_HEADER.encode("latin-1")


class JsonAnswer(Response):
    """A 200 JSON answer with the gateway's headers: Starlette's ``Response`` without its
    per-header checks (media type, charset, a length already given), the same on the wire."""

    media_type = "application/json"

    def __init__(self, content: bytes, headers: Mapping[str, str]) -> None:
        self.status_code = 200
        self.body = content
        self.background = None
        raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
        raw += ((b"content-length", str(len(content)).encode()), _JSON)
        self.raw_headers = raw


_JSON = (b"content-type", b"application/json")


def answered(resp: Response, rec: AccessRecord, protocol: str) -> Response:
    """``resp`` with the call's id in the gateway's header and in ``protocol``'s own (unless
    it has them: a relayed upstream's), its status recorded and the access record written."""
    mine = http_spec(protocol).request_id_header
    present = {name for name, _ in resp.raw_headers}  # a translated answer has both already
    if _GATEWAY_ID not in present:
        resp.headers.setdefault(GATEWAY_ID_HEADER, rec.request_id)
    if mine and mine.encode("latin-1") not in present:
        resp.headers.setdefault(mine, rec.request_id)
    rec.status = resp.status_code
    rec.first_byte()
    rec.emit()
    return resp


def upstream_error_response(
    status: int, body: bytes, headers: Mapping[str, str], *, source: str, target: str
) -> Response:
    """An upstream's HTTP error in the caller's shape. A JSON error body is translated (its
    message capped); anything else (an HTML page of a proxy, a traceback) is never relayed:
    the caller gets a summary that names the status, the media type and the size only."""
    parsed: Any = None
    with contextlib.suppress(InterlinguaError):
        parsed = parse_json(body)
    if type(parsed) is not dict:
        parsed = page_summary(status, body, headers.get("content-type"))
    out_status, out = translate_error(status, parsed, source=source, target=target)
    keep = {h: headers[h] for h in RETRY_HEADERS if h in headers}
    return Response(
        orjson.dumps(out), status_code=out_status, headers=keep, media_type="application/json"
    )
