"""Reasoning state kept by the gateway for a client that cannot carry it: the official ``openai``
SDK's Chat Completions with ``reasoning_effort``, in a three-turn tool loop against upstreams
that refuse a tool-use turn without its reasoning state (tests/state_upstream.py: Anthropic's
signed thinking, Gemini's thoughtSignature), streamed and not.

With a store the loop thinks on every turn; without one (``state = "off"``) Anthropic's thinking
is turned off for the turns that would need replay, and that is reported (a loss): the caller
never gets the upstream's 400."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from tests import gateway_upstream as gu  # noqa: E402
from tests.state_upstream import CALLS, ThinkingState, create_thinking_app  # noqa: E402

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup",
            "description": "Look a number up",
            "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}},
        },
    }
]


@contextlib.contextmanager
def thinking_stack(state: str) -> Iterator[tuple[str, ThinkingState]]:
    from interlingua.gateway.app import create_app
    from interlingua.gateway.config import load_config

    st = ThinkingState()
    upstream = gu.ServerThread(create_thinking_app(st))
    upstream.start()
    gateway = None
    try:
        cfg = load_config(
            data={
                "state": state,
                "upstreams": [
                    {
                        "protocol": "anthropic_messages",
                        "base_url": upstream.url + "/v1",
                        "models": ["claude-*"],
                    },
                    {
                        "protocol": "gemini",
                        "base_url": upstream.url + "/v1beta",
                        "models": ["gemini-*"],
                    },
                ],
            }
        )
        gateway = gu.ServerThread(create_app(cfg))
        gateway.start()
        yield gateway.url, st
    finally:
        if gateway is not None:
            gateway.stop()
        upstream.stop()


@pytest.fixture(scope="module")
def with_store() -> Iterator[tuple[str, ThinkingState]]:
    with thinking_stack("memory") as s:
        yield s


@pytest.fixture(scope="module")
def without_store() -> Iterator[tuple[str, ThinkingState]]:
    with thinking_stack("off") as s:
        yield s


def chat_turn(url: str, model: str, messages: list[Any], stream: bool) -> tuple[Any, str]:
    """One Chat call: (the assistant message, the gateway's x-interlingua-reasoning header)."""
    c = gu.openai_client(url, "any")
    kw: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "tools": TOOLS,
        "reasoning_effort": "high",
    }
    raw = c.chat.completions.with_raw_response.create(stream=stream, **kw)
    losses = raw.headers.get("x-interlingua-reasoning", "")
    if stream:
        from openai.lib.streaming.chat import ChatCompletionStreamState

        acc = ChatCompletionStreamState()
        for chunk in raw.parse():
            acc.handle_chunk(chunk)
        return acc.get_final_completion().choices[0].message, losses
    return raw.parse().choices[0].message, losses


def tool_loop(url: str | Callable[[], str], model: str, stream: bool) -> tuple[str, list[str]]:
    """The three-turn loop: (final answer, the reasoning header of each turn); ``url``: the
    gateway, or a function giving the gateway of each turn."""
    messages: list[Any] = [{"role": "user", "content": "Look up two numbers, then sum up."}]
    losses = []
    for turn in range(CALLS + 1):
        msg, n = chat_turn(url() if callable(url) else url, model, messages, stream)
        losses.append(n)
        if turn == CALLS:
            assert not msg.tool_calls
            return msg.content or "", losses
        assert msg.tool_calls, f"turn {turn + 1}: expected a tool call"
        messages.append(
            {
                "role": "assistant",
                "content": msg.content,
                "tool_calls": [
                    {
                        "id": t.id,
                        "type": "function",
                        "function": {"name": t.function.name, "arguments": t.function.arguments},
                    }
                    for t in msg.tool_calls
                ],
            }
        )
        for t in msg.tool_calls:
            n_arg = json.loads(t.function.arguments)["n"]
            messages.append({"role": "tool", "tool_call_id": t.id, "content": f"value {n_arg}"})
    raise AssertionError("unreachable")


@pytest.mark.parametrize("stream", [False, True], ids=["body", "stream"])
def test_anthropic_thinking_is_replayed_for_a_chat_client(
    with_store: tuple[str, ThinkingState], stream: bool
) -> None:
    url, st = with_store
    before = len(st.thinking)
    answer, losses = tool_loop(url, "claude-thinker", stream)
    assert answer == "Done: value 0; value 1"
    assert st.thinking[before:] == [True] * (CALLS + 1)  # thinking on for every turn
    assert losses == [""] * (CALLS + 1)
    assert not st.refused


@pytest.mark.parametrize("stream", [False, True], ids=["body", "stream"])
def test_without_a_store_thinking_is_turned_off_and_reported(
    without_store: tuple[str, ThinkingState], stream: bool
) -> None:
    url, st = without_store
    before = len(st.thinking)
    answer, losses = tool_loop(url, "claude-thinker", stream)
    assert answer == "Done: value 0; value 1"
    assert not st.refused  # never the upstream's 400
    # turn 1 thinks; the turns continuing a tool use without its thinking do not
    assert st.thinking[before:] == [True] + [False] * CALLS
    assert losses[0] == ""  # reported on the turns it was turned off
    assert all(h.startswith("off: ") for h in losses[1:]), losses


@pytest.mark.parametrize("state", ["with_store", "without_store"])
@pytest.mark.parametrize("stream", [False, True], ids=["body", "stream"])
def test_gemini_thought_signatures_reach_the_upstream(
    request: pytest.FixtureRequest, state: str, stream: bool
) -> None:
    """Gemini's signatures ride in the tool call ids a Chat client echoes (docs/gemini.md)."""
    url, st = request.getfixturevalue(state)
    answer, _ = tool_loop(url, "gemini-thinker", stream)
    assert answer == "Done: value 0; value 1"
    assert not st.refused


