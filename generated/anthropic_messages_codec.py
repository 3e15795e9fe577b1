# Generated from spec/protocols/anthropic_messages.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Anthropic Messages codec: rows of spec/protocols/anthropic_messages.yaml as straight-line code."""

from __future__ import annotations

import sys
from copy import copy
from dataclasses import replace
from typing import Any

from interlingua._codec_support import (
    arguments_object,
    deep_merge,
    dig,
    drop_ext,
    split_ext,
)
from interlingua._errors import InvalidInput, brief
from interlingua._finish import finish_wire
from interlingua._losses import Ctx, Loss, keys_lost
from interlingua._wire import (
    expect_bool,
    expect_dict,
    expect_int,
    expect_list,
    expect_number,
    expect_str,
    expect_str_list,
    json_text,
)
from interlingua.transforms._paths import obj_at, put
from interlingua.transforms._util import content_parts, role_of, text_content
from interlingua.transforms.envelopes import fold_for_client, unwrap_request
from interlingua.transforms.reasoning import (
    EFFORT_BUDGETS,
    lost,
    lowered_budget,
    thinking_budget,
    thinking_off,
)
from interlingua.transforms.structured import (
    add_hints,
    format_dropped,
    keep_keys,
    kept_keys,
    schema_fields_lost,
)
from interlingua.transforms.tools import hosted_entry, tool_of

from .canonical import (
    FilePart,
    Finish,
    ImagePart,
    Message,
    NativePart,
    Part,
    ReasoningConfig,
    ReasoningPart,
    RefusalPart,
    Request,
    Response,
    ResponseFormat,
    TextPart,
    Tool,
    ToolCallPart,
    ToolChoice,
    ToolResultPart,
    Usage,
    new_FilePart,
    new_ImagePart,
    new_ReasoningPart,
    new_RefusalPart,
    new_TextPart,
    new_Tool,
    new_ToolCallPart,
)
from .spec_types import (
    CountTokens,
    HttpAuth,
    HttpSpec,
    ImageTokens,
    ModelListing,
    ProtocolFlags,
    TokenEstimate,
    Turns,
)

PROTOCOL = "anthropic_messages"
DIALECT: str | None = None  # the spec/dialects overlay merged in, if any
FLAGS = ProtocolFlags(
    system_placement="top_level_field",
    system_messages_in_turns=True,
    tool_results="user_turn_blocks",
    tool_calls="content_blocks",
    parallel_flag="disable_parallel_tool_use",
    max_tokens_required=True,
    max_tokens_default=4096,
    usage_input_includes_cache=False,
    sse_event_names=True,
    stream_usage_opt_in=None,
    usage_output_includes_reasoning=True,
    turns=Turns(
        role_default=None,
        results_order="first",
        result_wrap=None,
        key="messages",
        parts_key="content",
        system_key="system",
        one_object=False,
        system_form="blocks",
        keep_turn_keys=False,
    ),
)
# how the protocol is called over HTTP (spec: http); the gateway reads it
HTTP = HttpSpec(
    base_path="/v1",
    inbound_paths=(
        "/v1/messages",
        "/messages",
    ),
    url_actions={},
    upstream_path="/messages",
    upstream_stream_path=None,
    model_prefix="",
    auth=HttpAuth(header="x-api-key", scheme=None, query=None),
    extra_headers={"anthropic-version": "2023-06-01"},
    forward_headers=("anthropic-beta",),
    count_tokens=CountTokens(
        mode="native",
        inbound_paths=(
            "/v1/messages/count_tokens",
            "/messages/count_tokens",
        ),
        upstream_path="/messages/count_tokens",
        fields=frozenset(
            (
                "mcp_servers",
                "messages",
                "model",
                "system",
                "thinking",
                "tool_choice",
                "tools",
            )
        ),
        result_field="input_tokens",
        envelope={},
        wrap=None,
        wrap_model=None,
    ),
    models=ModelListing(
        paths=(
            "/v1/models",
            "/models",
        ),
        items_key="data",
        item={
            "id": "{id}",
            "type": "model",
            "created_at": "1970-01-01T00:00:00Z",
            "display_name": "{id}",
        },
        envelope={"has_more": False, "first_id": "{first_id}", "last_id": "{last_id}"},
        upstream_path="/models",
        upstream_query={"limit": "1000"},
    ),
    token_estimate=TokenEstimate(
        chars_per_token=4.0,
        image=ImageTokens(
            rule="area",
            divisor=750.0,
            max_edge=1568,
            max_pixels=1200000,
            tile=512,
            per_tile=0,
            base=0,
            fit=None,
            short_side=None,
            small=None,
            small_tokens=None,
            low_detail=None,
            unknown=1600,
        ),
        document_page=2250,
        media=1600,
    ),
    otel_provider="anthropic",
    request_id_header="request-id",
    model_in_path=False,
)
TRANSFORMS: tuple[str, ...] = (
    "messages_blocks",
    "tools",
    "reasoning",
    "response_format",
)
# a bare text part's keys (its parts row): a block of these alone goes back as a string
TEXT_BLOCK_KEYS: frozenset[str] = frozenset({"text", "type"})
SUPPORT: dict[str, tuple[str, str]] = {
    "system": ("full", ""),
    "system_position": ("full", ""),
    "roles": ("full", ""),
    "text": ("lossy", "citations only in Anthropic form; other annotation shapes are dropped"),
    "image": ("lossy", "base64, URL and file sources; no detail level"),
    "file": ("full", "PDF and text documents"),
    "audio": ("unsupported", ""),
    "tool_call": ("full", ""),
    "tool_result": ("full", ""),
    "tool_result_error": ("full", ""),
    "reasoning_text": ("full", ""),
    "reasoning_replay": (
        "lossy",
        "thinking signatures and redacted_thinking replay only to Anthropic (through a Responses or Gemini client they ride in an ilgenv1 envelope: encrypted_content, thoughtSignature); other owners\u0027 state is dropped",
    ),
    "tool_spec": ("full", ""),
    "hosted_tools": ("lossy", "server tools carried only between Anthropic endpoints"),
    "tool_choice": (
        "lossy",
        "auto / any / tool / none; no allowed-function lists or validated mode",
    ),
    "parallel_tool_calls": ("full", "disable_parallel_tool_use inside tool_choice"),
    "max_tokens": ("lossy", "required; a default is sent (and reported) when the source has none"),
    "sampling": ("full", ""),
    "top_k": ("full", ""),
    "seed": ("unsupported", ""),
    "penalties": ("unsupported", ""),
    "user": ("full", "metadata.user_id"),
    "reasoning_config": (
        "lossy",
        "thinking enabled+budget_tokens, adaptive, output_config.effort; no summary or context options",
    ),
    "structured_output": ("lossy", "output_config.format: a schema without a name"),
    "caching": ("full", "cache_control breakpoints"),
    "usage": ("lossy", "input_tokens excludes cache reads and writes; no separate reasoning count"),
    "finish_reason": ("lossy", "safety and other provider reasons become refusal"),
    "errors": ("full", ""),
    "stream_text": ("full", ""),
    "stream_reasoning": ("full", ""),
    "stream_tool_calls": ("full", ""),
    "stream_usage": ("full", ""),
    "stream_error": ("full", ""),
    "extensions": ("lossy", "fields with no canonical home go back only to this protocol"),
    "native_parts": (
        "lossy",
        "server tool, MCP, compaction blocks carried only between Anthropic endpoints",
    ),
}

# ---------------------------------------------------------------- enum tables (unified <-> raw)
# (an enum_defaults value is written into the compiled rule that falls back on it)
TOOL_CHOICE_DECODE: dict[str, str] = {
    "auto": "auto",
    "none": "none",
    "any": "required",
    "tool": "tool",
}
TOOL_CHOICE_ENCODE: dict[str, str] = {
    "auto": "auto",
    "none": "none",
    "required": "any",
    "tool": "tool",
}
ROLE_DECODE: dict[str, str] = {"user": "user", "assistant": "assistant", "system": "system"}
ROLE_ENCODE: dict[str, str] = {
    "user": "user",
    "assistant": "assistant",
    "system": "system",
    "developer": "system",
    "tool": "user",
}
ERROR_DECODE: dict[str, str] = {
    "invalid_request_error": "invalid_request",
    "authentication_error": "authentication",
    "permission_error": "permission",
    "not_found_error": "not_found",
    "request_too_large": "request_too_large",
    "rate_limit_error": "rate_limit",
    "api_error": "api_error",
    "overloaded_error": "overloaded",
    "timeout_error": "timeout",
}
ERROR_ENCODE: dict[str, str] = {
    "invalid_request": "invalid_request_error",
    "authentication": "authentication_error",
    "permission": "permission_error",
    "not_found": "not_found_error",
    "request_too_large": "request_too_large",
    "rate_limit": "rate_limit_error",
    "api_error": "api_error",
    "overloaded": "overloaded_error",
    "timeout": "timeout_error",
    "bad_gateway": "api_error",
}
ERROR_STATUS: dict[str, int] = {
    "invalid_request": 400,
    "authentication": 401,
    "permission": 403,
    "not_found": 404,
    "request_too_large": 413,
    "rate_limit": 429,
    "api_error": 500,
    "overloaded": 529,
    "timeout": 504,
    "bad_gateway": 502,
}


