"""Stream decoders (wire SSE events -> canonical events) and encoders (canonical -> SSE bytes)."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from .._protocols import protocol
from ._base import StreamDecoderBase, StreamEncoderBase
from .accumulate import Accumulator, StreamFailed, accumulate
from .encoder import Encoder
from .machine import Decoder
from .rules import StreamRows


@cache
def _rows(pid: str) -> StreamRows | None:
    """The protocol's compiled stream rows, or None when a named stream transform runs it."""
    try:
        mod = import_module(f"interlingua.generated.{pid}_stream")
    except ModuleNotFoundError:
        return None
    rows: StreamRows = mod.ROWS
    return rows


def stream_decoder(pid: str) -> StreamDecoderBase:
    p = protocol(pid)
    rows = _rows(pid)
    if rows is not None:
        return Decoder(p.codec, rows)
    dec: Any = import_module(f"interlingua.streams.{pid}").Decoder(p.codec)
    return dec  # type: ignore[no-any-return]


def stream_encoder(pid: str) -> StreamEncoderBase:
    p = protocol(pid)
    rows = _rows(pid)
    if rows is not None:
        return Encoder(p.codec, rows)
    enc: Any = import_module(f"interlingua.streams.{pid}").Encoder(p.codec)
    return enc  # type: ignore[no-any-return]


__all__ = [
    "Accumulator",
    "StreamDecoderBase",
    "StreamEncoderBase",
    "StreamFailed",
    "accumulate",
    "stream_decoder",
    "stream_encoder",
]
