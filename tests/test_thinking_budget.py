"""The one thinking-budget rule (reasoning.thinking_budget; its facts are spec/canonical.yaml
rows: effort_budgets, effort_default, effort_unknown), on requests captured from Claude Code,
Codex and Gemini CLI: the budget a target with budgets gets, the effort a target with efforts
gets, the output limit Anthropic gets when the request has none (room for that same budget,
so it is never lowered under a limit the translation made up), and the losses reported."""

from __future__ import annotations

import copy
from typing import Any

import interlingua
import pytest
from interlingua._losses import Ctx
from interlingua.generated.canonical import (
    DEFAULT_EFFORT,
    EFFORT_BUDGETS,
    UNKNOWN_EFFORT,
    ReasoningConfig,
    Request,
)
from interlingua.transforms.reasoning import thinking_budget

from tests.conftest import client_body

ANT, GEM, CHAT, RESP, COH = (
    "anthropic_messages",
    "gemini",
    "openai_chat",
    "openai_responses",
    "cohere_v2",
)
GEMINI_3 = "gemini-cli/tool_loop_read_file/001_POST_v1beta_models_gemini_3_5_flash_lite_generateContent.json"
GEMINI_25 = (
    "gemini-cli/tool_loop_thought_signature/"
    "001_POST_v1beta_models_gemini_2_5_pro_streamGenerateContent.json"
)
CODEX = "codex/tool_loop_exec_command/001_POST_v1_responses.json"
CLAUDE_LEGACY = "claude-code/legacy_thinking_budget/001_POST_v1_messages.json"
CLAUDE_ADAPTIVE = "claude-code/tool_loop_bash/001_POST_v1_messages.json"
SOURCE = {"gemini-cli": GEM, "codex": RESP, "claude-code": ANT}
DEFAULT_LIMIT = 4096  # spec/protocols/anthropic_messages.yaml max_tokens_default


def _codex(effort: str | None = None, limit: int | None = None) -> dict[str, Any]:
    """Codex's captured request, with ``model_reasoning_effort`` / a limit set as Codex sends."""
    body = copy.deepcopy(client_body(CODEX))
    if effort is not None:
        body["reasoning"]["effort"] = effort
    if limit is not None:
        body["max_output_tokens"] = limit
    return body


def _translate(body: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[str]]:
    """(the target's reasoning fields and output limit, the reasoning / limit losses)."""
    t = interlingua.translate_request(body, source=source, target=target)
    w = t.body
    keys = ("max_tokens", "thinking", "reasoning_effort", "reasoning")
    got = {k: w[k] for k in keys if k in w}
    gc = w.get("generationConfig", {})
    got |= {k: gc[k] for k in ("maxOutputTokens", "thinkingConfig") if k in gc}
    lost = [str(x) for x in t.losses if x.feature in ("reasoning_config", "max_tokens")]
    return got, lost


SUMMARY_LOST = "reasoning.summary: summary 'auto' dropped ({} has no reasoning summary setting (what it returns is its own))"


def _default(limit: int) -> str:
    return f"max_tokens: no output limit given; sent the default {limit} ({ANT} requires one)"


def test_gemini_cli_thinking_level_high_toward_anthropic_gets_room_for_its_budget() -> None:
    got, lost = _translate(client_body(GEMINI_3), GEM, ANT)
    budget = EFFORT_BUDGETS["high"]
    assert got == {
        "max_tokens": DEFAULT_LIMIT + budget,
        "thinking": {"type": "enabled", "budget_tokens": budget},
    }
    assert lost == [_default(DEFAULT_LIMIT + budget), SUMMARY_LOST.format(ANT)]


def test_gemini_cli_thinking_budget_toward_anthropic_and_chat() -> None:
    got, lost = _translate(client_body(GEMINI_25), GEM, ANT)
    assert got == {"max_tokens": 12288, "thinking": {"type": "enabled", "budget_tokens": 8192}}
    assert lost == [_default(12288), SUMMARY_LOST.format(ANT)]
    got, lost = _translate(client_body(GEMINI_25), GEM, CHAT)
    assert got == {"reasoning_effort": "medium"}  # the smallest effort whose budget covers 8192
    assert lost == [
        "reasoning.budget_tokens: budget 8192 sent as reasoning_effort 'medium' "
        f"({CHAT} has efforts, not budgets)",
        SUMMARY_LOST.format(CHAT),
    ]