def response_defaults() -> dict[str, Any]:
    """response_envelope.defaults, a fresh copy each call (runtime/transforms/response_envelope)."""
    return {
        "id": "msg_interlingua",
        "type": "message",
        "role": "assistant",
        "model": "unknown",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
    }


# owner -> how its opaque reasoning state reaches this protocol's clients (transforms/envelopes)
CARRIER: dict[str | None, str] = {"gemini": "ids", "anthropic_messages": "own"}
# wire item id prefixes by kind (stream.encode.ids), for responses and streams alike
# (responses_item_list.ItemIds)
ITEM_ID_PREFIXES: dict[str, str] = {}
# a call sent without an id gets ilg_<random> (stream.missing_call_id: random), in a response
# (the parts walk's CallIds, part_walk.call_ids) as in a stream; else a numbered one
RANDOM_CALL_IDS = False


# the reason a loss of each feature the encoders report gives (spec: support), one constant per
# feature: a dialect whose support rows leave it as it is shares it and the code that uses it
_WHY_AUDIO = "anthropic_messages unsupported"
_WHY_CACHING = "anthropic_messages full: cache_control breakpoints"
_WHY_EXTENSIONS = (
    "anthropic_messages lossy: fields with no canonical home go back only to this protocol"
)
_WHY_FILE = "anthropic_messages full: PDF and text documents"
_WHY_IMAGE = "anthropic_messages lossy: base64, URL and file sources; no detail level"
_WHY_PENALTIES = "anthropic_messages unsupported"
_WHY_REASONING_REPLAY = "anthropic_messages lossy: thinking signatures and redacted_thinking replay only to Anthropic (through a Responses or Gemini client they ride in an ilgenv1 envelope: encrypted_content, thoughtSignature); other owners' state is dropped"
_WHY_SEED = "anthropic_messages unsupported"
_WHY_TEXT = "anthropic_messages lossy: citations only in Anthropic form; other annotation shapes are dropped"
_WHY_PART: dict[str, str] = {  # by feature, for the part types with no encoder
    "audio": _WHY_AUDIO,
}


# ---------------------------------------------------------------- tool_choice (tool_choice_rule)
# top-level request keys the rule reads: the choice, a top-level parallel switch, a strict switch
TOOL_CHOICE_KEYS: frozenset[str] = frozenset({"tool_choice"})


def decode_tool_choice(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    choice = w.get("tool_choice")
    if choice is None:
        return  # absent: the protocol's default (auto), as canonical None says
    choice = expect_dict(choice, "tool_choice")
    raw = choice.get("type")
    mode = TOOL_CHOICE_DECODE.get(raw) if type(raw) is str else None
    if mode is None:
        raise InvalidInput(
            f"unknown tool_choice {brief(raw)} (expected one of any, auto, none, tool)",
            path="tool_choice.type",
        )
    tc = req.tool_choice = ToolChoice(mode=mode)
    named = choice.get("name")
    if named is not None:
        tc.name = expect_str(named, "tool_choice.name")
    dp = choice.get("disable_parallel_tool_use")
    if dp is not None:
        req.parallel_tool_calls = not expect_bool(dp, "tool_choice.disable_parallel_tool_use")


def encode_tool_choice(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    tc = req.tool_choice
    if tc is None and req.parallel_tool_calls is False:
        tc = ToolChoice(mode="auto")  # the switch needs a choice to sit in
    if tc is None:
        return
    mode = tc.mode
    wire = TOOL_CHOICE_ENCODE[mode]
    obj: dict[str, Any] = {"type": wire}
    if mode == "tool" and tc.name is not None:
        obj["name"] = tc.name
    if req.parallel_tool_calls is not None and mode != "none":
        obj["disable_parallel_tool_use"] = not req.parallel_tool_calls
    out["tool_choice"] = obj


# ---------------------------------------------------------------- tools (tool_type, tool_entries)


def decode_tools(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """``tools`` -> req.tools, then the tool_choice rule."""
    tools = w.get("tools")
    if tools is not None:
        if not expect_list(tools, "tools"):
            req.hints = {**(req.hints or {}), "tools_empty": True}
        for i, t in enumerate(tools):
            path = f"tools[{i}]"
            if type(t) is not dict:
                t = expect_dict(t, path)
            kind = t.get("type")  # a hosted tool by its type, a function by tool_type
            req.tools.append(tool_of(t, None if kind == "custom" else kind, path, decode_tool, ctx))
    decode_tool_choice(w, req, ctx)


def encode_tools(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """req.tools -> ``tools`` (hosted ones to their own protocol only), then the tool_choice rule."""
    hints = (req.hints or {}) if ctx.same else {}
    items: list[Any] = []
    for i, t in enumerate(req.tools):
        path = f"tools[{i}]"
        function = t.kind == "function"
        wire = encode_tool(t, path, ctx) if function else hosted_entry(t, path, ctx)
        if wire is None:
            continue
        items.append(wire)
    if items or hints.get("tools_empty"):
        out["tools"] = items
    encode_tool_choice(req, out, ctx)


# ---------------------------------------------------------------- parts

_KNOWN_TEXT_0 = frozenset({"cache_control", "citations", "text", "type"})
_NESTED_TEXT_0: dict[str, frozenset[str]] = {}


def _dec_text_0(w: dict[str, Any], path: str, ctx: Ctx) -> TextPart:
    v_text = w.get("text")
    if v_text is None:
        raise InvalidInput("missing required field", path=path + ".text")
    if type(v_text) is not str:
        v_text = expect_str(v_text, path + ".text")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    v_annotations = w.get("citations")
    if v_annotations is not None and type(v_annotations) is not list:
        v_annotations = expect_list(v_annotations, path + ".citations")
    return new_TextPart(
        text=v_text,
        cache=v_cache,
        annotations=v_annotations,
        ext=None if _KNOWN_TEXT_0.issuperset(w) else split_ext(w, _KNOWN_TEXT_0),
    )


def _enc_text_0(p: TextPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "text"}

    out["text"] = p.text

    if p.cache is not None:
        out["cache_control"] = p.cache

    if p.annotations is not None:
        out["citations"] = p.annotations
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_text = _dec_text_0  # the only row: no dispatch call
encode_text = _enc_text_0  # the only row: no dispatch call


_KNOWN_IMAGE_1 = frozenset({"cache_control", "source", "type"})
_NESTED_IMAGE_1: dict[str, frozenset[str]] = {
    "source": frozenset({"data", "media_type", "type"}),
}


def _dec_image_1(w: dict[str, Any], path: str, ctx: Ctx) -> ImagePart:
    v_media_type = w.get("source")
    if v_media_type is not None:
        if type(v_media_type) is not dict:
            v_media_type = expect_dict(v_media_type, path + ".source")
        v_media_type = v_media_type.get("media_type")
    if v_media_type is None:
        raise InvalidInput("missing required field", path=path + ".source.media_type")
    if type(v_media_type) is not str:
        v_media_type = expect_str(v_media_type, path + ".source.media_type")
    v_data = w.get("source")
    if v_data is not None:
        if type(v_data) is not dict:
            v_data = expect_dict(v_data, path + ".source")
        v_data = v_data.get("data")
    if v_data is None:
        raise InvalidInput("missing required field", path=path + ".source.data")
    if type(v_data) is not str:
        v_data = expect_str(v_data, path + ".source.data")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    return new_ImagePart(
        media_type=v_media_type,
        data=v_data,
        cache=v_cache,
        ext=split_ext(w, _KNOWN_IMAGE_1, _NESTED_IMAGE_1),
    )


def _enc_image_1(p: ImagePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "image", "source": {"type": "base64"}}

    out.setdefault("source", {})["media_type"] = p.media_type

    out.setdefault("source", {})["data"] = p.data

    if p.cache is not None:
        out["cache_control"] = p.cache
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_IMAGE, "image")
    if p.detail is not None:
        ctx.loss(path + ".detail", "detail dropped", _WHY_IMAGE, "image")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


_KNOWN_IMAGE_2 = frozenset({"cache_control", "source", "type"})
_NESTED_IMAGE_2: dict[str, frozenset[str]] = {
    "source": frozenset({"file_id", "type"}),
}


def _dec_image_2(w: dict[str, Any], path: str, ctx: Ctx) -> ImagePart:
    v_file_id = w.get("source")
    if v_file_id is not None:
        if type(v_file_id) is not dict:
            v_file_id = expect_dict(v_file_id, path + ".source")
        v_file_id = v_file_id.get("file_id")
    if v_file_id is None:
        raise InvalidInput("missing required field", path=path + ".source.file_id")
    if type(v_file_id) is not str:
        v_file_id = expect_str(v_file_id, path + ".source.file_id")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    return new_ImagePart(
        file_id=v_file_id,
        cache=v_cache,
        ext=split_ext(w, _KNOWN_IMAGE_2, _NESTED_IMAGE_2),
    )


def _enc_image_2(p: ImagePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "image", "source": {"type": "file"}}

    out.setdefault("source", {})["file_id"] = p.file_id

    if p.cache is not None:
        out["cache_control"] = p.cache
    if p.detail is not None:
        ctx.loss(path + ".detail", "detail dropped", _WHY_IMAGE, "image")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


_KNOWN_IMAGE_3 = frozenset({"cache_control", "source", "type"})
_NESTED_IMAGE_3: dict[str, frozenset[str]] = {
    "source": frozenset({"type", "url"}),
}


def _dec_image_3(w: dict[str, Any], path: str, ctx: Ctx) -> ImagePart:
    v_url = w.get("source")
    if v_url is not None:
        if type(v_url) is not dict:
            v_url = expect_dict(v_url, path + ".source")
        v_url = v_url.get("url")
    if v_url is None:
        raise InvalidInput("missing required field", path=path + ".source.url")
    if type(v_url) is not str:
        v_url = expect_str(v_url, path + ".source.url")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    return new_ImagePart(
        url=v_url,
        cache=v_cache,
        ext=split_ext(w, _KNOWN_IMAGE_3, _NESTED_IMAGE_3),
    )


def _enc_image_3(p: ImagePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "image", "source": {"type": "url"}}

    out.setdefault("source", {})["url"] = p.url

    if p.cache is not None:
        out["cache_control"] = p.cache
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_IMAGE, "image")
    if p.detail is not None:
        ctx.loss(path + ".detail", "detail dropped", _WHY_IMAGE, "image")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


def decode_image(w: dict[str, Any], path: str, ctx: Ctx) -> ImagePart:
    if w.get("type") == "image" and dig(w, ["source", "type"], path) == "base64":
        return _dec_image_1(w, path, ctx)
    if w.get("type") == "image" and dig(w, ["source", "type"], path) == "file":
        return _dec_image_2(w, path, ctx)
    return _dec_image_3(w, path, ctx)


def encode_image(p: ImagePart, path: str, ctx: Ctx) -> dict[str, Any]:
    if p.data is not None:
        return _enc_image_1(p, path, ctx)
    if p.file_id is not None:
        return _enc_image_2(p, path, ctx)
    return _enc_image_3(p, path, ctx)


_KNOWN_FILE_4 = frozenset({"cache_control", "source", "title", "type"})
_NESTED_FILE_4: dict[str, frozenset[str]] = {
    "source": frozenset({"data", "media_type", "type"}),
}


def _dec_file_4(w: dict[str, Any], path: str, ctx: Ctx) -> FilePart:
    v_media_type = w.get("source")
    if v_media_type is not None:
        if type(v_media_type) is not dict:
            v_media_type = expect_dict(v_media_type, path + ".source")
        v_media_type = v_media_type.get("media_type")
    if v_media_type is None:
        raise InvalidInput("missing required field", path=path + ".source.media_type")
    if type(v_media_type) is not str:
        v_media_type = expect_str(v_media_type, path + ".source.media_type")
    v_data = w.get("source")
    if v_data is not None:
        if type(v_data) is not dict:
            v_data = expect_dict(v_data, path + ".source")
        v_data = v_data.get("data")
    if v_data is None:
        raise InvalidInput("missing required field", path=path + ".source.data")
    if type(v_data) is not str:
        v_data = expect_str(v_data, path + ".source.data")
    v_filename = w.get("title")
    if v_filename is not None and type(v_filename) is not str:
        v_filename = expect_str(v_filename, path + ".title")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    return new_FilePart(
        media_type=v_media_type,
        data=v_data,
        filename=v_filename,
        cache=v_cache,
        ext=split_ext(w, _KNOWN_FILE_4, _NESTED_FILE_4),
    )


def _enc_file_4(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "document", "source": {"type": "base64"}}

    out.setdefault("source", {})["media_type"] = p.media_type

    out.setdefault("source", {})["data"] = p.data

    if p.filename is not None:
        out["title"] = p.filename

    if p.cache is not None:
        out["cache_control"] = p.cache
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_FILE, "file")
    if p.text is not None:
        ctx.loss(path + ".text", "text dropped", _WHY_FILE, "file")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


_KNOWN_FILE_5 = frozenset({"cache_control", "source", "title", "type"})
_NESTED_FILE_5: dict[str, frozenset[str]] = {
    "source": frozenset({"data", "media_type", "type"}),
}


def _dec_file_5(w: dict[str, Any], path: str, ctx: Ctx) -> FilePart:
    v_media_type = w.get("source")
    if v_media_type is not None:
        if type(v_media_type) is not dict:
            v_media_type = expect_dict(v_media_type, path + ".source")
        v_media_type = v_media_type.get("media_type")
    if v_media_type is not None and type(v_media_type) is not str:
        v_media_type = expect_str(v_media_type, path + ".source.media_type")
    v_text = w.get("source")
    if v_text is not None:
        if type(v_text) is not dict:
            v_text = expect_dict(v_text, path + ".source")
        v_text = v_text.get("data")
    if v_text is None:
        raise InvalidInput("missing required field", path=path + ".source.data")
    if type(v_text) is not str:
        v_text = expect_str(v_text, path + ".source.data")
    v_filename = w.get("title")
    if v_filename is not None and type(v_filename) is not str:
        v_filename = expect_str(v_filename, path + ".title")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    return new_FilePart(
        media_type=v_media_type,
        text=v_text,
        filename=v_filename,
        cache=v_cache,
        ext=split_ext(w, _KNOWN_FILE_5, _NESTED_FILE_5),
    )


def _enc_file_5(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "document", "source": {"type": "text"}}

    if p.media_type is not None:
        out.setdefault("source", {})["media_type"] = p.media_type

    out.setdefault("source", {})["data"] = p.text

    if p.filename is not None:
        out["title"] = p.filename

    if p.cache is not None:
        out["cache_control"] = p.cache
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_FILE, "file")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


