"""messages_flat: one ``messages`` list holding system/developer messages in place, assistant
``tool_calls`` beside the content, reasoning text in dialect fields, and one ``tool`` message
per tool result (OpenAI Chat Completions and its compatible servers)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .._codec_support import drop_ext, split_ext
from .._errors import InvalidInput
from .._losses import Ctx
from .._wire import expect_dict, expect_list, expect_str
from ..generated.canonical import (
    Message,
    Part,
    ReasoningPart,
    RefusalPart,
    Request,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)
from ._base import Codec, Transform
from ._util import content_parts, messages_list, role_of, text_content
from .envelopes import replay_loss

_MSG_KEYS = frozenset({"role", "content", "name"})


def decode_message(m: dict[str, Any], path: str, codec: Codec, ctx: Ctx) -> Message:
    role = role_of(m, path, codec)
    if role == "tool":
        return Message(role="tool", parts=[codec.decode_tool_result(m, path, ctx)])
    known: list[str] = []  # keys read beyond _MSG_KEYS (a key present with null is not read)
    content = m.get("content")
    if content is not None:
        parts, hints = content_parts(content, path + ".content", codec, ctx)
    else:
        parts, hints = [], {"null" if "content" in m else "absent": True}
    if role == "assistant":
        present: dict[str, str] = {}
        for field in codec.FLAGS.reasoning_fields:
            r = m.get(field)
            if r is not None:
                known.append(field)
                present[field] = expect_str(r, f"{path}.{field}")
        field = codec.REASONING_ITEMS
        items = m.get(field) if field is not None else None
        if items is not None:  # typed items (with opaque state) say what the text fields say
            known.append(field)
            parts[:0] = codec.decode_reasoning_items(items, f"{path}.{field}")
            hints = {**(hints or {}), "reasoning_items": items}
            if present and any(type(p) is ReasoningPart for p in parts):
                hints["reasoning_field"] = next(iter(present))
                present = {}
        if present:
            # dialects send one field, vLLM sends both with the same text: one part per text
            texts = list(dict.fromkeys(present.values()))
            parts[:0] = [ReasoningPart(text=t) for t in texts]
            hints = {**(hints or {}), "reasoning_field": next(iter(present))}
            if len(present) > 1:
                hints["reasoning_fields"] = present
        plan_field = codec.FLAGS.plan_field
        plan = m.get(plan_field) if plan_field else None
        if plan is not None:  # Cohere tool_plan: the text written before the calls
            known.append(plan_field)  # type: ignore[arg-type]
            parts.append(TextPart(text=expect_str(plan, f"{path}.{plan_field}")))
            hints = {**(hints or {}), "plan": True}
        calls = m.get("tool_calls")
        if calls is not None:
            known.append("tool_calls")
            calls = expect_list(calls, path + ".tool_calls")
            for k, c in enumerate(calls):
                cpath = f"{path}.tool_calls[{k}]"
                parts.append(codec.decode_tool_call(expect_dict(c, cpath), cpath, ctx))
            if not calls:
                hints = {**(hints or {}), "tool_calls_empty": True}
        refusal = m.get("refusal")
        if refusal is not None:
            known.append("refusal")
            parts.append(RefusalPart(text=expect_str(refusal, path + ".refusal")))
        elif "refusal" in m:
            known.append("refusal")
            hints = {**(hints or {}), "refusal_null": True}
    name = m.get("name")
    return Message(
        role=role,
        parts=parts,
        name=expect_str(name, path + ".name") if name is not None else None,
        ext=split_ext(m, _MSG_KEYS.union(known)) if known else split_ext(m, _MSG_KEYS),
        hints=hints,
    )


def _text_only(p: ToolResultPart) -> tuple[ToolResultPart, list[Part]]:
    """A tool result without its media (images, files, audio), and the media: the Chat API
    accepts only text in a ``tool`` message, so the media travel in a user message right after
    the tool messages (toward Chat from another protocol; between Chat endpoints a tool message
    is kept as it came)."""
    content = p.content or []
    media = [c for c in content if type(c) is not TextPart]
    if not media:
        return p, []
    text = [c for c in content if type(c) is TextPart]
    if not text:
        text = [TextPart(text=f"({len(media)} attachment(s) follow in the next user message)")]
    return replace(p, content=text, hints=None), media


def encode_message(
    m: Message,
    path: str,
    codec: Codec,
    ctx: Ctx,
    *,
    reasoning_out: bool,
    media: list[Part] | None = None,
) -> list[dict[str, Any]]:
    """One canonical message -> Chat messages (a tool message holding several results -> several).

    ``media``: where the media of tool results go when they are taken out (see _text_only)."""
    if m.role == "tool":
        results: list[dict[str, Any]] = []
        for p in m.parts:
            if type(p) is ToolResultPart:
                if p.content is None and not ctx.same:  # a tool message needs its content
                    p = replace(p, content=[TextPart(text="")], hints={"string": True})
                if media is not None and not ctx.same:
                    p, moved = _text_only(p)
                    media += moved
                results.append(codec.encode_tool_result(p, path, ctx))
        if m.ext and results:
            drop_ext(m.ext, results[0], path, ctx)
        return results
    # no developer role: its roles row writes developer as system (Cohere)
    msg: dict[str, Any] = {"role": codec.ROLE_ENCODE[m.role]}
    content: list[Part] = []
    calls: list[dict[str, Any]] = []
    reasoning: list[str] = []
    hints = m.hints or {}
    for k, p in enumerate(m.parts):
        t = type(p)
        if t is ToolCallPart:
            calls.append(codec.encode_tool_call(p, f"{path}.tool_calls[{len(calls)}]", ctx))
        elif t is ReasoningPart and not codec.FLAGS.reasoning_fields:
            content.append(p)  # a content part of its own (Cohere thinking)
        elif t is ReasoningPart:
            if p.text or (ctx.same and hints.get("reasoning_field")):  # type: ignore[union-attr]
                reasoning.append(p.text)  # type: ignore[union-attr]
            if codec.REASONING_ITEMS is not None and reasoning_out:
                continue  # encode_reasoning_items writes the state or reports it
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
            field = hints.get("reasoning_field") or codec.FLAGS.reasoning_fields[0]
            msg[field] = "".join(reasoning)
    plan_field = codec.FLAGS.plan_field
    if plan_field and calls and content and type(content[-1]) is TextPart:
        # the text before the calls goes in the plan field: the source's own plan (the last
        # text part), or, from another protocol, the text of a turn with calls and reasoning
        if ctx.same and hints.get("plan"):
            msg[plan_field] = content.pop().text  # type: ignore[union-attr]
        elif not ctx.same and all(type(p) in (TextPart, ReasoningPart) for p in content):
            msg[plan_field] = "".join(p.text for p in content if type(p) is TextPart)  # type: ignore[union-attr]
            content = [p for p in content if type(p) is ReasoningPart]
    field = codec.REASONING_ITEMS
    if field is not None and reasoning_out:
        rparts = [p for p in m.parts if type(p) is ReasoningPart]
        same = hints.get("reasoning_items") if ctx.same else None
        if same is not None:
            msg[field] = same
        elif rparts:
            msg[field] = codec.encode_reasoning_items(rparts, f"{path}.{field}", ctx)
    if content:
        # the message itself unless tool calls, reasoning or a refusal were taken out
        shown = (
            m
            if len(content) == len(m.parts)
            else Message(role=m.role, parts=content, hints=m.hints)
        )
        msg["content"] = text_content(shown, codec, path + ".content", ctx)
    elif (ctx.same and hints.get("absent")) or (plan_field and plan_field in msg):
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


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    raw = messages_list(w)
    out = []
    for i, m in enumerate(raw):
        path = f"messages[{i}]"
        out.append(decode_message(expect_dict(m, path), path, codec, ctx))
    req.messages = out
    if not raw:
        raise InvalidInput("at least one message is required", path="messages")


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    wire: list[dict[str, Any]] = []
    media: list[Part] = []  # of the tool results since the last other message
    back = ctx.same or codec.FLAGS.reasoning_text_in_requests
    for j, m in enumerate(req.messages):
        if media and m.role != "tool":
            wire.append(_media_message(media, codec, f"messages[{j - 1}]", ctx))
            media = []
        path = f"messages[{j}]"
        wire.extend(encode_message(m, path, codec, ctx, reasoning_out=back, media=media))
    if media:
        wire.append(_media_message(media, codec, f"messages[{len(req.messages) - 1}]", ctx))
    out["messages"] = wire


def _media_message(media: list[Part], codec: Codec, path: str, ctx: Ctx) -> dict[str, Any]:
    """The media of the tool results just sent, in a user message after the tool messages."""
    return {"role": "user", "content": codec.encode_parts(media, None, path + ".content", ctx)}


MESSAGES_FLAT = Transform(
    name="messages_flat",
    doc=__doc__ or "",
    request_keys=frozenset({"messages"}),
    decode_request=_decode,
    encode_request=_encode,
)
