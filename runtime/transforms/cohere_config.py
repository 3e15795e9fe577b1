"""cohere_config: Cohere v2 ``thinking`` ({type: enabled | disabled, token_budget}; an effort
becomes its budget through EFFORT_BUDGETS). ``response_format`` is read by its rows."""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_dict, expect_int, expect_str
from ..generated.canonical import EFFORT_BUDGETS, ReasoningConfig, Request
from ._base import Codec, Transform
from .reasoning import _reasoning_ext


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    th = w.get("thinking")
    if th is not None:
        th = expect_dict(th, "thinking")
        mode = expect_str(th.get("type"), "thinking.type")
        if mode not in ("enabled", "disabled"):
            raise InvalidInput(f"unknown thinking type {brief(mode)}", path="thinking.type")
        budget = th.get("token_budget")
        rest = {k: v for k, v in th.items() if k not in ("type", "token_budget")}
        req.reasoning = ReasoningConfig(
            mode=mode,
            budget_tokens=expect_int(budget, "thinking.token_budget")
            if budget is not None
            else None,
            ext={"thinking": rest} if rest else None,
        )


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    r = req.reasoning
    if r is not None and (r.mode or r.effort or r.budget_tokens is not None):
        off = r.mode == "disabled" or (r.mode is None and r.effort == "none")
        th: dict[str, Any] = {"type": "disabled" if off else "enabled"}
        budget = r.budget_tokens
        if budget is None and not off and r.effort is not None:
            budget = EFFORT_BUDGETS.get(r.effort)
            if budget is None:
                ctx.loss("reasoning.effort", f"effort {brief(r.effort)} dropped", "no such effort",
                         "reasoning_config")  # fmt: skip
        if budget is not None:
            th["token_budget"] = budget
        out["thinking"] = th
    if r is not None and r.ext:
        _reasoning_ext(r, out, ctx)


COHERE_CONFIG = Transform(
    name="cohere_config",
    doc=__doc__ or "",
    request_keys=frozenset({"thinking"}),
    decode_request=_decode,
    encode_request=_encode,
)
