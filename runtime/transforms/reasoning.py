"""Reasoning configuration in its two wire shapes.

thinking_config: ``thinking`` ({type: enabled, budget_tokens} | {type: adaptive} | {type:
disabled}) plus ``output_config.effort`` (Anthropic Messages; output_config.format is read by the
response_format rows).
reasoning_effort: a single ``reasoning_effort`` string (OpenAI Chat Completions).
Budgets and efforts convert through EFFORT_BUDGETS (spec/canonical.yaml)."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_dict, expect_int, expect_str
from ..generated.canonical import EFFORT_BUDGETS, ReasoningConfig, Request
from ._base import Codec, Transform


def effort_for_budget(budget: int) -> str:
    for effort, b in EFFORT_BUDGETS.items():
        if budget <= b:
            return effort
    return next(reversed(EFFORT_BUDGETS))


_THINKING_KEYS = frozenset({"type", "budget_tokens"})
_OUTPUT_CONFIG_KEYS = frozenset({"effort", "format"})  # format: response_format rows


def _rest(obj: dict[str, Any], known: frozenset[str]) -> dict[str, Any] | None:
    rest = {k: v for k, v in obj.items() if k not in known}
    return rest or None


def _decode_thinking(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    th = w.get("thinking")
    oc = w.get("output_config")
    ext: dict[str, dict[str, Any]] = {}
    if th is not None:
        th = expect_dict(th, "thinking")
        mode = expect_str(th.get("type"), "thinking.type")
        if mode not in ("enabled", "adaptive", "disabled"):
            raise InvalidInput(f"unknown thinking type {brief(mode)}", path="thinking.type")
        budget = th.get("budget_tokens")
        req.reasoning = ReasoningConfig(
            mode=mode,
            budget_tokens=expect_int(budget, "thinking.budget_tokens")
            if budget is not None
            else None,
        )
        if rest := _rest(th, _THINKING_KEYS):
            ext["thinking"] = rest
    if oc is not None:
        oc = expect_dict(oc, "output_config")
        effort = oc.get("effort")
        if effort is not None:
            req.reasoning = req.reasoning or ReasoningConfig()
            req.reasoning.effort = expect_str(effort, "output_config.effort")
        if rest := _rest(oc, _OUTPUT_CONFIG_KEYS):
            ext["output_config"] = rest
        if not oc:
            req.hints = {**(req.hints or {}), "output_config_empty": True}
    if ext:
        req.reasoning = req.reasoning or ReasoningConfig()
        req.reasoning.ext = ext
    if req.reasoning is not None and req.reasoning.mode is None and req.reasoning.effort:
        # output_config.effort without thinking: a wire-form choice, kept for Anthropic
        req.hints = {**(req.hints or {}), "effort_without_thinking": True}


def _reasoning_ext(r: ReasoningConfig, out: dict[str, Any], ctx: Ctx) -> None:
    """Fields of the reasoning objects with no canonical home: back in place, or reported."""
    for obj, fields in (r.ext or {}).items():
        if ctx.source == ctx.target:
            target = out.setdefault(obj, {})
            for k, v in fields.items():
                target.setdefault(k, v)
            continue
        for k in fields:
            ctx.loss(
                f"{obj}.{k}",
                f"field {brief(k)} of {ctx.source} {obj} has no equivalent",
                f"{ctx.target} cannot carry it",
                "reasoning_config",
            )


def _encode_thinking(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    r = req.reasoning
    oc: dict[str, Any] = {}
    effort_only = ctx.same and bool(req.hints and req.hints.get("effort_without_thinking"))
    if r is not None:
        if effort_only and r.mode is None:
            if r.effort is not None:
                oc["effort"] = r.effort
        elif r.mode in ("enabled", "adaptive", "disabled"):
            th: dict[str, Any] = {"type": r.mode}
            if r.budget_tokens is not None:
                th["budget_tokens"] = r.budget_tokens
            elif r.mode == "enabled":
                th["budget_tokens"] = EFFORT_BUDGETS.get(
                    r.effort or "medium", EFFORT_BUDGETS["medium"]
                )
            out["thinking"] = th
            if r.effort is not None:
                oc["effort"] = r.effort
        elif r.effort is not None and r.effort != "none":
            budget = EFFORT_BUDGETS.get(r.effort)
            if budget is None:
                budget = EFFORT_BUDGETS["high"]
                ctx.loss(
                    "reasoning.effort",
                    f"effort {brief(r.effort)} sent as budget {budget}",
                    "no such effort",
                    "reasoning_config",
                )
            out["thinking"] = {"type": "enabled", "budget_tokens": budget}
        th_out: dict[str, Any] | None = out.get("thinking")
        limit = out.get("max_tokens")
        if (
            not ctx.same
            and th_out
            and "budget_tokens" in th_out
            and type(limit) is int
            and th_out["budget_tokens"] >= limit
        ):
            lowered = max(1024, limit // 2)
            ctx.loss(
                "reasoning.budget_tokens",
                f"thinking budget {th_out['budget_tokens']} lowered to {lowered}",
                "it must stay below max_tokens",
                "reasoning_config",
            )
            th_out["budget_tokens"] = lowered
            if lowered >= limit:
                del out["thinking"]
    if oc or (ctx.same and req.hints and req.hints.get("output_config_empty")):
        out["output_config"] = oc
    if r is not None and r.ext:
        _reasoning_ext(r, out, ctx)


def _decode_effort(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    effort = w.get("reasoning_effort")
    if effort is not None:
        req.reasoning = ReasoningConfig(effort=expect_str(effort, "reasoning_effort"))


def _encode_effort(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    r = req.reasoning
    if r is None:
        return
    if r.ext:
        _reasoning_ext(r, out, ctx)
    if r.mode == "disabled" or (r.mode is None and r.effort is None and r.budget_tokens is None):
        return
    if r.effort is not None:
        effort = r.effort
        if effort == "max":
            effort = "high"
            ctx.loss(
                "reasoning.effort",
                "effort 'max' sent as 'high'",
                "openai_chat has no 'max' effort",
                "reasoning_config",
            )
    elif r.budget_tokens is not None:
        effort = effort_for_budget(r.budget_tokens)
        if effort == "max":
            effort = "high"  # openai_chat has no 'max'
        ctx.loss(
            "reasoning.budget_tokens",
            f"budget {r.budget_tokens} sent as reasoning_effort {effort!r}",
            "openai_chat has efforts, not budgets",
            "reasoning_config",
        )
    else:
        effort = "medium"
        ctx.loss(
            "reasoning.mode",
            f"thinking {r.mode!r} sent as reasoning_effort 'medium'",
            "openai_chat has efforts only",
            "reasoning_config",
        )
    out["reasoning_effort"] = effort


THINKING_CONFIG = Transform(
    name="thinking_config",
    doc=__doc__ or "",
    request_keys=frozenset({"thinking", "output_config"}),
    decode_request=_decode_thinking,
    encode_request=_encode_thinking,
)
REASONING_EFFORT = Transform(
    name="reasoning_effort",
    doc=__doc__ or "",
    request_keys=frozenset({"reasoning_effort"}),
    decode_request=_decode_effort,
    encode_request=_encode_effort,
)
