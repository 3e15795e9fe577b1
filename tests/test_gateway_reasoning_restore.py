"""The gateway's kept reasoning (runtime/gateway/state/reasoning.py) on recorded traffic, one
turn at a time through the functions the gateway calls (keeps_state, reasoning_puts,
restore_reasoning) and a memory store: it keeps what a client cannot carry by the library's
owner rule (``carrier``, with a dialect's owners), and restoring it never puts a reasoning
block into a request twice."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from interlingua._losses import Ctx
from interlingua._pipeline import decode_request, decode_response, encode_request, encode_response
from interlingua.gateway.state.reasoning import keeps_state, reasoning_puts, restore_reasoning
from interlingua.gateway.state.store import MemoryStore
from interlingua.generated.canonical import ReasoningPart, Request

from tests.test_dialects import CLAUDE_THINKING, GPT5, OPENROUTER, body

A, C, R = "anthropic_messages", "openai_chat", "openai_responses"
THINKING_TOOL = (
    "recorded/anthropic/pydantic-ai-cassettes/test_anthropic/test_anthropic_tool_with_thinking/"
    "00.response.json"
)
TOOL_CALL = OPENROUTER / "test_openrouter/test_openrouter_tool_calling/00.response.json"


def _turn(
    answer: dict[str, Any], upstream: str, client: str, dialect: str | None = None
) -> tuple[dict[str, Any], MemoryStore]:
    """An upstream answer going to the client: (the client's body, the store with what the
    gateway keeps), as ``StateCall.finish_body`` keeps it."""
    resp = decode_response(answer, upstream, dialect=dialect)
    if client == upstream:  # the gateway passes the upstream's body through
        out = copy.deepcopy(answer)
    else:
        out = encode_response(resp, client, Ctx(upstream, client))
    store = MemoryStore()
    if keeps_state(upstream, client, dialect):
        puts = reasoning_puts(resp.parts, client)
        asyncio.run(store.put_many(puts, 60))
    return out, store


def _next(
    wire: dict[str, Any], client: str, upstream: str, store: MemoryStore, dialect: str | None = None
) -> tuple[Request, dict[str, Any], list[str]]:
    """The client's next request through the gateway: (restored request, upstream body, losses)."""
    ctx = Ctx(client, upstream)
    req = decode_request(wire, client, ctx)
    asyncio.run(restore_reasoning(req, client, upstream, store, ctx, 60, dialect))
    out = encode_request(req, upstream, ctx, dialect=dialect)
    return req, out, [str(x) for x in ctx.losses if x.feature == "reasoning_replay"]


def _reasoning(req: Request) -> list[ReasoningPart]:
    return [p for m in req.messages for p in m.parts if type(p) is ReasoningPart]


def _chat_next(message: dict[str, Any], model: str) -> dict[str, Any]:
    """A Chat client's next request, its assistant message echoed as received (the openai SDK
    sends a returned message back with every field it got: ``reasoning_content`` too)."""
    results = [
        {"role": "tool", "tool_call_id": t["id"], "content": "12 degrees, clear"}
        for t in message["tool_calls"]
    ]
    return {
        "model": model,
        "reasoning_effort": "high",
        "messages": [{"role": "user", "content": "What is the weather in London?"}, message]
        + results,
    }


def test_anthropic_thinking_restored_for_a_chat_client_replaces_its_echoed_text() -> None:
    """Anthropic's signed thinking before a tool use, through a Chat client that echoes the
    thinking text in ``reasoning_content``: the kept block goes back once, signed; before, the
    echo stayed beside it (a second reasoning block, dropped with a replay loss)."""
    answer = body(THINKING_TOOL)
    wire, store = _turn(answer, A, C)
    message = wire["choices"][0]["message"]
    assert message["reasoning_content"]
    req, out, lost = _next(_chat_next(message, "claude-sonnet-4-5"), C, A, store)
    (part,) = _reasoning(req)
    thinking = next(b for b in answer["content"] if b["type"] == "thinking")
    assert (part.text, part.signature) == (thinking["thinking"], thinking["signature"])
    blocks = out["messages"][1]["content"]
    assert [b["type"] for b in blocks if b["type"] in ("thinking", "redacted_thinking")] == [
        "thinking"
    ]
    assert blocks[0] == {k: thinking[k] for k in ("type", "thinking", "signature")}
    assert lost == []
    assert "thinking" in out  # thinking stays on: nothing was missing


def _openrouter_tool_answer(reasoning_from: Any) -> dict[str, Any]:
    """A recorded OpenRouter answer's reasoning (``reasoning_from``) on the recorded OpenRouter
    tool call: a thinking model's tool-use turn as OpenRouter sends it."""
    answer = body(TOOL_CALL)
    msg = answer["choices"][0]["message"]
    src = body(reasoning_from)["choices"][0]["message"]
    msg["reasoning"], msg["reasoning_details"] = src.get("reasoning"), src["reasoning_details"]
    return answer


