"""Stream decoders (wire SSE events -> canonical events) and encoders (canonical -> SSE bytes)."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from .._errors import InterlinguaError
from .._protocols import dialect_module, protocol
from .accumulate import Accumulator, StreamFailed, accumulate
from .encoder import Encoder
from .machine import Decoder
from .rules import StreamRows


class NoStream(InterlinguaError):
    """The protocol's spec has no `stream:` section."""


@cache
def _rows(pid: str, dialect: str | None = None) -> StreamRows:
    """The protocol's (or dialect's) compiled stream rows."""
    protocol(pid)
    try:
        mod = import_module(f"interlingua.generated.{dialect_module(pid, dialect)}_stream")
    except ModuleNotFoundError:
        raise NoStream(f"protocol {pid!r} has no stream rows in its spec") from None
    return mod.ROWS  # type: ignore[no-any-return]


def stream_decoder(pid: str, dialect: str | None = None) -> Decoder:
    return Decoder(protocol(pid, dialect), _rows(pid, dialect))


def stream_encoder(pid: str, dialect: str | None = None) -> Encoder:
    return Encoder(protocol(pid, dialect), _rows(pid, dialect))


__all__ = [
    "Accumulator",
    "NoStream",
    "Decoder",
    "StreamFailed",
    "accumulate",
    "stream_decoder",
    "stream_encoder",
]
