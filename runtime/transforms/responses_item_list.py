"""OpenAI Responses item lists (a request's ``input``, a response's ``output``) <-> canonical
messages. Consecutive assistant-side items (assistant messages, function calls, reasoning,
hosted-tool items) become one canonical assistant message; each tool result item becomes one
``tool`` message. Each item is read and written by the codec's functions compiled from its
``items`` rows (decode_item, decode_message, encode_message, encode_item; codegen/items.py):
an item's kind, its bookkeeping (item ids, ``status``; the wire text type, a string
``content``) kept as hints, so re-encoding to Responses gives the items back exactly and no other
protocol reports them. Item types with no canonical home become NativePart (owner
openai_responses): replayed whole to Responses, reported elsewhere. What is left here is the
walk: grouping, the groups the decoder recorded, the item id rule."""

from __future__ import annotations

from typing import Any

from .._codec_support import report_ext
from .._losses import Ctx
from .._wire import expect_dict
from ..generated.canonical import Message, Part, ToolResultPart
from ._base import Codec
from ._util import role_of


def decode_items(
    raw: list[Any], path: str, codec: Codec, ctx: Ctx, whole: bool = False
) -> list[Message]:
    """Responses items -> canonical messages (assistant-side items grouped); each item is read
    by the codec's compiled item functions (decode_item, decode_message). ``whole``: a
    response's output, every item in the one group (a message of another role, its ``role``
    in its descriptor)."""
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
        kind, p = codec.decode_item(w, ipath, ctx)
        if kind == "message":
            role = role_of(w, ipath, codec.ROLE_DECODE, codec.FLAGS.turns.role_default)
            parts, desc, ext = codec.decode_message(w, role, ipath, ctx)
            if role == "assistant" or whole:
                if role != "assistant":
                    desc["role"] = role
                if ext:
                    desc["ext"] = ext
                    report_ext(ext, ipath, ctx)
                add(parts, desc)
                continue
            group = None
            out.append(Message(role=role, parts=parts, ext=ext, hints=desc))
        elif kind == "tool_result" and not whole:
            group = None
            out.append(Message(role="tool", parts=[p]))
        else:  # a tool call, reasoning, an item kept whole
            add([p], {"kind": kind})
    return out


class ItemIds:
    """Wire item ids, one rule for a response's ``output`` (assistant_items) and a stream
    (streams/encoder.py): the source's own id when it has the kind's prefix (the codec's
    ITEM_ID_PREFIXES, from the stream's ``encode.ids`` row) and is unused, else
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
) -> list[dict[str, Any]]:
    """One canonical assistant message's parts (and hints) -> its items: message items for
    content, one item per call / reasoning / native part, in order. ``ids``: a response's
    output, whose new items get their ids by the rule."""
    output = ids is not None
    groups = regroup(parts, hints.get("items")) if ctx.same and hints else None
    if groups is not None:
        out: list[dict[str, Any]] = []
        for j, (d, chunk) in enumerate(groups):
            ipath = f"{path}[{j}]"
            # the descriptors restore the source items exactly: nothing is filled in
            if d["kind"] == "message":
                role = d.get("role", "assistant")
                out.append(codec.encode_message(role, chunk, d, ipath, ctx, False, d.get("ext")))
            else:
                out += [i for p in chunk if (i := codec.encode_item(p, ipath, ctx, None))]
        return out
    out = []
    kinds: list[str] = []  # the canonical kind of each item (its id's prefix)
    content: list[Part] = []

    def flush() -> None:  # the content parts so far as one message item
        ipath = f"{path}[{len(out)}]"
        out.append(codec.encode_message("assistant", content[:], None, ipath, ctx, output))
        kinds.append("text")
        content.clear()

    for p in parts:
        if (kind := p.PART) in codec.ITEM_PARTS:
            if content:
                flush()
            item = codec.encode_item(p, f"{path}[{len(out)}]", ctx, output)
            if item is not None:
                out.append(item)
                kinds.append(kind)
        else:
            content.append(p)
    if content:
        flush()
    if ids is not None:
        for k, item in enumerate(out):
            wid = ids.take(kinds[k], item.get("id"), k)
            if wid:
                item["id"] = wid
    return out


def encode_items(
    msgs: list[Message], path: str, codec: Codec, ctx: Ctx, first: int = 0
) -> list[dict[str, Any]]:
    """Canonical messages (the ``first``-th of the request's on) -> a request's items."""
    items: list[dict[str, Any]] = []
    for j, m in enumerate(msgs, first):
        mpath = f"{path}[{j}]"
        if m.role == "tool":
            for p in m.parts:
                if type(p) is ToolResultPart and (i := codec.encode_item(p, mpath, ctx, False)):
                    items.append(i)
        elif m.role == "assistant":
            items.extend(assistant_items(m.parts, m.hints, mpath, codec, ctx))
        else:
            items.append(codec.encode_message(m.role, m.parts, m.hints, mpath, ctx, False, m.ext))
    return items
