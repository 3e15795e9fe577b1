"""OpenAI Responses reasoning items: a ``reasoning`` item is a ReasoningPart with
``owner = "openai_responses"``, ``id`` the item id, ``signature`` its ``encrypted_content`` and
``text`` the texts of its first non-empty text list (``summary``, else ``content``: rows
``items.reasoning_text``) joined by ``items.separator``; ``redacted`` is unused. The generated
``encode_reasoning`` enforces the owner: replayed exactly to Responses, dropped (and reported)
elsewhere."""

from __future__ import annotations

from typing import Any

from .._losses import Ctx
from .._wire import expect_dict, expect_list, expect_str
from ..generated.canonical import ReasoningPart
from ._base import Codec
from ._util import null_keys


def _texts(w: dict[str, Any], key: str, path: str) -> list[str]:
    """The texts of one of a reasoning item's text part lists."""
    v = w.get(key)
    if v is None:
        return []
    out = []
    for k, s in enumerate(expect_list(v, f"{path}.{key}")):
        s = expect_dict(s, f"{path}.{key}[{k}]")
        if s.get("text") is not None:
            out.append(expect_str(s["text"], f"{path}.{key}[{k}].text"))
    return out


def reasoning_text(w: dict[str, Any], p: ReasoningPart, path: str, codec: Codec) -> None:
    """The item's text into the decoded part, and its explicit nulls into ext."""
    items = codec.ITEMS
    for key in items["reasoning_text"]:
        texts = _texts(w, key, path)
        if texts:
            p.text = items["separator"].join(texts)
            break
    for k in null_keys(w, items["reasoning_keys"]):
        p.ext = {**(p.ext or {}), k: None}


def reasoning_item(p: ReasoningPart, path: str, codec: Codec, ctx: Ctx) -> dict[str, Any] | None:
    item: dict[str, Any] | None = codec.encode_reasoning(p, path, ctx)
    if item is None:
        return None
    items = codec.ITEMS
    summary = items["reasoning_text"][0]
    if summary not in item:
        item[summary] = [{"type": items["summary_type"], "text": p.text}] if p.text else []
    return item
