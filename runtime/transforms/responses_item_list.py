"""OpenAI Responses item lists (a request's ``input``, a response's ``output``) <-> canonical
messages. Consecutive assistant-side items (assistant messages, function calls, reasoning,
hosted-tool items) become one canonical assistant message; each tool result item becomes one
``tool`` message. An item's kind is a row (``items.kinds``: the message type and the part rows
of calls, results and reasoning; codegen/items.py). Per-item facts with no canonical meaning
(``items.hints``: item ids, ``status``; the wire text type, a string ``content``) are hints, so
re-encoding to Responses gives the items back exactly and no other protocol reports them. Item
types with no canonical home become NativePart (owner openai_responses): replayed whole to
Responses, reported elsewhere."""

from __future__ import annotations

from typing import Any

from .._codec_support import report_ext
from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_dict
from ..generated.canonical import Message, NativePart, Part, ToolResultPart
from ._base import Codec
from ._util import only_text, role_of
from .responses_message import (
    decode_content,
    file_urls_in,
    file_urls_out,
    keep,
    message_item,
    put_back,
)
from .responses_reasoning import reasoning_item, reasoning_text


def decode_items(raw: list[Any], path: str, codec: Codec, ctx: Ctx) -> list[Message]:
    """Responses items -> canonical messages (assistant-side items grouped)."""
    items = codec.ITEMS
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
        if t is not None and type(t) is not str:
            raise InvalidInput(f"unknown item type {brief(t)}", path=ipath + ".type")
        kind = items["kinds"].get(t, "native") if t is not None else "message"
        if kind == "message":
            role = role_of(w, ipath, codec)
            content = w.get("content")
            if content is None:
                raise InvalidInput("missing required field", path=ipath + ".content")
            parts, hints = decode_content(content, role, ipath + ".content", codec, ctx)
            kept = keep(w, kind, items)
            ext = {k: v for k, v in w.items() if k not in kept and k not in _MESSAGE} or None
            desc = {"kind": kind, "item": kept, **hints}
            if role == "assistant":
                if ext:
                    desc["ext"] = ext
                    report_ext(ext, ipath, ctx)
                add(parts, desc)
                continue
            group = None
            out.append(Message(role=role, parts=parts, ext=ext, hints=desc))
        elif kind == "native":
            add([NativePart(type=t, data=w, owner=codec.PROTOCOL)], {"kind": kind})
        else:  # a tool call, a tool result or reasoning
            p = codec.decode_part(w, ipath, ctx)
            keep(w, kind, items, p)
            if kind == "tool_result":
                group = None
                if type(w.get(items["result_content"])) is list:
                    file_urls_in(p.content, items)
                out.append(Message(role="tool", parts=[p]))
                continue
            if kind == "reasoning":
                reasoning_text(w, p, ipath, codec)
            add([p], {"kind": kind})
    return out


_MESSAGE = frozenset({"type", "role", "content"})  # the keys a message item's rule reads


class ItemIds:
    """Wire item ids, one rule for a response's ``output`` (assistant_items) and a stream
    (streams/items.py): the source's own id when it has the kind's prefix (``ITEMS["ids"]``, the
    stream's ``encode.ids`` row) and is unused, else
    ``<prefix>interlingua_<response id>_<output index>``; "" for a kind with no prefix."""

    __slots__ = ("prefixes", "made", "used")

    def __init__(self, prefixes: dict[str, str], response_id: str) -> None:
        self.prefixes = prefixes
        self.made = f"interlingua_{response_id}_"
        self.used: set[str] = set()

    def take(self, kind: str, own: str | None, index: int) -> str:
        prefix = self.prefixes.get(kind)
        if prefix is None:
            return ""
        wid = own if own and own.startswith(prefix) and own not in self.used else ""
        if not wid:
            wid = f"{prefix}{self.made}{index}"
        self.used.add(wid)
        return wid


def regroup(parts: list[Part], descs: Any) -> list[tuple[dict[str, Any], list[Part]]] | None:
    """The parts cut back into the groups the decoder recorded (``n`` parts each), or None when
    there are none or the parts no longer match them (changed since decoding)."""
    if not descs or sum(d["n"] for d in descs) != len(parts):
        return None
    out = []
    k = 0
    for d in descs:
        out.append((d, parts[k : k + d["n"]]))
        k += d["n"]
    return out


