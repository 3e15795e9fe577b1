# Generated from spec/protocols/openai_chat.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""OpenAI Chat Completions codec: rows of spec/protocols/openai_chat.yaml as straight-line code."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

from interlingua._codec_support import (
    deep_merge,
    dig,
    drop_ext,
    report_ext,
    said,
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
    format_data_url,
    parse_data_url,
)
from interlingua.transforms._paths import obj_at, put
from interlingua.transforms._util import content_parts, role_of, text_content
from interlingua.transforms.envelopes import fold_for_client, replay_loss, unwrap_request
from interlingua.transforms.messages_flat import foreign_result
from interlingua.transforms.reasoning import (
    DEFAULT_EFFORT,
    effort_for_budget,
    lost,
    thinking_off,
)
from interlingua.transforms.structured import (
    add_hints,
    format_dropped,
    keep_keys,
    kept_keys,
)
from interlingua.transforms.tools import hosted_entry, tool_of

from .canonical import (
    AudioPart,
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
    new_AudioPart,
    new_FilePart,
    new_ImagePart,
    new_RefusalPart,
    new_TextPart,
    new_Tool,
    new_ToolCallPart,
)
from .spec_types import (
    HttpAuth,
    HttpSpec,
    ImageTokens,
    ModelListing,
    ProtocolFlags,
    TokenEstimate,
    Turns,
)

PROTOCOL = "openai_chat"
DIALECT: str | None = None  # the spec/dialects overlay merged in, if any
FLAGS = ProtocolFlags(
    system_placement="in_messages",
    system_messages_in_turns=True,
    tool_results="tool_messages",
    tool_calls="message_field",
    parallel_flag="parallel_tool_calls",
    max_tokens_required=False,
    max_tokens_default=None,
    usage_input_includes_cache=True,
    sse_event_names=False,
    stream_usage_opt_in="stream_options.include_usage",
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
        "/v1/chat/completions",
        "/chat/completions",
    ),
    url_actions={},
    upstream_path="/chat/completions",
    upstream_stream_path=None,
    model_prefix="",
    auth=HttpAuth(header="authorization", scheme="Bearer", query=None),
    extra_headers={},
    forward_headers=(),
    count_tokens=None,
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
    "messages_flat",
    "tools",
    "reasoning",
    "response_format",
    "message_response",
)
# a bare text part's keys (its parts row): a block of these alone goes back as a string
TEXT_BLOCK_KEYS: frozenset[str] = frozenset({"text", "type"})
SUPPORT: dict[str, tuple[str, str]] = {
    "system": ("full", ""),
    "system_position": ("full", ""),
    "roles": ("full", ""),
    "text": ("lossy", "no citations or annotations on text parts"),
    "image": ("lossy", "data URLs and URLs; an image given by a file id only is dropped"),
    "file": ("full", "file_data data URLs and file ids"),
    "audio": ("full", "input_audio (base64 with a format)"),
    "tool_call": ("full", ""),
    "tool_result": ("full", ""),
    "tool_result_error": ("unsupported", "no is_error on tool messages"),
    "reasoning_text": ("lossy", "dialect fields reasoning_content / reasoning only"),
    "reasoning_replay": ("unsupported", "no opaque reasoning state to replay"),
    "tool_spec": ("full", ""),
    "hosted_tools": (
        "lossy",
        "dialect tools (e.g. openrouter:*) carried only between Chat endpoints",
    ),
    "tool_choice": (
        "lossy",
        "one named function at most; no allowed-function lists or validated mode",
    ),
    "parallel_tool_calls": ("full", ""),
    "max_tokens": ("full", "max_completion_tokens (max_tokens accepted)"),
    "sampling": ("full", ""),
    "top_k": ("unsupported", "not in the official API"),
    "seed": ("full", ""),
    "penalties": ("full", ""),
    "user": ("full", ""),
    "reasoning_config": ("lossy", "reasoning_effort only; budgets become the nearest effort"),
    "structured_output": ("full", "response_format"),
    "caching": ("unsupported", "automatic prefix caching; cache_control hints are dropped"),
    "usage": ("lossy", "prompt_tokens includes cached_tokens; no cache-write count"),
    "finish_reason": (
        "lossy",
        "stop_sequence / pause_turn become stop, refusal becomes content_filter",
    ),
    "errors": ("full", ""),
    "stream_text": ("full", ""),
    "stream_reasoning": ("lossy", "reasoning text only, no signature"),
    "stream_tool_calls": ("full", ""),
    "stream_usage": ("full", "needs stream_options.include_usage"),
    "stream_error": ("full", ""),
    "extensions": ("lossy", "fields with no canonical home go back only to this protocol"),
    "native_parts": (
        "lossy",
        "dialect parts (video_url, Mistral thinking) carried only between Chat endpoints",
    ),
}

# ---------------------------------------------------------------- enum tables (unified <-> raw)
# (an enum_defaults value is written into the compiled rule that falls back on it)
TOOL_CHOICE_DECODE: dict[str, str] = {
    "auto": "auto",
    "none": "none",
    "required": "required",
    "any": "required",
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
    "tool": "tool",
    "function": "tool",
}
ROLE_ENCODE: dict[str, str] = {
    "system": "system",
    "developer": "developer",
    "user": "user",
    "assistant": "assistant",
    "tool": "tool",
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
        "id": "chatcmpl-interlingua",
        "object": "chat.completion",
        "created": 0,
        "model": "unknown",
    }


# owner -> how its opaque reasoning state reaches this protocol's clients (transforms/envelopes)
CARRIER: dict[str | None, str] = {"gemini": "ids", "openai_chat": "own"}
# wire item id prefixes by kind (stream.encode.ids), for responses and streams alike
# (responses_item_list.ItemIds)
ITEM_ID_PREFIXES: dict[str, str] = {}
# a call sent without an id gets ilg_<random> (stream.missing_call_id: random), in a response
# (the parts walk's CallIds, part_walk.call_ids) as in a stream; else a numbered one
RANDOM_CALL_IDS = False


