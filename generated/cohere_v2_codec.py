# Generated from spec/protocols/cohere_v2.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Cohere v2 Chat codec: rows of spec/protocols/cohere_v2.yaml as straight-line code."""

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
from interlingua.transforms.envelopes import fold_for_client, unwrap_request
from interlingua.transforms.messages_flat import foreign_result
from interlingua.transforms.reasoning import (
    EFFORT_BUDGETS,
    lost,
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
    new_ImagePart,
    new_ReasoningPart,
    new_RefusalPart,
    new_TextPart,
    new_Tool,
    new_ToolCallPart,
)
from .spec_types import (
    HttpAuth,
    HttpSpec,
    ProtocolFlags,
    Turns,
)

PROTOCOL = "cohere_v2"
DIALECT: str | None = None  # the spec/dialects overlay merged in, if any
FLAGS = ProtocolFlags(
    system_placement="in_messages",
    system_messages_in_turns=True,
    tool_results="tool_messages",
    tool_calls="message_field",
    parallel_flag="none",
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
    base_path="/v2",
    inbound_paths=("/v2/chat",),
    url_actions={},
    upstream_path="/chat",
    upstream_stream_path=None,
    model_prefix="",
    auth=HttpAuth(header="authorization", scheme="Bearer", query=None),
    extra_headers={},
    forward_headers=(),
    count_tokens=None,
    models=None,
    token_estimate=None,
    otel_provider=None,
    request_id_header=None,
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
    "roles": ("lossy", "no developer role (sent as system)"),
    "text": ("lossy", "citations on the message are carried only between Cohere endpoints"),
    "image": (
        "lossy",
        "image_url in requests (data URLs and URLs; a file id only is dropped); a response message holds no image",
    ),
    "file": ("unsupported", "documents are their own part, carried only between Cohere endpoints"),
    "audio": ("unsupported", ""),
    "tool_call": ("full", ""),
    "tool_result": ("full", ""),
    "tool_result_error": ("unsupported", "no is_error on tool messages"),
    "reasoning_text": ("full", "thinking content parts"),
    "reasoning_replay": ("unsupported", "no opaque reasoning state"),
    "tool_spec": ("lossy", "one strict_tools switch for all tools"),
    "hosted_tools": ("unsupported", ""),
    "tool_choice": ("lossy", "REQUIRED / NONE, auto by omission; a named tool is sent as REQUIRED"),
    "parallel_tool_calls": ("unsupported", "no switch"),
    "max_tokens": ("full", ""),
    "sampling": ("full", "p and stop_sequences"),
    "top_k": ("full", "k"),
    "seed": ("full", ""),
    "penalties": ("full", ""),
    "user": ("unsupported", ""),
    "reasoning_config": ("lossy", "thinking {type, token_budget}; efforts become budgets"),
    "structured_output": (
        "lossy",
        "response_format json_object with an optional json_schema; no name, description or strict",
    ),
    "caching": ("unsupported", "cached_tokens reported, no cache hints"),
    "usage": ("lossy", "tokens and cached_tokens; no cache-write or reasoning count"),
    "finish_reason": (
        "lossy",
        "content_filter / refusal / pause become COMPLETE; TIMEOUT reads as error",
    ),
    "errors": ("lossy", "{message, id}: the type comes from the HTTP status"),
    "stream_text": ("lossy", "citation events are counted, not carried"),
    "stream_reasoning": ("lossy", "thinking text, no opaque state"),
    "stream_tool_calls": ("full", ""),
    "stream_usage": ("full", "on message-end"),
    "stream_error": (
        "lossy",
        "an error message on message-end (finish_reason ERROR); no type or status",
    ),
    "extensions": (
        "lossy",
        "fields with no canonical home (seed, penalties, documents, citations) go back only to this protocol",
    ),
    "native_parts": ("lossy", "document parts carried only between Cohere endpoints"),
}

