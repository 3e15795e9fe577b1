"""translate_stream / atranslate_stream: SSE bytes of one protocol in, SSE bytes of another out."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any

from ._errors import InterlinguaError
from ._losses import Ctx, Loss, extension_loss
from ._protocols import sides
from ._sse import SSEDecoder
from .generated.canonical import (
    ErrorEvent,
    ReasoningEnd,
    StreamEnd,
    StreamStart,
    Usage,
    UsageEvent,
)
from .streams import Decoder, stream_decoder, stream_encoder
from .streams.machine import upstream_error
from .transforms.envelopes import replay_loss, state_lost

__all__ = ["StreamTranslator", "translate_stream", "atranslate_stream"]


class StreamTranslator:
    """bytes in (any chunking) -> bytes out, one ``feed`` per upstream chunk, then ``close``.

    ``usage`` is the last usage seen; ``losses`` lists opaque reasoning state the target cannot
    carry (the stream itself has no room to say so)."""

    __slots__ = ("sse", "decoder", "encoder", "target", "usage", "losses")

    def __init__(
        self,
        source: str,
        target: str,
        dialect: str | None = None,
        *,
        source_dialect: str | None = None,
        target_dialect: str | None = None,
        expect_usage: bool = False,
    ) -> None:
        """``dialect`` applies to the side(s) speaking its base protocol; ``source_dialect`` /
        ``target_dialect`` name one side's dialect (a gateway's upstream). ``expect_usage``:
        the request asked for usage at the end (Chat's ``stream_options.include_usage``), so a
        stream cut after its finish reason but before the usage is reported as cut."""
        sd, td = sides(dialect, source, target)
        sd, td = source_dialect or sd, target_dialect or td
        self.sse = SSEDecoder()
        self.decoder: Decoder = stream_decoder(source, sd)
        self.decoder.expect_usage = expect_usage
        self.encoder = stream_encoder(target, td)
        self.encoder.ctx = Ctx(source, target, self.encoder.losses)  # (same: a finish is kept)
        self.target = target
        self.usage: Usage | None = None
        self.losses: list[Loss] = []

    def _pump(self, events: list[Any], out: list[bytes]) -> None:
        enc = self.encoder.feed
        for cev in events:
            t = type(cev)
            if t in _NOTED:
                self._note(cev)
            out += enc(cev)

    def _note(self, ev: Any) -> None:
        if type(ev) is ReasoningEnd:
            if state_lost(ev.owner, ev.signature, ev.redacted, self.encoder.codec):
                self.losses.append(replay_loss(f"stream.reasoning[{ev.key}]", ev.owner))
        elif ev.usage is not None:  # UsageEvent, StreamStart
            self.usage = ev.usage

    def feed(self, chunk: bytes) -> bytes:
        out: list[bytes] = []
        dec = self.decoder.feed
        for ev in self.sse.feed(chunk):
            try:
                events = dec(ev)
            except InterlinguaError as e:  # a field of the wrong type: the stream fails
                events = self._invalid(e)
            self._pump(events, out)
        return b"".join(out)

    def _invalid(self, e: InterlinguaError) -> list[Any]:
        """An event the decoder refused (InvalidInput naming the field): the stream's failed
        ending, in band, as any upstream error mid-stream."""
        if self.decoder.ended is not None:
            return []
        self.decoder.ended = "failed"
        err = upstream_error(f"upstream sent an invalid stream event: {e}")
        return [ErrorEvent(error=err), StreamEnd(ending="failed")]

    def close(self) -> bytes:
        out: list[bytes] = []
        self._pump(self._last_events(), out)
        return b"".join(out) + self._end()

    def _last_events(self) -> list[Any]:
        """The decoder's events at the end of the stream (one it refuses: the failed ending)."""
        try:
            return self.decoder.close()
        except InterlinguaError as e:
            return self._invalid(e)

    def _end(self) -> bytes:
        """The encoder's end, and the losses the whole stream shows: the encoder's, the usage
        the target cannot say, the source's fields and events no row reads."""
        out = self.encoder.close()
        self.losses += self.encoder.losses
        if self.usage is not None:
            codec = self.encoder.codec  # the one usage rule, compiled into the target's codec
            self.losses += codec.usage_losses(self.usage, self.target, "stream.usage")
        src = self.decoder.codec.PROTOCOL
        for (kind, path), n in self.decoder.unread.items():
            key = path.rsplit(".", 1)[-1] if kind == "field" else path
            self.losses.append(extension_loss(f"stream.{path}", key, src, self.target, n, kind))
        return b"".join(out)


_NOTED = frozenset({ReasoningEnd, UsageEvent, StreamStart})


def translate_stream(
    chunks: Iterable[bytes], *, source: str, target: str, dialect: str | None = None
) -> Iterator[bytes]:
    t = StreamTranslator(source, target, dialect)
    yield from filter(None, map(t.feed, chunks))  # a chunk that makes no output yields nothing
    out = t.close()
    if out:
        yield out


async def atranslate_stream(
    chunks: AsyncIterable[bytes], *, source: str, target: str, dialect: str | None = None
) -> AsyncIterator[bytes]:
    t = StreamTranslator(source, target, dialect)
    async for chunk in chunks:
        out = t.feed(chunk)
        if out:
            yield out
    out = t.close()
    if out:
        yield out
