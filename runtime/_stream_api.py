"""translate_stream / atranslate_stream: SSE bytes of one protocol in, SSE bytes of another out."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator

from ._sse import SSEDecoder
from .streams import StreamDecoderBase, StreamEncoderBase, stream_decoder, stream_encoder

__all__ = ["StreamTranslator", "translate_stream", "atranslate_stream"]


class StreamTranslator:
    """bytes in (any chunking) -> bytes out, one ``feed`` per upstream chunk, then ``close``."""

    __slots__ = ("sse", "decoder", "encoder")

    def __init__(self, source: str, target: str) -> None:
        self.sse = SSEDecoder()
        self.decoder: StreamDecoderBase = stream_decoder(source)
        self.encoder: StreamEncoderBase = stream_encoder(target)

    def feed(self, chunk: bytes) -> bytes:
        out: list[bytes] = []
        dec = self.decoder.feed
        enc = self.encoder.feed
        for ev in self.sse.feed(chunk):
            for cev in dec(ev):
                out += enc(cev)
        return b"".join(out)

    def close(self) -> bytes:
        out: list[bytes] = []
        self.sse.close()
        for cev in self.decoder.close():
            out += self.encoder.feed(cev)
        out += self.encoder.close()
        return b"".join(out)


def translate_stream(chunks: Iterable[bytes], *, source: str, target: str) -> Iterator[bytes]:
    t = StreamTranslator(source, target)
    for chunk in chunks:
        out = t.feed(chunk)
        if out:
            yield out
    out = t.close()
    if out:
        yield out


async def atranslate_stream(
    chunks: AsyncIterable[bytes], *, source: str, target: str
) -> AsyncIterator[bytes]:
    t = StreamTranslator(source, target)
    async for chunk in chunks:
        out = t.feed(chunk)
        if out:
            yield out
    out = t.close()
    if out:
        yield out
