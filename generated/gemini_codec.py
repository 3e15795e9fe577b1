# Generated from spec/protocols/gemini.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Google Gemini generateContent codec: rows of spec/protocols/gemini.yaml as straight-line code."""

from __future__ import annotations

import base64
import sys
from dataclasses import replace
from typing import Any

import orjson
from interlingua._codec_support import (
    arguments_object,
    camel_key,
    deep_merge,
    dig,
    drop_ext,
    expect_whole_number,
    report_ext,
    said,
    snake_key,
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
from interlingua.transforms._util import content_parts, role_of
from interlingua.transforms.call_id_envelope import attach_part, is_attach, unwrap_id
from interlingua.transforms.call_ids import CallIds, result_name, wire_id
from interlingua.transforms.envelopes import fold_for_client, unwrap_request
from interlingua.transforms.gemini_response import GEMINI_RESPONSE
from interlingua.transforms.reasoning import (
    lost,
    thinking_budget,
    thinking_off,
)
from interlingua.transforms.structured import (
    add_hints,
    format_dropped,
    keep_keys,
    kept_keys,
    openapi_to_json_schema,
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
    ResultWrap,
    TokenEstimate,
    Turns,
)

PROTOCOL = "gemini"
DIALECT: str | None = None  # the spec/dialects overlay merged in, if any
FLAGS = ProtocolFlags(
    system_placement="top_level_field",
    system_messages_in_turns=False,
    tool_results="user_turn_blocks",
    tool_calls="content_blocks",
    parallel_flag="none",
    max_tokens_required=False,
    max_tokens_default=None,
    usage_input_includes_cache=True,
    sse_event_names=False,
    stream_usage_opt_in=None,
    usage_output_includes_reasoning=False,
    turns=Turns(
        role_default="user",
        results_order="in_place",
        result_wrap=ResultWrap(text="output", error="error", read=("result",)),
        key="contents",
        parts_key="parts",
        system_key="systemInstruction",
        one_object=True,
        system_form="content",
        keep_turn_keys=True,
    ),
)
# how the protocol is called over HTTP (spec: http); the gateway reads it
HTTP = HttpSpec(
    base_path="/v1beta",
    inbound_paths=(
        "/v1beta/models/{target}",
        "/v1/models/{target}",
        "/models/{target}",
    ),
    url_actions={
        "generateContent": "generate",
        "streamGenerateContent": "stream",
        "countTokens": "count_tokens",
    },
    upstream_path="/models/{model}:generateContent",
    upstream_stream_path="/models/{model}:streamGenerateContent?alt=sse",
    model_prefix="models/",
    auth=HttpAuth(header="x-goog-api-key", scheme=None, query="key"),
    extra_headers={},
    forward_headers=(),
    count_tokens=CountTokens(
        mode="native",
        inbound_paths=(),
        upstream_path="/models/{model}:countTokens",
        fields=frozenset(()),
        result_field="totalTokens",
        envelope={},
        wrap="generateContentRequest",
        wrap_model="models/{model}",
    ),
    models=ModelListing(
        paths=(
            "/v1beta/models",
            "/v1/models",
            "/models",
        ),
        items_key="models",
        item={
            "name": "models/{id}",
            "displayName": "{id}",
            "supportedGenerationMethods": ["generateContent", "streamGenerateContent"],
        },
        envelope={},
        upstream_path="/models",
        upstream_query={"pageSize": "1000"},
    ),
    token_estimate=TokenEstimate(
        chars_per_token=4.0,
        image=ImageTokens(
            rule="tiles",
            divisor=750.0,
            max_edge=None,
            max_pixels=None,
            tile=768,
            per_tile=258,
            base=0,
            fit=None,
            short_side=None,
            small=384,
            small_tokens=258,
            low_detail=None,
            unknown=258,
        ),
        document_page=258,
        media=960,
    ),
    otel_provider="gcp.gemini",
    request_id_header=None,
    model_in_path=True,
)
TRANSFORMS: tuple[str, ...] = (
    "gemini_contents",
    "response_format",
    "reasoning",
    "tools",
    "gemini_response",
)
# a bare text part's keys (its parts row): a block of these alone goes back as a string
TEXT_BLOCK_KEYS: frozenset[str] = frozenset({"text"})
SUPPORT: dict[str, tuple[str, str]] = {
    "system": ("full", "systemInstruction"),
    "system_position": (
        "lossy",
        "no system role in contents: later system messages are hoisted into systemInstruction",
    ),
    "roles": ("full", "user / model; tool results are functionResponse parts in a user turn"),
    "text": ("lossy", "citations / annotations and refusal parts have no Gemini equivalent"),
    "image": (
        "lossy",
        "inlineData and fileData (URIs); no detail; other providers\u0027 file ids dropped",
    ),
    "file": (
        "lossy",
        "inlineData and fileData with any mime type; other providers\u0027 file ids dropped",
    ),
    "audio": ("lossy", "inlineData audio/* decodes as a file part"),
    "tool_call": ("full", "ids synthesised when absent (before Gemini 3)"),
    "tool_result": (
        "lossy",
        "functionResponse mapped by id, else by name and order; its response is JSON: images / files in results dropped",
    ),
    "tool_result_error": ("lossy", "is_error becomes response {error: ...}"),
    "reasoning_text": (
        "lossy",
        "thought parts, for any protocol\u0027s reasoning in responses and streams; in a request, reasoning without a thoughtSignature is not sent back",
    ),
    "reasoning_replay": (
        "lossy",
        "thoughtSignature replays only to Gemini; through other clients it rides in the tool call id envelope (docs/gemini.md); Anthropic thinking reaches a Gemini client in an ilgenv1 envelope in the next part\u0027s thoughtSignature",
    ),
    "tool_spec": (
        "lossy",
        "no strict flag; parametersJsonSchema holds the JSON Schema (sent with the OpenAPI parameters too, it wins: they are dropped)",
    ),
    "hosted_tools": (
        "lossy",
        "googleSearch, codeExecution, urlContext ... carried only between Gemini endpoints",
    ),
    "tool_choice": (
        "lossy",
        "functionCallingConfig AUTO / ANY / NONE, allowedFunctionNames; no hosted tool choices",
    ),
    "parallel_tool_calls": ("unsupported", "no switch"),
    "max_tokens": ("full", "generationConfig.maxOutputTokens"),
    "sampling": ("full", ""),
    "top_k": ("full", ""),
    "seed": ("full", "generationConfig.seed"),
    "penalties": ("full", "generationConfig.presencePenalty / frequencyPenalty"),
    "user": ("unsupported", ""),
    "reasoning_config": (
        "lossy",
        "thinkingConfig thinkingBudget / thinkingLevel / includeThoughts",
    ),
    "structured_output": (
        "lossy",
        "responseMimeType + responseJsonSchema (responseSchema accepted); no schema name / description / strict",
    ),
    "caching": ("unsupported", "implicit caching; cachedContent references ride in extensions"),
    "usage": (
        "lossy",
        "promptTokenCount includes cached tokens; thoughtsTokenCount is extra output; no cache-write count",
    ),
    "finish_reason": (
        "lossy",
        "tool calls end with STOP; SAFETY, RECITATION and the rest are content_filter (raw kept)",
    ),
    "errors": ("full", "{error: {code, message, status}}"),
    "stream_text": ("full", ""),
    "stream_reasoning": ("full", ""),
    "stream_tool_calls": (
        "lossy",
        "calls arrive whole (or as Gemini 3 partialArgs): arguments are not streamed",
    ),
    "stream_usage": ("full", "cumulative usageMetadata on chunks"),
    "stream_error": ("full", ""),
    "extensions": ("lossy", "fields with no canonical home go back only to this protocol"),
    "native_parts": (
        "lossy",
        "executableCode / codeExecutionResult / toolCall / toolResponse only between Gemini endpoints",
    ),
}

# ---------------------------------------------------------------- enum tables (unified <-> raw)
# (an enum_defaults value is written into the compiled rule that falls back on it)
TOOL_CHOICE_DECODE: dict[str, str] = {
    "AUTO": "auto",
    "NONE": "none",
    "ANY": "required",
    "VALIDATED": "auto",
    "MODE_UNSPECIFIED": "auto",
}
TOOL_CHOICE_ENCODE: dict[str, str] = {
    "auto": "AUTO",
    "none": "NONE",
    "required": "ANY",
    "tool": "ANY",
}
ROLE_DECODE: dict[str, str] = {"user": "user", "model": "assistant", "function": "tool"}
ROLE_ENCODE: dict[str, str] = {"user": "user", "assistant": "model", "tool": "user"}
ERROR_DECODE: dict[str, str] = {
    "INVALID_ARGUMENT": "invalid_request",
    "FAILED_PRECONDITION": "invalid_request",
    "OUT_OF_RANGE": "invalid_request",
    "UNAUTHENTICATED": "authentication",
    "PERMISSION_DENIED": "permission",
    "NOT_FOUND": "not_found",
    "RESOURCE_EXHAUSTED": "rate_limit",
    "INTERNAL": "api_error",
    "UNKNOWN": "api_error",
    "DATA_LOSS": "api_error",
    "CANCELLED": "api_error",
    "UNAVAILABLE": "overloaded",
    "DEADLINE_EXCEEDED": "timeout",
}
ERROR_ENCODE: dict[str, str] = {
    "invalid_request": "INVALID_ARGUMENT",
    "authentication": "UNAUTHENTICATED",
    "permission": "PERMISSION_DENIED",
    "not_found": "NOT_FOUND",
    "request_too_large": "INVALID_ARGUMENT",
    "rate_limit": "RESOURCE_EXHAUSTED",
    "api_error": "INTERNAL",
    "overloaded": "UNAVAILABLE",
    "timeout": "DEADLINE_EXCEEDED",
    "bad_gateway": "UNAVAILABLE",
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
    return {"modelVersion": "unknown", "responseId": "interlingua"}


# owner -> how its opaque reasoning state reaches this protocol's clients (transforms/envelopes)
CARRIER: dict[str | None, str] = {"anthropic_messages": "parts", "gemini": "own"}
# wire item id prefixes by kind (stream.encode.ids), for responses and streams alike
# (responses_item_list.ItemIds)
ITEM_ID_PREFIXES: dict[str, str] = {}
# a call sent without an id gets ilg_<random> (stream.missing_call_id: random), in a response
# (the parts walk's CallIds, part_walk.call_ids) as in a stream; else a numbered one
RANDOM_CALL_IDS = True


# the reason a loss of each feature the encoders report gives (spec: support), one constant per
# feature: a dialect whose support rows leave it as it is shares it and the code that uses it
_WHY_AUDIO = "gemini lossy: inlineData audio/* decodes as a file part"
_WHY_CACHING = "gemini unsupported: implicit caching; cachedContent references ride in extensions"
_WHY_EXTENSIONS = "gemini lossy: fields with no canonical home go back only to this protocol"
_WHY_FILE = (
    "gemini lossy: inlineData and fileData with any mime type; other providers' file ids dropped"
)
_WHY_FINISH_REASON = "gemini lossy: tool calls end with STOP; SAFETY, RECITATION and the rest are content_filter (raw kept)"
_WHY_IMAGE = (
    "gemini lossy: inlineData and fileData (URIs); no detail; other providers' file ids dropped"
)
_WHY_REASONING_REPLAY = "gemini lossy: thoughtSignature replays only to Gemini; through other clients it rides in the tool call id envelope (docs/gemini.md); Anthropic thinking reaches a Gemini client in an ilgenv1 envelope in the next part's thoughtSignature"
_WHY_TEXT = "gemini lossy: citations / annotations and refusal parts have no Gemini equivalent"
_WHY_TOOL_RESULT = "gemini lossy: functionResponse mapped by id, else by name and order; its response is JSON: images / files in results dropped"
_WHY_TOOL_SPEC = "gemini lossy: no strict flag; parametersJsonSchema holds the JSON Schema (sent with the OpenAPI parameters too, it wins: they are dropped)"
_WHY_USER = "gemini unsupported"
_WHY_PART: dict[str, str] = {  # by feature, for the part types with no encoder
    "audio": _WHY_AUDIO,
    "text": _WHY_TEXT,
}


# ---------------------------------------------------------------- tool_choice (tool_choice_rule)
# top-level request keys the rule reads: the choice, a top-level parallel switch, a strict switch
TOOL_CHOICE_KEYS: frozenset[str] = frozenset({"toolConfig"})


def decode_tool_choice(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    parent = w.get("toolConfig")
    if parent is None:
        return
    # the choice's parent goes back whole to the protocol; its other keys are lost elsewhere
    req.hints = {**(req.hints or {}), "tool_choice_parent": expect_dict(parent, "toolConfig")}
    for k in parent if not ctx.same else ():
        if k != "functionCallingConfig":
            ctx.loss(
                f"toolConfig.{k}", f"{k} dropped", f"{ctx.target} has no equivalent", "extensions"
            )
    choice = parent.get("functionCallingConfig")
    if choice is None:
        return  # absent: the protocol's default (auto), as canonical None says
    choice = expect_dict(choice, "toolConfig.functionCallingConfig")
    raw = choice.get("mode")
    mode = TOOL_CHOICE_DECODE.get(raw) if type(raw) is str else None
    if mode is None:
        if raw is not None and type(raw) is not str:
            raise InvalidInput(
                f"unknown tool_choice {brief(raw)} (expected one of ANY, AUTO, MODE_UNSPECIFIED, NONE, VALIDATED)",
                path="toolConfig.functionCallingConfig.mode",
            )
        mode = "auto"
    if raw is not None and TOOL_CHOICE_ENCODE.get(mode) != raw:  # another spelling
        req.hints = {**(req.hints or {}), "tool_choice_raw": raw}
        if not ctx.same:
            ctx.loss(
                "toolConfig.functionCallingConfig.mode",
                f"mode {brief(raw)} sent as {mode!r}",
                f"{ctx.target} has no such mode",
                "tool_choice",
            )
    tc = req.tool_choice = ToolChoice(mode=mode)
    names = choice.get("allowedFunctionNames")
    names = (
        expect_str_list(names, "toolConfig.functionCallingConfig.allowedFunctionNames")
        if names is not None
        else []
    )
    if tc.mode == "required" and len(names) == 1:  # one allowed name: a named choice
        tc.mode, tc.name = "tool", names[0]
    elif names and not ctx.same:
        ctx.loss(
            "toolConfig.functionCallingConfig.allowedFunctionNames",
            f"restriction to {len(names)} functions dropped",
            f"{ctx.target} names at most one forced tool",
            "tool_choice",
        )


def encode_tool_choice(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    hints = (req.hints or {}) if ctx.same else {}
    tc = req.tool_choice
    if req.parallel_tool_calls is False:
        ctx.loss(
            "parallel_tool_calls",
            "parallel_tool_calls: false dropped",
            f"{ctx.target} has no switch for parallel tool calls",
            "parallel_tool_calls",
        )
    if hints.get("tool_choice_parent") is not None:
        out["toolConfig"] = hints["tool_choice_parent"]
        return  # the source's own object: mode and names decoded from it
    if tc is None:
        return
    mode = tc.mode
    raw = hints.get("tool_choice_raw")
    wire = (
        raw if raw is not None and TOOL_CHOICE_DECODE.get(raw) == mode else TOOL_CHOICE_ENCODE[mode]
    )
    obj: dict[str, Any] = {"mode": wire}
    if mode == "tool":
        obj["allowedFunctionNames"] = [tc.name]
    out.setdefault("toolConfig", {})["functionCallingConfig"] = obj


# ---------------------------------------------------------------- tools (tool_type, tool_entries)


def decode_tools(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """``tools`` -> req.tools (each with the item it came in: hint ``entry``), then the tool_choice rule."""
    tools = w.get("tools")
    if tools is not None:
        if type(tools) is dict:  # one item instead of the list
            tools = [tools]
            req.hints = {**(req.hints or {}), "tools_object": True}
        if not expect_list(tools, "tools"):
            req.hints = {**(req.hints or {}), "tools_empty": True}
        kept: list[Any] = []  # items, or their declaration lists, that held no tool
        for i, t in enumerate(tools):
            path = f"tools[{i}]"
            if type(t) is not dict:
                t = expect_dict(t, path)
            for key, value in t.items():
                at = f"{path}.{key}"
                kind = None if key == "functionDeclarations" else key  # a hosted tool by its key
                for j, e in enumerate(expect_list(value, at) if kind is None else [{key: value}]):
                    tool = tool_of(e, kind, f"{at}[{j}]", decode_tool, ctx)
                    tool.hints = {**(tool.hints or {}), "entry": i}  # the item it came in
                    req.tools.append(tool)
            # an item saying nothing goes back to its source only
            if not t or ("functionDeclarations" in t and not t["functionDeclarations"]):
                kept.append([i, {"functionDeclarations": []} if t else {}])
        if kept:
            req.hints = {**(req.hints or {}), "tools_kept": kept}
    decode_tool_choice(w, req, ctx)


def encode_tools(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """req.tools -> ``tools`` (hosted ones to their own protocol only), then the tool_choice rule."""
    hints = (req.hints or {}) if ctx.same else {}
    items: dict[Any, Any] = {}  # the wire items, in order, by the source's item they came in
    for i, t in enumerate(req.tools):
        path = f"tools[{i}]"
        function = t.kind == "function"
        wire = encode_tool(t, path, ctx) if function else hosted_entry(t, path, ctx)
        if wire is None:
            continue
        entry = (t.hints or {}).get("entry") if ctx.same else None
        if function:
            item = items.setdefault("functions" if entry is None else entry, {})
            item.setdefault("functionDeclarations", []).append(wire)
        else:
            items.setdefault(("hosted", i) if entry is None else entry, {}).update(wire)
    if kept := hints.get("tools_kept"):  # at their places among the source's items
        for i, raw in kept:
            items.setdefault(i, {}).update(raw)
        items = {
            k: items[k] for k in sorted(items, key=lambda k: (0, k) if type(k) is int else (1, 0))
        }
    if items or hints.get("tools_empty"):
        wire_items = list(items.values())
        one = hints.get("tools_object") and len(wire_items) == 1  # one item object, as it came
        out["tools"] = wire_items[0] if one else wire_items
    encode_tool_choice(req, out, ctx)


# ---------------------------------------------------------------- parts

_KNOWN_REASONING_0 = frozenset({"text", "thought", "thoughtSignature"})
_NESTED_REASONING_0: dict[str, frozenset[str]] = {}


def _dec_reasoning_0(w: dict[str, Any], path: str, ctx: Ctx) -> ReasoningPart:
    v_text = w.get("text")
    if v_text is not None and type(v_text) is not str:
        v_text = expect_str(v_text, path + ".text")
    v_signature = w.get("thoughtSignature")
    if v_signature is not None and type(v_signature) is not str:
        v_signature = expect_str(v_signature, path + ".thoughtSignature")
    return new_ReasoningPart(
        text=v_text if v_text is not None else "",
        signature=v_signature,
        owner=PROTOCOL,
        ext=None if _KNOWN_REASONING_0.issuperset(w) else split_ext(w, _KNOWN_REASONING_0),
    )


def _enc_reasoning_0(p: ReasoningPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {"thought": True}

    if p.text is not None:
        out["text"] = p.text

    if p.signature is not None:
        out["thoughtSignature"] = p.signature
    if p.redacted is not None:
        ctx.loss(path + ".redacted", "redacted dropped", _WHY_REASONING_REPLAY, "reasoning_replay")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_reasoning = _dec_reasoning_0  # the only row: no dispatch call


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
    return _enc_reasoning_0(p, path, ctx)


_KNOWN_TOOL_CALL_1 = frozenset({"functionCall"})
_NESTED_TOOL_CALL_1: dict[str, frozenset[str]] = {
    "functionCall": frozenset({"args", "id", "name"}),
}


def _shape_tool_call_1(w: dict[str, Any]) -> dict[str, Any] | None:
    """Which of the paths the encoder always writes came absent or null."""
    hints: dict[str, list[str]] = {}
    o = w.get("functionCall")
    if type(o) is not dict or "args" not in o:
        hints.setdefault("absent", []).append("functionCall.args")
    elif o["args"] is None:
        hints.setdefault("null", []).append("functionCall.args")
    return hints or None


def _dec_tool_call_1(w: dict[str, Any], path: str, ctx: Ctx) -> ToolCallPart:
    v_id = w.get("functionCall")
    if v_id is not None:
        if type(v_id) is not dict:
            v_id = expect_dict(v_id, path + ".functionCall")
        v_id = v_id.get("id")
    if v_id is not None and type(v_id) is not str:
        v_id = expect_str(v_id, path + ".functionCall.id")
    v_name = w.get("functionCall")
    if v_name is not None:
        if type(v_name) is not dict:
            v_name = expect_dict(v_name, path + ".functionCall")
        v_name = v_name.get("name")
    if v_name is None:
        raise InvalidInput("missing required field", path=path + ".functionCall.name")
    if type(v_name) is not str:
        v_name = expect_str(v_name, path + ".functionCall.name")
    v_arguments = w.get("functionCall")
    if v_arguments is not None:
        if type(v_arguments) is not dict:
            v_arguments = expect_dict(v_arguments, path + ".functionCall")
        v_arguments = v_arguments.get("args")
    if v_arguments is not None:
        v_arguments = json_text(
            expect_dict(v_arguments, path + ".functionCall.args"), path + ".functionCall.args"
        )
    if v_arguments is None:
        v_arguments = "{}"  # no arguments: the wire-shape hint says whether absent or null
    return new_ToolCallPart(
        id=v_id if v_id is not None else "",
        name=v_name,
        arguments=v_arguments,
        ext=split_ext(w, _KNOWN_TOOL_CALL_1, _NESTED_TOOL_CALL_1),
        hints=_shape_tool_call_1(w)
        if type(w.get("functionCall")) is not dict or w["functionCall"].get("args") is None
        else None,
    )


def _enc_tool_call_1(p: ToolCallPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    if p.id is not None:
        out.setdefault("functionCall", {})["id"] = p.id

    out.setdefault("functionCall", {})["name"] = p.name

    out.setdefault("functionCall", {})["args"] = arguments_object(
        p.arguments, path + ".arguments", ctx
    )
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    if ctx.same and p.hints:  # back to this protocol as they came
        absent, null = p.hints.get("absent", ()), p.hints.get("null", ())
        if "functionCall.args" in absent:
            out["functionCall"].pop("args", None)
        elif "functionCall.args" in null:
            out["functionCall"]["args"] = None
    return out


decode_tool_call = _dec_tool_call_1  # the only row: no dispatch call
encode_tool_call = _enc_tool_call_1  # the only row: no dispatch call


_KNOWN_TOOL_RESULT_2 = frozenset({"functionResponse"})
_NESTED_TOOL_RESULT_2: dict[str, frozenset[str]] = {
    "functionResponse": frozenset({"id", "name", "response"}),
}


def _dec_tool_result_2(w: dict[str, Any], path: str, ctx: Ctx) -> ToolResultPart:
    v_call_id = w.get("functionResponse")
    if v_call_id is not None:
        if type(v_call_id) is not dict:
            v_call_id = expect_dict(v_call_id, path + ".functionResponse")
        v_call_id = v_call_id.get("id")
    if v_call_id is not None and type(v_call_id) is not str:
        v_call_id = expect_str(v_call_id, path + ".functionResponse.id")
    v_name = w.get("functionResponse")
    if v_name is not None:
        if type(v_name) is not dict:
            v_name = expect_dict(v_name, path + ".functionResponse")
        v_name = v_name.get("name")
    if v_name is None:
        raise InvalidInput("missing required field", path=path + ".functionResponse.name")
    if type(v_name) is not str:
        v_name = expect_str(v_name, path + ".functionResponse.name")
    v_content = w.get("functionResponse")
    if v_content is not None:
        if type(v_content) is not dict:
            v_content = expect_dict(v_content, path + ".functionResponse")
        v_content = v_content.get("response")
    v_content, v_is_error, v_hints = decode_result(v_content, path + ".functionResponse.response")
    return ToolResultPart(
        call_id=v_call_id if v_call_id is not None else "",
        name=v_name,
        content=[TextPart(text=v_content)],
        is_error=v_is_error,
        hints=v_hints,
        ext=split_ext(w, _KNOWN_TOOL_RESULT_2, _NESTED_TOOL_RESULT_2),
    )


def _enc_tool_result_2(p: ToolResultPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    if p.call_id is not None:
        out.setdefault("functionResponse", {})["id"] = p.call_id

    out.setdefault("functionResponse", {})["name"] = p.name

    texts = []  # the text of the result's parts: one JSON value
    for k, q in enumerate(p.content or ()):  # None: the source sent none
        if type(q) is TextPart:
            texts.append(q.text)
        else:
            ctx.loss(
                f"{path}.content[{k}]",
                f"{type(q).__name__} in a tool result dropped",
                _WHY_TOOL_RESULT,
                "tool_result",
            )
    v_content = encode_result("".join(texts), p.is_error, p.hints or {}, ctx.same)
    if v_content is not None:
        out.setdefault("functionResponse", {})["response"] = v_content
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_tool_result = _dec_tool_result_2  # the only row: no dispatch call
encode_tool_result = _enc_tool_result_2  # the only row: no dispatch call


_KNOWN_TEXT_3 = frozenset({"text"})
_NESTED_TEXT_3: dict[str, frozenset[str]] = {}


def _dec_text_3(w: dict[str, Any], path: str, ctx: Ctx) -> TextPart:
    v_text = w.get("text")
    if v_text is None:
        raise InvalidInput("missing required field", path=path + ".text")
    if type(v_text) is not str:
        v_text = expect_str(v_text, path + ".text")
    return new_TextPart(
        text=v_text,
        ext=None if _KNOWN_TEXT_3.issuperset(w) else split_ext(w, _KNOWN_TEXT_3),
    )


def _enc_text_3(p: TextPart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    out["text"] = p.text
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.annotations is not None:
        ctx.loss(path + ".annotations", "annotations dropped", _WHY_TEXT, "text")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


decode_text = _dec_text_3  # the only row: no dispatch call
encode_text = _enc_text_3  # the only row: no dispatch call


_KNOWN_IMAGE_4 = frozenset({"inlineData"})
_NESTED_IMAGE_4: dict[str, frozenset[str]] = {
    "inlineData": frozenset({"data", "mimeType"}),
}


def _dec_image_4(w: dict[str, Any], path: str, ctx: Ctx) -> ImagePart:
    v_media_type = w.get("inlineData")
    if v_media_type is not None:
        if type(v_media_type) is not dict:
            v_media_type = expect_dict(v_media_type, path + ".inlineData")
        v_media_type = v_media_type.get("mimeType")
    if v_media_type is None:
        raise InvalidInput("missing required field", path=path + ".inlineData.mimeType")
    if type(v_media_type) is not str:
        v_media_type = expect_str(v_media_type, path + ".inlineData.mimeType")
    v_data = w.get("inlineData")
    if v_data is not None:
        if type(v_data) is not dict:
            v_data = expect_dict(v_data, path + ".inlineData")
        v_data = v_data.get("data")
    if v_data is None:
        raise InvalidInput("missing required field", path=path + ".inlineData.data")
    if type(v_data) is not str:
        v_data = expect_str(v_data, path + ".inlineData.data")
    return new_ImagePart(
        media_type=v_media_type,
        data=v_data,
        ext=split_ext(w, _KNOWN_IMAGE_4, _NESTED_IMAGE_4),
    )


def _enc_image_4(p: ImagePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    out.setdefault("inlineData", {})["mimeType"] = p.media_type

    out.setdefault("inlineData", {})["data"] = p.data
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_IMAGE, "image")
    if p.detail is not None:
        ctx.loss(path + ".detail", "detail dropped", _WHY_IMAGE, "image")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


_KNOWN_IMAGE_5 = frozenset({"fileData"})
_NESTED_IMAGE_5: dict[str, frozenset[str]] = {
    "fileData": frozenset({"fileUri", "mimeType"}),
}


def _dec_image_5(w: dict[str, Any], path: str, ctx: Ctx) -> ImagePart:
    v_media_type = w.get("fileData")
    if v_media_type is not None:
        if type(v_media_type) is not dict:
            v_media_type = expect_dict(v_media_type, path + ".fileData")
        v_media_type = v_media_type.get("mimeType")
    if v_media_type is not None and type(v_media_type) is not str:
        v_media_type = expect_str(v_media_type, path + ".fileData.mimeType")
    v_url = w.get("fileData")
    if v_url is not None:
        if type(v_url) is not dict:
            v_url = expect_dict(v_url, path + ".fileData")
        v_url = v_url.get("fileUri")
    if v_url is None:
        raise InvalidInput("missing required field", path=path + ".fileData.fileUri")
    if type(v_url) is not str:
        v_url = expect_str(v_url, path + ".fileData.fileUri")
    return new_ImagePart(
        media_type=v_media_type,
        url=v_url,
        ext=split_ext(w, _KNOWN_IMAGE_5, _NESTED_IMAGE_5),
    )


def _enc_image_5(p: ImagePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    if p.media_type is not None:
        out.setdefault("fileData", {})["mimeType"] = p.media_type

    out.setdefault("fileData", {})["fileUri"] = p.url
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_IMAGE, "image")
    if p.detail is not None:
        ctx.loss(path + ".detail", "detail dropped", _WHY_IMAGE, "image")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


def decode_image(w: dict[str, Any], path: str, ctx: Ctx) -> ImagePart:
    if "inlineData" in w and str(dig(w, ["inlineData", "mimeType"], path) or "").startswith(
        "image/"
    ):
        return _dec_image_4(w, path, ctx)
    return _dec_image_5(w, path, ctx)


def encode_image(p: ImagePart, path: str, ctx: Ctx) -> dict[str, Any] | None:
    if p.data is not None:
        return _enc_image_4(p, path, ctx)
    if p.url is not None:
        return _enc_image_5(p, path, ctx)
    ctx.loss(path, "ImagePart dropped", "neither data nor url: " + _WHY_IMAGE, "image")
    return None


_KNOWN_FILE_6 = frozenset({"inlineData"})
_NESTED_FILE_6: dict[str, frozenset[str]] = {
    "inlineData": frozenset({"data", "displayName", "mimeType"}),
}


def _dec_file_6(w: dict[str, Any], path: str, ctx: Ctx) -> FilePart:
    v_media_type = w.get("inlineData")
    if v_media_type is not None:
        if type(v_media_type) is not dict:
            v_media_type = expect_dict(v_media_type, path + ".inlineData")
        v_media_type = v_media_type.get("mimeType")
    if v_media_type is None:
        raise InvalidInput("missing required field", path=path + ".inlineData.mimeType")
    if type(v_media_type) is not str:
        v_media_type = expect_str(v_media_type, path + ".inlineData.mimeType")
    v_data = w.get("inlineData")
    if v_data is not None:
        if type(v_data) is not dict:
            v_data = expect_dict(v_data, path + ".inlineData")
        v_data = v_data.get("data")
    if v_data is None:
        raise InvalidInput("missing required field", path=path + ".inlineData.data")
    if type(v_data) is not str:
        v_data = expect_str(v_data, path + ".inlineData.data")
    v_filename = w.get("inlineData")
    if v_filename is not None:
        if type(v_filename) is not dict:
            v_filename = expect_dict(v_filename, path + ".inlineData")
        v_filename = v_filename.get("displayName")
    if v_filename is not None and type(v_filename) is not str:
        v_filename = expect_str(v_filename, path + ".inlineData.displayName")
    return new_FilePart(
        media_type=v_media_type,
        data=v_data,
        filename=v_filename,
        ext=split_ext(w, _KNOWN_FILE_6, _NESTED_FILE_6),
    )


def _enc_file_6(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    out.setdefault("inlineData", {})["mimeType"] = p.media_type

    out.setdefault("inlineData", {})["data"] = p.data

    if p.filename is not None:
        out.setdefault("inlineData", {})["displayName"] = p.filename
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_FILE, "file")
    if p.text is not None:
        ctx.loss(path + ".text", "text dropped", _WHY_FILE, "file")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


_KNOWN_FILE_7 = frozenset({"fileData"})
_NESTED_FILE_7: dict[str, frozenset[str]] = {
    "fileData": frozenset({"displayName", "fileUri", "mimeType"}),
}


def _dec_file_7(w: dict[str, Any], path: str, ctx: Ctx) -> FilePart:
    v_media_type = w.get("fileData")
    if v_media_type is not None:
        if type(v_media_type) is not dict:
            v_media_type = expect_dict(v_media_type, path + ".fileData")
        v_media_type = v_media_type.get("mimeType")
    if v_media_type is not None and type(v_media_type) is not str:
        v_media_type = expect_str(v_media_type, path + ".fileData.mimeType")
    v_url = w.get("fileData")
    if v_url is not None:
        if type(v_url) is not dict:
            v_url = expect_dict(v_url, path + ".fileData")
        v_url = v_url.get("fileUri")
    if v_url is None:
        raise InvalidInput("missing required field", path=path + ".fileData.fileUri")
    if type(v_url) is not str:
        v_url = expect_str(v_url, path + ".fileData.fileUri")
    v_filename = w.get("fileData")
    if v_filename is not None:
        if type(v_filename) is not dict:
            v_filename = expect_dict(v_filename, path + ".fileData")
        v_filename = v_filename.get("displayName")
    if v_filename is not None and type(v_filename) is not str:
        v_filename = expect_str(v_filename, path + ".fileData.displayName")
    return new_FilePart(
        media_type=v_media_type,
        url=v_url,
        filename=v_filename,
        ext=split_ext(w, _KNOWN_FILE_7, _NESTED_FILE_7),
    )


def _enc_file_7(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    if p.media_type is not None:
        out.setdefault("fileData", {})["mimeType"] = p.media_type

    out.setdefault("fileData", {})["fileUri"] = p.url

    if p.filename is not None:
        out.setdefault("fileData", {})["displayName"] = p.filename
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_FILE, "file")
    if p.text is not None:
        ctx.loss(path + ".text", "text dropped", _WHY_FILE, "file")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


_KNOWN_FILE_8 = frozenset({"inlineData"})
_NESTED_FILE_8: dict[str, frozenset[str]] = {
    "inlineData": frozenset({"data", "mimeType"}),
}


def _enc_file_8(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    out.setdefault("inlineData", {})["mimeType"] = p.media_type or "text/plain"  # the row's default

    out.setdefault("inlineData", {})["data"] = base64.b64encode(
        (p.text or "").encode("utf-8")
    ).decode("ascii")
    if p.file_id is not None:
        ctx.loss(path + ".file_id", "file_id dropped", _WHY_FILE, "file")
    if p.filename is not None:
        ctx.loss(path + ".filename", "filename dropped", _WHY_FILE, "file")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


def decode_file(w: dict[str, Any], path: str, ctx: Ctx) -> FilePart:
    if "inlineData" in w:
        return _dec_file_6(w, path, ctx)
    return _dec_file_7(w, path, ctx)


def encode_file(p: FilePart, path: str, ctx: Ctx) -> dict[str, Any] | None:
    if p.data is not None:
        return _enc_file_6(p, path, ctx)
    if p.url is not None:
        return _enc_file_7(p, path, ctx)
    if p.text is not None:
        return _enc_file_8(p, path, ctx)
    ctx.loss(path, "FilePart dropped", "neither data nor url nor text: " + _WHY_FILE, "file")
    return None


_PART_DECODERS: dict[str, Any] = {}
NATIVE_PARTS: frozenset[str] = frozenset(
    ["executableCode", "codeExecutionResult", "toolCall", "toolResponse", "videoMetadata"]
)
_PART_ENCODERS: dict[type, Any] = {
    ReasoningPart: encode_reasoning,
    ToolCallPart: encode_tool_call,
    ToolResultPart: encode_tool_result,
    TextPart: encode_text,
    ImagePart: encode_image,
    FilePart: encode_file,
}


def decode_part(w: Any, path: str, ctx: Ctx) -> Part:
    if type(w) is not dict:
        w = expect_dict(w, path)
    if "thought" in w and w.get("thought") is True:
        return _dec_reasoning_0(w, path, ctx)
    if "functionCall" in w:
        return _dec_tool_call_1(w, path, ctx)
    if "functionResponse" in w:
        return _dec_tool_result_2(w, path, ctx)
    if "text" in w:
        return _dec_text_3(w, path, ctx)
    if "inlineData" in w and str(dig(w, ["inlineData", "mimeType"], path) or "").startswith(
        "image/"
    ):
        return _dec_image_4(w, path, ctx)
    if "fileData" in w and str(dig(w, ["fileData", "mimeType"], path) or "").startswith("image/"):
        return _dec_image_5(w, path, ctx)
    if "inlineData" in w:
        return _dec_file_6(w, path, ctx)
    if "fileData" in w:
        return _dec_file_7(w, path, ctx)
    for t in w:
        if type(t) is str and t in NATIVE_PARTS:
            return NativePart(type=t, data=w, owner=PROTOCOL)
    raise InvalidInput(f"unknown part (keys {sorted(w)})", path=path)


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


def decode_parts(v: Any, path: str, ctx: Ctx, ids: CallIds | None = None) -> list[Part]:
    """Wire parts -> canonical parts; a thoughtSignature on any but a reasoning part: an
    attached ReasoningPart before it; a call's id given, else
    synthesised, a result's given, else its call's by name (``ids``: a request's, else those of
    one response, RANDOM_CALL_IDS as the stream row says)."""
    out: list[Part] = []
    if ids is None:
        ids = CallIds(not RANDOM_CALL_IDS)
    for i, w in enumerate(expect_list(v, path)):
        p = f"{path}[{i}]"
        if type(w) is not dict:
            w = expect_dict(w, p)
        sig = w.get("thoughtSignature")
        if sig is not None and not (
            "thought" in w and w.get("thought") is True
        ):  # a reasoning part's own: its row's
            out.append(attached := attach_part(expect_str(sig, p + ".thoughtSignature"), PROTOCOL))
            w = {k: x for k, x in w.items() if k != "thoughtSignature"}
            if not w:  # a part holding it alone: so again toward gemini
                attached.ext = {"attach": "next", "alone": True}
                continue
        part = decode_part(w, p, ctx)
        if type(part) is ToolCallPart:
            part.id = ids.call(part.name, part.id or None)
        elif type(part) is ToolResultPart:
            if not part.call_id:
                part.hints = {**(part.hints or {}), "no_id": True}  # left out again
            part.call_id = ids.result(part.name or "", part.call_id or None)
        out.append(part)
    return out


def encode_parts(
    parts: list[Part],
    hints: dict[str, Any] | None,
    path: str,
    ctx: Ctx,
    names: dict[str, str] | None = None,
) -> Any:
    """Canonical parts -> wire parts (``names``: function names by call id,
    for results without one)."""
    out: list[dict[str, Any]] = []
    e: dict[str, Any] | None
    sig: str | None = None  # attached state, for the next part written
    for i, part in enumerate(parts):
        p = f"{path}[{i}]"
        if is_attach(part) and part.owner == PROTOCOL:  # type: ignore[union-attr]
            if part.ext.get("alone"):  # type: ignore[union-attr]
                out.append({"thoughtSignature": part.signature})  # type: ignore[union-attr]
            else:
                sig = part.signature  # type: ignore[union-attr]
            continue
        if type(part) is ToolCallPart:  # its row's encoder: always written
            e = encode_tool_call(part, p, ctx)
            wire_id(e["functionCall"], "id", part.id)
            sig = unwrap_id(part.id)[1] or sig  # its own rides in its id
        elif type(part) is ToolResultPart:
            e = encode_tool_result(part, p, ctx)
            r = e["functionResponse"]
            if part.name is None:
                r["name"] = result_name(part.call_id, names, p, ctx, "tool_result")
            keep = not (ctx.same and part.hints and part.hints.get("no_id"))
            wire_id(r, "id", part.call_id, keep)
        elif (e := encode_part(part, p, ctx)) is None:
            continue
        if sig is not None:
            e["thoughtSignature"] = sig
            sig = None
        out.append(e)
    if sig is not None:  # no part after it: an empty text part carries it
        out.append({"text": "", "thoughtSignature": sig})
    return out


# ---------------------------------------------------------------- tools
_KNOWN_TOOL = frozenset({"description", "name", "parameters", "parametersJsonSchema"})
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
    v_parameters = w.get("parametersJsonSchema")
    if v_parameters is not None and type(v_parameters) is not dict:
        v_parameters = expect_dict(v_parameters, path + ".parametersJsonSchema")
    v_openapi = w.get("parameters")
    if v_openapi is not None and v_parameters is not None:  # both: the parameters row's key wins
        ctx.loss(
            path + ".parameters",
            "parameters dropped: parametersJsonSchema given too",
            _WHY_TOOL_SPEC,
            "tool_spec",
        )
        v_openapi = None
    elif v_openapi is not None:  # the OpenAPI subset (tool_schema_openapi)
        v_parameters = openapi_to_json_schema(expect_dict(v_openapi, path + ".parameters"))
    return new_Tool(
        name=v_name,
        description=v_description,
        parameters=v_parameters,
        ext=None if _KNOWN_TOOL.issuperset(w) else split_ext(w, _KNOWN_TOOL),
        hints={"openapi": v_openapi} if v_openapi is not None else None,
    )


def encode_tool(p: Tool, path: str, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = {}

    out["name"] = p.name

    if p.description is not None:
        out["description"] = p.description

    if p.parameters is not None:
        out["parametersJsonSchema"] = p.parameters
    if p.strict:
        ctx.loss(path + ".strict", "strict dropped", _WHY_TOOL_SPEC, "tool_spec")
    if p.cache is not None:
        ctx.loss(path + ".cache", "cache dropped", _WHY_CACHING, "caching")
    if ctx.same and p.hints and "openapi" in p.hints:  # as the client sent them
        out.pop("parametersJsonSchema", None)
        out["parameters"] = p.hints["openapi"]
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


# ---------------------------------------------------------------- request and response fields
REQUEST_ROW_KEYS = frozenset(
    {"contents", "generationConfig", "model", "systemInstruction", "tools"}
)
REQUEST_NESTED: dict[str, frozenset[str]] = {
    "generationConfig": frozenset(
        {
            "frequencyPenalty",
            "maxOutputTokens",
            "presencePenalty",
            "responseJsonSchema",
            "responseMimeType",
            "responseSchema",
            "seed",
            "stopSequences",
            "temperature",
            "thinkingConfig",
            "topK",
            "topP",
        }
    ),
}


def decode_request_fields(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    path = ""
    kept: dict[str, dict[str, Any]] = {}  # the source's own form, for the same protocol (hints)
    v_model = w.get("model")
    if v_model is not None and type(v_model) is not str:
        v_model = expect_str(v_model, path + ".model")
    req.model = v_model
    if v_model is not None:  # sent: back to this protocol alone (same_only)
        kept.setdefault("sent", {})["model"] = True
    v_max_tokens = w.get("generationConfig")
    if v_max_tokens is not None:
        if type(v_max_tokens) is not dict:
            v_max_tokens = expect_dict(v_max_tokens, path + ".generationConfig")
        v_max_tokens = v_max_tokens.get("maxOutputTokens")
    if v_max_tokens is not None and type(v_max_tokens) is not int:
        v_max_tokens = expect_int(v_max_tokens, path + ".generationConfig.maxOutputTokens")
    req.max_tokens = v_max_tokens
    v_temperature = w.get("generationConfig")
    if v_temperature is not None:
        if type(v_temperature) is not dict:
            v_temperature = expect_dict(v_temperature, path + ".generationConfig")
        v_temperature = v_temperature.get("temperature")
    if v_temperature is not None:
        v_temperature = expect_number(v_temperature, path + ".generationConfig.temperature")
    req.temperature = v_temperature
    v_top_p = w.get("generationConfig")
    if v_top_p is not None:
        if type(v_top_p) is not dict:
            v_top_p = expect_dict(v_top_p, path + ".generationConfig")
        v_top_p = v_top_p.get("topP")
    if v_top_p is not None:
        v_top_p = expect_number(v_top_p, path + ".generationConfig.topP")
    req.top_p = v_top_p
    v_top_k = w.get("generationConfig")
    if v_top_k is not None:
        if type(v_top_k) is not dict:
            v_top_k = expect_dict(v_top_k, path + ".generationConfig")
        v_top_k = v_top_k.get("topK")
    if v_top_k is not None and type(v_top_k) is not int:
        v_top_k = expect_whole_number(v_top_k, path + ".generationConfig.topK")
    req.top_k = v_top_k
    v_stop = w.get("generationConfig")
    if v_stop is not None:
        if type(v_stop) is not dict:
            v_stop = expect_dict(v_stop, path + ".generationConfig")
        v_stop = v_stop.get("stopSequences")
    if type(v_stop) is str:
        kept.setdefault("string", {})["stop"] = True
    if v_stop is not None:
        v_stop = expect_str_list(v_stop, path + ".generationConfig.stopSequences")
    req.stop = v_stop
    v_seed = w.get("generationConfig")
    if v_seed is not None:
        if type(v_seed) is not dict:
            v_seed = expect_dict(v_seed, path + ".generationConfig")
        v_seed = v_seed.get("seed")
    if v_seed is not None and type(v_seed) is not int:
        v_seed = expect_whole_number(v_seed, path + ".generationConfig.seed")
    req.seed = v_seed
    v_presence_penalty = w.get("generationConfig")
    if v_presence_penalty is not None:
        if type(v_presence_penalty) is not dict:
            v_presence_penalty = expect_dict(v_presence_penalty, path + ".generationConfig")
        v_presence_penalty = v_presence_penalty.get("presencePenalty")
    if v_presence_penalty is not None:
        v_presence_penalty = expect_number(
            v_presence_penalty, path + ".generationConfig.presencePenalty"
        )
    req.presence_penalty = v_presence_penalty
    v_frequency_penalty = w.get("generationConfig")
    if v_frequency_penalty is not None:
        if type(v_frequency_penalty) is not dict:
            v_frequency_penalty = expect_dict(v_frequency_penalty, path + ".generationConfig")
        v_frequency_penalty = v_frequency_penalty.get("frequencyPenalty")
    if v_frequency_penalty is not None:
        v_frequency_penalty = expect_number(
            v_frequency_penalty, path + ".generationConfig.frequencyPenalty"
        )
    req.frequency_penalty = v_frequency_penalty
    if w.get("generationConfig") == {}:  # a rows' object sent empty: so again to this protocol
        kept.setdefault("empty", {})["generationConfig"] = True
    if kept:
        add_hints(req, kept)


def encode_request_fields(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    kept = (req.hints or {}) if ctx.same else {}  # the source's own form
    if "model" in kept.get("sent", ()) and req.model is not None:
        out["model"] = req.model

    if req.max_tokens is not None:
        out.setdefault("generationConfig", {})["maxOutputTokens"] = req.max_tokens

    if req.temperature is not None:
        out.setdefault("generationConfig", {})["temperature"] = req.temperature

    if req.top_p is not None:
        out.setdefault("generationConfig", {})["topP"] = req.top_p

    if req.top_k is not None:
        out.setdefault("generationConfig", {})["topK"] = req.top_k

    if req.stop is not None:
        out.setdefault("generationConfig", {})["stopSequences"] = req.stop
    if req.stop and len(req.stop) == 1 and "stop" in kept.get("string", ()):
        out.setdefault("generationConfig", {})["stopSequences"] = req.stop[
            0
        ]  # it came as one string

    if req.seed is not None:
        out.setdefault("generationConfig", {})["seed"] = req.seed

    if req.presence_penalty is not None:
        out.setdefault("generationConfig", {})["presencePenalty"] = req.presence_penalty

    if req.frequency_penalty is not None:
        out.setdefault("generationConfig", {})["frequencyPenalty"] = req.frequency_penalty
    if "generationConfig" in kept.get("empty", ()):
        out.setdefault("generationConfig", {})
    if req.user is not None:
        ctx.loss("user", "user dropped", _WHY_USER, "user")
    if req.metadata is not None:
        ctx.loss("metadata", "metadata dropped", _WHY_EXTENSIONS, "extensions")


RESPONSE_ROW_KEYS = frozenset({"modelVersion", "responseId"})


def decode_response_fields(w: dict[str, Any], resp: Response, ctx: Ctx) -> None:
    path = ""
    v_id = w.get("responseId")
    if v_id is not None and type(v_id) is not str:
        v_id = expect_str(v_id, path + ".responseId")
    resp.id = v_id
    v_model = w.get("modelVersion")
    if v_model is not None and type(v_model) is not str:
        v_model = expect_str(v_model, path + ".modelVersion")
    resp.model = v_model


def encode_response_fields(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:

    if resp.id is not None:
        out["responseId"] = resp.id

    if resp.model is not None:
        out["modelVersion"] = resp.model
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
    v_input = w.get("promptTokenCount")
    if v_input is not None and type(v_input) is not int:
        v_input = expect_int(v_input, path + ".promptTokenCount")
    v_input_cache_read = w.get("cachedContentTokenCount")
    if v_input_cache_read is not None and type(v_input_cache_read) is not int:
        v_input_cache_read = expect_int(v_input_cache_read, path + ".cachedContentTokenCount")
    v_output_total = w.get("candidatesTokenCount")
    if v_output_total is not None and type(v_output_total) is not int:
        v_output_total = expect_int(v_output_total, path + ".candidatesTokenCount")
    v_output_reasoning = w.get("thoughtsTokenCount")
    if v_output_reasoning is not None and type(v_output_reasoning) is not int:
        v_output_reasoning = expect_int(v_output_reasoning, path + ".thoughtsTokenCount")
    u = Usage(raw=w)
    u.input_total = v_input or 0
    u.input_cache_read = v_input_cache_read or 0
    u.output_total = v_output_total or 0
    u.output_reasoning = v_output_reasoning or 0
    u.output_total += u.output_reasoning
    return u


def encode_usage(u: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {}
    out["promptTokenCount"] = u.input_total
    if u.input_cache_read:  # a zero count is left out
        out["cachedContentTokenCount"] = u.input_cache_read
    out["candidatesTokenCount"] = u.output_total - u.output_reasoning
    if u.output_reasoning:  # a zero count is left out
        out["thoughtsTokenCount"] = u.output_reasoning
    out["totalTokenCount"] = u.input_total + u.output_total
    return out


# ---------------------------------------------------------------- snake_case keys
def decode_snake_case(w: dict[str, Any], req: Request) -> dict[str, Any]:
    """The body with the keys the API also takes in snake_case in camelCase (snake_case_keys)."""
    seen: set[str] = set()
    w = camel_key(w, "systemInstruction", "system_instruction", 3, seen)
    w = camel_key(w, "contents", "contents", 3, seen)
    w = camel_key(w, "tools", "tools", 2, seen)
    w = camel_key(w, "generationConfig", "generation_config", 2, seen)
    w = camel_key(w, "toolConfig", "tool_config", 2, seen)
    if seen:
        req.hints = {**(req.hints or {}), "snake_keys": sorted(seen)}
    return w


def encode_snake_case(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """Back to this protocol, the keys that came snake_case written so again."""
    seen = (req.hints or {}).get("snake_keys") if ctx.same else None
    if seen:
        snake_key(out, "systemInstruction", 3, seen)
        snake_key(out, "contents", 3, seen)
        snake_key(out, "tools", 2, seen)
        snake_key(out, "generationConfig", 2, seen)
        snake_key(out, "toolConfig", 2, seen)


# ---------------------------------------------------------------- tool results (result_wrap)
def decode_result(response: Any, path: str) -> tuple[str, bool | None, dict[str, Any]]:
    """A result's object -> (text, is_error, hints): output / result hold
    its text, error an error's; any other value is its JSON text."""
    if type(response) is dict and len(response) == 1:
        if type(t := response.get("output")) is str:
            return t, None, {"string": True, "wrap": "output"}
        if type(t := response.get("error")) is str:
            return t, True, {"string": True, "wrap": "error"}
        if type(t := response.get("result")) is str:
            return t, None, {"string": True, "wrap": "result"}
    if response is None:
        return "", None, {"string": True, "json": None}
    return json_text(response, path), None, {"string": True, "json": True}


def encode_result(text: str, is_error: bool | None, hints: dict[str, Any], same: bool) -> Any:
    """A result's text -> its object (None: none), back to this protocol as it came."""
    if same and "json" in hints:
        return orjson.loads(text) if hints["json"] else None
    if same and hints.get("wrap"):
        return {hints["wrap"]: text}
    return {"error": text} if is_error else {"output": text}


# ---------------------------------------------------------------- blocked prompt
def read_blocked(w: dict[str, Any]) -> Finish | None:
    """A response with no candidates: its prompt's block reason at promptFeedback.blockReason
    (content_filter, the reason kept raw), else None."""
    raw = dig(
        w,
        (
            "promptFeedback",
            "blockReason",
        ),
    )
    if raw is None:
        return None
    return Finish(unified="content_filter", raw=expect_str(raw, "promptFeedback.blockReason"))


# ---------------------------------------------------------------- errors (spec: error_shape)
ERROR_RAW_DEFAULT = "INTERNAL"  # the raw type of an error with no row
# the errors rows as error_type asks them (codegen/errors.py type_rule): a row of (raw type,
# status) the later steps would decide otherwise; a raw type whose type no status refines
ERROR_EXACT: dict[tuple[str, int], str] = {}
ERROR_FIRM: dict[str, str] = {
    "UNAUTHENTICATED": "authentication",
    "PERMISSION_DENIED": "permission",
    "NOT_FOUND": "not_found",
    "RESOURCE_EXHAUSTED": "rate_limit",
    "UNAVAILABLE": "overloaded",
    "DEADLINE_EXCEEDED": "timeout",
}
ERROR_RAW_STATUS: dict[str, int] = {
    "INVALID_ARGUMENT": 400,
    "FAILED_PRECONDITION": 400,
    "OUT_OF_RANGE": 400,
    "UNAUTHENTICATED": 401,
    "PERMISSION_DENIED": 403,
    "NOT_FOUND": 404,
    "RESOURCE_EXHAUSTED": 429,
    "INTERNAL": 500,
    "UNKNOWN": 500,
    "DATA_LOSS": 500,
    "CANCELLED": 500,
    "UNAVAILABLE": 503,
    "DEADLINE_EXCEEDED": 504,
}  # the status of a raw type's type
# the type of a status: its first row's, else the canonical one's
ERROR_BY_STATUS: dict[int, str] = {
    400: "invalid_request",
    401: "authentication",
    403: "permission",
    404: "not_found",
    429: "rate_limit",
    500: "api_error",
    499: "api_error",
    503: "overloaded",
    504: "timeout",
    413: "request_too_large",
    529: "overloaded",
    502: "bad_gateway",
}
# (status, type) of a row whose status is not the canonical one of the type -> the canonical one
ERROR_CANONICAL_STATUS: dict[tuple[int, str], int] = {
    (499, "api_error"): 500,
    (503, "overloaded"): 529,
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
        t if (t := e.get("status")) is not None else raw,
        e.get("message"),
        None,
        None,
        v if type(v := e.get("code")) is int and 400 <= v <= 599 else None,
    )


def read_error_body(body: Any) -> tuple[Any, Any, Any, Any, int | None]:
    """An HTTP error body: ``read_error`` of its error object (error)."""
    e = body.get("error") if type(body) is dict else None
    return read_error(e)


def write_error(err: Any, raw: str, status: int, inband: bool = False) -> dict[str, Any]:
    """The error body of ``err`` (ErrorInfo; ``raw``: its raw type, ``status``: its HTTP status,
    ``inband``: the event of a stream's error)."""
    return {"error": {"status": raw, "message": err.message, "code": status}}


# ---------------------------------------------------------------- request settings (response_format, reasoning)


_FORMAT_DECODE: dict[str, str] = {"text/plain": "text", "application/json": "json_object"}
_FORMAT_ENCODE: dict[str, str] = {
    "text": "text/plain",
    "json_object": "application/json",
    "json_schema": "application/json",
}


def decode_response_format(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """response_format rows: the wire format -> req.response_format."""
    if "generationConfig" not in w:
        return
    raw = dig(w, ("generationConfig", "responseMimeType"))
    schema = dig(w, ("generationConfig", "responseJsonSchema"))
    if schema is None and (oa := dig(w, ("generationConfig", "responseSchema"))) is not None:
        schema = openapi_to_json_schema(expect_dict(oa, "generationConfig.responseSchema"))
    hints: dict[str, Any] = {}
    if raw is None and schema is None:
        add_hints(req, hints)
        return  # no format (a present object without its type is refused below)
    ftype = (
        _FORMAT_DECODE.get(expect_str(raw, "generationConfig.responseMimeType"))
        if raw is not None
        else None
    )
    if ftype is None:
        ftype = "text"
    rf = ResponseFormat(type="json_schema" if schema is not None else ftype)
    if rf.type == "json_schema":
        rf.schema = (
            expect_dict(schema, "generationConfig.responseJsonSchema")
            if schema is not None
            else None
        )
    sent: dict[str, Any] = {}
    obj = w.get("generationConfig") or {}
    sent["generationConfig"] = {
        k: obj[k] for k in ("responseMimeType", "responseJsonSchema", "responseSchema") if k in obj
    }
    hints["format_wire"] = sent
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
    if "format_wire" in hints:  # the source's own keys and values
        if got := hints["format_wire"].get("generationConfig"):
            obj_at(out, ("generationConfig",)).update(got)
    elif rf is not None:
        _format_out(rf, out, ctx)


def _format_out(rf: ResponseFormat, out: dict[str, Any], ctx: Ctx) -> None:
    wire = _FORMAT_ENCODE.get(rf.type)
    if wire is None:
        format_dropped(rf.type, True, ctx)
        return
    put(out, ("generationConfig", "responseMimeType"), wire)
    if rf.type != "json_schema":
        return
    if rf.schema is not None:
        put(out, ("generationConfig", "responseJsonSchema"), rf.schema)
    schema_fields_lost(rf, ("strict", "name", "description"), ctx)


_REASONING_BUDGET_MODES: dict[str, int] = {"disabled": 0, "adaptive": -1}
_REASONING_BUDGET_DECODE: dict[int, str] = {0: "disabled", -1: "adaptive"}
_REASONING_EFFORTS = frozenset({"high", "low", "medium", "minimal"})
_REASONING_EXT0 = frozenset({"includeThoughts", "thinkingBudget", "thinkingLevel"})


def decode_reasoning_config(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """reasoning rows: the wire configuration -> req.reasoning."""
    if "generationConfig" not in w:
        return
    r = ReasoningConfig()
    hints: dict[str, Any] = {}
    o0 = dig(w, ("generationConfig", "thinkingConfig"))
    if o0 is not None:
        o0 = expect_dict(o0, "generationConfig.thinkingConfig")
        if rest := kept_keys(o0, _REASONING_EXT0):
            r.ext = {"thinkingConfig": rest}
        if not o0:
            hints.setdefault("reasoning_empty", []).append("generationConfig.thinkingConfig")
    if o0 is not None and (v := o0.get("thinkingBudget")) is not None:
        budget = expect_int(v, "generationConfig.thinkingConfig.thinkingBudget")
        r.mode = _REASONING_BUDGET_DECODE.get(budget) or ("adaptive" if budget < 0 else "enabled")
        r.budget_tokens = budget if r.mode == "enabled" else None
    if o0 is not None and (v := o0.get("thinkingLevel")) is not None:
        r.effort = expect_str(v, "generationConfig.thinkingConfig.thinkingLevel")
        if r.effort.lower() != r.effort:
            hints["effort_wire"] = r.effort
            r.effort = r.effort.lower()
    if o0 is not None and (v := o0.get("includeThoughts")) is not None:
        if expect_bool(v, "generationConfig.thinkingConfig.includeThoughts"):
            r.summary = "auto"
        else:  # the default, spelled out: nothing to carry
            hints["summary_false"] = True
    if r.mode or r.budget_tokens is not None or r.effort or r.summary or r.ext:
        req.reasoning = r
    add_hints(req, hints)


def encode_reasoning_config(req: Request, out: dict[str, Any], ctx: Ctx) -> None:
    """reasoning rows: req.reasoning -> the wire configuration."""
    r = req.reasoning
    budget: int | None = None
    effort: str | None = None
    summary: str | bool | None = None
    if ctx.same:  # as the client sent them (also a spelled-out default alone)
        if r is None and not req.hints:
            return
        r = r or ReasoningConfig()
        hints = req.hints or {}
        if r.mode is not None:
            budget = _REASONING_BUDGET_MODES.get(r.mode)
        if r.budget_tokens is not None:
            budget = r.budget_tokens
        if r.effort is not None:
            effort = hints.get("effort_wire", r.effort)
        if r.summary is not None or hints.get("summary_false"):
            summary = r.summary is not None
    elif r is None:
        return
    elif thinking_off(r):
        budget = 0
    else:  # what another protocol's configuration becomes in this one
        if r.mode is not None or r.effort is not None or r.budget_tokens is not None:
            m = r.mode or "enabled"
            if r.effort is not None:
                effort = _reasoning_effort(r.effort, ctx)
            budget = r.budget_tokens
            if budget is None:  # an effort it cannot say (unsaid): its budget
                unsaid = r.effort is not None and effort is None
                if unsaid or (m == "enabled" and effort is None):
                    budget = thinking_budget(r)
                elif m == "adaptive" and effort is None:
                    budget = -1
                if unsaid:
                    lost(
                        "effort",
                        f"effort {brief(r.effort)} sent as budget {budget}",
                        "has no such effort",
                        ctx,
                    )
            if effort is not None and budget is not None:
                effort = None  # the budget says the amount (the effort reported below)
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
        if r.summary is not None and budget != 0:
            summary = True
    if budget is not None:
        put(out, ("generationConfig", "thinkingConfig", "thinkingBudget"), budget)
    if effort is not None:
        put(out, ("generationConfig", "thinkingConfig", "thinkingLevel"), effort)
    if summary is not None:
        put(out, ("generationConfig", "thinkingConfig", "includeThoughts"), summary)
    if not ctx.same:
        for obj, keys in (r.ext or {}).items():  # the source's: nowhere to go
            keys_lost(keys, obj, ctx, "reasoning_config")
        return
    ext = r.ext or {}
    if rest := ext.get("thinkingConfig"):
        keep_keys(obj_at(out, ("generationConfig", "thinkingConfig")), rest)
    if "generationConfig.thinkingConfig" in hints.get("reasoning_empty", ()):
        obj_at(out, ("generationConfig", "thinkingConfig"))


def _reasoning_effort(effort: str, ctx: Ctx | None) -> str | None:
    return effort if effort in _REASONING_EFFORTS else None


# ---------------------------------------------------------------- turns (spec: flags.turns)
_TURN_KEYS = frozenset({"role", "parts"})  # a turn's keys the walk reads (the rest: ext)


def _user_turn(parts: list[Part], hints: Any, ext: dict[str, Any] | None) -> list[Message]:
    """A user turn holding tool results -> one ``tool`` message per result and ``user``
    messages for the rest, in place; the first message holds the turn's unknown keys (``ext``)."""
    out: list[Message] = []
    for p in parts:
        if type(p) is ToolResultPart:
            out.append(Message(role="tool", parts=[p], hints=hints))
        elif out and out[-1].role == "user":
            out[-1].parts.append(p)
        else:
            out.append(Message(role="user", parts=[p], hints=hints))
    out[0].ext = ext
    return out


def decode_turns(w: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """The system prompt (systemInstruction) and the contents turns -> canonical
    messages; a turn with tool results and a user turn after one keep its index (hint ``turn``)."""
    out: list[Message] = []
    ids = CallIds()  # the calls' ids, for the results after them
    system = w.get("systemInstruction")
    if type(system) is str:  # content blocks: a string or a list
        sp, sh = content_parts(system, "systemInstruction", decode_parts, ctx)
        out.append(Message(role="system", parts=sp, hints=sh))
    elif system is not None:  # a content: its role kept (hint), its unknown keys (ext)
        system = expect_dict(system, "systemInstruction")
        sh = {"role": system["role"]} if "role" in system else {}
        sp = decode_parts(system.get("parts") or [], "systemInstruction.parts", ctx, ids)
        out.append(Message(role="system", parts=sp, ext=split_ext(system, _TURN_KEYS), hints=sh))
    raw = w.get("contents")
    if raw is None:
        raise InvalidInput("missing required field", path="contents")
    if type(raw) is dict:  # one turn object for the list (flags.turns.one_object)
        raw = [raw]
        req.hints = {**(req.hints or {}), "one_object": True}
    after_results = False  # the previous turn held tool results
    for i, t in enumerate(raw if type(raw) is list else expect_list(raw, "contents")):
        path = f"contents[{i}]"
        if type(t) is not dict:
            t = expect_dict(t, path)
        role = role_of(t, path, ROLE_DECODE, "user")
        # a list of parts (absent: none; null: refused)
        parts = decode_parts(t.get("parts", []), path + ".parts", ctx, ids)
        keys = t.keys() & _TURN_KEYS  # the ones the source left out go back so
        hints: Any = {} if len(keys) == 2 else {"keys": sorted(keys)}
        raw_role = t.get("role")
        if raw_role is not None and raw_role != ROLE_ENCODE.get(role):
            hints["role"] = raw_role
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
    """Canonical messages -> the system prompt (systemInstruction) and the contents turns.
    A system message after the first turn is hoisted into the system prompt (reported).
    A tool message joins the open user turn while it holds results alone
    (or any user turn: results sit in place); a user message joins a turn of results
    only; between endpoints of this protocol the source's turns are kept (hint ``turn``)."""
    msgs = req.messages
    names = {unwrap_id(p.id)[0]: p.name for m in msgs for p in m.parts if type(p) is ToolCallPart}
    n = next((i for i, m in enumerate(msgs) if m.role not in ("system", "developer")), len(msgs))
    system: list[Any] = []
    for i in range(n):
        system += encode_parts(msgs[i].parts, None, f"messages[{i}].content", ctx, names)
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
        if m.role in ("system", "developer"):  # no system role in the turns
            system += encode_parts(m.parts, None, path + ".content", ctx, names)
            ctx.loss(
                path,
                f"{m.role} message hoisted into systemInstruction",
                f"{ctx.target} has no system role in its turns: position lost",
                "system_position",
            )
            continue
        t = m.hints.get("turn") if ctx.same and m.hints else None
        tool = m.role == "tool"
        same_turn = t == tag if t is not None else results or tool
        turn = cur if same_turn and (tool or m.role == "user") else None  # the turn m joins
        content = encode_parts(m.parts, None, path + ".content", ctx, names)
        if turn is not None:
            turn.setdefault("parts", []).extend(content)
            results = results and tool
        else:
            turn = {"role": ROLE_ENCODE[m.role], "parts": content}
            h = m.hints
            if h and ctx.same:  # the source's role and keys
                turn["role"] = h.get("role", turn["role"])
                # a key absent in the source: the default (role_default / no parts)
                for k in _TURN_KEYS - set(h.get("keys", _TURN_KEYS)):
                    if k == "role" or not turn.get(k):
                        turn.pop(k, None)
            turns.append(turn)
            cur = turn if tool or m.role == "user" else None
            results, tag = tool, t
        if m.ext:
            drop_ext(m.ext, turn, path, ctx)
    first = msgs[0] if n else None
    if n or system:  # a string when the source sent one, else a content of the parts
        h = (first.hints or {}) if first and ctx.same else {}
        if h.get("string") and len(system) == 1 and system[0].keys() == TEXT_BLOCK_KEYS:
            out["systemInstruction"] = system[0]["text"]
        else:
            prompt: dict[str, Any] = {"parts": system}
            if "role" in h:
                prompt["role"] = h["role"]
            if first and first.ext:
                drop_ext(first.ext, prompt, "messages[0]", ctx)
            out["systemInstruction"] = prompt
    one = ctx.same and (req.hints or {}).get("one_object")  # one turn object, as it came
    out["contents"] = turns[0] if one else turns


# ---------------------------------------------------------------- finish rule
# (finish_reasons, enum_defaults, finish_rule): one rule for responses and streams
FINISH_DECODE: dict[str, str] = {
    "STOP": "stop",
    "MAX_TOKENS": "length",
    "SAFETY": "content_filter",
    "OTHER": "other",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "LANGUAGE": "content_filter",
    "MALFORMED_FUNCTION_CALL": "content_filter",
    "UNEXPECTED_TOOL_CALL": "content_filter",
    "MODEL_ARMOR": "content_filter",
    "FINISH_REASON_UNSPECIFIED": "other",
}  # raw -> canonical reason
# canonical reason -> (wire value, lossy: it does not read back as the same reason)
_FINISH_OUT: dict[str, tuple[str, bool]] = {
    "stop": ("STOP", False),
    "length": ("MAX_TOKENS", False),
    "tool_calls": ("STOP", False),
    "content_filter": ("SAFETY", False),
    "stop_sequence": ("STOP", True),
    "refusal": ("SAFETY", True),
    "pause": ("STOP", True),
    "error": ("OTHER", True),
    "other": ("OTHER", False),
}
# FINISH_DECODE when the output has tool calls (finish_rule.stop_with_calls)
_FINISH_CALLS: dict[str, str] = {
    "STOP": "tool_calls",
    "MAX_TOKENS": "length",
    "SAFETY": "content_filter",
    "OTHER": "other",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "LANGUAGE": "content_filter",
    "MALFORMED_FUNCTION_CALL": "content_filter",
    "UNEXPECTED_TOOL_CALL": "content_filter",
    "MODEL_ARMOR": "content_filter",
    "FINISH_REASON_UNSPECIFIED": "other",
}
FINISH_NUMERIC: dict[int, str] = {
    1: "STOP",
    2: "MAX_TOKENS",
    3: "SAFETY",
    4: "RECITATION",
    5: "OTHER",
}


def decode_finish(raw: Any, has_calls: bool = False, path: str = "finish") -> Finish:
    """A wire finish value -> Finish{unified, raw}; an unknown one is "other"; a value that is
    no reason is refused (InvalidInput at ``path``), in responses and streams alike."""
    numeric = None
    if type(raw) is int:  # the reason's name; the number is written back to this protocol
        numeric, raw = raw, FINISH_NUMERIC.get(raw, str(raw))
    elif type(raw) is not str:
        raw = expect_str(raw, path)
    table = _FINISH_CALLS if has_calls else FINISH_DECODE
    return Finish(
        unified=table.get(raw, "other"),
        raw=raw,
        hints={"numeric": numeric} if numeric is not None else None,
    )


def encode_finish(
    f: Finish | None, has_calls: bool = False, same: bool = False
) -> tuple[str | int, bool]:
    """Finish -> (wire value, lossy). No finish says how the output ended; a raw value that
    means the same here is kept (``same``: from this protocol, an unknown one too); otherwise
    the reason's row, else "STOP". A reason that came as a number goes back as
    one (``same``)."""
    if f is None:
        return ("STOP", False)
    if same and f.hints and "numeric" in f.hints:  # finish_rule.numeric: as it came
        return f.hints["numeric"], False
    if f.raw is not None:
        back = FINISH_DECODE.get(f.raw)
        if back == f.unified or (same and back is None and f.unified == "other"):
            return f.raw, False
        if back == "stop" and f.unified == "tool_calls":
            return f.raw, False
    return _FINISH_OUT.get(f.unified, ("STOP", True))


def read_finish(holder: dict[str, Any], has_calls: bool = False) -> Finish | None:
    """The finish at candidates[0].finishReason (response_envelope)."""
    raw = holder.get("finishReason")
    if raw is None:
        return None
    return decode_finish(raw, has_calls, "candidates[0].finishReason")


def write_finish(
    f: Finish | None, holder: dict[str, Any], ctx: Ctx, has_calls: bool = False
) -> None:
    """``f`` at candidates[0].finishReason; a
    value the target cannot say is reported."""
    raw = finish_wire(encode_finish, f, has_calls, ctx, "candidates[0].finishReason")
    holder["finishReason"] = raw


# ---------------------------------------------------------------- response envelope
# top-level keys the envelope row names; the keys always written (one left out is a hint)
RESPONSE_KNOWN = frozenset(
    {"candidates", "modelVersion", "promptFeedback", "responseId", "usageMetadata"}
)
_ALWAYS = (
    "modelVersion",
    "responseId",
    "usageMetadata",
)


def decode_response_envelope(w: dict[str, Any], resp: Response, ctx: Ctx) -> None:
    """The usage (absent or null: None) and
    the keys an encoder always writes that the source left out (a hint); the
    echo (a hint: back to this protocol only)."""
    u = w.get("usageMetadata")
    resp.usage = decode_usage(u, "usageMetadata") if u is not None else None
    absent = [k for k in _ALWAYS if k not in w]
    if absent:
        resp.hints = {**(resp.hints or {}), "absent": absent}
    kept = {k: w[k] for k in RESPONSE_KEPT if k in w}  # the echo
    if kept:
        resp.hints = {**(resp.hints or {}), "kept": kept}


def encode_response_envelope(resp: Response, out: dict[str, Any], ctx: Ctx) -> None:
    """The usage (a response from another
    protocol always has one: zero counts; back to this protocol the source's own object, under
    the counts if they changed) and, back to
    this protocol, the keys the source left out left out again."""
    kept = (resp.hints.get("kept") or {}) if ctx.same and resp.hints else {}
    out.update(kept)  # over the defaults: the source's own values
    u = resp.usage
    if u is not None:
        out["usageMetadata"] = wire = encode_usage(u)
        ctx.losses += usage_losses(u, ctx.target, "usageMetadata")
        if ctx.same and u.raw is not None:
            same = decode_usage(u.raw, "usageMetadata") == u  # unchanged since decoding
            out["usageMetadata"] = u.raw if same else deep_merge(u.raw, wire)
    elif not ctx.same:
        out["usageMetadata"] = encode_usage(Usage())
    if ctx.same and resp.hints:
        for k in resp.hints.get("absent", ()):
            out.pop(k, None)


_CHOICE_READ = frozenset({"content", "finishReason"})  # the choice keys rows read
_CHOICE_QUIET = frozenset(
    ["index", "safetyRatings", "finishMessage", "avgLogprobs", "logprobsResult", "tokenCount"]
)  # never reported (choice_quiet)


def first_choice(
    w: dict[str, Any], resp: Response, hints: dict[str, Any], ctx: Ctx
) -> dict[str, Any] | None:
    """The first item of candidates (None: absent or empty); the others go to ``resp.ext``
    (back to this protocol only), the item's keys no row reads to ``hints["choice_ext"]``
    (toward another protocol, those that say something are reported)."""
    items = w.get("candidates")
    if not items:
        return None
    if type(items) is not list:
        items = expect_list(items, "candidates")
    c0 = items[0]
    if type(c0) is not dict:
        c0 = expect_dict(c0, "candidates[0]")
    if len(items) > 1:
        resp.ext = {**(resp.ext or {}), "candidates": items[1:]}
    extra = {k: v for k, v in c0.items() if k not in _CHOICE_READ}
    if extra:
        hints["choice_ext"] = extra
        if not ctx.same:  # those saying something
            report_ext(said(extra, _CHOICE_QUIET), "candidates[0]", ctx)
    return c0


def write_choices(choice: dict[str, Any], resp: Response, out: dict[str, Any], ctx: Ctx) -> None:
    """The encoded first choice completed (its own other keys back to this protocol, else
    the row's choice_defaults), then the other choices this protocol sent."""
    if not ctx.same:
        choice["index"] = 0
        out["candidates"] = [choice]
        return
    choice.update((resp.hints or {}).get("choice_ext") or {})
    more = (resp.ext or {}).get("candidates")
    out["candidates"] = [choice, *(more if type(more) is list else [])]


# keys whose source values go back to this protocol only (echo; a top-level finish, its detail)
RESPONSE_KEPT: tuple[str, ...] = ("promptFeedback",)
RESPONSE_ID: str | None = "interlingua"  # the default id (response_envelope.defaults)


# ---------------------------------------------------------------- pipeline (transforms)
_CODEC = sys.modules[__name__]  # the transforms read this codec's rows
# every top-level key the rows and the transforms read (the rest rides in ext)
REQUEST_KEYS: frozenset[str] = REQUEST_ROW_KEYS.union(
    TOOL_CHOICE_KEYS,
)
RESPONSE_KEYS: frozenset[str] = RESPONSE_ROW_KEYS.union(
    RESPONSE_KNOWN,
    GEMINI_RESPONSE.response_keys,
)


def decode_request(w: dict[str, Any], ctx: Ctx) -> Request:
    """A request body -> canonical: the rows, then the transforms, in row order."""
    req = Request(source=PROTOCOL)
    w = decode_snake_case(w, req)
    decode_request_fields(w, req, ctx)
    decode_turns(w, req, ctx)
    decode_response_format(w, req, ctx)
    decode_reasoning_config(w, req, ctx)
    decode_tools(w, req, ctx)
    ext = split_ext(w, REQUEST_KEYS, REQUEST_NESTED)
    if ext:
        req.ext = {**req.ext, **ext} if req.ext else ext
    unwrap_request(req)  # state a client echoed in an envelope (transforms/envelopes)
    return req


def encode_request(req: Request, ctx: Ctx) -> dict[str, Any]:
    """Canonical -> a request body of this protocol."""
    out: dict[str, Any] = {}
    encode_request_fields(req, out, ctx)
    encode_turns(req, out, ctx)
    encode_response_format(req, out, ctx)
    encode_reasoning_config(req, out, ctx)
    encode_tools(req, out, ctx)
    if req.ext:
        drop_ext(req.ext, out, "", ctx)
    encode_snake_case(req, out, ctx)
    return out


def decode_response(w: dict[str, Any], ctx: Ctx) -> Response:
    """A response body -> canonical: the rows, the transforms, then the envelope."""
    resp = Response(source=PROTOCOL)
    decode_response_fields(w, resp, ctx)
    GEMINI_RESPONSE.decode_response(w, resp, _CODEC, ctx)
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
    GEMINI_RESPONSE.encode_response(resp, out, _CODEC, ctx)
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
    "decode_reasoning",
    "encode_reasoning",
    "decode_tool_call",
    "encode_tool_call",
    "decode_tool_result",
    "encode_tool_result",
    "decode_text",
    "encode_text",
    "decode_image",
    "encode_image",
    "decode_file",
    "encode_file",
]
