"""Anthropic thinking through an OpenAI Responses client: the ``ilgenv1:`` reasoning envelope in
``encrypted_content`` (runtime/transforms/envelopes.py, docs/openai_responses.md)."""

from __future__ import annotations

import base64
from typing import Any

import httpx
import interlingua
import orjson
from interlingua.generated.canonical import ReasoningPart
from interlingua.streams.accumulate import accumulate
from interlingua.transforms.envelopes import B64_MARK, PREFIX, unwrap, wrap

from tests.stream_util import decode_stream
from tests.test_openai_responses import check_responses_sse, sdk_client

A, R = "anthropic_messages", "openai_responses"
SIG = "EqQBCkgIARABGAIiQJ1x0nE9l9Y2m5Q3ezh0u6Ew8dB/signature=="
REDACTED = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"
THINKING = "Two cities: call the tool for Paris first. ünïcode ✓"
CALL = {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Paris"}}
BLOCKS = [
    {"type": "thinking", "thinking": THINKING, "signature": SIG},
    {"type": "redacted_thinking", "data": REDACTED},
    CALL,
]
RESPONSE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-x",
    "content": BLOCKS,
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 50, "output_tokens": 20},
}


def _sse(events: list[dict[str, Any]]) -> bytes:
    return b"".join(
        b"event: " + e["type"].encode() + b"\ndata: " + orjson.dumps(e) + b"\n\n" for e in events
    )


STREAM = _sse(
    [
        {
            "type": "message_start",
            "message": {**RESPONSE, "content": [], "stop_reason": None},
        },
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": THINKING[:10]},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": THINKING[10:]},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "signature_delta", "signature": SIG},
        },
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "redacted_thinking", "data": REDACTED},
        },
        {"type": "content_block_stop", "index": 1},
        {"type": "content_block_start", "index": 2, "content_block": {**CALL, "input": {}}},
        {
            "type": "content_block_delta",
            "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": '{"city": "Paris"}'},
        },
        {"type": "content_block_stop", "index": 2},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 20},
        },
        {"type": "message_stop"},
    ]
)


def _payload(env: str) -> Any:
    if not env.startswith(PREFIX):  # the Gemini form: the standard base64 of the text
        env = base64.b64decode(env, validate=True).decode()
    head, _, b64 = env.rpartition(":")
    assert head + ":" == f"{PREFIX}{A}:"
    assert "=" not in b64
    return orjson.loads(base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4)))


