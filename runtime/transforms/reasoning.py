"""reasoning: the reasoning configuration (canonical ReasoningConfig), one helper for every
protocol, driven by its ``reasoning`` rows (codec.SETTINGS["reasoning"], codegen/settings.py):
the paths of the mode, the budget, the effort and the summary, the mode's wire values (or the
budget values meaning a mode: Gemini 0 and -1), the efforts the protocol knows and what it writes
for others, and the objects whose other keys ride in ReasoningConfig.ext.

Toward the same protocol the canonical values go back as they came. Toward another one the
helper says what it can: an effort becomes its budget where there are budgets only, a budget
the smallest effort covering it where there are efforts only (reported), a mode with no amount
the default effort (``thinking_budget``: the one budget rule, spec/canonical.yaml); a budget
stays below a limit when a row names one."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_bool, expect_dict, expect_int, expect_str
from ..generated.canonical import (
    DEFAULT_EFFORT,
    EFFORT_BUDGETS,
    UNKNOWN_EFFORT,
    ReasoningConfig,
    Request,
)
from ._base import Codec, Transform
from ._paths import dig, obj_at, put
from .gemini_contents import _camel, _snake

__all__ = ["REASONING", "effort_for_budget", "thinking_budget"]

_FEATURE = "reasoning_config"
_KEYS = ("mode", "budget", "effort", "summary")  # row order: the order written


def thinking_budget(r: ReasoningConfig | None) -> int | None:
    """The thinking tokens ``r`` asks for, the one rule of the budget a protocol with budgets
    gets and of the room a defaulted output limit leaves (``_pipeline._default_limit``): its
    budget, else its effort's (an effort the table lacks: UNKNOWN_EFFORT's), else for an
    enabled mode DEFAULT_EFFORT's; None when it asks none (disabled, effort none with no mode,
    adaptive or no mode with no amount)."""
    if r is None or _off(r):
        return None
    if r.budget_tokens is not None:
        return r.budget_tokens
    if r.effort is not None and r.effort != "none":  # none beside a mode: no amount said
        return EFFORT_BUDGETS.get(r.effort, EFFORT_BUDGETS[UNKNOWN_EFFORT])
    return EFFORT_BUDGETS[DEFAULT_EFFORT] if r.mode == "enabled" else None


def _off(r: ReasoningConfig) -> bool:
    """Does ``r`` turn thinking off: a disabled mode, or the effort none with no mode?"""
    return r.mode == "disabled" or (r.mode is None and r.effort == "none")


def effort_for_budget(budget: int) -> str:
    for effort, b in EFFORT_BUDGETS.items():
        if budget <= b:
            return effort
    return next(reversed(EFFORT_BUDGETS))


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    rule = codec.SETTINGS["reasoning"]
    if w.keys().isdisjoint(rule["top"]):
        return
    objs: dict[tuple[str, ...], dict[str, Any]] = {(): w}
    r = ReasoningConfig()
    hints: dict[str, Any] = {}
    for name, (segs, known) in rule["ext"].items():
        obj = dig(w, segs)
        if obj is None:
            continue
        obj = expect_dict(obj, name)
        if rule["snake_case"] and any("_" in k for k in obj):  # the API takes both spellings
            obj = {_camel(k): v for k, v in obj.items()}
            hints["reasoning_snake"] = True
        objs[segs] = obj
        rest = {k: v for k, v in obj.items() if k not in known or v is None}
        if rest:
            r.ext = {**(r.ext or {}), segs[-1]: rest}
        if not obj:
            hints.setdefault("reasoning_empty", []).append(name)
    vals = {}
    for key in _KEYS:
        segs = rule[key]
        parent = objs.get(segs[:-1]) if segs is not None else None
        if parent is not None and (parent.get(segs[-1]) is not None or key == "mode"):
            vals[key] = (parent.get(segs[-1]), ".".join(segs))
    if "mode" in vals:  # its object is there: the mode must be
        mode = expect_str(*vals["mode"])
        r.mode = rule["mode_decode"].get(mode)
        if r.mode is None:
            what = rule["mode"][-2]
            raise InvalidInput(f"unknown {what} type {brief(mode)}", path=vals["mode"][1])
    if "budget" in vals:
        budget = expect_int(*vals["budget"])
        mode = rule["budget_decode"].get(budget)
        if mode is None and rule["budget_decode"]:  # a budget saying a mode (Gemini)
            mode = "adaptive" if budget < 0 and "adaptive" in rule["budget_modes"] else "enabled"
        r.mode = mode or r.mode
        r.budget_tokens = budget if mode in (None, "enabled") else None
    if "effort" in vals:
        effort = expect_str(*vals["effort"])
        if rule["efforts"] is not None and effort.lower() != effort:  # its wire spelling (LOW)
            hints["effort_wire"] = effort
            effort = effort.lower()
        r.effort = effort
    if "summary" in vals:
        if not rule["summary_bool"]:
            r.summary = expect_str(*vals["summary"])
        elif expect_bool(*vals["summary"]):
            r.summary = "auto"
        else:  # the default, spelled out: nothing to carry
            hints["summary_false"] = True
    if r.mode or r.budget_tokens is not None or r.effort or r.summary or r.ext:
        req.reasoning = r
    if hints:
        req.hints = {**(req.hints or {}), **hints}


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    r = req.reasoning
    if r is None and (not ctx.same or not req.hints):
        return
    rule = codec.SETTINGS["reasoning"]
    hints = (req.hints or {}) if ctx.same else {}
    vals: dict[str, Any] = {}
    if ctx.same:  # also a spelled-out default alone (includeThoughts: false)
        _same(r or ReasoningConfig(), rule, hints, vals)
    elif r is not None:
        _toward(r, rule, vals, ctx)
    if "budget" in vals and rule["budget_below"] is not None and not ctx.same:
        _below(vals, out.get(rule["budget_below"]), rule, ctx)
    for key in _KEYS:
        if key in vals:
            put(out, rule[key], vals[key])
    ext = (r.ext if r is not None else None) or {}
    for obj, fields in ext.items() if not ctx.same else ():  # the source's: nowhere to go
        for k, v in fields.items():
            if v is not None:
                ctx.loss(
                    f"{obj}.{k}",
                    f"field {brief(k)} of {ctx.source} {obj} has no equivalent",
                    f"{ctx.target} cannot carry it",
                    _FEATURE,
                )
    for name, (segs, _) in rule["ext"].items() if ctx.same else ():
        for k, v in ext.get(segs[-1], {}).items():
            obj_at(out, segs).setdefault(k, v)
        if name in hints.get("reasoning_empty", ()):
            obj_at(out, segs)
        if hints.get("reasoning_snake") and type(obj := dig(out, segs)) is dict:
            put(out, segs, {_snake(k): v for k, v in obj.items()})


def _same(
    r: ReasoningConfig, rule: dict[str, Any], hints: dict[str, Any], vals: dict[str, Any]
) -> None:
    """The values as the client sent them (a mode only where it had one, its effort spelling)."""
    if r.mode in rule["modes"]:
        vals["mode"] = rule["modes"][r.mode]
    elif r.mode in rule["budget_modes"]:
        vals["budget"] = rule["budget_modes"][r.mode]
    if r.budget_tokens is not None:
        vals["budget"] = r.budget_tokens
    if r.effort is not None:
        vals["effort"] = hints.get("effort_wire", r.effort)
    if r.summary is not None or hints.get("summary_false"):
        vals["summary"] = (r.summary is not None) if rule["summary_bool"] else r.summary


def _toward(r: ReasoningConfig, rule: dict[str, Any], vals: dict[str, Any], ctx: Ctx) -> None:
    """What another protocol's configuration becomes in this one."""
    if _off(r):
        if "disabled" in rule["modes"]:
            vals["mode"] = rule["modes"]["disabled"]
        elif "disabled" in rule["budget_modes"]:
            vals["budget"] = rule["budget_modes"]["disabled"]
        elif rule["effort"] is not None and r.effort == "none":
            vals["effort"] = "none"
        return
    if r.mode is not None or r.effort is not None or r.budget_tokens is not None:
        _amount(r, rule, vals, ctx)
    if r.summary is not None and rule["summary"] is None:
        ctx.loss(
            "reasoning.summary",
            f"summary {brief(r.summary)} dropped",
            f"{ctx.target} has no reasoning summary setting (what it returns is its own)",
            _FEATURE,
        )
    elif r.summary is not None and vals.get("budget") != 0:
        vals["summary"] = True if rule["summary_bool"] else r.summary


