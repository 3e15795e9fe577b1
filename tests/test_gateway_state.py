"""Responses state kept by the gateway, with the official ``openai`` SDK as the client.

``responses.create`` with ``previous_response_id`` (streamed and not) continues a conversation
through upstreams that keep no state (Chat, Anthropic): the upstream must receive the whole
history. ``responses.retrieve``, ``responses.input_items.list`` and ``responses.delete`` read the
stored responses; unknown ids are 404 ``previous_response_not_found``; ``store: false`` keeps
nothing; ``item_reference`` items expand; a Responses upstream keeps its own state.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from tests import gateway_upstream as gu  # noqa: E402

TOOLS = [
    {
        "type": "function",
        "name": "get_weather",
        "description": "Weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
]


@contextlib.contextmanager
def stack_with(**settings: Any) -> Iterator[gu.Stack]:
    """The test upstream and a gateway with the given top-level settings (``state`` ...)."""
    from interlingua.gateway.app import create_app
    from interlingua.gateway.config import load_config

    saved = {k: os.environ.get(k) for k in (gu.UPSTREAM_KEY_ENV, gu.INBOUND_KEYS_ENV)}
    os.environ[gu.UPSTREAM_KEY_ENV] = gu.UPSTREAM_KEY
    os.environ[gu.INBOUND_KEYS_ENV] = gu.INBOUND_KEY
    state = gu.UpstreamState(use_recorded=False)
    upstream = gu.ServerThread(gu.create_upstream_app(state))
    upstream.start()
    gateway = None
    try:
        data = gu.gateway_config_data(upstream.url, gu.free_closed_port())
        cfg = load_config(data={**data, **settings})
        app = create_app(cfg)
        gateway = gu.ServerThread(app)
        gateway.start()
        s = gu.Stack(gateway, upstream, state, [u.protocol for u in cfg.upstreams][::3])
        s.app = app  # type: ignore[attr-defined]
        yield s
    finally:
        if gateway is not None:
            gateway.stop()
        upstream.stop()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="module")
def stack() -> Iterator[gu.Stack]:
    with stack_with(state="memory") as s:
        yield s


def client(s: gu.Stack) -> Any:
    return gu.openai_client(s.url)


def turn(s: gu.Stack, model: str, stream: bool, **kw: Any) -> Any:
    c = client(s)
    if stream:
        with c.responses.stream(model=model, tools=TOOLS, **kw) as st:
            return st.get_final_response()
    return c.responses.create(model=model, tools=TOOLS, **kw)


def last_request(s: gu.Stack) -> Any:
    return s.state.requests[-1]


def user_texts(seen: Any) -> list[str]:
    """The user texts an upstream received, in order, whatever its protocol."""
    from interlingua import decode_request

    req = decode_request(seen.body, seen.protocol)
    return [p.text for m in req.messages if m.role == "user" for p in m.parts if hasattr(p, "text")]


@pytest.mark.parametrize("stream", [False, True], ids=["body", "stream"])
@pytest.mark.parametrize("upstream", ["openai_chat", "anthropic_messages", "gemini"])
def test_previous_response_id_carries_the_conversation(
    stack: gu.Stack, upstream: str, stream: bool
) -> None:
    """Four turns: question, tool call, tool result, two follow-ups; each turn sends only its
    new input and the upstream receives the whole conversation."""
    stack.need(upstream)
    model = f"{upstream}--tool-loop"
    r1 = turn(stack, model, stream, input="What is the weather in Paris?")
    assert r1.id.startswith("resp_")
    calls = [o for o in r1.output if o.type == "function_call"]
    assert calls and all(o.id.startswith("fc_") for o in r1.output if o.type == "function_call")
    out = [{"type": "function_call_output", "call_id": calls[0].call_id, "output": "21 C"}]
    r2 = turn(stack, model, stream, previous_response_id=r1.id, input=out)
    assert r2.id.startswith("resp_") and r2.id != r1.id
    assert r2.output_text == gu.answer_text("21 C")
    assert r2.previous_response_id == r1.id
    assert all(o.id.startswith("msg_") for o in r2.output if o.type == "message")
    r3 = turn(stack, model, stream, previous_response_id=r2.id, input="And in Rome?")
    r4 = turn(stack, model, stream, previous_response_id=r3.id, input="Thanks.")
    assert r4.id not in (r1.id, r2.id, r3.id)
    seen = last_request(stack)
    assert user_texts(seen)[0] == "What is the weather in Paris?"
    assert user_texts(seen)[-2:] == ["And in Rome?", "Thanks."]
    # the tool call and its result reached the upstream with the history, by id
    from interlingua import decode_request

    req = decode_request(seen.body, seen.protocol)
    kinds = [type(p).__name__ for m in req.messages for p in m.parts]
    assert "ToolCallPart" in kinds and "ToolResultPart" in kinds
    assert "previous_response_id" not in seen.body


def test_retrieve_input_items_delete(stack: gu.Stack) -> None:
    import openai

    stack.need("openai_chat")
    c = client(stack)
    model = "openai_chat--tool-loop"
    r1 = turn(stack, model, False, input="What is the weather in Paris?", instructions="Be brief.")
    fc = next(o for o in r1.output if o.type == "function_call")
    out = {"type": "function_call_output", "call_id": fc.call_id, "output": "19 C"}
    r2 = turn(stack, model, False, previous_response_id=r1.id, input=[out])
    got = c.responses.retrieve(r1.id)
    assert got.id == r1.id and got.instructions == "Be brief."
    assert [o.id for o in got.output] == [o.id for o in r1.output]
    assert c.responses.retrieve(r2.id).output_text == r2.output_text
    items = c.responses.input_items.list(r1.id)
    assert [i.type for i in items.data] == ["message"]
    assert items.data[0].id.startswith("msg_")
    items2 = c.responses.input_items.list(r2.id, order="asc")
    assert [i.type for i in items2.data] == ["function_call_output"]
    c.responses.delete(r1.id)
    with pytest.raises(openai.NotFoundError):
        c.responses.retrieve(r1.id)
    with pytest.raises(openai.NotFoundError):
        c.responses.delete(r1.id)
    # the conversation that went through r1 is gone with it: a clear 404, not a silent loss
    with pytest.raises(openai.NotFoundError) as e:
        turn(stack, model, False, previous_response_id=r2.id, input="More?")
    assert e.value.body["code"] == "previous_response_not_found"  # type: ignore[index]


def test_unknown_previous_response_is_404(stack: gu.Stack) -> None:
    import openai

    stack.need("openai_chat")
    n = len(stack.state.requests)
    with pytest.raises(openai.NotFoundError) as e:
        turn(stack, "openai_chat--tool-loop", False, previous_response_id="resp_nope", input="hi")
    assert e.value.status_code == 404
    assert e.value.body["code"] == "previous_response_not_found"  # type: ignore[index]
    assert e.value.body["param"] == "previous_response_id"  # type: ignore[index]
    assert len(stack.state.requests) == n  # the upstream was not called


def test_store_false_keeps_nothing(stack: gu.Stack) -> None:
    import openai

    stack.need("openai_chat")
    store = stack.app.state.gateway.state.store  # type: ignore[attr-defined]
    before = len(store)
    r = turn(stack, "openai_chat--tool-loop", False, input="hi", store=False)
    assert len(store) == before
    assert r.store is False
    with pytest.raises(openai.NotFoundError):
        client(stack).responses.retrieve(r.id)
    # a stored conversation can still be continued with store: false (read, not written)
    r1 = turn(stack, "openai_chat--tool-loop", False, input="What is the weather in Paris?")
    fc = next(o for o in r1.output if o.type == "function_call")
    n = len(store)
    out = {"type": "function_call_output", "call_id": fc.call_id, "output": "5 C"}
    r2 = turn(
        stack, "openai_chat--tool-loop", False, previous_response_id=r1.id, input=[out], store=False
    )
    assert r2.output_text == gu.answer_text("5 C") and len(store) == n


@pytest.mark.parametrize("upstream", ["anthropic_messages", "openai_chat"])
def test_item_reference_expands(stack: gu.Stack, upstream: str) -> None:
    """The Vercel AI SDK's way with store on: earlier output items sent by reference."""
    stack.need(upstream)
    model = f"{upstream}--tool-loop"
    r1 = turn(stack, model, False, input="What is the weather in Paris?")
    fc = next(o for o in r1.output if o.type == "function_call")
    r2 = turn(
        stack,
        model,
        False,
        input=[
            {"role": "user", "content": "What is the weather in Paris?"},
            {"type": "item_reference", "id": fc.id},
            {"type": "function_call_output", "call_id": fc.call_id, "output": "30 C"},
        ],
    )
    assert r2.output_text == gu.answer_text("30 C")
    from interlingua import decode_request

    seen = last_request(stack)
    req = decode_request(seen.body, seen.protocol)
    calls = [p for m in req.messages for p in m.parts if type(p).__name__ == "ToolCallPart"]
    assert [c.name for c in calls] == [fc.name]


