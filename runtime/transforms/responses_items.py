"""OpenAI Responses items.

responses_items: a request's ``instructions`` and ``input`` (a string, or a list of items:
messages, ``function_call``, ``function_call_output``, ``reasoning`` and hosted-tool items) <->
canonical messages. Consecutive assistant-side items (assistant messages, function calls,
reasoning, hosted-tool items) become one canonical assistant message; each
``function_call_output`` becomes one ``tool`` message. Per-item facts with no canonical meaning
(item ids, ``status``, the wire text type, a string ``content``) are hints, so re-encoding to
Responses gives the items back exactly and no other protocol reports them. Item types with no
canonical home become NativePart (owner openai_responses): replayed whole to Responses, reported
elsewhere. ``previous_response_id`` and ``conversation`` name state held by the server that made
them: toward any other protocol they raise UnsupportedFeature (send the full history instead).

responses_output: a response's ``output`` items, ``status`` + ``incomplete_details`` (the finish
reason) and ``usage`` (``input_tokens_details.cache_write_tokens`` always emitted).

Reasoning: a ``reasoning`` item is a ReasoningPart with ``owner = "openai_responses"``, ``id`` the
item id, ``signature`` its ``encrypted_content`` and ``text`` its summary texts (or its
``reasoning_text`` content) joined by blank lines; ``redacted`` is unused."""

from __future__ import annotations

import re
from typing import Any

from .._codec_support import deep_merge, drop_ext
from .._errors import InvalidInput, UnsupportedFeature
from .._losses import Ctx
from .._wire import expect_dict, expect_list, expect_str
from ..generated.canonical import (
    FilePart,
    Finish,
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
    Usage,
)
from ._base import Codec, Transform
from ._util import role_of

PROTOCOL = "openai_responses"
# item keys that are per-item bookkeeping, not content: kept as hints, never reported
_ITEM_META = ("id", "status")
_STATE_FIELDS = ("previous_response_id", "conversation")
_ASSISTANT_ITEMS = ("function_call", "reasoning")


def _meta(w: dict[str, Any], keys: tuple[str, ...] = _ITEM_META) -> dict[str, Any]:
    return {k: w[k] for k in keys if k in w}


def _nulls(w: dict[str, Any], keys: Any) -> list[str]:
    return [k for k in keys if k in w and w[k] is None]


# ---------------------------------------------------------------- decode


def _text_type(role: str) -> str:
    return "output_text" if role == "assistant" else "input_text"


def file_urls_in(raw: list[Any], parts: list[Part]) -> None:
    """``input_file.file_url`` is the file's URL (``file_data`` only holds data URLs)."""
    for w, p in zip(raw, parts, strict=False):
        if type(p) is FilePart and p.ext and type(w) is dict and p.url is None:
            url = p.ext.get("file_url")
            if type(url) is str and p.data is None:
                p.url = url
                p.ext = {k: v for k, v in p.ext.items() if k != "file_url"} or None


def file_urls_out(wire: Any) -> None:
    for b in wire if type(wire) is list else ():
        if type(b) is dict and b.get("type") == "input_file":
            fd = b.get("file_data")
            if type(fd) is str and not fd.startswith("data:"):
                b["file_url"] = b.pop("file_data")


def _decode_content(
    content: Any, role: str, path: str, codec: Codec, ctx: Ctx
) -> tuple[list[Part], dict[str, Any]]:
    """Message content -> parts, plus the hints that restore its wire form."""
    hints: dict[str, Any] = {}
    if type(content) is str:
        return [TextPart(text=content)], {"string": True}
    raw = expect_list(content, path)
    parts = codec.decode_parts(raw, path, ctx)
    file_urls_in(raw, parts)
    default = _text_type(role)
    types: list[Any] = []
    odd = False
    for w, p in zip(raw, parts, strict=True):
        t = w.get("type")
        types.append(t)
        if type(p) is TextPart:
            if t != default:
                odd = True
            if p.ext is not None and p.ext.get("logprobs") == []:
                p.ext = {k: v for k, v in p.ext.items() if k != "logprobs"} or None
                hints.setdefault("empty_logprobs", []).append(len(types) - 1)
            if t == "output_text":
                if "annotations" not in w:
                    hints.setdefault("no_annotations", []).append(len(types) - 1)
                elif p.ext is not None and p.ext.get("annotations") == []:
                    p.ext = {k: v for k, v in p.ext.items() if k != "annotations"} or None
    if odd:
        hints["types"] = types
    return parts, hints