def _amount(r: ReasoningConfig, rule: dict[str, Any], vals: dict[str, Any], ctx: Ctx) -> None:
    mode = r.mode or "enabled"
    if rule["mode"] is not None:
        vals["mode"] = rule["modes"][mode]
    effort = None
    says_effort = r.mode is not None or not rule["effort_needs_mode"]
    if rule["effort"] is not None and r.effort is not None and says_effort:
        effort = _effort(r.effort, rule, ctx)
    budget = r.budget_tokens
    if rule["budget"] is not None and budget is None:
        unsaid = r.effort is not None and effort is None  # an effort it cannot say: its budget
        bare = rule["budget_required"] or (rule["mode"] is None and effort is None)
        if unsaid or (mode == "enabled" and bare):
            budget = thinking_budget(r)
        elif mode == "adaptive" and effort is None:
            budget = rule["budget_modes"].get("adaptive")
        if unsaid and (r.effort not in EFFORT_BUDGETS or rule["efforts"] is not None):
            ctx.loss(
                "reasoning.effort",
                f"effort {brief(r.effort)} sent as budget {budget}",
                f"{ctx.target} has no such effort",
                _FEATURE,
            )
    if rule["budget"] is not None:
        if budget is not None:
            vals["budget"] = budget
    elif effort is None and rule["effort"] is not None:  # efforts only
        where = ".".join(rule["effort"])
        if budget is not None:
            effort = _effort(effort_for_budget(budget), rule, None)
            ctx.loss(
                "reasoning.budget_tokens",
                f"budget {budget} sent as {where} {effort!r}",
                f"{ctx.target} has efforts, not budgets",
                _FEATURE,
            )
        else:
            effort = DEFAULT_EFFORT
            ctx.loss(
                "reasoning.mode",
                f"thinking {mode!r} sent as {where} {effort!r}",
                f"{ctx.target} has efforts only",
                _FEATURE,
            )
    if effort is not None and budget is not None and rule["one_amount"]:
        effort = None  # the budget says the amount (the effort reported below)
    if effort is not None:
        vals["effort"] = effort
    if r.budget_tokens is not None and r.effort is not None:
        _one_of_two(r, vals, ctx)