def test_unknown_item_reference_is_404(stack: gu.Stack) -> None:
    import openai

    with pytest.raises(openai.NotFoundError) as e:
        turn(
            stack,
            "openai_chat--tool-loop",
            False,
            input=[{"type": "item_reference", "id": "fc_missing"}],
        )
    assert e.value.body["param"] == "input[0]"  # type: ignore[index]


def test_responses_upstream_keeps_its_own_state(stack: gu.Stack) -> None:
    """Pass-through: previous_response_id reaches a Responses upstream untouched."""
    stack.need("openai_responses")
    turn(stack, "openai_responses--tool-loop", False, previous_response_id="resp_up_1", input="hi")
    assert last_request(stack).body["previous_response_id"] == "resp_up_1"


def test_state_off_refuses_previous_response_id_clearly() -> None:
    import openai

    with stack_with(state="off") as s:
        s.need("openai_chat")
        with pytest.raises(openai.BadRequestError) as e:
            turn(s, "openai_chat--tool-loop", False, previous_response_id="resp_x", input="hi")
        assert "previous_response_id" in str(e.value)
        with pytest.raises(openai.NotFoundError):
            client(s).responses.retrieve("resp_x")


def test_stored_content_never_logged(stack: gu.Stack, caplog: pytest.LogCaptureFixture) -> None:
    secret = "the-launch-code-is-0000"
    with caplog.at_level(logging.DEBUG):
        r = turn(stack, "openai_chat--tool-loop", True, input=f"Remember {secret}")
        client(stack).responses.retrieve(r.id)
        turn(stack, "openai_chat--tool-loop", False, previous_response_id=r.id, input="ok")
    assert caplog.records
    assert not [r for r in caplog.records if secret in r.getMessage()]