def _texts(w: dict[str, Any], key: str, path: str) -> list[str]:
    """The texts of a reasoning item's ``summary`` (summary_text) or ``content``
    (reasoning_text) list."""
    v = w.get(key)
    if v is None:
        return []
    out = []
    for k, s in enumerate(expect_list(v, f"{path}.{key}")):
        s = expect_dict(s, f"{path}.{key}[{k}]")
        if s.get("text") is not None:
            out.append(expect_str(s["text"], f"{path}.{key}[{k}].text"))
    return out


def _decode_reasoning(w: dict[str, Any], path: str, codec: Codec, ctx: Ctx) -> ReasoningPart:
    p: ReasoningPart = codec.decode_reasoning(w, path, ctx)
    texts = _texts(w, "summary", path)
    if not texts:
        texts = _texts(w, "content", path)
    p.text = "\n\n".join(texts)
    for k in _nulls(w, ("id", "encrypted_content")):
        p.ext = {**(p.ext or {}), k: None}
    return p


def _report_ext(ext: dict[str, Any], path: str, ctx: Ctx) -> None:
    """Kept as a hint for Responses; reported now (the target is known) for any other."""
    if ctx.same:
        return
    for k in ext:
        ctx.loss(
            f"{path}.{k}",
            f"field {k!r} of {ctx.source} has no equivalent",
            f"{ctx.target} cannot carry it",
            "extensions",
        )


def _move_meta(part: Any, w: dict[str, Any]) -> None:
    """Item id / status: from the part's ext into its hints (bookkeeping, not content)."""
    meta = _meta(w)
    if not meta:
        return
    if part.ext:
        part.ext = {k: v for k, v in part.ext.items() if k not in meta} or None
    part.hints = {**(part.hints or {}), "item": meta}


def decode_items(raw: list[Any], path: str, codec: Codec, ctx: Ctx) -> list[Message]:
    """Responses items -> canonical messages (assistant-side items grouped)."""
    out: list[Message] = []
    group: Message | None = None

    def add(parts: list[Part], desc: dict[str, Any]) -> None:
        nonlocal group
        if group is None:
            group = Message(role="assistant", parts=[], hints={"items": []})
            out.append(group)
        group.parts.extend(parts)
        assert group.hints is not None
        group.hints["items"].append({**desc, "n": len(parts)})

    for i, item in enumerate(raw):
        ipath = f"{path}[{i}]"
        w = expect_dict(item, ipath)
        t = w.get("type")
        if t is None or t == "message":
            role = role_of(w, ipath, codec)
            content = w.get("content")
            if content is None:
                raise InvalidInput("missing required field", path=ipath + ".content")
            parts, hints = _decode_content(content, role, ipath + ".content", codec, ctx)
            known = {"type", "role", "content", *_ITEM_META}
            ext = {k: v for k, v in w.items() if k not in known} or None
            desc = {"kind": "message", "typed": "type" in w, "meta": _meta(w), **hints}
            if role == "assistant":
                if ext:
                    desc["ext"] = ext
                    _report_ext(ext, ipath, ctx)
                add(parts, desc)
                continue
            group = None
            out.append(Message(role=role, parts=parts, ext=ext, hints=desc))
        elif t == "function_call":
            p = codec.decode_tool_call(w, ipath, ctx)
            _move_meta(p, w)
            add([p], {"kind": "function_call"})
        elif t == "reasoning":
            add([_decode_reasoning(w, ipath, codec, ctx)], {"kind": "reasoning"})
        elif t == "function_call_output":
            group = None
            r = codec.decode_tool_result(w, ipath, ctx)
            if type(w.get("output")) is list:
                file_urls_in(w["output"], r.content)
            _move_meta(r, w)
            out.append(Message(role="tool", parts=[r]))
        elif type(t) is str:
            add([NativePart(type=t, data=w, owner=PROTOCOL)], {"kind": "native"})
        else:
            raise InvalidInput(f"unknown item type {t!r}", path=ipath + ".type")
    return out