def _one_of_two(r: ReasoningConfig, vals: dict[str, Any], ctx: Ctx) -> None:
    """A budget and an effort where the target writes one of them: the other is reported."""
    if "budget" not in vals:
        ctx.loss(
            "reasoning.budget_tokens",
            f"budget {r.budget_tokens} dropped",
            f"{ctx.target} takes the effort alone",
            _FEATURE,
        )
    elif "effort" not in vals:
        ctx.loss(
            "reasoning.effort",
            f"effort {brief(r.effort)} dropped",
            f"{ctx.target} takes the budget alone",
            _FEATURE,
        )


def _effort(effort: str, rule: dict[str, Any], ctx: Ctx | None) -> str | None:
    """The wire effort for ``effort`` (None: the protocol has no such effort; its budget is sent)."""
    wire = rule["effort_map"].get(effort)
    if wire is not None:
        if ctx is not None:
            ctx.loss(
                "reasoning.effort",
                f"effort {effort!r} sent as {wire!r}",
                f"{ctx.target} has no {effort!r} effort",
                _FEATURE,
            )
        return wire
    return effort if rule["efforts"] is None or effort in rule["efforts"] else None


def _below(vals: dict[str, Any], limit: Any, rule: dict[str, Any], ctx: Ctx) -> None:
    """A budget must stay below the output limit (Anthropic max_tokens): lowered to half of it,
    not under the protocol's smallest budget (``budget_min``), reported."""
    budget = vals["budget"]
    if type(limit) is not int or budget < limit:
        return
    lowered = max(rule["budget_min"], limit // 2)
    ctx.loss(
        "reasoning.budget_tokens",
        f"thinking budget {budget} lowered to {lowered}",
        f"it must stay below {rule['budget_below']}",
        _FEATURE,
    )
    vals["budget"] = lowered
    if lowered >= limit:  # no budget fits: no thinking
        vals.pop("budget")
        vals.pop("mode", None)


REASONING = Transform(
    name="reasoning",
    doc=__doc__ or "",
    decode_request=_decode,
    encode_request=_encode,
)
