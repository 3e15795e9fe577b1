"""tools: what the walk of the tool list compiled into each codec (``decode_tools`` /
``encode_tools``, codegen/templates/_codec_tools.j2, from the tool_type and tool_entries rows:
one tool per item or items grouping the declarations, Gemini ``functionDeclarations`` beside
``googleSearch``) does with one entry: a function tool through the codec's rows, a hosted tool
kept whole and carried only to its own protocol. The tool_choice rule is compiled as well
(codegen/tool_choice.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._losses import Ctx
from ..generated.canonical import Tool


def tool_of(
    w: dict[str, Any], kind: Any, path: str, decode_tool: Callable[..., Tool], ctx: Ctx
) -> Tool:
    """A hosted tool (``kind``: its wire type or key) kept whole, else a function: the rows."""
    if kind is not None:
        return Tool(name=str(w.get("name") or kind), kind=str(kind), ext=w)
    tool = decode_tool(w, path, ctx)
    if ctx.same:
        nulls = {k: None for k, v in w.items() if v is None}
        if nulls:  # explicit nulls: only the identity needs them
            tool.ext = {**nulls, **(tool.ext or {})}
    return tool


def hosted_entry(t: Tool, path: str, ctx: Ctx) -> dict[str, Any] | None:
    """A provider-hosted tool's wire entry (its ext): back to its own protocol only; another
    cannot run it (reported, None)."""
    if ctx.same and t.ext is not None:
        return t.ext
    ctx.loss(path, f"hosted tool {t.kind!r} dropped", f"{ctx.target} cannot run it", "hosted_tools")
    return None