_KNOWN_FILE_6 = frozenset({"cache_control", "source", "title", "type"})
_NESTED_FILE_6: dict[str, frozenset[str]] = {
    "source": frozenset({"file_id", "type"}),
}


def _dec_file_6(w: dict[str, Any], path: str, ctx: Ctx) -> FilePart:
    v_file_id = w.get("source")
    if v_file_id is not None:
        if type(v_file_id) is not dict:
            v_file_id = expect_dict(v_file_id, path + ".source")
        v_file_id = v_file_id.get("file_id")
    if v_file_id is None:
        raise InvalidInput("missing required field", path=path + ".source.file_id")
    if type(v_file_id) is not str:
        v_file_id = expect_str(v_file_id, path + ".source.file_id")
    v_filename = w.get("title")
    if v_filename is not None and type(v_filename) is not str:
        v_filename = expect_str(v_filename, path + ".title")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    return new_FilePart(
        file_id=v_file_id,
        filename=v_filename,
        cache=v_cache,
        ext=split_ext(w, _KNOWN_FILE_6, _NESTED_FILE_6),
    )


def _enc_file_6(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "document", "source": {"type": "file"}}

    out.setdefault("source", {})["file_id"] = p.file_id

    if p.filename is not None:
        out["title"] = p.filename

    if p.cache is not None:
        out["cache_control"] = p.cache
    if p.text is not None:
        ctx.loss(path + ".text", "text dropped", _WHY_FILE, "file")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


_KNOWN_FILE_7 = frozenset({"cache_control", "source", "title", "type"})
_NESTED_FILE_7: dict[str, frozenset[str]] = {
    "source": frozenset({"type", "url"}),
}


def _dec_file_7(w: dict[str, Any], path: str, ctx: Ctx) -> FilePart:
    v_url = w.get("source")
    if v_url is not None:
        if type(v_url) is not dict:
            v_url = expect_dict(v_url, path + ".source")
        v_url = v_url.get("url")
    if v_url is None:
        raise InvalidInput("missing required field", path=path + ".source.url")
    if type(v_url) is not str:
        v_url = expect_str(v_url, path + ".source.url")
    v_filename = w.get("title")
    if v_filename is not None and type(v_filename) is not str:
        v_filename = expect_str(v_filename, path + ".title")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    return new_FilePart(
        url=v_url,
        filename=v_filename,
        cache=v_cache,
        ext=split_ext(w, _KNOWN_FILE_7, _NESTED_FILE_7),
    )


def _enc_file_7(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "document", "source": {"type": "url"}}

    out.setdefault("source", {})["url"] = p.url

    if p.filename is not None:
        out["title"] = p.filename

    if p.cache is not None:
        out["cache_control"] = p.cache
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_FILE, "file")
    if p.text is not None:
        ctx.loss(path + ".text", "text dropped", _WHY_FILE, "file")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