# ---------------------------------------------------------------- enum tables (unified <-> raw)
# (an enum_defaults value is written into the compiled rule that falls back on it)
TOOL_CHOICE_DECODE: dict[str, str] = {"REQUIRED": "required", "NONE": "none"}
TOOL_CHOICE_ENCODE: dict[str, str] = {"required": "REQUIRED", "none": "NONE"}
ROLE_DECODE: dict[str, str] = {
    "system": "system",
    "user": "user",
    "assistant": "assistant",
    "tool": "tool",
}
ROLE_ENCODE: dict[str, str] = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "assistant": "assistant",
    "tool": "tool",
}
ERROR_DECODE: dict[str, str] = {
    "bad_request": "invalid_request",
    "unauthorized": "authentication",
    "forbidden": "permission",
    "not_found": "not_found",
    "unprocessable_entity": "invalid_request",
    "too_many_requests": "rate_limit",
    "invalid_token": "invalid_request",
    "client_closed_request": "api_error",
    "internal_server_error": "api_error",
    "not_implemented": "api_error",
    "service_unavailable": "overloaded",
    "gateway_timeout": "timeout",
}
ERROR_ENCODE: dict[str, str] = {
    "invalid_request": "bad_request",
    "authentication": "unauthorized",
    "permission": "forbidden",
    "not_found": "not_found",
    "request_too_large": "bad_request",
    "rate_limit": "too_many_requests",
    "api_error": "internal_server_error",
    "overloaded": "service_unavailable",
    "timeout": "gateway_timeout",
    "bad_gateway": "internal_server_error",
}
ERROR_STATUS: dict[str, int] = {
    "invalid_request": 400,
    "authentication": 401,
    "permission": 403,
    "not_found": 404,
    "request_too_large": 400,
    "rate_limit": 429,
    "api_error": 500,
    "overloaded": 503,
    "timeout": 504,
    "bad_gateway": 502,
}


def response_defaults() -> dict[str, Any]:
    """response_envelope.defaults, a fresh copy each call (runtime/transforms/response_envelope)."""
    return {"id": "interlingua"}


# owner -> how its opaque reasoning state reaches this protocol's clients (transforms/envelopes)
CARRIER: dict[str | None, str] = {"gemini": "ids", "cohere_v2": "own"}
# wire item id prefixes by kind (stream.encode.ids), for responses and streams alike
# (responses_item_list.ItemIds)
ITEM_ID_PREFIXES: dict[str, str] = {}
# a call sent without an id gets ilg_<random> (stream.missing_call_id: random), in a response
# (the parts walk's CallIds, part_walk.call_ids) as in a stream; else a numbered one
RANDOM_CALL_IDS = False


# the reason a loss of each feature the encoders report gives (spec: support), one constant per
# feature: a dialect whose support rows leave it as it is shares it and the code that uses it
_WHY_AUDIO = "cohere_v2 unsupported"
_WHY_CACHING = "cohere_v2 unsupported: cached_tokens reported, no cache hints"
_WHY_EXTENSIONS = "cohere_v2 lossy: fields with no canonical home (seed, penalties, documents, citations) go back only to this protocol"
_WHY_FILE = (
    "cohere_v2 unsupported: documents are their own part, carried only between Cohere endpoints"
)
_WHY_FINISH_REASON = (
    "cohere_v2 lossy: content_filter / refusal / pause become COMPLETE; TIMEOUT reads as error"
)
_WHY_IMAGE = "cohere_v2 lossy: image_url in requests (data URLs and URLs; a file id only is dropped); a response message holds no image"
_WHY_REASONING_REPLAY = "cohere_v2 unsupported: no opaque reasoning state"
_WHY_TEXT = "cohere_v2 lossy: citations on the message are carried only between Cohere endpoints"
_WHY_TOOL_CALL = "cohere_v2 full"
_WHY_TOOL_RESULT = "cohere_v2 full"
_WHY_TOOL_RESULT_ERROR = "cohere_v2 unsupported: no is_error on tool messages"
_WHY_USER = "cohere_v2 unsupported"
_WHY_PART: dict[str, str] = {  # by feature, for the part types with no encoder
    "audio": _WHY_AUDIO,
    "file": _WHY_FILE,
    "tool_call": _WHY_TOOL_CALL,
    "tool_result": _WHY_TOOL_RESULT,
}


