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
the loss words."""

from __future__ import annotations

from typing import Any

from .._errors import brief
from .._losses import Ctx
from ..generated.canonical import DEFAULT_EFFORT, EFFORT_BUDGETS, UNKNOWN_EFFORT, ReasoningConfig

__all__ = ["EFFORT_BUDGETS", "effort_for_budget", "thinking_budget", "thinking_off"]

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


def _lost(key: str, what: str, why: str, ctx: Ctx) -> None:
    """A reasoning setting the target cannot say as the client did (``reasoning.<key>``)."""
    ctx.loss(f"reasoning.{key}", what, why, _FEATURE)


def effort_mapped(effort: str, wire: str, ctx: Ctx) -> None:
    """An effort the protocol lacks, sent as the one its effort_map row names."""
    why = f"{ctx.target} has no {effort!r} effort"
    _lost("effort", f"effort {effort!r} sent as {wire!r}", why, ctx)


def effort_as_budget(effort: str | None, budget: int | None, ctx: Ctx) -> None:
    why = f"{ctx.target} has no such effort"
    _lost("effort", f"effort {brief(effort)} sent as budget {budget}", why, ctx)


def budget_as_effort(budget: int, where: str, effort: str | None, ctx: Ctx) -> None:
    why = f"{ctx.target} has efforts, not budgets"
    _lost("budget_tokens", f"budget {budget} sent as {where} {effort!r}", why, ctx)


def mode_as_effort(mode: str, where: str, ctx: Ctx) -> str:
    """A mode with no amount where there are efforts only: the default effort (reported)."""
    what = f"thinking {mode!r} sent as {where} {DEFAULT_EFFORT!r}"
    _lost("mode", what, f"{ctx.target} has efforts only", ctx)
    return DEFAULT_EFFORT


def one_of_two(r: ReasoningConfig, budget: bool, effort: bool, ctx: Ctx) -> None:
    """A budget and an effort where the target writes one of them: the other is reported."""
    if not budget:
        why = f"{ctx.target} takes the effort alone"
        _lost("budget_tokens", f"budget {r.budget_tokens} dropped", why, ctx)
    elif not effort:
        why = f"{ctx.target} takes the budget alone"
        _lost("effort", f"effort {brief(r.effort)} dropped", why, ctx)


def summary_dropped(summary: str, ctx: Ctx) -> None:
    why = f"{ctx.target} has no reasoning summary setting (what it returns is its own)"
    _lost("summary", f"summary {brief(summary)} dropped", why, ctx)


def lowered_budget(budget: int, limit: Any, least: int, key: str, ctx: Ctx) -> int | None:
    """A budget must stay below the output limit (Anthropic max_tokens): lowered to half of it,
    not under the protocol's smallest budget (``least``), reported; None when no budget fits."""
    if type(limit) is not int or budget < limit:
        return budget
    lowered = max(least, limit // 2)
    what = f"thinking budget {budget} lowered to {lowered}"
    _lost("budget_tokens", what, f"it must stay below {key}", ctx)
    return lowered if lowered < limit else None
