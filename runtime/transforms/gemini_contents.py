"""gemini_contents: ``systemInstruction`` plus ``contents`` of ``{role: user|model, parts}``
(Google Gemini). Parts have no type field; the generated rows read text / inlineData / fileData,
this transform the rest:

- ``functionCall`` -> ToolCallPart; ids synthesised (``ilg_<n>``) when Gemini sent none;
- ``functionResponse`` -> one canonical ``tool`` message per result, matched to its call by id,
  else by name and order (two parallel calls to one function pair up first-come first-served);
  ``response: {output: text}`` / ``{result: text}`` / ``{error: text}`` become the result text
  (is_error for error), any other object its JSON text;
- ``thought: true`` parts -> ReasoningPart(owner gemini, signature = thoughtSignature);
- ``thoughtSignature`` on any other part -> an attached ReasoningPart before it
  (gemini_envelope, docs/gemini.md);
- snake_case part keys (``function_call``, ``inline_data`` ... the API accepts both) are read and,
  back to Gemini, written as they came.
"""

from __future__ import annotations

import base64
import re
from typing import Any

import orjson

from .._codec_support import arguments_object, drop_ext, split_ext
from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_dict, expect_list, expect_str, json_text, json_text_from_object
from ..generated.canonical import (
    FilePart,
    ImagePart,
    Message,
    Part,
    ReasoningPart,
    Request,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)
from ._base import Codec, Transform
from .gemini_envelope import SYNTH_PREFIX, attach_part, is_attach, synth_id, unwrap_id

__all__ = [
    "GEMINI_CONTENTS",
    "CallIds",
    "decode_parts",
    "encode_parts",
    "camel_part",
]

_CONTAINERS = ("functionCall", "functionResponse", "inlineData", "fileData", "executableCode")
_OPAQUE = frozenset({"args", "response", "partialArgs"})  # free-form values: never recased
_CALL_KEYS = frozenset({"id", "name", "args"})
_RESULT_KEYS = frozenset({"id", "name", "response"})
_CONTENT_KEYS = frozenset({"role", "parts"})
_WRAPS = frozenset({"output", "error", "result"})  # {output: text} is the documented shape


def _camel(k: str) -> str:
    return re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), k)


def _snake(k: str) -> str:
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), k)


