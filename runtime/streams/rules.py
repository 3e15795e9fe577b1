"""The compiled form of a protocol's stream rows (generated/<id>_stream.py builds these).

``StreamRows`` holds a protocol's decode rows, compiled into one ``dispatch`` function (which
calls each row's compiled block step), plus its ordering facts and compiled encode steps. The generic machines (``machine.Decoder``,
``encoder.Encoder``) run them; nothing here knows a protocol by name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["StreamRows", "Template", "omit"]

Template = Callable[[Any, Any, int], Any]  # (encoder, event, index) -> SSE frame (bytes)


@dataclass(slots=True, kw_only=True, frozen=True)
class StreamRows:
    protocol: str
    # runs the rows on one event's data (any JSON; a list where the stream batches), placing the
    # start it reads: matched?
    dispatch: Callable[[Any, Any, list[Any]], bool]
    block: Callable[[str, str], Any]  # a decoded block (kind, canonical key)
    done_sentinel: str | None
    end_after_finish: bool
    # block kind -> how a decoded block of it ends (decoder, block, out): its end event, with
    # the argument pieces or opaque state its rows gathered
    close: dict[str, Callable[[Any, Any, list[Any]], None]] = field(default_factory=dict)
    special: tuple[str, ...] = ()  # data lines that are no JSON: the done sentinel, data to skip
    id_default: str = ""
    # the templates the encoder writes itself (the compiled code calls the others): the
    # stream's start (None: the protocol has no start event), its in-band error
    start: Template | None = None
    error: Template = lambda s, ev, i: b""
    # the compiled handlers of the events that build and end blocks (starts, deltas, ends: event
    # type -> handler (encoder, event, out)) and a started call's argument text (encoder, block, event,
    # out)
    on: dict[type, Callable[[Any, Any, list[bytes]], None]] = field(default_factory=dict)
    args: Callable[[Any, Any, Any, list[bytes]], None] = lambda s, b, ev, out: None
    # block kind -> how a block of it ends (encoder, block, end event or None, out)
    finish: dict[str, Callable[[Any, Any, Any, list[bytes]], None]] = field(default_factory=dict)
    end: Callable[[Any, Any, list[bytes]], None] = lambda s, ev, out: None  # a completed ending
    # sequential blocks (codegen/stream_sequential.py): the open block and the calls waiting end
    settle: Callable[[Any, list[bytes]], None] = lambda s, out: None
    # blocks grouped into one wire item (codegen/stream_lifecycle.group_funcs): the open one ends
    end_group: Callable[[Any, list[bytes]], None] = lambda s, out: None


NONE: dict[str, Any] = {}  # unpacked where an optional template key is left out (never written)


def omit(d: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """A template body without its optional keys (``key?``) whose value is None."""
    for k in keys:
        if d.get(k) is None:
            d.pop(k, None)
    return d


def some(d: dict[str, Any], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """A list element of literals and optional keys: kept only if one of them has a value."""
    return [d] if any(k in d for k in keys) else []
