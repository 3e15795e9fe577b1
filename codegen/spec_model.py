"""The spec language: strict pydantic models for spec/protocols/*.yaml (canonical.yaml:
``canonical_model.py``).

Unknown keys are rejected everywhere (``extra="forbid"``) so a typo in a row fails loudly with the
file, the key path and what was expected (see ``codegen.load``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from .envelope import ResponseEnvelope, stream_defaults
from .errors import ErrorShape
from .items import ItemsSpec
from .messages_flat import FlatMessages
from .part_walk import PartWalk
from .settings import FormatRows, ReasoningRows
from .spec_http import HttpSpec, Strict
from .spec_reasoning_details import ReasoningDetails
from .spec_turns import Turns
from .stream_model import StreamSpec
from .tool_choice import ToolChoiceRule
from .tool_entries import ToolEntries

# ---------------------------------------------------------------- protocols/*.yaml

WireType = Literal[
    "str",
    "int",
    "whole_number",  # wire number with a whole value (40.0 from a float-typed SDK) <-> int
    "number",
    "bool",
    "object",
    "array",
    "any",
    "str_list",
    "json_object_text",  # wire JSON object  <-> canonical raw JSON text
    "json_string_text",  # wire JSON string  <-> canonical raw JSON text
    "parts",  # wire string or list of parts <-> canonical list of parts
    "data_url",  # wire URL or data: URL <-> canonical url | media_type + data
    "base64_text",  # wire base64 data <- canonical text (encode_only rows: Gemini's text document)
    # a tool result's JSON value <-> its text content, is_error and hints (flags.turns.result_wrap:
    # the codec's decode_result / encode_result; Gemini functionResponse.response)
    "result_wrap",
]


# canonical field type (without `| None`) -> the wire types that can carry it; any other pair in
# a row is refused (codegen.checks). Canonical types missing here are a transform's business.
WIRE_TYPES_FOR: dict[str, set[str]] = {
    "str": {"str", "json_object_text", "json_string_text", "data_url", "base64_text"},
    "int": {"int", "whole_number"},
    "float": {"number", "int", "whole_number"},
    "bool": {"bool"},
    "dict[str, Any]": {"object", "any"},
    "list[Any]": {"array", "any"},
    "list[str]": {"str_list"},
    "list[Part]": {"parts", "result_wrap"},
    "Any": {"any", "str", "int", "number", "bool", "object", "array", "str_list"},
}


class FieldRow(Strict):
    """One field: canonical attribute <-> dotted wire path, with its wire type."""

    c: str = Field(description="canonical attribute name")
    w: str = Field(description="dotted wire path")
    type: WireType = "str"
    required: bool = False
    feature: str | None = None
    aliases: list[str] = Field(
        default_factory=list,
        description="other top-level wire keys accepted on decode (legacy names, dialects); "
        "the one a request used is written back to the same protocol",
    )
    default: str | None = Field(
        None,
        description="the canonical value when the wire has none (a non-required row): Gemini's "
        "thought part with only a signature has the text ''; a call with no id the id '', "
        "which the parts walk synthesises (part_walk); a non-empty one is written too when the "
        "part has none (a text document's media type)",
    )
    omit_zero: bool = Field(
        False,
        description="usage rows: a zero count is left out (Gemini, whose JSON omits zero values), "
        "in responses and streams alike",
    )
    same_only: bool = Field(
        False,
        description="request rows: read, and written back to this protocol alone when the source "
        "sent it (Gemini's body `model`, which the API takes from the URL)",
    )


class PartRow(Strict):
    """A content part of one kind, recognised by constant discriminators."""

    part: str = Field(description="canonical part kind (TextPart.part, ...)")
    feature: str
    match: dict[str, str | bool] = Field(
        description="dotted wire path -> constant (a string, or true / false: a flag such as "
        "Gemini's `thought: true`); written on encode"
    )
    when: str | list[str] | None = Field(
        None,
        description="canonical field (or fields: any of them) that selects this row on encode; "
        "when the last row of the kind has one too, a part with none of them is dropped (reported)",
    )

    @property
    def whens(self) -> list[str]:
        """The ``when`` fields as a list (none: [])."""
        return [self.when] if isinstance(self.when, str) else list(self.when or [])

    present: str | None = Field(
        None,
        description="wire key whose presence selects this row on decode, for parts without a "
        "type field (Gemini); rows are then tried in order",
    )
    media: str | None = Field(
        None, description="media type prefix (of the media_type field) this row requires on decode"
    )
    fields: list[FieldRow]
    decode_only: bool = False
    encode_only: str | Literal[True] | None = Field(
        None,
        description="the row only encodes a part the protocol has no own block for (e.g. a "
        "refusal as text); the value says what is lost and is reported as a loss (true: "
        "nothing is, as a plain-text document sent as base64 data to Gemini)",
    )


class EnumRow(Strict):
    unified: str
    raw: str
    status: int | None = None
    only: Literal["decode", "encode"] | None = Field(
        None, description="use the row in one direction only (first row per key wins)"
    )


class EnumDefault(Strict):
    """What a protocol does with a value its enum table has no row for."""

    decode: str | None = Field(None, description="unified value for an unknown raw value")
    encode: str | None = Field(None, description="raw value for a unified value without a row")


class FinishDefault(EnumDefault):
    decode: str = Field(description="unified finish reason for an unknown raw reason")
    encode: str = Field(description="raw finish reason for a unified reason without a row")


class EnumDefaults(Strict):
    """Per-table defaults, written into the compiled rule that falls back on them (the codec's
    decode_finish / encode_finish, decode_tool_choice / encode_tool_choice, ERROR_RAW_DEFAULT)."""

    finish_reasons: FinishDefault
    tool_choice: EnumDefault | None = None
    roles: EnumDefault | None = None
    errors: EnumDefault | None = None


class StreamEventRow(Strict):
    """A wire stream event (``type`` or ``type/subtype``) and the canonical events it yields."""

    wire: str
    emits: list[str] = Field(description="canonical event kinds (StreamStart.EVENT ...)")
    key: str | None = Field(None, description="wire field keying accumulation (vendor id)")
    feature: str | None = None
    note: str = ""


class Support(Strict):
    level: Literal["full", "lossy", "unsupported"]
    note: str = ""


class Flags(Strict):
    """Typed provider quirks. Runtime code reads these, never the protocol's name."""

    # compiled into the codecs' code and tables (CARRIER, registry), read by no runtime code:
    # left out of the runtime's ProtocolFlags (codegen/spec_types.py)
    codegen_only: ClassVar[frozenset[str]] = frozenset(
        ("reasoning_fields", "plan_field", "reasoning_text_in_requests", "foreign_reasoning")
        + ("enveloped_reasoning", "call_id_signatures", "server_state")
    )
    system_placement: Literal["top_level_field", "in_messages", "instructions"]
    system_messages_in_turns: bool = Field(
        description="system/developer messages after the first turn keep their position"
    )
    tool_results: Literal["user_turn_blocks", "tool_messages", "items"]
    tool_calls: Literal["content_blocks", "message_field", "items"]
    reasoning_fields: list[str] = Field(
        default_factory=list,
        description="assistant message fields carrying reasoning text; none: reasoning is a "
        "content part (its part row)",
    )
    plan_field: str | None = Field(
        None,
        description="assistant message field holding the text written before tool calls "
        "(Cohere tool_plan): read as a text part, written from the text of a turn with calls",
    )
    reasoning_text_in_requests: bool = Field(
        False,
        description="assistant reasoning is sent back in requests whatever the client spoke "
        "(dialects that want the turn's reasoning back: DeepSeek, OpenRouter)",
    )
    parallel_flag: Literal["disable_parallel_tool_use", "parallel_tool_calls", "none"]
    max_tokens_required: bool = False
    max_tokens_default: int | None = None
    usage_input_includes_cache: bool
    foreign_reasoning: Literal["none", "signature", "parts"] = Field(
        "none",
        description="how a client of this protocol receives another protocol's opaque reasoning "
        "state (its codec's CARRIER, runtime/transforms/envelopes.py): not at all, wrapped in "
        "the reasoning part's own signature (Responses encrypted_content), or as thought parts "
        "followed by one signature-only part (Gemini thoughtSignature)",
    )
    enveloped_reasoning: bool = Field(
        False,
        description="its opaque reasoning state rides through clients of other protocols in the "
        "reasoning envelope and comes back to it (Anthropic: thinking must be replayed before "
        "tool use)",
    )
    call_id_signatures: bool = Field(
        False,
        description="a signature this protocol attaches to a tool call rides, toward clients of "
        "other protocols, in the call id they echo (the __ilgsig1__ envelope, "
        "runtime/transforms/call_id_envelope.py; Gemini thoughtSignature). The envelope names no "
        "owner, so one protocol at most may set it",
    )
    server_state: bool = Field(
        False,
        description="the API keeps conversations server-side (stored responses, "
        "previous_response_id); the gateway emulates that for its clients when the upstream "
        "speaks another protocol (runtime/gateway/state). One protocol at most may set it",
    )
    sse_event_names: bool
    stream_usage_opt_in: str | None = Field(
        None, description="request path that asks for usage in streams"
    )
    usage_output_includes_reasoning: bool = Field(
        True, description="the output count includes reasoning tokens (Gemini: they are extra)"
    )
    turns: Turns = Field(
        default_factory=lambda: Turns.model_validate({}),
        description="how turns are laid out beyond the flags above (codegen/spec_turns.py)",
    )


