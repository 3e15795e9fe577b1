"""The spec language: strict pydantic models for spec/canonical.yaml and spec/protocols/*.yaml.

Unknown keys are rejected everywhere (``extra="forbid"``) so a typo in a row fails loudly with the
file, the key path and what was expected (see ``codegen.load``).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---------------------------------------------------------------- canonical.yaml


class Feature(Strict):
    id: str = Field(pattern=r"^[a-z_]+$")
    title: str


class EnumValue(Strict):
    value: str
    status: int | None = None


class CanonicalEnum(Strict):
    name: str
    doc: str = ""
    values: list[str | EnumValue]

    def items(self) -> list[EnumValue]:
        return [v if isinstance(v, EnumValue) else EnumValue(value=v) for v in self.values]


class CanonicalField(Strict):
    name: str
    type: str
    default: str | None = None
    factory: Literal["list", "dict"] | None = None
    feature: str | None = Field(None, description="feature reported when a target drops it")
    doc: str = ""


class CanonicalType(Strict):
    name: str
    part: str | None = Field(None, description="set on content parts: the part kind")
    event: str | None = Field(None, description="set on stream events: the event kind")
    feature: str | None = Field(None, description="feature reported when a target lacks the part")
    fields: list[CanonicalField]


class CanonicalSpec(Strict):
    version: Literal[1]
    effort_budgets: dict[str, int] = Field(
        description="reasoning effort <-> thinking budget (tokens), ascending"
    )
    features: list[Feature]
    enums: list[CanonicalEnum]
    types: list[CanonicalType]


# ---------------------------------------------------------------- protocols/*.yaml

WireType = Literal[
    "str",
    "int",
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
]


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


class PartRow(Strict):
    """A content part of one kind, recognised by constant discriminators."""

    part: str = Field(description="canonical part kind (TextPart.part, ...)")
    feature: str
    match: dict[str, str] = Field(description="dotted wire path -> constant; written on encode")
    when: str | None = Field(None, description="canonical field that selects this row on encode")
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
    encode_only: str | None = Field(
        None,
        description="the row only encodes a part the protocol has no own block for (e.g. a "
        "refusal as text); the value says what is lost and is reported as a loss",
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
    """Per-table defaults (generated as FINISH_DECODE_DEFAULT, FINISH_ENCODE_DEFAULT, ...)."""

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

    system_placement: Literal["top_level_field", "in_messages", "instructions"]
    system_messages_in_turns: bool = Field(
        description="system/developer messages after the first turn keep their position"
    )
    developer_role: bool = False
    tool_results: Literal["user_turn_blocks", "tool_messages", "items"]
    tool_calls: Literal["content_blocks", "message_field", "items"]
    reasoning_fields: list[str] = Field(
        default_factory=list, description="assistant message fields carrying reasoning text"
    )
    stream_usage_fallbacks: list[str] = Field(
        default_factory=list,
        description="dotted chunk paths read for usage when a chunk has no `usage` (dialects)",
    )
    tool_choice_shape: Literal[
        "typed_object", "string_or_function", "string_or_flat_function", "function_calling_config"
    ]
    parallel_flag: Literal["disable_parallel_tool_use", "parallel_tool_calls", "none"]
    max_tokens_required: bool = False
    max_tokens_default: int | None = None
    usage_input_includes_cache: bool
    sse_event_names: bool
    stream_done_sentinel: str | None = None
    stream_usage_opt_in: str | None = Field(
        None, description="request path that asks for usage in streams"
    )
    usage_output_includes_reasoning: bool = Field(
        True, description="the output count includes reasoning tokens (Gemini: they are extra)"
    )


# ---------------------------------------------------------------- protocols/*.yaml: http


class HttpAuth(Strict):
    """How a caller presents its API key: read inbound by the gateway, sent upstream."""

    header: str = Field(pattern=r"^[a-z0-9-]+$", description="request header (lower case)")
    scheme: str | None = Field(
        None, description="word before the key in the header value (`Bearer`), or none"
    )
    query: str | None = Field(
        None, description="URL query parameter also accepted inbound for the key (`key`)"
    )


class CountTokens(Strict):
    """The protocol's token-count call, as the gateway answers it."""

    mode: Literal["native", "estimate"] = Field(
        description="native: a same-protocol upstream's own count endpoint answers (the estimate "
        "when it has none: 404/405/501); estimate: always the gateway's estimate, JSON size / 4"
    )
    inbound_paths: list[str] = Field(
        default_factory=list,
        description="paths clients POST a count to (a protocol that names the call in the URL "
        "uses a `count_tokens` url_action instead)",
    )
    upstream_path: str | None = Field(
        None, description="the upstream's count endpoint below base_url (native)"
    )
    fields: list[str] = Field(
        default_factory=list,
        description="top-level request fields that are counted and forwarded; empty: the whole body",
    )
    result_field: str = Field(description="key of the count in the answer")

    @model_validator(mode="after")
    def _native_has_path(self) -> CountTokens:
        if self.mode == "native" and self.upstream_path is None:
            raise ValueError("mode native needs an upstream_path")
        return self