def assistant_items(
    parts: list[Part],
    hints: Any,
    path: str,
    codec: Codec,
    ctx: Ctx,
    ids: ItemIds | None = None,
    first: int = 0,
) -> list[dict[str, Any]]:
    """One canonical assistant message's parts (and hints) -> its items: message items for
    content, one item per call / reasoning / native part, in order. ``ids``: a response's
    output, whose new items (the ``first``-th on) get their ids by the rule."""
    output = ids is not None
    new = codec.ITEMS["new"]["output" if output else "input"]
    groups = regroup(parts, hints.get("items")) if ctx.same and hints else None
    if groups is not None:
        out: list[dict[str, Any]] = []
        for j, (d, chunk) in enumerate(groups):
            ipath = f"{path}[{j}]"
            # the descriptors restore the source items exactly: nothing is filled in
            if d["kind"] == "message":
                out.append(
                    message_item(
                        "assistant", chunk, d, ipath, codec, ctx, output=False, ext=d.get("ext")
                    )
                )
            else:
                out += [i for p in chunk if (i := part_item(p, ipath, codec, ctx, None))]
        return out
    out = []
    kinds: list[str] = []  # the canonical kind of each item (its id's prefix)
    content: list[Part] = []

    def flush() -> None:  # the content parts so far as one message item
        ipath = f"{path}[{len(out)}]"
        out.append(message_item("assistant", content[:], None, ipath, codec, ctx, output=output))
        kinds.append("text")
        content.clear()

    for p in parts:
        if (kind := p.PART) in _OWN_ITEMS:
            if content:
                flush()
            item = part_item(p, f"{path}[{len(out)}]", codec, ctx, new)
            if item is not None:
                out.append(item)
                kinds.append(kind)
        else:
            content.append(p)
    if content:
        flush()
    if ids is not None:
        for k, item in enumerate(out):
            wid = ids.take(kinds[k], item.get("id"), first + k)
            if wid:
                item["id"] = wid
    return out


_OWN_ITEMS = frozenset({"tool_call", "tool_result", "reasoning", "native"})  # parts items alone


def part_item(p: Part, path: str, codec: Codec, ctx: Ctx, new: Any) -> dict[str, Any] | None:
    """The item of a part that is an item of its own (a call, a result, reasoning: the kind's
    encoder, then its bookkeeping; native: whole to its owner, else reported). ``new``: the
    side's ``items.new`` rows, or None to restore the source's item exactly."""
    kind = p.PART
    if kind == "tool_call":
        item = codec.encode_tool_call(p, path, ctx)
    elif kind == "reasoning":
        item = reasoning_item(p, path, codec, ctx)  # type: ignore[arg-type]
    elif kind == "tool_result":
        item = codec.encode_tool_result(p, path, ctx)
    elif kind == "native":
        return codec.encode_part(p, path, ctx)  # type: ignore[no-any-return]
    else:  # parts edited since decoding
        return message_item("assistant", [p], None, path, codec, ctx, output=new is not None)
    if item is None:
        return None
    items = codec.ITEMS
    if kind == "tool_result":
        key = items["result_content"]
        file_urls_out(item.get(key), items)
        if not ctx.same:  # across protocols: a text-only result as a string, none as ""
            out, text = item.get(key), only_text(p.content)  # type: ignore[union-attr]
            if type(out) is list and text is not None:
                item[key] = text
            elif out is None:
                item[key] = ""
    hints = p.hints if kind in items["hints"] else None  # type: ignore[union-attr]
    return put_back(item, hints, new.get(kind) if new else None, ctx)


def encode_items(
    msgs: list[Message], path: str, codec: Codec, ctx: Ctx, ids: ItemIds | None = None
) -> list[dict[str, Any]]:
    """Canonical messages -> items (``ids``: a response's output, see assistant_items)."""
    items: list[dict[str, Any]] = []
    new = codec.ITEMS["new"]["output" if ids is not None else "input"]
    for j, m in enumerate(msgs):
        mpath = f"{path}[{j}]"
        if m.role == "tool":
            for p in m.parts:
                if type(p) is ToolResultPart and (i := part_item(p, mpath, codec, ctx, new)):
                    items.append(i)
        elif m.role == "assistant":
            items.extend(assistant_items(m.parts, m.hints, mpath, codec, ctx, ids, len(items)))
        else:
            items.append(
                message_item(m.role, m.parts, m.hints, mpath, codec, ctx, output=False, ext=m.ext)
            )
    return items
