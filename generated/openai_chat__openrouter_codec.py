# Generated from spec/dialects/openrouter.yaml by `make generate` (python -m codegen). Do not edit by hand.

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
    text_of,
)
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx
from interlingua._wire import (
    expect_dict,
    expect_list,
    expect_str,
)
from interlingua.transforms._util import content_parts, role_of, text_content
from interlingua.transforms.envelopes import fold_for_client, replay_loss, unwrap_request
from interlingua.transforms.messages_flat import foreign_result

from .canonical import (
    Message,
    NativePart,
    Part,
    ReasoningPart,
    RefusalPart,
    Request,
    Response,
    TextPart,
    ToolCallPart,
    ToolResultPart,
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
    _WHY_TEXT,
    _WHY_TOOL_CALL,
    _WHY_TOOL_RESULT,
    _WHY_TOOL_RESULT_ERROR,
    _WHY_TOP_K,
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

DIALECT: str | None = "openrouter"  # the spec/dialects overlay merged in, if any
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
    "reasoning_text": ("full", "reasoning and reasoning_details (text, summary)"),
    "reasoning_replay": (
        "lossy",
        "reasoning_details: state of Anthropic, OpenAI Responses and Gemini models, by format",
    ),
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
    "stream_reasoning": ("full", "reasoning_details with signature and format"),
    "stream_tool_calls": ("full", ""),
    "stream_usage": ("full", "needs stream_options.include_usage"),
    "stream_error": ("full", ""),
    "extensions": ("lossy", "fields with no canonical home go back only to this protocol"),
    "native_parts": (
        "lossy",
        "dialect parts (video_url, Mistral thinking) carried only between Chat endpoints",
    ),
}


# owner -> how its opaque reasoning state reaches this protocol's clients (transforms/envelopes)
CARRIER: dict[str | None, str] = {
    "gemini": "own",
    "anthropic_messages": "own",
    "openai_responses": "own",
    "openai_chat": "own",
}


_WHY_REASONING_REPLAY = "openai_chat lossy: reasoning_details: state of Anthropic, OpenAI Responses and Gemini models, by format"
_WHY_PART: dict[str, str] = {  # by feature, for the part types with no encoder
    "reasoning_replay": _WHY_REASONING_REPLAY,
    "tool_call": _WHY_TOOL_CALL,
    "tool_result": _WHY_TOOL_RESULT,
}


# ---------------------------------------------------------------- tools (tool_type, tool_entries)


# ---------------------------------------------------------------- parts


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


encode_tool_result = _enc_tool_result_6  # the only row: no dispatch call


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


def encode_parts(parts: list[Part], hints: dict[str, Any] | None, path: str, ctx: Ctx) -> Any:
    if hints is not None and hints.get("string") and len(parts) == 1 and type(parts[0]) is TextPart:
        return parts[0].text
    out = []
    for i, part in enumerate(parts):
        e = encode_part(part, f"{path}[{i}]", ctx)
        if e is not None:
            out.append(e)
    return out


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
        for field in ("reasoning",):
            r = m.get(field)
            if r is not None:
                known.append(field)
                present[field] = expect_str(r, f"{path}.{field}")
        items = m.get("reasoning_details")
        if items is not None:  # typed items (with opaque state) say what the text fields say
            known.append("reasoning_details")
            parts[:0] = decode_reasoning_items(items, path + ".reasoning_details")
            hints = {**(hints or {}), "reasoning_items": items}
            if present and any(type(p) is ReasoningPart for p in parts):
                hints["reasoning_field"] = next(iter(present))
                present = {}
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
        elif t is RefusalPart and m.role == "assistant":
            msg["refusal"] = p.text  # type: ignore[union-attr]
        else:
            content.append(p)
    if reasoning and reasoning_out:
        both = hints.get("reasoning_fields") if ctx.same else None
        if both and reasoning == list(dict.fromkeys(both.values())):
            msg.update(both)
        else:
            msg[hints.get("reasoning_field") or "reasoning"] = "".join(reasoning)
    same = hints.get("reasoning_items") if ctx.same else None
    if same is not None and reasoning_out:
        msg["reasoning_details"] = same
    elif reasoning_out and any(type(p) is ReasoningPart for p in m.parts):
        rparts = [p for p in m.parts if type(p) is ReasoningPart]
        msg["reasoning_details"] = encode_reasoning_items(rparts, path + ".reasoning_details", ctx)  # type: ignore[arg-type]
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