class ModelListing(Strict):
    """The protocol's model list (GET). Protocols sharing a path get one merged answer, so one
    body is readable by each of their SDKs."""

    paths: list[str] = Field(min_length=1, description="GET paths of the list")
    items_key: str = Field(description="key of the list of models in the answer")
    item: dict[str, Any] = Field(
        description="one listed model; a string `{id}` in it is replaced by the model name"
    )
    envelope: dict[str, Any] = Field(
        default_factory=dict,
        description="fields beside the list; a string that is exactly `{first_id}` / `{last_id}` "
        "is the first / last model name (null for an empty list)",
    )

    @model_validator(mode="after")
    def _known_placeholders(self) -> ModelListing:
        for where, allowed in (("item", {"id"}), ("envelope", {"first_id", "last_id"})):
            unknown = set(_placeholders(getattr(self, where))) - allowed
            if unknown:
                raise ValueError(f"{where}: unknown placeholder(s) {sorted(unknown)}")
        return self


def _placeholders(v: Any) -> list[str]:
    """The ``{name}`` placeholders in the strings of a template."""
    if isinstance(v, str):
        return re.findall(r"\{(\w*)\}", v)
    if isinstance(v, dict):
        return [n for x in v.values() for n in _placeholders(x)]
    if isinstance(v, list):
        return [n for x in v for n in _placeholders(x)]
    return []


class HttpSpec(Strict):
    """How the protocol is called over HTTP: the paths its clients use (served by the gateway),
    the upstream endpoint below a base_url, auth and headers. Runtime code reads these, never
    per-protocol tables."""

    base_path: str = Field(
        pattern=r"^/",
        description="API version prefix a base_url ends with (`/v1`); base_path + upstream_path "
        "is the documented endpoint (Translation.path when the model lives in the URL)",
    )
    inbound_paths: list[str] = Field(
        min_length=1,
        description="paths clients POST a call to; `{target}` is `<model>:<action>` for "
        "protocols naming the model and the call in the URL (see url_actions)",
    )
    url_actions: dict[str, Literal["generate", "stream", "count_tokens"]] = Field(
        default_factory=dict,
        description="URL action (after `:` in `{target}`) -> the call it makes",
    )
    upstream_path: str = Field(
        pattern=r"^/",
        description="endpoint below base_url; `{model}` when the model lives in the URL, not "
        "in the body (then the body carries neither model nor stream)",
    )
    upstream_stream_path: str | None = Field(
        None,
        pattern=r"^/",
        description="endpoint of the streaming call when the stream mode lives in the URL",
    )
    auth: HttpAuth
    extra_headers: dict[str, str] = Field(
        default_factory=dict, description="constant headers sent upstream (API version ...)"
    )
    forward_headers: list[str] = Field(
        default_factory=list,
        description="caller headers kept on a same-protocol pass-through (lower case)",
    )
    count_tokens: CountTokens | None = Field(None, description="the token-count call, if any")
    models: ModelListing | None = Field(None, description="the model list, if any")

    @property
    def model_in_path(self) -> bool:
        return "{model}" in self.upstream_path

    @model_validator(mode="after")
    def _consistent(self) -> HttpSpec:
        in_url = any("{target}" in p for p in self.inbound_paths)
        if in_url != bool(self.url_actions):
            raise ValueError("url_actions are needed exactly when an inbound path has {target}")
        if in_url and "generate" not in self.url_actions.values():
            raise ValueError("url_actions need a `generate` action")
        counted = "count_tokens" in self.url_actions.values() or bool(
            self.count_tokens and self.count_tokens.inbound_paths
        )
        if counted != (self.count_tokens is not None):
            raise ValueError("count_tokens needs an inbound path or a count_tokens url_action")
        if self.upstream_stream_path and (
            ("{model}" in self.upstream_stream_path) != self.model_in_path
        ):
            raise ValueError("upstream_path and upstream_stream_path disagree on {model}")
        return self


# ---------------------------------------------------------------- protocols/*.yaml: the file


class ErrorShape(Strict):
    type_path: str
    message_path: str
    code_path: str | None = None
    param_path: str | None = None
    status_code_path: str | None = Field(None, description="path carrying the HTTP status (int)")
    envelope: dict[str, str] = Field(default_factory=dict, description="constant fields")


class ProtocolSpec(Strict):
    id: str = Field(pattern=r"^[a-z_]+$")
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
    finish_reasons: list[EnumRow]
    tool_choice: list[EnumRow]
    errors: list[EnumRow]
    error_shape: ErrorShape
    roles: list[EnumRow]
    enum_defaults: EnumDefaults = Field(
        description="per enum table: `decode` (unified value for an unknown raw value) and "
        "`encode` (raw value for a unified value without an encode row)"
    )
    usage_path: str
    usage_fields: list[FieldRow] = Field(
        description="c is one of input, input_cache_read, input_cache_write, output_total, "
        "output_reasoning; `input` is total or uncached per flags.usage_input_includes_cache"
    )
    stream_events: list[StreamEventRow]
    transforms: list[str] = Field(description="named transforms in runtime/transforms used here")
    implicit: list[str] = Field(
        default_factory=list,
        description="canonical request/response fields the protocol honours with no wire field "
        "(Gemini always streams usage: include_usage), so they are never reported as dropped",
    )
    support: dict[str, Support]
