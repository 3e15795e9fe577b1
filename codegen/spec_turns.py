"""The spec language, protocols/*.yaml `flags.turns`: how a conversation's turns are laid out
beyond flags.system_placement and flags.tool_results. The turn walk of every protocol whose tool
results sit in user turns is compiled from these rows into its codec (codegen/turns_code.py;
messages_blocks and gemini_contents call it; role_default is read by messages_flat too); the
runtime type of the same name in generated/spec_types.py is generated from this model."""

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
    """How turns are laid out beyond the other flags (codegen/turns_code.py)."""

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
    key: str = Field("messages", description="tool_results user_turn_blocks: key of the turn list")
    parts_key: str = Field("content", description="key of a turn's parts (Gemini `parts`)")
    system_key: str = Field(
        "system", description="top-level key of the system prompt (Gemini `systemInstruction`)"
    )
    one_object: bool = Field(
        False, description="the turn list may be one turn object, written back so (Gemini)"
    )
    system_form: Literal["blocks", "content"] = Field(
        "blocks",
        description="how the system prompt and a turn's parts are said: content blocks (a "
        "string or a list of parts, Anthropic) or a content (a turn's parts a list; the system "
        "prompt a string or an object {role?, parts}, its role kept between endpoints: Gemini)",
    )
    keep_turn_keys: bool = Field(
        False,
        description="a turn's role as it came and its role / parts keys left out as they "
        "came are kept between endpoints of the protocol (Gemini)",
    )


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
    for row in (
        "results_order",
        "key",
        "parts_key",
        "system_key",
        "one_object",
        "system_form",
        "keep_turn_keys",
    ):
        if row in t.model_fields_set and not blocks:  # compiled into the user-turn walk alone
            out.append(
                (
                    (*at, row),
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