# ---------------------------------------------------------------- reasoning items
# owner key value -> (the protocol owning the state, its signature is an encrypted item's data)
_RD_READ: dict[Any, tuple[str, bool]] = {
    "anthropic-claude-v1": ("anthropic_messages", False),
    "openai-responses-v1": ("openai_responses", True),
    "google-gemini-v1": ("gemini", False),
}
# owner -> (its owner key value, the item type, text key and signature key its text is written with)
_RD_WRITE: dict[str | None, tuple[str, str, str, str | None]] = {
    "anthropic_messages": ("anthropic-claude-v1", "reasoning.text", "text", "signature"),
    "openai_responses": ("openai-responses-v1", "reasoning.summary", "summary", None),
    "gemini": ("google-gemini-v1", "reasoning.text", "text", "signature"),
}


def decode_reasoning_items(items: Any, path: str) -> list[ReasoningPart]:
    """The typed items -> reasoning parts (an item type with no row: the hint keeps it)."""
    out: list[ReasoningPart] = []
    for k, raw in enumerate(expect_list(items, path)):
        it = expect_dict(raw, f"{path}[{k}]")
        kind = it.get("type")
        owner, in_enc = _RD_READ.get(it.get("format"), (None, False))
        rid = text_of(it.get("id"))
        if kind == "reasoning.text":
            out.append(
                ReasoningPart(
                    text=text_of(it.get("text")) or "",
                    signature=text_of(it.get("signature")),
                    owner=owner,
                    id=rid,
                )
            )
        elif kind == "reasoning.summary":
            out.append(ReasoningPart(text=text_of(it.get("summary")) or "", owner=owner, id=rid))
        elif kind == "reasoning.encrypted":
            data = text_of(it.get("data"))
            prev = out[-1] if out and in_enc and data is not None else None
            if prev and prev.owner == owner and prev.signature is None and prev.redacted is None:
                prev.signature, prev.id = data, prev.id or rid  # the state of the text before
                continue
            out.append(
                ReasoningPart(
                    text="",
                    signature=data if in_enc else None,
                    redacted=None if in_enc else data,
                    owner=owner,
                    id=rid,
                )
            )
    return out


def encode_reasoning_items(parts: list[ReasoningPart], path: str, ctx: Ctx) -> list[dict[str, Any]]:
    """Reasoning parts -> typed items: a text item (with the signature where its owner's rides
    there), then any encrypted state; the state of an owner with no row is reported."""
    out: list[dict[str, Any]] = []
    for n, p in enumerate(parts):
        own = _RD_WRITE.get(p.owner)
        if own is None:
            if p.signature or p.redacted:
                ctx.losses.append(replay_loss(f"{path}[{n}]", p.owner))
            if p.text:
                out.append(
                    {"type": "reasoning.text", "text": p.text, "format": "unknown", "index": n}
                )
            continue
        fmt, kind, key, sig_key = own
        if p.text or (sig_key and p.signature):
            it: dict[str, Any] = {"type": kind, key: p.text}
            if sig_key and p.signature:
                it[sig_key] = p.signature
            out.append({**it, "format": fmt, "index": n})
        data = p.redacted or (None if sig_key else p.signature)
        if data:
            it = {"type": "reasoning.encrypted", "data": data, "format": fmt, "index": n}
            if p.id:
                it["id"] = p.id
            out.append(it)
    return out


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
