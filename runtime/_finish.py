"""The one finish-loss rule, for responses and streams alike.

The finish rule itself (wire value <-> canonical ``Finish``) is compiled from the protocol's rows
into its generated codec (codegen/envelope_code.py): ``decode_finish`` and ``encode_finish``, which
the stream machines call, and ``read_finish`` / ``write_finish`` where the response_envelope row
puts the finish, which the response transforms call. ``finish_wire`` is what the codec's
``write_finish`` and the stream encoder's end both do with ``encode_finish``: take the wire value
and report a reason the target cannot say, in the same words."""

from __future__ import annotations

from collections.abc import Callable

from ._losses import Ctx
from .generated.canonical import Finish

__all__ = ["finish_wire"]


def finish_wire(
    encode: Callable[[Finish | None, bool, bool], tuple[str | int, bool]],
    f: Finish | None,
    has_calls: bool,
    ctx: Ctx,
    path: str,
) -> str | int:
    """``f``'s wire value through the target codec's ``encode_finish`` (an unknown raw value, or
    a number, is kept when ``ctx.same``); a reason the target has no value for is reported at
    ``path``."""
    raw, lossy = encode(f, has_calls, ctx.same)
    if lossy:
        said = (f.raw or f.unified) if f is not None else "stop"
        ctx.loss(
            path,
            f"finish reason {said!r} sent as {raw!r}",
            f"{ctx.target} has no such reason",
            "finish_reason",
        )
    return raw
