"""Stream decoders (wire SSE events -> canonical events) and encoders (canonical -> SSE bytes)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .._protocols import protocol
from ._base import StreamDecoderBase, StreamEncoderBase
from .accumulate import Accumulator, StreamFailed, accumulate


def stream_decoder(pid: str) -> StreamDecoderBase:
    p = protocol(pid)
    mod = import_module(f"interlingua.streams.{pid}")
    dec: Any = mod.Decoder(p.codec)
    return dec  # type: ignore[no-any-return]


def stream_encoder(pid: str) -> StreamEncoderBase:
    p = protocol(pid)
    mod = import_module(f"interlingua.streams.{pid}")
    enc: Any = mod.Encoder(p.codec)
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
