"""What every stream decoder and encoder shares: the fed/closed state machine contract.

A decoder turns wire SSE events into canonical stream events; an encoder turns canonical events
into SSE bytes. Both are I/O-free, fed one event at a time (``feed``) and finished by ``close``,
so the same objects serve sync, async, the CLI and the gateway."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput
from .._sse import SSEEvent
from ..generated.canonical import ErrorEvent, ErrorInfo, StreamEnd
from .inband import inband_error

__all__ = ["StreamDecoderBase", "bad_data"]


def bad_data(e: Exception) -> ErrorEvent:
    """The in-band failure of an event whose data is not JSON (``e``: orjson's error) or nests
    deeper than the encoders can write (``InvalidInput`` from ``check_writable``)."""
    why = f"has a value {e}" if isinstance(e, InvalidInput) else "is not JSON"
    err = ErrorInfo(
        type="bad_gateway", message=f"upstream sent an SSE event that {why}", status=502
    )
    return ErrorEvent(error=err)


class StreamDecoderBase:
    """The decoder's endings: completed (terminal event seen), failed (an error event) or
    disconnected; and what it read no canonical home for. At close a stream is complete after a
    finish where the rows say so (and the usage asked for came), else disconnected."""

    rows: Any
    finished: bool  # a finish reason was read
    raw_usage: dict[str, Any]

    def __init__(self, codec: Any) -> None:
        self.codec = codec
        self.ended: str | None = None
        self.ignored = 0  # unknown event types: tolerated and counted
        # the request asked for usage at the end (Chat's stream_options.include_usage): a stream
        # that stops after its finish but before the usage is cut, not complete
        self.expect_usage = False
        # (kind, wire path) with no canonical home -> times seen; kind: "field" or "event"
        self.unread: dict[tuple[str, str], int] = {}

    def drop(self, path: str, kind: str = "field") -> None:
        """A wire field or event with no canonical home: reported once, with its count."""
        self.unread[kind, path] = self.unread.get((kind, path), 0) + 1

    def drop_fields(self, obj: dict[str, Any], keys: frozenset[str], at: str) -> None:
        """Report the keys of ``obj`` outside ``keys`` that hold a value."""
        for k, v in obj.items():
            if k not in keys and v is not None and v != "" and v != [] and v != {}:
                self.drop(f"{at}.{k}")

    def feed(self, ev: SSEEvent) -> list[Any]:
        raise NotImplementedError  # machine.Decoder

    def _close_all(self) -> list[Any]:
        raise NotImplementedError  # the open blocks end (machine.Decoder)

    def _end(self, ending: str, *events: Any) -> list[Any]:
        """The open blocks end, then ``events`` (an error), then the stream."""
        out = self._close_all()
        out += events
        self.ended = ending
        out.append(StreamEnd(ending=ending))
        return out

    def _fail_error(self, err: Any, d: Any, out: list[Any], type_at: Any = None) -> None:
        """``err``: the value at a row's ``error`` path in event ``d``: the stream fails
        (``type_at``: the reader of the row's ``error_type``)."""
        info = inband_error(self.codec, self.rows.protocol, err, d, type_at)
        out += self._end("failed", ErrorEvent(error=info))

    def close(self) -> list[Any]:
        if self.ended is not None:
            return []
        if self.finished and self.rows.end_after_finish:
            if not self.expect_usage or self.raw_usage:  # the usage asked for came
                return self._end("completed")
            return self._end("disconnected", ErrorEvent(error=USAGE_LOST))
        self.ended = "disconnected"  # (the open blocks stay open: the stream was cut)
        return [StreamEnd(ending="disconnected")]


DISCONNECTED = ErrorInfo(
    type="bad_gateway", message="upstream stream ended without its terminal event", status=502
)
USAGE_LOST = ErrorInfo(
    type="bad_gateway",
    message="upstream stream ended after its finish but before the usage it was asked for "
    "and its terminal event: the usage is lost",
    status=502,
)
