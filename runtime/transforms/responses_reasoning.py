"""OpenAI Responses reasoning items: a ``reasoning`` item is a ReasoningPart with
``owner = "openai_responses"``, ``id`` the item id, ``signature`` its ``encrypted_content`` and
``text`` its summary texts (or its ``reasoning_text`` content) joined by blank lines;
``redacted`` is unused. The generated ``encode_reasoning`` enforces the owner: replayed exactly to
Responses, dropped (and reported) elsewhere."""

from __future__ import annotations

from typing import Any

from .._losses import Ctx
from .._wire import expect_dict, expect_list, expect_str
from ..generated.canonical import ReasoningPart
from ._base import Codec
from ._util import null_keys


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


def decode_reasoning(w: dict[str, Any], path: str, codec: Codec, ctx: Ctx) -> ReasoningPart:
    p: ReasoningPart = codec.decode_reasoning(w, path, ctx)
    texts = _texts(w, "summary", path)
    if not texts:
        texts = _texts(w, "content", path)
    p.text = "\n\n".join(texts)
    for k in null_keys(w, ("id", "encrypted_content")):
        p.ext = {**(p.ext or {}), k: None}
    return p


def reasoning_item(p: ReasoningPart, path: str, codec: Codec, ctx: Ctx) -> dict[str, Any] | None:
    item: dict[str, Any] | None = codec.encode_reasoning(p, path, ctx)
    if item is None:
        return None
    if "summary" not in item:
        item["summary"] = [{"type": "summary_text", "text": p.text}] if p.text else []
    item.setdefault("id", "rs_interlingua")
    return item
