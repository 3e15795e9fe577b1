"""Opaque reasoning state kept for clients whose protocol has no place for it.

An upstream may need its reasoning state replayed on the next turn (Anthropic: the signed
thinking before a tool use; Gemini: the thoughtSignature of a function call; Responses: the
encrypted_content of a reasoning item). When the client cannot carry it (``carried`` says so:
a Chat client gets Anthropic thinking as plain text, without its signature), the gateway keeps
the reasoning parts that came before each tool call under ``rs:<tool call id>`` and puts them
back in front of that call when the client sends the conversation again.

When the state is not there (no store, the entry expired, the conversation began elsewhere) and
the request asks for reasoning, the upstream would refuse the turn (Anthropic: 400 "Expected
`thinking` ... found `tool_use`"). Thinking is turned off for that turn instead, and reported
as a loss (``x-interlingua-losses``, the access log). Only the current turn matters: the
assistant messages after the last user message that is not only tool results.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import orjson

from ..._losses import Ctx
from ..._protocols import protocol
from ...generated.canonical import (
    Message,
    ReasoningConfig,
    ReasoningPart,
    Request,
    ToolCallPart,
    ToolResultPart,
)
from ...transforms.envelopes import carried
from .store import Store

__all__ = ["keeps_state", "reasoning_puts", "restore_reasoning"]


def owns_state(pid: str) -> bool:
    """Does ``pid`` make opaque reasoning state that must be replayed (spec: support
    reasoning_replay is not ``unsupported``)?"""
    support = getattr(protocol(pid).codec, "SUPPORT", {}).get("reasoning_replay")
    return support is not None and support[0] != "unsupported"


def keeps_state(upstream: str, client: str) -> bool:
    """Must the gateway keep ``upstream``'s reasoning state for a ``client`` of this protocol?"""
    return owns_state(upstream) and not carried(upstream, client)


def _opaque(p: Any) -> bool:
    return type(p) is ReasoningPart and bool(p.signature or p.redacted)


def reasoning_puts(parts: list[Any], client: str) -> list[tuple[str, bytes]]:
    """(key, value) for every run of opaque reasoning the client cannot carry, keyed by the
    tool call that follows it; ``lead``: the run opened the message (it goes back there)."""
    out: list[tuple[str, bytes]] = []
    run: list[ReasoningPart] = []
    lead = False
    for i, p in enumerate(parts):
        if _opaque(p) and not carried(p.owner, client):
            lead = lead or i == 0
            run.append(p)
        elif type(p) is ToolCallPart and run:
            value = {"lead": lead, "parts": [dataclasses.asdict(r) for r in run]}
            out.append(("rs:" + p.id, orjson.dumps(value)))
            run, lead = [], False
    return out


def current_turn(messages: list[Message]) -> list[Message]:
    """The assistant messages after the last user message that says something (not only tool
    results): the turn an upstream checks the reasoning of."""
    start = 0
    for i, m in enumerate(messages):
        if m.role == "user" and any(type(p) is not ToolResultPart for p in m.parts):
            start = i + 1
    return [m for m in messages[start:] if m.role == "assistant"]


def _lacking(m: Message, owner: str) -> bool:
    """A tool-use message without the owner's opaque reasoning."""
    calls = any(type(p) is ToolCallPart for p in m.parts)
    return calls and not any(_opaque(p) and p.owner == owner for p in m.parts)  # type: ignore[union-attr]


def _wants_reasoning(req: Request) -> bool:
    r = req.reasoning
    if r is None or r.mode == "disabled":
        return False
    return bool(r.mode or r.effort or r.budget_tokens) and r.effort not in ("none", "minimal")


async def restore_reasoning(
    req: Request, client: str, upstream: str, store: Store | None, ctx: Ctx, ttl: float
) -> int:
    """Put the kept reasoning back (renewing its TTL); turn thinking off (reported) for a turn
    still missing it. Returns how many runs were restored."""
    if not keeps_state(upstream, client) or not _wants_reasoning(req):
        return 0  # an upstream not asked to think needs no thinking replayed
    lacking = [m for m in current_turn(req.messages) if _lacking(m, upstream)]
    if not lacking:
        return 0
    restored = 0
    if store is not None:
        calls = [p for m in lacking for p in m.parts if type(p) is ToolCallPart]
        got = dict(zip([c.id for c in calls], await store.get_many(["rs:" + c.id for c in calls])))
        await store.touch_many(["rs:" + k for k, v in got.items() if v is not None], ttl)
        for m in lacking:
            head: list[Any] = []
            parts: list[Any] = []
            for p in m.parts:
                hit = got.get(p.id) if type(p) is ToolCallPart else None
                if hit is not None:
                    kept = orjson.loads(hit)
                    run = [ReasoningPart(**d) for d in kept["parts"]]
                    (head if kept["lead"] else parts).extend(run)
                    restored += 1
                parts.append(p)
            m.parts = head + parts
        lacking = [m for m in lacking if _lacking(m, upstream)]
    if lacking:
        ids = [p.id for m in lacking for p in m.parts if type(p) is ToolCallPart]
        req.reasoning = ReasoningConfig(mode="disabled")
        ctx.loss(
            "reasoning",
            "reasoning turned off for this turn",
            f"the reasoning state of the earlier tool call(s) {', '.join(ids[:3])} is not kept "
            f"(state off, expired, or from elsewhere) and {upstream} refuses a tool-use turn "
            "without it",
            "reasoning_replay",
        )
    return restored
