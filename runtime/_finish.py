"""The finish rule, once: wire finish value <-> canonical ``Finish``, for responses and streams.

Facts come from the protocol's rows: ``finish_reasons`` (raw <-> unified), the defaults for an
unknown raw value and for a unified value without a row (``enum_defaults``), numeric wire values
(``finish_rule.numeric``) and whether a plain stop with tool calls in the output means tool_calls
(``finish_rule.stop_with_calls``)."""

from __future__ import annotations

from typing import Any

from ._codec_support import get_dotted
from ._losses import Ctx
from ._wire import expect_str
from .generated.canonical import Finish

__all__ = [
    "decode_finish",
    "encode_finish",
    "finish_loss",
    "read_finish",
    "write_finish",
]


def decode_finish(codec: Any, raw: Any, has_calls: bool = False) -> Finish:
    """A wire finish value (str or a protocol's number) -> Finish{unified, raw}."""
    if type(raw) is int:
        raw = codec.FINISH_NUMERIC.get(raw, str(raw))
    elif type(raw) is not str:
        raw = str(raw)
    unified = codec.FINISH_DECODE.get(raw)
    if unified is None:
        unified = codec.FINISH_DECODE_DEFAULT
    elif unified == "stop" and has_calls and codec.FINISH_STOP_WITH_CALLS:
        unified = "tool_calls"
    return Finish(unified=unified, raw=raw)


def _means(codec: Any, raw: str, unified: str) -> bool:
    """Does ``raw`` read back as ``unified`` in this protocol?"""
    back = codec.FINISH_DECODE.get(raw)
    if back == unified:
        return True
    return unified == "tool_calls" and back == "stop" and codec.FINISH_STOP_WITH_CALLS


def _unknown(codec: Any, f: Finish) -> bool:
    """A raw value this protocol has no row for, decoded to its default: kept between endpoints of
    the protocol (same-protocol translation is the identity)."""
    return f.raw not in codec.FINISH_DECODE and f.unified == codec.FINISH_DECODE_DEFAULT


def encode_finish(
    codec: Any, f: Finish | None, has_calls: bool = False, same: bool = False
) -> tuple[str, bool]:
    """Finish -> (wire value, lossy). No finish says how the output ended (tool calls or a stop);
    a raw value that means the same here is kept; otherwise the unified value's row, else the
    protocol's declared default. ``lossy``: the value does not read back as the same reason.
    ``same``: source and target are one protocol."""
    if f is None:
        f = Finish(unified="tool_calls" if has_calls else "stop", raw=None)
    if f.raw is not None and (_means(codec, f.raw, f.unified) or (same and _unknown(codec, f))):
        return f.raw, False
    raw: str = codec.FINISH_ENCODE.get(f.unified) or codec.FINISH_ENCODE_DEFAULT
    return raw, not _means(codec, raw, f.unified)


def finish_loss(f: Finish | None, raw: str, target: str) -> tuple[str, str]:
    """(what, why) of a finish reason the target cannot say."""
    said = (f.raw or f.unified) if f is not None else "stop"
    return f"finish reason {said!r} sent as {raw!r}", f"{target} has no such reason"


def read_finish(
    codec: Any, holder: dict[str, Any], prefix: str, has_calls: bool = False
) -> Finish | None:
    """The finish where the protocol's response_envelope row puts it in ``holder`` (the response,
    or the choice beside the message): its ``finish`` key, or, when that says the row's
    ``finish_detail`` value, the reason at the detail's path (Responses ``incomplete``)."""
    env = codec.RESPONSE_ENVELOPE
    raw = holder.get(env["finish"])
    d = env["finish_detail"]
    if d is not None and raw == d["value"]:
        reason = get_dotted(holder, d["reason"])
        raw = reason if type(reason) is str else raw
    if raw is None:
        return None
    if type(raw) is not int or not codec.FINISH_NUMERIC:  # numbers only where a row has them
        raw = expect_str(raw, prefix + env["finish"])  # a value that is no reason is refused
    return decode_finish(codec, raw, has_calls)


def write_finish(
    codec: Any,
    f: Finish | None,
    holder: dict[str, Any],
    ctx: Ctx,
    path: str,
    has_calls: bool = False,
) -> None:
    """``f`` where the response_envelope row puts it; no finish is null unless the row requires
    one (then how the output ended: tool calls or a stop). A reason of ``finish_detail.reasons``
    is written as its value with the reason beside it (the detail object null otherwise). A
    value the target cannot say is reported at ``path``."""
    env = codec.RESPONSE_ENVELOPE
    key, d = env["finish"], env["finish_detail"]
    if f is None and not env["finish_required"]:
        holder[key] = None
        return
    raw, lossy = encode_finish(codec, f, has_calls, ctx.same)
    if lossy:
        what, why = finish_loss(f, raw, ctx.target)
        ctx.loss(path, what, why, "finish_reason")
    if d is None:
        holder[key] = raw
        return
    top, *inner = d["reason"].split(".")
    detail: Any = raw
    for seg in reversed(inner):
        detail = {seg: detail}
    said = raw in d["reasons"]
    holder[key] = d["value"] if said else raw
    holder[top] = detail if said else None
