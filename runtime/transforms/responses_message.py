"""OpenAI Responses message items: a message's ``content`` (a string, or input/output text,
image and file parts) <-> canonical parts, with the hints that give the wire form back exactly
(the text part type where it is not the role's default, absent ``annotations``, empty
``logprobs``, a string ``content``), and ``input_file.file_url`` (``file_data`` only holds data
URLs). ``message_item`` writes one message item, request or response side."""

from __future__ import annotations

import re
from typing import Any

from .._codec_support import drop_ext
from .._losses import Ctx
from .._wire import expect_list
from ..generated.canonical import FilePart, Part, TextPart
from ._base import Codec

# item keys that are per-item bookkeeping, not content: kept as hints, never reported
ITEM_META = ("id", "status")


def item_meta(w: dict[str, Any], keys: tuple[str, ...] = ITEM_META) -> dict[str, Any]:
    return {k: w[k] for k in keys if k in w}


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


def decode_content(
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