@pytest.mark.parametrize("stream", [False, True], ids=["body", "stream"])
def test_a_store_that_is_down_is_a_503_in_the_callers_protocol(stream: bool) -> None:
    """Redis down: the call that needs state is refused clearly, the upstream never called."""
    import openai

    pytest.importorskip("redis")
    with stack_with(state=f"redis://127.0.0.1:{gu.free_closed_port()}/0") as s:
        s.need("openai_chat")
        n = len(s.state.requests)
        for kw in ({"input": "hi"}, {"previous_response_id": "resp_x", "input": "hi"}):
            with pytest.raises(openai.APIStatusError) as e:
                turn(s, "openai_chat--tool-loop", stream, **kw)
            assert e.value.status_code == 503
            assert "gateway state unavailable: redis state store" in str(e.value)
        assert len(s.state.requests) == n
        # a conversation that needs no state goes through
        r = turn(s, "openai_chat--tool-loop", stream, input="hi", store=False)
        assert r.output and len(s.state.requests) == n + 1


def test_a_full_disk_is_a_503(tmp_path: Any) -> None:
    """SQLite that cannot write (here: its directory is a file) refuses before the upstream."""
    import openai

    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    with stack_with(state=f"sqlite:///{blocker}/state.db") as s:
        s.need("openai_chat")
        with pytest.raises(openai.APIStatusError) as e:
            turn(s, "openai_chat--tool-loop", False, input="hi")
        assert e.value.status_code == 503 and "sqlite state store" in str(e.value)


def test_an_input_item_with_a_list_for_type_is_a_400(stack: gu.Stack) -> None:
    """Found by the gateway fuzz test: an unhashable ``type`` reached the id table (a 500)."""
    import httpx

    stack.need("openai_chat")
    r = httpx.post(
        stack.url + "/v1/responses",
        headers={"authorization": f"Bearer {gu.INBOUND_KEY}"},
        json={"model": "openai_chat--tool-loop", "input": [{"type": ["message"], "content": "hi"}]},
    )
    assert r.status_code == 400, r.text
    assert r.json()["error"]["type"] == "invalid_request_error"
    assert "input[0]" in r.json()["error"]["message"] + str(r.json()["error"].get("param"))