def _check_items(output: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The two reasoning items a Responses client receives, in order, before the call."""
    kinds = [o["type"] for o in output]
    assert kinds == ["reasoning", "reasoning", "function_call"]
    thinking, redacted = output[0], output[1]
    assert _payload(thinking["encrypted_content"]) == {"t": THINKING, "s": SIG}
    assert thinking["summary"] == [{"type": "summary_text", "text": THINKING}]
    assert _payload(redacted["encrypted_content"]) == {"r": REDACTED}
    assert redacted["summary"] == []
    return output


def _next_request(output: list[dict[str, Any]]) -> dict[str, Any]:
    """What Codex sends next: the whole history (store: false), reasoning items echoed."""
    call = next(o for o in output if o["type"] == "function_call")
    return {
        "model": "claude-x",
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
            *output,
            {"type": "function_call_output", "call_id": call["call_id"], "output": "18C"},
        ],
    }


def _back_to_anthropic(req: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = interlingua.translate_request(req, source=R, target=A).body
    turn = next(m for m in body["messages"] if m["role"] == "assistant")
    return turn


def test_envelope_roundtrip_helpers() -> None:
    env = wrap(A, THINKING, SIG, None)
    assert env.startswith(PREFIX + A + ":")
    assert unwrap(env) == [ReasoningPart(text=THINKING, signature=SIG, owner=A)]
    assert unwrap(wrap(A, "", None, REDACTED)) == [
        ReasoningPart(text="", redacted=REDACTED, owner=A)
    ]
    assert unwrap(PREFIX + A + ":not*base64") is None
    assert unwrap(PREFIX + "gemini:" + env.rpartition(":")[2]) is None  # owner not carried


def test_response_to_responses_client_and_back() -> None:
    t = interlingua.translate_response(RESPONSE, source=A, target=R)
    assert not [loss for loss in t.losses if loss.feature == "reasoning_replay"]
    output = _check_items(t.body["output"])
    turn = _back_to_anthropic(_next_request(output))
    assert turn["content"] == BLOCKS  # thinking, redacted_thinking and the call, unchanged


def test_stream_to_responses_client_and_back() -> None:
    out = b"".join(interlingua.translate_stream([STREAM], source=A, target=R))
    events = check_responses_sse(out)
    done = [e["item"] for e in events if e["type"] == "response.output_item.done"]
    _check_items(done)
    final = events[-1]
    assert final["type"] == "response.completed"
    _check_items(final["response"]["output"])
    turn = _back_to_anthropic(_next_request(final["response"]["output"]))
    assert turn["content"] == BLOCKS
    # accumulated (as the gateway's non-stream path would see it), the state is the same
    resp = accumulate(decode_stream(out, R), R)
    envs = [p.signature for p in resp.parts if type(p) is ReasoningPart]
    assert [_payload(e or "") for e in envs] == [{"t": THINKING, "s": SIG}, {"r": REDACTED}]


def test_openai_sdk_accepts_the_stream() -> None:
    out = b"".join(interlingua.translate_stream([STREAM], source=A, target=R))
    client = sdk_client(out, "text/event-stream")
    with client.responses.stream(model="m", input="hi") as stream:
        final = stream.get_final_response()
    reasoning = [o for o in final.output if o.type == "reasoning"]
    assert [_payload(r.encrypted_content or "") for r in reasoning] == [
        {"t": THINKING, "s": SIG},
        {"r": REDACTED},
    ]
    assert reasoning[0].summary[0].text == THINKING
    output = [o.model_dump(exclude_none=True) for o in final.output]
    assert _back_to_anthropic(_next_request(output))["content"] == BLOCKS


def test_enveloped_item_to_responses_upstream_is_dropped_and_reported() -> None:
    output = interlingua.translate_response(RESPONSE, source=A, target=R).body["output"]
    t = interlingua.translate_request(_next_request(output), source=R, target=R)
    wire = orjson.dumps(t.body).decode()
    assert PREFIX not in wire and B64_MARK not in wire
    assert SIG not in wire and REDACTED not in wire
    assert [i["type"] for i in t.body["input"]] == [
        "message",
        "function_call",
        "function_call_output",
    ]
    dropped = [loss for loss in t.losses if loss.feature == "reasoning_replay"]
    assert len(dropped) == 2 and all(A in loss.why for loss in dropped)


def test_envelope_never_reaches_chat_or_gemini() -> None:
    output = interlingua.translate_response(RESPONSE, source=A, target=R).body["output"]
    for target in ("openai_chat", "gemini"):
        t = interlingua.translate_request(_next_request(output), source=R, target=target)
        wire = orjson.dumps(t.body).decode()
        assert PREFIX not in wire and B64_MARK not in wire
        assert SIG not in wire and REDACTED not in wire
        assert any(loss.feature == "reasoning_replay" for loss in t.losses)


def test_plain_encrypted_content_is_untouched() -> None:
    req = {
        "model": "gpt-x",
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": "Paris."}],
                "encrypted_content": "gAAAAABilgenv1:anthropic_messages:e30",
            },
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": '{"city":"Paris"}',
                "status": "completed",
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "18C"},
        ],
    }
    t = interlingua.translate_request(req, source=R, target=R)
    assert t.body == req and not t.losses
    back = interlingua.translate_request(req, source=R, target=A).body
    assert "thinking" not in orjson.dumps(back).decode()


def test_malformed_envelope_goes_nowhere() -> None:
    output = interlingua.translate_response(RESPONSE, source=A, target=R).body["output"]
    output = [dict(o) for o in output]
    output[0]["encrypted_content"] = PREFIX + A + ":%%%"
    output[1]["encrypted_content"] = PREFIX + "openai_chat:e30"
    for target in interlingua.available():
        t = interlingua.translate_request(_next_request(output), source=R, target=target)
        wire = orjson.dumps(t.body).decode()
        assert PREFIX not in wire and SIG not in wire
        if target == A:
            turn = next(m for m in t.body["messages"] if m["role"] == "assistant")
            assert turn["content"] == [CALL]  # no thinking block without its signature


# ---- a Gemini client: the blocks ride in the thoughtSignature of the part that follows ---------


def _gemini_next_request(turn: dict[str, Any]) -> dict[str, Any]:
    """What a Gemini client sends next: the model turn echoed whole, then the result."""
    fc = next(p["functionCall"] for p in turn["parts"] if "functionCall" in p)
    result = {"name": fc["name"], "response": {"output": "18C"}, "id": fc["id"]}
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            turn,
            {"role": "user", "parts": [{"functionResponse": result}]},
        ]
    }


def _gemini_call_part(turn: dict[str, Any]) -> dict[str, Any]:
    part: dict[str, Any] = next(p for p in turn["parts"] if "functionCall" in p)
    assert _payload(part["thoughtSignature"]) == [{"t": THINKING, "s": SIG}, {"r": REDACTED}]
    return part


def test_response_to_gemini_client_and_back() -> None:
    t = interlingua.translate_response(RESPONSE, source=A, target="gemini")
    assert not [loss for loss in t.losses if loss.feature == "reasoning_replay"]
    turn = t.body["candidates"][0]["content"]
    # the thinking is shown as a thought part, as the stream shows it; the state rides on
    assert turn["parts"][0] == {"text": THINKING, "thought": True}
    _gemini_call_part(turn)
    req = _gemini_next_request(turn)
    back_t = interlingua.translate_request(req, source="gemini", target=A, model="claude-x")
    assistant = next(m for m in back_t.body["messages"] if m["role"] == "assistant")
    assert assistant["content"] == BLOCKS  # the echoed thought part is not replayed twice
    assert not [loss for loss in back_t.losses if "reasoning" in loss.feature]
    for target in ("gemini", "openai_chat", "openai_responses"):
        sent = interlingua.translate_request(req, source="gemini", target=target, model="m")
        wire = orjson.dumps(sent.body).decode()
        assert PREFIX not in wire and B64_MARK not in wire
        assert SIG not in wire and REDACTED not in wire
        assert any(loss.feature == "reasoning_replay" for loss in sent.losses)


def test_stream_to_gemini_client_and_back() -> None:
    out = b"".join(interlingua.translate_stream([STREAM], source=A, target="gemini"))
    parts = [
        p
        for line in out.decode().splitlines()
        if line.startswith("data: ")
        for p in orjson.loads(line[6:])["candidates"][0]["content"]["parts"]
    ]
    call = _gemini_call_part({"parts": parts})
    assert not any("thoughtSignature" in p for p in parts if p is not call)
    turn = {"role": "model", "parts": parts}
    back = interlingua.translate_request(
        _gemini_next_request(turn), source="gemini", target=A, model="claude-x"
    )
    assistant = next(m for m in back.body["messages"] if m["role"] == "assistant")
    assert assistant["content"] == BLOCKS  # the echoed thought text parts carry no state
    assert not [loss for loss in back.losses if "reasoning" in loss.feature]  # nor are lost


def test_genai_sdk_keeps_the_signature_bytes() -> None:
    """google-genai types thoughtSignature as base64 bytes: it accepts the envelope, and the
    turn it sends back (its own serialisation) still unwraps to the exact blocks."""
    from tests.test_gemini import _genai_client

    out = b"".join(interlingua.translate_stream([STREAM], source=A, target="gemini"))
    client = _genai_client(
        lambda request: httpx.Response(
            200, content=out, headers={"content-type": "text/event-stream"}
        )
    )
    parts: list[Any] = []
    for chunk in client.models.generate_content_stream(model="gemini-2.5-pro", contents="x"):
        parts += chunk.candidates[0].content.parts or [] if chunk.candidates else []
    turn = {
        "role": "model",
        "parts": [p.model_dump(mode="json", exclude_none=True, by_alias=True) for p in parts],
    }
    back = interlingua.translate_request(
        _gemini_next_request(turn), source="gemini", target=A, model="claude-x"
    ).body
    assistant = next(m for m in back["messages"] if m["role"] == "assistant")
    assert assistant["content"] == BLOCKS