# the reason a loss of each feature the encoders report gives (spec: support), one constant per
# feature: a dialect whose support rows leave it as it is shares it and the code that uses it
_WHY_CACHING = "openai_chat unsupported: automatic prefix caching; cache_control hints are dropped"
_WHY_FILE = "openai_chat full: file_data data URLs and file ids"
_WHY_FINISH_REASON = (
    "openai_chat lossy: stop_sequence / pause_turn become stop, refusal becomes content_filter"
)
_WHY_IMAGE = "openai_chat lossy: data URLs and URLs; an image given by a file id only is dropped"
_WHY_REASONING_REPLAY = "openai_chat unsupported: no opaque reasoning state to replay"
_WHY_TEXT = "openai_chat lossy: no citations or annotations on text parts"
_WHY_TOOL_CALL = "openai_chat full"
_WHY_TOOL_RESULT = "openai_chat full"
_WHY_TOOL_RESULT_ERROR = "openai_chat unsupported: no is_error on tool messages"
_WHY_TOP_K = "openai_chat unsupported: not in the official API"
_WHY_PART: dict[str, str] = {  # by feature, for the part types with no encoder
    "reasoning_replay": _WHY_REASONING_REPLAY,
    "tool_call": _WHY_TOOL_CALL,
    "tool_result": _WHY_TOOL_RESULT,
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
                f"unknown tool_choice {brief(choice)} (expected one of any, auto, function, none, required)",
                path="tool_choice",
            )
        if TOOL_CHOICE_ENCODE.get(mode) != choice:  # another spelling
            req.hints = {**(req.hints or {}), "tool_choice_raw": choice}
            if not ctx.same:
                ctx.loss(
                    "tool_choice",
                    f"mode {brief(choice)} sent as {mode!r}",
                    f"{ctx.target} has no such mode",
                    "tool_choice",
                )
        req.tool_choice = ToolChoice(mode=mode)
        return
    choice = expect_dict(choice, "tool_choice")
    choice = expect_dict(choice.get("function"), "tool_choice.function")
    name = expect_str(choice.get("name"), "tool_choice.function.name")
    req.tool_choice = ToolChoice(mode="tool", name=name)


def encode_tool_choice(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    hints = (req.hints or {}) if ctx.same else {}
    tc = req.tool_choice
    if req.parallel_tool_calls is not None:
        out["parallel_tool_calls"] = req.parallel_tool_calls
    if tc is None:
        return
    mode = tc.mode
    raw = hints.get("tool_choice_raw")
    wire = (
        raw if raw is not None and TOOL_CHOICE_DECODE.get(raw) == mode else TOOL_CHOICE_ENCODE[mode]
    )
    if mode != "tool":
        out["tool_choice"] = wire
        return
    obj: dict[str, Any] = {"type": wire}
    if tc.name is not None:
        obj["function"] = {"name": tc.name}
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
    out: dict[str, Any] = {"type": "text"}

    out["text"] = p.text
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.annotations is not None:
        ctx.loss(path + ".annotations", "annotations dropped", _WHY_TEXT, "text")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_text = _dec_text_0  # the only row: no dispatch call
encode_text = _enc_text_0  # the only row: no dispatch call


_KNOWN_IMAGE_1 = frozenset({"image_url", "type"})
_NESTED_IMAGE_1: dict[str, frozenset[str]] = {
    "image_url": frozenset({"detail", "url"}),
}


def _dec_image_1(w: dict[str, Any], path: str, ctx: Ctx) -> ImagePart:
    v_url = w.get("image_url")
    if v_url is not None:
        if type(v_url) is not dict:
            v_url = expect_dict(v_url, path + ".image_url")
        v_url = v_url.get("url")
    if v_url is None:
        raise InvalidInput("missing required field", path=path + ".image_url.url")
    if type(v_url) is not str:
        v_url = expect_str(v_url, path + ".image_url.url")
    v_detail = w.get("image_url")
    if v_detail is not None:
        if type(v_detail) is not dict:
            v_detail = expect_dict(v_detail, path + ".image_url")
        v_detail = v_detail.get("detail")
    if v_detail is not None and type(v_detail) is not str:
        v_detail = expect_str(v_detail, path + ".image_url.detail")
    v_media_type, v_data = parse_data_url(v_url) if v_url is not None else (None, None)
    if v_data is not None:
        v_url = None
    return new_ImagePart(
        url=v_url,
        media_type=v_media_type,
        data=v_data,
        detail=v_detail,
        ext=split_ext(w, _KNOWN_IMAGE_1, _NESTED_IMAGE_1),
    )


def _enc_image_1(p: ImagePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "image_url"}

    if p.data is not None:
        out.setdefault("image_url", {})["url"] = format_data_url(p.media_type, p.data)
    elif p.url is not None:
        out.setdefault("image_url", {})["url"] = p.url

    if p.detail is not None:
        out.setdefault("image_url", {})["detail"] = p.detail
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_IMAGE, "image")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_image = _dec_image_1  # the only row: no dispatch call


def encode_image(p: ImagePart, path: str, ctx: Ctx) -> dict[str, Any] | None:
    if p.url is not None or p.data is not None:
        return _enc_image_1(p, path, ctx)
    ctx.loss(path, "ImagePart dropped", "neither url nor data: " + _WHY_IMAGE, "image")
    return None


_KNOWN_FILE_2 = frozenset({"file", "type"})
_NESTED_FILE_2: dict[str, frozenset[str]] = {
    "file": frozenset({"file_data", "file_id", "filename"}),
}


def _dec_file_2(w: dict[str, Any], path: str, ctx: Ctx) -> FilePart:
    v_url = w.get("file")
    if v_url is not None:
        if type(v_url) is not dict:
            v_url = expect_dict(v_url, path + ".file")
        v_url = v_url.get("file_data")
    if v_url is not None and type(v_url) is not str:
        v_url = expect_str(v_url, path + ".file.file_data")
    v_file_id = w.get("file")
    if v_file_id is not None:
        if type(v_file_id) is not dict:
            v_file_id = expect_dict(v_file_id, path + ".file")
        v_file_id = v_file_id.get("file_id")
    if v_file_id is not None and type(v_file_id) is not str:
        v_file_id = expect_str(v_file_id, path + ".file.file_id")
    v_filename = w.get("file")
    if v_filename is not None:
        if type(v_filename) is not dict:
            v_filename = expect_dict(v_filename, path + ".file")
        v_filename = v_filename.get("filename")
    if v_filename is not None and type(v_filename) is not str:
        v_filename = expect_str(v_filename, path + ".file.filename")
    v_media_type, v_data = parse_data_url(v_url) if v_url is not None else (None, None)
    if v_data is not None:
        v_url = None
    return new_FilePart(
        url=v_url,
        media_type=v_media_type,
        data=v_data,
        file_id=v_file_id,
        filename=v_filename,
        ext=split_ext(w, _KNOWN_FILE_2, _NESTED_FILE_2),
    )