def test_codex_without_an_effort_gets_thinking_with_the_default_budget() -> None:
    """Codex's ``reasoning: {summary: "auto"}`` asks to see the reasoning: Anthropic (thinking
    off unless asked for) gets the default effort's budget, with room for it; before, no
    thinking at all, so Codex showed no reasoning."""
    budget = EFFORT_BUDGETS[DEFAULT_EFFORT]
    got, lost = _translate(_codex(), RESP, ANT)
    assert got == {
        "max_tokens": DEFAULT_LIMIT + budget,
        "thinking": {"type": "enabled", "budget_tokens": budget},
    }
    assert lost == [_default(DEFAULT_LIMIT + budget), SUMMARY_LOST.format(ANT)]
    got, lost = _translate(_codex(), RESP, GEM)
    assert got == {"thinkingConfig": {"includeThoughts": True}}
    assert lost == []


def test_codex_unknown_effort_gets_the_unknown_efforts_budget_with_room_for_it() -> None:
    """Codex ``model_reasoning_effort = "xhigh"``: the table has no xhigh. Before the one rule
    Anthropic got max_tokens 4096 and the budget lowered to 2048 (a second loss)."""
    budget = EFFORT_BUDGETS[UNKNOWN_EFFORT]
    got, lost = _translate(_codex("xhigh"), RESP, ANT)
    assert got == {
        "max_tokens": DEFAULT_LIMIT + budget,
        "thinking": {"type": "enabled", "budget_tokens": budget},
    }
    assert lost == [
        _default(DEFAULT_LIMIT + budget),
        f"reasoning.effort: effort 'xhigh' sent as budget {budget} ({ANT} has no such effort)",
        SUMMARY_LOST.format(ANT),
    ]
    for target, wire in ((GEM, {"thinkingBudget": budget, "includeThoughts": True}),):
        got, lost = _translate(_codex("xhigh"), RESP, target)
        assert got == {"thinkingConfig": wire}
        assert lost == [
            f"reasoning.effort: effort 'xhigh' sent as budget {budget} ({target} has no such effort)"
        ]


def test_a_limit_the_client_gave_still_bounds_the_budget() -> None:
    """Codex with ``max_output_tokens``: the client's limit stays, the budget goes under it."""
    got, lost = _translate(_codex("high", limit=8000), RESP, ANT)
    assert got == {"max_tokens": 8000, "thinking": {"type": "enabled", "budget_tokens": 4000}}
    assert lost == [
        SUMMARY_LOST.format(ANT),
        "reasoning.budget_tokens: thinking budget 24576 lowered to 4000 "
        "(it must stay below max_tokens)",
    ]


def test_cohere_thinking_enabled_without_a_budget_gets_the_default_efforts() -> None:
    """Cohere's documented ``thinking: {type: enabled}`` (no token_budget). Before the one rule
    Anthropic got max_tokens 4096 and a budget of 8192 lowered to 2048."""
    body = {
        "model": "command-a-reasoning-08-2025",
        "messages": [{"role": "user", "content": "Plan a three-day trip to Kyoto."}],
        "thinking": {"type": "enabled"},
    }
    budget = EFFORT_BUDGETS[DEFAULT_EFFORT]
    got, lost = _translate(body, COH, ANT)
    assert got == {
        "max_tokens": DEFAULT_LIMIT + budget,
        "thinking": {"type": "enabled", "budget_tokens": budget},
    }
    assert lost == [_default(DEFAULT_LIMIT + budget)]
    assert _translate(body, COH, GEM) == ({"thinkingConfig": {"thinkingBudget": budget}}, [])
    got, lost = _translate(body, COH, CHAT)
    assert got == {"reasoning_effort": DEFAULT_EFFORT}
    assert lost == [
        f"reasoning.mode: thinking 'enabled' sent as reasoning_effort {DEFAULT_EFFORT!r} "
        f"({CHAT} has efforts only)"
    ]


def test_claude_code_budget_and_adaptive_effort_toward_other_protocols() -> None:
    got, lost = _translate(client_body(CLAUDE_LEGACY), ANT, GEM)
    assert got == {"maxOutputTokens": 32000, "thinkingConfig": {"thinkingBudget": 31999}}
    assert lost == []
    got, lost = _translate(client_body(CLAUDE_LEGACY), ANT, RESP)
    assert got == {"reasoning": {"effort": "high"}}  # max (32000 covers 31999) -> high
    assert lost == [
        "reasoning.budget_tokens: budget 31999 sent as reasoning.effort 'high' "
        f"({RESP} has efforts, not budgets)"
    ]
    got, lost = _translate(client_body(CLAUDE_ADAPTIVE), ANT, GEM)
    assert got == {"maxOutputTokens": 64000, "thinkingConfig": {"thinkingLevel": "high"}}
    assert lost == []
    got, lost = _translate(client_body(CLAUDE_ADAPTIVE), ANT, COH)
    budget = EFFORT_BUDGETS["high"]  # Cohere has no effort: the effort's budget
    assert got == {"max_tokens": 64000, "thinking": {"type": "enabled", "token_budget": budget}}
    assert lost == []


