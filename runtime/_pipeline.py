"""The canonical API: wire dict -> canonical -> wire dict, for requests, responses and errors.

Decoders and encoders are pure: no I/O, losses collected in the Ctx."""

from __future__ import annotations

from typing import Any

from ._codec_support import drop_ext, split_ext
from ._errors import InvalidInput
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
]


def decode_request(body: Any, source: str, ctx: Ctx | None = None) -> Request:
    p = protocol(source)
    ctx = ctx or Ctx(source, source)
    w = expect_dict(body, "")
    req = Request(source=source)
    p.codec.decode_request_fields(w, req, ctx)
    for t in p.transforms:
        t.decode_request(w, req, p.codec, ctx)
    req.ext = split_ext(w, p.request_known)
    return req


def encode_request(req: Request, target: str, ctx: Ctx) -> dict[str, Any]:
    p = protocol(target)
    out: dict[str, Any] = {}
    if req.max_tokens is None and p.codec.FLAGS.max_tokens_required:
        req.max_tokens = p.codec.FLAGS.max_tokens_default
        ctx.loss(
            "max_tokens",
            f"no output limit given; sent the default {req.max_tokens}",
            f"{target} requires one",
            "max_tokens",
        )
    p.codec.encode_request_fields(req, out, ctx)
    if req.model is not None:
        out["model"] = req.model
    for t in p.transforms:
        t.encode_request(req, out, p.codec, ctx)
    if req.ext:
        drop_ext(req.ext, out, "", ctx)
    return out


def decode_response(body: Any, source: str, ctx: Ctx | None = None) -> Response:
    p = protocol(source)
    ctx = ctx or Ctx(source, source)
    w = expect_dict(body, "")
    resp = Response(source=source)
    p.codec.decode_response_fields(w, resp, ctx)
    for t in p.transforms:
        t.decode_response(w, resp, p.codec, ctx)
    resp.ext = split_ext(w, p.response_known)
    return resp


def encode_response(resp: Response, target: str, ctx: Ctx) -> dict[str, Any]:
    p = protocol(target)
    out: dict[str, Any] = {}
    p.codec.encode_response_fields(resp, out, ctx)
    for t in p.transforms:
        t.encode_response(resp, out, p.codec, ctx)
    if resp.ext:
        drop_ext(resp.ext, out, "", ctx)
    return out


def _dig(w: Any, path: str) -> Any:
    for seg in path.split("."):
        if type(w) is not dict:
            return None
        w = w.get(seg)
    return w


def _set(out: dict[str, Any], path: str, value: Any) -> None:
    segs = path.split(".")
    cur = out
    for s in segs[:-1]:
        cur = cur.setdefault(s, {})
    cur[segs[-1]] = value


def decode_error(status: int, body: Any, source: str) -> ErrorInfo:
    """Any error body (even not JSON / not the protocol's shape) -> ErrorInfo, never raises."""
    codec = protocol(source).codec
    shape = codec.ERROR_SHAPE
    raw_type = _dig(body, shape["type_path"])
    message = _dig(body, shape["message_path"])
    if type(raw_type) is not str:
        raw_type = None
    unified = codec.ERROR_DECODE.get(raw_type) if raw_type else None
    if unified is None:
        unified = _type_for_status(status)
    code = _dig(body, shape["code_path"]) if shape.get("code_path") else None
    param = _dig(body, shape["param_path"]) if shape.get("param_path") else None
    if type(message) is not str:
        message = body if type(body) is str else f"upstream error (HTTP {status})"
    return ErrorInfo(
        type=unified,
        message=message,
        status=status,
        raw_type=raw_type,
        param=param if type(param) is str else None,
        code=str(code) if code is not None else None,
    )


def _type_for_status(status: int) -> str:
    for t, s in ERROR_TYPE_STATUS.items():
        if s == status:
            return t
    if status == 503:
        return "overloaded"
    return "api_error" if status >= 500 else "invalid_request"


def encode_error(err: ErrorInfo, target: str) -> tuple[int, dict[str, Any]]:
    codec = protocol(target).codec
    shape = codec.ERROR_SHAPE
    out: dict[str, Any] = dict(shape["envelope"])
    same_raw = err.raw_type is not None and codec.ERROR_DECODE.get(err.raw_type) == err.type
    raw = (
        err.raw_type
        if same_raw
        else codec.ERROR_ENCODE.get(err.type, codec.ERROR_ENCODE["api_error"])
    )
    _set(out, shape["type_path"], raw)
    _set(out, shape["message_path"], err.message)
    if shape.get("param_path"):
        _set(out, shape["param_path"], err.param)
    if shape.get("code_path"):
        _set(out, shape["code_path"], err.code)
    status = err.status or codec.ERROR_STATUS.get(err.type, 500)
    return status, out


def error_from_exception(exc: Exception) -> ErrorInfo:
    """A typed interlingua error -> ErrorInfo (a 400 naming the path for bad input)."""
    status = getattr(exc, "status", 500)
    etype = getattr(exc, "error_type", "api_error")
    return ErrorInfo(
        type=etype, message=str(exc), status=status, param=getattr(exc, "path", None) or None
    )


_ = InvalidInput
