"""Unknown paths and wrong methods answered in the caller's own error shape (not text/plain).

The caller's protocol is guessed from what the request shows: the served path that shares the
longest prefix with its path (``/v1/chat/foo`` is a Chat client, ``/v1beta/...`` a Gemini one),
then the key header only one protocol uses (``x-api-key``, ``x-goog-api-key``), then the
protocols' order. The answer is 404 (no such path) or 405 (the path takes other methods, listed
in ``Allow``), with the method and path in the message: never the query, which may hold a key.
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ..generated.canonical import ErrorInfo
from .errors import error_response
from .upstream import http_spec

__all__ = ["caller_protocol", "fallback_handlers"]


def _paths(pid: str) -> list[str]:
    http = http_spec(pid)
    out = [p.split("{", 1)[0] for p in http.inbound_paths]
    if http.count_tokens is not None:
        out += list(http.count_tokens.inbound_paths)
    if http.models is not None:
        out += list(http.models.paths)
    return out


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def caller_protocol(request: Request, served: list[str]) -> str:
    path = request.url.path
    headers = request.headers
    own_header = {pid: http_spec(pid).auth.header for pid in served}
    shared = {h for h in own_header.values() if list(own_header.values()).count(h) > 1}

    def score(pid: str) -> tuple[int, int]:
        prefix = max((_common(path, p) for p in _paths(pid)), default=0)
        header = own_header[pid]
        return prefix, int(header not in shared and header in headers)

    return max(served, key=score)  # max keeps the first of equals: the protocols' order


def fallback_handlers(served: list[str]) -> dict[Any, Any]:
    async def handler(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 404
        where = f"{request.method} {request.url.path[:200]}"
        headers: dict[str, str] = {}
        if status == 405:
            allow = (getattr(exc, "headers", None) or {}).get("Allow", "POST")
            headers["allow"] = allow
            message = f"{where}: method not allowed (use {allow})"
            info = ErrorInfo(type="invalid_request", message=message, status=405)
        else:
            info = ErrorInfo(type="not_found", message=f"{where}: no such endpoint", status=404)
        return error_response(info, caller_protocol(request, served), headers)

    return {404: handler, 405: handler}