def decode_file(w: dict[str, Any], path: str, ctx: Ctx) -> FilePart:
    if w.get("type") == "document" and dig(w, ["source", "type"], path) == "base64":
        return _dec_file_4(w, path, ctx)
    if w.get("type") == "document" and dig(w, ["source", "type"], path) == "text":
        return _dec_file_5(w, path, ctx)
    if w.get("type") == "document" and dig(w, ["source", "type"], path) == "file":
        return _dec_file_6(w, path, ctx)
    return _dec_file_7(w, path, ctx)


def encode_file(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any]:
    if p.data is not None:
        return _enc_file_4(p, path, ctx)
    if p.text is not None:
        return _enc_file_5(p, path, ctx)
    if p.file_id is not None:
        return _enc_file_6(p, path, ctx)
    return _enc_file_7(p, path, ctx)


_KNOWN_REFUSAL_8 = frozenset({"text", "type"})
_NESTED_REFUSAL_8: dict[str, frozenset[str]] = {}


def _dec_refusal_8(w: dict[str, Any], path: str, ctx: Ctx) -> RefusalPart:
    v_text = w.get("text")
    if v_text is None:
        raise InvalidInput("missing required field", path=path + ".text")
    if type(v_text) is not str:
        v_text = expect_str(v_text, path + ".text")
    return new_RefusalPart(
        text=v_text,
        ext=None if _KNOWN_REFUSAL_8.issuperset(w) else split_ext(w, _KNOWN_REFUSAL_8),
    )


def _enc_refusal_8(p: RefusalPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "text"}
    ctx.loss(path, "refusal sent as a text block", _WHY_TEXT, "text")

    out["text"] = p.text
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_refusal = _dec_refusal_8  # the only row: no dispatch call
encode_refusal = _enc_refusal_8  # the only row: no dispatch call


_KNOWN_TOOL_CALL_9 = frozenset({"cache_control", "id", "input", "name", "type"})
_NESTED_TOOL_CALL_9: dict[str, frozenset[str]] = {}


def _shape_tool_call_9(w: dict[str, Any]) -> dict[str, Any] | None:
    """Which of the paths the encoder always writes came absent or null."""
    hints: dict[str, list[str]] = {}
    if "type" not in w:
        hints.setdefault("absent", []).append("type")
    elif w["type"] is None:
        hints.setdefault("null", []).append("type")
    return hints or None


def _dec_tool_call_9(w: dict[str, Any], path: str, ctx: Ctx) -> ToolCallPart:
    v_id = w.get("id")
    if v_id is None:
        raise InvalidInput("missing required field", path=path + ".id")
    if type(v_id) is not str:
        v_id = expect_str(v_id, path + ".id")
    v_name = w.get("name")
    if v_name is None:
        raise InvalidInput("missing required field", path=path + ".name")
    if type(v_name) is not str:
        v_name = expect_str(v_name, path + ".name")
    v_arguments = w.get("input")
    if v_arguments is not None:
        v_arguments = json_text(expect_dict(v_arguments, path + ".input"), path + ".input")
    else:
        raise InvalidInput("missing required field", path=path + ".input")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    return new_ToolCallPart(
        id=v_id,
        name=v_name,
        arguments=v_arguments,
        cache=v_cache,
        ext=None if _KNOWN_TOOL_CALL_9.issuperset(w) else split_ext(w, _KNOWN_TOOL_CALL_9),
        hints=_shape_tool_call_9(w) if w.get("type") is None else None,
    )


def _enc_tool_call_9(p: ToolCallPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "tool_use"}

    out["id"] = p.id

    out["name"] = p.name

    out["input"] = arguments_object(p.arguments, path + ".arguments", ctx)

    if p.cache is not None:
        out["cache_control"] = p.cache
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    if ctx.same and p.hints:  # back to this protocol as they came
        absent, null = p.hints.get("absent", ()), p.hints.get("null", ())
        if "type" in absent:
            out.pop("type", None)
        elif "type" in null:
            out["type"] = None
    return out


decode_tool_call = _dec_tool_call_9  # the only row: no dispatch call
encode_tool_call = _enc_tool_call_9  # the only row: no dispatch call


_KNOWN_TOOL_RESULT_10 = frozenset({"cache_control", "content", "is_error", "tool_use_id", "type"})
_NESTED_TOOL_RESULT_10: dict[str, frozenset[str]] = {}


def _dec_tool_result_10(w: dict[str, Any], path: str, ctx: Ctx) -> ToolResultPart:
    v_call_id = w.get("tool_use_id")
    if v_call_id is None:
        raise InvalidInput("missing required field", path=path + ".tool_use_id")
    if type(v_call_id) is not str:
        v_call_id = expect_str(v_call_id, path + ".tool_use_id")
    v_content = w.get("content")
    s_content = type(v_content) is str
    if v_content is not None:
        v_content = decode_parts(v_content, path + ".content", ctx)
    v_is_error = w.get("is_error")
    if v_is_error is not None and type(v_is_error) is not bool:
        v_is_error = expect_bool(v_is_error, path + ".is_error")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    return ToolResultPart(
        call_id=v_call_id,
        content=v_content,
        hints={"string": True} if s_content else None,
        is_error=v_is_error,
        cache=v_cache,
        ext=None if _KNOWN_TOOL_RESULT_10.issuperset(w) else split_ext(w, _KNOWN_TOOL_RESULT_10),
    )


def _enc_tool_result_10(p: ToolResultPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "tool_result"}

    out["tool_use_id"] = p.call_id

    if p.content is not None:
        out["content"] = encode_parts(p.content, p.hints, path + ".content", ctx)

    if p.is_error is not None:
        out["is_error"] = p.is_error

    if p.cache is not None:
        out["cache_control"] = p.cache
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_tool_result = _dec_tool_result_10  # the only row: no dispatch call
encode_tool_result = _enc_tool_result_10  # the only row: no dispatch call


_KNOWN_REASONING_11 = frozenset({"data", "type"})
_NESTED_REASONING_11: dict[str, frozenset[str]] = {}


def _dec_reasoning_11(w: dict[str, Any], path: str, ctx: Ctx) -> ReasoningPart:
    v_redacted = w.get("data")
    if v_redacted is None:
        raise InvalidInput("missing required field", path=path + ".data")
    if type(v_redacted) is not str:
        v_redacted = expect_str(v_redacted, path + ".data")
    return new_ReasoningPart(
        redacted=v_redacted,
        owner=PROTOCOL,
        ext=None if _KNOWN_REASONING_11.issuperset(w) else split_ext(w, _KNOWN_REASONING_11),
    )


def _enc_reasoning_11(p: ReasoningPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "redacted_thinking"}

    out["data"] = p.redacted
    if p.signature is not None:
        ctx.loss(
            path + ".signature", "signature dropped", _WHY_REASONING_REPLAY, "reasoning_replay"
        )
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


_KNOWN_REASONING_12 = frozenset({"signature", "thinking", "type"})
_NESTED_REASONING_12: dict[str, frozenset[str]] = {}


def _dec_reasoning_12(w: dict[str, Any], path: str, ctx: Ctx) -> ReasoningPart:
    v_text = w.get("thinking")
    if v_text is None:
        raise InvalidInput("missing required field", path=path + ".thinking")
    if type(v_text) is not str:
        v_text = expect_str(v_text, path + ".thinking")
    v_signature = w.get("signature")
    if v_signature is not None and type(v_signature) is not str:
        v_signature = expect_str(v_signature, path + ".signature")
    return new_ReasoningPart(
        text=v_text,
        signature=v_signature,
        owner=PROTOCOL,
        ext=None if _KNOWN_REASONING_12.issuperset(w) else split_ext(w, _KNOWN_REASONING_12),
    )


def _enc_reasoning_12(p: ReasoningPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "thinking"}

    out["thinking"] = p.text

    if p.signature is not None:
        out["signature"] = p.signature
    if p.redacted is not None:
        ctx.loss(path + ".redacted", "redacted dropped", _WHY_REASONING_REPLAY, "reasoning_replay")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


def decode_reasoning(w: dict[str, Any], path: str, ctx: Ctx) -> ReasoningPart:
    if w.get("type") == "redacted_thinking":
        return _dec_reasoning_11(w, path, ctx)
    return _dec_reasoning_12(w, path, ctx)


def encode_reasoning(p: ReasoningPart, path: str, ctx: Ctx) -> dict[str, Any] | None:
    if p.owner != PROTOCOL:
        if p.owner:
            ctx.loss(
                path,
                "reasoning dropped",
                "its opaque state belongs to " + p.owner,
                "reasoning_replay",
            )
        else:
            ctx.loss(
                path,
                "reasoning dropped",
                "reasoning without its opaque state cannot be replayed here",
                "reasoning_text",
            )
        return None
    if p.redacted is not None:
        return _enc_reasoning_11(p, path, ctx)
    return _enc_reasoning_12(p, path, ctx)


