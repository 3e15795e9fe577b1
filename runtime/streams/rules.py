"""The compiled form of a protocol's stream rows (generated/<id>_stream.py builds these).

A ``Rule`` is one decode row: readers (functions of a wire object returning a value or None)
for each thing the row says. ``StreamRows`` holds a protocol's rules by event kind plus its
ordering facts and encode templates. The generic machines (``machine.Decoder``,
``encoder.Encoder``) run them; nothing here knows a protocol by name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Reader", "Rule", "StreamRows", "Template", "omit"]

Reader = Callable[[Any], Any]
Template = Callable[[Any, Any, int], Any]  # (encoder, event, index) -> SSE frame (bytes)


@dataclass(slots=True, kw_only=True, frozen=True)
class Rule:
    key: Reader | None = None
    key_const: str | None = None
    key_prefix: str = ""
    sub: Reader | None = None  # a position under the key: block "<key>:<sub>", ends with <key>
    open: str | None = None
    close: bool = False
    text: tuple[Reader, ...] = ()
    call_id: Reader | None = None
    name: Reader | None = None
    arguments: Reader | None = None
    arguments_object: Reader | None = None
    whole: bool = False  # text / arguments are whole values: used when no delta came
    separator: str | None = None  # a new part of the block: written first if it has text
    signature: Reader | None = None
    redacted: Reader | None = None
    owner: Reader | None = None  # -> (owner protocol id, "text" | "encrypted") or None
    what: str = ""  # a counted event or ignored block: its name in the loss report
    label: Reader | None = None  # ... or read from the wire (Anthropic: the block's type)
    quiet: bool = False  # without text, arguments or a call id the row does nothing to a block
    # whole parts (Gemini; streams/parts.py)
    sure: bool = False  # the item holds its block: a call, or opaque state, opens it (no text)
    lone_signature: Reader | None = None
    assemble: Any = None  # a named stream transform module: start / feed / text
    pieces: Reader | None = None


@dataclass(slots=True, kw_only=True, frozen=True)
class StreamRows:
    protocol: str
    dispatch: Callable[[Any, Any, list[Any]], bool]  # runs the rows on one event: matched?
    start_event: bool  # the start is an event of its own (else read from every chunk)
    implicit_blocks: bool
    done_sentinel: str | None
    end_after_finish: bool
    special: tuple[str, ...] = ()  # data lines that are no JSON: the done sentinel, data to skip
    parts: bool = False  # some row has sub, whole or separator
    sequential: bool = False
    counters: dict[str, str] = field(default_factory=dict)  # block kind -> its index counter
    id_default: str = ""
    empty_arguments: str | None = None
    templates: dict[str, Template] = field(default_factory=dict)  # canonical event -> frame
    end: tuple[Template, ...] = ()  # the frames of a completed ending (None: the row is off)
    done: bytes | None = None  # the final data line
    group: str | None = None  # blocks of this kind share one wire item (group_start/_end)
    ids: dict[str, str] = field(default_factory=dict)  # kind -> wire item id prefix
    accumulate: tuple[str, ...] = ()  # kinds whose block templates read (s.cur: id, deltas, text)
    owners: dict[str, str] = field(default_factory=dict)  # opaque state it carries: id -> wire
    unknown_owner: str = ""
    # whole parts (Gemini; streams/parts.py)
    batches: bool = False  # a data line may hold a list of events
    random_ids: bool = False  # a call with no id gets ilg_<random>, else call_interlingua_<n>
    pending: bool = False  # templates write $pending_signature


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