def test_openrouter_claude_state_goes_back_once_through_a_chat_client() -> None:
    """A Chat client of an OpenRouter upstream gets its body as it is and sends the message
    back, ``reasoning`` and ``reasoning_details`` included; the gateway reads the client as
    plain Chat (a dialect is the upstream's), where the signature has no place, so it keeps
    the state of the owners the dialect names (before, it kept none: it read the base
    protocol's support) and puts it back once, in place of the echoed text."""
    answer = _openrouter_tool_answer(OPENROUTER / CLAUDE_THINKING)
    (item,) = answer["choices"][0]["message"]["reasoning_details"]
    assert keeps_state(C, C, "openrouter") and not keeps_state(C, C)
    wire, store = _turn(answer, C, C, "openrouter")
    assert len(store) == 1
    message = wire["choices"][0]["message"]
    req, out, lost = _next(
        _chat_next(message, "anthropic/claude-sonnet-4.5"), C, C, store, "openrouter"
    )
    assert [(p.owner, p.signature) for p in _reasoning(req)] == [(A, item["signature"])]
    (sent,) = out["messages"][1]["reasoning_details"]
    assert (sent["text"], sent["signature"], sent["format"]) == (
        item["text"],
        item["signature"],
        item["format"],
    )
    assert lost == []


def test_openrouter_gpt5_state_is_kept_for_an_anthropic_client_and_restored_once() -> None:
    """GPT-5 through OpenRouter: its encrypted reasoning (format openai-responses-v1) cannot
    reach an Anthropic client, so the gateway keeps it (before, it kept nothing for a dialect:
    it read the base protocol's support) and puts it back once on the next turn."""
    answer = _openrouter_tool_answer(OPENROUTER / GPT5)
    enc = next(d for d in answer["choices"][0]["message"]["reasoning_details"] if "data" in d)
    assert keeps_state(C, A, "openrouter")
    wire, store = _turn(answer, C, A, "openrouter")
    assert len(store) == 1
    call = next(b for b in wire["content"] if b["type"] == "tool_use")
    nxt = {
        "model": "openai/gpt-5-mini",
        "max_tokens": 4096,
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "messages": [
            {"role": "user", "content": "Tell me about Mars."},
            {"role": "assistant", "content": wire["content"]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": "0.27"}],
            },
        ],
    }
    _, out, lost = _next(nxt, A, C, store, "openrouter")
    sent = out["messages"][1]["reasoning_details"]
    assert [d["data"] for d in sent if d["type"] == "reasoning.encrypted"] == [enc["data"]]
    assert lost == []


def test_a_minimal_effort_thinks_so_missing_state_turns_thinking_off() -> None:
    """Chat ``reasoning_effort: minimal`` is a 1024-token budget toward Anthropic (the budget
    rule): thinking is on, so a tool-use turn whose state is not kept has it turned off and
    reported; before, minimal counted as not thinking and the upstream got the turn (its 400)."""
    wire, _ = _turn(body(THINKING_TOOL), A, C)
    nxt = _chat_next(wire["choices"][0]["message"], "claude-sonnet-4-5")
    nxt["reasoning_effort"] = "minimal"
    req, out, lost = _next(nxt, C, A, MemoryStore())  # expired: nothing kept
    assert req.reasoning is not None and req.reasoning.mode == "disabled"
    assert out["thinking"] == {"type": "disabled"}
    assert [x.split(":")[0] for x in lost] == ["reasoning"]


def test_interleaved_thinking_through_a_chat_client_goes_back_once() -> None:
    """Interleaved thinking (the recorded signed block before its tool use, then a second block
    before a second call) through a Chat client, whose one ``reasoning_content`` joins both
    texts: both blocks go back once, each before its call, by the rule that drops an echoed
    Gemini thought copy too (envelopes.drop_echoes); before, the joined echo matched neither
    block and stayed beside them (an unsigned third block, dropped with a replay loss)."""
    answer = body(THINKING_TOOL)
    first = answer["content"][0]
    call = next(b for b in answer["content"] if b["type"] == "tool_use")
    second = {**first, "thinking": "Now that I know the country, I look up its largest city."}
    answer["content"] += [second, {**call, "id": call["id"][:-1] + "x", "name": "get_city"}]
    wire, store = _turn(answer, A, C)
    message = wire["choices"][0]["message"]
    assert message["reasoning_content"] == first["thinking"] + second["thinking"]
    req, out, lost = _next(_chat_next(message, "claude-sonnet-4-5"), C, A, store)
    assert [(p.text, p.signature) for p in _reasoning(req)] == [
        (b["thinking"], b["signature"]) for b in (first, second)
    ]
    blocks = out["messages"][1]["content"]
    assert [b["type"] for b in blocks] == ["thinking", "text", "tool_use", "thinking", "tool_use"]
    assert lost == []
