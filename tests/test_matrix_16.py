"""All directions among the protocols (25 for five) for requests, responses and errors, and
among the protocols that translate streams for streams.

Every source payload is written once in Anthropic Messages and expressed in each other protocol
by interlingua itself (Anthropic -> P), then translated P -> Q for every Q. What must survive is
checked on the canonical decoding of the result: tool call names, ids (correlated with their
results) and parsed arguments, parallel calls kept apart, images, text, and opaque reasoning
state, which goes back only to the protocol that made it (and is reported everywhere else)."""

from __future__ import annotations

import itertools
from typing import Any

import interlingua
import orjson
import pytest
from interlingua.generated.canonical import (
    ImagePart,
    ReasoningPart,
    Request,
    Response,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)
from interlingua.streams.accumulate import accumulate
from interlingua.transforms.call_id_envelope import MARK
from interlingua.transforms.envelopes import B64_MARK, PREFIX

from tests.stream_util import decode_stream, streaming_protocols

PROTOCOLS = interlingua.available()
PAIRS = list(itertools.product(PROTOCOLS, PROTOCOLS))
STREAM_PAIRS = list(itertools.product(streaming_protocols(), streaming_protocols()))
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg=="
SIG = "EqQBCkgIARABGAIiQJ1x0nE9l9Y2m5Q3ezh0u6Ew8dB/signature=="

REQUEST = {
    "model": "m",
    "max_tokens": 1024,
    "system": "You answer with the tools.",
    "messages": [
        {
            "role": "user",
            "content": [
                {
                    "type": "text",
                    "text": "What is in the picture, and the weather in Paris and Rome?",
                },
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": PNG},
                },
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Checking both."},
                {
                    "type": "tool_use",
                    "id": "toolu_paris",
                    "name": "get_weather",
                    "input": {"city": "Paris"},
                },
                {
                    "type": "tool_use",
                    "id": "toolu_rome",
                    "name": "get_weather",
                    "input": {"city": "Rome", "unit": "c"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_paris", "content": "18C, sunny"},
                {"type": "tool_result", "tool_use_id": "toolu_rome", "content": "24C, clear"},
            ],
        },
    ],
    "tools": [
        {
            "name": "get_weather",
            "description": "Weather for a city",
            "input_schema": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
                "required": ["city"],
            },
        }
    ],
}

RESPONSE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "m",
    "content": [
        {"type": "text", "text": "Calling both."},
        {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {"city": "Paris"}},
        {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {"city": "Rome"}},
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 50, "output_tokens": 20},
}


def _sse(events: list[dict[str, Any]]) -> bytes:
    return b"".join(
        b"event: " + e["type"].encode() + b"\ndata: " + orjson.dumps(e) + b"\n\n" for e in events
    )


def _block(i: int, block: dict[str, Any], deltas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"type": "content_block_start", "index": i, "content_block": block},
        *({"type": "content_block_delta", "index": i, "delta": d} for d in deltas),
        {"type": "content_block_stop", "index": i},
    ]


STREAM = _sse(
    [
        {
            "type": "message_start",
            "message": {
                **RESPONSE,
                "content": [],
                "stop_reason": None,
                "usage": {"input_tokens": 50, "output_tokens": 1},
            },
        },
        *_block(
            0,
            {"type": "text", "text": ""},
            [{"type": "text_delta", "text": "Calling "}, {"type": "text_delta", "text": "both."}],
        ),
        *_block(
            1,
            {"type": "tool_use", "id": "toolu_a", "name": "get_weather", "input": {}},
            [
                {"type": "input_json_delta", "partial_json": '{"city": '},
                {"type": "input_json_delta", "partial_json": '"Paris"}'},
            ],
        ),
        *_block(
            2,
            {"type": "tool_use", "id": "toolu_b", "name": "get_weather", "input": {}},
            [{"type": "input_json_delta", "partial_json": '{"city": "Rome"}'}],
        ),
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 20},
        },
        {"type": "message_stop"},
    ]
)


def _as(pid: str, kind: str) -> Any:
    """The Anthropic payload expressed in protocol ``pid`` by interlingua."""
    if kind == "stream":
        return b"".join(
            interlingua.translate_stream([STREAM], source="anthropic_messages", target=pid)
        )
    fn = interlingua.translate_request if kind == "request" else interlingua.translate_response
    return fn(
        REQUEST if kind == "request" else RESPONSE, source="anthropic_messages", target=pid
    ).body