_PART_DECODERS: dict[str, Any] = {
    "text": decode_text,
    "image": decode_image,
    "document": decode_file,
    "tool_use": decode_tool_call,
    "tool_result": decode_tool_result,
    "redacted_thinking": decode_reasoning,
    "thinking": decode_reasoning,
}
NATIVE_PARTS: frozenset[str] = frozenset(
    [
        "server_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
        "text_editor_code_execution_tool_result",
        "tool_search_tool_result",
        "advisor_tool_result",
        "mcp_tool_use",
        "mcp_tool_result",
        "container_upload",
        "search_result",
        "tool_reference",
        "tool_addition",
        "compaction",
        "fallback",
    ]
)
_PART_ENCODERS: dict[type, Any] = {
    TextPart: encode_text,
    ImagePart: encode_image,
    FilePart: encode_file,
    RefusalPart: encode_refusal,
    ToolCallPart: encode_tool_call,
    ToolResultPart: encode_tool_result,
    ReasoningPart: encode_reasoning,
}


def decode_part(w: Any, path: str, ctx: Ctx) -> Part:
    if type(w) is not dict:
        w = expect_dict(w, path)
    t = w.get("type")
    fn = _PART_DECODERS.get(t) if type(t) is str else None
    if fn is None:
        if type(t) is str and t in NATIVE_PARTS:
            return NativePart(type=t, data=w, owner=PROTOCOL)  # type: ignore[arg-type]
        raise InvalidInput(f"unknown content block type {brief(t)}", path=path + ".type")
    return fn(w, path, ctx)


def encode_part(p: Part, path: str, ctx: Ctx) -> dict[str, Any] | None:
    fn = _PART_ENCODERS.get(type(p))
    if type(p) is NativePart:
        if p.owner == PROTOCOL:
            return p.data
        ctx.loss(
            path,
            f"{p.type} block dropped",
            f"a block of {p.owner} with no equivalent in {PROTOCOL}",
            "native_parts",
        )
        return None
    if fn is None:
        feature = type(p).FEATURE
        ctx.loss(path, f"{type(p).__name__} dropped", _WHY_PART[feature], feature)
        return None
    return fn(p, path, ctx)


def decode_parts(v: Any, path: str, ctx: Ctx) -> list[Part]:
    if type(v) is str:
        return [TextPart(text=v)]
    v = expect_list(v, path)
    return [decode_part(e, f"{path}[{i}]", ctx) for i, e in enumerate(v)]


def encode_parts(parts: list[Part], hints: dict[str, Any] | None, path: str, ctx: Ctx) -> Any:
    if hints is not None and hints.get("string") and len(parts) == 1 and type(parts[0]) is TextPart:
        return parts[0].text
    out = []
    for i, part in enumerate(parts):
        e = encode_part(part, f"{path}[{i}]", ctx)
        if e is not None:
            out.append(e)
    return out


# ---------------------------------------------------------------- tools
_KNOWN_TOOL = frozenset({"cache_control", "description", "input_schema", "name", "strict", "type"})
_NESTED_TOOL: dict[str, frozenset[str]] = {}


def decode_tool(w: Any, path: str, ctx: Ctx) -> Tool:
    if type(w) is not dict:
        w = expect_dict(w, path)
    v_name = w.get("name")
    if v_name is None:
        raise InvalidInput("missing required field", path=path + ".name")
    if type(v_name) is not str:
        v_name = expect_str(v_name, path + ".name")
    v_description = w.get("description")
    if v_description is not None and type(v_description) is not str:
        v_description = expect_str(v_description, path + ".description")
    v_parameters = w.get("input_schema")
    if v_parameters is not None and type(v_parameters) is not dict:
        v_parameters = expect_dict(v_parameters, path + ".input_schema")
    v_strict = w.get("strict")
    if v_strict is not None and type(v_strict) is not bool:
        v_strict = expect_bool(v_strict, path + ".strict")
    v_cache = w.get("cache_control")
    if v_cache is not None and type(v_cache) is not dict:
        v_cache = expect_dict(v_cache, path + ".cache_control")
    return new_Tool(
        name=v_name,
        description=v_description,
        parameters=v_parameters,
        strict=v_strict,
        cache=v_cache,
        ext=None if _KNOWN_TOOL.issuperset(w) else split_ext(w, _KNOWN_TOOL),
        hints={"type": w["type"]} if "type" in w else None,
    )


