"""What every stream decoder and encoder shares: the fed/closed state machine contract.

A decoder turns wire SSE events into canonical stream events; an encoder turns canonical events
into SSE bytes. Both are I/O-free, fed one event at a time (``feed``) and finished by ``close``,
so the same objects serve sync, async, the CLI and the gateway."""

from __future__ import annotations

from typing import Any

import orjson

from .._errors import InvalidInput
from .._losses import Loss
from .._sse import SSEEvent
from .._wire import MAX_DEPTH, check_writable, parse_json
from ..generated.canonical import ErrorEvent, ErrorInfo, StreamEnd

__all__ = ["StreamDecoderBase", "StreamEncoderBase", "frame", "parse_data", "sse_prefix"]


_PREFIX: dict[str | None, bytes] = {None: b"data: "}  # event name -> the bytes before its data


def frame(obj: Any, event: str | None) -> bytes:
    """One SSE event: ``event:`` line (when the protocol names events) + one ``data:`` line."""
    p = _PREFIX.get(event)
    if p is None:  # a handful of names per protocol
        p = sse_prefix(event)
    return p + orjson.dumps(obj) + b"\n\n"


def sse_prefix(event: str | None) -> bytes:
    """The bytes before the data of an event named ``event`` (kept: a handful per protocol)."""
    p = _PREFIX.get(event)
    if p is None:
        p = _PREFIX[event] = b"event: " + str(event).encode() + b"\ndata: "
    return p


def parse_data(ev: SSEEvent) -> tuple[Any, ErrorEvent | None]:
    """An event's JSON data; an in-band failure when it is not JSON or nests deeper than the
    encoders can write (``MAX_DEPTH``)."""
    try:
        return parse_json(ev.data), None
    except InvalidInput as e:
        why = "is not JSON" if "not valid JSON" in e.message else f"has a value {e}"
        err = ErrorInfo(
            type="bad_gateway", message=f"upstream sent an SSE event that {why}", status=502
        )
        return None, ErrorEvent(error=err)


def deep_check(data: str, d: Any) -> None:
    """InvalidInput when an event's parsed data nests deeper than the encoders can write back
    (only data long enough to nest that deep is checked)."""
    if len(data) > 2 * MAX_DEPTH:
        check_writable(d)


class StreamDecoderBase:
    """Tracks the ending: completed (terminal event seen), failed (error event) or disconnected."""

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
        raise NotImplementedError

    def usage_lost(self, closing: list[Any]) -> list[Any]:
        """The ending of a stream cut after its finish, before the usage it was asked for."""
        self.ended = "disconnected"
        return [*closing, ErrorEvent(error=USAGE_LOST), StreamEnd(ending="disconnected")]

    def close(self) -> list[Any]:
        if self.ended is None:
            self.ended = "disconnected"
            return [StreamEnd(ending="disconnected")]
        return []


class StreamEncoderBase:
    """``losses``: what the target could not say (a finish reason it has no value for)."""

    def __init__(self, codec: Any) -> None:
        self.codec = codec
        self.closed = False
        self.losses: list[Loss] = []

    def feed(self, ev: Any) -> list[bytes]:
        raise NotImplementedError

    def close(self) -> list[bytes]:
        return []


DISCONNECTED = ErrorInfo(
    type="bad_gateway", message="upstream stream ended without its terminal event", status=502
)
USAGE_LOST = ErrorInfo(
    type="bad_gateway",
    message="upstream stream ended after its finish but before the usage it was asked for "
    "and its terminal event: the usage is lost",
    status=502,
)


def error_frame(err: ErrorInfo, target: str, event: str | None) -> bytes:
    """An in-band error event: the same body ``encode_error`` gives the target's HTTP errors."""
    from .._pipeline import encode_error  # the pipeline imports the stream modules lazily
    from .._protocols import protocol

    status, body = encode_error(err, target)
    code_path = protocol(target).codec.ERROR_SHAPE.get("code_path")
    if code_path:  # in band the HTTP status is gone: an empty code carries it instead
        inner = body
        *parents, leaf = code_path.split(".")
        for key in parents:
            inner = inner[key]
        if inner.get(leaf) is None:
            inner[leaf] = status
    return frame(body, event)
