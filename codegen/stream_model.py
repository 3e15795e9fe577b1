"""The stream part of the spec language: how a protocol's SSE events are recognised and what they
yield (``decode`` rows), and which wire event each canonical event becomes (``encode``).

A protocol describes its stream with these rows; the generic machines in
``runtime/streams/machine.py`` and ``runtime/streams/encoder.py`` run them. Hand-written stream
code is left only for what a row's named stream transform (``assemble``) does.

Paths are dotted; a segment ``name[field=value]`` picks the first element of the list ``name``
whose ``field`` is ``value`` (a missing ``field`` counts as ``value``: Chat's ``choices[index=0]``),
a number picks by position. In encode templates a string ``$name`` is a variable (see
``TEMPLATE_VARS``); everything else is literal.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from .spec_http import Strict

BlockKind = Literal["text", "reasoning", "tool_call", "ignored"]

# variables an encode template may use, and the canonical value each one stands for
TEMPLATE_VARS = {
    "$id": "message id (StreamStart.id, or the protocol's placeholder)",
    "$model": "model (StreamStart.model, or 'unknown')",
    "$created": "created timestamp (StreamStart.created, or 0)",
    "$index": "the block's index (per `index` rule)",
    "$text": "TextDelta.text / ReasoningDelta.text",
    "$arguments": "ToolCallDelta.arguments",
    "$call_id": "ToolCallStart.id (in tool_call_end too)",
    "$name": "ToolCallStart.name (in tool_call_end too)",
    "$signature": "ReasoningEnd.signature (only to its owner)",
    "$redacted": "ReasoningEnd.redacted (only to its owner)",
    "$format": "the wire name of ReasoningEnd.owner (reasoning_details.owners)",
    "$finish": "the finish reason, through the protocol's finish rule",
    "$stop_sequence": "FinishEvent.stop_sequence",
    "$usage": "the last usage, through the protocol's usage rows",
    "$error": "ErrorEvent.error.message (an in-band error written as a template)",
    # item-shaped streams (Responses): wire items with ids, parts grouped in items, whole values
    "$seq": "the next event sequence number (0, 1, 2 ... per stream)",
    "$item_id": "the block's wire item id (`ids`; a grouped block: its group's id)",
    "$part": "a grouped block's position in its group",
    "$parts": "the finished parts of the group (`part_key` values of its blocks' end templates)",
    "$output": "the finished wire items, by index (`item_key` values of the end templates)",
    "$text_all": "all the text of the block so far",
    "$arguments_all": "all the argument text of the tool call so far",
    "$status": "completed, or incomplete once the stream fails (blocks ended by the failure)",
    "$status_failed": "null, or incomplete once the stream fails",
    "$error_type": "the raw error type of ErrorEvent.error (the protocol's errors rows)",
    "$encrypted": "opaque reasoning state for this client: its own, or another owner's in an "
    "envelope when flags.foreign_reasoning is `signature`",
    # protocols that write whole parts (`calls: whole`; Gemini)
    "$arguments_object": "the call's whole arguments as a JSON object (tool_call_end, calls: whole)",
    "$bare_call_id": "ToolCallStart.id without its signature envelope, absent when it was "
    "synthesised for a protocol without ids; the envelope's signature becomes $pending_signature "
    "(tool_call_end, calls: whole)",
    "$pending_signature": "opaque reasoning state waiting for the next part written: a signature "
    "that came with no reasoning block, a call's envelope signature, or, where the protocol's "
    "flag foreign_reasoning is `parts`, another protocol's reasoning in an envelope (never put "
    "on a reasoning part); taken by the first template that writes it",
}
# A key ending in `?` is optional: left out when its value is None; so is a list element (a dict)
# of literals and optional keys none of which has a value (codegen/stream_parts.py).

TEMPLATE_EVENTS = (
    "start",
    "text_start",
    "text_delta",
    "text_end",
    "reasoning_start",
    "reasoning_delta",
    "reasoning_signature",
    "reasoning_redacted",
    "reasoning_end",
    "tool_call_start",
    "tool_call_delta",
    "tool_call_end",
    "group_start",
    "group_end",
    "error",
)

# conditions a template row may have (`if` / `unless`)
TemplateCond = Literal["usage", "first", "text", "completed"]

Paths = str | list[str]


class DecodeRow(Strict):
    """One wire event shape and what it yields. Every key is optional; a row with no action is a
    known event that yields nothing (``ping``)."""

    event: str | list[str] | None = Field(
        None, description="value(s) of the stream's `recognise` field; absent: every event"
    )
    when: dict[str, Any] = Field(
        default_factory=dict, description="path -> required value (a list: any of them)"
    )
    at: str | None = Field(None, description="path the other paths of this row start from")
    each: str | None = Field(None, description="list path (under `at`): the row runs per item")
    key: Paths | None = Field(
        None, description="path of the vendor id that keys the block (a list: first present)"
    )
    sub: str | None = Field(
        None,
        description="path of a position under `key` (Responses content_index): the block is "
        "keyed `<key>:<sub>` and ends with the block of `key`",
    )
    key_const: str | None = Field(None, description="constant key (Chat text, reasoning)")
    key_prefix: str = Field("", description="namespace of the keys (separate index spaces)")
    open: BlockKind | None = Field(None, description="opens a block of this kind for `key`")
    ends: list[str] = Field(
        default_factory=list, description="constant keys whose blocks end first (Cohere's plan)"
    )
    close: bool = Field(False, description="ends the block of `key`")
    text: Paths | None = Field(None, description="delta text for the block (first non-empty)")
    call_id: Paths | None = Field(None, description="tool call id (a new id reopens the key)")
    name: str | None = Field(None, description="tool call name")
    arguments: str | None = Field(None, description="argument text (a JSON string)")
    arguments_object: str | None = Field(None, description="whole arguments as a JSON object")
    whole: bool = Field(
        False,
        description="text / arguments are the whole value (a `.done` event): used only when "
        "no delta came for the block (since its last `separator`)",
    )
    separator: str | None = Field(
        None, description="a new part of the block begins: this text goes first if it has text"
    )
    signature: str | None = Field(
        None,
        description="opaque reasoning state, appended; on a tool call it rides in the id "
        "(the signature envelope, transforms/call_id_envelope)",
    )
    redacted: str | None = Field(None, description="opaque redacted reasoning payload")
    owner: str | None = Field(
        None,
        description="wire value naming the owner of the block's opaque state, looked up in "
        "the protocol's reasoning_details.owners (absent: the protocol owns it)",
    )
    start: dict[Literal["id", "model", "created"], str] | None = Field(
        None, description="message id, model, created: the stream's start"
    )
    restart: Literal["ignore", "fail"] = Field(
        "ignore", description="a second start with another id: ignored or a failed stream"
    )
    usage: Paths | None = Field(None, description="usage object (first present path)")
    finish: Paths | None = Field(None, description="finish reason value (first present)")
    stop_sequence: str | None = None
    error: Paths | None = Field(None, description="a truthy value here fails the stream")
    error_type: str | None = Field(
        None,
        description="path of the error's raw type when it is not where the protocol's "
        "error_shape says: in the error object (Responses response.error.code), or in the event "
        "when the error path gave a bare message (a flat error event)",
    )
    end: bool = Field(False, description="the normal terminal event")
    count: bool = Field(False, description="an event with no canonical home: counted, ignored")
    label: str | None = Field(
        None,
        description="path of the name a counted event or ignored block has in the loss report "
        "(absent: the event's name)",
    )
    feature: str | None = Field(None, description="feature row (docs/compatibility.md)")
    note: str = ""
    # whole parts (Gemini): rows run per item of `each`, conditions read from the item
    present: Paths | None = Field(
        None,
        description="path(s) that must hold a value (read like `when`: from the item "
        "of an `each` row); on a row with conditions of its own a call, or opaque state, opens "
        "its block with no text",
    )
    lone_signature: str | None = Field(
        None,
        description="opaque reasoning state on an item that is no reasoning: a "
        "reasoning end with no start before what the row yields (the open blocks end first)",
    )
    assemble: str | None = Field(
        None,
        description="named stream transform (runtime/streams/<name>.py) assembling the "
        "call's arguments from `pieces` (`arguments_object` seeds it); one delta at the end",
    )
    pieces: str | None = Field(None, description="argument pieces for `assemble`")
    blocked: bool = Field(
        False,
        description="a refused prompt: the event read by the response_envelope.blocked row (the "
        "codec's read_blocked, as a response is); its finish, if any, is the stream's",
    )

    @property
    def sure(self) -> bool:
        """Run per item on conditions of its own: the item holds its block (a call, or opaque
        state, opens it with no text)."""
        return self.each is not None and bool(self.when or self.present)

    @model_validator(mode="after")
    def _one_key(self) -> DecodeRow:
        if self.key is not None and self.key_const is not None:
            raise ValueError("a row has `key` or `key_const`, not both")
        needs_key = (
            self.open
            or self.close
            or self.text
            or self.arguments
            or self.call_id
            or self.signature
            or self.separator is not None
        )
        if (
            (needs_key or self.assemble or self.pieces)
            and self.key is None
            and self.key_const is None
        ):
            raise ValueError("a row that touches a block needs `key` or `key_const`")
        if self.pieces is not None and self.assemble is None:
            raise ValueError("`pieces` needs `assemble` (the transform that joins them)")
        if self.blocked and self.finish is not None:
            raise ValueError("`blocked` reads the finish the response_envelope.blocked row says")
        return self


class TemplateRow(Strict):
    """A wire event written at the end of a completed stream (``if`` limits it to streams that
    saw a usage), or one of several an event template writes. ``if`` / ``unless``: usage (a
    usage was seen), first (the block's first delta), text (the block had text or arguments),
    completed (the stream is not failing); ``finish_in`` / ``finish_not_in``: the raw finish."""

    body: dict[str, Any]
    if_: TemplateCond | None = Field(None, alias="if")
    unless: TemplateCond | None = None
    finish_in: list[str] | None = None
    finish_not_in: list[str] | None = None

    @model_validator(mode="after")
    def _one_finish(self) -> TemplateRow:
        if self.finish_in is not None and self.finish_not_in is not None:
            raise ValueError("a template row has `finish_in` or `finish_not_in`, not both")
        return self


# a canonical event's template: one wire body, or several in order (rows may have conditions)
EventTemplate = dict[str, Any] | list[TemplateRow]


class EncodeSpec(Strict):
    blocks: Literal["sequential", "interleaved"] = Field(
        description="sequential: one block open at a time (later tool calls wait); interleaved: "
        "any number open"
    )
    index: Literal["shared", "per_kind", "tool_calls"] = Field(
        description="block index counter: one for all blocks, one per kind, or tool calls only"
    )

    @property
    def counters(self) -> dict[str, str]:
        """Block kind -> the counter its index comes from (no entry: the kind has no index)."""
        if self.index == "shared":
            return {"text": "all", "reasoning": "all", "tool_call": "all"}
        tool = {"tool_call": "tool"}
        return (
            tool
            if self.index == "tool_calls"
            else {"text": "content", "reasoning": "content", **tool}
        )

    id_default: str = Field(
        description="message id when the source stream named none (default: the id in "
        "response_envelope.defaults)"
    )
    envelope: dict[str, Any] = Field(
        default_factory=dict, description="keys merged at the front of every event body"
    )
    empty_arguments: str | None = Field(
        None, description="argument text sent for a call that streamed none (Chat: '{}')"
    )
    events: dict[str, EventTemplate] = Field(
        description="canonical event -> wire body template (or a list of template rows)"
    )
    group: Literal["text"] | None = Field(
        None,
        description="blocks of this kind share one wire item (group_start / group_end) until a "
        "block of another kind starts or the stream ends (Responses message items)",
    )
    ids: dict[Literal["text", "reasoning", "tool_call"], str] = Field(
        default_factory=dict,
        description="kind -> wire item id prefix (the codec's ITEM_ID_PREFIXES, responses use it "
        "too): the canonical key (up to ':') when it has the prefix and is unused, else "
        "<prefix>interlingua_<message id>_<n> ($item_id)",
    )
    defs: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="named bodies a template uses as {$use: name, key: value ...}: the named "
        "body, then the fields a caller set on the encoder's `envelope`, then those keys; "
        "`response_envelope` is the protocol's response_envelope.defaults",
    )
    item_key: str | None = Field(
        None, description="key of the finished wire item in end templates (kept for $output)"
    )
    part_key: str | None = Field(
        None, description="key of the finished part in grouped blocks' end templates ($parts)"
    )
    end: list[TemplateRow] = Field(description="events of a completed ending, in order")
    done: str | None = Field(None, description="a final data line (Chat: [DONE])")
    calls: Literal["streamed", "whole"] = Field(
        "streamed",
        description="whole: each call is written by `tool_call_end` when it ends, its argument "
        "text kept ($arguments_object); no tool_call_start / tool_call_delta templates (Gemini)",
    )

    @model_validator(mode="after")
    def _known_events(self) -> EncodeSpec:
        bad = sorted(set(self.events) - set(TEMPLATE_EVENTS))
        if bad:
            raise ValueError(f"unknown template events {bad} (known: {list(TEMPLATE_EVENTS)})")
        return self


class StreamSpec(Strict):
    """A protocol's stream: decode rows and encode templates."""

    recognise: str | None = Field(
        None,
        description="data path naming the event kind (Anthropic/Cohere `type`); absent: "
        "every event goes through every row (Chat chunks)",
    )
    match: Literal["first", "all"] = Field(
        "first", description="first matching row only, or every matching row (Chat)"
    )
    blocks: Literal["explicit", "implicit"] = Field(
        "explicit",
        description="implicit: blocks have no end event; a block of another kind "
        "starting ends the open ones, the finish ends all",
    )
    done_sentinel: str | None = Field(None, description="data line that ends the stream normally")
    skip_data: list[str] = Field(
        default_factory=list, description="data lines that say nothing (OpenRouter's [DONE])"
    )
    end_after_finish: bool = Field(
        False, description="the body ending after a finish reason is a normal end"
    )
    batches: bool = Field(
        False, description="a data line may hold a JSON list of events, run in order"
    )
    missing_call_id: Literal["counter", "random"] = Field(
        "counter",
        description="id of a call sent without one: call_interlingua_<n>, or ilg_<random> "
        "(unique across the turns a client keeps; left out again by $bare_call_id); in streams "
        "and, through the codec's RANDOM_CALL_IDS, in responses",
    )
    decode: list[DecodeRow] = Field(min_length=1)
    quiet_fields: dict[str, list[str]] = Field(
        default_factory=dict,
        description="`at` path -> keys there that carry nothing a target needs (Chat: role); any "
        "other key no row reads is reported as lost when it has a value",
    )
    encode: EncodeSpec