def encode_tool(p: Tool, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    out["name"] = p.name

    if p.description is not None:
        out["description"] = p.description

    if p.parameters is not None:
        out["input_schema"] = p.parameters

    if p.strict is not None:
        out["strict"] = p.strict

    if p.cache is not None:
        out["cache_control"] = p.cache
    if ctx.same and p.hints and "type" in p.hints:
        out = {"type": p.hints["type"], **out}
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


# ---------------------------------------------------------------- request and response fields
REQUEST_ROW_KEYS = frozenset(
    {
        "max_tokens",
        "messages",
        "metadata",
        "model",
        "output_config",
        "stop_sequences",
        "stream",
        "system",
        "temperature",
        "thinking",
        "tools",
        "top_k",
        "top_p",
    }
)
REQUEST_NESTED: dict[str, frozenset[str]] = {
    "metadata": frozenset({"user_id"}),
}


def decode_request_fields(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    path = ""
    kept: dict[str, dict[str, Any]] = {}  # the source's own form, for the same protocol (hints)
    v_model = w.get("model")
    if v_model is not None and type(v_model) is not str:
        v_model = expect_str(v_model, path + ".model")
    req.model = v_model
    v_max_tokens = w.get("max_tokens")
    if v_max_tokens is not None and type(v_max_tokens) is not int:
        v_max_tokens = expect_int(v_max_tokens, path + ".max_tokens")
    req.max_tokens = v_max_tokens
    v_temperature = w.get("temperature")
    if v_temperature is not None:
        v_temperature = expect_number(v_temperature, path + ".temperature")
    req.temperature = v_temperature
    v_top_p = w.get("top_p")
    if v_top_p is not None:
        v_top_p = expect_number(v_top_p, path + ".top_p")
    req.top_p = v_top_p
    v_top_k = w.get("top_k")
    if v_top_k is not None and type(v_top_k) is not int:
        v_top_k = expect_int(v_top_k, path + ".top_k")
    req.top_k = v_top_k
    v_stop = w.get("stop_sequences")
    if type(v_stop) is str:
        kept.setdefault("string", {})["stop"] = True
    if v_stop is not None:
        v_stop = expect_str_list(v_stop, path + ".stop_sequences")
    req.stop = v_stop
    v_stream = w.get("stream")
    if v_stream is not None and type(v_stream) is not bool:
        v_stream = expect_bool(v_stream, path + ".stream")
    req.stream = v_stream
    v_user = w.get("metadata")
    if v_user is not None:
        if type(v_user) is not dict:
            v_user = expect_dict(v_user, path + ".metadata")
        v_user = v_user.get("user_id")
    if v_user is not None and type(v_user) is not str:
        v_user = expect_str(v_user, path + ".metadata.user_id")
    req.user = v_user
    if w.get("metadata") == {}:  # a rows' object sent empty: so again to this protocol
        kept.setdefault("empty", {})["metadata"] = True
    if kept:
        add_hints(req, kept)


def encode_request_fields(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    kept = (req.hints or {}) if ctx.same else {}  # the source's own form

    if req.model is not None:
        out["model"] = req.model

    if req.max_tokens is not None:
        out["max_tokens"] = req.max_tokens

    if req.temperature is not None:
        out["temperature"] = req.temperature

    if req.top_p is not None:
        out["top_p"] = req.top_p

    if req.top_k is not None:
        out["top_k"] = req.top_k

    if req.stop is not None:
        out["stop_sequences"] = req.stop
    if req.stop and len(req.stop) == 1 and "stop" in kept.get("string", ()):
        out["stop_sequences"] = req.stop[0]  # it came as one string

    if req.stream is not None:
        out["stream"] = req.stream

    if req.user is not None:
        out.setdefault("metadata", {})["user_id"] = req.user
    if "metadata" in kept.get("empty", ()):
        out.setdefault("metadata", {})
    if req.seed is not None:
        ctx.loss("seed", "seed dropped", _WHY_SEED, "seed")
    if req.presence_penalty is not None:
        ctx.loss("presence_penalty", "presence_penalty dropped", _WHY_PENALTIES, "penalties")
    if req.frequency_penalty is not None:
        ctx.loss("frequency_penalty", "frequency_penalty dropped", _WHY_PENALTIES, "penalties")
    if req.metadata is not None:
        ctx.loss("metadata", "metadata dropped", _WHY_EXTENSIONS, "extensions")


RESPONSE_ROW_KEYS = frozenset({"id", "model", "stop_sequence"})


def decode_response_fields(w: dict[str, Any], resp: Response, ctx: Ctx) -> None:
    path = ""
    v_id = w.get("id")
    if v_id is not None and type(v_id) is not str:
        v_id = expect_str(v_id, path + ".id")
    resp.id = v_id
    v_model = w.get("model")
    if v_model is not None and type(v_model) is not str:
        v_model = expect_str(v_model, path + ".model")
    resp.model = v_model
    v_stop_sequence = w.get("stop_sequence")
    if v_stop_sequence is not None and type(v_stop_sequence) is not str:
        v_stop_sequence = expect_str(v_stop_sequence, path + ".stop_sequence")
    resp.stop_sequence = v_stop_sequence


def encode_response_fields(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:

    if resp.id is not None:
        out["id"] = resp.id

    if resp.model is not None:
        out["model"] = resp.model

    if resp.stop_sequence is not None:
        out["stop_sequence"] = resp.stop_sequence


# ---------------------------------------------------------------- usage
def usage_losses(u: Usage, target: str, path: str) -> list[Loss]:
    """The counts of ``u`` this protocol's usage has no field for (still in the totals): one
    rule for responses (encode_response_envelope) and streams (the stream API)."""
    out: list[Loss] = []
    if u.output_reasoning:
        out.append(
            Loss(
                f"{path}.output_reasoning",
                f"output_reasoning count {u.output_reasoning} dropped (still included in the totals)",
                f"{target} usage has no such count",
                "usage",
            )
        )
    return out


def decode_usage(w: Any, path: str) -> Usage:
    if type(w) is not dict:
        w = expect_dict(w, path)
    v_input = w.get("input_tokens")
    if v_input is not None and type(v_input) is not int:
        v_input = expect_int(v_input, path + ".input_tokens")
    v_input_cache_read = w.get("cache_read_input_tokens")
    if v_input_cache_read is not None and type(v_input_cache_read) is not int:
        v_input_cache_read = expect_int(v_input_cache_read, path + ".cache_read_input_tokens")
    v_input_cache_write = w.get("cache_creation_input_tokens")
    if v_input_cache_write is not None and type(v_input_cache_write) is not int:
        v_input_cache_write = expect_int(v_input_cache_write, path + ".cache_creation_input_tokens")
    v_output_total = w.get("output_tokens")
    if v_output_total is not None and type(v_output_total) is not int:
        v_output_total = expect_int(v_output_total, path + ".output_tokens")
    u = Usage(raw=w)
    u.input_total = v_input or 0
    u.input_cache_read = v_input_cache_read or 0
    u.input_cache_write = v_input_cache_write or 0
    u.output_total = v_output_total or 0
    u.input_total += u.input_cache_read + u.input_cache_write
    return u


def encode_usage(u: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    out["input_tokens"] = u.input_total - u.input_cache_read - u.input_cache_write
    out["cache_read_input_tokens"] = u.input_cache_read
    out["cache_creation_input_tokens"] = u.input_cache_write
    out["output_tokens"] = u.output_total
    return out


# ---------------------------------------------------------------- snake_case keys
def decode_snake_case(w: dict[str, Any], req: Request) -> dict[str, Any]:
    """The body with the keys the API also takes in snake_case in camelCase (snake_case_keys)."""
    return w


def encode_snake_case(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """Back to this protocol, the keys that came snake_case written so again."""


# ---------------------------------------------------------------- errors (spec: error_shape)
ERROR_RAW_DEFAULT = "api_error"  # the raw type of an error with no row
# the errors rows as error_type asks them (codegen/errors.py type_rule): a row of (raw type,
# status) the later steps would decide otherwise; a raw type whose type no status refines
ERROR_EXACT: dict[tuple[str, int], str] = {}
ERROR_FIRM: dict[str, str] = {
    "authentication_error": "authentication",
    "permission_error": "permission",
    "not_found_error": "not_found",
    "request_too_large": "request_too_large",
    "rate_limit_error": "rate_limit",
    "overloaded_error": "overloaded",
    "timeout_error": "timeout",
}
ERROR_RAW_STATUS: dict[str, int] = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
    "timeout_error": 504,
}  # the status of a raw type's type
# the type of a status: its first row's, else the canonical one's
ERROR_BY_STATUS: dict[int, str] = {
    400: "invalid_request",
    401: "authentication",
    403: "permission",
    404: "not_found",
    413: "request_too_large",
    429: "rate_limit",
    500: "api_error",
    529: "overloaded",
    504: "timeout",
    502: "bad_gateway",
}


def error_type(raw: Any, status: int | None, carried: int | None) -> tuple[str, int]:
    """(canonical type, canonical status) of an error of raw type ``raw`` (None: it has none)
    and HTTP ``status``; None: an in-band error, whose status is the one it ``carried``, else
    its raw type's row's. The errors rows in codegen/errors.py's order."""
    if status is None:
        status = carried or ERROR_RAW_STATUS.get(raw, 500)
    unified = (
        ERROR_FIRM.get(raw)
        or ERROR_BY_STATUS.get(status)
        or ERROR_DECODE.get(raw)
        # a status no row and no canonical type names: by its class
        or ("overloaded" if status == 503 else "api_error" if status >= 500 else "invalid_request")
    )
    return unified, status


def error_status(unified: str, status: int | None) -> int:
    """The HTTP status this protocol sends an error of type ``unified`` with, of canonical
    ``status`` (None: the type's row's)."""
    if not status:
        return ERROR_STATUS.get(unified, 500)
    return status


def read_error(e: Any, raw: Any = None) -> tuple[Any, Any, Any, Any, int | None]:
    """The error object ``e`` -> (raw type, message, code, param, the HTTP status it carries),
    where error_shape says; ``raw``: its raw type when it has none (a stream row's error_type).
    Never raises: runtime/_pipeline.error_info makes the ErrorInfo."""
    if type(e) is not dict:
        return raw, None, None, None, None
    return (t if (t := e.get("type")) is not None else raw, e.get("message"), None, None, None)


def read_error_body(body: Any) -> tuple[Any, Any, Any, Any, int | None]:
    """An HTTP error body: ``read_error`` of its error object (error)."""
    e = body.get("error") if type(body) is dict else None
    return read_error(e)


def write_error(err: Any, raw: str, status: int, inband: bool = False) -> dict[str, Any]:
    """The error body of ``err`` (ErrorInfo; ``raw``: its raw type, ``status``: its HTTP status,
    ``inband``: the event of a stream's error)."""
    return {"type": "error", "error": {"type": raw, "message": err.message}}


# ---------------------------------------------------------------- request settings (response_format, reasoning)


_FORMAT_DECODE: dict[str, str] = {"json_schema": "json_schema"}
_FORMAT_ENCODE: dict[str, str] = {"json_schema": "json_schema"}
_FORMAT_KEEP0 = frozenset({"schema", "type"})


def decode_response_format(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """response_format rows: the wire format -> req.response_format."""
    if "output_config" not in w:
        return
    raw = dig(w, ("output_config", "format", "type"))
    schema = dig(w, ("output_config", "format", "schema"))
    hints: dict[str, Any] = {}
    if (obj := dig(w, ("output_config", "format"))) is not None:
        rest = kept_keys(expect_dict(obj, "output_config.format"), _FORMAT_KEEP0)
        hints["rest output_config.format"] = rest
        if not ctx.same:
            keys_lost(rest, "output_config.format", ctx, "structured_output")
    if raw is None and schema is None and dig(w, ("output_config", "format")) is None:
        add_hints(req, hints)
        return  # no format (a present object without its type is refused below)
    ftype = (
        _FORMAT_DECODE.get(expect_str(raw, "output_config.format.type"))
        if raw is not None
        else None
    )
    if ftype is None:
        raise InvalidInput(f"unknown format type {brief(raw)}", path="output_config.format.type")
    rf = ResponseFormat(type="json_schema" if schema is not None else ftype)
    if rf.type == "json_schema":
        rf.schema = expect_dict(schema, "output_config.format.schema")
    req.response_format = rf
    add_hints(req, hints)


def encode_response_format(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """response_format rows: req.response_format -> the wire format."""
    rf = req.response_format
    if not ctx.same or not req.hints:  # no hints to read
        if rf is not None:
            _format_out(rf, out, ctx)
        return
    hints = req.hints
    if rf is not None:
        _format_out(rf, out, ctx)
    if (rest := hints.get("rest output_config.format")) is not None:
        keep_keys(obj_at(out, ("output_config", "format")), rest)


def _format_out(rf: ResponseFormat, out: dict[str, Any], ctx: Ctx) -> None:
    wire = _FORMAT_ENCODE.get(rf.type)
    if wire is None or (rf.type == "json_schema" and (rf.schema is None)):
        format_dropped(rf.type, wire is None, ctx)
        return
    put(out, ("output_config", "format", "type"), wire)
    if rf.type != "json_schema":
        return
    if rf.schema is not None:
        put(out, ("output_config", "format", "schema"), rf.schema)
    schema_fields_lost(rf, ("strict", "name", "description"), ctx)


_REASONING_MODES: dict[str, str] = {
    "enabled": "enabled",
    "adaptive": "adaptive",
    "disabled": "disabled",
}
_REASONING_MODE_DECODE: dict[str, str] = {
    "enabled": "enabled",
    "adaptive": "adaptive",
    "disabled": "disabled",
}
_REASONING_EXT0 = frozenset({"budget_tokens", "type"})
_REASONING_EXT1 = frozenset({"effort", "format"})


def decode_reasoning_config(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """reasoning rows: the wire configuration -> req.reasoning."""
    if w.keys().isdisjoint(("output_config", "thinking")):
        return
    r = ReasoningConfig()
    hints: dict[str, Any] = {}
    o0 = w.get("thinking")
    if o0 is not None:
        o0 = expect_dict(o0, "thinking")
        if rest := kept_keys(o0, _REASONING_EXT0):
            r.ext = {"thinking": rest}
        if not o0:
            hints.setdefault("reasoning_empty", []).append("thinking")
    o1 = w.get("output_config")
    if o1 is not None:
        o1 = expect_dict(o1, "output_config")
        if rest := kept_keys(o1, _REASONING_EXT1):
            r.ext = {**(r.ext or {}), "output_config": rest}
        if not o1:
            hints.setdefault("reasoning_empty", []).append("output_config")
    if o0 is not None:
        mode = expect_str(o0.get("type"), "thinking.type")
        r.mode = _REASONING_MODE_DECODE.get(mode)
        if r.mode is None:
            raise InvalidInput(f"unknown thinking type {brief(mode)}", path="thinking.type")
    if o0 is not None and (v := o0.get("budget_tokens")) is not None:
        r.budget_tokens = expect_int(v, "thinking.budget_tokens")
    if o1 is not None and (v := o1.get("effort")) is not None:
        r.effort = expect_str(v, "output_config.effort")
    if r.mode or r.budget_tokens is not None or r.effort or r.ext:
        req.reasoning = r
    add_hints(req, hints)


def encode_reasoning_config(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """reasoning rows: req.reasoning -> the wire configuration."""
    r = req.reasoning
    mode: str | None = None
    budget: int | None = None
    effort: str | None = None
    if ctx.same:  # as the client sent them (also a spelled-out default alone)
        if r is None and not req.hints:
            return
        r = r or ReasoningConfig()
        hints = req.hints or {}
        mode = _REASONING_MODES.get(r.mode) if r.mode is not None else None
        if r.budget_tokens is not None:
            budget = r.budget_tokens
        effort = r.effort
    elif r is None:
        return
    elif thinking_off(r):
        mode = "disabled"
    else:  # what another protocol's configuration becomes in this one
        if (
            r.mode is not None
            or r.effort is not None
            or r.budget_tokens is not None
            or r.summary is not None
        ):
            m = r.mode or "enabled"
            mode = _REASONING_MODES[m]
            if r.effort is not None and r.mode is not None:
                effort = r.effort
            budget = r.budget_tokens
            if budget is None:  # an effort it cannot say (unsaid): its budget
                unsaid = r.effort is not None and effort is None
                if unsaid or m == "enabled":
                    budget = thinking_budget(r)
                if unsaid and r.effort not in EFFORT_BUDGETS:
                    lost(
                        "effort",
                        f"effort {brief(r.effort)} sent as budget {budget}",
                        "has no such effort",
                        ctx,
                    )
            if r.budget_tokens is not None and r.effort is not None:  # one is sent
                if budget is None:
                    lost(
                        "budget_tokens",
                        f"budget {r.budget_tokens} dropped",
                        "takes the effort alone",
                        ctx,
                    )
                elif effort is None:
                    lost(
                        "effort", f"effort {brief(r.effort)} dropped", "takes the budget alone", ctx
                    )
        if r.summary is not None:
            lost(
                "summary",
                f"summary {brief(r.summary)} dropped",
                "has no reasoning summary setting (what it returns is its own)",
                ctx,
            )
    if budget is not None and not ctx.same:
        budget = lowered_budget(budget, out.get("max_tokens"), 1024, "max_tokens", ctx)
        if budget is None:  # no budget fits: no thinking
            mode = None
    if mode is not None:
        put(out, ("thinking", "type"), mode)
    if budget is not None:
        put(out, ("thinking", "budget_tokens"), budget)
    if effort is not None:
        put(out, ("output_config", "effort"), effort)
    if not ctx.same:
        for obj, keys in (r.ext or {}).items():  # the source's: nowhere to go
            keys_lost(keys, obj, ctx, "reasoning_config")
        return
    ext = r.ext or {}
    if rest := ext.get("thinking"):
        keep_keys(obj_at(out, ("thinking",)), rest)
    if "thinking" in hints.get("reasoning_empty", ()):
        obj_at(out, ("thinking",))
    if rest := ext.get("output_config"):
        keep_keys(obj_at(out, ("output_config",)), rest)
    if "output_config" in hints.get("reasoning_empty", ()):
        obj_at(out, ("output_config",))


# ---------------------------------------------------------------- turns (spec: flags.turns)
_TURN_KEYS = frozenset({"role", "content"})  # a turn's keys the walk reads (the rest: ext)


def _user_turn(parts: list[Part], hints: Any, ext: dict[str, Any] | None) -> list[Message]:
    """A user turn holding tool results -> one ``tool`` message per result and ``user``
    messages for the rest, results first: one user message after them, holding the turn's
    unknown keys (``ext``; with none, the first result does)."""
    out: list[Message] = []
    user: Message | None = None
    for p in parts:
        if type(p) is ToolResultPart:
            out.append(Message(role="tool", parts=[p], hints=hints))
        elif user is None:
            user = Message(role="user", parts=[p], hints=hints)
        else:
            user.parts.append(p)
    if user is None:
        out[0].ext = ext
    else:
        user.ext = ext
        out.append(user)
    return out


def decode_turns(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """The system prompt (system) and the messages turns -> canonical
    messages; a turn with tool results and a user turn after one keep its index (hint ``turn``)."""
    out: list[Message] = []
    system = w.get("system")
    if system is not None:  # content blocks: a string or a list
        sp, sh = content_parts(system, "system", decode_parts, ctx)
        out.append(Message(role="system", parts=sp, hints=sh))
    raw = w.get("messages")
    if raw is None:
        raise InvalidInput("missing required field", path="messages")
    after_results = False  # the previous turn held tool results
    for i, t in enumerate(raw if type(raw) is list else expect_list(raw, "messages")):
        path = f"messages[{i}]"
        if type(t) is not dict:
            t = expect_dict(t, path)
        role = role_of(t, path, ROLE_DECODE, None)
        content = t.get("content")
        if content is None:
            raise InvalidInput("missing required field", path=path + ".content")
        parts, hints = content_parts(content, path + ".content", decode_parts, ctx)
        ext = None if _TURN_KEYS.issuperset(t) else split_ext(t, _TURN_KEYS)
        user = role == "user" or role == "tool"
        results = user and ToolResultPart in map(type, parts)
        if results or (user and after_results):  # the turn it came in, for this protocol
            if hints is None:
                hints = {"turn": i}
            else:
                hints["turn"] = i
        after_results = results
        if results:
            out.extend(_user_turn(parts, hints, ext))
        else:
            out.append(Message(role="user" if user else role, parts=parts, ext=ext, hints=hints))
    req.messages = out


def encode_turns(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """Canonical messages -> the system prompt (system) and the messages turns.
    A tool message joins the open user turn while it holds results alone; a user message joins a turn of results
    only; between endpoints of this protocol the source's turns are kept (hint ``turn``)."""
    msgs = req.messages
    n = next((i for i, m in enumerate(msgs) if m.role not in ("system", "developer")), len(msgs))
    system: list[Any] = []
    for i in range(n):
        system += encode_parts(msgs[i].parts, None, f"messages[{i}].content", ctx)
    turns: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None  # the open user turn
    results = False  # it holds tool results alone so far
    tag: Any = None  # the source's index of the open turn
    for j in range(n, len(msgs)):
        m = msgs[j]
        path = f"messages[{j}]"
        if m.name is not None:
            ctx.loss(
                path + ".name",
                f"message name {brief(m.name)} dropped",
                f"{ctx.target} messages have no name",
                "roles",
            )
        t = m.hints.get("turn") if ctx.same and m.hints else None
        tool = m.role == "tool"
        same_turn = t == tag if t is not None else results
        turn = cur if same_turn and (tool or m.role == "user") else None  # the turn m joins
        if turn is not None or tool:  # a list of parts, never a string
            content = encode_parts(m.parts, None, path + ".content", ctx)
        else:
            content = text_content(m, encode_parts, TEXT_BLOCK_KEYS, path + ".content", ctx)
        if turn is not None:
            turn.setdefault("content", []).extend(content)
            results = results and tool
        else:
            turn = {"role": ROLE_ENCODE[m.role], "content": content}
            turns.append(turn)
            cur = turn if tool or m.role == "user" else None
            results, tag = tool, t
        if m.ext:
            drop_ext(m.ext, turn, path, ctx)
    first = msgs[0] if n else None
    # one source string stays a string (with no other system message)
    if n == 1 and first and first.hints and first.hints.get("string") and len(first.parts) == 1:
        out["system"] = first.parts[0].text  # type: ignore[union-attr]
    elif system:
        out["system"] = system
    out["messages"] = turns


# ---------------------------------------------------------------- finish rule
# (finish_reasons, enum_defaults, finish_rule): one rule for responses and streams
FINISH_DECODE: dict[str, str] = {
    "end_turn": "stop",
    "max_tokens": "length",
    "stop_sequence": "stop_sequence",
    "tool_use": "tool_calls",
    "refusal": "refusal",
    "pause_turn": "pause",
    "model_context_window_exceeded": "length",
}  # raw -> canonical reason
# canonical reason -> (wire value, lossy: it does not read back as the same reason)
_FINISH_OUT: dict[str, tuple[str, bool]] = {
    "stop": ("end_turn", False),
    "length": ("max_tokens", False),
    "tool_calls": ("tool_use", False),
    "content_filter": ("refusal", True),
    "stop_sequence": ("stop_sequence", False),
    "refusal": ("refusal", False),
    "pause": ("pause_turn", False),
    "error": ("end_turn", True),
    "other": ("end_turn", True),
}


def decode_finish(raw: Any, has_calls: bool = False, path: str = "finish") -> Finish:
    """A wire finish value -> Finish{unified, raw}; an unknown one is "other"; a value that is
    no reason is refused (InvalidInput at ``path``), in responses and streams alike."""
    if type(raw) is not str:
        raw = expect_str(raw, path)
    return Finish(unified=FINISH_DECODE.get(raw, "other"), raw=raw)


def encode_finish(
    f: Finish | None, has_calls: bool = False, same: bool = False
) -> tuple[str, bool]:
    """Finish -> (wire value, lossy). No finish says how the output ended; a raw value that
    means the same here is kept (``same``: from this protocol, an unknown one too); otherwise
    the reason's row, else "end_turn"."""
    if f is None:
        return ("tool_use", False) if has_calls else ("end_turn", False)
    if f.raw is not None:
        back = FINISH_DECODE.get(f.raw)
        if back == f.unified or (same and back is None and f.unified == "other"):
            return f.raw, False
    return _FINISH_OUT.get(f.unified, ("end_turn", True))


def read_finish(holder: dict[str, Any], has_calls: bool = False) -> Finish | None:
    """The finish at stop_reason (response_envelope)."""
    raw = holder.get("stop_reason")
    if raw is None:
        return None
    return decode_finish(raw, has_calls, "stop_reason")


def write_finish(
    f: Finish | None, holder: dict[str, Any], ctx: Ctx, has_calls: bool = False
) -> None:
    """``f`` at stop_reason (no finish: null); a
    value the target cannot say is reported."""
    if f is None:
        holder["stop_reason"] = None
        return
    raw = finish_wire(encode_finish, f, has_calls, ctx, "stop_reason")
    holder["stop_reason"] = raw


# ---------------------------------------------------------------- response envelope
# top-level keys the envelope row names; the keys always written (one left out is a hint)
RESPONSE_KNOWN = frozenset(
    {"content", "id", "model", "role", "stop_reason", "stop_sequence", "type", "usage"}
)
_ALWAYS = (
    "id",
    "type",
    "role",
    "model",
    "content",
    "stop_reason",
    "stop_sequence",
    "usage",
)


def decode_response_envelope(w: dict[str, Any], resp: Response, ctx: Ctx) -> None:
    """The parts at content and the finish beside them, the usage (absent or null: None) and
    the keys an encoder always writes that the source left out (a hint)."""
    v = w.get("content")
    if v is None:
        raise InvalidInput("missing required field", path="content")
    resp.parts = decode_parts(v, "content", ctx)
    resp.finish = read_finish(w)
    u = w.get("usage")
    resp.usage = decode_usage(u, "usage") if u is not None else None
    absent = [k for k in _ALWAYS if k not in w]
    if absent:
        resp.hints = {**(resp.hints or {}), "absent": absent}


def encode_response_envelope(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:
    """The parts at content and the finish beside them; the usage (a response from another
    protocol always has one: zero counts; back to this protocol the source's own object, under
    the counts if they changed) and, back to
    this protocol, the keys the source left out left out again."""
    out["content"] = parts = encode_parts(resp.parts, None, "content", ctx)
    if not ctx.same:  # keys another protocol's parts lack (part_defaults)
        for b in parts:
            if b.get("type") == "thinking":
                b.setdefault("signature", "")
    write_finish(resp.finish, out, ctx)
    u = resp.usage
    if u is not None:
        out["usage"] = wire = encode_usage(u)
        ctx.losses += usage_losses(u, ctx.target, "usage")
        if ctx.same and u.raw is not None:
            same = decode_usage(u.raw, "usage") == u  # unchanged since decoding
            out["usage"] = u.raw if same else deep_merge(u.raw, wire)
    elif not ctx.same:
        out["usage"] = encode_usage(Usage())
    if ctx.same and resp.hints:
        for k in resp.hints.get("absent", ()):
            out.pop(k, None)


RESPONSE_ID: str | None = "msg_interlingua"  # the default id (response_envelope.defaults)


# ---------------------------------------------------------------- pipeline (transforms)
_CODEC = sys.modules[__name__]  # the transforms read this codec's rows
# every top-level key the rows and the transforms read (the rest rides in ext)
REQUEST_KEYS: frozenset[str] = REQUEST_ROW_KEYS.union(
    TOOL_CHOICE_KEYS,
)
RESPONSE_KEYS: frozenset[str] = RESPONSE_ROW_KEYS.union(
    RESPONSE_KNOWN,
)


def decode_request(w: dict[str, Any], ctx: Ctx) -> Request:
    """A request body -> canonical: the rows, then the transforms, in row order."""
    req = Request(source=PROTOCOL)
    decode_request_fields(w, req, ctx)
    decode_turns(w, req, ctx)
    decode_tools(w, req, ctx)
    decode_reasoning_config(w, req, ctx)
    decode_response_format(w, req, ctx)
    ext = split_ext(w, REQUEST_KEYS, REQUEST_NESTED)
    if ext:
        req.ext = {**req.ext, **ext} if req.ext else ext
    unwrap_request(req)  # state a client echoed in an envelope (transforms/envelopes)
    return req


def encode_request(req: Request, ctx: Ctx) -> dict[str, Any]:
    """Canonical -> a request body of this protocol."""
    if req.max_tokens is None:  # the documented default, plus room for the thinking budget
        req = copy(req)  # never the caller's request
        req.max_tokens = 4096 + (thinking_budget(req.reasoning) or 0)
        ctx.loss(
            "max_tokens",
            f"no output limit given; sent the default {req.max_tokens}",
            "anthropic_messages requires one",
            "max_tokens",
        )
    out: dict[str, Any] = {}
    encode_request_fields(req, out, ctx)
    if req.model is not None:
        out["model"] = req.model
    encode_turns(req, out, ctx)
    encode_tools(req, out, ctx)
    encode_reasoning_config(req, out, ctx)
    encode_response_format(req, out, ctx)
    if req.ext:
        drop_ext(req.ext, out, "", ctx)
    return out


def decode_response(w: dict[str, Any], ctx: Ctx) -> Response:
    """A response body -> canonical: the rows, the transforms, then the envelope."""
    resp = Response(source=PROTOCOL)
    decode_response_fields(w, resp, ctx)
    decode_response_envelope(w, resp, ctx)
    ext = split_ext(w, RESPONSE_KEYS)
    if ext:
        resp.ext = {**resp.ext, **ext} if resp.ext else ext
    return resp


def encode_response(resp: Response, ctx: Ctx) -> dict[str, Any]:
    """Canonical -> a response body of this protocol, in its envelope row's key order."""
    parts = fold_for_client(resp.parts, _CODEC, ctx)  # reasoning shown, state enveloped
    if parts is not resp.parts:
        resp = replace(resp, parts=parts)
    out = response_defaults()
    encode_response_fields(resp, out, ctx)
    encode_response_envelope(resp, out, ctx)
    if resp.ext:
        drop_ext(resp.ext, out, "", ctx)
    return out


__all__ = [
    "PROTOCOL",
    "FLAGS",
    "HTTP",
    "TRANSFORMS",
    "SUPPORT",
    "decode_part",
    "encode_part",
    "decode_parts",
    "encode_parts",
    "decode_tool",
    "encode_tool",
    "decode_request_fields",
    "encode_request_fields",
    "decode_response_fields",
    "encode_response_fields",
    "decode_usage",
    "encode_usage",
    "split_ext",
    "decode_request",
    "encode_request",
    "decode_response",
    "encode_response",
    "decode_tool_choice",
    "encode_tool_choice",
    "decode_text",
    "encode_text",
    "decode_image",
    "encode_image",
    "decode_file",
    "encode_file",
    "decode_refusal",
    "encode_refusal",
    "decode_tool_call",
    "encode_tool_call",
    "decode_tool_result",
    "encode_tool_result",
    "decode_reasoning",
    "encode_reasoning",
]