def _recase(w: dict[str, Any], fn: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in w.items():
        nk = fn(k)
        if type(v) is dict and _camel(k) in _CONTAINERS:
            v = {fn(k2) if k2 not in _OPAQUE else k2: v2 for k2, v2 in v.items()}
        out[nk] = v
    return out


def camel_part(w: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """A part with snake_case keys -> camelCase, and the snake_case keys it had."""
    keys = {k for k in w if "_" in k}
    for k, v in w.items():
        if type(v) is dict and _camel(k) in _CONTAINERS:
            keys |= {k2 for k2 in v if "_" in k2 and k2 not in _OPAQUE}
    if not keys:
        return w, keys
    return _recase(w, _camel), keys


def snake_parts(parts: list[dict[str, Any]], keys: list[str]) -> list[dict[str, Any]]:
    """Undo ``camel_part`` for the keys that came snake_case."""
    ks = set(keys)
    return [_recase(p, lambda k: _snake(k) if _snake(k) in ks else k) for p in parts]


class CallIds:
    """Tool call ids of one request or response: given, or synthesised; results find their call
    by id, else by name in call order."""

    def __init__(self, stable: bool = True) -> None:
        self.stable = stable
        self.n = 0
        self.pending: dict[str, list[str]] = {}
        self.names: dict[str, str] = {}

    def new(self) -> str:
        i = self.n
        self.n += 1
        return synth_id(i if self.stable else None)

    def call(self, name: str, given: str | None) -> str:
        cid = given if given is not None else self.new()
        self.pending.setdefault(name, []).append(cid)
        self.names[cid] = name
        return cid

    def result(self, name: str, given: str | None) -> str:
        queue = self.pending.get(name) or []
        if given is not None:
            if given in queue:
                queue.remove(given)
            return given
        if queue:
            return queue.pop(0)
        return self.new()


def _decode_call(w: dict[str, Any], path: str, ids: CallIds) -> ToolCallPart:
    fc = expect_dict(w["functionCall"], path + ".functionCall")
    name = expect_str(fc.get("name"), path + ".functionCall.name")
    given = fc.get("id")
    args = fc.get("args")
    arguments = (
        json_text_from_object(args, path + ".functionCall.args") if args is not None else "{}"
    )
    return ToolCallPart(
        id=ids.call(name, expect_str(given, path + ".functionCall.id") if given else None),
        name=name,
        arguments=arguments,
        ext=split_ext(w, frozenset({"functionCall"}), {"functionCall": _CALL_KEYS}),
        hints={"no_args": True} if args is None else None,
    )


def _decode_result(w: dict[str, Any], path: str, ids: CallIds) -> ToolResultPart:
    fr = expect_dict(w["functionResponse"], path + ".functionResponse")
    name = expect_str(fr.get("name"), path + ".functionResponse.name")
    given = fr.get("id")
    call_id = ids.result(name, expect_str(given, path + ".functionResponse.id") if given else None)
    response = fr.get("response")
    hints: dict[str, Any] = {"string": True}
    is_error = None
    key = next(iter(response), None) if type(response) is dict and len(response) == 1 else None
    if key in _WRAPS and type(response[key]) is str:  # type: ignore[index]
        text = response[key]  # type: ignore[index]
        hints["wrap"] = key
        if key == "error":
            is_error = True
    else:
        text = (
            json_text(response, path + ".functionResponse.response") if response is not None else ""
        )
        hints["json"] = True if response is not None else None
    if given is None:
        hints["no_id"] = True
    return ToolResultPart(
        call_id=call_id,
        content=[TextPart(text=text)],
        is_error=is_error,
        name=name,
        ext=split_ext(w, frozenset({"functionResponse"}), {"functionResponse": _RESULT_KEYS}),
        hints=hints,
    )


def decode_parts(
    raw: Any, path: str, codec: Codec, ctx: Ctx, ids: CallIds
) -> tuple[list[Part], list[str]]:
    """Wire parts -> canonical parts, and the snake_case keys they used."""
    out: list[Part] = []
    snake: set[str] = set()
    for k, w in enumerate(expect_list(raw, path)):
        p = f"{path}[{k}]"
        w, sn = camel_part(expect_dict(w, p))
        snake |= sn
        sig = w.get("thoughtSignature")
        if sig is not None:
            sig = expect_str(sig, p + ".thoughtSignature")
        if w.get("thought") is True:
            text = w.get("text")
            out.append(
                ReasoningPart(
                    text=expect_str(text, p + ".text") if text is not None else "",
                    signature=sig,
                    owner=codec.PROTOCOL,
                    ext=split_ext(w, frozenset({"text", "thought", "thoughtSignature"})),
                )
            )
            continue
        rest = {key: v for key, v in w.items() if key != "thoughtSignature"}
        if sig is not None:
            a = attach_part(sig)
            if not rest:
                a.ext = {"attach": "next", "alone": True}
                out.append(a)
                continue
            out.append(a)
        if "functionCall" in rest:
            out.append(_decode_call(rest, p, ids))
        elif "functionResponse" in rest:
            out.append(_decode_result(rest, p, ids))
        else:
            out.append(codec.decode_part(rest, p, ctx))
    return out, sorted(snake)


def _encode_call(p: ToolCallPart, path: str, ctx: Ctx) -> tuple[dict[str, Any], str | None]:
    cid, sig = unwrap_id(p.id)
    fc: dict[str, Any] = {"name": p.name}
    if not (p.hints and p.hints.get("no_args") and p.arguments.strip() in ("", "{}")):
        fc["args"] = arguments_object(p.arguments, path + ".arguments", ctx)
    if cid and not cid.startswith(SYNTH_PREFIX):
        fc["id"] = cid
    out: dict[str, Any] = {"functionCall": fc}
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out, sig


def _encode_result(
    p: ToolResultPart, path: str, names: dict[str, str], codec: Codec, ctx: Ctx
) -> dict[str, Any]:
    cid = unwrap_id(p.call_id)[0]
    name = p.name or names.get(cid)
    if name is None:
        name = "unknown"
        ctx.loss(
            path + ".name",
            "function name of the result unknown; sent as 'unknown'",
            "Gemini names each functionResponse and no call with this id precedes it",
            "tool_result",
        )
    hints = p.hints or {}
    content = p.content or []  # None: the source sent no content (Anthropic allows it)
    texts = [q.text for q in content if type(q) is TextPart]
    for k, q in enumerate(content):
        if type(q) is not TextPart:
            ctx.loss(
                f"{path}.content[{k}]",
                f"{type(q).__name__} in a tool result dropped",
                "functionResponse carries a JSON object here",
                "tool_result",
            )
    text = "".join(texts)
    response: Any
    if ctx.same and hints.get("json"):
        response = orjson.loads(text)
    elif ctx.same and hints.get("json") is None and "json" in hints:
        response = None
    elif ctx.same and hints.get("wrap"):
        response = {hints["wrap"]: text}
    else:
        response = {"error" if p.is_error else "output": text}
    fr: dict[str, Any] = {"name": name}
    if response is not None:
        fr["response"] = response
    if cid and not cid.startswith(SYNTH_PREFIX) and not (ctx.same and hints.get("no_id")):
        fr["id"] = cid
    out: dict[str, Any] = {"functionResponse": fr}
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


def _unaddressed(p: Any, path: str, ctx: Ctx) -> dict[str, Any] | None:
    """An image / document with neither data nor URL: a plain-text document goes inline,
    a provider file id cannot be resolved by Gemini (reported)."""
    if type(p) is FilePart and p.text is not None:
        data = base64.b64encode(p.text.encode("utf-8")).decode("ascii")
        return {"inlineData": {"mimeType": p.media_type or "text/plain", "data": data}}
    ctx.loss(
        path,
        f"{type(p).__name__} dropped",
        f"file id {brief(p.file_id)} of another provider cannot be resolved by Gemini",
        "image" if type(p) is ImagePart else "file",
    )
    return None


def encode_parts(
    parts: list[Part], path: str, codec: Codec, ctx: Ctx, names: dict[str, str]
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    sig: str | None = None
    for k, p in enumerate(parts):
        pp = f"{path}[{k}]"
        t = type(p)
        d: dict[str, Any] | None
        if t is ReasoningPart:
            if p.owner != codec.PROTOCOL:  # type: ignore[union-attr]
                ctx.loss(
                    pp,
                    "reasoning dropped",
                    f"its opaque state belongs to {p.owner}"  # type: ignore[union-attr]
                    if p.owner  # type: ignore[union-attr]
                    else "Gemini takes no reasoning input without its signature",
                    "reasoning_replay" if p.owner else "reasoning_text",  # type: ignore[union-attr]
                )
                continue
            if is_attach(p):
                if p.ext and p.ext.get("alone"):  # type: ignore[union-attr]
                    out.append({"thoughtSignature": p.signature})  # type: ignore[union-attr]
                else:
                    sig = p.signature  # type: ignore[union-attr]
                continue
            d = {"text": p.text, "thought": True}  # type: ignore[union-attr]
            if p.signature is not None:  # type: ignore[union-attr]
                d["thoughtSignature"] = p.signature  # type: ignore[union-attr]
            if p.ext:  # type: ignore[union-attr]
                drop_ext(p.ext, d, pp, ctx)  # type: ignore[union-attr]
        elif t is ToolCallPart:
            d, own = _encode_call(p, pp, ctx)  # type: ignore[arg-type]
            sig = own or sig
        elif t is ToolResultPart:
            d = _encode_result(p, pp, names, codec, ctx)  # type: ignore[arg-type]
        elif t in (ImagePart, FilePart) and p.data is None and p.url is None:  # type: ignore[union-attr]
            d = _unaddressed(p, pp, ctx)
        else:
            d = codec.encode_part(p, pp, ctx)
        if d is None:
            continue
        if sig is not None:
            d["thoughtSignature"] = sig
            sig = None
        out.append(d)
    if sig is not None:
        out.append({"text": "", "thoughtSignature": sig})
    return out


def _system(si: Any, codec: Codec, ctx: Ctx, ids: CallIds) -> Message:
    if type(si) is str:
        return Message(role="system", parts=[TextPart(text=si)], hints={"string": True})
    si = expect_dict(si, "systemInstruction")
    parts, snake = decode_parts(si.get("parts") or [], "systemInstruction.parts", codec, ctx, ids)
    hints: dict[str, Any] = {"si_keys": sorted(si.keys() & _CONTENT_KEYS)}
    if "role" in si:
        hints["role"] = si["role"]
    if snake:
        hints["snake"] = snake
    return Message(role="system", parts=parts, ext=split_ext(si, _CONTENT_KEYS), hints=hints)


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    ids = CallIds()
    msgs: list[Message] = []
    si = w.get("systemInstruction", w.get("system_instruction"))
    if si is not None:
        msgs.append(_system(si, codec, ctx, ids))
        if "systemInstruction" not in w:
            req.hints = {**(req.hints or {}), "system_instruction_snake": True}
    contents = w.get("contents")
    if contents is None:
        raise InvalidInput("missing required field", path="contents")
    if type(contents) is dict:
        contents = [contents]
        req.hints = {**(req.hints or {}), "contents_object": True}
    for i, c in enumerate(expect_list(contents, "contents")):
        path = f"contents[{i}]"
        c = expect_dict(c, path)
        raw_role = c.get("role")
        role = codec.ROLE_DECODE.get(raw_role) if type(raw_role) is str else None
        if raw_role is None:
            role = "user"
        if role is None:
            raise InvalidInput(
                f"unknown role {brief(raw_role)} (expected user or model)", path=path
            )
        parts, snake = decode_parts(c.get("parts", []), path + ".parts", codec, ctx, ids)
        hints: dict[str, Any] = {"turn": i, "keys": sorted(c.keys() & _CONTENT_KEYS)}
        if raw_role is not None and raw_role != codec.ROLE_ENCODE.get(role):
            hints["role"] = raw_role
        if snake:
            hints["snake"] = snake
        ext = split_ext(c, _CONTENT_KEYS)
        if role == "assistant":
            msgs.append(Message(role="assistant", parts=parts, ext=ext, hints=hints))
            continue
        # a user turn: each functionResponse becomes a tool message, in place
        run: list[Part] = []
        first = len(msgs)
        for p in parts:
            if type(p) is ToolResultPart:
                if run:
                    msgs.append(Message(role="user", parts=run, hints=hints))
                    run = []
                msgs.append(Message(role="tool", parts=[p], hints=hints))
            else:
                run.append(p)
        if run or len(msgs) == first:
            msgs.append(Message(role="user", parts=run, hints=hints))
        msgs[first].ext = ext
    req.messages = msgs


def _content(role: str, parts: list[dict[str, Any]], m: Message, ctx: Ctx) -> dict[str, Any]:
    h = (m.hints or {}) if ctx.same else {}
    c: dict[str, Any] = {"role": h.get("role", role), "parts": parts}
    if "keys" in h:
        for k in _CONTENT_KEYS - set(h["keys"]):
            if k == "role" or not c.get(k):  # absent in the source: the default (user / [])
                c.pop(k, None)
    return c


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    msgs = req.messages
    names: dict[str, str] = {}
    for m in msgs:
        for p in m.parts:
            if type(p) is ToolCallPart:
                names[unwrap_id(p.id)[0]] = p.name
    i = 0
    si_parts: list[dict[str, Any]] = []
    si_msg: Message | None = None
    while i < len(msgs) and msgs[i].role in ("system", "developer"):
        si_msg = si_msg or msgs[i]
        si_parts += encode_parts(msgs[i].parts, f"messages[{i}].content", codec, ctx, names)
        i += 1
    contents: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    cur_turn: Any = None
    cur_tools = False
    for j in range(i, len(msgs)):
        m = msgs[j]
        path = f"messages[{j}]"
        if m.role in ("system", "developer"):
            si_parts += encode_parts(m.parts, path + ".content", codec, ctx, names)
            ctx.loss(
                path,
                f"{m.role} message hoisted into systemInstruction",
                "Gemini has no system role inside contents: position lost",
                "system_position",
            )
            continue
        parts = encode_parts(m.parts, path + ".content", codec, ctx, names)
        h = m.hints or {}
        if ctx.same and h.get("snake"):
            parts = snake_parts(parts, h["snake"])
        role = codec.ROLE_ENCODE[m.role]
        turn = h.get("turn") if ctx.same else None
        if cur is not None and cur.get("role", "user") == (
            h.get("role", role) if ctx.same else role
        ):
            if turn is not None and turn == cur_turn:
                cur.setdefault("parts", []).extend(parts)
                continue
            if turn is None and role == "user" and (m.role == "tool" or cur_tools):
                cur["parts"].extend(parts)
                cur_tools = cur_tools and m.role == "tool"
                continue
        cur = _content(role, parts, m, ctx)
        cur_turn = turn
        cur_tools = m.role == "tool"
        if m.ext:
            drop_ext(m.ext, cur, path, ctx)
        contents.append(cur)
    if si_msg is not None:
        h = (si_msg.hints or {}) if ctx.same else {}
        if h.get("string") and len(si_parts) == 1 and set(si_parts[0]) == {"text"}:
            out["systemInstruction"] = si_parts[0]["text"]
        else:
            if h.get("snake"):
                si_parts = snake_parts(si_parts, h["snake"])
            si: dict[str, Any] = {"parts": si_parts}
            if "role" in h:
                si["role"] = h["role"]
            if si_msg.ext:
                drop_ext(si_msg.ext, si, "messages[0]", ctx)
            out["systemInstruction"] = si
    elif si_parts:
        out["systemInstruction"] = {"parts": si_parts}
    if (
        ctx.same
        and (req.hints or {}).get("system_instruction_snake")
        and "systemInstruction" in out
    ):
        out["system_instruction"] = out.pop("systemInstruction")
    out["contents"] = (
        contents[0] if ctx.same and (req.hints or {}).get("contents_object") else contents
    )


GEMINI_CONTENTS = Transform(
    name="gemini_contents",
    doc=__doc__ or "",
    request_keys=frozenset({"systemInstruction", "system_instruction", "contents"}),
    decode_request=_decode,
    encode_request=_encode,
)
