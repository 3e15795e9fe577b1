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


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    tools = w.get("tools")
    if tools is not None:
        for i, t in enumerate(expect_list(tools, "tools")):
            path = f"tools[{i}]"
            t = expect_dict(t, path)
            kind = t.get("type")
            if kind is not None and kind != codec.TOOL_TYPE:
                req.tools.append(Tool(name=str(t.get("name") or kind), kind=str(kind), ext=t))
            else:
                req.tools.append(codec.decode_tool(t, path, ctx))
    choice = w.get("tool_choice")
    if choice is None:
        return
    if codec.FLAGS.tool_choice_shape == "typed_object":
        choice = expect_dict(choice, "tool_choice")
        mode = codec.TOOL_CHOICE_DECODE.get(choice.get("type"))
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
    else:
        choice = expect_dict(choice, "tool_choice")
        fn = expect_dict(choice.get("function"), "tool_choice.function")
        req.tool_choice = ToolChoice(
            mode="tool", name=expect_str(fn.get("name"), "tool_choice.function.name")
        )


def _decode_parallel(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    if codec.FLAGS.parallel_flag == "parallel_tool_calls":
        v = w.get("parallel_tool_calls")
        if v is not None:
            req.parallel_tool_calls = expect_bool(v, "parallel_tool_calls")


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    if req.tools:
        wire = []
        for i, t in enumerate(req.tools):
            path = f"tools[{i}]"
            if t.kind != "function":
                if ctx.same and t.ext is not None:
                    wire.append(t.ext)
                else:
                    ctx.loss(
                        path,
                        f"hosted tool {t.kind!r} dropped",
                        f"{ctx.target} cannot run it",
                        "hosted_tools",
                    )
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
        if tc.mode == "tool":
            out["tool_choice"] = {"type": "function", "function": {"name": tc.name}}
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
