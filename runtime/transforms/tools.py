"""tools: the tool list (function tools through the generated rows, hosted tools carried only
to their own protocol), ``tool_choice`` in either wire shape, and the parallel-calls switch,
which Anthropic keeps inside tool_choice and Chat beside it (flags.tool_choice_shape)."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput
from .._losses import Ctx
from .._wire import expect_bool, expect_dict, expect_list, expect_str
from ..generated.canonical import Request, Tool, ToolChoice
from ._base import Codec, Transform
from ._util import drop_hosted_tool


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
    choice = w.get("tool_choice")
    if choice is None:
        return
    if codec.FLAGS.tool_choice_shape == "typed_object":
        choice = expect_dict(choice, "tool_choice")
        raw = choice.get("type")
        mode = codec.TOOL_CHOICE_DECODE.get(raw) if type(raw) is str else None
        if mode is None:
            raise InvalidInput(
                f"unknown tool_choice type {choice.get('type')!r}", path="tool_choice.type"
            )
        name = choice.get("name")
        req.tool_choice = ToolChoice(
            mode=mode, name=expect_str(name, "tool_choice.name") if name is not None else None
        )
        dp = choice.get("disable_parallel_tool_use")
        if dp is not None:
            req.parallel_tool_calls = not expect_bool(dp, "tool_choice.disable_parallel_tool_use")
        return
    if type(choice) is str:
        mode = codec.TOOL_CHOICE_DECODE.get(choice)
        if mode is None:
            raise InvalidInput(f"unknown tool_choice {choice!r}", path="tool_choice")
        req.tool_choice = ToolChoice(mode=mode)
        if codec.TOOL_CHOICE_ENCODE.get(mode) != choice:  # a dialect spelling (Mistral "any")
            req.hints = {**(req.hints or {}), "tool_choice_raw": choice}
    elif codec.FLAGS.tool_choice_shape == "string_or_flat_function":
        _decode_flat_choice(expect_dict(choice, "tool_choice"), req, ctx)
    else:
        choice = expect_dict(choice, "tool_choice")
        fn = expect_dict(choice.get("function"), "tool_choice.function")
        req.tool_choice = ToolChoice(
            mode="tool", name=expect_str(fn.get("name"), "tool_choice.function.name")
        )


def _decode_flat_choice(choice: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """Responses: {type: function, name}; any other object (allowed_tools, a hosted tool) is kept
    whole for Responses and becomes its nearest mode elsewhere (reported now: the target is known)."""
    if choice.get("type") == "function":
        req.tool_choice = ToolChoice(
            mode="tool", name=expect_str(choice.get("name"), "tool_choice.name")
        )
        return
    mode = choice.get("mode") if choice.get("mode") in ("auto", "required") else "auto"
    req.tool_choice = ToolChoice(mode=mode)
    req.hints = {**(req.hints or {}), "tool_choice_object": choice}
    if not ctx.same:
        ctx.loss(
            "tool_choice",
            f"tool_choice {choice.get('type')!r} sent as {mode!r}",
            f"{ctx.target} has no such tool choice",
            "tool_choice",
        )


def _decode_parallel(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    if codec.FLAGS.parallel_flag == "parallel_tool_calls":
        v = w.get("parallel_tool_calls")
        if v is not None:
            req.parallel_tool_calls = expect_bool(v, "parallel_tool_calls")


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    if not req.tools and ctx.same and req.hints and req.hints.get("tools_empty"):
        out["tools"] = []
    if req.tools:
        wire = []
        for i, t in enumerate(req.tools):
            path = f"tools[{i}]"
            if t.kind != "function":
                if ctx.same and t.ext is not None:
                    wire.append(t.ext)
                else:
                    drop_hosted_tool(t, path, ctx)
                continue
            wire.append(codec.encode_tool(t, path, ctx))
        out["tools"] = wire
    tc = req.tool_choice
    if codec.FLAGS.tool_choice_shape == "typed_object":
        if tc is None and req.parallel_tool_calls is False:
            tc = ToolChoice(mode="auto")
        if tc is None:
            return
        obj: dict[str, Any] = {"type": codec.TOOL_CHOICE_ENCODE[tc.mode]}
        if tc.name is not None:
            obj["name"] = tc.name
        if req.parallel_tool_calls is not None and tc.mode != "none":
            obj["disable_parallel_tool_use"] = not req.parallel_tool_calls
        out["tool_choice"] = obj
        return
    if req.parallel_tool_calls is not None:
        out["parallel_tool_calls"] = req.parallel_tool_calls
    if tc is not None:
        raw = (req.hints or {}).get("tool_choice_raw") if ctx.same else None
        obj_raw = (req.hints or {}).get("tool_choice_object") if ctx.same else None
        if obj_raw is not None:
            out["tool_choice"] = obj_raw
        elif tc.mode == "tool" and codec.FLAGS.tool_choice_shape == "string_or_flat_function":
            out["tool_choice"] = {"type": "function", "name": tc.name}
        elif tc.mode == "tool":
            out["tool_choice"] = {"type": "function", "function": {"name": tc.name}}
        elif raw is not None and codec.TOOL_CHOICE_DECODE.get(raw) == tc.mode:
            out["tool_choice"] = raw
        else:
            out["tool_choice"] = codec.TOOL_CHOICE_ENCODE[tc.mode]


def _decode_all(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    _decode(w, req, codec, ctx)
    _decode_parallel(w, req, codec, ctx)


TOOLS = Transform(
    name="tools",
    doc=__doc__ or "",
    request_keys=frozenset({"tools", "tool_choice", "parallel_tool_calls"}),
    decode_request=_decode_all,
    encode_request=_encode,
)
