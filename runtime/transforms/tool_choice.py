"""The tool_choice rule, one helper for every protocol, driven by rows: the ``tool_choice`` enum
table, ``flags.tool_choice_shape`` (which wire forms exist), ``flags.parallel_flag`` (where the
parallel switch sits, or that there is none) and ``tool_choice_rule`` (the mode written by
leaving the field out, the mode a named choice becomes where there is no named form, a
top-level ``strict`` switch for all tools, the object holding mode and names: Gemini's
``toolConfig.functionCallingConfig``)."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_bool, expect_dict, expect_str, expect_str_list
from ..generated.canonical import Request, ToolChoice
from ._base import Codec
from ._paths import dig, put


def _mode(codec: Codec, raw: Any, path: str) -> str:
    mode = codec.TOOL_CHOICE_DECODE.get(raw) if type(raw) is str else None
    if mode is None:
        allowed = ", ".join(sorted(codec.TOOL_CHOICE_DECODE))
        raise InvalidInput(
            f"unknown tool_choice {brief(raw)} (expected one of {allowed})", path=path
        )
    return mode  # type: ignore[no-any-return]


def decode_tool_choice(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    shape = codec.FLAGS.tool_choice_shape
    rule = codec.TOOL_CHOICE_RULE
    if codec.FLAGS.parallel_flag == "parallel_tool_calls":
        v = w.get("parallel_tool_calls")
        if v is not None:
            req.parallel_tool_calls = expect_bool(v, "parallel_tool_calls")
    if rule["strict_path"] is not None:
        strict = w.get(rule["strict_path"])
        if strict is not None:
            strict = expect_bool(strict, rule["strict_path"])
            for t in req.tools:
                t.strict = strict
    if shape == "function_calling_config":
        _decode_object(w, req, codec, ctx)
        return
    choice = w.get("tool_choice")
    if choice is None:
        return  # absent: the protocol's default (auto), as canonical None says
    if shape == "typed_object":
        choice = expect_dict(choice, "tool_choice")
        mode = _mode(codec, choice.get("type"), "tool_choice.type")
        name = choice.get("name")
        req.tool_choice = ToolChoice(
            mode=mode, name=expect_str(name, "tool_choice.name") if name is not None else None
        )
        dp = choice.get("disable_parallel_tool_use")
        if dp is not None:
            req.parallel_tool_calls = not expect_bool(dp, "tool_choice.disable_parallel_tool_use")
        return
    if type(choice) is str or shape == "string":
        mode = _mode(codec, choice, "tool_choice")
        req.tool_choice = ToolChoice(mode=mode)
        if codec.TOOL_CHOICE_ENCODE.get(mode) != choice:  # a dialect spelling (Mistral "any")
            req.hints = {**(req.hints or {}), "tool_choice_raw": choice}
    elif shape == "string_or_flat_function":
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
            f"tool_choice {brief(choice.get('type'))} sent as {mode!r}",
            f"{ctx.target} has no such tool choice",
            "tool_choice",
        )


def _decode_object(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    """The mode and the allowed names in an object (tool_choice_rule.object: Gemini
    toolConfig.functionCallingConfig): one name with the required mode is a named choice. Its
    parent goes back whole to the same protocol; what only it can say is reported, on decode."""
    rule = codec.TOOL_CHOICE_RULE
    segs = tuple(rule["object"].split("."))
    parent = dig(w, segs[:-1])
    if parent is None:
        return
    where = ".".join(segs[:-1])
    req.hints = {**(req.hints or {}), "tool_choice_parent": expect_dict(parent, where)}
    for k in parent.keys() - {segs[-1]} if not ctx.same else ():
        ctx.loss(f"{where}.{k}", f"{k} dropped", f"{ctx.target} has no equivalent", "extensions")
    obj = dig(w, segs)
    if obj is None:
        return
    path = rule["object"]
    raw = expect_dict(obj, path).get("mode")
    raw = expect_str(raw, path + ".mode") if raw is not None else None
    mode = codec.TOOL_CHOICE_DECODE.get(raw, codec.TOOL_CHOICE_DECODE_DEFAULT) if raw else "auto"
    names = obj.get(rule["names"])
    names = expect_str_list(names, f"{path}.{rule['names']}") if names is not None else []
    one = mode == "required" and len(names) == 1
    req.tool_choice = ToolChoice(mode="tool", name=names[0]) if one else ToolChoice(mode=mode)
    if ctx.same:
        return
    if names and not one:
        ctx.loss(
            f"{path}.{rule['names']}",
            f"restriction to {len(names)} functions dropped",
            f"{ctx.target} names at most one forced tool",
            "tool_choice",
        )
    if raw is not None and codec.TOOL_CHOICE_ENCODE.get(mode) != raw:
        ctx.loss(
            f"{path}.mode",
            f"mode {brief(raw)} sent as {mode!r}",
            f"{ctx.target} has no such mode",
            "tool_choice",
        )


def no_parallel_switch(req: Request, ctx: Ctx) -> None:
    """A protocol with no parallel switch (flags.parallel_flag: none) calls tools in parallel
    as it likes: turning that off cannot be said, and is reported."""
    if req.parallel_tool_calls is False:
        ctx.loss(
            "parallel_tool_calls",
            "parallel_tool_calls: false dropped",
            f"{ctx.target} has no switch for parallel tool calls",
            "parallel_tool_calls",
        )


def encode_tool_choice(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    shape = codec.FLAGS.tool_choice_shape
    rule = codec.TOOL_CHOICE_RULE
    hints = (req.hints or {}) if ctx.same else {}
    tc = req.tool_choice
    if rule["strict_path"] is not None:
        _encode_strict(req, out, rule["strict_path"], ctx)
    if shape == "typed_object":
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
    if codec.FLAGS.parallel_flag == "none":
        no_parallel_switch(req, ctx)
    elif req.parallel_tool_calls is not None:
        out["parallel_tool_calls"] = req.parallel_tool_calls
    if shape == "function_calling_config" and hints.get("tool_choice_parent") is not None:
        put(out, tuple(rule["object"].split("."))[:-1], hints["tool_choice_parent"])
        return  # the source's own object: mode and names decoded from it
    if tc is None:
        return
    mode = tc.mode
    if mode == "tool" and rule["named_as"] is not None:
        mode = rule["named_as"]
        ctx.loss(
            "tool_choice",
            f"tool_choice naming {brief(tc.name)} sent as {codec.TOOL_CHOICE_ENCODE[mode]!r}",
            f"{ctx.target} cannot force one named tool",
            "tool_choice",
        )
    raw = hints.get("tool_choice_raw")
    if mode == rule["absent_means"]:
        return  # written by leaving the field out
    if shape == "function_calling_config":
        segs = tuple(rule["object"].split("."))
        put(out, (*segs, "mode"), codec.TOOL_CHOICE_ENCODE[mode])
        if mode == "tool":
            put(out, (*segs, rule["names"]), [tc.name])
    elif hints.get("tool_choice_object") is not None:
        out["tool_choice"] = hints["tool_choice_object"]
    elif mode == "tool" and shape == "string_or_flat_function":
        out["tool_choice"] = {"type": "function", "name": tc.name}
    elif mode == "tool":
        out["tool_choice"] = {"type": "function", "function": {"name": tc.name}}
    elif raw is not None and codec.TOOL_CHOICE_DECODE.get(raw) == mode:
        out["tool_choice"] = raw
    else:
        out["tool_choice"] = codec.TOOL_CHOICE_ENCODE[mode]


def _encode_strict(req: Request, out: dict[str, Any], key: str, ctx: Ctx) -> None:
    """One switch for every tool: on when every function tool is strict (a mix is reported)."""
    flags = [t.strict for t in req.tools if t.kind == "function"]
    if not flags or all(s is None for s in flags):
        return
    out[key] = all(flags)
    if any(s is not all(flags) for s in flags):
        ctx.loss(
            key,
            f"per-tool strict flags sent as {key}: {all(flags)}",
            f"{ctx.target} has one strict switch for all tools",
            "tool_spec",
        )
