"""Model lists: one body per GET path, merged from the listings (spec: http.models) of the
protocols that share the path, so that each of their SDKs reads it."""

from __future__ import annotations

from typing import Any

from .._codec_support import ModelListing

__all__ = ["model_listing"]


def _fill(template: Any, values: dict[str, Any]) -> Any:
    """A listing template with its ``{name}`` placeholders replaced; a string that is exactly
    one placeholder takes the value as it is (``None`` included)."""
    if isinstance(template, str):
        if template[:1] == "{" and template[-1:] == "}" and template[1:-1] in values:
            return values[template[1:-1]]
        return template.format(**values) if "{" in template else template
    if isinstance(template, dict):
        return {k: _fill(v, values) for k, v in template.items()}
    if isinstance(template, list):
        return [_fill(v, values) for v in template]
    return template


def model_listing(listings: list[ModelListing], names: list[str]) -> dict[str, Any]:
    """One model-list body merged from the listings of protocols that share its path."""
    ends = {
        "first_id": names[0] if names else None,
        "last_id": names[-1] if names else None,
    }
    out: dict[str, Any] = {}
    items: dict[str, list[dict[str, Any]]] = {}
    for m in listings:
        out.update(_fill(dict(m.envelope), ends))
        rows = items.setdefault(m.items_key, [{} for _ in names])
        for row, n in zip(rows, names, strict=True):
            row.update(_fill(dict(m.item), {"id": n}))
    out.update(items)
    return out
