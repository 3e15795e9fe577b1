# Generated from codegen/spec_model.py by `make generate` (python -m codegen). Do not edit by hand.

"""The runtime types of protocol flags and HTTP calls, from the spec models in
codegen/spec_model.py and codegen/spec_http.py (one declaration of each field)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultWrap:
    """A tool result whose text is the one value of a JSON object (Gemini
    ``functionResponse.response``: ``{output: text}``, ``{error: text}``)."""

    # key written for a result's text
    text: str
    # key written for an error's text (is_error)
    error: str
    # further keys read as a result's text (`result`)
    read: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Turns:
    """How turns are laid out beyond the other flags (codegen/turns_code.py)."""

    # raw role of a turn sent without one (a `roles` decode row's raw value)
    role_default: str | None
    # tool_results user_turn_blocks: a user turn's tool results come before its other parts
    # (Anthropic) or stay where they are (Gemini)
    results_order: Literal["first", "in_place"]
    # tool result text wrapped in a one-key object (Gemini)
    result_wrap: ResultWrap | None
    # tool_results user_turn_blocks: key of the turn list
    key: str
    # key of a turn's parts (Gemini `parts`)
    parts_key: str
    # top-level key of the system prompt (Gemini `systemInstruction`)
    system_key: str
    # the turn list may be one turn object, written back so (Gemini)
    one_object: bool
    # how the system prompt and a turn's parts are said: content blocks (a string or a list of
    # parts, Anthropic) or a content (a turn's parts a list; the system prompt a string or an object
    # {role?, parts}, its role kept between endpoints: Gemini)
    system_form: Literal["blocks", "content"]
    # a turn's role as it came and its role / parts keys left out as they came are kept between
    # endpoints of the protocol (Gemini)
    keep_turn_keys: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ProtocolFlags:
    """Typed provider quirks. Runtime code reads these, never the protocol's name."""

    system_placement: Literal["top_level_field", "in_messages", "instructions"]
    # system/developer messages after the first turn keep their position
    system_messages_in_turns: bool
    tool_results: Literal["user_turn_blocks", "tool_messages", "items"]
    tool_calls: Literal["content_blocks", "message_field", "items"]
    parallel_flag: Literal["disable_parallel_tool_use", "parallel_tool_calls", "none"]
    max_tokens_required: bool
    max_tokens_default: int | None
    usage_input_includes_cache: bool
    sse_event_names: bool
    # request path that asks for usage in streams
    stream_usage_opt_in: str | None
    # the output count includes reasoning tokens (Gemini: they are extra)
    usage_output_includes_reasoning: bool
    # how turns are laid out beyond the flags above (codegen/spec_turns.py)
    turns: Turns


@dataclass(frozen=True, slots=True, kw_only=True)
class HttpAuth:
    """How a caller presents its API key: read inbound by the gateway, sent upstream."""

    # request header (lower case)
    header: str
    # word before the key in the header value (`Bearer`), or none
    scheme: str | None
    # URL query parameter also accepted inbound for the key (`key`)
    query: str | None

    def value(self, key: str) -> str:
        """The header value carrying ``key``."""
        return f"{self.scheme} {key}" if self.scheme else key

    def key_in(self, value: str) -> str | None:
        """The key in a header value, or None when the value lacks the scheme."""
        if not self.scheme:
            return value
        n = len(self.scheme) + 1
        return value[n:] if value[:n].lower() == self.scheme.lower() + " " else None


@dataclass(frozen=True, slots=True, kw_only=True)
class CountTokens:
    """The protocol's token-count call, as the gateway answers it."""

    # native: an upstream whose protocol has a count endpoint (upstream_path) answers, the request
    # translated toward it (the estimate when it has none, or it says 404/405/501); estimate: always
    # the gateway's estimate (token_estimate)
    mode: Literal["native", "estimate"]
    # paths clients POST a count to (a protocol that names the call in the URL uses a `count_tokens`
    # url_action instead)
    inbound_paths: tuple[str, ...]
    # the upstream's count endpoint below base_url (native); `{model}`: the model lives in the URL
    upstream_path: str | None
    # top-level request fields that are counted and forwarded; empty: the whole body
    fields: frozenset[str]
    # key of the count in the answer
    result_field: str
    # constant fields of the answer beside the count (`object`)
    envelope: Mapping[str, Any]
    # key a whole generate request is nested under in a count request (Gemini:
    # generateContentRequest); read inbound when present, written upstream
    wrap: str | None
    # the model field of the nested request, `{model}` replaced (`models/{model}`)
    wrap_model: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelListing:
    """The protocol's model list (GET). Protocols sharing a path get one merged answer, so one
    body is readable by each of their SDKs."""

    # GET paths of the list
    paths: tuple[str, ...]
    # key of the list of models in the answer
    items_key: str
    # one listed model; a string `{id}` in it is replaced by the model name
    item: Mapping[str, Any]
    # fields beside the list; a string that is exactly `{first_id}` / `{last_id}` is the first /
    # last model name (null for an empty list)
    envelope: Mapping[str, Any]
    # GET below base_url listing an upstream's own models, read back through items_key and the
    # item's first `{id}` field (prefix stripped: `models/{id}`)
    upstream_path: str | None
    # query of that GET (the largest page: limit, pageSize)
    upstream_query: Mapping[str, str]


