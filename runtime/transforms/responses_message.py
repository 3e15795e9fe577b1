"""What the compiled item functions call (generated/<id>_codec.py of a protocol with ``items``
rows: decode_item, decode_message, encode_message, encode_item; codegen/templates/
_codec_items.j2). The rows' keys are literals there; these helpers hold no wire name."""

from __future__ import annotations

from typing import Any

from .._wire import expect_dict, expect_list, expect_str

__all__ = ["hold", "item_texts", "unext"]


def unext(p: Any, *keys: str) -> None:
    """``keys`` out of the part's ext (read by an item rule, not unknown)."""
    p.ext = {k: v for k, v in p.ext.items() if k not in keys} or None


def hold(w: dict[str, Any], keys: tuple[str, ...], part: Any) -> Any:
    """The item's bookkeeping ``keys`` (its kind's ``items.hints``) moved from the decoded
    part's ext into its hints (``item``): given back to this protocol only, never reported."""
    kept = {k: w[k] for k in keys if k in w}
    if kept:
        if part.ext:
            unext(part, *kept)
        part.hints = {**(part.hints or {}), "item": kept}
    return part


def item_texts(w: dict[str, Any], keys: tuple[str, ...], sep: str, path: str) -> str:
    """The texts of the first of a reasoning item's text part lists (``keys``) that has any,
    joined by ``sep``; "" when none has."""
    for key in keys:
        v = w.get(key)
        out = []
        for k, s in enumerate(expect_list(v, f"{path}.{key}") if v is not None else ()):
            s = expect_dict(s, f"{path}.{key}[{k}]")
            if s.get("text") is not None:
                out.append(expect_str(s["text"], f"{path}.{key}[{k}].text"))
        if out:
            return sep.join(out)
    return ""