def _calls(parts: list[Any]) -> list[tuple[str, Any]]:
    return [(p.name, orjson.loads(p.arguments or "{}")) for p in parts if type(p) is ToolCallPart]


def _text(parts: list[Any]) -> str:
    return "".join(p.text for p in parts if type(p) is TextPart)


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_request_every_direction(source: str, target: str) -> None:
    body = _as(source, "request")
    t = interlingua.translate_request(body, source=source, target=target, model="m")
    req: Request = interlingua.decode_request(t.body, target)
    parts = [p for m in req.messages for p in m.parts]
    calls = [p for p in parts if type(p) is ToolCallPart]
    results = [p for p in parts if type(p) is ToolResultPart]
    assert _calls(calls) == [
        ("get_weather", {"city": "Paris"}),
        ("get_weather", {"city": "Rome", "unit": "c"}),
    ]
    assert len({c.id for c in calls}) == 2, "parallel calls keep distinct ids"
    # each result answers its own call, by id
    assert [r.call_id for r in results] == [c.id for c in calls]
    assert [_text(r.content) for r in results] == ["18C, sunny", "24C, clear"]
    images = [p for p in parts if type(p) is ImagePart]
    assert len(images) == 1 and images[0].data == PNG and images[0].media_type == "image/png"
    assert req.tools[0].name == "get_weather" and req.tools[0].parameters is not None
    assert req.tools[0].parameters["required"] == ["city"]
    assert req.messages[0].role in ("system", "developer")


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_response_every_direction(source: str, target: str) -> None:
    t = interlingua.translate_response(_as(source, "response"), source=source, target=target)
    resp: Response = interlingua.decode_response(t.body, target)
    assert _text(resp.parts) == "Calling both."
    assert _calls(resp.parts) == [
        ("get_weather", {"city": "Paris"}),
        ("get_weather", {"city": "Rome"}),
    ]
    ids = [p.id for p in resp.parts if type(p) is ToolCallPart]
    assert len(set(ids)) == 2
    assert resp.finish is not None and resp.finish.unified == "tool_calls"


@pytest.mark.parametrize(("source", "target"), STREAM_PAIRS)
def test_stream_every_direction(source: str, target: str) -> None:
    out = b"".join(
        interlingua.translate_stream([_as(source, "stream")], source=source, target=target)
    )
    resp = accumulate(decode_stream(out, target), target)
    assert _text(resp.parts) == "Calling both."
    assert _calls(resp.parts) == [
        ("get_weather", {"city": "Paris"}),
        ("get_weather", {"city": "Rome"}),
    ]
    assert len({p.id for p in resp.parts if type(p) is ToolCallPart}) == 2
    assert resp.finish is not None and resp.finish.unified == "tool_calls"


ERROR = {
    "type": "error",
    "error": {
        "type": "rate_limit_error",
        "message": "Number of requests has exceeded your rate limit",
    },
}


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_error_every_direction(source: str, target: str) -> None:
    status, body = interlingua.translate_error(
        429, ERROR, source="anthropic_messages", target=source
    )
    st, out = interlingua.translate_error(status, body, source=source, target=target)
    err = interlingua.decode_error(st, out, target)
    assert (st, err.type) == (429, "rate_limit")
    assert err.message == ERROR["error"]["message"]


# ---- opaque reasoning state: each protocol's own, replayed only to its owner -------------------

NATIVE_REASONING = {
    "anthropic_messages": {
        **RESPONSE,
        "content": [
            {"type": "thinking", "thinking": "Two cities.", "signature": SIG},
            *RESPONSE["content"][1:2],
        ],
    },
    "openai_responses": {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": "completed",
        "model": "m",
        "output": [
            {
                "id": "rs_1",
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "Two cities."}],
                "encrypted_content": SIG,
            },
            {
                "id": "fc_1",
                "type": "function_call",
                "call_id": "call_a",
                "name": "get_weather",
                "arguments": '{"city":"Paris"}',
                "status": "completed",
            },
        ],
        "usage": {
            "input_tokens": 5,
            "output_tokens": 5,
            "total_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 3},
        },
    },
    "gemini": {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {
                            "functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                            "thoughtSignature": SIG,
                        }
                    ],
                },
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 5, "totalTokenCount": 10},
    },
}


# (owner, client) pairs whose reasoning state rides in an envelope the client echoes (the tool-id
# envelope of Gemini serves every client)
ENVELOPED = {("anthropic_messages", "openai_responses"), ("anthropic_messages", "gemini")}


