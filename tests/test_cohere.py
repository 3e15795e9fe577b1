"""Cohere v2 Chat, the fifth protocol: spec/protocols/cohere_v2.yaml plus the cohere_config
transform. Realistic payloads in Cohere's own field names (its OpenAPI schema, chatv2): the tool
loop with tool_plan and results by tool_call_id, thinking, citations, strict_tools, tool_choice,
errors without a type field. The official SDK judges what we emit in tests/test_sdk_judges.py."""

from __future__ import annotations

import interlingua
import orjson
import pytest
from interlingua.generated.canonical import (
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)

K = "cohere_v2"
A = "anthropic_messages"
C = "openai_chat"
R = "openai_responses"
G = "gemini"

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "gets the weather of a given location",
        "parameters": {
            "type": "object",
            "properties": {"location": {"type": "string"}},
            "required": ["location"],
        },
    },
}

REQUEST = {
    "model": "command-a-03-2025",
    "messages": [
        {"role": "system", "content": "You are a weather bot."},
        {"role": "user", "content": "What's the weather in Toronto and Paris?"},
        {
            "role": "assistant",
            "tool_plan": "I will look up the weather in both cities.",
            "tool_calls": [
                {
                    "id": "get_weather_1byjy32y4hvq",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"location":"Toronto"}'},
                },
                {
                    "id": "get_weather_8dxtq9xp2ssy",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"location":"Paris"}'},
                },
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "get_weather_1byjy32y4hvq",
            "content": [{"type": "text", "text": '{"temperature": "20C"}'}],
        },
        {"role": "tool", "tool_call_id": "get_weather_8dxtq9xp2ssy", "content": "24C, clear"},
    ],
    "tools": [TOOL],
    "strict_tools": True,
    "tool_choice": "REQUIRED",
    "max_tokens": 4000,
    "temperature": 0.3,
    "p": 0.75,
    "k": 40,
    "stop_sequences": ["END"],
    "seed": 42,
    "thinking": {"type": "enabled", "token_budget": 2048},
}

RESPONSE = {
    "id": "c14c80c3-18eb-4519-9460-6c92edd8cfb4",
    "finish_reason": "TOOL_CALL",
    "message": {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "Two cities, two calls."}],
        "tool_plan": "I will look up the weather in both cities.",
        "tool_calls": [
            {
                "id": "get_weather_1byjy32y4hvq",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"location":"Toronto"}'},
            },
            {
                "id": "get_weather_8dxtq9xp2ssy",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"location":"Paris"}'},
            },
        ],
    },
    "usage": {
        "billed_units": {"input_tokens": 37, "output_tokens": 46},
        "tokens": {"input_tokens": 1221, "output_tokens": 90},
        "cached_tokens": 1024,
    },
}

ANSWER = {
    "id": "7ed2a4ff-ee5c-4a9c-9d8c-c8b4b0e0a4f1",
    "finish_reason": "COMPLETE",
    "message": {
        "role": "assistant",
        "content": [{"type": "text", "text": "It is 20C in Toronto and 24C in Paris."}],
        "citations": [
            {
                "start": 6,
                "end": 9,
                "text": "20C",
                "sources": [
                    {
                        "type": "tool",
                        "id": "get_weather_1byjy32y4hvq:0",
                        "tool_output": {"temperature": "20C"},
                    }
                ],
                "type": "TEXT_CONTENT",
            }
        ],
    },
    "usage": {
        "billed_units": {"input_tokens": 61, "output_tokens": 14},
        "tokens": {"input_tokens": 1300, "output_tokens": 14},
    },
}


@pytest.mark.parametrize("body", [REQUEST], ids=["tool-loop"])
def test_request_identity(body: dict[str, object]) -> None:
    t = interlingua.translate_request(body, source=K, target=K)
    assert t.body == body and not t.losses


@pytest.mark.parametrize("body", [RESPONSE, ANSWER], ids=["calls", "citations"])
def test_response_identity(body: dict[str, object]) -> None:
    t = interlingua.translate_response(body, source=K, target=K)
    assert t.body == body and not t.losses


