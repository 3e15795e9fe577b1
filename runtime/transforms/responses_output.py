"""responses_output: a response's ``output`` items (see responses_item_list), ``status`` +
``incomplete_details`` (the finish reason) and ``usage`` (``input_tokens_details
.cache_write_tokens`` always emitted); the fields that echo the request are hints."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput
from .._finish import decode_finish, encode_finish, finish_loss
from .._losses import Ctx
from .._wire import expect_list, expect_str
from ..generated.canonical import Finish, Message, Part, Response, ToolCallPart
from ._base import Codec, Transform
from .responses import decode_usage, encode_usage
from .responses_item_list import assistant_items, decode_items, encode_items, regroup


def finish_of_status(
    status: Any, details: Any, calls: bool, codec: Codec, no_reason: str = "incomplete"
) -> Finish:
    """A Response's ``status`` (+ ``incomplete_details``) -> canonical finish: ``incomplete``
    reads its reason (``no_reason`` when it names none). Shared by the response transform and
    the stream decoder; the finish rule itself is ``_finish.decode_finish``."""
    if status == "incomplete":
        reason = details.get("reason") if type(details) is dict else None
        return decode_finish(codec, reason if type(reason) is str else no_reason, calls)
    return decode_finish(codec, status, calls)


def _decode_finish(w: dict[str, Any], parts: list[Part], codec: Codec) -> Finish | None:
    status = w.get("status")
    if status is None:
        return None
    calls = any(type(p) is ToolCallPart for p in parts)
    return finish_of_status(expect_str(status, "status"), w.get("incomplete_details"), calls, codec)


def finish_status(
    f: Finish | None, codec: Codec, same: bool = False
) -> tuple[str, dict[str, Any] | None, bool]:
    """Canonical finish -> (status, incomplete_details, lossy) through the finish rule."""
    if f is None:
        return "completed", None, False
    raw, lossy = encode_finish(codec, f, same=same)
    if raw in _INCOMPLETE:
        return "incomplete", {"reason": raw}, lossy
    return raw, None, lossy


_INCOMPLETE = frozenset({"max_output_tokens", "content_filter", "incomplete"})


def _decode_response(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    output = w.get("output")
    if output is None:
        raise InvalidInput("missing required field", path="output")
    msgs = decode_items(expect_list(output, "output"), "output", codec, ctx)
    parts: list[Part] = []
    groups: list[dict[str, Any]] = []
    for m in msgs:
        n = len(m.parts)
        parts.extend(m.parts)
        groups.append({"role": m.role, "n": n, "hints": m.hints, "ext": m.ext})
    resp.parts = parts
    resp.finish = _decode_finish(w, parts, codec)
    resp.usage = decode_usage(w, codec)
    hints: dict[str, Any] = {"groups": groups}
    echo = {k: w[k] for k in codec.RESPONSE_ENVELOPE["echo"] if k in w}
    if echo:
        hints["echo"] = echo
        err = echo.get("error")
        if err is not None and not ctx.same:
            ctx.loss(
                "error", "the response's error object dropped", f"{ctx.target} has none", "errors"
            )
    if "object" in w and w["object"] != "response":
        hints["object"] = w["object"]
    if "status" in w:
        hints["status"] = w["status"]
    if "incomplete_details" in w:
        hints["incomplete_details"] = w["incomplete_details"]
    resp.hints = {**(resp.hints or {}), **hints}


def _encode_response(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    # the identity path needs a response decoded from Responses (an accumulated stream has none)
    same = ctx.same and "groups" in (resp.hints or {})
    hints = (resp.hints or {}) if same else {}
    groups = regroup(resp.parts, hints.get("groups"))
    items: list[dict[str, Any]] = []
    if groups is not None:
        for j, (g, chunk) in enumerate(groups):
            m = Message(role=g["role"], parts=chunk, hints=g["hints"], ext=g["ext"])
            path = f"output[{j}]"
            if m.role == "assistant":
                items.extend(assistant_items(m, path, codec, ctx, output=True))
            else:
                items.extend(encode_items([m], path, codec, ctx))
    else:
        items = assistant_items(
            Message(role="assistant", parts=resp.parts), "output", codec, ctx, output=True
        )
    if same and "status" in hints:
        status, details = hints["status"], hints.get("incomplete_details")
    else:
        status, details, lossy = finish_status(resp.finish, codec, ctx.same)
        if lossy:
            what, why = finish_loss(
                resp.finish, details["reason"] if details else status, ctx.target
            )
            ctx.loss("status", what, why, "finish_reason")
    if same:  # the envelope's defaults are written: the source's own values over them
        out.update(hints.get("echo") or {})
        if "object" in hints:
            out["object"] = hints["object"]
    out["status"] = status
    out["incomplete_details"] = details
    out["output"] = items
    if resp.usage is not None or not same:  # else null, or left out as the source did
        out["usage"] = encode_usage(resp, codec, ctx)


RESPONSES_OUTPUT = Transform(
    name="responses_output",
    doc=__doc__ or "",
    response_keys=frozenset({"object", "output", "status", "incomplete_details", "usage"}),
    decode_response=_decode_response,
    encode_response=_encode_response,
)