def _signatures(parts: list[Any], owner: str) -> list[str]:
    return [
        p.signature or ""
        for p in parts
        if type(p) is ReasoningPart and p.owner == owner and p.signature
    ]


@pytest.mark.parametrize(
    ("source", "target"), [(s, t) for s in NATIVE_REASONING for t in PROTOCOLS]
)
def test_reasoning_state_goes_back_only_to_its_owner(source: str, target: str) -> None:
    t = interlingua.translate_response(NATIVE_REASONING[source], source=source, target=target)
    assert _calls(interlingua.decode_response(t.body, target).parts) == [
        ("get_weather", {"city": "Paris"})
    ]
    raw = orjson.dumps(t.body).decode()
    if target == source:
        assert _signatures(interlingua.decode_response(t.body, target).parts, source) == [SIG]
        return
    # the client of another protocol echoes the assistant turn back in its next request
    follow = interlingua.translate_request(
        {"model": "m", "max_tokens": 100, "messages": [{"role": "user", "content": "weather?"}]},
        source="anthropic_messages",
        target=target,
    ).body
    history = _assistant_turn(t.body, target)
    follow = _with_history(follow, target, history)
    back = interlingua.translate_request(follow, source=target, target=source, model="m")
    back_req = interlingua.decode_request(back.body, source)
    sigs = _signatures([p for m in back_req.messages for p in m.parts], source)
    if source == "gemini" or (source, target) in ENVELOPED:
        # Gemini's signature rides through other clients in the tool-id envelope
        # (docs/gemini.md), Anthropic thinking through a Responses client in the reasoning
        # item's encrypted_content and through a Gemini client in the thoughtSignature of the
        # next part (docs/openai_responses.md): back to its owner, exactly
        assert sigs == [SIG]
        if source == "anthropic_messages":
            turn = next(m for m in back.body["messages"] if m["role"] == "assistant")
            assert turn["content"][0] == {
                "type": "thinking",
                "thinking": "Two cities.",
                "signature": SIG,
            }
            assert not t.losses
        for other in PROTOCOLS:
            if other == source:
                continue
            sent = interlingua.translate_request(follow, source=target, target=other, model="m")
            wire = orjson.dumps(sent.body).decode()
            assert SIG not in wire and MARK not in wire, "no tool-id envelope upstream"
            assert PREFIX not in wire and B64_MARK not in wire, (
                "the envelope never reaches a protocol that does not own it"
            )
            if (source, target) in ENVELOPED:
                assert any(loss.feature == "reasoning_replay" for loss in sent.losses)
    else:
        assert sigs == [] and SIG not in raw, (
            "opaque state never sent to a protocol that did not make it"
        )
        assert any(loss.feature == "reasoning_replay" for loss in t.losses)


def _assistant_turn(body: dict[str, Any], pid: str) -> Any:
    if pid == "openai_chat":
        return body["choices"][0]["message"]
    if pid == "cohere_v2":
        return body["message"]
    if pid == "anthropic_messages":
        return {"role": "assistant", "content": body["content"]}
    if pid == "openai_responses":
        return body["output"]
    return body["candidates"][0]["content"]


def _with_history(req: dict[str, Any], pid: str, turn: Any) -> dict[str, Any]:
    """Append the assistant turn and a tool result for its call, as that client would."""
    req = dict(req)
    if pid in ("openai_chat", "cohere_v2"):  # one tool message per result, by call id
        call = turn["tool_calls"][0]
        req["messages"] = [
            *req["messages"],
            turn,
            {"role": "tool", "tool_call_id": call["id"], "content": "18C"},
        ]
    elif pid == "anthropic_messages":
        use = next(b for b in turn["content"] if b["type"] == "tool_use")
        req["messages"] = [
            *req["messages"],
            turn,
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": use["id"], "content": "18C"}],
            },
        ]
    elif pid == "openai_responses":
        call = next(i for i in turn if i["type"] == "function_call")
        inp = (
            req["input"]
            if isinstance(req["input"], list)
            else [{"role": "user", "content": req["input"]}]
        )
        req["input"] = [
            *inp,
            *turn,
            {"type": "function_call_output", "call_id": call["call_id"], "output": "18C"},
        ]
    else:
        fc = next(p["functionCall"] for p in turn["parts"] if "functionCall" in p)
        resp = {
            "name": fc["name"],
            "response": {"result": "18C"},
            **({"id": fc["id"]} if "id" in fc else {}),
        }
        req["contents"] = [
            *req["contents"],
            turn,
            {"role": "user", "parts": [{"functionResponse": resp}]},
        ]
    return req