def test_request_decodes_to_the_canonical_tool_loop() -> None:
    req = interlingua.decode_request(REQUEST, K)
    assert [m.role for m in req.messages] == ["system", "user", "assistant", "tool", "tool"]
    turn = req.messages[2].parts
    assert type(turn[0]) is TextPart and turn[0].text.startswith("I will look up")
    calls = [p for p in turn if type(p) is ToolCallPart]
    results = [p for m in req.messages for p in m.parts if type(p) is ToolResultPart]
    assert [r.call_id for r in results] == [c.id for c in calls]
    assert (req.top_p, req.top_k, req.stop, req.max_tokens) == (0.75, 40, ["END"], 4000)
    assert req.tool_choice is not None and req.tool_choice.mode == "required"
    assert req.tools[0].strict is True
    assert req.reasoning is not None
    assert (req.reasoning.mode, req.reasoning.budget_tokens) == ("enabled", 2048)
    assert req.seed == 42 and req.ext is None  # a canonical field (row), no extension


def test_request_to_anthropic_and_back() -> None:
    t = interlingua.translate_request(REQUEST, source=K, target=A)
    body = t.body
    assert body["system"] == "You are a weather bot."
    assert body["tool_choice"] == {"type": "any"}
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert body["top_k"] == 40 and body["top_p"] == 0.75 and body["stop_sequences"] == ["END"]
    assert body["tools"][0]["strict"] is True
    turn = body["messages"][1]["content"]
    assert turn[0] == {"type": "text", "text": "I will look up the weather in both cities."}
    assert [b["input"] for b in turn[1:]] == [{"location": "Toronto"}, {"location": "Paris"}]
    assert [loss.path for loss in t.losses] == ["seed"]
    back = interlingua.translate_request(body, source=A, target=K)
    assert back.body["messages"][2] == REQUEST["messages"][2]  # the plan is the plan again
    assert back.body["strict_tools"] is True and back.body["tool_choice"] == "REQUIRED"
    assert back.body["thinking"] == REQUEST["thinking"]


def test_named_tool_choice_becomes_required_and_is_reported() -> None:
    body = {
        "model": "m",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "weather?"}],
        "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
        "tool_choice": {"type": "tool", "name": "get_weather", "disable_parallel_tool_use": True},
    }
    t = interlingua.translate_request(body, source=A, target=K)
    assert t.body["tool_choice"] == "REQUIRED"
    assert "parallel_tool_calls" not in t.body
    assert {(x.path, x.feature) for x in t.losses} == {
        ("tool_choice", "tool_choice"),
        ("parallel_tool_calls", "parallel_tool_calls"),
    }


@pytest.mark.parametrize(("choice", "wire"), [("auto", None), ("none", "NONE")])
def test_auto_is_the_absent_field(choice: str, wire: str | None) -> None:
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [TOOL],
        "tool_choice": choice,
    }
    t = interlingua.translate_request(body, source=C, target=K)
    assert t.body.get("tool_choice") == wire and not t.losses
    back = interlingua.translate_request(t.body, source=K, target=C).body
    assert back.get("tool_choice") == (None if choice == "auto" else choice)


def test_mixed_strict_flags_are_reported() -> None:
    tools = [
        {"type": "function", "function": {"name": "a", "parameters": {}, "strict": True}},
        {"type": "function", "function": {"name": "b", "parameters": {}}},
    ]
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "tools": tools}
    t = interlingua.translate_request(body, source=C, target=K)
    assert t.body["strict_tools"] is False
    assert [(x.path, x.feature) for x in t.losses] == [("strict_tools", "tool_spec")]


@pytest.mark.parametrize(
    ("fmt", "wire"),
    [
        ({"type": "json_object"}, {"type": "json_object"}),
        (
            {"type": "json_schema", "json_schema": {"name": "w", "schema": {"type": "object"}}},
            {"type": "json_object", "json_schema": {"type": "object"}},
        ),
    ],
)
def test_response_format(fmt: dict[str, object], wire: dict[str, object]) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "response_format": fmt}
    t = interlingua.translate_request(body, source=C, target=K)
    assert t.body["response_format"] == wire
    assert [x.path for x in t.losses] == (["response_format.name"] if "json_schema" in fmt else [])
    assert interlingua.translate_request(t.body, source=K, target=K).body == t.body


def test_effort_becomes_a_budget() -> None:
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "reasoning_effort": "low",
    }
    t = interlingua.translate_request(body, source=C, target=K)
    assert t.body["thinking"] == {"type": "enabled", "token_budget": 2048}


