"""tools: the tool list (function tools through the generated rows, hosted tools carried only
to their own protocol: ``hosted_entry``), one tool per item (a hosted one by its ``type``) or,
per the tool_entries row, items grouping the function declarations under one key beside hosted
tools by key (Gemini ``functionDeclarations``, ``googleSearch``; ``tools`` maybe one item
object); ``tool_choice`` in either wire shape, and the parallel-calls switch, which Anthropic
keeps inside tool_choice and Chat beside it (the tool_choice rule, compiled into each codec by
codegen/tool_choice.py)."""

from __future__ import annotations

from typing import Any

from .._losses import Ctx
from .._wire import expect_dict, expect_list
from ..generated.canonical import Request, Tool
from ._base import Codec, Transform


def hosted_entry(t: Tool, path: str, ctx: Ctx) -> dict[str, Any] | None:
    """A provider-hosted tool's wire entry (its ext): back to its own protocol only; another
    cannot run it (reported, None)."""
    if ctx.same and t.ext is not None:
        return t.ext
    ctx.loss(path, f"hosted tool {t.kind!r} dropped", f"{ctx.target} cannot run it", "hosted_tools")
    return None


def _tool(w: dict[str, Any], kind: Any, path: str, codec: Codec, ctx: Ctx) -> Tool:
    """A hosted tool (``kind``: its wire type or key) kept whole, else a function: the rows."""
    if kind is not None:
        return Tool(name=str(w.get("name") or kind), kind=str(kind), ext=w)
    tool = codec.decode_tool(w, path, ctx)
    if ctx.same:
        nulls = {k: None for k, v in w.items() if v is None}
        if nulls:  # explicit nulls: only the identity needs them
            tool.ext = {**nulls, **(tool.ext or {})}
    return tool


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    tools = w.get("tools")
    if tools is not None:
        if type(tools) is dict and codec.TOOLS_ONE_OBJECT:  # one item instead of the list
            tools = [tools]
            req.hints = {**(req.hints or {}), "tools_object": True}
        if not expect_list(tools, "tools"):
            req.hints = {**(req.hints or {}), "tools_empty": True}
        group = codec.TOOL_GROUP  # tool_entries: an item's declarations and hosted tools by key
        kept: list[Any] = []  # items, or their declaration lists, that held no tool
        for i, t in enumerate(tools):
            path = f"tools[{i}]"
            if type(t) is not dict:
                t = expect_dict(t, path)
            if group is None:  # one tool per item, a hosted one by its type
                kind = t.get("type")
                req.tools.append(
                    _tool(t, None if kind == codec.TOOL_TYPE else kind, path, codec, ctx)
                )
                continue
            for key, value in t.items():
                at = f"{path}.{key}"
                kind = None if key == group else key
                for j, e in enumerate(expect_list(value, at) if kind is None else [{key: value}]):
                    tool = _tool(e, kind, f"{at}[{j}]", codec, ctx)
                    tool.hints = {**(tool.hints or {}), "entry": i}  # the item it came in
                    req.tools.append(tool)
            if not t or (group in t and not t[group]):  # says nothing: back to its source only
                kept.append([i, {group: []} if t else {}])
        if kept:
            req.hints = {**(req.hints or {}), "tools_kept": kept}
    codec.decode_tool_choice(w, req, ctx)  # the tool_choice rule, compiled per protocol


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    hints = (req.hints or {}) if ctx.same else {}
    group = codec.TOOL_GROUP
    items: dict[Any, Any] = {}  # the wire items, in order; grouped: by the source's item
    for i, t in enumerate(req.tools):
        path = f"tools[{i}]"
        function = t.kind == "function"
        wire = codec.encode_tool(t, path, ctx) if function else hosted_entry(t, path, ctx)
        if wire is None:
            continue
        if group is None:
            items[i] = wire
            continue
        entry = (t.hints or {}).get("entry") if ctx.same else None
        if function:
            item = items.setdefault("functions" if entry is None else entry, {})
            item.setdefault(group, []).append(wire)
        else:
            items.setdefault(("hosted", i) if entry is None else entry, {}).update(wire)
    if kept := hints.get("tools_kept"):  # at their places among the source's items
        for i, raw in kept:
            items.setdefault(i, {}).update(raw)
        items = {
            k: items[k] for k in sorted(items, key=lambda k: (0, k) if type(k) is int else (1, 0))
        }
    if items or hints.get("tools_empty"):
        wire_items = list(items.values())
        one = hints.get("tools_object") and len(wire_items) == 1  # one item object, as it came
        out["tools"] = wire_items[0] if one else wire_items
    codec.encode_tool_choice(req, out, ctx)


TOOLS = Transform(
    request_keys=frozenset({"tools"}),  # the choice's: the codec's TOOL_CHOICE_KEYS (its rows)
    decode_request=_decode,
    encode_request=_encode,
)
