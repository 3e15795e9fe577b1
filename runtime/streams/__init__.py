"""Stream decoders (wire SSE events -> canonical events) and encoders (canonical -> SSE bytes)."""

from __future__ import annotations

from functools import cache
from types import ModuleType

from .._errors import InterlinguaError
from .._protocols import generated, protocol
from .accumulate import Accumulator, StreamFailed, accumulate
from .encoder import Encoder
from .machine import Decoder
from .rules import StreamRows


class NoStream(InterlinguaError):
    """The protocol's spec has no `stream:` section."""


@cache
def _parts(pid: str, dialect: str | None = None) -> tuple[ModuleType, StreamRows]:
    """The protocol's (or dialect's) codec and compiled stream rows."""
    codec = protocol(pid, dialect)
    try:
        return codec, generated(pid, dialect, "stream").ROWS
    except ModuleNotFoundError:
        raise NoStream(f"protocol {pid!r} has no stream rows in its spec") from None


def stream_decoder(pid: str, dialect: str | None = None) -> Decoder:
    return Decoder(*_parts(pid, dialect))


def stream_encoder(pid: str, dialect: str | None = None) -> Encoder:
    return Encoder(*_parts(pid, dialect))


__all__ = [
    "Accumulator",
    "NoStream",
    "Decoder",
    "StreamFailed",
    "accumulate",
    "stream_decoder",
    "stream_encoder",
]