def _enc_file_2(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "file"}

    if p.data is not None:
        out.setdefault("file", {})["file_data"] = format_data_url(p.media_type, p.data)
    elif p.url is not None:
        out.setdefault("file", {})["file_data"] = p.url

    if p.file_id is not None:
        out.setdefault("file", {})["file_id"] = p.file_id

    if p.filename is not None:
        out.setdefault("file", {})["filename"] = p.filename
    if p.text is not None:
        ctx.loss(path + ".text", "text dropped", _WHY_FILE, "file")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_file = _dec_file_2  # the only row: no dispatch call
encode_file = _enc_file_2  # the only row: no dispatch call


_KNOWN_AUDIO_3 = frozenset({"input_audio", "type"})
_NESTED_AUDIO_3: dict[str, frozenset[str]] = {
    "input_audio": frozenset({"data", "format"}),
}


def _dec_audio_3(w: dict[str, Any], path: str, ctx: Ctx) -> AudioPart:
    v_data = w.get("input_audio")
    if v_data is not None:
        if type(v_data) is not dict:
            v_data = expect_dict(v_data, path + ".input_audio")
        v_data = v_data.get("data")
    if v_data is None:
        raise InvalidInput("missing required field", path=path + ".input_audio.data")
    if type(v_data) is not str:
        v_data = expect_str(v_data, path + ".input_audio.data")
    v_format = w.get("input_audio")
    if v_format is not None:
        if type(v_format) is not dict:
            v_format = expect_dict(v_format, path + ".input_audio")
        v_format = v_format.get("format")
    if v_format is not None and type(v_format) is not str:
        v_format = expect_str(v_format, path + ".input_audio.format")
    return new_AudioPart(
        data=v_data,
        format=v_format,
        ext=split_ext(w, _KNOWN_AUDIO_3, _NESTED_AUDIO_3),
    )


def _enc_audio_3(p: AudioPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "input_audio"}

    out.setdefault("input_audio", {})["data"] = p.data

    if p.format is not None:
        out.setdefault("input_audio", {})["format"] = p.format
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_audio = _dec_audio_3  # the only row: no dispatch call
encode_audio = _enc_audio_3  # the only row: no dispatch call


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


_KNOWN_TOOL_CALL_5 = frozenset({"function", "id", "type"})
_NESTED_TOOL_CALL_5: dict[str, frozenset[str]] = {
    "function": frozenset({"arguments", "name"}),
}


def _shape_tool_call_5(w: dict[str, Any]) -> dict[str, Any] | None:
    """Which of the paths the encoder always writes came absent or null."""
    hints: dict[str, list[str]] = {}
    if "type" not in w:
        hints.setdefault("absent", []).append("type")
    elif w["type"] is None:
        hints.setdefault("null", []).append("type")
    o = w.get("function")
    if type(o) is not dict or "arguments" not in o:
        hints.setdefault("absent", []).append("function.arguments")
    elif o["arguments"] is None:
        hints.setdefault("null", []).append("function.arguments")
    return hints or None


def _dec_tool_call_5(w: dict[str, Any], path: str, ctx: Ctx) -> ToolCallPart:
    v_id = w.get("id")
    if v_id is None:
        raise InvalidInput("missing required field", path=path + ".id")
    if type(v_id) is not str:
        v_id = expect_str(v_id, path + ".id")
    v_name = w.get("function")
    if v_name is not None:
        if type(v_name) is not dict:
            v_name = expect_dict(v_name, path + ".function")
        v_name = v_name.get("name")
    if v_name is None:
        raise InvalidInput("missing required field", path=path + ".function.name")
    if type(v_name) is not str:
        v_name = expect_str(v_name, path + ".function.name")
    v_arguments = w.get("function")
    if v_arguments is not None:
        if type(v_arguments) is not dict:
            v_arguments = expect_dict(v_arguments, path + ".function")
        v_arguments = v_arguments.get("arguments")
    if v_arguments is None:
        v_arguments = ""  # a call with no arguments
    if type(v_arguments) is not str:
        v_arguments = expect_str(v_arguments, path + ".function.arguments")
    return new_ToolCallPart(
        id=v_id,
        name=v_name,
        arguments=v_arguments,
        ext=split_ext(w, _KNOWN_TOOL_CALL_5, _NESTED_TOOL_CALL_5),
        hints=_shape_tool_call_5(w)
        if w.get("type") is None
        or type(w.get("function")) is not dict
        or w["function"].get("arguments") is None
        else None,
    )


def _enc_tool_call_5(p: ToolCallPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "function"}

    out["id"] = p.id

    out.setdefault("function", {})["name"] = p.name

    out.setdefault("function", {})["arguments"] = p.arguments
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
        if "function.arguments" in absent:
            out["function"].pop("arguments", None)
        elif "function.arguments" in null:
            out["function"]["arguments"] = None
    return out


decode_tool_call = _dec_tool_call_5  # the only row: no dispatch call
encode_tool_call = _enc_tool_call_5  # the only row: no dispatch call


_KNOWN_TOOL_RESULT_6 = frozenset({"content", "role", "tool_call_id"})
_NESTED_TOOL_RESULT_6: dict[str, frozenset[str]] = {}


