"""The tool_choice rule, one helper for every protocol, driven by rows: the ``tool_choice`` enum
table (a named choice is written with the ``tool`` row's raw value), ``tool_choice_rule`` (where
the choice sits, whether a mode is a bare string or an object, where a named choice's tool name
sits, the mode written by leaving the field out, the mode a named choice becomes where there is
no named form, a top-level ``strict`` switch for all tools; codec.TOOL_CHOICE_RULE, its paths
split by codegen) and ``flags.parallel_flag`` (where the parallel switch sits, or that there is
none)."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_bool, expect_dict, expect_str, expect_str_list
from ..generated.canonical import Request, ToolChoice
from ._base import Codec
from ._paths import dig, put

_DISABLE = "disable_parallel_tool_use"  # the switch inside the choice object (flags.parallel_flag)


def _mode(
    codec: Codec, raw: Any, at: tuple[str, ...], req: Request, ctx: Ctx, key: str = ""
) -> str:
    """The canonical mode of a raw one at ``at`` (in the object there: at its ``key``): an
    unknown (or absent) one is the table's decode default where it has one, else refused. A
    spelling other than the mode's own (a decode-only row: Mistral ``any``, Gemini
    ``VALIDATED``; or the default) goes back as it came to the same protocol and is reported
    for another, whether it came bare or in an object."""
    mode = codec.TOOL_CHOICE_DECODE.get(raw) if type(raw) is str else None
    if mode is None:
        mode = getattr(codec, "TOOL_CHOICE_DECODE_DEFAULT", None)
        if mode is None or not (raw is None or type(raw) is str):
            allowed = ", ".join(sorted(codec.TOOL_CHOICE_DECODE))
            raise InvalidInput(
                f"unknown tool_choice {brief(raw)} (expected one of {allowed})",
                path=".".join((*at, key) if key else at),
            )
    if raw is not None and codec.TOOL_CHOICE_ENCODE.get(mode) != raw:
        req.hints = {**(req.hints or {}), "tool_choice_raw": raw}
        if not ctx.same:
            ctx.loss(
                ".".join((*at, key) if key else at),
                f"mode {brief(raw)} sent as {mode!r}",
                f"{ctx.target} has no such mode",
                "tool_choice",
            )
    return mode  # type: ignore[no-any-return]


def decode_tool_choice(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    rule = codec.TOOL_CHOICE_RULE
    parallel = codec.FLAGS.parallel_flag
    if parallel == "parallel_tool_calls" and w.get(parallel) is not None:
        req.parallel_tool_calls = expect_bool(w[parallel], parallel)
    strict = rule["strict_path"]
    if strict is not None and w.get(strict) is not None:
        on = expect_bool(w[strict], strict)
        for t in req.tools:
            t.strict = on
    at = rule["at"]
    if len(at) > 1:  # the choice's parent (Gemini toolConfig) goes back whole to the protocol
        where = ".".join(at[:-1])
        parent = dig(w, at[:-1])
        if parent is None:
            return
        req.hints = {**(req.hints or {}), "tool_choice_parent": expect_dict(parent, where)}
        for k in parent.keys() - {at[-1]} if not ctx.same else ():
            ctx.loss(
                f"{where}.{k}", f"{k} dropped", f"{ctx.target} has no equivalent", "extensions"
            )
        choice = parent.get(at[-1])
    else:
        choice = w.get(at[0])
    if choice is None:
        return  # absent: the protocol's default (auto), as canonical None says
    strings = rule["form"] == "string"
    if strings and (type(choice) is str or rule["name"] is None):
        req.tool_choice = ToolChoice(mode=_mode(codec, choice, at, req, ctx))
        return
    if type(choice) is not dict:
        expect_dict(choice, ".".join(at))
    raw = choice.get(rule["mode"])
    name = rule["name"]
    if strings:  # the object form is a named choice, or one kept whole (other_objects)
        if rule["other_objects"] and raw != codec.TOOL_CHOICE_ENCODE["tool"]:
            _keep_object(choice, req, codec, ctx)
            return
        segs = at + name  # each object on the way is needed
        named = expect_dict(dig(w, segs[:-1]), ".".join(segs[:-1])).get(segs[-1])
        req.tool_choice = ToolChoice(mode="tool", name=expect_str(named, ".".join(segs)))
        return
    tc = req.tool_choice = ToolChoice(mode=_mode(codec, raw, at, req, ctx, rule["mode"]))
    named = (choice.get(name[0]) if len(name) == 1 else dig(choice, name)) if name else None
    if named is not None:
        tc.name = expect_str(named, ".".join(at + name))
    if rule["names"]:
        _names(choice.get(rule["names"]), tc, f"{'.'.join(at)}.{rule['names']}", ctx)
    dp = choice.get(_DISABLE) if parallel == _DISABLE else None
    if dp is not None:
        req.parallel_tool_calls = not expect_bool(dp, ".".join((*at, _DISABLE)))


def _names(names: Any, tc: ToolChoice, path: str, ctx: Ctx) -> None:
    """The allowed names (Gemini allowedFunctionNames): one with the required mode is a named
    choice; more cannot be said by another protocol (reported)."""
    names = expect_str_list(names, path) if names is not None else []
    if tc.mode == "required" and len(names) == 1:
        tc.mode, tc.name = "tool", names[0]
    elif names and not ctx.same:
        ctx.loss(
            path,
            f"restriction to {len(names)} functions dropped",
            f"{ctx.target} names at most one forced tool",
            "tool_choice",
        )


def _keep_object(choice: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    """Another object (Responses allowed_tools, a hosted tool) is kept whole for its protocol
    and becomes the mode it names (allowed_tools ``mode``: auto or required) elsewhere, else
    auto (reported now: the target is known)."""
    named = choice.get("mode")
    mode = codec.TOOL_CHOICE_DECODE.get(named, "auto") if type(named) is str else "auto"
    req.tool_choice = ToolChoice(mode=mode)
    req.hints = {**(req.hints or {}), "tool_choice_object": choice}
    if not ctx.same:
        ctx.loss(
            "tool_choice",
            f"tool_choice {brief(choice.get('type'))} sent as {mode!r}",
            f"{ctx.target} has no such tool choice",
            "tool_choice",
        )


def encode_tool_choice(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    rule = codec.TOOL_CHOICE_RULE
    hints = (req.hints or {}) if ctx.same else {}
    tc = req.tool_choice
    if rule["strict_path"] is not None:
        _encode_strict(req, out, rule["strict_path"], ctx)
    parallel = codec.FLAGS.parallel_flag
    if parallel == _DISABLE and tc is None and req.parallel_tool_calls is False:
        tc = ToolChoice(mode="auto")  # the switch needs a choice to sit in
    elif parallel == "parallel_tool_calls" and req.parallel_tool_calls is not None:
        out[parallel] = req.parallel_tool_calls
    elif parallel == "none" and req.parallel_tool_calls is False:
        ctx.loss(
            "parallel_tool_calls",
            "parallel_tool_calls: false dropped",
            f"{ctx.target} has no switch for parallel tool calls",
            "parallel_tool_calls",
        )
    at = rule["at"]
    if hints.get("tool_choice_parent") is not None:
        put(out, at[:-1], hints["tool_choice_parent"])
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
    if mode == rule["absent_means"]:
        return  # written by leaving the field out
    if hints.get("tool_choice_object") is not None:
        put(out, at, hints["tool_choice_object"])
        return
    raw = hints.get("tool_choice_raw")
    wire = raw if raw is not None and codec.TOOL_CHOICE_DECODE.get(raw) == mode else None
    wire = wire or codec.TOOL_CHOICE_ENCODE[mode]
    if rule["form"] == "string" and mode != "tool":
        put(out, at, wire)
        return
    obj: dict[str, Any] = {rule["mode"]: wire}
    if mode == "tool" and rule["names"]:
        obj[rule["names"]] = [tc.name]
    elif mode == "tool" and tc.name is not None:
        put(obj, rule["name"], tc.name)
    if parallel == _DISABLE and req.parallel_tool_calls is not None and mode != "none":
        obj[_DISABLE] = not req.parallel_tool_calls
    put(out, at, obj)


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