# ---------------------------------------------------------------- protocols/*.yaml: the file


class FinishRule(Strict):
    """Finish facts beyond the raw <-> unified rows (compiled: codegen/envelope_code.py)."""

    stop_with_calls: bool = Field(
        False, description="a plain stop with tool calls in the output means tool_calls"
    )
    numeric: dict[int, str] = Field(
        default_factory=dict, description="wire numbers (proto enums) -> raw reason names"
    )


# ---------------------------------------------------------------- protocols/*.yaml: envelopes and rules


class ProtocolSpec(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str
    endpoint: str
    flags: Flags
    http: HttpSpec
    request_fields: list[FieldRow]
    response_fields: list[FieldRow]
    parts: list[PartRow]
    native_parts: list[str] = Field(
        default_factory=list,
        description="wire part types with no canonical home, kept whole (NativePart) for this "
        "protocol and reported as lost for any other",
    )
    tool_fields: list[FieldRow]
    tool_wrapper: str | None = Field(None, description="wire path the tool fields live under")
    tool_type: str | None = Field(None, description="constant `type` of a function tool")
    part_walk: PartWalk | None = Field(
        None, description="state a list of parts carries beside its parts (codegen/part_walk.py)"
    )
    tool_entries: ToolEntries | None = Field(
        None, description="items of `tools` that group the tools (none: one tool per item)"
    )
    tool_schema_openapi: str | None = Field(
        None,
        description="a tool's key holding its parameters in the OpenAPI subset (Gemini "
        "`parameters`), accepted when the parameters row's key is absent and converted to JSON "
        "Schema; written back as it came to the same protocol",
    )
    finish_reasons: list[EnumRow]
    tool_choice: list[EnumRow]
    errors: list[EnumRow]
    error_shape: ErrorShape
    response_envelope: ResponseEnvelope | None = Field(
        None, description="where a response keeps message, finish and its constant fields"
    )
    response_format: FormatRows | None = Field(
        None, description="structured output rows (codegen/settings.py); none: not carried"
    )
    reasoning: ReasoningRows | None = Field(
        None, description="reasoning configuration rows (codegen/settings.py); none: not carried"
    )
    tool_choice_rule: ToolChoiceRule = Field(
        default_factory=lambda: ToolChoiceRule.model_validate({})
    )
    roles: list[EnumRow]
    enum_defaults: EnumDefaults = Field(
        description="per enum table: `decode` (unified value for an unknown raw value) and "
        "`encode` (raw value for a unified value without an encode row)"
    )
    finish_rule: FinishRule = Field(
        default_factory=lambda: FinishRule(stop_with_calls=False),
        description="finish facts beyond the enum rows",
    )
    snake_case_keys: dict[str, int] = Field(
        default_factory=dict,
        description="top-level request keys also taken in snake_case -> how many levels of "
        "their keys are recased too, lists walked through (codegen/snake_case.py)",
    )
    usage_path: str
    usage_fields: list[FieldRow] = Field(
        description="c is one of input, input_cache_read, input_cache_write, output_total, "
        "output_reasoning; `input` is total or uncached per flags.usage_input_includes_cache"
    )
    stream_events: list[StreamEventRow] = Field(
        default_factory=list,
        description="docs of a stream run by a named stream transform (rows say it otherwise)",
    )
    stream: StreamSpec | None = Field(
        None, description="stream decode rows and encode templates (codegen/stream_model.py)"
    )
    reasoning_details: ReasoningDetails | None = Field(
        None, description="reasoning as typed items on the message (dialects: OpenRouter)"
    )
    items: ItemsSpec | None = Field(
        None,
        description="messages, calls, results and reasoning as one item list (codegen/items.py)",
    )
    messages: FlatMessages | None = Field(
        None, description="one flat message list, read by messages_flat (codegen/messages_flat.py)"
    )
    transforms: list[str] = Field(description="named transforms in runtime/transforms used here")
    implicit: list[str] = Field(
        default_factory=list,
        description="canonical request/response fields the protocol honours with no wire field "
        "(Gemini always streams usage: include_usage), so they are never reported as dropped",
    )
    support: dict[str, Support]

    @model_validator(mode="before")
    @classmethod
    def _envelope_in_stream(cls, data: Any) -> Any:
        return stream_defaults(data)
