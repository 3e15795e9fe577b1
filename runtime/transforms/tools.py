"""tools: the tool list (function tools through the generated rows, hosted tools carried only
to their own protocol: ``hosted_entry``, the one rule gemini_config follows too),
``tool_choice`` in either wire shape, and the parallel-calls switch, which Anthropic keeps
inside tool_choice and Chat beside it (the tool_choice rule, compiled into each codec by
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


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    tools = w.get("tools")
    if tools is not None:
        if not expect_list(tools, "tools"):
            req.hints = {**(req.hints or {}), "tools_empty": True}
        function_type = codec.TOOL_TYPE
        decode_tool = codec.decode_tool
        out = req.tools
        for i, t in enumerate(tools):
            path = f"tools[{i}]"
            if type(t) is not dict:
                t = expect_dict(t, path)
            kind = t.get("type")
            if kind is not None and kind != function_type:
                out.append(Tool(name=str(t.get("name") or kind), kind=str(kind), ext=t))
                continue
            tool = decode_tool(t, path, ctx)
            if ctx.same:
                nulls = {k: None for k, v in t.items() if v is None}
                if nulls:  # explicit nulls: only the identity needs them
                    tool.ext = {**nulls, **(tool.ext or {})}
            out.append(tool)
    codec.decode_tool_choice(w, req, ctx)  # the tool_choice rule, compiled per protocol


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    if not req.tools and ctx.same and req.hints and req.hints.get("tools_empty"):
        out["tools"] = []
    if req.tools:
        wire = []
        for i, t in enumerate(req.tools):
            path = f"tools[{i}]"
            if t.kind != "function":
                if (entry := hosted_entry(t, path, ctx)) is not None:
                    wire.append(entry)
                continue
            wire.append(codec.encode_tool(t, path, ctx))
        out["tools"] = wire
    codec.encode_tool_choice(req, out, ctx)


TOOLS = Transform(
    name="tools",
    doc=__doc__ or "",
    request_keys=frozenset({"tools"}),  # the choice's: the codec's TOOL_CHOICE_KEYS (its rows)
    decode_request=_decode,
    encode_request=_encode,
)