def _dec_tool_result_6(w: dict[str, Any], path: str, ctx: Ctx) -> ToolResultPart:
    v_call_id = w.get("tool_call_id")
    if v_call_id is None:
        raise InvalidInput("missing required field", path=path + ".tool_call_id")
    if type(v_call_id) is not str:
        v_call_id = expect_str(v_call_id, path + ".tool_call_id")
    v_content = w.get("content")
    s_content = type(v_content) is str
    if v_content is not None:
        v_content = decode_parts(v_content, path + ".content", ctx)
    else:
        raise InvalidInput("missing required field", path=path + ".content")
    return ToolResultPart(
        call_id=v_call_id,
        content=v_content,
        hints={"string": True} if s_content else None,
        ext=None if _KNOWN_TOOL_RESULT_6.issuperset(w) else split_ext(w, _KNOWN_TOOL_RESULT_6),
    )


def _enc_tool_result_6(p: ToolResultPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "tool"}

    out["tool_call_id"] = p.call_id

    if p.content is not None:
        out["content"] = encode_parts(p.content, p.hints, path + ".content", ctx)
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


_PART_DECODERS: dict[str, Any] = {
    "text": decode_text,
    "image_url": decode_image,
    "file": decode_file,
    "input_audio": decode_audio,
    "refusal": decode_refusal,
}
NATIVE_PARTS: frozenset[str] = frozenset(["video_url", "thinking"])
_PART_ENCODERS: dict[type, Any] = {
    TextPart: encode_text,
    ImagePart: encode_image,
    FilePart: encode_file,
    AudioPart: encode_audio,
    RefusalPart: encode_refusal,
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
_KNOWN_TOOL = frozenset({"description", "name", "parameters", "strict"})
_NESTED_TOOL: dict[str, frozenset[str]] = {}

_KNOWN_TOOL_OUTER = frozenset(["function", "type"])
_NESTED_TOOL_OUTER: dict[str, frozenset[str]] = {"function": _KNOWN_TOOL}


def _shape_tool(w: dict[str, Any]) -> dict[str, Any] | None:
    """Which of the paths the encoder always writes came absent or null."""
    hints: dict[str, list[str]] = {}
    if "type" not in w:
        hints.setdefault("absent", []).append("type")
    elif w["type"] is None:
        hints.setdefault("null", []).append("type")
    return hints or None


def decode_tool(w: Any, path: str, ctx: Ctx) -> Tool:
    if type(w) is not dict:
        w = expect_dict(w, path)
    outer = w
    w = expect_dict(w.get("function"), path + ".function")
    path = path + ".function"
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
        name=v_name,
        description=v_description,
        parameters=v_parameters,
        strict=v_strict,
        ext=split_ext(outer, _KNOWN_TOOL_OUTER, _NESTED_TOOL_OUTER),
        hints=_shape_tool(outer) if outer.get("type") is None else None,
    )


