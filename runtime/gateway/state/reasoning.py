"""Opaque reasoning state kept for clients whose protocol has no place for it.

An upstream may need its reasoning state replayed on the next turn (Anthropic: the signed
thinking before a tool use; Gemini: the thoughtSignature of a function call; Responses: the
encrypted_content of a reasoning item; an OpenRouter upstream, its dialect: the state of the
owners its ``reasoning_details`` rows name). When the client cannot carry it (the library's
owner rule, a codec's ``CARRIER``; a client speaks the plain protocol: a Chat client
gets Anthropic thinking as plain text, without its signature), the gateway keeps the reasoning
parts that came before each tool call under ``rs:<tool call id>`` and puts them back in front
of that call when the client sends the conversation again, in place of the copy of their text
the client echoed (Chat ``reasoning_content``): no block goes upstream twice.

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
from ...transforms.envelopes import drop_echoes, opaque
from ...transforms.reasoning import thinking_budget
from .store import Store

__all__ = ["keeps_state", "reasoning_puts", "restore_reasoning"]


def keeps_state(upstream: str, client: str, dialect: str | None = None) -> bool:
    """Must the gateway keep the reasoning state of ``upstream`` (``dialect``: its dialect) for
    a ``client`` of this protocol: does the upstream replay state (spec: support
    reasoning_replay is not ``unsupported``), its own or of an owner its dialect names, that
    the client cannot carry?"""
    codec = protocol(upstream, dialect)
    support = codec.SUPPORT.get("reasoning_replay")
    if support is None or support[0] == "unsupported":
        return False
    mine = protocol(client)
    return not all(o in mine.CARRIER for o, how in codec.CARRIER.items() if how == "own")


def reasoning_puts(parts: list[Any], client: str) -> list[tuple[str, bytes]]:
    """(key, value) for every run of opaque reasoning the client cannot carry, keyed by the
    tool call that follows it; ``lead``: the run opened the message (it goes back there)."""
    codec = protocol(client)
    out: list[tuple[str, bytes]] = []
    run: list[ReasoningPart] = []
    lead = False
    for i, p in enumerate(parts):
        if opaque(p) and p.owner not in codec.CARRIER:  # no carrier takes it to the client
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


def _lacking(m: Message, codec: Any) -> bool:
    """A tool-use message without opaque reasoning the upstream takes back as its own."""
    calls = any(type(p) is ToolCallPart for p in m.parts)
    return calls and not any(opaque(p) and codec.CARRIER.get(p.owner) == "own" for p in m.parts)


def _restore(m: Message, got: dict[str, bytes | None]) -> int:
    """Put the kept runs back in ``m`` (before their call, or opening the message) in place of
    the copy of their text the client echoed without state (``drop_echoes``: Chat
    ``reasoning_content``), so no block is there twice; how many runs."""
    head: list[Any] = []
    parts: list[Any] = []
    restored: list[Any] = []
    for p in m.parts:
        hit = got.get(p.id) if type(p) is ToolCallPart else None
        if hit is not None:
            kept = orjson.loads(hit)
            run = [ReasoningPart(**d) for d in kept["parts"]]
            (head if kept["lead"] else parts).extend(run)
            restored += run
        parts.append(p)
    m.parts = head + parts
    drop_echoes(m.parts, restored)
    return len([p for p in parts if type(p) is ToolCallPart and got.get(p.id) is not None])


def _wants_reasoning(req: Request) -> bool:
    """Does the request ask for thinking (the budget rule: ``thinking_budget``, or adaptive)?"""
    r = req.reasoning
    return r is not None and (r.mode == "adaptive" or thinking_budget(r) is not None)


async def restore_reasoning(
    req: Request,
    client: str,
    upstream: str,
    store: Store | None,
    ctx: Ctx,
    ttl: float,
    dialect: str | None = None,
) -> int:
    """Put the kept reasoning back (renewing its TTL); turn thinking off (reported) for a turn
    still missing it. Returns how many runs were restored."""
    if not keeps_state(upstream, client, dialect) or not _wants_reasoning(req):
        return 0  # an upstream not asked to think needs no thinking replayed
    codec = protocol(upstream, dialect)
    lacking = [m for m in current_turn(req.messages) if _lacking(m, codec)]
    if not lacking:
        return 0
    restored = 0
    if store is not None:
        calls = [p for m in lacking for p in m.parts if type(p) is ToolCallPart]
        got = dict(zip([c.id for c in calls], await store.get_many(["rs:" + c.id for c in calls])))
        await store.touch_many(["rs:" + k for k, v in got.items() if v is not None], ttl)
        restored = sum(_restore(m, got) for m in lacking)
        lacking = [m for m in lacking if _lacking(m, codec)]
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
