"""Stream decoders (wire SSE events -> canonical events) and encoders (canonical -> SSE bytes)."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from .._errors import InterlinguaError
from .._protocols import dialect_module, protocol
from ._base import StreamDecoderBase, StreamEncoderBase
from .accumulate import Accumulator, StreamFailed, accumulate
from .encoder import Encoder
from .machine import Decoder
from .rules import StreamRows


class NoStream(InterlinguaError):
    """The protocol's spec has no `stream:` section."""


@cache
def _stream(pid: str, dialect: str | None = None) -> tuple[StreamRows | None, Any]:
    """The protocol's (or dialect's) compiled stream rows, or the module of its named stream
    transform."""
    protocol(pid)
    module = dialect_module(pid, dialect)
    try:
        mod = import_module(f"interlingua.generated.{module}_stream")
    except ModuleNotFoundError:
        raise NoStream(f"protocol {pid!r} has no stream rows in its spec") from None
    if mod.ROWS is not None:
        return mod.ROWS, None
    return None, import_module(f"interlingua.streams.{mod.TRANSFORM}")


def stream_decoder(pid: str, dialect: str | None = None) -> StreamDecoderBase:
    rows, machine = _stream(pid, dialect)
    codec = protocol(pid, dialect).codec
    dec: StreamDecoderBase = Decoder(codec, rows) if rows is not None else machine.Decoder(codec)
    return dec


def stream_encoder(pid: str, dialect: str | None = None) -> StreamEncoderBase:
    rows, machine = _stream(pid, dialect)
    codec = protocol(pid, dialect).codec
    enc: StreamEncoderBase = Encoder(codec, rows) if rows is not None else machine.Encoder(codec)
    return enc


__all__ = [
    "Accumulator",
    "NoStream",
    "StreamDecoderBase",
    "StreamEncoderBase",
    "StreamFailed",
    "accumulate",
    "stream_decoder",
    "stream_encoder",
]
