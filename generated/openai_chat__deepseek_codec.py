# Generated from spec/dialects/deepseek.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""OpenAI Chat Completions codec: rows of spec/protocols/openai_chat.yaml as straight-line code."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

from interlingua._codec_support import (
    drop_ext,
    report_ext,
    said,
    split_ext,
)
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx
from interlingua._wire import (
    expect_dict,
    expect_list,
    expect_str,
)
from interlingua.transforms._util import content_parts, role_of
from interlingua.transforms.envelopes import fold_for_client, unwrap_request

from .canonical import (
    Message,
    Part,
    ReasoningPart,
    RefusalPart,
    Request,
    Response,
)
from .openai_chat_codec import (
    _ALWAYS,
    _CHOICE_READ,
    _FINISH_OUT,
    _FLAT_READ,
    _FORMAT_DECODE,
    _FORMAT_ENCODE,
    _FORMAT_KEEP0,
    _FORMAT_KEEP1,
    _KNOWN_AUDIO_3,
    _KNOWN_FILE_2,
    _KNOWN_IMAGE_1,
    _KNOWN_REFUSAL_4,
    _KNOWN_TEXT_0,
    _KNOWN_TOOL,
    _KNOWN_TOOL_CALL_5,
    _KNOWN_TOOL_OUTER,
    _KNOWN_TOOL_RESULT_6,
    _NESTED_AUDIO_3,
    _NESTED_FILE_2,
    _NESTED_IMAGE_1,
    _NESTED_REFUSAL_4,
    _NESTED_TEXT_0,
    _NESTED_TOOL,
    _NESTED_TOOL_CALL_5,
    _NESTED_TOOL_OUTER,
    _NESTED_TOOL_RESULT_6,
    _PART_DECODERS,
    _PART_ENCODERS,
    _REASONING_EFFORT_MAP,
    _WHY_CACHING,
    _WHY_FILE,
    _WHY_FINISH_REASON,
    _WHY_IMAGE,
    _WHY_PART,
    _WHY_REASONING_REPLAY,
    _WHY_TEXT,
    _WHY_TOOL_CALL,
    _WHY_TOOL_RESULT,
    _WHY_TOOL_RESULT_ERROR,
    _WHY_TOP_K,
    CARRIER,
    ERROR_BY_STATUS,
    ERROR_CANONICAL_STATUS,
    ERROR_DECODE,
    ERROR_ENCODE,
    ERROR_EXACT,
    ERROR_FIRM,
    ERROR_RAW_DEFAULT,
    ERROR_RAW_STATUS,
    ERROR_STATUS,
    FINISH_DECODE,
    FLAGS,
    HTTP,
    ITEM_ID_PREFIXES,
    MESSAGE_PATH,
    NATIVE_PARTS,
    PROTOCOL,
    RANDOM_CALL_IDS,
    REQUEST_KEYS,
    REQUEST_NESTED,
    REQUEST_ROW_KEYS,
    RESPONSE_ID,
    RESPONSE_KEYS,
    RESPONSE_KNOWN,
    RESPONSE_ROW_KEYS,
    ROLE_DECODE,
    ROLE_ENCODE,
    TEXT_BLOCK_KEYS,
    TOOL_CHOICE_DECODE,
    TOOL_CHOICE_ENCODE,
    TOOL_CHOICE_KEYS,
    TRANSFORMS,
    _dec_audio_3,
    _dec_file_2,
    _dec_image_1,
    _dec_refusal_4,
    _dec_text_0,
    _dec_tool_call_5,
    _dec_tool_result_6,
    _enc_audio_3,
    _enc_file_2,
    _enc_image_1,
    _enc_refusal_4,
    _enc_text_0,
    _enc_tool_call_5,
    _enc_tool_result_6,
    _format_out,
    _reasoning_effort,
    _shape_tool,
    _shape_tool_call_5,
    decode_audio,
    decode_file,
    decode_finish,
    decode_image,
    decode_part,
    decode_parts,
    decode_reasoning_config,
    decode_refusal,
    decode_request_fields,
    decode_response_envelope,
    decode_response_fields,
    decode_response_format,
    decode_snake_case,
    decode_text,
    decode_tool,
    decode_tool_call,
    decode_tool_choice,
    decode_tool_result,
    decode_tools,
    decode_usage,
    encode_audio,
    encode_file,
    encode_finish,
    encode_image,
    encode_message,
    encode_message_response,
    encode_part,
    encode_parts,
    encode_reasoning_config,
    encode_refusal,
    encode_request_fields,
    encode_response_envelope,
    encode_response_fields,
    encode_response_format,
    encode_snake_case,
    encode_text,
    encode_tool,
    encode_tool_call,
    encode_tool_choice,
    encode_tool_result,
    encode_tools,
    encode_usage,
    error_status,
    error_type,
    first_choice,
    read_error,
    read_error_body,
    read_finish,
    response_defaults,
    usage_losses,
    write_choices,
    write_error,
    write_finish,
)

