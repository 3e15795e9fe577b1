"""responses_config: OpenAI Responses' ``text`` ({format: {type: text | json_object |
json_schema, name, schema, strict, description}, verbosity}) and ``reasoning`` ({effort,
summary}) objects. Their keys with no canonical home (``text.verbosity``, ``reasoning.context``
...) and explicit nulls are kept as hints: written back to Responses, reported for any other
target. Budgets become the nearest effort (EFFORT_BUDGETS)."""

from __future__ import annotations

from typing import Any

from .._errors import brief
from .._losses import Ctx
from .._wire import expect_dict, expect_str
from ..generated.canonical import ReasoningConfig, Request
from ._base import Codec, Transform
from .reasoning import effort_for_budget

_REASONING_KEYS = frozenset({"effort", "summary"})


def _rest(obj: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Keys with no canonical home, and known keys sent as null (kept for the identity)."""
    return {k: v for k, v in obj.items() if k not in known or v is None}


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    hints: dict[str, Any] = {}
    r = w.get("reasoning")
    if r is not None:
        r = expect_dict(r, "reasoning")
        effort = r.get("effort")
        summary = r.get("summary")
        req.reasoning = ReasoningConfig(
            effort=expect_str(effort, "reasoning.effort") if effort is not None else None,
            summary=expect_str(summary, "reasoning.summary") if summary is not None else None,
        )
        hints["reasoning_rest"] = _rest(r, _REASONING_KEYS)
        _report(hints["reasoning_rest"], "reasoning", ctx, "reasoning_config")
    if hints:
        req.hints = {**(req.hints or {}), **hints}


def _report(rest: dict[str, Any], prefix: str, ctx: Ctx, feature: str) -> None:
    """Reported when decoding (the target is known then): hints never reach another encoder."""
    if ctx.same:
        return
    for k, v in rest.items():
        if v is None:
            continue
        ctx.loss(
            f"{prefix}.{k}",
            f"field {brief(k)} of {ctx.source} has no equivalent",
            f"{ctx.target} cannot carry it",
            feature,
        )


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    hints = req.hints or {}
    r = req.reasoning
    rest = hints.get("reasoning_rest") if ctx.same else None
    if r is None and rest is None:
        return
    obj: dict[str, Any] = {}
    if r is not None and r.mode != "disabled":
        effort = r.effort
        if effort == "max":
            effort = "high"
            ctx.loss(
                "reasoning.effort",
                "effort 'max' sent as 'high'",
                f"{ctx.target} has no 'max' effort",
                "reasoning_config",
            )
        elif effort is None and r.budget_tokens is not None:
            effort = effort_for_budget(r.budget_tokens)
            ctx.loss(
                "reasoning.budget_tokens",
                f"budget {r.budget_tokens} sent as reasoning.effort {effort!r}",
                f"{ctx.target} has efforts, not budgets",
                "reasoning_config",
            )
        if effort is not None:
            obj["effort"] = effort
        if r.summary is not None:
            obj["summary"] = r.summary
    elif r is not None and r.mode == "disabled" and not ctx.same:
        return
    for k, v in (rest or {}).items():
        obj.setdefault(k, v)
    if obj or ctx.same:
        out["reasoning"] = obj


RESPONSES_CONFIG = Transform(
    name="responses_config",
    doc=__doc__ or "",
    request_keys=frozenset({"reasoning"}),
    decode_request=_decode,
    encode_request=_encode,
)
