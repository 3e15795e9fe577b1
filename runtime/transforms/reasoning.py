"""reasoning: the reasoning configuration (canonical ReasoningConfig). Codegen compiles each
protocol's ``reasoning`` rows (codegen/settings_reasoning.py) into ``decode_reasoning_config`` /
``encode_reasoning_config`` in its generated codec, which its compiled pipeline calls where its
``transforms`` row names ``reasoning`` (canonical.yaml: ``compiled: reasoning_config``).

Toward the same protocol the canonical values go back as they came. Toward another one the
compiled rows say what they can: an effort becomes its budget where there are budgets only, a
budget the smallest effort covering it where there are efforts only (reported), a mode with no
amount the default effort. What every protocol shares stays here: the one budget rule
(``thinking_budget``, ``effort_for_budget``; its facts are spec/canonical.yaml's), which
a codec's compiled ``encode_request`` also uses for the room a defaulted output limit leaves, and
the loss rule (``lost``; the words are the compiled rules')."""

from __future__ import annotations

from typing import Any

from .._losses import Ctx
from ..generated.canonical import DEFAULT_EFFORT, EFFORT_BUDGETS, UNKNOWN_EFFORT, ReasoningConfig

__all__ = [
    "DEFAULT_EFFORT",
    "EFFORT_BUDGETS",
    "effort_for_budget",
    "lost",
    "lowered_budget",
    "thinking_budget",
    "thinking_off",
]

_FEATURE = "reasoning_config"


def thinking_budget(r: ReasoningConfig | None) -> int | None:
    """The thinking tokens ``r`` asks for, the one rule of the budget a protocol with budgets
    gets and of the room a defaulted output limit leaves (a codec's compiled
    ``encode_request``): its budget, else its effort's (an effort the table lacks:
    UNKNOWN_EFFORT's), else for an enabled mode, or a reasoning summary asked for with no mode
    (Codex: who asks to see the reasoning wants thinking on), DEFAULT_EFFORT's; None when it
    asks none (disabled, effort none with no mode, adaptive or no mode with no amount and no
    summary)."""
    if r is None or thinking_off(r):
        return None
    if r.budget_tokens is not None:
        return r.budget_tokens
    if r.effort is not None and r.effort != "none":  # none beside a mode: no amount said
        return EFFORT_BUDGETS.get(r.effort, EFFORT_BUDGETS[UNKNOWN_EFFORT])
    on = r.mode == "enabled" or (r.mode is None and r.summary is not None)
    return EFFORT_BUDGETS[DEFAULT_EFFORT] if on else None


def thinking_off(r: ReasoningConfig) -> bool:
    """Does ``r`` turn thinking off: a disabled mode, or the effort none with no mode?"""
    return r.mode == "disabled" or (r.mode is None and r.effort == "none")


def effort_for_budget(budget: int) -> str:
    for effort, b in EFFORT_BUDGETS.items():
        if budget <= b:
            return effort
    return next(reversed(EFFORT_BUDGETS))


# ---------------------------------------------------------------- the losses the rows report


def lost(key: str, what: str, why: str, ctx: Ctx) -> None:
    """A reasoning setting the target cannot say as the client did (``reasoning.<key>``): what
    became of it, and why (what the target lacks: the compiled rules know which they apply)."""
    ctx.loss(f"reasoning.{key}", what, f"{ctx.target} {why}", _FEATURE)


def lowered_budget(budget: int, limit: Any, least: int, key: str, ctx: Ctx) -> int | None:
    """A budget must stay below the output limit (Anthropic max_tokens): lowered to half of it,
    not under the protocol's smallest budget (``least``), reported; None when no budget fits."""
    if type(limit) is not int or budget < limit:
        return budget
    lowered = max(least, limit // 2)
    what = f"thinking budget {budget} lowered to {lowered}"
    ctx.loss("reasoning.budget_tokens", what, f"it must stay below {key}", _FEATURE)
    return lowered if lowered < limit else None
