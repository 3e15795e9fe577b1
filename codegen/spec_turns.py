"""The spec language, protocols/*.yaml `flags.turns`: how a conversation's turns are laid out
beyond flags.system_placement and flags.tool_results. runtime/transforms/turns.py applies these
for every layout transform (messages_blocks, gemini_contents, messages_flat); the runtime type
of the same name in generated/spec_types.py is generated from this model. Also
`tool_choice_rule`: where a protocol's tool_choice sits and which forms it takes
(runtime/transforms/tool_choice.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .spec_http import Strict


class ResultWrap(Strict):
    """A tool result whose text is the one value of a JSON object (Gemini
    ``functionResponse.response``: ``{output: text}``, ``{error: text}``)."""

    text: str = Field(description="key written for a result's text")
    error: str = Field(description="key written for an error's text (is_error)")
    read: list[str] = Field(
        default_factory=list, description="further keys read as a result's text (`result`)"
    )


class Turns(Strict):
    """How turns are laid out beyond the other flags (runtime/transforms/turns.py)."""

    role_default: str | None = Field(
        None, description="raw role of a turn sent without one (a `roles` decode row's raw value)"
    )
    results_order: Literal["first", "in_place"] = Field(
        "in_place",
        description="tool_results user_turn_blocks: a user turn's tool results come before its "
        "other parts (Anthropic) or stay where they are (Gemini)",
    )
    result_wrap: ResultWrap | None = Field(
        None, description="tool result text wrapped in a one-key object (Gemini)"
    )
    snake_case: bool = Field(
        False,
        description="snake_case spellings of camelCase keys are read too and written back as "
        "they came (Gemini)",
    )


class ToolChoiceRule(Strict):
    """tool_choice facts beyond the enum rows (a named choice is written with the `tool` row's
    raw value): runtime/transforms/tool_choice.py reads them."""

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

    def view(self) -> dict[str, Any]:
        """The codec's TOOL_CHOICE_RULE: the rows with the paths ``at`` and ``name`` split."""
        return {
            **self.model_dump(),
            "at": tuple(self.at.split(".")),
            "name": tuple(self.name.split(".")) if self.name is not None else None,
        }


def tool_choice_problems(rule: ToolChoiceRule) -> list[tuple[tuple[Any, ...], str]]:
    """What a tool_choice_rule says that contradicts itself, as (key path, message)."""
    at: tuple[Any, ...] = ("tool_choice_rule",)
    out: list[tuple[tuple[Any, ...], str]] = []
    if rule.names is not None and (rule.form != "object" or rule.name is not None):
        out.append(((*at, "names"), "only for form object, instead of name"))
    if rule.other_objects and (rule.form != "string" or rule.name is None):
        out.append(((*at, "other_objects"), "only for form string with a named form (name)"))
    if rule.named_as is not None and (rule.name or rule.names):
        out.append(((*at, "named_as"), "only for a protocol with no named form (name, names)"))
    return out


def turns_problems(p: Any) -> list[tuple[tuple[Any, ...], str]]:
    """What ``flags.turns`` of the ProtocolSpec ``p`` says that its other rows contradict, as
    (key path, message) for codegen/checks.py."""
    t, tool_results = p.flags.turns, p.flags.tool_results
    at: tuple[Any, ...] = ("flags", "turns")
    out: list[tuple[tuple[Any, ...], str]] = []
    raws = sorted({r.raw for r in p.roles if r.only != "encode"})
    if t.role_default is not None and t.role_default not in raws:
        out.append(
            (
                (*at, "role_default"),
                f"{t.role_default!r} is not the raw value of a roles decode row "
                f"(expected one of {', '.join(raws)})",
            )
        )
    blocks = tool_results == "user_turn_blocks"
    if "results_order" in t.model_fields_set and not blocks:
        out.append(
            (
                (*at, "results_order"),
                f"only for tool results in user turns (flags.tool_results is {tool_results})",
            )
        )
    w = t.result_wrap
    keys = [w.text, w.error, *w.read] if w is not None else []
    for k in sorted({k for k in keys if keys.count(k) > 1}):
        out.append(((*at, "result_wrap"), f"key {k!r} named twice"))
    if blocks and w is None and not any(r.part == "tool_result" for r in p.parts):
        out.append(
            (
                ("flags", "tool_results"),
                "user_turn_blocks with no tool_result part row needs flags.turns.result_wrap "
                "(how a result's text is wrapped)",
            )
        )
    return out
