"""The tool_choice rule (``tool_choice_rule`` in spec/protocols/*.yaml, with the ``tool_choice``
enum rows and ``flags.parallel_flag``), compiled: codegen/templates/_codec_tool_choice.j2 emits
into each protocol's codec ``decode_tool_choice`` / ``encode_tool_choice`` holding only the steps
that protocol's rows take (its paths as literal keys); the compiled tools walk calls them. A rule
whose fields contradict each other is refused here with its file, line and row."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import Field

from .source import Loc
from .spec_http import Strict

DISABLE = "disable_parallel_tool_use"  # flags.parallel_flag: the switch inside the choice object


class ToolChoiceRule(Strict):
    """tool_choice facts beyond the enum rows (a named choice is written with the `tool` row's
    raw value), compiled into each codec's decode_tool_choice / encode_tool_choice."""

    at: str = Field(
        "tool_choice",
        description="path of the choice (Gemini toolConfig.functionCallingConfig); the parent "
        "of a longer path goes back whole to the same protocol, its other keys are reported "
        "for another",
    )
    form: Literal["string", "object"] = Field(
        "string",
        description="a mode is the bare raw string (Chat `auto`; a named choice is then the "
        "object `{<mode>: <tool row's raw>, <name>: ...}`), or always an object (Anthropic "
        "`{type: auto}`)",
    )
    mode: str = Field("type", description="key of the mode in the object (Gemini `mode`)")
    name: str | None = Field(
        None,
        description="path of a named choice's tool name in the object (Anthropic `name`, Chat "
        "`function.name`); none: no named form",
    )
    names: str | None = Field(
        None,
        description="key of the allowed function names in the object (Gemini "
        "allowedFunctionNames, form object): one name with the required mode is a named "
        "choice, more are reported",
    )
    other_objects: bool = Field(
        False,
        description="another object (Responses allowed_tools, a hosted tool's choice) goes back "
        "whole to the same protocol and becomes its `mode` (auto or required) elsewhere, "
        "reported",
    )
    absent_means: str | None = Field(
        None,
        description="the mode the protocol writes by leaving tool_choice out (Cohere: auto); "
        "it has no row in `tool_choice`",
    )
    named_as: str | None = Field(
        None,
        description="a protocol with no named-tool form sends a named choice as this mode "
        "(reported as a loss)",
    )
    strict_path: str | None = Field(
        None,
        description="top-level bool making every tool strict (Cohere strict_tools), for "
        "protocols with no per-tool strict flag",
    )


def tool_choice_problems(p: Any, modes: list[str]) -> list[tuple[Loc, str]]:
    """What the ProtocolSpec ``p``'s tool_choice_rule says that contradicts itself, its enum
    rows or flags.parallel_flag (``modes``: the canonical ToolChoiceMode values), as (key path,
    message): the rules the template cannot compile."""
    rule = p.tool_choice_rule
    at: Loc = ("tool_choice_rule",)
    out: list[tuple[Loc, str]] = []
    if rule.names is not None and (rule.form != "object" or rule.name is not None):
        out.append(((*at, "names"), "only for form object, instead of name"))
    if rule.other_objects and (rule.form != "string" or rule.name is None):
        out.append(((*at, "other_objects"), "only for form string with a named form (name)"))
    if rule.named_as is not None and (rule.name or rule.names):
        out.append(((*at, "named_as"), "only for a protocol with no named form (name, names)"))
    for key in ("at", "name", "names", "strict_path"):
        path = getattr(rule, key)
        if path is not None and "" in path.split("."):
            out.append(((*at, key), f"{path!r} has an empty key"))
    if "mode" in rule.model_fields_set and rule.form == "string" and rule.name is None:
        out.append(((*at, "mode"), "only for form object or a named form (name)"))
    keys = {"name": (rule.name or "").split(".")[0], "names": rule.names}
    if p.flags.parallel_flag == DISABLE:
        keys[f"flags.parallel_flag {DISABLE}"] = DISABLE
    for what, key in keys.items():
        if key == rule.mode and rule.form == "object":
            out.append(((*at, "mode"), f"{key!r} is also the key of {what}"))
    encoded = {r.unified: r.raw for r in p.tool_choice if r.only != "decode"}
    if rule.absent_means in encoded:
        out.append(
            (
                (*at, "absent_means"),
                f"{rule.absent_means!r} has an encode row in tool_choice "
                f"({encoded[rule.absent_means]}): it is written by the row, not left out",
            )
        )
    if rule.named_as in modes and rule.named_as not in encoded:
        out.append(((*at, "named_as"), f"{rule.named_as!r} has no encode row in tool_choice"))
    named = rule.name or rule.names or rule.named_as
    if "tool" in modes and not named:
        out.append((at, "a named choice (mode tool) needs a named form (name, names) or named_as"))
    if p.flags.parallel_flag == DISABLE and rule.form != "object":
        out.append(
            (("flags", "parallel_flag"), f"{DISABLE} sits inside the choice: needs form object")
        )
    strict = rule.strict_path
    if strict is not None and strict in (rule.at.split(".")[0], p.flags.parallel_flag):
        out.append(((*at, "strict_path"), f"{strict!r} is also the key of the choice or switch"))
    return out


def tool_choice_view(p: Any) -> dict[str, Any]:
    """The rule as the template reads it: paths split, the choices the rows settle made."""
    rule = p.tool_choice_rule
    dec: dict[str, str] = {}
    enc: dict[str, str] = {}
    for r in p.tool_choice:
        if r.only != "encode":
            dec.setdefault(r.raw, r.unified)
        if r.only != "decode":
            enc.setdefault(r.unified, r.raw)
    d = p.enum_defaults.tool_choice
    default = d.decode if d is not None else None
    at = rule.at.split(".")
    name = rule.name.split(".") if rule.name else None
    parallel = p.flags.parallel_flag if p.flags.parallel_flag == "parallel_tool_calls" else None
    value = "tc.name"  # a named choice's name, in the objects of the name path past the first
    for seg in reversed(name[1:] if name else ()):
        value = f"{{{json.dumps(seg)}: {value}}}"
    return {
        "at": at,
        "path": rule.at,
        "form": rule.form,
        "mode": rule.mode,
        "mode_path": f"{rule.at}.{rule.mode}" if rule.form == "object" else rule.at,
        "name": name,
        "name_value": value,
        "names": rule.names,
        "other_objects": rule.other_objects,
        "absent_means": rule.absent_means,
        "named_as": rule.named_as,
        "strict": rule.strict_path,
        "parallel": p.flags.parallel_flag,
        "disable": DISABLE,
        "decode_default": default,
        "encode_default": d.encode if d is not None else None,
        "allowed": ", ".join(sorted(dec)),
        # a raw the decode keeps (another spelling of a mode, or an unknown one read as the
        # default): it goes back as it came to the same protocol
        "spelled": default is not None or any(enc.get(m) != raw for raw, m in dec.items()),
        "tool_raw": enc.get("tool"),
        "keys": {at[0], parallel, rule.strict_path} - {None},
    }