def test_the_upstream_refuses_a_turn_without_its_thinking(
    with_store: tuple[str, ThinkingState],
) -> None:
    """The check above can fail: the same turn 2 sent straight to the upstream is refused."""
    import anthropic

    url, st = with_store
    first, _ = chat_turn(url, "claude-thinker", [{"role": "user", "content": "Go."}], False)
    call = first.tool_calls[0]
    direct = anthropic.Anthropic(base_url=url, api_key="any", max_retries=0)
    with pytest.raises(anthropic.BadRequestError, match="Expected `thinking`"):
        direct.messages.create(
            model="claude-thinker",
            max_tokens=2048,
            thinking={"type": "enabled", "budget_tokens": 1024},
            messages=[
                {"role": "user", "content": "Go."},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "tool_use", "id": call.id, "name": "lookup", "input": {"n": 0}}
                    ],
                },
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "v"}],
                },
            ],
        )


def test_a_stream_whose_reasoning_is_kept_reports_what_any_stream_reports() -> None:
    """The stateful translator (its end held until the state is saved) ends as the plain one:
    the same bytes and the same losses (usage, fields and events no row reads), on every
    recorded stream toward a client whose reasoning state the gateway keeps."""
    from types import SimpleNamespace

    import interlingua
    from interlingua.gateway.state.keeper import StateCall, StatefulTranslator

    from tests.stream_util import recorded_streams

    kept = 0
    for rec in recorded_streams():
        for client in ("openai_chat", "anthropic_messages"):
            keeper = SimpleNamespace(store=object(), responses=None, ttl=60)
            call = StateCall(keeper, {}, client, rec.pid)  # type: ignore[arg-type]
            if not call.active:  # the gateway keeps no state for this pair
                continue
            kept += 1
            plain = interlingua.StreamTranslator(rec.pid, client)
            stateful = StatefulTranslator(rec.pid, client, call)
            out = stateful.feed(rec.sse()) + stateful.close()
            if stateful.held is not None:  # a completed end waits for the state to be saved
                out += stateful.release()
            assert out == plain.feed(rec.sse()) + plain.close(), rec
            assert stateful.losses == plain.losses, rec
    assert kept or not recorded_streams()


def test_a_stream_whose_state_cannot_be_kept_reports_its_losses_once() -> None:
    """The store fails as the stream ends: the caller gets the in-band error instead of the end,
    and the stream's losses (usage, fields and events no row reads) are reported once, as the
    plain translator reports them: for reasoning that is never released and for a Responses
    turn whose end was released (encoded, not sent) before its save failed."""
    import asyncio
    from types import SimpleNamespace

    import interlingua
    from interlingua.gateway.state import StateUnavailable
    from interlingua.gateway.state.keeper import StateCall, StatefulTranslator
    from interlingua.gateway.state.responses import Turn

    from tests.stream_util import recorded_streams

    async def fail(*_: Any) -> None:
        raise StateUnavailable("the store is down")

    down = SimpleNamespace(put_many=fail)
    responses = SimpleNamespace(stamp=lambda turn, body: None, save=fail)
    refused = 0
    for rec in recorded_streams():
        for client in ("openai_chat", "anthropic_messages", "openai_responses"):
            keeper = SimpleNamespace(store=down, responses=responses, ttl=60)
            call = StateCall(keeper, {}, client, rec.pid)  # type: ignore[arg-type]
            if client == "openai_responses":
                call.turn = Turn("resp_1", None, [], [], store=True, gateway_ids=True)
            if not call.active:  # the gateway keeps no state for this pair
                continue
            plain = interlingua.StreamTranslator(rec.pid, client)
            plain.feed(rec.sse())
            plain.close()
            stateful = StatefulTranslator(rec.pid, client, call)
            stateful.feed(rec.sse())
            stateful.close()
            log = SimpleNamespace(error=None)
            end = asyncio.run(call.finish_stream(stateful, log))  # type: ignore[arg-type]
            if log.error is None:  # a stream that failed or was cut off leaves nothing to keep
                continue
            refused += 1
            assert log.error == "state_unavailable" and b"could not be kept" in end, rec
            assert stateful.losses == plain.losses, (rec, client)
    assert refused or not recorded_streams()


@pytest.mark.parametrize("kept", [False, True])
def test_a_stream_translator_expects_the_usage_its_call_asked_for(kept: bool) -> None:
    """The translator of a call is built knowing that the upstream was asked for usage at the
    end (Chat's include_usage), with or without the state kept: a Chat stream cut after its
    finish but before its usage is reported cut, not completed."""
    from types import SimpleNamespace

    from interlingua.gateway.state.keeper import StateCall, StatefulTranslator
    from interlingua.gateway.state.responses import Turn

    keeper = SimpleNamespace(store=object() if kept else None, responses=None, ttl=60)
    call = StateCall(keeper, {}, "openai_responses", "openai_chat")  # type: ignore[arg-type]
    call.turn = Turn("resp_1", None, [], [], store=True, gateway_ids=True)
    t = call.translator("openai_chat", "openai_responses", None, expect_usage=True)
    assert isinstance(t, StatefulTranslator) is kept
    head = {"id": "c1", "object": "chat.completion.chunk", "model": "m", "created": 1}
    start = {**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]}
    finish = {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    sse = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in (start, finish))
    out = t.feed(sse) + t.close()
    assert t.decoder.ended != "completed"
    assert b"usage is lost" in out and b"response.completed" not in out
