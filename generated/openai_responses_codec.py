# Generated from spec/protocols/openai_responses.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""OpenAI Responses codec: rows of spec/protocols/openai_responses.yaml as straight-line code."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

from interlingua._codec_support import (
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
    format_data_url,
    parse_data_url,
)
from interlingua.transforms._paths import obj_at, put
from interlingua.transforms.envelopes import fold_for_client, unwrap_request
from interlingua.transforms.reasoning import (
    DEFAULT_EFFORT,
    effort_for_budget,
    lost,
    thinking_off,
)
from interlingua.transforms.responses_input import RESPONSES_ITEMS
from interlingua.transforms.responses_message import hold, item_texts, unext
from interlingua.transforms.responses_output import RESPONSES_OUTPUT
from interlingua.transforms.structured import (
    add_hints,
    format_dropped,
    keep_keys,
    kept_keys,
)
from interlingua.transforms.tools import hosted_entry, tool_of

from .canonical import (
    FilePart,
    Finish,
    ImagePart,
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

PROTOCOL = "openai_responses"
DIALECT: str | None = None  # the spec/dialects overlay merged in, if any
FLAGS = ProtocolFlags(
    system_placement="instructions",
    system_messages_in_turns=True,
    tool_results="items",
    tool_calls="items",
    parallel_flag="parallel_tool_calls",
    max_tokens_required=False,
    max_tokens_default=None,
    usage_input_includes_cache=True,
    sse_event_names=True,
    stream_usage_opt_in=None,
    usage_output_includes_reasoning=True,
    turns=Turns(
        role_default=None,
        results_order="in_place",
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
        "/v1/responses",
        "/responses",
    ),
    url_actions={},
    upstream_path="/responses",
    upstream_stream_path=None,
    model_prefix="",
    auth=HttpAuth(header="authorization", scheme="Bearer", query=None),
    extra_headers={},
    forward_headers=(),
    count_tokens=CountTokens(
        mode="native",
        inbound_paths=(
            "/v1/responses/input_tokens",
            "/responses/input_tokens",
        ),
        upstream_path="/responses/input_tokens",
        fields=frozenset(
            (
                "conversation",
                "input",
                "instructions",
                "model",
                "parallel_tool_calls",
                "previous_response_id",
                "reasoning",
                "text",
                "tool_choice",
                "tools",
                "truncation",
            )
        ),
        result_field="input_tokens",
        envelope={"object": "response.input_tokens"},
        wrap=None,
        wrap_model=None,
    ),
    models=ModelListing(
        paths=(
            "/v1/models",
            "/models",
        ),
        items_key="data",
        item={"id": "{id}", "object": "model", "created": 0, "owned_by": "interlingua"},
        envelope={"object": "list"},
        upstream_path="/models",
        upstream_query={},
    ),
    token_estimate=TokenEstimate(
        chars_per_token=4.0,
        image=ImageTokens(
            rule="tiles",
            divisor=750.0,
            max_edge=None,
            max_pixels=None,
            tile=512,
            per_tile=170,
            base=85,
            fit=2048,
            short_side=768,
            small=None,
            small_tokens=None,
            low_detail=85,
            unknown=765,
        ),
        document_page=1000,
        media=1000,
    ),
    otel_provider="openai",
    request_id_header="x-request-id",
    model_in_path=False,
)
TRANSFORMS: tuple[str, ...] = (
    "responses_items",
    "tools",
    "response_format",
    "reasoning",
    "responses_output",
)
# a bare text part's keys (its parts row): a block of these alone goes back as a string
TEXT_BLOCK_KEYS: frozenset[str] = frozenset({"text", "type"})
SUPPORT: dict[str, tuple[str, str]] = {
    "system": ("full", "instructions, or system/developer message items"),
    "system_position": ("full", ""),
    "roles": ("full", ""),
    "text": ("lossy", "output_text annotations only in Responses form"),
    "image": ("full", "input_image: data URLs, URLs and file ids"),
    "file": (
        "full",
        "input_file: file_data data URLs and file ids (file_url carried between Responses endpoints)",
    ),
    "audio": ("unsupported", ""),
    "tool_call": (
        "full",
        "function_call items; call_id is the canonical id, the item id is kept for replay",
    ),
    "tool_result": ("full", "function_call_output items"),
    "tool_result_error": ("unsupported", "no is_error on function_call_output"),
    "reasoning_text": (
        "lossy",
        "reasoning summary, for any protocol\u0027s reasoning in responses and streams; reasoning text without encrypted state cannot be replayed in requests",
    ),
    "reasoning_replay": (
        "lossy",
        "reasoning items (id + encrypted_content) replay only to Responses; other owners\u0027 state is dropped toward a Responses upstream; Anthropic thinking reaches a Responses client in an ilgenv1 encrypted_content envelope, unwrapped back to Anthropic on the next request",
    ),
    "tool_spec": ("full", ""),
    "hosted_tools": (
        "lossy",
        "web_search, namespaces, custom and other non-function tools carried only between Responses endpoints",
    ),
    "tool_choice": (
        "lossy",
        "allowed_tools and hosted tool choices carried only between Responses endpoints; no validated mode",
    ),
    "parallel_tool_calls": ("full", ""),
    "max_tokens": ("full", "max_output_tokens"),
    "sampling": ("lossy", "no stop sequences"),
    "top_k": ("unsupported", ""),
    "seed": ("unsupported", ""),
    "penalties": ("unsupported", ""),
    "user": ("full", ""),
    "reasoning_config": (
        "lossy",
        "reasoning.effort and summary; budgets become the nearest effort",
    ),
    "structured_output": ("full", "text.format"),
    "caching": ("lossy", "prompt_cache_key only; cache_control breakpoints are dropped"),
    "usage": ("full", "input_tokens includes cached_tokens"),
    "finish_reason": (
        "lossy",
        "status + incomplete_details: stop_sequence / pause become completed",
    ),
    "errors": ("full", ""),
    "stream_text": ("full", ""),
    "stream_reasoning": ("full", "reasoning summary deltas; encrypted_content on output_item.done"),
    "stream_tool_calls": ("full", ""),
    "stream_usage": ("full", "usage in response.completed"),
    "stream_error": ("full", "error event or response.failed"),
    "extensions": ("lossy", "fields with no canonical home go back only to this protocol"),
    "native_parts": (
        "lossy",
        "hosted-tool items (web_search_call, compaction, mcp ...) carried only between Responses endpoints",
    ),
}

# ---------------------------------------------------------------- enum tables (unified <-> raw)
# (an enum_defaults value is written into the compiled rule that falls back on it)
TOOL_CHOICE_DECODE: dict[str, str] = {
    "auto": "auto",
    "none": "none",
    "required": "required",
    "function": "tool",
}
TOOL_CHOICE_ENCODE: dict[str, str] = {
    "auto": "auto",
    "none": "none",
    "required": "required",
    "tool": "function",
}
ROLE_DECODE: dict[str, str] = {
    "system": "system",
    "developer": "developer",
    "user": "user",
    "assistant": "assistant",
}
ROLE_ENCODE: dict[str, str] = {
    "system": "system",
    "developer": "developer",
    "user": "user",
    "assistant": "assistant",
}
ERROR_DECODE: dict[str, str] = {
    "invalid_request_error": "invalid_request",
    "authentication_error": "authentication",
    "invalid_api_key": "authentication",
    "permission_error": "permission",
    "not_found_error": "not_found",
    "request_too_large": "request_too_large",
    "rate_limit_error": "rate_limit",
    "insufficient_quota": "rate_limit",
    "server_error": "api_error",
    "api_error": "api_error",
    "timeout": "timeout",
}
ERROR_ENCODE: dict[str, str] = {
    "invalid_request": "invalid_request_error",
    "authentication": "authentication_error",
    "permission": "permission_error",
    "not_found": "not_found_error",
    "request_too_large": "request_too_large",
    "rate_limit": "rate_limit_error",
    "api_error": "server_error",
    "overloaded": "server_error",
    "timeout": "timeout",
    "bad_gateway": "server_error",
}
ERROR_STATUS: dict[str, int] = {
    "invalid_request": 400,
    "authentication": 401,
    "permission": 403,
    "not_found": 404,
    "request_too_large": 413,
    "rate_limit": 429,
    "api_error": 500,
    "overloaded": 503,
    "timeout": 504,
    "bad_gateway": 502,
}


def response_defaults() -> dict[str, Any]:
    """response_envelope.defaults, a fresh copy each call (runtime/transforms/response_envelope)."""
    return {
        "id": "resp_interlingua",
        "object": "response",
        "created_at": 0,
        "status": "in_progress",
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "model": "unknown",
        "output": [],
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "reasoning": {"effort": None, "summary": None},
        "store": False,
        "temperature": None,
        "text": {"format": {"type": "text"}},
        "tool_choice": "auto",
        "tools": [],
        "top_p": None,
        "truncation": "disabled",
        "usage": None,
        "user": None,
        "metadata": {},
    }


# owner -> how its opaque reasoning state reaches this protocol's clients (transforms/envelopes)
CARRIER: dict[str | None, str] = {
    "anthropic_messages": "signature",
    "gemini": "ids",
    "openai_responses": "own",
}
# wire item id prefixes by kind (stream.encode.ids), for responses and streams alike
# (responses_item_list.ItemIds)
ITEM_ID_PREFIXES: dict[str, str] = {"text": "msg_", "reasoning": "rs_", "tool_call": "fc_"}
# a call sent without an id gets ilg_<random> (stream.missing_call_id: random), in a response
# (the parts walk's CallIds, part_walk.call_ids) as in a stream; else a numbered one
RANDOM_CALL_IDS = False


# the reason a loss of each feature the encoders report gives (spec: support), one constant per
# feature: a dialect whose support rows leave it as it is shares it and the code that uses it
_WHY_AUDIO = "openai_responses unsupported"
_WHY_CACHING = (
    "openai_responses lossy: prompt_cache_key only; cache_control breakpoints are dropped"
)
_WHY_FILE = "openai_responses full: input_file: file_data data URLs and file ids (file_url carried between Responses endpoints)"
_WHY_FINISH_REASON = (
    "openai_responses lossy: status + incomplete_details: stop_sequence / pause become completed"
)
_WHY_PENALTIES = "openai_responses unsupported"
_WHY_REASONING_REPLAY = "openai_responses lossy: reasoning items (id + encrypted_content) replay only to Responses; other owners' state is dropped toward a Responses upstream; Anthropic thinking reaches a Responses client in an ilgenv1 encrypted_content envelope, unwrapped back to Anthropic on the next request"
_WHY_SAMPLING = "openai_responses lossy: no stop sequences"
_WHY_SEED = "openai_responses unsupported"
_WHY_TEXT = "openai_responses lossy: output_text annotations only in Responses form"
_WHY_TOOL_RESULT_ERROR = "openai_responses unsupported: no is_error on function_call_output"
_WHY_TOP_K = "openai_responses unsupported"
_WHY_PART: dict[str, str] = {  # by feature, for the part types with no encoder
    "audio": _WHY_AUDIO,
}


# ---------------------------------------------------------------- tool_choice (tool_choice_rule)
# top-level request keys the rule reads: the choice, a top-level parallel switch, a strict switch
TOOL_CHOICE_KEYS: frozenset[str] = frozenset({"parallel_tool_calls", "tool_choice"})


def decode_tool_choice(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    if w.get("parallel_tool_calls") is not None:
        req.parallel_tool_calls = expect_bool(w["parallel_tool_calls"], "parallel_tool_calls")
    choice = w.get("tool_choice")
    if choice is None:
        return  # absent: the protocol's default (auto), as canonical None says
    if type(choice) is str:
        mode = TOOL_CHOICE_DECODE.get(choice)
        if mode is None:
            raise InvalidInput(
                f"unknown tool_choice {brief(choice)} (expected one of auto, function, none, required)",
                path="tool_choice",
            )
        req.tool_choice = ToolChoice(mode=mode)
        return
    choice = expect_dict(choice, "tool_choice")
    if choice.get("type") != "function":
        # another object (allowed_tools, a hosted tool): kept whole, its `mode` elsewhere
        named = choice.get("mode")
        mode = TOOL_CHOICE_DECODE.get(named, "auto") if type(named) is str else "auto"
        req.tool_choice = ToolChoice(mode=mode)
        req.hints = {**(req.hints or {}), "tool_choice_object": choice}
        if not ctx.same:
            ctx.loss(
                "tool_choice",
                f"tool_choice {brief(choice.get('type'))} sent as {mode!r}",
                f"{ctx.target} has no such tool choice",
                "tool_choice",
            )
        return
    name = expect_str(choice.get("name"), "tool_choice.name")
    req.tool_choice = ToolChoice(mode="tool", name=name)


def encode_tool_choice(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    hints = (req.hints or {}) if ctx.same else {}
    tc = req.tool_choice
    if req.parallel_tool_calls is not None:
        out["parallel_tool_calls"] = req.parallel_tool_calls
    if tc is None:
        return
    mode = tc.mode
    if hints.get("tool_choice_object") is not None:
        out["tool_choice"] = hints["tool_choice_object"]
        return
    wire = TOOL_CHOICE_ENCODE[mode]
    if mode != "tool":
        out["tool_choice"] = wire
        return
    obj: dict[str, Any] = {"type": wire}
    if tc.name is not None:
        obj["name"] = tc.name
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
            req.tools.append(
                tool_of(t, None if kind == "function" else kind, path, decode_tool, ctx)
            )
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

_KNOWN_TEXT_0 = frozenset({"text", "type"})
_NESTED_TEXT_0: dict[str, frozenset[str]] = {}


def _dec_text_0(w: dict[str, Any], path: str, ctx: Ctx) -> TextPart:
    v_text = w.get("text")
    if v_text is None:
        raise InvalidInput("missing required field", path=path + ".text")
    if type(v_text) is not str:
        v_text = expect_str(v_text, path + ".text")
    return new_TextPart(
        text=v_text,
        ext=None if _KNOWN_TEXT_0.issuperset(w) else split_ext(w, _KNOWN_TEXT_0),
    )


def _enc_text_0(p: TextPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "input_text"}

    out["text"] = p.text
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.annotations is not None:
        ctx.loss(path + ".annotations", "annotations dropped", _WHY_TEXT, "text")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


_KNOWN_TEXT_1 = frozenset({"text", "type"})
_NESTED_TEXT_1: dict[str, frozenset[str]] = {}


def _dec_text_1(w: dict[str, Any], path: str, ctx: Ctx) -> TextPart:
    v_text = w.get("text")
    if v_text is None:
        raise InvalidInput("missing required field", path=path + ".text")
    if type(v_text) is not str:
        v_text = expect_str(v_text, path + ".text")
    return new_TextPart(
        text=v_text,
        ext=None if _KNOWN_TEXT_1.issuperset(w) else split_ext(w, _KNOWN_TEXT_1),
    )


def _enc_text_1(p: TextPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "output_text"}

    out["text"] = p.text
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.annotations is not None:
        ctx.loss(path + ".annotations", "annotations dropped", _WHY_TEXT, "text")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


def decode_text(w: dict[str, Any], path: str, ctx: Ctx) -> TextPart:
    if w.get("type") == "input_text":
        return _dec_text_0(w, path, ctx)
    return _dec_text_1(w, path, ctx)


encode_text = _enc_text_0  # the only row: no dispatch call


_KNOWN_IMAGE_2 = frozenset({"detail", "file_id", "image_url", "type"})
_NESTED_IMAGE_2: dict[str, frozenset[str]] = {}


def _dec_image_2(w: dict[str, Any], path: str, ctx: Ctx) -> ImagePart:
    v_url = w.get("image_url")
    if v_url is not None and type(v_url) is not str:
        v_url = expect_str(v_url, path + ".image_url")
    v_file_id = w.get("file_id")
    if v_file_id is not None and type(v_file_id) is not str:
        v_file_id = expect_str(v_file_id, path + ".file_id")
    v_detail = w.get("detail")
    if v_detail is not None and type(v_detail) is not str:
        v_detail = expect_str(v_detail, path + ".detail")
    v_media_type, v_data = parse_data_url(v_url) if v_url is not None else (None, None)
    if v_data is not None:
        v_url = None
    return new_ImagePart(
        url=v_url,
        media_type=v_media_type,
        data=v_data,
        file_id=v_file_id,
        detail=v_detail,
        ext=None if _KNOWN_IMAGE_2.issuperset(w) else split_ext(w, _KNOWN_IMAGE_2),
    )


def _enc_image_2(p: ImagePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "input_image"}

    if p.data is not None:
        out["image_url"] = format_data_url(p.media_type, p.data)
    elif p.url is not None:
        out["image_url"] = p.url

    if p.file_id is not None:
        out["file_id"] = p.file_id

    if p.detail is not None:
        out["detail"] = p.detail
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_image = _dec_image_2  # the only row: no dispatch call
encode_image = _enc_image_2  # the only row: no dispatch call


_KNOWN_FILE_3 = frozenset({"file_data", "file_id", "filename", "type"})
_NESTED_FILE_3: dict[str, frozenset[str]] = {}


def _dec_file_3(w: dict[str, Any], path: str, ctx: Ctx) -> FilePart:
    v_url = w.get("file_data")
    if v_url is not None and type(v_url) is not str:
        v_url = expect_str(v_url, path + ".file_data")
    v_file_id = w.get("file_id")
    if v_file_id is not None and type(v_file_id) is not str:
        v_file_id = expect_str(v_file_id, path + ".file_id")
    v_filename = w.get("filename")
    if v_filename is not None and type(v_filename) is not str:
        v_filename = expect_str(v_filename, path + ".filename")
    v_media_type, v_data = parse_data_url(v_url) if v_url is not None else (None, None)
    if v_data is not None:
        v_url = None
    return new_FilePart(
        url=v_url,
        media_type=v_media_type,
        data=v_data,
        file_id=v_file_id,
        filename=v_filename,
        ext=None if _KNOWN_FILE_3.issuperset(w) else split_ext(w, _KNOWN_FILE_3),
    )


def _enc_file_3(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "input_file"}

    if p.data is not None:
        out["file_data"] = format_data_url(p.media_type, p.data)
    elif p.url is not None:
        out["file_data"] = p.url

    if p.file_id is not None:
        out["file_id"] = p.file_id

    if p.filename is not None:
        out["filename"] = p.filename
    if p.text is not None:
        ctx.loss(path + ".text", "text dropped", _WHY_FILE, "file")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_file = _dec_file_3  # the only row: no dispatch call
encode_file = _enc_file_3  # the only row: no dispatch call


_KNOWN_REFUSAL_4 = frozenset({"refusal", "type"})
_NESTED_REFUSAL_4: dict[str, frozenset[str]] = {}


def _dec_refusal_4(w: dict[str, Any], path: str, ctx: Ctx) -> RefusalPart:
    v_text = w.get("refusal")
    if v_text is None:
        raise InvalidInput("missing required field", path=path + ".refusal")
    if type(v_text) is not str:
        v_text = expect_str(v_text, path + ".refusal")
    return new_RefusalPart(
        text=v_text,
        ext=None if _KNOWN_REFUSAL_4.issuperset(w) else split_ext(w, _KNOWN_REFUSAL_4),
    )


def _enc_refusal_4(p: RefusalPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "refusal"}

    out["refusal"] = p.text
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_refusal = _dec_refusal_4  # the only row: no dispatch call
encode_refusal = _enc_refusal_4  # the only row: no dispatch call


_KNOWN_TOOL_CALL_5 = frozenset({"arguments", "call_id", "name", "type"})
_NESTED_TOOL_CALL_5: dict[str, frozenset[str]] = {}


def _shape_tool_call_5(w: dict[str, Any]) -> dict[str, Any] | None:
    """Which of the paths the encoder always writes came absent or null."""
    hints: dict[str, list[str]] = {}
    if "type" not in w:
        hints.setdefault("absent", []).append("type")
    elif w["type"] is None:
        hints.setdefault("null", []).append("type")
    if "arguments" not in w:
        hints.setdefault("absent", []).append("arguments")
    elif w["arguments"] is None:
        hints.setdefault("null", []).append("arguments")
    return hints or None


def _dec_tool_call_5(w: dict[str, Any], path: str, ctx: Ctx) -> ToolCallPart:
    v_id = w.get("call_id")
    if v_id is None:
        raise InvalidInput("missing required field", path=path + ".call_id")
    if type(v_id) is not str:
        v_id = expect_str(v_id, path + ".call_id")
    v_name = w.get("name")
    if v_name is None:
        raise InvalidInput("missing required field", path=path + ".name")
    if type(v_name) is not str:
        v_name = expect_str(v_name, path + ".name")
    v_arguments = w.get("arguments")
    if v_arguments is None:
        v_arguments = ""  # a call with no arguments
    if type(v_arguments) is not str:
        v_arguments = expect_str(v_arguments, path + ".arguments")
    return new_ToolCallPart(
        id=v_id,
        name=v_name,
        arguments=v_arguments,
        ext=None if _KNOWN_TOOL_CALL_5.issuperset(w) else split_ext(w, _KNOWN_TOOL_CALL_5),
        hints=_shape_tool_call_5(w)
        if w.get("type") is None or w.get("arguments") is None
        else None,
    )


def _enc_tool_call_5(p: ToolCallPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "function_call"}

    out["call_id"] = p.id

    out["name"] = p.name

    out["arguments"] = p.arguments
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    if ctx.same and p.hints:  # back to this protocol as they came
        absent, null = p.hints.get("absent", ()), p.hints.get("null", ())
        if "type" in absent:
            out.pop("type", None)
        elif "type" in null:
            out["type"] = None
        if "arguments" in absent:
            out.pop("arguments", None)
        elif "arguments" in null:
            out["arguments"] = None
    return out


decode_tool_call = _dec_tool_call_5  # the only row: no dispatch call
encode_tool_call = _enc_tool_call_5  # the only row: no dispatch call


_KNOWN_TOOL_RESULT_6 = frozenset({"call_id", "output", "type"})
_NESTED_TOOL_RESULT_6: dict[str, frozenset[str]] = {}


def _dec_tool_result_6(w: dict[str, Any], path: str, ctx: Ctx) -> ToolResultPart:
    v_call_id = w.get("call_id")
    if v_call_id is None:
        raise InvalidInput("missing required field", path=path + ".call_id")
    if type(v_call_id) is not str:
        v_call_id = expect_str(v_call_id, path + ".call_id")
    v_content = w.get("output")
    s_content = type(v_content) is str
    if v_content is not None:
        v_content = decode_parts(v_content, path + ".output", ctx)
    return ToolResultPart(
        call_id=v_call_id,
        content=v_content,
        hints={"string": True} if s_content else None,
        ext=None if _KNOWN_TOOL_RESULT_6.issuperset(w) else split_ext(w, _KNOWN_TOOL_RESULT_6),
    )


def _enc_tool_result_6(p: ToolResultPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "function_call_output"}

    out["call_id"] = p.call_id

    if p.content is not None:
        out["output"] = encode_parts(p.content, p.hints, path + ".content", ctx)
    if p.is_error:
        ctx.loss(
            path + ".is_error", "is_error dropped", _WHY_TOOL_RESULT_ERROR, "tool_result_error"
        )
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_tool_result = _dec_tool_result_6  # the only row: no dispatch call
encode_tool_result = _enc_tool_result_6  # the only row: no dispatch call


_KNOWN_REASONING_7 = frozenset({"encrypted_content", "id", "type"})
_NESTED_REASONING_7: dict[str, frozenset[str]] = {}


def _dec_reasoning_7(w: dict[str, Any], path: str, ctx: Ctx) -> ReasoningPart:
    v_id = w.get("id")
    if v_id is not None and type(v_id) is not str:
        v_id = expect_str(v_id, path + ".id")
    v_signature = w.get("encrypted_content")
    if v_signature is not None and type(v_signature) is not str:
        v_signature = expect_str(v_signature, path + ".encrypted_content")
    return new_ReasoningPart(
        id=v_id,
        signature=v_signature,
        owner=PROTOCOL,
        ext=None if _KNOWN_REASONING_7.issuperset(w) else split_ext(w, _KNOWN_REASONING_7),
    )


def _enc_reasoning_7(p: ReasoningPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "reasoning"}

    if p.id is not None:
        out["id"] = p.id

    if p.signature is not None:
        out["encrypted_content"] = p.signature
    if p.redacted is not None:
        ctx.loss(path + ".redacted", "redacted dropped", _WHY_REASONING_REPLAY, "reasoning_replay")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_reasoning = _dec_reasoning_7  # the only row: no dispatch call


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
    return _enc_reasoning_7(p, path, ctx)


_PART_DECODERS: dict[str, Any] = {
    "input_text": decode_text,
    "output_text": decode_text,
    "input_image": decode_image,
    "input_file": decode_file,
    "refusal": decode_refusal,
    "function_call": decode_tool_call,
    "function_call_output": decode_tool_result,
    "reasoning": decode_reasoning,
}
NATIVE_PARTS: frozenset[str] = frozenset([])
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
_KNOWN_TOOL = frozenset({"description", "name", "parameters", "strict", "type"})
_NESTED_TOOL: dict[str, frozenset[str]] = {}


def decode_tool(w: Any, path: str, ctx: Ctx) -> Tool:
    if type(w) is not dict:
        w = expect_dict(w, path)
    v_kind = w.get("type")
    if v_kind is None:
        raise InvalidInput("missing required field", path=path + ".type")
    if type(v_kind) is not str:
        v_kind = expect_str(v_kind, path + ".type")
    v_name = w.get("name")
    if v_name is None:
        raise InvalidInput("missing required field", path=path + ".name")
    if type(v_name) is not str:
        v_name = expect_str(v_name, path + ".name")
    v_description = w.get("description")
    if v_description is not None and type(v_description) is not str:
        v_description = expect_str(v_description, path + ".description")
    v_parameters = w.get("parameters")
    if v_parameters is not None and type(v_parameters) is not dict:
        v_parameters = expect_dict(v_parameters, path + ".parameters")
    v_strict = w.get("strict")
    if v_strict is not None and type(v_strict) is not bool:
        v_strict = expect_bool(v_strict, path + ".strict")
    return new_Tool(
        kind=v_kind,
        name=v_name,
        description=v_description,
        parameters=v_parameters,
        strict=v_strict,
        ext=None if _KNOWN_TOOL.issuperset(w) else split_ext(w, _KNOWN_TOOL),
    )


def encode_tool(p: Tool, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    out["type"] = p.kind

    out["name"] = p.name

    if p.description is not None:
        out["description"] = p.description

    if p.parameters is not None:
        out["parameters"] = p.parameters

    if p.strict is not None:
        out["strict"] = p.strict
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


# ---------------------------------------------------------------- request and response fields
REQUEST_ROW_KEYS = frozenset(
    {
        "conversation",
        "max_output_tokens",
        "metadata",
        "model",
        "previous_response_id",
        "reasoning",
        "stream",
        "temperature",
        "text",
        "tools",
        "top_p",
        "user",
    }
)
REQUEST_NESTED: dict[str, frozenset[str]] = {}


def decode_request_fields(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    path = ""
    v_model = w.get("model")
    if v_model is not None and type(v_model) is not str:
        v_model = expect_str(v_model, path + ".model")
    req.model = v_model
    v_max_tokens = w.get("max_output_tokens")
    if v_max_tokens is not None and type(v_max_tokens) is not int:
        v_max_tokens = expect_int(v_max_tokens, path + ".max_output_tokens")
    req.max_tokens = v_max_tokens
    v_temperature = w.get("temperature")
    if v_temperature is not None:
        v_temperature = expect_number(v_temperature, path + ".temperature")
    req.temperature = v_temperature
    v_top_p = w.get("top_p")
    if v_top_p is not None:
        v_top_p = expect_number(v_top_p, path + ".top_p")
    req.top_p = v_top_p
    v_stream = w.get("stream")
    if v_stream is not None and type(v_stream) is not bool:
        v_stream = expect_bool(v_stream, path + ".stream")
    req.stream = v_stream
    v_user = w.get("user")
    if v_user is not None and type(v_user) is not str:
        v_user = expect_str(v_user, path + ".user")
    req.user = v_user
    v_metadata = w.get("metadata")
    if v_metadata is not None and type(v_metadata) is not dict:
        v_metadata = expect_dict(v_metadata, path + ".metadata")
    req.metadata = v_metadata


def encode_request_fields(req: Request, out: dict[str, Any], ctx: Ctx) -> None:

    if req.model is not None:
        out["model"] = req.model

    if req.max_tokens is not None:
        out["max_output_tokens"] = req.max_tokens

    if req.temperature is not None:
        out["temperature"] = req.temperature

    if req.top_p is not None:
        out["top_p"] = req.top_p

    if req.stream is not None:
        out["stream"] = req.stream

    if req.user is not None:
        out["user"] = req.user

    if req.metadata is not None:
        out["metadata"] = req.metadata
    if req.top_k is not None:
        ctx.loss("top_k", "top_k dropped", _WHY_TOP_K, "top_k")
    if req.stop is not None:
        ctx.loss("stop", "stop dropped", _WHY_SAMPLING, "sampling")
    if req.seed is not None:
        ctx.loss("seed", "seed dropped", _WHY_SEED, "seed")
    if req.presence_penalty is not None:
        ctx.loss("presence_penalty", "presence_penalty dropped", _WHY_PENALTIES, "penalties")
    if req.frequency_penalty is not None:
        ctx.loss("frequency_penalty", "frequency_penalty dropped", _WHY_PENALTIES, "penalties")


RESPONSE_ROW_KEYS = frozenset({"created_at", "id", "model"})


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
    v_created = w.get("created_at")
    if v_created is not None and type(v_created) is not int:
        v_created = expect_int(v_created, path + ".created_at")
    resp.created = v_created


def encode_response_fields(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:

    if resp.id is not None:
        out["id"] = resp.id

    if resp.model is not None:
        out["model"] = resp.model

    if resp.created is not None:
        out["created_at"] = resp.created
    if resp.stop_sequence is not None:
        ctx.loss("stop_sequence", "stop_sequence dropped", _WHY_FINISH_REASON, "finish_reason")


# ---------------------------------------------------------------- usage
def usage_losses(u: Usage, target: str, path: str) -> list[Loss]:
    """The counts of ``u`` this protocol's usage has no field for (still in the totals): one
    rule for responses (encode_response_envelope) and streams (the stream API)."""
    out: list[Loss] = []
    return out


def decode_usage(w: Any, path: str) -> Usage:
    if type(w) is not dict:
        w = expect_dict(w, path)
    v_input = w.get("input_tokens")
    if v_input is not None and type(v_input) is not int:
        v_input = expect_int(v_input, path + ".input_tokens")
    v_input_cache_read = w.get("input_tokens_details")
    if v_input_cache_read is not None:
        if type(v_input_cache_read) is not dict:
            v_input_cache_read = expect_dict(v_input_cache_read, path + ".input_tokens_details")
        v_input_cache_read = v_input_cache_read.get("cached_tokens")
    if v_input_cache_read is not None and type(v_input_cache_read) is not int:
        v_input_cache_read = expect_int(
            v_input_cache_read, path + ".input_tokens_details.cached_tokens"
        )
    v_input_cache_write = w.get("input_tokens_details")
    if v_input_cache_write is not None:
        if type(v_input_cache_write) is not dict:
            v_input_cache_write = expect_dict(v_input_cache_write, path + ".input_tokens_details")
        v_input_cache_write = v_input_cache_write.get("cache_write_tokens")
    if v_input_cache_write is not None and type(v_input_cache_write) is not int:
        v_input_cache_write = expect_int(
            v_input_cache_write, path + ".input_tokens_details.cache_write_tokens"
        )
    v_output_total = w.get("output_tokens")
    if v_output_total is not None and type(v_output_total) is not int:
        v_output_total = expect_int(v_output_total, path + ".output_tokens")
    v_output_reasoning = w.get("output_tokens_details")
    if v_output_reasoning is not None:
        if type(v_output_reasoning) is not dict:
            v_output_reasoning = expect_dict(v_output_reasoning, path + ".output_tokens_details")
        v_output_reasoning = v_output_reasoning.get("reasoning_tokens")
    if v_output_reasoning is not None and type(v_output_reasoning) is not int:
        v_output_reasoning = expect_int(
            v_output_reasoning, path + ".output_tokens_details.reasoning_tokens"
        )
    u = Usage(raw=w)
    u.input_total = v_input or 0
    u.input_cache_read = v_input_cache_read or 0
    u.input_cache_write = v_input_cache_write or 0
    u.output_total = v_output_total or 0
    u.output_reasoning = v_output_reasoning or 0
    return u


def encode_usage(u: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    out["input_tokens"] = u.input_total
    out.setdefault("input_tokens_details", {})["cached_tokens"] = u.input_cache_read
    out.setdefault("input_tokens_details", {})["cache_write_tokens"] = u.input_cache_write
    out["output_tokens"] = u.output_total
    out.setdefault("output_tokens_details", {})["reasoning_tokens"] = u.output_reasoning
    out["total_tokens"] = u.input_total + u.output_total
    return out


# ---------------------------------------------------------------- snake_case keys
def decode_snake_case(w: dict[str, Any], req: Request) -> dict[str, Any]:
    """The body with the keys the API also takes in snake_case in camelCase (snake_case_keys)."""
    return w


def encode_snake_case(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """Back to this protocol, the keys that came snake_case written so again."""


# ---------------------------------------------------------------- errors (spec: error_shape)
ERROR_RAW_DEFAULT = "server_error"  # the raw type of an error with no row
# the errors rows as error_type asks them (codegen/errors.py type_rule): a row of (raw type,
# status) the later steps would decide otherwise; a raw type whose type no status refines
ERROR_EXACT: dict[tuple[str, int], str] = {}
ERROR_FIRM: dict[str, str] = {
    "authentication_error": "authentication",
    "invalid_api_key": "authentication",
    "permission_error": "permission",
    "not_found_error": "not_found",
    "request_too_large": "request_too_large",
    "rate_limit_error": "rate_limit",
    "insufficient_quota": "rate_limit",
    "timeout": "timeout",
}
ERROR_RAW_STATUS: dict[str, int] = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "invalid_api_key": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "insufficient_quota": 429,
    "server_error": 500,
    "api_error": 500,
    "timeout": 504,
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
    503: "overloaded",
    504: "timeout",
    502: "bad_gateway",
    529: "overloaded",
}
# (status, type) of a row whose status is not the canonical one of the type -> the canonical one
ERROR_CANONICAL_STATUS: dict[tuple[int, str], int] = {(503, "overloaded"): 529}


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
        or ("api_error" if status >= 500 else "invalid_request")
    )
    status = ERROR_CANONICAL_STATUS.get((status, unified), status)
    return unified, status


def error_status(unified: str, status: int | None) -> int:
    """The HTTP status this protocol sends an error of type ``unified`` with, of canonical
    ``status`` (None: the type's row's); the canonical status of a type
    whose rows give it another becomes theirs."""
    if not status:
        return ERROR_STATUS.get(unified, 500)
    if status == 529 and unified == "overloaded":
        return 503
    return status


def read_error(e: Any, raw: Any = None) -> tuple[Any, Any, Any, Any, int | None]:
    """The error object ``e`` -> (raw type, message, code, param, the HTTP status it carries),
    where error_shape says; ``raw``: its raw type when it has none (a stream row's error_type).
    Never raises: runtime/_pipeline.error_info makes the ErrorInfo."""
    if type(e) is not dict:
        return raw, None, None, None, None
    return (
        t if (t := e.get("type")) is not None else raw,
        e.get("message"),
        e.get("code"),
        e.get("param"),
        None,
    )


def read_error_body(body: Any) -> tuple[Any, Any, Any, Any, int | None]:
    """An HTTP error body: ``read_error`` of its error object (error)."""
    e = body.get("error") if type(body) is dict else None
    return read_error(e)


def write_error(err: Any, raw: str, status: int, inband: bool = False) -> dict[str, Any]:
    """The error body of ``err`` (ErrorInfo; ``raw``: its raw type, ``status``: its HTTP status,
    ``inband``: the event of a stream's error)."""
    return {"error": {"type": raw, "message": err.message, "param": err.param, "code": err.code}}


# ---------------------------------------------------------------- request settings (response_format, reasoning)


_FORMAT_DECODE: dict[str, str] = {
    "text": "text",
    "json_object": "json_object",
    "json_schema": "json_schema",
}
_FORMAT_ENCODE: dict[str, str] = {
    "text": "text",
    "json_object": "json_object",
    "json_schema": "json_schema",
}
_FORMAT_KEEP0 = frozenset({"format"})
_FORMAT_KEEP1 = frozenset({"description", "name", "schema", "strict", "type"})


def decode_response_format(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """response_format rows: the wire format -> req.response_format."""
    if "text" not in w:
        return
    raw = dig(w, ("text", "format", "type"))
    schema = dig(w, ("text", "format", "schema"))
    hints: dict[str, Any] = {}
    if (obj := w.get("text")) is not None:
        rest = kept_keys(expect_dict(obj, "text"), _FORMAT_KEEP0)
        hints["rest text"] = rest
        if not ctx.same:
            keys_lost(rest, "text", ctx, "structured_output")
    if (obj := dig(w, ("text", "format"))) is not None:
        rest = kept_keys(expect_dict(obj, "text.format"), _FORMAT_KEEP1)
        hints["rest text.format"] = rest
        if not ctx.same:
            keys_lost(rest, "text.format", ctx, "structured_output")
    if raw is None and schema is None and dig(w, ("text", "format")) is None:
        add_hints(req, hints)
        return  # no format (a present object without its type is refused below)
    ftype = _FORMAT_DECODE.get(expect_str(raw, "text.format.type")) if raw is not None else None
    if ftype is None:
        raise InvalidInput(f"unknown format type {brief(raw)}", path="text.format.type")
    rf = ResponseFormat(type="json_schema" if schema is not None else ftype)
    if rf.type == "json_schema":
        rf.name = (
            expect_str(v, "text.format.name")
            if (v := dig(w, ("text", "format", "name"))) is not None
            else None
        )
        rf.description = (
            expect_str(v, "text.format.description")
            if (v := dig(w, ("text", "format", "description"))) is not None
            else None
        )
        rf.schema = expect_dict(schema, "text.format.schema") if schema is not None else None
        rf.strict = (
            expect_bool(v, "text.format.strict")
            if (v := dig(w, ("text", "format", "strict"))) is not None
            else None
        )
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
    if (rest := hints.get("rest text")) is not None:
        keep_keys(obj_at(out, ("text",)), rest)
    if (rest := hints.get("rest text.format")) is not None:
        keep_keys(obj_at(out, ("text", "format")), rest)


def _format_out(rf: ResponseFormat, out: dict[str, Any], ctx: Ctx) -> None:
    wire = _FORMAT_ENCODE.get(rf.type)
    if wire is None:
        format_dropped(rf.type, True, ctx)
        return
    put(out, ("text", "format", "type"), wire)
    if rf.type != "json_schema":
        return
    put(out, ("text", "format", "name"), rf.name if rf.name is not None else "response")
    if rf.description is not None:
        put(out, ("text", "format", "description"), rf.description)
    if rf.schema is not None:
        put(out, ("text", "format", "schema"), rf.schema)
    if rf.strict is not None:
        put(out, ("text", "format", "strict"), rf.strict)


_REASONING_EFFORT_MAP: dict[str, str] = {"max": "high"}
_REASONING_EXT0 = frozenset({"effort", "summary"})


def decode_reasoning_config(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """reasoning rows: the wire configuration -> req.reasoning."""
    if "reasoning" not in w:
        return
    r = ReasoningConfig()
    hints: dict[str, Any] = {}
    o0 = w.get("reasoning")
    if o0 is not None:
        o0 = expect_dict(o0, "reasoning")
        if rest := kept_keys(o0, _REASONING_EXT0):
            r.ext = {"reasoning": rest}
        if not o0:
            hints.setdefault("reasoning_empty", []).append("reasoning")
    if o0 is not None and (v := o0.get("effort")) is not None:
        r.effort = expect_str(v, "reasoning.effort")
    if o0 is not None and (v := o0.get("summary")) is not None:
        r.summary = expect_str(v, "reasoning.summary")
    if r.effort or r.summary or r.ext:
        req.reasoning = r
    add_hints(req, hints)


def encode_reasoning_config(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """reasoning rows: req.reasoning -> the wire configuration."""
    r = req.reasoning
    effort: str | None = None
    summary: str | None = None
    if ctx.same:  # as the client sent them (also a spelled-out default alone)
        if r is None and not req.hints:
            return
        r = r or ReasoningConfig()
        hints = req.hints or {}
        effort = r.effort
        summary = r.summary
    elif r is None:
        return
    elif thinking_off(r):
        if r.effort == "none":
            effort = "none"
    else:  # what another protocol's configuration becomes in this one
        if r.mode is not None or r.effort is not None or r.budget_tokens is not None:
            m = r.mode or "enabled"
            if r.effort is not None:
                effort = _reasoning_effort(r.effort, ctx)
            if effort is None and r.budget_tokens is not None:
                effort = _reasoning_effort(effort_for_budget(r.budget_tokens), None)
                lost(
                    "budget_tokens",
                    f"budget {r.budget_tokens} sent as reasoning.effort {effort!r}",
                    "has efforts, not budgets",
                    ctx,
                )
            elif effort is None:  # a mode with no amount: the default effort
                effort = DEFAULT_EFFORT
                lost(
                    "mode",
                    f"thinking {m!r} sent as reasoning.effort {effort!r}",
                    "has efforts only",
                    ctx,
                )
            if r.budget_tokens is not None and r.effort is not None:  # one is sent
                lost(
                    "budget_tokens",
                    f"budget {r.budget_tokens} dropped",
                    "takes the effort alone",
                    ctx,
                )
        if r.summary is not None:
            summary = r.summary
    if effort is not None:
        put(out, ("reasoning", "effort"), effort)
    if summary is not None:
        put(out, ("reasoning", "summary"), summary)
    if not ctx.same:
        for obj, keys in (r.ext or {}).items():  # the source's: nowhere to go
            keys_lost(keys, obj, ctx, "reasoning_config")
        return
    ext = r.ext or {}
    if rest := ext.get("reasoning"):
        keep_keys(obj_at(out, ("reasoning",)), rest)
    if "reasoning" in hints.get("reasoning_empty", ()):
        obj_at(out, ("reasoning",))


def _reasoning_effort(effort: str, ctx: Ctx | None) -> str | None:
    wire = _REASONING_EFFORT_MAP.get(effort)
    if wire is not None:
        if ctx is not None:
            lost("effort", f"effort {effort!r} sent as {wire!r}", f"has no {effort!r} effort", ctx)
        return wire
    return effort


# ---------------------------------------------------------------- items (spec: items)
# request keys naming state stored by the server that made them (items.state): responses_input
STATE_KEYS: tuple[str, ...] = (
    "previous_response_id",
    "conversation",
)
_MESSAGE_READ = frozenset({"content", "id", "role", "status", "type"})
# the part kinds written as items of their own (encode_item); the others are message content
ITEM_PARTS = frozenset({"native", "reasoning", "tool_call", "tool_result"})


def _file_urls_in(parts: list[Part] | None) -> None:
    """A file part's plain URL (file_url) as its url."""
    for p in parts or ():
        if type(p) is FilePart and p.ext and p.url is None and p.data is None:
            url = p.ext.get("file_url")
            if type(url) is str:
                p.url = url
                unext(p, "file_url")


def _file_urls_out(wire: Any) -> None:
    """A plain URL is written as file_url (file_data holds data URLs only)."""
    for b in wire if type(wire) is list else ():
        if type(b) is dict and b.get("type") == "input_file":
            v = b.get("file_data")
            if type(v) is str and not v.startswith("data:"):
                b["file_url"] = b.pop("file_data")


def decode_item(w: dict[str, Any], path: str, ctx: Ctx) -> tuple[str, Any]:
    """An item's kind and, but for a message, its part (another type: kept whole)."""
    t = w.get("type")
    if t is None or t == "message":
        return "message", None
    if t == "function_call":
        p = hold(w, ("id", "status"), decode_tool_call(w, path, ctx))
        return "tool_call", p
    if t == "function_call_output":
        p = hold(w, ("id", "status"), decode_tool_result(w, path, ctx))
        if type(w.get("output")) is list:
            _file_urls_in(p.content)
        return "tool_result", p
    if t == "reasoning":
        p = decode_reasoning(w, path, ctx)
        p.text = item_texts(w, ("summary", "content"), "\n\n", path) or p.text
        if "id" in w and w["id"] is None:
            p.ext = {**(p.ext or {}), "id": None}
        if "encrypted_content" in w and w["encrypted_content"] is None:
            p.ext = {**(p.ext or {}), "encrypted_content": None}
        return "reasoning", p
    if type(t) is not str:
        raise InvalidInput(f"unknown item type {brief(t)}", path=path + ".type")
    return "native", NativePart(type=t, data=w, owner=PROTOCOL)


def _text_type(role: str) -> str:
    return {"assistant": "output_text"}.get(role, "input_text")


def decode_message(
    w: dict[str, Any], role: str, path: str, ctx: Ctx
) -> tuple[list[Part], dict[str, Any], dict[str, Any] | None]:
    """A message item's parts, what restores its wire form (its bookkeeping keys, the text
    types and lists where they are not the role's, a string content) and its unread keys."""
    content = w.get("content")
    if content is None:
        raise InvalidInput("missing required field", path=path + ".content")
    desc: dict[str, Any] = {
        "kind": "message",
        "item": {k: w[k] for k in ("type", "id", "status") if k in w},
    }
    ext = (
        None
        if _MESSAGE_READ.issuperset(w)
        else {k: v for k, v in w.items() if k not in _MESSAGE_READ}
    )
    if type(content) is str:
        desc["string"] = True
        return [TextPart(text=content)], desc, ext
    raw = expect_list(content, path + ".content")
    parts = decode_parts(raw, path + ".content", ctx)
    _file_urls_in(parts)
    default = _text_type(role)
    lists: dict[str, list[int]] = {}  # the text parts whose lists are not as written by default
    odd = False
    for k, (b, p) in enumerate(zip(raw, parts, strict=True)):
        if type(p) is not TextPart:
            continue
        t = b.get("type")
        odd = odd or t != default
        if t != "input_text":  # lists of the other type's parts ride in ext
            if b.get("annotations") == []:
                unext(p, "annotations")
            if "annotations" not in b:
                lists.setdefault("annotations", []).append(k)
        if b.get("logprobs") == []:
            unext(p, "logprobs")
            lists.setdefault("logprobs", []).append(k)
    if lists:
        desc["lists"] = lists
    if odd:
        desc["types"] = [b.get("type") for b in raw]
    return parts, desc, ext


def encode_message(
    role: str,
    parts: list[Part],
    desc: dict[str, Any] | None,
    path: str,
    ctx: Ctx,
    output: bool,
    ext: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A message item: between endpoints of this protocol as ``desc`` (decode_message) says,
    else a new item (``output``: a response's, else a request's)."""
    same = ctx.same and desc is not None
    item: dict[str, Any] = dict(desc["item"]) if same and desc and "item" in desc else {}
    if not same and (output or role == "assistant"):
        item["type"] = "message"
    item["role"] = ROLE_ENCODE[role]
    one = parts[0] if len(parts) == 1 and type(parts[0]) is TextPart else None
    if same:
        string = desc is not None and bool(desc.get("string"))
    else:  # across protocols a plain user/system text is sent as a string
        string = not output and role != "assistant" and one is not None
        string = string and one.cache is None  # type: ignore[union-attr]
        string = string and not one.ext  # type: ignore[union-attr]  # its keys: reported below
    if one is not None and string:
        item["content"] = one.text  # type: ignore[attr-defined]
    else:
        wire = encode_parts(parts, None, path + ".content", ctx)
        _file_urls_out(wire)
        hints = desc if same else None
        types = (hints or {}).get("types")
        lists = (hints or {}).get("lists") or {}
        for k, b in enumerate(wire):
            if type(b) is not dict or b.get("type") != "input_text":
                continue
            t = b["type"] = types[k] if types and k < len(types) else _text_type(role)
            if t != "input_text" and k not in lists.get("annotations", ()):
                b.setdefault("annotations", [])
            if (
                k in lists.get("logprobs", ())
                if hints is not None
                else output and t != "input_text"
            ):
                b.setdefault("logprobs", [])
        item["content"] = wire
    if ext:  # back to this protocol, else reported
        drop_ext(ext, item, path, ctx)
    if output is True:  # a new output item
        item.setdefault("status", "completed")
    return item


def encode_item(p: Part, path: str, ctx: Ctx, output: bool | None) -> dict[str, Any] | None:
    """The item of a part that is an item of its own (ITEM_PARTS: a call, a result, reasoning;
    another protocol's native part is reported), or of a part edited since decoding into a
    group of them (a message item). ``output``: a response's (True) or a request's (False) new
    item; None restores the source's item exactly."""
    if type(p) is ToolCallPart:
        item = encode_tool_call(p, path, ctx)
        if ctx.same and p.hints and "item" in p.hints:  # its bookkeeping keys, as they came
            item.update(p.hints["item"])
        if output is True:  # a new output item
            item.setdefault("status", "completed")
        return item
    if type(p) is ToolResultPart:
        item = encode_tool_result(p, path, ctx)
        v = item.get("output")
        _file_urls_out(v)
        if not ctx.same:  # across protocols a text-only result as a string, none as ""
            if v is None:
                item["output"] = ""
            elif type(v) is list and all(type(c) is TextPart for c in p.content or ()):
                item["output"] = "".join(c.text for c in p.content or () if type(c) is TextPart)
        if ctx.same and p.hints and "item" in p.hints:  # its bookkeeping keys, as they came
            item.update(p.hints["item"])
        return item
    if type(p) is ReasoningPart:
        got = encode_reasoning(p, path, ctx)
        if got is None:
            return None
        item = got
        if "summary" not in item:
            item["summary"] = [{"type": "summary_text", "text": p.text}] if p.text else []
        if output is False:  # a new input item
            item.setdefault("id", "rs_interlingua")
        return item
    if type(p) is NativePart:
        return encode_part(p, path, ctx)
    return encode_message("assistant", [p], None, path, ctx, output is not None)


# ---------------------------------------------------------------- finish rule
# (finish_reasons, enum_defaults, finish_rule): one rule for responses and streams
FINISH_DECODE: dict[str, str] = {
    "completed": "stop",
    "max_output_tokens": "length",
    "content_filter": "content_filter",
    "failed": "error",
    "cancelled": "other",
    "in_progress": "other",
    "queued": "other",
}  # raw -> canonical reason
# canonical reason -> (wire value, lossy: it does not read back as the same reason)
_FINISH_OUT: dict[str, tuple[str, bool]] = {
    "stop": ("completed", False),
    "length": ("max_output_tokens", False),
    "tool_calls": ("completed", False),
    "content_filter": ("content_filter", False),
    "stop_sequence": ("completed", True),
    "refusal": ("content_filter", True),
    "pause": ("completed", True),
    "error": ("failed", False),
    "other": ("cancelled", False),
}
# FINISH_DECODE when the output has tool calls (finish_rule.stop_with_calls)
_FINISH_CALLS: dict[str, str] = {
    "completed": "tool_calls",
    "max_output_tokens": "length",
    "content_filter": "content_filter",
    "failed": "error",
    "cancelled": "other",
    "in_progress": "other",
    "queued": "other",
}


def decode_finish(raw: Any, has_calls: bool = False, path: str = "finish") -> Finish:
    """A wire finish value -> Finish{unified, raw}; an unknown one is "other"; a value that is
    no reason is refused (InvalidInput at ``path``), in responses and streams alike."""
    if type(raw) is not str:
        raw = expect_str(raw, path)
    table = _FINISH_CALLS if has_calls else FINISH_DECODE
    return Finish(unified=table.get(raw, "other"), raw=raw)


def encode_finish(
    f: Finish | None, has_calls: bool = False, same: bool = False
) -> tuple[str, bool]:
    """Finish -> (wire value, lossy). No finish says how the output ended; a raw value that
    means the same here is kept (``same``: from this protocol, an unknown one too); otherwise
    the reason's row, else "completed"."""
    if f is None:
        return ("completed", False)
    if f.raw is not None:
        back = FINISH_DECODE.get(f.raw)
        if back == f.unified or (same and back is None and f.unified == "other"):
            return f.raw, False
        if back == "stop" and f.unified == "tool_calls":
            return f.raw, False
    return _FINISH_OUT.get(f.unified, ("completed", True))


def read_finish(holder: dict[str, Any], has_calls: bool = False) -> Finish | None:
    """The finish at status (response_envelope); "incomplete" reads the reason at incomplete_details.reason."""
    raw = holder.get("status")
    if raw == "incomplete":
        reason: Any = holder  # a step that is not an object: no reason
        reason = reason.get("incomplete_details") if type(reason) is dict else None
        reason = reason.get("reason") if type(reason) is dict else None
        raw = reason if type(reason) is str else raw
    if raw is None:
        return None
    return decode_finish(raw, has_calls, "status")


def write_finish(
    f: Finish | None, holder: dict[str, Any], ctx: Ctx, has_calls: bool = False
) -> None:
    """``f`` at status; a
    value the target cannot say is reported (a detail reason: "incomplete", the reason at
    incomplete_details.reason)."""
    raw = finish_wire(encode_finish, f, has_calls, ctx, "status")
    said = raw in {"content_filter", "incomplete", "max_output_tokens"}
    holder["status"] = "incomplete" if said else raw
    holder["incomplete_details"] = {"reason": raw} if said else None


# ---------------------------------------------------------------- response envelope
# top-level keys the envelope row names; the keys always written (one left out is a hint)
RESPONSE_KNOWN = frozenset(
    {
        "background",
        "billing",
        "completed_at",
        "conversation",
        "created_at",
        "error",
        "frequency_penalty",
        "id",
        "incomplete_details",
        "instructions",
        "max_output_tokens",
        "max_tool_calls",
        "metadata",
        "model",
        "moderation",
        "object",
        "output",
        "parallel_tool_calls",
        "presence_penalty",
        "previous_response_id",
        "prompt_cache_key",
        "prompt_cache_options",
        "prompt_cache_retention",
        "reasoning",
        "safety_identifier",
        "service_tier",
        "status",
        "store",
        "temperature",
        "text",
        "tool_choice",
        "tool_usage",
        "tools",
        "top_logprobs",
        "top_p",
        "truncation",
        "usage",
        "user",
    }
)
_ALWAYS = (
    "id",
    "object",
    "created_at",
    "status",
    "error",
    "incomplete_details",
    "instructions",
    "max_output_tokens",
    "model",
    "output",
    "parallel_tool_calls",
    "previous_response_id",
    "reasoning",
    "store",
    "temperature",
    "text",
    "tool_choice",
    "tools",
    "top_p",
    "truncation",
    "usage",
    "user",
    "metadata",
    "usage",
)


def decode_response_envelope(w: dict[str, Any], resp: Response, ctx: Ctx) -> None:
    """The finish at status, the usage (absent or null: None) and
    the keys an encoder always writes that the source left out (a hint); the
    echo and the raw finish (a hint: back to this protocol only)."""
    resp.finish = read_finish(w, any(type(p) is ToolCallPart for p in resp.parts))
    u = w.get("usage")
    resp.usage = decode_usage(u, "usage") if u is not None else None
    absent = [k for k in _ALWAYS if k not in w]
    if absent:
        resp.hints = {**(resp.hints or {}), "absent": absent}
    kept = {k: w[k] for k in RESPONSE_KEPT if k in w}  # the echo and the raw finish
    if kept:
        resp.hints = {**(resp.hints or {}), "kept": kept}


def encode_response_envelope(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:
    """The finish at status (back to this protocol: the echo and the raw finish as they came); the usage (a response from another
    protocol always has one: zero counts; back to this protocol the source's own object, under
    the counts if they changed) and, back to
    this protocol, the keys the source left out left out again."""
    kept = (resp.hints.get("kept") or {}) if ctx.same and resp.hints else {}
    if "status" not in kept:  # else the source's raw finish, kept
        write_finish(resp.finish, out, ctx)
    out.update(kept)  # over the defaults: the source's own values
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


# keys whose source values go back to this protocol only (echo; a top-level finish, its detail)
RESPONSE_KEPT: tuple[str, ...] = (
    "background",
    "billing",
    "completed_at",
    "conversation",
    "error",
    "frequency_penalty",
    "instructions",
    "max_output_tokens",
    "max_tool_calls",
    "metadata",
    "moderation",
    "object",
    "parallel_tool_calls",
    "presence_penalty",
    "previous_response_id",
    "prompt_cache_key",
    "prompt_cache_options",
    "prompt_cache_retention",
    "reasoning",
    "safety_identifier",
    "service_tier",
    "store",
    "temperature",
    "text",
    "tool_choice",
    "tool_usage",
    "tools",
    "top_logprobs",
    "top_p",
    "truncation",
    "user",
    "status",
    "incomplete_details",
)
RESPONSE_ID: str | None = "resp_interlingua"  # the default id (response_envelope.defaults)


# ---------------------------------------------------------------- pipeline (transforms)
_CODEC = sys.modules[__name__]  # the transforms read this codec's rows
# every top-level key the rows and the transforms read (the rest rides in ext)
REQUEST_KEYS: frozenset[str] = REQUEST_ROW_KEYS.union(
    TOOL_CHOICE_KEYS,
    RESPONSES_ITEMS.request_keys,
)
RESPONSE_KEYS: frozenset[str] = RESPONSE_ROW_KEYS.union(
    RESPONSE_KNOWN,
    RESPONSES_OUTPUT.response_keys,
)


def decode_request(w: dict[str, Any], ctx: Ctx) -> Request:
    """A request body -> canonical: the rows, then the transforms, in row order."""
    req = Request(source=PROTOCOL)
    decode_request_fields(w, req, ctx)
    RESPONSES_ITEMS.decode_request(w, req, _CODEC, ctx)
    decode_tools(w, req, ctx)
    decode_response_format(w, req, ctx)
    decode_reasoning_config(w, req, ctx)
    ext = split_ext(w, REQUEST_KEYS, REQUEST_NESTED)
    if ext:
        req.ext = {**req.ext, **ext} if req.ext else ext
    unwrap_request(req)  # state a client echoed in an envelope (transforms/envelopes)
    return req


def encode_request(req: Request, ctx: Ctx) -> dict[str, Any]:
    """Canonical -> a request body of this protocol."""
    out: dict[str, Any] = {}
    encode_request_fields(req, out, ctx)
    if req.model is not None:
        out["model"] = req.model
    RESPONSES_ITEMS.encode_request(req, out, _CODEC, ctx)
    encode_tools(req, out, ctx)
    encode_response_format(req, out, ctx)
    encode_reasoning_config(req, out, ctx)
    if req.ext:
        drop_ext(req.ext, out, "", ctx)
    return out


def decode_response(w: dict[str, Any], ctx: Ctx) -> Response:
    """A response body -> canonical: the rows, the transforms, then the envelope."""
    resp = Response(source=PROTOCOL)
    decode_response_fields(w, resp, ctx)
    RESPONSES_OUTPUT.decode_response(w, resp, _CODEC, ctx)
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
    RESPONSES_OUTPUT.encode_response(resp, out, _CODEC, ctx)
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