@dataclass(frozen=True, slots=True, kw_only=True)
class ImageTokens:
    """Tokens of one image by the provider's documented formula, from its width and height
    (read from the image's header; never from its size in bytes)."""

    # area: ceil(width * height / divisor) after scaling to fit max_edge and max_pixels; tiles: base
    # + per_tile * tiles (ceil(w / tile) * ceil(h / tile)) after scaling to fit fit x fit, then the
    # short side to short_side; within small x small: small_tokens
    rule: Literal["area", "tiles"]
    divisor: float
    max_edge: int | None
    max_pixels: int | None
    tile: int
    per_tile: int
    base: int
    fit: int | None
    short_side: int | None
    small: int | None
    small_tokens: int | None
    # tokens of an image sent with detail "low"
    low_detail: int | None
    # an image whose size cannot be read (a URL, a file id)
    unknown: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenEstimate:
    """The gateway's estimate of a request's input tokens when no upstream can count them:
    text by characters, media by the provider's documented formulas."""

    # text, tool calls and tool schemas
    chars_per_token: float
    image: ImageTokens
    # one page of a PDF (pages read from the file)
    document_page: int
    # audio, video or another file: tokens per item (no length read)
    media: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HttpSpec:
    """How the protocol is called over HTTP: the paths its clients use (served by the gateway),
    the upstream endpoint below a base_url, auth and headers. Runtime code reads these, never
    per-protocol tables."""

    # API version prefix a base_url ends with (`/v1`); base_path + upstream_path is the documented
    # endpoint (Translation.path when the model lives in the URL)
    base_path: str
    # paths clients POST a call to; `{target}` is `<model>:<action>` for protocols naming the model
    # and the call in the URL (see url_actions)
    inbound_paths: tuple[str, ...]
    # URL action (after `:` in `{target}`) -> the call it makes
    url_actions: Mapping[str, Literal["generate", "stream", "count_tokens"]]
    # endpoint below base_url; `{model}` when the model lives in the URL, not in the body (then the
    # body carries neither model nor stream)
    upstream_path: str
    # endpoint of the streaming call when the stream mode lives in the URL
    upstream_stream_path: str | None
    # prefix the protocol's model names may carry (`models/`), left out where a model is put into a
    # path (`{model}`)
    model_prefix: str
    auth: HttpAuth
    # constant headers sent upstream (API version ...)
    extra_headers: Mapping[str, str]
    # caller headers kept on a same-protocol pass-through (lower case)
    forward_headers: tuple[str, ...]
    # the token-count call, if any
    count_tokens: CountTokens | None
    # the model list, if any
    models: ModelListing | None
    # the estimate of input tokens for this provider's models (the caller's row serves an upstream
    # without one)
    token_estimate: TokenEstimate | None
    # the GenAI semantic conventions' gen_ai.provider.name of the protocol's API (anthropic, openai,
    # gcp.gemini): the gateway's trace spans name their upstream so
    otel_provider: str | None
    # response header with the call's id, the one the protocol's SDKs read (the gateway logs the
    # upstream's and returns it to the caller in the caller's header)
    request_id_header: str | None
    # the model is named in the URL, not in the body
    model_in_path: bool

    def bare_model(self, model: str) -> str:
        """``model`` without the protocol's name prefix (``models/x`` -> ``x``)."""
        return model.removeprefix(self.model_prefix)


__all__ = [
    "ResultWrap",
    "Turns",
    "ProtocolFlags",
    "HttpAuth",
    "CountTokens",
    "ModelListing",
    "ImageTokens",
    "TokenEstimate",
    "HttpSpec",
]
