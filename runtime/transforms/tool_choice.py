"""The tool_choice rule, one helper for every protocol, driven by rows: the ``tool_choice`` enum
table (a named choice is written with the ``tool`` row's raw value), ``tool_choice_rule`` (where
the choice sits, whether a mode is a bare string or an object, where a named choice's tool name
sits, the mode written by leaving the field out, the mode a named choice becomes where there is
no named form, a top-level ``strict`` switch for all tools) and ``flags.parallel_flag`` (where
the parallel switch sits, or that there is none)."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_bool, expect_dict, expect_str, expect_str_list
from ..generated.canonical import Request, ToolChoice
from ._base import Codec
from ._paths import dig, put

_DISABLE = "disable_parallel_tool_use"  # the switch inside the choice object (flags.parallel_flag)


def _mode(codec: Codec, raw: Any, path: str, key: str | None = None) -> str:
    """The canonical mode of a raw one: an unknown (or absent) one is the table's decode default
    where it has one, else refused."""
    mode = codec.TOOL_CHOICE_DECODE.get(raw) if type(raw) is str else None
    if mode is None:
        mode = getattr(codec, "TOOL_CHOICE_DECODE_DEFAULT", None)
        if mode is None or not (raw is None or type(raw) is str):
            allowed = ", ".join(sorted(codec.TOOL_CHOICE_DECODE))
            raise InvalidInput(
                f"unknown tool_choice {brief(raw)} (expected one of {allowed})",
                path=f"{path}.{key}" if key else path,
            )
    return mode  # type: ignore[no-any-return]


def decode_tool_choice(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
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
    path = rule["at"]
    if "." in path:  # the choice's parent (Gemini toolConfig) goes back whole to the protocol
        segs = tuple(path.split("."))
        parent = dig(w, segs[:-1])
        if parent is None:
            return
        where = ".".join(segs[:-1])
        req.hints = {**(req.hints or {}), "tool_choice_parent": expect_dict(parent, where)}
        for k in parent.keys() - {segs[-1]} if not ctx.same else ():
            ctx.loss(
                f"{where}.{k}", f"{k} dropped", f"{ctx.target} has no equivalent", "extensions"
            )
    choice = dig(w, segs) if "." in path else w.get(path)
    if choice is None:
        return  # absent: the protocol's default (auto), as canonical None says
    strings = rule["form"] == "string"
    if strings and (type(choice) is str or rule["name"] is None):
        mode = _mode(codec, choice, path)
        req.tool_choice = ToolChoice(mode=mode)
        if codec.TOOL_CHOICE_ENCODE.get(mode) != choice:  # a dialect spelling (Mistral "any")
            req.hints = {**(req.hints or {}), "tool_choice_raw": choice}
        return
    obj = expect_dict(choice, path)
    raw = obj.get(rule["mode"])
    if strings:  # the object form is a named choice, or one kept whole (other_objects)
        if rule["other_objects"] and raw != codec.TOOL_CHOICE_ENCODE["tool"]:
            _keep_object(obj, req, ctx)
            return
        at, key = f"{path}.{rule['name']}".rsplit(".", 1)  # each object on the way is needed
        name = expect_dict(dig(w, tuple(at.split("."))), at).get(key)
        req.tool_choice = ToolChoice(mode="tool", name=expect_str(name, f"{at}.{key}"))
        return
    tc = req.tool_choice = ToolChoice(mode=_mode(codec, raw, path, rule["mode"]))
    named = obj.get(rule["name"]) if rule["name"] else None
    if named is not None:
        tc.name = expect_str(named, f"{path}.{rule['name']}")
    if rule["names"]:
        _names(obj.get(rule["names"]), tc, f"{path}.{rule['names']}", ctx)
    if raw is not None and codec.TOOL_CHOICE_ENCODE.get(tc.mode) != raw and not ctx.same:
        ctx.loss(
            f"{path}.{rule['mode']}",
            f"mode {brief(raw)} sent as {tc.mode!r}",
            f"{ctx.target} has no such mode",
            "tool_choice",
        )
    dp = obj.get(_DISABLE) if codec.FLAGS.parallel_flag == _DISABLE else None
    if dp is not None:
        req.parallel_tool_calls = not expect_bool(dp, f"{path}.{_DISABLE}")


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


def _keep_object(choice: dict[str, Any], req: Request, ctx: Ctx) -> None:
    """Another object (Responses allowed_tools, a hosted tool) is kept whole for its protocol
    and becomes its nearest mode elsewhere (reported now: the target is known)."""
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
        out["parallel_tool_calls"] = req.parallel_tool_calls
    elif parallel == "none" and req.parallel_tool_calls is False:
        ctx.loss(
            "parallel_tool_calls",
            "parallel_tool_calls: false dropped",
            f"{ctx.target} has no switch for parallel tool calls",
            "parallel_tool_calls",
        )
    at = rule["at"]
    if hints.get("tool_choice_parent") is not None:
        put(out, tuple(at.split("."))[:-1], hints["tool_choice_parent"])
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
        _put(out, at, hints["tool_choice_object"])
        return
    raw = hints.get("tool_choice_raw")
    wire = raw if raw is not None and codec.TOOL_CHOICE_DECODE.get(raw) == mode else None
    wire = wire or codec.TOOL_CHOICE_ENCODE[mode]
    if rule["form"] == "string" and mode != "tool":
        _put(out, at, wire)
        return
    obj: dict[str, Any] = {rule["mode"]: wire}
    if mode == "tool" and rule["names"]:
        obj[rule["names"]] = [tc.name]
    elif mode == "tool" and tc.name is not None:
        put(obj, tuple(rule["name"].split(".")), tc.name)
    if parallel == _DISABLE and req.parallel_tool_calls is not None and mode != "none":
        obj[_DISABLE] = not req.parallel_tool_calls
    _put(out, at, obj)


def _put(out: dict[str, Any], at: str, value: Any) -> None:
    if "." in at:
        put(out, tuple(at.split(".")), value)
    else:
        out[at] = value


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