# ---------------------------------------------------------------- tool_choice (tool_choice_rule)
# top-level request keys the rule reads: the choice, a top-level parallel switch, a strict switch
TOOL_CHOICE_KEYS: frozenset[str] = frozenset({"strict_tools", "tool_choice"})


def decode_tool_choice(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    if w.get("strict_tools") is not None:
        strict = expect_bool(w["strict_tools"], "strict_tools")
        for t in req.tools:
            t.strict = strict
    choice = w.get("tool_choice")
    if choice is None:
        return  # absent: the protocol's default (auto), as canonical None says
    mode = TOOL_CHOICE_DECODE.get(choice) if type(choice) is str else None
    if mode is None:
        raise InvalidInput(
            f"unknown tool_choice {brief(choice)} (expected one of NONE, REQUIRED)",
            path="tool_choice",
        )
    req.tool_choice = ToolChoice(mode=mode)


def encode_tool_choice(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    flags = [t.strict for t in req.tools if t.kind == "function"]
    if any(s is not None for s in flags):  # one switch for every tool: on when all are strict
        on = out["strict_tools"] = all(flags)
        if any(s is not on for s in flags):
            ctx.loss(
                "strict_tools",
                f"per-tool strict flags sent as strict_tools: {on}",
                f"{ctx.target} has one strict switch for all tools",
                "tool_spec",
            )
    tc = req.tool_choice
    if req.parallel_tool_calls is False:
        ctx.loss(
            "parallel_tool_calls",
            "parallel_tool_calls: false dropped",
            f"{ctx.target} has no switch for parallel tool calls",
            "parallel_tool_calls",
        )
    if tc is None:
        return
    mode = tc.mode
    if mode == "tool":
        mode = "required"
        ctx.loss(
            "tool_choice",
            f"tool_choice naming {brief(tc.name)} sent as {TOOL_CHOICE_ENCODE[mode]!r}",
            f"{ctx.target} cannot force one named tool",
            "tool_choice",
        )
    if mode == "auto":
        return  # written by leaving the field out
    wire = TOOL_CHOICE_ENCODE[mode]
    out["tool_choice"] = wire


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


_KNOWN_REFUSAL_2 = frozenset({"text", "type"})
_NESTED_REFUSAL_2: dict[str, frozenset[str]] = {}


def _dec_refusal_2(w: dict[str, Any], path: str, ctx: Ctx) -> RefusalPart:
    v_text = w.get("text")
    if v_text is None:
        raise InvalidInput("missing required field", path=path + ".text")
    if type(v_text) is not str:
        v_text = expect_str(v_text, path + ".text")
    return new_RefusalPart(
        text=v_text,
        ext=None if _KNOWN_REFUSAL_2.issuperset(w) else split_ext(w, _KNOWN_REFUSAL_2),
    )


def _enc_refusal_2(p: RefusalPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "text"}
    ctx.loss(path, "refusal sent as a text block", _WHY_TEXT, "text")

    out["text"] = p.text
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_refusal = _dec_refusal_2  # the only row: no dispatch call
encode_refusal = _enc_refusal_2  # the only row: no dispatch call


_KNOWN_REASONING_3 = frozenset({"thinking", "type"})
_NESTED_REASONING_3: dict[str, frozenset[str]] = {}


def _dec_reasoning_3(w: dict[str, Any], path: str, ctx: Ctx) -> ReasoningPart:
    v_text = w.get("thinking")
    if v_text is None:
        raise InvalidInput("missing required field", path=path + ".thinking")
    if type(v_text) is not str:
        v_text = expect_str(v_text, path + ".thinking")
    return new_ReasoningPart(
        text=v_text,
        ext=None if _KNOWN_REASONING_3.issuperset(w) else split_ext(w, _KNOWN_REASONING_3),
    )


def _enc_reasoning_3(p: ReasoningPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "thinking"}

    out["thinking"] = p.text
    if p.signature is not None:
        ctx.loss(
            path + ".signature", "signature dropped", _WHY_REASONING_REPLAY, "reasoning_replay"
        )
    if p.redacted is not None:
        ctx.loss(path + ".redacted", "redacted dropped", _WHY_REASONING_REPLAY, "reasoning_replay")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_reasoning = _dec_reasoning_3  # the only row: no dispatch call


def encode_reasoning(p: ReasoningPart, path: str, ctx: Ctx) -> dict[str, Any] | None:
    if not p.text:  # no opaque state here: reasoning without text cannot travel
        ctx.loss(
            path,
            "reasoning dropped",
            "it has no text and cohere_v2 no opaque reasoning state",
            "reasoning_replay",
        )
        return None
    return _enc_reasoning_3(p, path, ctx)


_KNOWN_TOOL_CALL_4 = frozenset({"function", "id", "type"})
_NESTED_TOOL_CALL_4: dict[str, frozenset[str]] = {
    "function": frozenset({"arguments", "name"}),
}


def _shape_tool_call_4(w: dict[str, Any]) -> dict[str, Any] | None:
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


def _dec_tool_call_4(w: dict[str, Any], path: str, ctx: Ctx) -> ToolCallPart:
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
        ext=split_ext(w, _KNOWN_TOOL_CALL_4, _NESTED_TOOL_CALL_4),
        hints=_shape_tool_call_4(w)
        if w.get("type") is None
        or type(w.get("function")) is not dict
        or w["function"].get("arguments") is None
        else None,
    )


def _enc_tool_call_4(p: ToolCallPart, path: str, ctx: Ctx) -> dict[str, Any]:
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


decode_tool_call = _dec_tool_call_4  # the only row: no dispatch call
encode_tool_call = _enc_tool_call_4  # the only row: no dispatch call


_KNOWN_TOOL_RESULT_5 = frozenset({"content", "role", "tool_call_id"})
_NESTED_TOOL_RESULT_5: dict[str, frozenset[str]] = {}


def _dec_tool_result_5(w: dict[str, Any], path: str, ctx: Ctx) -> ToolResultPart:
    v_call_id = w.get("tool_call_id")
    if v_call_id is None:
        raise InvalidInput("missing required field", path=path + ".tool_call_id")
    if type(v_call_id) is not str:
        v_call_id = expect_str(v_call_id, path + ".tool_call_id")
    v_content = w.get("content")
    s_content = type(v_content) is str
    if v_content is not None:
        v_content = decode_parts(v_content, path + ".content", ctx)
    return ToolResultPart(
        call_id=v_call_id,
        content=v_content,
        hints={"string": True} if s_content else None,
        ext=None if _KNOWN_TOOL_RESULT_5.issuperset(w) else split_ext(w, _KNOWN_TOOL_RESULT_5),
    )


def _enc_tool_result_5(p: ToolResultPart, path: str, ctx: Ctx) -> dict[str, Any]:
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


decode_tool_result = _dec_tool_result_5  # the only row: no dispatch call
encode_tool_result = _enc_tool_result_5  # the only row: no dispatch call


_PART_DECODERS: dict[str, Any] = {
    "text": decode_text,
    "image_url": decode_image,
    "thinking": decode_reasoning,
}
NATIVE_PARTS: frozenset[str] = frozenset(["document"])
_PART_ENCODERS: dict[type, Any] = {
    TextPart: encode_text,
    ImagePart: encode_image,
    RefusalPart: encode_refusal,
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
_KNOWN_TOOL = frozenset({"description", "name", "parameters"})
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
    return new_Tool(
        name=v_name,
        description=v_description,
        parameters=v_parameters,
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
        "k",
        "max_tokens",
        "messages",
        "model",
        "p",
        "presence_penalty",
        "response_format",
        "seed",
        "stop_sequences",
        "stream",
        "temperature",
        "thinking",
        "tools",
    }
)
REQUEST_NESTED: dict[str, frozenset[str]] = {}


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
    v_top_p = w.get("p")
    if v_top_p is not None:
        v_top_p = expect_number(v_top_p, path + ".p")
    req.top_p = v_top_p
    v_top_k = w.get("k")
    if v_top_k is not None and type(v_top_k) is not int:
        v_top_k = expect_int(v_top_k, path + ".k")
    req.top_k = v_top_k
    v_stop = w.get("stop_sequences")
    if type(v_stop) is str:
        kept.setdefault("string", {})["stop"] = True
    if v_stop is not None:
        v_stop = expect_str_list(v_stop, path + ".stop_sequences")
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
        out["p"] = req.top_p

    if req.top_k is not None:
        out["k"] = req.top_k

    if req.stop is not None:
        out["stop_sequences"] = req.stop
    if req.stop and len(req.stop) == 1 and "stop" in kept.get("string", ()):
        out["stop_sequences"] = req.stop[0]  # it came as one string

    if req.seed is not None:
        out["seed"] = req.seed

    if req.presence_penalty is not None:
        out["presence_penalty"] = req.presence_penalty

    if req.frequency_penalty is not None:
        out["frequency_penalty"] = req.frequency_penalty

    if req.stream is not None:
        out["stream"] = req.stream
    if req.user is not None:
        ctx.loss("user", "user dropped", _WHY_USER, "user")
    if req.metadata is not None:
        ctx.loss("metadata", "metadata dropped", _WHY_EXTENSIONS, "extensions")


RESPONSE_ROW_KEYS = frozenset({"id"})


def decode_response_fields(w: dict[str, Any], resp: Response, ctx: Ctx) -> None:
    path = ""
    v_id = w.get("id")
    if v_id is not None and type(v_id) is not str:
        v_id = expect_str(v_id, path + ".id")
    resp.id = v_id


def encode_response_fields(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:

    if resp.id is not None:
        out["id"] = resp.id
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
    v_input = w.get("tokens")
    if v_input is not None:
        if type(v_input) is not dict:
            v_input = expect_dict(v_input, path + ".tokens")
        v_input = v_input.get("input_tokens")
    if v_input is not None and type(v_input) is not int:
        v_input = expect_int(v_input, path + ".tokens.input_tokens")
    v_input_cache_read = w.get("cached_tokens")
    if v_input_cache_read is not None and type(v_input_cache_read) is not int:
        v_input_cache_read = expect_int(v_input_cache_read, path + ".cached_tokens")
    v_output_total = w.get("tokens")
    if v_output_total is not None:
        if type(v_output_total) is not dict:
            v_output_total = expect_dict(v_output_total, path + ".tokens")
        v_output_total = v_output_total.get("output_tokens")
    if v_output_total is not None and type(v_output_total) is not int:
        v_output_total = expect_int(v_output_total, path + ".tokens.output_tokens")
    u = Usage(raw=w)
    u.input_total = v_input or 0
    u.input_cache_read = v_input_cache_read or 0
    u.output_total = v_output_total or 0
    return u


def encode_usage(u: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    out.setdefault("tokens", {})["input_tokens"] = u.input_total
    out["cached_tokens"] = u.input_cache_read
    out.setdefault("tokens", {})["output_tokens"] = u.output_total
    return out


# ---------------------------------------------------------------- snake_case keys
def decode_snake_case(w: dict[str, Any], req: Request) -> dict[str, Any]:
    """The body with the keys the API also takes in snake_case in camelCase (snake_case_keys)."""
    return w


def encode_snake_case(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """Back to this protocol, the keys that came snake_case written so again."""


# ---------------------------------------------------------------- errors (spec: error_shape)
ERROR_RAW_DEFAULT = "internal_server_error"  # the raw type of an error with no row
# the type of a status: its first row's, else the canonical one's
ERROR_BY_STATUS: dict[int, str] = {
    400: "invalid_request",
    401: "authentication",
    403: "permission",
    404: "not_found",
    422: "invalid_request",
    429: "rate_limit",
    498: "invalid_request",
    499: "api_error",
    500: "api_error",
    501: "api_error",
    503: "overloaded",
    504: "timeout",
    502: "bad_gateway",
    413: "request_too_large",
    529: "overloaded",
}
# (status, type) of a row whose status is not the canonical one of the type -> the canonical one
ERROR_CANONICAL_STATUS: dict[tuple[int, str], int] = {
    (422, "invalid_request"): 400,
    (498, "invalid_request"): 400,
    (499, "api_error"): 500,
    (501, "api_error"): 500,
    (503, "overloaded"): 529,
}


def error_type(raw: Any, status: int | None, carried: int | None) -> tuple[str, int]:
    """(canonical type, canonical status) of an error of raw type ``raw`` (None: it has none)
    and HTTP ``status``; None: an in-band error, whose status is the one it ``carried``, else
    its raw type's row's. The errors rows in codegen/errors.py's order; no
    error of this protocol has a raw type: the status alone says."""
    if status is None:
        status = carried or 500
    unified = (
        ERROR_BY_STATUS.get(status)
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
    if status == 413 and unified == "request_too_large":
        return 400
    if status == 529 and unified == "overloaded":
        return 503
    return status


def read_error(e: Any, raw: Any = None) -> tuple[Any, Any, Any, Any, int | None]:
    """The error object ``e`` -> (raw type, message, code, param, the HTTP status it carries),
    where error_shape says; ``raw``: its raw type when it has none (a stream row's error_type).
    Never raises: runtime/_pipeline.error_info makes the ErrorInfo."""
    if type(e) is not dict:
        return raw, None, None, None, None
    return (raw, e.get("message"), None, None, None)


def read_error_body(body: Any) -> tuple[Any, Any, Any, Any, int | None]:
    """An HTTP error body: ``read_error`` of its error object (the body)."""
    return read_error(body)


def write_error(err: Any, raw: str, status: int, inband: bool = False) -> dict[str, Any]:
    """The error body of ``err`` (ErrorInfo; ``raw``: its raw type, ``status``: its HTTP status,
    ``inband``: the event of a stream's error)."""
    return {"message": err.message}


# ---------------------------------------------------------------- request settings (response_format, reasoning)


_FORMAT_DECODE: dict[str, str] = {"text": "text", "json_object": "json_object"}
_FORMAT_ENCODE: dict[str, str] = {
    "text": "text",
    "json_object": "json_object",
    "json_schema": "json_object",
}
_FORMAT_KEEP0 = frozenset({"json_schema", "type"})


def decode_response_format(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """response_format rows: the wire format -> req.response_format."""
    if "response_format" not in w:
        return
    raw = dig(w, ("response_format", "type"))
    schema = dig(w, ("response_format", "json_schema"))
    hints: dict[str, Any] = {}
    if (obj := w.get("response_format")) is not None:
        rest = kept_keys(expect_dict(obj, "response_format"), _FORMAT_KEEP0)
        hints["rest response_format"] = rest
        if not ctx.same:
            keys_lost(rest, "response_format", ctx, "structured_output")
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
        rf.schema = expect_dict(schema, "response_format.json_schema")
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


def _format_out(rf: ResponseFormat, out: dict[str, Any], ctx: Ctx) -> None:
    wire = _FORMAT_ENCODE.get(rf.type)
    if wire is None or (rf.type == "json_schema" and (rf.schema is None)):
        format_dropped(rf.type, wire is None, ctx)
        return
    put(out, ("response_format", "type"), wire)
    if rf.type != "json_schema":
        return
    if rf.schema is not None:
        put(out, ("response_format", "json_schema"), rf.schema)
    schema_fields_lost(rf, ("strict", "name", "description"), ctx)


_REASONING_MODES: dict[str, str] = {
    "enabled": "enabled",
    "disabled": "disabled",
    "adaptive": "enabled",
}
_REASONING_MODE_DECODE: dict[str, str] = {"enabled": "enabled", "disabled": "disabled"}
_REASONING_EXT0 = frozenset({"token_budget", "type"})


def decode_reasoning_config(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """reasoning rows: the wire configuration -> req.reasoning."""
    if "thinking" not in w:
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
    if o0 is not None:
        mode = expect_str(o0.get("type"), "thinking.type")
        r.mode = _REASONING_MODE_DECODE.get(mode)
        if r.mode is None:
            raise InvalidInput(f"unknown thinking type {brief(mode)}", path="thinking.type")
    if o0 is not None and (v := o0.get("token_budget")) is not None:
        r.budget_tokens = expect_int(v, "thinking.token_budget")
    if r.mode or r.budget_tokens is not None or r.ext:
        req.reasoning = r
    add_hints(req, hints)


def encode_reasoning_config(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """reasoning rows: req.reasoning -> the wire configuration."""
    r = req.reasoning
    mode: str | None = None
    budget: int | None = None
    if ctx.same:  # as the client sent them (also a spelled-out default alone)
        if r is None and not req.hints:
            return
        r = r or ReasoningConfig()
        hints = req.hints or {}
        mode = _REASONING_MODES.get(r.mode) if r.mode is not None else None
        if r.budget_tokens is not None:
            budget = r.budget_tokens
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
            budget = r.budget_tokens
            if budget is None:  # an effort it cannot say (unsaid): its budget
                unsaid = r.effort is not None
                if unsaid:
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
                else:
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
    if mode is not None:
        put(out, ("thinking", "type"), mode)
    if budget is not None:
        put(out, ("thinking", "token_budget"), budget)
    if not ctx.same:
        for obj, keys in (r.ext or {}).items():  # the source's: nowhere to go
            keys_lost(keys, obj, ctx, "reasoning_config")
        return
    ext = r.ext or {}
    if rest := ext.get("thinking"):
        keep_keys(obj_at(out, ("thinking",)), rest)
    if "thinking" in hints.get("reasoning_empty", ()):
        obj_at(out, ("thinking",))


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
        plan = m.get("tool_plan")
        if plan is not None:  # the text written before the calls
            known.append("tool_plan")
            parts.append(TextPart(text=expect_str(plan, path + ".tool_plan")))
            hints = {**(hints or {}), "plan": True}
        calls = m.get("tool_calls")
        if calls is not None:
            known.append("tool_calls")
            for k, c in enumerate(expect_list(calls, path + ".tool_calls")):
                cpath = f"{path}.tool_calls[{k}]"
                parts.append(decode_tool_call(expect_dict(c, cpath), cpath, ctx))
            if not calls:
                hints = {**(hints or {}), "tool_calls_empty": True}
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
    hints = m.hints or {}
    for p in m.parts:
        t = type(p)
        if t is ToolCallPart:
            calls.append(encode_tool_call(p, f"{path}.tool_calls[{len(calls)}]", ctx))  # type: ignore[arg-type]
        else:
            content.append(p)
    if calls and content and type(content[-1]) is TextPart:
        # the text before the calls: the source's own plan (the last text part), or, from
        # another protocol, the text of a turn with calls and reasoning
        if ctx.same and hints.get("plan"):
            msg["tool_plan"] = content.pop().text  # type: ignore[union-attr]
        elif not ctx.same and all(type(p) in (TextPart, ReasoningPart) for p in content):
            msg["tool_plan"] = "".join(p.text for p in content if type(p) is TextPart)  # type: ignore[union-attr]
            content = [p for p in content if type(p) is ReasoningPart]
    if content:  # the message itself unless calls, reasoning or a refusal were taken out
        shown = (
            m
            if len(content) == len(m.parts)
            else Message(role=m.role, parts=content, hints=m.hints)
        )
        msg["content"] = text_content(shown, encode_parts, TEXT_BLOCK_KEYS, path + ".content", ctx)
    elif (ctx.same and hints.get("absent")) or "tool_plan" in msg:
        pass
    elif ctx.same and hints.get("empty_list"):
        msg["content"] = []
    elif m.role == "assistant" or hints.get("null"):
        msg["content"] = None
    else:
        msg["content"] = ""
    if calls or (ctx.same and hints.get("tool_calls_empty")):
        msg["tool_calls"] = calls
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
    "COMPLETE": "stop",
    "STOP_SEQUENCE": "stop_sequence",
    "MAX_TOKENS": "length",
    "TOOL_CALL": "tool_calls",
    "ERROR": "error",
    "TIMEOUT": "error",
}  # raw -> canonical reason
# canonical reason -> (wire value, lossy: it does not read back as the same reason)
_FINISH_OUT: dict[str, tuple[str, bool]] = {
    "stop": ("COMPLETE", False),
    "length": ("MAX_TOKENS", False),
    "tool_calls": ("TOOL_CALL", False),
    "content_filter": ("COMPLETE", True),
    "stop_sequence": ("STOP_SEQUENCE", False),
    "refusal": ("COMPLETE", True),
    "pause": ("COMPLETE", True),
    "error": ("ERROR", False),
    "other": ("COMPLETE", True),
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
    the reason's row, else "COMPLETE"."""
    if f is None:
        return ("TOOL_CALL", False) if has_calls else ("COMPLETE", False)
    if f.raw is not None:
        back = FINISH_DECODE.get(f.raw)
        if back == f.unified or (same and back is None and f.unified == "other"):
            return f.raw, False
    return _FINISH_OUT.get(f.unified, ("COMPLETE", True))


def read_finish(holder: dict[str, Any], has_calls: bool = False) -> Finish | None:
    """The finish at finish_reason (response_envelope)."""
    raw = holder.get("finish_reason")
    if raw is None:
        return None
    return decode_finish(raw, has_calls, "finish_reason")


def write_finish(
    f: Finish | None, holder: dict[str, Any], ctx: Ctx, has_calls: bool = False
) -> None:
    """``f`` at finish_reason; a
    value the target cannot say is reported."""
    raw = finish_wire(encode_finish, f, has_calls, ctx, "finish_reason")
    holder["finish_reason"] = raw


# ---------------------------------------------------------------- response envelope
# top-level keys the envelope row names; the keys always written (one left out is a hint)
RESPONSE_KNOWN = frozenset({"finish_reason", "id", "message", "usage"})
_ALWAYS = (
    "id",
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


RESPONSE_ID: str | None = "interlingua"  # the default id (response_envelope.defaults)


# ---------------------------------------------------------------- message_response (response_envelope)
MESSAGE_PATH = "message"  # where the assistant message sits


def decode_message_response(w: dict[str, Any], resp: Response, ctx: Ctx) -> None:
    """The assistant message at message -> resp.parts, and the finish beside it; the
    message's form (hints) and its keys no row reads (back to the same protocol, reported now for
    any other: the target's encoder never sees them)."""
    hints: dict[str, Any] = {}  # the first choice's others and unread keys: kept, reported
    holder = w
    msg = decode_message(expect_dict(holder.get("message"), MESSAGE_PATH), MESSAGE_PATH, ctx)
    resp.parts = msg.parts
    resp.finish = read_finish(holder)
    hints["message_hints"] = msg.hints or {}  # decoded: its form is known
    if msg.ext:  # e.g. Cohere citations
        hints["message_ext"] = msg.ext
        report_ext(said(msg.ext), MESSAGE_PATH, ctx)
    resp.hints = hints


def message_parts(parts: list[Part], ctx: Ctx) -> list[Part]:
    """The parts a response message holds (content_parts: text, reasoning; tool
    calls beside them); the others are reported."""
    out = []
    for i, p in enumerate(parts):
        if type(p) in (
            TextPart,
            ReasoningPart,
            ToolCallPart,
        ):
            out.append(p)
        else:
            why = f"a {ctx.target} response message holds only text, reasoning"
            ctx.loss(f"{MESSAGE_PATH}.content[{i}]", f"{p.PART} part dropped", why, p.FEATURE)
    return out


def encode_message_response(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:
    """resp.parts as the assistant message at message, the finish beside it; its text
    content a list of text parts unless the source's own form is kept (parts it cannot
    hold: reported)."""
    hints = resp.hints or {}
    parts = message_parts(resp.parts, ctx)
    ext = hints.get("message_ext") if ctx.same else None
    msg = Message(role="assistant", parts=parts, ext=ext, hints=hints.get("message_hints"))
    m = encode_message(msg, MESSAGE_PATH, ctx, True)[0]
    if not ctx.same or hints.get("message_hints") is None:  # not the source's own form
        content = m.get("content")
        if type(content) is str:  # through its text part row
            text: list[Part] = [TextPart(text=content)] if content else []
            m["content"] = encode_parts(text, None, MESSAGE_PATH, ctx)
    has_calls = any(type(p) is ToolCallPart for p in parts)  # says how an unfinished one ended
    out["message"] = m
    write_finish(resp.finish, out, ctx, has_calls)


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
    "decode_refusal",
    "encode_refusal",
    "decode_reasoning",
    "encode_reasoning",
    "decode_tool_call",
    "encode_tool_call",
    "decode_tool_result",
    "encode_tool_result",
]
