"""Streaming end to end: each upstream chunk is translated and sent on at once (no buffering).

- memory stays flat: only the translator's state (an unfinished SSE event, open tool calls) is
  kept between chunks;
- a client that goes away cancels the upstream request (its connection is closed);
- an upstream failure after the stream started (connection reset, timeout between chunks)
  becomes the caller's in-band error event, never a clean stop: the translator's encoder is fed
  an error event, and a stream that simply ends without its terminal event gets the
  translator's own "disconnected" ending (also an error).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from .._stream_api import StreamTranslator
from ..generated.canonical import ErrorEvent, ErrorInfo
from .disconnect import ClientGone, DisconnectWatch
from .errors import info_from_exception
from .log import AccessRecord
from .shutdown import SHUTTING_DOWN, DrainWatch
from .upstream import UpstreamAnswer, close_answer

__all__ = ["ObservedTranslator", "SSEStreamResponse"]

_log = logging.getLogger("interlingua.gateway")

SSE_HEADERS = (
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
)


class ObservedTranslator(StreamTranslator):
    """A StreamTranslator that can end a stream the upstream broke off (usage and losses are
    noted by the base class for the access log)."""

    __slots__ = ()

    def fail(self, info: ErrorInfo) -> bytes:
        """The upstream broke off: the caller's in-band error, unless the stream had ended."""
        out: list[bytes] = []
        if self.decoder.ended is None:
            self.decoder.ended = "failed"
            out += self.encoder.feed(ErrorEvent(error=info))
        return b"".join(out) + self.close()


class SSEStreamResponse:
    """An ASGI response that relays an open upstream response through a translator."""

    open_streams: Any = None  # a gauge (metrics.py): counted while the stream lasts
    drain: Any = None  # shutdown.Drain: a stream still open at its bound ends in band

    def __init__(
        self,
        upstream: UpstreamAnswer,
        translator: ObservedTranslator,
        record: AccessRecord,
        headers: dict[str, str] | None = None,
        on_end: Callable[[Any, AccessRecord], Awaitable[bytes]] | None = None,
    ) -> None:
        self.on_end = on_end  # the gateway state: what ends the stream, once it is saved
        self.upstream = upstream
        self.translator = translator
        self.record = record
        self.headers = list(SSE_HEADERS) + [
            (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in (headers or {}).items()
        ]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        rec = self.record
        rec.status = 200
        rec.ending = "cancelled"  # until the producer says otherwise
        if self.open_streams is not None:
            self.open_streams.inc()
        try:
            with DisconnectWatch(receive, scope):  # the caller leaves: the relay is cancelled
                await self._relay(send)
        except ClientGone:
            pass
        finally:
            await close_answer(self.upstream)  # shielded from a cancel; the rest never waits
            if rec.ending == "cancelled" and self.translator.decoder.ended is not None:
                # the caller left after the terminal event (as SDKs do), before the
                # upstream's own end of body: the stream did complete
                rec.ending = self.translator.decoder.ended
            rec.usage = self.translator.usage or rec.usage
            rec.add_losses(self.translator.losses)
            rec.emit()
            if self.open_streams is not None:
                self.open_streams.dec()

    async def _relay(self, send: Any) -> None:
        t = self.translator
        rec = self.record
        upstream = self.upstream
        await send({"type": "http.response.start", "status": 200, "headers": self.headers})
        tail = b""  # the events of the upstream's last read: they leave with the end, one write
        try:
            with DrainWatch(self.drain) as stop:  # the shutdown's bound: cancelled in band
                async for chunk in upstream.aiter_bytes():
                    out = t.feed(chunk)
                    if out:
                        rec.first_byte()
                        if getattr(upstream, "complete", False):  # h1answer: nothing more comes
                            tail = out
                            continue
                        await send({"type": "http.response.body", "body": out, "more_body": True})
            if stop.stopped:
                rec.error = "shutdown"
                out = t.fail(SHUTTING_DOWN)
            else:
                out = t.close()
        except httpx.HTTPError as e:
            info = info_from_exception(e)
            info.message = f"upstream stream broke off: {info.message}"
            rec.error = info.type
            out = t.fail(info)
        except OSError:  # the caller is gone (ASGI 2.4 servers raise it from send)
            raise
        except Exception as e:  # a bug must still end the caller's stream with an error
            _log.exception("stream %s failed", rec.request_id)
            info = info_from_exception(e)  # as a call that fails before its stream
            rec.error = info.type
            try:
                out = t.fail(info)
            except Exception:
                out = b""
        out = tail + out
        rec.ending = t.decoder.ended
        if rec.ending not in (None, "completed") and rec.error is None:
            rec.error = rec.ending
        if self.on_end is not None:  # the gateway state, saved before the caller sees the end
            out += await self.on_end(t, rec)
        rec.first_byte()
        await send({"type": "http.response.body", "body": out, "more_body": False})
