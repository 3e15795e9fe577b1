"""The words of a finish reason the target cannot say, for responses and streams alike.

The finish rule itself (wire value <-> canonical ``Finish``) is compiled from the protocol's rows
into its generated codec (codegen/envelope_code.py): ``decode_finish`` and ``encode_finish``, which
the stream machines call, and ``read_finish`` / ``write_finish`` where the response_envelope row
puts the finish, which the response transforms call."""

from __future__ import annotations

from .generated.canonical import Finish

__all__ = ["finish_loss"]


def finish_loss(f: Finish | None, raw: str, target: str) -> tuple[str, str]:
    """(what, why) of a finish reason the target cannot say."""
    said = (f.raw or f.unified) if f is not None else "stop"
    return f"finish reason {said!r} sent as {raw!r}", f"{target} has no such reason"
