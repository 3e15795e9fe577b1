"""OpenAI Responses message items: a message's ``content`` (a string, or text, image and file
parts) <-> canonical parts, with the hints that give the wire form back exactly (the text part
type where it is not the role's, the text part lists written empty or left out, a string
``content``), and files by URL (``file_url``: the part row's data_url field holds data URLs
only). ``message_item`` writes one message item, request or response side. ``keep`` and
``put_back`` are the one rule of every item kind's bookkeeping (``items.hints``, ``items.new``).
Every wire name is a row (``codec.ITEMS``: spec ``items:``, codegen/items.py)."""

from __future__ import annotations

from typing import Any

from .._codec_support import drop_ext
from .._losses import Ctx
from .._wire import expect_list
from ..generated.canonical import FilePart, Part, TextPart
from ._base import Codec


def keep(w: dict[str, Any], kind: str, items: dict[str, Any], part: Any = None) -> dict[str, Any]:
    """The item's bookkeeping keys (``items.hints`` of its kind): hints, not content; a decoded
    ``part``'s are moved from its ext into its hints (``item``)."""
    kept = {k: w[k] for k in items["hints"].get(kind, ()) if k in w}
    if kept and part is not None:
        if part.ext:
            _strip(part, kept)
        part.hints = {**(part.hints or {}), "item": kept}
    return kept


def put_back(item: dict[str, Any], hints: Any, new: Any, ctx: Ctx) -> dict[str, Any]:
    """The keys ``keep`` kept (``hints["item"]``), written back between Responses endpoints;
    then ``new`` (what a new item of its kind and side gets: ``items.new``) where it has none."""
    if hints and ctx.same and "item" in hints:
        item.update(hints["item"])
    if new:
        for k, v in new.items():
            item.setdefault(k, v)
    return item


def _text_type(role: str, items: dict[str, Any]) -> str:
    types: dict[str, str] = items["text_types"]
    return types.get(role) or types["other"]


def _strip(p: Any, keys: Any) -> None:
    p.ext = {k: v for k, v in p.ext.items() if k not in keys} or None


def file_urls_in(parts: list[Part], items: dict[str, Any]) -> None:
    """A file part's plain URL (``file_url``) as its url."""
    fu = items["file_url"]
    for p in parts if fu else ():
        if type(p) is FilePart and p.ext and p.url is None and p.data is None:
            url = p.ext.get(fu["url"])
            if type(url) is str:
                p.url = url
                _strip(p, (fu["url"],))


def file_urls_out(wire: Any, items: dict[str, Any]) -> None:
    fu = items["file_url"]
    for b in wire if fu and type(wire) is list else ():
        if type(b) is dict and b.get("type") == fu["type"]:
            v = b.get(fu["data"])
            if type(v) is str and not v.startswith("data:"):
                b[fu["url"]] = b.pop(fu["data"])


def decode_content(
    content: Any, role: str, path: str, codec: Codec, ctx: Ctx
) -> tuple[list[Part], dict[str, Any]]:
    """Message content -> parts, plus the hints that restore its wire form."""
    if type(content) is str:
        return [TextPart(text=content)], {"string": True}
    items = codec.ITEMS
    raw = expect_list(content, path)
    parts = codec.decode_parts(raw, path, ctx)
    file_urls_in(parts, items)
    default, other = _text_type(role, items), items["text_types"]["other"]
    types = [w.get("type") for w in raw]
    lists: dict[str, list[int]] = {}  # the text parts whose list is not as written by default
    for k, (w, p) in enumerate(zip(raw, parts, strict=True)):
        if type(p) is not TextPart:
            continue
        for key, when in items["text_lists"].items():
            if when == "always" and types[k] == other:
                continue  # lists of the other type's parts ride in ext
            empty = w.get(key) == []
            if empty:
                _strip(p, (key,))
            if (key not in w) if when == "always" else empty:
                lists.setdefault(key, []).append(k)
    hints: dict[str, Any] = {"lists": lists} if lists else {}
    if any(t != default for t, p in zip(types, parts, strict=True) if type(p) is TextPart):
        hints["types"] = types
    return parts, hints


def _restore_text(
    wire: list[Any], role: str, hints: dict[str, Any] | None, output: bool, items: dict[str, Any]
) -> None:
    """The text part types and lists: the source's (``hints``, between Responses endpoints),
    else the role's type with the lists a new one has."""
    types = (hints or {}).get("types")
    lists = (hints or {}).get("lists") or {}
    other = items["text_types"]["other"]
    for k, b in enumerate(wire):
        if type(b) is not dict or b.get("type") != other:
            continue
        t = b["type"] = types[k] if types and k < len(types) else _text_type(role, items)
        for key, when in items["text_lists"].items():
            hinted = k in lists.get(key, ())
            if when == "always":
                wanted = t != other and not hinted
            else:
                wanted = hinted if hints is not None else output and t != other
            if wanted:
                b.setdefault(key, [])


def message_item(
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
    items = codec.ITEMS
    same = ctx.same and desc is not None
    d = desc or {}
    item = put_back({}, d, None, ctx) if same else {}  # the type as it came, id, status
    if not same and (output or role == "assistant"):
        item["type"] = items["message"]
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
        file_urls_out(wire, items)
        _restore_text(wire, role, d if same else None, output, items)
        item["content"] = wire
    if ext:  # back to Responses, else reported
        drop_ext(ext, item, path, ctx)
    new = items["new"]["output" if output else "input"].get("message")
    return put_back(item, None, new, ctx) if new else item
