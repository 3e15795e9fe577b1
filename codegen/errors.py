"""The error_shape row (spec/protocols/*.yaml): where an error body keeps its type, message,
param, code and HTTP status, compiled into each codec (templates/_codec_errors.j2) as
``read_error`` (an error object -> its fields), ``read_error_body`` (an HTTP body -> the same)
and ``write_error`` (ErrorInfo -> a body), with the paths written out and only the steps the row
asks for; the errors rows as ``error_type`` (raw type and HTTP status -> canonical type and
status) and ``error_status`` (the way back), ``type_rule``. runtime/_pipeline.py (HTTP errors),
a stream module's compiled dispatch (in-band errors read: codegen/stream_steps.py) and
runtime/streams/encoder.py (written) call the same functions, so a response and a stream read
and write an error by one rule (``error_info``, ``encode_error``).

Every path of the row sits in one error object (``error.type``, ``error.message``: the object at
``error``; ``message``: the body itself), since a stream row's ``error`` path points at that
object; codegen refuses a row it cannot compile that way."""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field

from .source import Loc
from .spec_http import Strict

# the paths in the order a body is written (after the envelope's constant keys)
PATHS = ("type_path", "message_path", "param_path", "code_path", "status_code_path")


class ErrorShape(Strict):
    type_path: str | None = Field(
        None, description="path of the error type; none: the type comes from the HTTP status"
    )
    message_path: str
    code_path: str | None = None
    param_path: str | None = None
    status_code_path: str | None = Field(None, description="path carrying the HTTP status (int)")
    envelope: dict[str, str] = Field(default_factory=dict, description="constant fields")
    stream_status: list[str] = Field(
        default_factory=list,
        description="keys of the error object that carry the HTTP status of a stream's in-band "
        "error (an int 400-599: OpenRouter `code`, Groq `status_code`), read after "
        "status_code_path; when code_path's key is one, an in-band error with no code writes "
        "its status there",
    )


def _split(path: str) -> tuple[list[str], str]:
    head, _, leaf = path.rpartition(".")
    return (head.split(".") if head else []), leaf


def raw_default(p: Any) -> str | None:
    """The raw type written for an error whose type has no row (an ErrorInfo made by hand):
    api_error's, else enum_defaults.errors.encode."""
    raw = next((r.raw for r in p.errors if r.unified == "api_error" and r.only != "decode"), None)
    d = p.enum_defaults.errors
    return raw or (d.encode if d is not None else None)


def error_shape_problems(p: Any, error_types: list[str]) -> list[tuple[Loc, str]]:
    """What keeps protocol ``p``'s error_shape row from compiling: an empty path segment, paths
    outside the one error object (message_path's), a key written twice, an envelope key where
    the error's fields go, stream_status keys that are paths or repeat; and no raw type for an
    error no row names (``error_types``: the canonical ErrorType values; one without api_error
    needs enum_defaults.errors.encode)."""
    shape: ErrorShape = p.error_shape
    out: list[tuple[Loc, str]] = []
    loc: Loc = ("error_shape",)
    head, _ = _split(shape.message_path)
    seen: dict[str, str] = {}
    for name in PATHS:
        path = getattr(shape, name)
        if path is None:
            continue
        if "" in path.split("."):
            out.append(((*loc, name), f"{path!r} is not a dotted path (an empty key)"))
            continue
        h, leaf = _split(path)
        if h != head:
            where = ".".join(head) or "the body itself"
            out.append(
                (
                    (*loc, name),
                    f"{path!r} is not in the error object ({where}, where message_path is): "
                    "every path of the row sits in that one object",
                )
            )
        elif leaf in seen:
            out.append(((*loc, name), f"{path!r} is also {seen[leaf]}"))
        seen.setdefault(leaf, name)
    top = head[0] if head else None
    for k in shape.envelope:
        if k == top or (top is None and k in seen):
            out.append(((*loc, "envelope", k), f"{k!r} is where the error's fields are written"))
    for i, k in enumerate(shape.stream_status):
        if "." in k or not k:
            out.append(((*loc, "stream_status", i), f"{k!r} is not a key of the error object"))
        elif shape.stream_status.index(k) != i:
            out.append(((*loc, "stream_status", i), f"key {k!r} again"))
    if raw_default(p) is None and "api_error" not in error_types:
        why = "no ErrorType api_error: enum_defaults.errors.encode names the raw type written"
        out.append((("errors",), f"{why} for an error whose type has no row"))
    return out


def wire_statuses(p: Any) -> dict[str, int]:
    """ErrorType -> the HTTP status protocol ``p`` sends it with (its first encode row's)."""
    out: dict[str, int] = {}
    for r in p.errors:
        if r.only != "decode" and r.status is not None:
            out.setdefault(r.unified, r.status)
    return out