@pytest.mark.parametrize(
    "rel",
    [GEMINI_3, GEMINI_25, CODEX, "codex:xhigh", "codex:minimal", "codex:none"],
)
def test_a_made_up_limit_is_never_below_the_budget_it_carries(rel: str) -> None:
    """Every captured request with no limit, toward Anthropic: the budget written is the one
    the defaulted limit made room for, so nothing is lowered."""
    body = _codex(rel.split(":")[1]) if rel.startswith("codex:") else client_body(rel)
    source = SOURCE[rel.split("/")[0].split(":")[0]]
    t = interlingua.translate_request(body, source=source, target=ANT)
    req = interlingua.decode_request(body, source)
    budget = t.body.get("thinking", {}).get("budget_tokens")
    assert budget == thinking_budget(req.reasoning)
    assert t.body["max_tokens"] == DEFAULT_LIMIT + (budget or 0)
    assert not [x for x in t.losses if x.path == "reasoning.budget_tokens"]


@pytest.mark.parametrize(
    ("r", "budget"),
    [
        (None, None),
        (ReasoningConfig(mode="disabled", budget_tokens=5000), None),
        (ReasoningConfig(effort="none"), None),
        (ReasoningConfig(mode="adaptive"), None),
        (ReasoningConfig(summary="auto"), EFFORT_BUDGETS[DEFAULT_EFFORT]),
        (ReasoningConfig(mode="adaptive", summary="auto"), None),
        (ReasoningConfig(effort="none", summary="auto"), None),
        (ReasoningConfig(mode="enabled"), EFFORT_BUDGETS[DEFAULT_EFFORT]),
        (ReasoningConfig(mode="enabled", effort="none"), EFFORT_BUDGETS[DEFAULT_EFFORT]),
        (ReasoningConfig(mode="enabled", effort="xhigh"), EFFORT_BUDGETS[UNKNOWN_EFFORT]),
        (ReasoningConfig(effort="xhigh"), EFFORT_BUDGETS[UNKNOWN_EFFORT]),
        (ReasoningConfig(mode="adaptive", effort="low"), EFFORT_BUDGETS["low"]),
        (ReasoningConfig(mode="enabled", budget_tokens=5000, effort="low"), 5000),
    ],
)
def test_the_default_limit_and_the_written_budget_are_one_rule(
    r: ReasoningConfig | None, budget: int | None
) -> None:
    """An unknown effort was `high` in one branch of the reasoning helper and `medium` in
    another, and 0 for the default limit; an enabled mode with no amount was the medium budget
    for the helper and 0 for the limit."""
    assert thinking_budget(r) == budget
    ctx = Ctx(CHAT, ANT)  # the limit Anthropic's compiled encode_request writes when none came
    wire = interlingua.encode_request(Request(model="m", reasoning=r), ANT, ctx)
    assert wire["max_tokens"] == DEFAULT_LIMIT + (budget or 0)


def test_a_budget_and_an_effort_toward_a_protocol_that_takes_one() -> None:
    """Claude Code's budget request with ``output_config.effort`` set too (Anthropic takes
    both): Gemini takes thinkingBudget or thinkingLevel, never both (a 400; row one_amount),
    so the budget goes and the effort is reported; Cohere has budgets only, Chat and Responses
    efforts only: the other one is reported. Before, Gemini got both and the others dropped one
    in silence."""
    body = copy.deepcopy(client_body(CLAUDE_LEGACY))
    body["output_config"] = {"effort": "high"}
    got, lost = _translate(body, ANT, GEM)
    assert got == {"maxOutputTokens": 32000, "thinkingConfig": {"thinkingBudget": 31999}}
    assert lost == [f"reasoning.effort: effort 'high' dropped ({GEM} takes the budget alone)"]
    got, lost = _translate(body, ANT, COH)
    assert got == {"max_tokens": 32000, "thinking": {"type": "enabled", "token_budget": 31999}}
    assert lost == [f"reasoning.effort: effort 'high' dropped ({COH} takes the budget alone)"]
    for target, wire in (
        (CHAT, {"reasoning_effort": "high"}),
        (RESP, {"reasoning": {"effort": "high"}}),
    ):
        got, lost = _translate(body, ANT, target)
        assert got == wire
        assert lost == [
            f"reasoning.budget_tokens: budget 31999 dropped ({target} takes the effort alone)"
        ]