DIALECT: str | None = "deepseek"  # the spec/dialects overlay merged in, if any
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
    "reasoning_text": ("full", "reasoning_content"),
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


# ---------------------------------------------------------------- tools (tool_type, tool_entries)


# ---------------------------------------------------------------- parts


# ---------------------------------------------------------------- request settings (response_format, reasoning)


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
        for field in ("reasoning_content",):
            r = m.get(field)
            if r is not None:
                known.append(field)
                present[field] = expect_str(r, f"{path}.{field}")
        if present:  # one part per text (vLLM sends two fields with the same text)
            parts[:0] = [ReasoningPart(text=t) for t in dict.fromkeys(present.values())]
            hints = {**(hints or {}), "reasoning_field": next(iter(present))}
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
        wire += encode_message(m, f"messages[{j}]", ctx, True, media)
    if media:
        last = f"messages[{len(req.messages) - 1}].content"
        wire.append({"role": "user", "content": encode_parts(media, None, last, ctx)})
    out["messages"] = wire


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


# ---------------------------------------------------------------- pipeline (transforms)
_CODEC = sys.modules[__name__]  # the transforms read this codec's rows


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
    "CARRIER",
    "ERROR_BY_STATUS",
    "ERROR_CANONICAL_STATUS",
    "ERROR_DECODE",
    "ERROR_ENCODE",
    "ERROR_EXACT",
    "ERROR_FIRM",
    "ERROR_RAW_DEFAULT",
    "ERROR_RAW_STATUS",
    "ERROR_STATUS",
    "FINISH_DECODE",
    "ITEM_ID_PREFIXES",
    "MESSAGE_PATH",
    "NATIVE_PARTS",
    "RANDOM_CALL_IDS",
    "REQUEST_KEYS",
    "REQUEST_NESTED",
    "REQUEST_ROW_KEYS",
    "RESPONSE_ID",
    "RESPONSE_KEYS",
    "RESPONSE_KNOWN",
    "RESPONSE_ROW_KEYS",
    "ROLE_DECODE",
    "ROLE_ENCODE",
    "TEXT_BLOCK_KEYS",
    "TOOL_CHOICE_DECODE",
    "TOOL_CHOICE_ENCODE",
    "TOOL_CHOICE_KEYS",
    "_ALWAYS",
    "_CHOICE_READ",
    "_FINISH_OUT",
    "_FLAT_READ",
    "_FORMAT_DECODE",
    "_FORMAT_ENCODE",
    "_FORMAT_KEEP0",
    "_FORMAT_KEEP1",
    "_KNOWN_AUDIO_3",
    "_KNOWN_FILE_2",
    "_KNOWN_IMAGE_1",
    "_KNOWN_REFUSAL_4",
    "_KNOWN_TEXT_0",
    "_KNOWN_TOOL",
    "_KNOWN_TOOL_CALL_5",
    "_KNOWN_TOOL_OUTER",
    "_KNOWN_TOOL_RESULT_6",
    "_NESTED_AUDIO_3",
    "_NESTED_FILE_2",
    "_NESTED_IMAGE_1",
    "_NESTED_REFUSAL_4",
    "_NESTED_TEXT_0",
    "_NESTED_TOOL",
    "_NESTED_TOOL_CALL_5",
    "_NESTED_TOOL_OUTER",
    "_NESTED_TOOL_RESULT_6",
    "_PART_DECODERS",
    "_PART_ENCODERS",
    "_REASONING_EFFORT_MAP",
    "_WHY_CACHING",
    "_WHY_FILE",
    "_WHY_FINISH_REASON",
    "_WHY_IMAGE",
    "_WHY_PART",
    "_WHY_REASONING_REPLAY",
    "_WHY_TEXT",
    "_WHY_TOOL_CALL",
    "_WHY_TOOL_RESULT",
    "_WHY_TOOL_RESULT_ERROR",
    "_WHY_TOP_K",
    "_dec_audio_3",
    "_dec_file_2",
    "_dec_image_1",
    "_dec_refusal_4",
    "_dec_text_0",
    "_dec_tool_call_5",
    "_dec_tool_result_6",
    "_enc_audio_3",
    "_enc_file_2",
    "_enc_image_1",
    "_enc_refusal_4",
    "_enc_text_0",
    "_enc_tool_call_5",
    "_enc_tool_result_6",
    "_format_out",
    "_reasoning_effort",
    "_shape_tool",
    "_shape_tool_call_5",
    "decode_finish",
    "decode_reasoning_config",
    "decode_response_envelope",
    "decode_response_format",
    "decode_snake_case",
    "decode_tools",
    "encode_finish",
    "encode_message",
    "encode_message_response",
    "encode_reasoning_config",
    "encode_response_envelope",
    "encode_response_format",
    "encode_snake_case",
    "encode_tools",
    "error_status",
    "error_type",
    "first_choice",
    "read_error",
    "read_error_body",
    "read_finish",
    "response_defaults",
    "usage_losses",
    "write_choices",
    "write_error",
    "write_finish",
]