def _decode_request(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    if not ctx.same:
        for k in _STATE_FIELDS:
            if w.get(k) is not None:
                raise UnsupportedFeature(
                    f"{k} refers to conversation state stored by the OpenAI Responses server "
                    f"that made it; {ctx.target} cannot resolve it. Send the full history in "
                    "`input` instead (store: false, replaying every previous item, reasoning "
                    "items with their encrypted_content included), or send this request to an "
                    "OpenAI Responses upstream.",
                    path=k,
                )
    hints: dict[str, Any] = {}
    state = {k: w[k] for k in _STATE_FIELDS if k in w}
    if state:
        hints["state"] = state
    msgs: list[Message] = []
    instructions = w.get("instructions")
    if instructions is not None:
        msgs.append(
            Message(
                role="system",
                parts=[TextPart(text=expect_str(instructions, "instructions"))],
                hints={"instructions": True, "string": True},
            )
        )
    inp = w.get("input")
    if "input" not in w:
        hints["no_input"] = True
    if type(inp) is str:
        msgs.append(Message(role="user", parts=[TextPart(text=inp)]))
        hints["input_string"] = True
    elif inp is not None:
        msgs.extend(decode_items(expect_list(inp, "input"), "input", codec, ctx))
    req.messages = msgs
    # top-level nulls of fields the rows and transforms read: written back on identity
    nulls = _nulls(w, REQUEST_NULLABLE)
    if nulls:
        hints["nulls"] = nulls
    req.hints = {**(req.hints or {}), **hints} if hints else req.hints


REQUEST_NULLABLE = (
    "instructions",
    "input",
    "max_output_tokens",
    "temperature",
    "top_p",
    "stream",
    "user",
    "metadata",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "text",
    "reasoning",
)

# ---------------------------------------------------------------- encode


def _restore_text_types(
    wire: list[Any], role: str, hints: dict[str, Any], same: bool, output: bool
) -> None:
    types = hints.get("types") if same else None
    default = _text_type(role)
    no_ann = set(hints.get("no_annotations") or ()) if same else set()
    for k in hints.get("empty_logprobs") or () if same else ():
        if k < len(wire) and type(wire[k]) is dict:
            wire[k]["logprobs"] = []
    for k, b in enumerate(wire):
        if type(b) is not dict or b.get("type") != "input_text":
            continue
        t = types[k] if types and k < len(types) else default
        b["type"] = t
        if t == "output_text" and k not in no_ann:
            b.setdefault("annotations", [])
            if output and not same:
                b.setdefault("logprobs", [])


def _message_item(
    role: str,
    parts: list[Part],
    desc: dict[str, Any] | None,
    path: str,
    codec: Codec,
    ctx: Ctx,
    *,
    output: bool,
    ext: dict[str, Any] | None = None,
) -> dict[str, Any]:
    same = ctx.same and desc is not None
    d = desc or {}
    item: dict[str, Any] = {}
    if same:
        if d.get("typed"):
            item["type"] = "message"
        item.update(d.get("meta") or {})
    elif output or role == "assistant":
        item["type"] = "message"
    item["role"] = codec.ROLE_ENCODE[role]
    one_text = len(parts) == 1 and type(parts[0]) is TextPart
    if same:
        as_string = one_text and bool(d.get("string"))
    else:  # across protocols a plain user/system text is sent as a string
        as_string = one_text and not output and role != "assistant" and parts[0].cache is None  # type: ignore[union-attr]
    if as_string:
        item["content"] = parts[0].text  # type: ignore[union-attr]
    else:
        wire = codec.encode_parts(parts, None, path + ".content", ctx)
        file_urls_out(wire)
        _restore_text_types(wire, role, d if same else {}, same, output)
        item["content"] = wire
    if ctx.same:
        for k, v in (ext or {}).items():
            item.setdefault(k, v)
    elif ext:
        drop_ext(ext, item, path, ctx)
    if output:
        item.setdefault("id", "msg_interlingua_" + "_".join(re.findall(r"\d+", path)))
        item.setdefault("type", "message")
        item.setdefault("status", "completed")
    return item


def _call_item(p: ToolCallPart, path: str, codec: Codec, ctx: Ctx, output: bool) -> dict[str, Any]:
    item: dict[str, Any] = codec.encode_tool_call(p, path, ctx)
    meta = (p.hints or {}).get("item") if ctx.same else None
    if meta:
        item.update(meta)
    if output:
        item.setdefault("id", "fc_" + p.id.removeprefix("call_").removeprefix("fc_"))
        item.setdefault("status", "completed")
    return item


def _reasoning_item(p: ReasoningPart, path: str, codec: Codec, ctx: Ctx) -> dict[str, Any] | None:
    item: dict[str, Any] | None = codec.encode_reasoning(p, path, ctx)
    if item is None:
        return None
    if "summary" not in item:
        item["summary"] = [{"type": "summary_text", "text": p.text}] if p.text else []
    item.setdefault("id", "rs_interlingua")
    return item


def _native_item(p: NativePart, path: str, ctx: Ctx) -> dict[str, Any] | None:
    if p.owner == PROTOCOL:
        return p.data
    ctx.loss(path, f"{p.type} dropped", f"it belongs to {p.owner}", "native_parts")
    return None


def _assistant_items(
    m: Message, path: str, codec: Codec, ctx: Ctx, *, output: bool
) -> list[dict[str, Any]]:
    """One canonical assistant message -> its items: message items for content, one item per
    call / reasoning / native part, in order."""
    descs = (m.hints or {}).get("items") if ctx.same else None
    if descs and sum(d["n"] for d in descs) == len(m.parts):
        out: list[dict[str, Any]] = []
        k = 0
        for j, d in enumerate(descs):
            chunk = m.parts[k : k + d["n"]]
            k += d["n"]
            ipath = f"{path}[{j}]"
            # the descriptors restore the source items exactly: nothing is filled in
            if d["kind"] == "message":
                out.append(
                    _message_item(
                        "assistant", chunk, d, ipath, codec, ctx, output=False, ext=d.get("ext")
                    )
                )
            else:
                out.extend(_part_items(chunk, ipath, codec, ctx, False))
        return out
    out = []
    content: list[Part] = []

    def flush() -> None:
        if content:
            ipath = f"{path}[{len(out)}]"
            out.append(
                _message_item("assistant", list(content), None, ipath, codec, ctx, output=output)
            )
            content.clear()

    for p in m.parts:
        if type(p) in (ToolCallPart, ReasoningPart, NativePart, ToolResultPart):
            flush()
            out.extend(_part_items([p], f"{path}[{len(out)}]", codec, ctx, output))
        else:
            content.append(p)
    flush()
    return out


def _part_items(
    parts: list[Part], path: str, codec: Codec, ctx: Ctx, output: bool
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for p in parts:
        item: dict[str, Any] | None
        if type(p) is ToolCallPart:
            item = _call_item(p, path, codec, ctx, output)
        elif type(p) is ReasoningPart:
            item = _reasoning_item(p, path, codec, ctx)
        elif type(p) is NativePart:
            item = _native_item(p, path, ctx)
        elif type(p) is ToolResultPart:
            item = _result_item(p, path, codec, ctx)
        else:
            item = _message_item("assistant", [p], None, path, codec, ctx, output=output)
        if item is not None:
            out.append(item)
    return out


def _result_item(p: ToolResultPart, path: str, codec: Codec, ctx: Ctx) -> dict[str, Any]:
    item: dict[str, Any] = codec.encode_tool_result(p, path, ctx)
    file_urls_out(item.get("output"))
    if not ctx.same:
        out = item.get("output")
        if type(out) is list and all(type(c) is TextPart for c in p.content):
            item["output"] = "".join(c.text for c in p.content)  # type: ignore[union-attr]
        elif out is None:
            item["output"] = ""
    meta = (p.hints or {}).get("item") if ctx.same else None
    if meta:
        item.update(meta)
    return item


def encode_items(msgs: list[Message], path: str, codec: Codec, ctx: Ctx) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for j, m in enumerate(msgs):
        mpath = f"{path}[{j}]"
        if m.role == "tool":
            items.extend(
                _result_item(p, mpath, codec, ctx) for p in m.parts if type(p) is ToolResultPart
            )
        elif m.role == "assistant":
            items.extend(_assistant_items(m, mpath, codec, ctx, output=False))
        else:
            items.append(
                _message_item(m.role, m.parts, m.hints, mpath, codec, ctx, output=False, ext=m.ext)
            )
    return items


def _instructions(m: Message, ctx: Ctx) -> str | None:
    """The leading system message as `instructions` text (None when it cannot be one)."""
    if m.role != "system" or not m.parts or any(type(p) is not TextPart for p in m.parts):
        return None
    if ctx.same and not (m.hints or {}).get("instructions"):
        return None
    for k, p in enumerate(m.parts):
        if p.cache is not None:  # type: ignore[union-attr]
            ctx.loss(
                f"messages[0].content[{k}].cache",
                "cache hint dropped",
                f"{ctx.target} caches prefixes automatically",
                "caching",
            )
    return "\n\n".join(p.text for p in m.parts)  # type: ignore[union-attr]


def _encode_request(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    msgs = req.messages
    hints = (req.hints or {}) if ctx.same else {}
    if msgs:
        text = _instructions(msgs[0], ctx)
        if text is not None:
            out["instructions"] = text
            msgs = msgs[1:]
    if (
        hints.get("input_string")
        and len(msgs) == 1
        and msgs[0].role == "user"
        and len(msgs[0].parts) == 1
        and type(msgs[0].parts[0]) is TextPart
    ):
        out["input"] = msgs[0].parts[0].text
    elif msgs or not (hints.get("no_input") or "input" in hints.get("nulls", ())):
        out["input"] = encode_items(msgs, "messages", codec, ctx)
    for k in hints.get("nulls") or ():
        out.setdefault(k, None)
    out.update(hints.get("state") or {})


RESPONSES_ITEMS = Transform(
    name="responses_items",
    doc=__doc__ or "",
    request_keys=frozenset({"instructions", "input", *_STATE_FIELDS}),
    decode_request=_decode_request,
    encode_request=_encode_request,
)

# ---------------------------------------------------------------- responses


def _decode_finish(w: dict[str, Any], parts: list[Part], codec: Codec) -> Finish | None:
    status = w.get("status")
    if status is None:
        return None
    status = expect_str(status, "status")
    if status == "incomplete":
        det = w.get("incomplete_details")
        reason = det.get("reason") if type(det) is dict else None
        raw = reason if type(reason) is str else "incomplete"
        return Finish(unified=codec.FINISH_DECODE.get(raw, "length"), raw=raw)
    unified = codec.FINISH_DECODE.get(status, "other")
    if unified == "stop" and any(type(p) is ToolCallPart for p in parts):
        unified = "tool_calls"
    return Finish(unified=unified, raw=status)


def finish_status(
    f: Finish | None, codec: Codec, ctx: Ctx | None, path: str = "status"
) -> tuple[str, dict[str, Any] | None]:
    """Canonical finish -> (status, incomplete_details)."""
    if f is None:
        return "completed", None
    raw = f.raw if f.raw is not None and _decodes_to(f, codec) else None
    if raw is None:
        raw = codec.FINISH_ENCODE.get(f.unified) or "completed"
        if (
            ctx is not None
            and codec.FINISH_DECODE.get(raw) != f.unified
            and f.unified != "tool_calls"
        ):
            ctx.loss(
                path,
                f"finish reason {f.raw or f.unified!r} sent as status {raw!r}",
                f"{ctx.target} has no such reason",
                "finish_reason",
            )
    if raw in ("max_output_tokens", "content_filter", "incomplete"):
        return "incomplete", {"reason": raw}
    return raw, None


def _decodes_to(f: Finish, codec: Codec) -> bool:
    u = codec.FINISH_DECODE.get(f.raw)
    if u == f.unified:
        return True
    return f.unified == "tool_calls" and f.raw == "completed"


def encode_usage(u: Usage | None, codec: Codec, ctx: Ctx) -> dict[str, Any]:
    out: dict[str, Any] = codec.encode_usage(u or Usage())
    if ctx.same and u is not None and u.raw is not None:
        if codec.decode_usage(u.raw, "usage") == u:
            return u.raw
        return deep_merge(u.raw, out)
    return out


def _decode_response(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    output = w.get("output")
    if output is None:
        raise InvalidInput("missing required field", path="output")
    msgs = decode_items(expect_list(output, "output"), "output", codec, ctx)
    parts: list[Part] = []
    groups: list[dict[str, Any]] = []
    for m in msgs:
        n = len(m.parts)
        parts.extend(m.parts)
        groups.append({"role": m.role, "n": n, "hints": m.hints, "ext": m.ext})
    resp.parts = parts
    resp.finish = _decode_finish(w, parts, codec)
    u = w.get("usage")
    resp.usage = codec.decode_usage(u, "usage") if u is not None else None
    hints: dict[str, Any] = {"groups": groups}
    echo = {k: w[k] for k in RESPONSE_ECHO if k in w}
    if echo:
        hints["echo"] = echo
        err = echo.get("error")
        if err is not None and not ctx.same:
            ctx.loss(
                "error", "the response's error object dropped", f"{ctx.target} has none", "errors"
            )
    if w.get("object") != "response":
        hints["object"] = w.get("object")
    if "status" in w:
        hints["status"] = w["status"]
    if "incomplete_details" in w:
        hints["incomplete_details"] = w["incomplete_details"]
    if "usage" in w and u is None:
        hints["usage_null"] = True
    resp.hints = {**(resp.hints or {}), **hints}


def _encode_response(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    # the identity path needs a response decoded from Responses (an accumulated stream has none)
    same = ctx.same and "groups" in (resp.hints or {})
    hints = (resp.hints or {}) if same else {}
    groups = hints.get("groups")
    items: list[dict[str, Any]] = []
    if groups and sum(g["n"] for g in groups) == len(resp.parts):
        k = 0
        for j, g in enumerate(groups):
            chunk = resp.parts[k : k + g["n"]]
            k += g["n"]
            m = Message(role=g["role"], parts=chunk, hints=g["hints"], ext=g["ext"])
            path = f"output[{j}]"
            if m.role == "assistant":
                items.extend(_assistant_items(m, path, codec, ctx, output=True))
            else:
                items.extend(encode_items([m], path, codec, ctx))
    else:
        items = _assistant_items(
            Message(role="assistant", parts=resp.parts), "output", codec, ctx, output=True
        )
    if same and "status" in hints:
        status, details = hints["status"], hints.get("incomplete_details")
    else:
        status, details = finish_status(resp.finish, codec, ctx)
    if not same:
        out.update(response_envelope(resp.id, resp.model, resp.created))
    else:
        out.update(hints.get("echo") or {})
    out.setdefault("id", resp.id or "resp_interlingua")
    out["object"] = hints.get("object", "response")
    if out["object"] is None:
        del out["object"]
    if not same or "status" in hints:
        out["status"] = status
    if not same or "incomplete_details" in hints:
        out["incomplete_details"] = details
    out["output"] = items
    if not hints.get("usage_null") and (resp.usage is not None or not same):
        out["usage"] = encode_usage(resp.usage, codec, ctx)
    elif hints.get("usage_null"):
        out["usage"] = None


def response_envelope(rid: str | None, model: str | None, created: int | None) -> dict[str, Any]:
    """The fields every Response object carries (the SDK's types need them)."""
    return {
        "id": rid or "resp_interlingua",
        "object": "response",
        "created_at": created or 0,
        "status": "in_progress",
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "model": model or "unknown",
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


# Response fields that echo the request's configuration (or are bookkeeping): carried back to
# Responses, never content, so never reported as lost for another protocol.
RESPONSE_ECHO = (
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
)

RESPONSES_OUTPUT = Transform(
    name="responses_output",
    doc=__doc__ or "",
    response_keys=frozenset(
        {"object", "output", "status", "incomplete_details", "usage", *RESPONSE_ECHO}
    ),
    decode_response=_decode_response,
    encode_response=_encode_response,
)

_ = RefusalPart