def test_response_to_every_protocol_keeps_calls_plan_and_thinking() -> None:
    for target in (A, C, R, G):
        t = interlingua.translate_response(RESPONSE, source=K, target=target)
        resp = interlingua.decode_response(t.body, target)
        calls = [(p.id, p.name) for p in resp.parts if type(p) is ToolCallPart]
        assert [n for _, n in calls] == ["get_weather", "get_weather"], target
        assert resp.finish is not None and resp.finish.unified == "tool_calls", target
        text = "".join(p.text for p in resp.parts if type(p) is TextPart)
        assert text == "I will look up the weather in both cities.", target
        assert resp.usage is not None and resp.usage.input_total == 1221, target
        assert resp.usage.input_cache_read == 1024 or target == A and resp.usage.input_total, target


def test_thinking_reaches_an_anthropic_client() -> None:
    t = interlingua.translate_response(RESPONSE, source=K, target=A)
    assert t.body["content"][0] == {
        "type": "thinking",
        "thinking": "Two cities, two calls.",
        "signature": "",
    }
    assert t.body["stop_reason"] == "tool_use"
    assert t.body["usage"]["cache_read_input_tokens"] == 1024
    assert t.body["usage"]["input_tokens"] == 1221 - 1024


def test_citations_are_reported_as_lost() -> None:
    t = interlingua.translate_response(ANSWER, source=K, target=C)
    assert t.body["choices"][0]["message"]["content"] == "It is 20C in Toronto and 24C in Paris."
    assert [(x.path, x.feature) for x in t.losses] == [("message.citations", "extensions")]


def test_anthropic_response_to_cohere() -> None:
    body = {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "thinking", "thinking": "Paris.", "signature": "EqQBsig=="},
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"c": "P"}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "cache_read_input_tokens": 5, "output_tokens": 3},
    }
    t = interlingua.translate_response(body, source=A, target=K)
    assert t.body == {
        "id": "msg_01",
        "message": {
            "role": "assistant",
            "tool_plan": "Checking.",
            "content": [{"type": "thinking", "thinking": "Paris."}],
            "tool_calls": [
                {
                    "id": "toolu_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"c":"P"}'},
                }
            ],
        },
        "finish_reason": "TOOL_CALL",
        "usage": {"tokens": {"input_tokens": 15, "output_tokens": 3}, "cached_tokens": 5},
    }
    assert {x.feature for x in t.losses} == {"reasoning_replay"}


@pytest.mark.parametrize(
    ("status", "kind", "anthropic_type"),
    [
        (400, "invalid_request", "invalid_request_error"),
        (401, "authentication", "authentication_error"),
        (404, "not_found", "not_found_error"),
        (422, "invalid_request", "invalid_request_error"),
        (429, "rate_limit", "rate_limit_error"),
        (500, "api_error", "api_error"),
        (503, "overloaded", "overloaded_error"),
    ],
)
def test_errors_take_their_type_from_the_status(
    status: int, kind: str, anthropic_type: str
) -> None:
    body = {"id": "e0b2d1c8-5a6c-4f0a-9d5b-0c7c1a1e2f3a", "message": "invalid request: x"}
    assert interlingua.decode_error(status, body, K).type == kind
    st, out = interlingua.translate_error(status, body, source=K, target=A)
    assert out["error"] == {"type": anthropic_type, "message": "invalid request: x"}
    assert interlingua.translate_error(status, body, source=K, target=K)[1] == {
        "message": "invalid request: x"
    }


def test_foreign_errors_become_a_message_and_a_status() -> None:
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    assert interlingua.translate_error(529, body, source=A, target=K) == (
        503,
        {"message": "Overloaded"},
    )


def test_thinking_text_round_trips_through_chat_dialect_field() -> None:
    t = interlingua.translate_response(RESPONSE, source=K, target=C)
    msg = t.body["choices"][0]["message"]
    assert msg["reasoning_content"] == "Two cities, two calls."
    back = interlingua.decode_response(
        interlingua.translate_response(t.body, source=C, target=K).body, K
    )
    assert [p.text for p in back.parts if type(p) is ReasoningPart] == ["Two cities, two calls."]
    assert orjson.dumps(back.parts[0].text)