def type_rule(p: Any, canonical_status: dict[str, int], generic: set[str]) -> dict[str, Any]:
    """The errors rows compiled into the codec's ``error_type`` (raw type and HTTP status ->
    canonical type and status) and ``error_status`` (canonical type and status -> the status
    this protocol sends). The type: an exact row of (raw type, status) wins, then the raw type's
    row when its type is not ``generic`` (canonical.yaml: OpenAI sends ``invalid_request_error``
    with 401 for a bad key, 404 for an unknown model), then the status's row (its first row's,
    else the canonical type of the status, ``canonical_status``: ErrorType -> status), then the
    raw type's row, then the status alone, by its class. Only the steps that can decide are
    compiled: ``exact`` keeps the rows the later steps would get wrong, ``typed`` is False when
    no error of the protocol has a raw type (no type_path and no stream row's error_type: Cohere),
    so the raw type is never looked up. ``canonical``: (status, type) -> canonical status of a row
    whose status is not the canonical one of its type (Chat's 503 for overloaded travels as
    529); ``raw_status``: raw type -> the status of its type (an in-band error's, when it
    carries none); ``remap``: (type, canonical status, this protocol's) for the way back."""
    decode: dict[str, str] = {}
    for r in p.errors:
        if r.only != "encode":
            decode.setdefault(r.raw, r.unified)  # the decode table's row: the first of a raw type
    firm = {raw: t for raw, t in decode.items() if t not in generic}
    rows = [r for r in p.errors if r.only != "encode" and r.status is not None]
    by_status: dict[int, str] = {}
    for r in rows:
        by_status.setdefault(r.status, r.unified)
    for t, status in canonical_status.items():
        by_status.setdefault(status, t)
    exact: dict[tuple[str, int], str] = {}
    canonical: dict[tuple[int, str], int] = {}
    for r in rows:
        exact.setdefault((r.raw, r.status), r.unified)
        if canonical_status.get(r.unified, r.status) != r.status:
            canonical[(r.status, r.unified)] = canonical_status[r.unified]
    # a row the raw type's or the status's row decides alike needs no step of its own
    exact = {k: t for k, t in exact.items() if t != (firm.get(k[0]) or by_status[k[1]])}
    stream = p.stream.decode if p.stream is not None else []
    own = wire_statuses(p)  # ErrorType -> the status sent with it
    return {
        "typed": p.error_shape.type_path is not None or any(r.error_type for r in stream),
        "exact": exact,
        "firm": firm,
        "by_status": by_status,
        "raw_status": {raw: own[t] for raw, t in decode.items() if t in own},
        "canonical": canonical,
        "remap": [(t, c, own[t]) for t, c in canonical_status.items() if own.get(t, c) != c],
        "class_503": 503 not in by_status,  # else the status's row names it
    }


def error_view(p: Any, canonical_status: dict[str, int], generic: set[str]) -> dict[str, Any]:
    """Protocol ``p``'s compiled row for the template: the error object's place, the read
    expressions and the body literal (Python source; ``raw``, ``status``, ``inband`` and
    ``err`` are the write function's arguments), and the errors rows' type tables."""
    shape: ErrorShape = p.error_shape
    head, _ = _split(shape.message_path)
    leaf = {n: _split(path)[1] for n in PATHS if (path := getattr(shape, n)) is not None}

    def get(name: str) -> str:
        return f"e.get({json.dumps(leaf[name])})" if name in leaf else "None"

    typ = f"t if (t := {get('type_path')}) is not None else raw" if "type_path" in leaf else "raw"
    status_keys = [leaf[n] for n in ("status_code_path",) if n in leaf]
    status_keys += [k for k in shape.stream_status if k not in status_keys]
    gets = [f"e.get({json.dumps(k)})" for k in status_keys]
    if len(gets) == 1:
        carried = f"v if type(v := {gets[0]}) is int and 400 <= v <= 599 else None"
    elif gets:
        carried = (
            f"next((v for v in ({', '.join(gets)}) if type(v) is int and 400 <= v <= 599), None)"
        )
    else:
        carried = "None"
    code = "err.code"
    if leaf.get("code_path") in shape.stream_status:  # in band, an empty code carries the status
        code = "status if inband and err.code is None else err.code"
    values = {
        "type_path": "raw",
        "message_path": "err.message",
        "param_path": "err.param",
        "code_path": code,
        "status_code_path": "status",
    }
    inner = ", ".join(f"{json.dumps(leaf[n])}: {values[n]}" for n in PATHS if n in leaf)
    body = "{" + inner + "}"
    for seg in reversed(head):
        body = "{" + f"{json.dumps(seg)}: {body}" + "}"
    if shape.envelope:  # the constant keys first
        consts = "".join(f"{json.dumps(k)}: {json.dumps(v)}, " for k, v in shape.envelope.items())
        body = "{" + consts + body[1:]
    return {
        "head": head,
        "read": [typ, get("message_path"), get("code_path"), get("param_path"), carried],
        "body": body,
        "raw_default": raw_default(p),
        **type_rule(p, canonical_status, generic),
    }