def encode_tool(p: Tool, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    out["name"] = p.name

    if p.description is not None:
        out["description"] = p.description

    if p.parameters is not None:
        out["parameters"] = p.parameters

    if p.strict is not None:
        out["strict"] = p.strict
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    out = {"type": "function", "function": out}
    if ctx.same and p.hints:  # back to this protocol as they came
        absent, null = p.hints.get("absent", ()), p.hints.get("null", ())
        if "type" in absent:
            out.pop("type", None)
        elif "type" in null:
            out["type"] = None
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


# ---------------------------------------------------------------- request and response fields
REQUEST_ROW_KEYS = frozenset(
    {
        "frequency_penalty",
        "max_completion_tokens",
        "max_tokens",
        "messages",
        "metadata",
        "model",
        "presence_penalty",
        "reasoning_effort",
        "response_format",
        "seed",
        "stop",
        "stream",
        "stream_options",
        "temperature",
        "tools",
        "top_p",
        "user",
    }
)
REQUEST_NESTED: dict[str, frozenset[str]] = {
    "stream_options": frozenset({"include_usage"}),
}


def decode_request_fields(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    path = ""
    kept: dict[str, dict[str, Any]] = {}  # the source's own form, for the same protocol (hints)
    v_model = w.get("model")
    if v_model is not None and type(v_model) is not str:
        v_model = expect_str(v_model, path + ".model")
    req.model = v_model
    v_max_tokens = w.get("max_completion_tokens")
    if v_max_tokens is None and w.get("max_tokens") is not None:
        v_max_tokens = w.get("max_tokens")
        kept.setdefault("aliases", {})["max_tokens"] = "max_tokens"
    if v_max_tokens is not None and type(v_max_tokens) is not int:
        v_max_tokens = expect_int(v_max_tokens, path + ".max_completion_tokens")
    req.max_tokens = v_max_tokens
    v_temperature = w.get("temperature")
    if v_temperature is not None:
        v_temperature = expect_number(v_temperature, path + ".temperature")
    req.temperature = v_temperature
    v_top_p = w.get("top_p")
    if v_top_p is not None:
        v_top_p = expect_number(v_top_p, path + ".top_p")
    req.top_p = v_top_p
    v_stop = w.get("stop")
    if type(v_stop) is str:
        kept.setdefault("string", {})["stop"] = True
    if v_stop is not None:
        v_stop = expect_str_list(v_stop, path + ".stop")
    req.stop = v_stop
    v_seed = w.get("seed")
    if v_seed is not None and type(v_seed) is not int:
        v_seed = expect_int(v_seed, path + ".seed")
    req.seed = v_seed
    v_presence_penalty = w.get("presence_penalty")
    if v_presence_penalty is not None:
        v_presence_penalty = expect_number(v_presence_penalty, path + ".presence_penalty")
    req.presence_penalty = v_presence_penalty
    v_frequency_penalty = w.get("frequency_penalty")
    if v_frequency_penalty is not None:
        v_frequency_penalty = expect_number(v_frequency_penalty, path + ".frequency_penalty")
    req.frequency_penalty = v_frequency_penalty
    v_stream = w.get("stream")
    if v_stream is not None and type(v_stream) is not bool:
        v_stream = expect_bool(v_stream, path + ".stream")
    req.stream = v_stream
    v_include_usage = w.get("stream_options")
    if v_include_usage is not None:
        if type(v_include_usage) is not dict:
            v_include_usage = expect_dict(v_include_usage, path + ".stream_options")
        v_include_usage = v_include_usage.get("include_usage")
    if v_include_usage is not None and type(v_include_usage) is not bool:
        v_include_usage = expect_bool(v_include_usage, path + ".stream_options.include_usage")
    req.include_usage = v_include_usage
    v_user = w.get("user")
    if v_user is not None and type(v_user) is not str:
        v_user = expect_str(v_user, path + ".user")
    req.user = v_user
    v_metadata = w.get("metadata")
    if v_metadata is not None and type(v_metadata) is not dict:
        v_metadata = expect_dict(v_metadata, path + ".metadata")
    req.metadata = v_metadata
    if w.get("stream_options") == {}:  # a rows' object sent empty: so again to this protocol
        kept.setdefault("empty", {})["stream_options"] = True
    if kept:
        add_hints(req, kept)


def encode_request_fields(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    kept = (req.hints or {}) if ctx.same else {}  # the source's own form

    if req.model is not None:
        out["model"] = req.model

    if req.max_tokens is not None:
        out["max_completion_tokens"] = req.max_tokens
    if (alias := kept.get("aliases", {}).get("max_tokens")) and "max_completion_tokens" in out:
        out[alias] = out.pop("max_completion_tokens")  # under the alias it came as

    if req.temperature is not None:
        out["temperature"] = req.temperature

    if req.top_p is not None:
        out["top_p"] = req.top_p

    if req.stop is not None:
        out["stop"] = req.stop
    if req.stop and len(req.stop) == 1 and "stop" in kept.get("string", ()):
        out["stop"] = req.stop[0]  # it came as one string

    if req.seed is not None:
        out["seed"] = req.seed

    if req.presence_penalty is not None:
        out["presence_penalty"] = req.presence_penalty

    if req.frequency_penalty is not None:
        out["frequency_penalty"] = req.frequency_penalty

    if req.stream is not None:
        out["stream"] = req.stream

    if req.include_usage is not None:
        out.setdefault("stream_options", {})["include_usage"] = req.include_usage

    if req.user is not None:
        out["user"] = req.user

    if req.metadata is not None:
        out["metadata"] = req.metadata
    if "stream_options" in kept.get("empty", ()):
        out.setdefault("stream_options", {})
    if req.top_k is not None:
        ctx.loss("top_k", "top_k dropped", _WHY_TOP_K, "top_k")


RESPONSE_ROW_KEYS = frozenset({"created", "id", "model"})


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
    v_created = w.get("created")
    if v_created is not None and type(v_created) is not int:
        v_created = expect_int(v_created, path + ".created")
    resp.created = v_created


def encode_response_fields(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:

    if resp.id is not None:
        out["id"] = resp.id

    if resp.model is not None:
        out["model"] = resp.model

    if resp.created is not None:
        out["created"] = resp.created
    if resp.stop_sequence is not None:
        ctx.loss("stop_sequence", "stop_sequence dropped", _WHY_FINISH_REASON, "finish_reason")


# ---------------------------------------------------------------- usage
def usage_losses(u: Usage, target: str, path: str) -> list[Loss]:
    """The counts of ``u`` this protocol's usage has no field for (still in the totals): one
    rule for responses (encode_response_envelope) and streams (the stream API)."""
    out: list[Loss] = []
    if u.input_cache_write:
        out.append(
            Loss(
                f"{path}.input_cache_write",
                f"input_cache_write count {u.input_cache_write} dropped (still included in the totals)",
                f"{target} usage has no such count",
                "usage",
            )
        )
    return out


def decode_usage(w: Any, path: str) -> Usage:
    if type(w) is not dict:
        w = expect_dict(w, path)
    v_input = w.get("prompt_tokens")
    if v_input is not None and type(v_input) is not int:
        v_input = expect_int(v_input, path + ".prompt_tokens")
    v_input_cache_read = w.get("prompt_tokens_details")
    if v_input_cache_read is not None:
        if type(v_input_cache_read) is not dict:
            v_input_cache_read = expect_dict(v_input_cache_read, path + ".prompt_tokens_details")
        v_input_cache_read = v_input_cache_read.get("cached_tokens")
    if v_input_cache_read is not None and type(v_input_cache_read) is not int:
        v_input_cache_read = expect_int(
            v_input_cache_read, path + ".prompt_tokens_details.cached_tokens"
        )
    v_output_total = w.get("completion_tokens")
    if v_output_total is not None and type(v_output_total) is not int:
        v_output_total = expect_int(v_output_total, path + ".completion_tokens")
    v_output_reasoning = w.get("completion_tokens_details")
    if v_output_reasoning is not None:
        if type(v_output_reasoning) is not dict:
            v_output_reasoning = expect_dict(
                v_output_reasoning, path + ".completion_tokens_details"
            )
        v_output_reasoning = v_output_reasoning.get("reasoning_tokens")
    if v_output_reasoning is not None and type(v_output_reasoning) is not int:
        v_output_reasoning = expect_int(
            v_output_reasoning, path + ".completion_tokens_details.reasoning_tokens"
        )
    u = Usage(raw=w)
    u.input_total = v_input or 0
    u.input_cache_read = v_input_cache_read or 0
    u.output_total = v_output_total or 0
    u.output_reasoning = v_output_reasoning or 0
    return u


def encode_usage(u: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    out["prompt_tokens"] = u.input_total
    out.setdefault("prompt_tokens_details", {})["cached_tokens"] = u.input_cache_read
    out["completion_tokens"] = u.output_total
    out.setdefault("completion_tokens_details", {})["reasoning_tokens"] = u.output_reasoning
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
        next(
            (
                v
                for v in (e.get("code"), e.get("status_code"))
                if type(v) is int and 400 <= v <= 599
            ),
            None,
        ),
    )


def read_error_body(body: Any) -> tuple[Any, Any, Any, Any, int | None]:
    """An HTTP error body: ``read_error`` of its error object (error)."""
    e = body.get("error") if type(body) is dict else None
    return read_error(e)


def write_error(err: Any, raw: str, status: int, inband: bool = False) -> dict[str, Any]:
    """The error body of ``err`` (ErrorInfo; ``raw``: its raw type, ``status``: its HTTP status,
    ``inband``: the event of a stream's error)."""
    return {
        "error": {
            "type": raw,
            "message": err.message,
            "param": err.param,
            "code": status if inband and err.code is None else err.code,
        }
    }


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
_FORMAT_KEEP0 = frozenset({"json_schema", "type"})
_FORMAT_KEEP1 = frozenset({"description", "name", "schema", "strict"})


def decode_response_format(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """response_format rows: the wire format -> req.response_format."""
    if "response_format" not in w:
        return
    raw = dig(w, ("response_format", "type"))
    schema = dig(w, ("response_format", "json_schema", "schema"))
    hints: dict[str, Any] = {}
    if (obj := w.get("response_format")) is not None:
        rest = kept_keys(expect_dict(obj, "response_format"), _FORMAT_KEEP0)
        hints["rest response_format"] = rest
        if not ctx.same:
            keys_lost(rest, "response_format", ctx, "structured_output")
    if (obj := dig(w, ("response_format", "json_schema"))) is not None:
        rest = kept_keys(expect_dict(obj, "response_format.json_schema"), _FORMAT_KEEP1)
        hints["rest response_format.json_schema"] = rest
        if not ctx.same:
            keys_lost(rest, "response_format.json_schema", ctx, "structured_output")
    if raw is None and schema is None and w.get("response_format") is None:
        add_hints(req, hints)
        return  # no format (a present object without its type is refused below)
    ftype = _FORMAT_DECODE.get(expect_str(raw, "response_format.type")) if raw is not None else None
    if ftype is None:
        raise InvalidInput(
            f"unknown response_format type {brief(raw)}", path="response_format.type"
        )
    rf = ResponseFormat(type="json_schema" if schema is not None else ftype)
    if rf.type == "json_schema":
        expect_dict(dig(w, ("response_format", "json_schema")), "response_format.json_schema")
        rf.name = (
            expect_str(v, "response_format.json_schema.name")
            if (v := dig(w, ("response_format", "json_schema", "name"))) is not None
            else None
        )
        rf.description = (
            expect_str(v, "response_format.json_schema.description")
            if (v := dig(w, ("response_format", "json_schema", "description"))) is not None
            else None
        )
        rf.schema = (
            expect_dict(schema, "response_format.json_schema.schema")
            if schema is not None
            else None
        )
        rf.strict = (
            expect_bool(v, "response_format.json_schema.strict")
            if (v := dig(w, ("response_format", "json_schema", "strict"))) is not None
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
    if (rest := hints.get("rest response_format")) is not None:
        keep_keys(obj_at(out, ("response_format",)), rest)
    if (rest := hints.get("rest response_format.json_schema")) is not None:
        keep_keys(obj_at(out, ("response_format", "json_schema")), rest)


def _format_out(rf: ResponseFormat, out: dict[str, Any], ctx: Ctx) -> None:
    wire = _FORMAT_ENCODE.get(rf.type)
    if wire is None:
        format_dropped(rf.type, True, ctx)
        return
    put(out, ("response_format", "type"), wire)
    if rf.type != "json_schema":
        return
    put(
        out,
        ("response_format", "json_schema", "name"),
        rf.name if rf.name is not None else "response",
    )
    if rf.description is not None:
        put(out, ("response_format", "json_schema", "description"), rf.description)
    if rf.schema is not None:
        put(out, ("response_format", "json_schema", "schema"), rf.schema)
    if rf.strict is not None:
        put(out, ("response_format", "json_schema", "strict"), rf.strict)


_REASONING_EFFORT_MAP: dict[str, str] = {"max": "high"}


def decode_reasoning_config(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """reasoning rows: the wire configuration -> req.reasoning."""
    if "reasoning_effort" not in w:
        return
    r = ReasoningConfig()
    if (v := w.get("reasoning_effort")) is not None:
        r.effort = expect_str(v, "reasoning_effort")
    if r.effort:
        req.reasoning = r


def encode_reasoning_config(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """reasoning rows: req.reasoning -> the wire configuration."""
    r = req.reasoning
    effort: str | None = None
    if r is None:
        return
    if ctx.same:  # as the client sent them
        effort = r.effort
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
                    f"budget {r.budget_tokens} sent as reasoning_effort {effort!r}",
                    "has efforts, not budgets",
                    ctx,
                )
            elif effort is None:  # a mode with no amount: the default effort
                effort = DEFAULT_EFFORT
                lost(
                    "mode",
                    f"thinking {m!r} sent as reasoning_effort {effort!r}",
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
            lost(
                "summary",
                f"summary {brief(r.summary)} dropped",
                "has no reasoning summary setting (what it returns is its own)",
                ctx,
            )
    if effort is not None:
        out["reasoning_effort"] = effort
    if not ctx.same and r.ext:  # the source's: nowhere to go
        for obj, keys in r.ext.items():
            keys_lost(keys, obj, ctx, "reasoning_config")


def _reasoning_effort(effort: str, ctx: Ctx | None) -> str | None:
    wire = _REASONING_EFFORT_MAP.get(effort)
    if wire is not None:
        if ctx is not None:
            lost("effort", f"effort {effort!r} sent as {wire!r}", f"has no {effort!r} effort", ctx)
        return wire
    return effort


# ---------------------------------------------------------------- messages (spec: messages)
_FLAT_READ = frozenset({"content", "name", "role"})  # every message's keys


def decode_message(m: dict[str, Any], path: str, ctx: Ctx) -> Message:
    """One wire message -> a canonical message (a tool message: its one tool result)."""
    role = role_of(m, path, ROLE_DECODE, None)
    if role == "tool":
        return Message(role="tool", parts=[decode_tool_result(m, path, ctx)])
    known: list[str] = []  # keys read beyond _FLAT_READ (a key present with null is not read)
    content = m.get("content")
    if content is not None:
        parts, hints = content_parts(content, path + ".content", decode_parts, ctx)
    else:
        parts, hints = [], {"null" if "content" in m else "absent": True}
    if role == "assistant":
        present: dict[str, str] = {}
        for field in ("reasoning_content", "reasoning"):
            r = m.get(field)
            if r is not None:
                known.append(field)
                present[field] = expect_str(r, f"{path}.{field}")
        if present:  # one part per text (vLLM sends two fields with the same text)
            parts[:0] = [ReasoningPart(text=t) for t in dict.fromkeys(present.values())]
            hints = {**(hints or {}), "reasoning_field": next(iter(present))}
            if len(present) > 1:
                hints["reasoning_fields"] = present
        calls = m.get("tool_calls")
        if calls is not None:
            known.append("tool_calls")
            for k, c in enumerate(expect_list(calls, path + ".tool_calls")):
                cpath = f"{path}.tool_calls[{k}]"
                parts.append(decode_tool_call(expect_dict(c, cpath), cpath, ctx))
            if not calls:
                hints = {**(hints or {}), "tool_calls_empty": True}
        if "refusal" in m:
            known.append("refusal")
            refusal = m["refusal"]
            if refusal is not None:
                parts.append(RefusalPart(text=expect_str(refusal, path + ".refusal")))
            else:
                hints = {**(hints or {}), "refusal_null": True}
    name = m.get("name")
    return Message(
        role=role,
        parts=parts,
        name=expect_str(name, path + ".name") if name is not None else None,
        ext=split_ext(m, _FLAT_READ.union(known) if known else _FLAT_READ),
        hints=hints,
    )


def encode_message(
    m: Message, path: str, ctx: Ctx, reasoning_out: bool, media: list[Part] | None = None
) -> list[dict[str, Any]]:
    """One canonical message -> wire messages (a tool message holding several results: several;
    ``media``: where the media of tool results go when taken out)."""
    if m.role == "tool":
        results = [
            encode_tool_result(p if ctx.same else foreign_result(p, media), path, ctx)
            for p in m.parts
            if type(p) is ToolResultPart
        ]
        if m.ext and results:
            drop_ext(m.ext, results[0], path, ctx)
        return results
    msg: dict[str, Any] = {"role": ROLE_ENCODE[m.role]}
    content: list[Part] = []
    calls: list[dict[str, Any]] = []
    reasoning: list[str] = []
    hints = m.hints or {}
    for k, p in enumerate(m.parts):
        t = type(p)
        if t is ToolCallPart:
            calls.append(encode_tool_call(p, f"{path}.tool_calls[{len(calls)}]", ctx))  # type: ignore[arg-type]
        elif t is ReasoningPart:
            if p.text or (ctx.same and hints.get("reasoning_field")):  # type: ignore[union-attr]
                reasoning.append(p.text)  # type: ignore[union-attr,arg-type]
            if not reasoning_out:
                ctx.loss(
                    f"{path}.content[{k}]",
                    "reasoning block dropped",
                    f"{ctx.target} requests carry no reasoning from another protocol",
                    "reasoning_replay",
                )
            elif p.signature or p.redacted:  # type: ignore[union-attr]
                ctx.losses.append(replay_loss(f"{path}.content[{k}]", p.owner))  # type: ignore[union-attr]
        elif t is RefusalPart and m.role == "assistant":
            msg["refusal"] = p.text  # type: ignore[union-attr]
        else:
            content.append(p)
    if reasoning and reasoning_out:
        both = hints.get("reasoning_fields") if ctx.same else None
        if both and reasoning == list(dict.fromkeys(both.values())):
            msg.update(both)
        else:
            msg[hints.get("reasoning_field") or "reasoning_content"] = "".join(reasoning)
    if content:  # the message itself unless calls, reasoning or a refusal were taken out
        shown = (
            m
            if len(content) == len(m.parts)
            else Message(role=m.role, parts=content, hints=m.hints)
        )
        msg["content"] = text_content(shown, encode_parts, TEXT_BLOCK_KEYS, path + ".content", ctx)
    elif ctx.same and hints.get("absent"):
        pass
    elif ctx.same and hints.get("empty_list"):
        msg["content"] = []
    elif m.role == "assistant" or hints.get("null"):
        msg["content"] = None
    else:
        msg["content"] = ""
    if calls or (ctx.same and hints.get("tool_calls_empty")):
        msg["tool_calls"] = calls
    if ctx.same and hints.get("refusal_null") and "refusal" not in msg:
        msg["refusal"] = None
    if m.name is not None:
        msg["name"] = m.name
    if m.ext:
        drop_ext(m.ext, msg, path, ctx)
    return [msg]


def decode_messages(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """The request's messages list (messages_flat): at least one message."""
    raw = w.get("messages")
    if raw is None:
        raise InvalidInput("missing required field", path="messages")
    if not expect_list(raw, "messages"):
        raise InvalidInput("at least one message is required", path="messages")
    req.messages = [
        decode_message(expect_dict(m, f"messages[{i}]"), f"messages[{i}]", ctx)
        for i, m in enumerate(raw)
    ]


def encode_messages(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """The request's messages list (messages_flat); the media of tool results go in a
    user message after them."""
    wire: list[dict[str, Any]] = []
    media: list[Part] = []  # of the tool results since the last other message
    for j, m in enumerate(req.messages):
        if media and m.role != "tool":
            wire.append(
                {
                    "role": "user",
                    "content": encode_parts(media, None, f"messages[{j - 1}].content", ctx),
                }
            )
            media = []
        wire += encode_message(m, f"messages[{j}]", ctx, ctx.same, media)
    if media:
        last = f"messages[{len(req.messages) - 1}].content"
        wire.append({"role": "user", "content": encode_parts(media, None, last, ctx)})
    out["messages"] = wire


# ---------------------------------------------------------------- finish rule
# (finish_reasons, enum_defaults, finish_rule): one rule for responses and streams
FINISH_DECODE: dict[str, str] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "content_filter": "content_filter",
    "function_call": "tool_calls",
}  # raw -> canonical reason
# canonical reason -> (wire value, lossy: it does not read back as the same reason)
_FINISH_OUT: dict[str, tuple[str, bool]] = {
    "stop": ("stop", False),
    "length": ("length", False),
    "tool_calls": ("tool_calls", False),
    "content_filter": ("content_filter", False),
    "stop_sequence": ("stop", True),
    "refusal": ("content_filter", True),
    "pause": ("stop", True),
    "error": ("stop", True),
    "other": ("stop", True),
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
    the reason's row, else "stop"."""
    if f is None:
        return ("tool_calls", False) if has_calls else ("stop", False)
    if f.raw is not None:
        back = FINISH_DECODE.get(f.raw)
        if back == f.unified or (same and back is None and f.unified == "other"):
            return f.raw, False
    return _FINISH_OUT.get(f.unified, ("stop", True))


def read_finish(holder: dict[str, Any], has_calls: bool = False) -> Finish | None:
    """The finish at choices[0].finish_reason (response_envelope)."""
    raw = holder.get("finish_reason")
    if raw is None:
        return None
    return decode_finish(raw, has_calls, "choices[0].finish_reason")


def write_finish(
    f: Finish | None, holder: dict[str, Any], ctx: Ctx, has_calls: bool = False
) -> None:
    """``f`` at choices[0].finish_reason (no finish: null); a
    value the target cannot say is reported."""
    if f is None:
        holder["finish_reason"] = None
        return
    raw = finish_wire(encode_finish, f, has_calls, ctx, "choices[0].finish_reason")
    holder["finish_reason"] = raw


# ---------------------------------------------------------------- response envelope
# top-level keys the envelope row names; the keys always written (one left out is a hint)
RESPONSE_KNOWN = frozenset({"choices", "created", "id", "model", "object", "usage"})
_ALWAYS = (
    "id",
    "object",
    "created",
    "model",
    "usage",
)


def decode_response_envelope(w: dict[str, Any], resp: Response, ctx: Ctx) -> None:
    """The usage (absent or null: None) and
    the keys an encoder always writes that the source left out (a hint)."""
    u = w.get("usage")
    resp.usage = decode_usage(u, "usage") if u is not None else None
    absent = [k for k in _ALWAYS if k not in w]
    if absent:
        resp.hints = {**(resp.hints or {}), "absent": absent}


def encode_response_envelope(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:
    """The usage (a response from another
    protocol always has one: zero counts; back to this protocol the source's own object, under
    the counts if they changed) and, back to
    this protocol, the keys the source left out left out again."""
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


_CHOICE_READ = frozenset({"finish_reason", "index", "message"})  # the choice keys rows read


def first_choice(
    w: dict[str, Any], resp: Response, hints: dict[str, Any], ctx: Ctx
) -> dict[str, Any] | None:
    """The first item of choices (None: absent or empty); the others go to ``resp.ext``
    (back to this protocol only), the item's keys no row reads to ``hints["choice_ext"]``
    (toward another protocol, those that say something are reported)."""
    items = w.get("choices")
    if not items:
        return None
    if type(items) is not list:
        items = expect_list(items, "choices")
    c0 = items[0]
    if type(c0) is not dict:
        c0 = expect_dict(c0, "choices[0]")
    if len(items) > 1:
        resp.ext = {**(resp.ext or {}), "choices": items[1:]}
    extra = {k: v for k, v in c0.items() if k not in _CHOICE_READ}
    if extra:
        hints["choice_ext"] = extra
        if not ctx.same:  # those saying something
            report_ext(said(extra), "choices[0]", ctx)
    return c0


def write_choices(choice: dict[str, Any], resp: Response, out: dict[str, Any], ctx: Ctx) -> None:
    """The encoded first choice completed (its own other keys back to this protocol, else
    the row's choice_defaults), then the other choices this protocol sent."""
    if not ctx.same:
        choice["logprobs"] = None
        out["choices"] = [choice]
        return
    choice.update((resp.hints or {}).get("choice_ext") or {})
    more = (resp.ext or {}).get("choices")
    out["choices"] = [choice, *(more if type(more) is list else [])]


RESPONSE_ID: str | None = "chatcmpl-interlingua"  # the default id (response_envelope.defaults)


# ---------------------------------------------------------------- message_response (response_envelope)
MESSAGE_PATH = "choices[0].message"  # where the assistant message sits


def decode_message_response(w: dict[str, Any], resp: Response, ctx: Ctx) -> None:
    """The assistant message at choices[0].message -> resp.parts, and the finish beside it; the
    message's form (hints) and its keys no row reads (back to the same protocol, reported now for
    any other: the target's encoder never sees them)."""
    hints: dict[str, Any] = {}  # the first choice's others and unread keys: kept, reported
    holder = first_choice(w, resp, hints, ctx)
    if holder is None:
        raise InvalidInput("no choices", path="choices")
    msg = decode_message(expect_dict(holder.get("message"), MESSAGE_PATH), MESSAGE_PATH, ctx)
    resp.parts = msg.parts
    resp.finish = read_finish(holder)
    hints["message_hints"] = msg.hints or {}  # decoded: its form is known
    if msg.ext:  # e.g. Cohere citations
        hints["message_ext"] = msg.ext
        report_ext(said(msg.ext), MESSAGE_PATH, ctx)
    resp.hints = hints


def encode_message_response(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:
    """resp.parts as the assistant message at choices[0].message, the finish beside it; its text
    content one string unless the source's own form is kept."""
    hints = resp.hints or {}
    parts = resp.parts
    ext = hints.get("message_ext") if ctx.same else None
    msg = Message(role="assistant", parts=parts, ext=ext, hints=hints.get("message_hints"))
    m = encode_message(msg, MESSAGE_PATH, ctx, True)[0]
    if not ctx.same or hints.get("message_hints") is None:  # not the source's own form
        content = m.get("content")
        if type(content) is list:  # text blocks join (what they could not carry was reported)
            texts = [b.get("text") for b in content if type(b) is dict and b.get("type") == "text"]
            if len(texts) == len(content):
                m["content"] = "".join(t for t in texts if type(t) is str)
    has_calls = any(type(p) is ToolCallPart for p in parts)  # says how an unfinished one ended
    choice: dict[str, Any] = {"index": 0, "message": m}
    write_finish(resp.finish, choice, ctx, has_calls)
    write_choices(choice, resp, out, ctx)


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
    decode_messages(w, req, ctx)
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
    out: dict[str, Any] = {}
    encode_request_fields(req, out, ctx)
    if req.model is not None:
        out["model"] = req.model
    encode_messages(req, out, ctx)
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
    decode_message_response(w, resp, ctx)
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
    encode_message_response(resp, out, ctx)
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
    "decode_audio",
    "encode_audio",
    "decode_refusal",
    "encode_refusal",
    "decode_tool_call",
    "encode_tool_call",
    "decode_tool_result",
    "encode_tool_result",
]
