"""Requests between Chat Completions and Anthropic Messages: the seed-004 tool loops both ways,
round trips, and every request option the two protocols share (or report as lost)."""

from __future__ import annotations

import copy
import json
from typing import Any

import interlingua
import pytest

from tests.conftest import FIXTURES, losses_by_feature
from tests.seed_payloads import ToolLoop, tool_loop

A = "anthropic_messages"
C = "openai_chat"


def req(body: dict[str, Any], source: str, target: str, **kw: Any) -> interlingua.Translation:
    return interlingua.translate_request(body, source=source, target=target, **kw)


def resp(body: dict[str, Any], source: str, target: str, **kw: Any) -> interlingua.Translation:
    return interlingua.translate_response(body, source=source, target=target, **kw)


@pytest.fixture(scope="module")
def chat_loop() -> ToolLoop:
    return tool_loop(C)


@pytest.fixture(scope="module")
def anthropic_loop() -> ToolLoop:
    return tool_loop(A)


# ---------------------------------------------------------------- seed 004, Chat -> Anthropic


def test_chat_first_request_to_anthropic(chat_loop: ToolLoop) -> None:
    src = chat_loop.first_request
    t = req(src, C, A)
    out = t.body
    assert out["system"] == src["messages"][0]["content"]
    assert out["messages"] == [{"role": "user", "content": src["messages"][1]["content"]}]
    fn = src["tools"][0]["function"]
    assert out["tools"] == [
        {
            "name": fn["name"],
            "description": fn["description"],
            "input_schema": fn["parameters"],
            "strict": True,
        }
    ]
    # tool_choice "required" + parallel_tool_calls false -> any + disable_parallel_tool_use
    assert out["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}
    # Chat sent no output limit: Anthropic needs one, the default is reported
    assert out["max_tokens"] == 4096
    assert losses_by_feature(t.losses) == {"max_tokens": ["max_tokens"]}


def test_chat_tool_call_response_to_anthropic(chat_loop: ToolLoop) -> None:
    src = chat_loop.tool_call_response
    out = resp(src, C, A).body
    call = src["choices"][0]["message"]["tool_calls"][0]
    assert out["content"] == [
        {
            "type": "tool_use",
            "id": call["id"],
            "name": call["function"]["name"],
            "input": json.loads(call["function"]["arguments"]),
        }
    ]
    assert out["stop_reason"] == "tool_use"


def test_chat_second_request_to_anthropic(chat_loop: ToolLoop) -> None:
    src = chat_loop.second_request
    t = req(src, C, A)
    msgs = t.body["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "user"]
    call = src["messages"][2]["tool_calls"][0]
    (tool_use,) = msgs[1]["content"]
    assert tool_use["type"] == "tool_use"
    assert tool_use["id"] == call["id"] == "call_plan_001"
    assert tool_use["input"] == json.loads(call["function"]["arguments"])
    (result,) = msgs[2]["content"]
    assert result == {
        "type": "tool_result",
        "tool_use_id": src["messages"][3]["tool_call_id"],
        "content": src["messages"][3]["content"],
    }
    assert json.loads(result["content"])["data"]["overage_allowed"] is True
    assert "tool_choice" not in t.body


def test_chat_final_response_to_anthropic(chat_loop: ToolLoop) -> None:
    src = chat_loop.final_response
    out = resp(src, C, A).body
    assert out["content"] == [{"type": "text", "text": src["choices"][0]["message"]["content"]}]
    assert out["stop_reason"] == "end_turn"


# ---------------------------------------------------------------- seed 004, Anthropic -> Chat


def test_anthropic_first_request_to_chat(anthropic_loop: ToolLoop) -> None:
    src = anthropic_loop.first_request
    t = req(src, A, C)
    out = t.body
    assert out["messages"] == [
        {"role": "system", "content": src["system"]},
        {"role": "user", "content": src["messages"][0]["content"]},
    ]
    assert out["max_completion_tokens"] == 512
    tool = src["tools"][0]
    assert out["tools"] == [
        {
            "type": "function",
            "function": {
                "name": tool["name"],
                "description": tool["description"],
                "parameters": tool["input_schema"],
                "strict": True,
            },
        }
    ]
    assert out["tool_choice"] == {"type": "function", "function": {"name": "get_plan_info"}}
    assert t.losses == []


def test_anthropic_tool_call_response_to_chat(anthropic_loop: ToolLoop) -> None:
    src = anthropic_loop.tool_call_response
    out = resp(src, A, C).body
    assert out["id"] == "msg_plan_001"
    choice = out["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    (call,) = choice["message"]["tool_calls"]
    assert call["id"] == "toolu_plan_001"
    assert call["type"] == "function"
    assert call["function"]["name"] == "get_plan_info"
    assert json.loads(call["function"]["arguments"]) == src["content"][0]["input"]
    assert choice["message"]["content"] is None


def test_anthropic_second_request_to_chat(anthropic_loop: ToolLoop) -> None:
    src = anthropic_loop.second_request
    t = req(src, A, C)
    msgs = t.body["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "tool"]
    (call,) = msgs[2]["tool_calls"]
    use = src["messages"][1]["content"][0]
    assert call["id"] == use["id"] == msgs[3]["tool_call_id"]
    assert json.loads(call["function"]["arguments"]) == use["input"]
    assert msgs[3]["content"] == src["messages"][2]["content"][0]["content"]
    assert t.losses == []


def test_anthropic_final_response_to_chat(anthropic_loop: ToolLoop) -> None:
    src = anthropic_loop.final_response
    out = resp(src, A, C).body
    assert out["id"] == "msg_plan_002"
    assert out["choices"][0]["message"]["content"] == src["content"][0]["text"]
    assert out["choices"][0]["finish_reason"] == "stop"


# ---------------------------------------------------------------- round trips


def test_chat_to_anthropic_to_chat_keeps_the_loop(chat_loop: ToolLoop) -> None:
    for body in (chat_loop.first_request, chat_loop.second_request):
        there = req(body, C, A).body
        back = req(there, A, C).body
        # max_completion_tokens is the default Anthropic needed (reported on the way there)
        assert back.pop("max_completion_tokens") == 4096
        assert back == body


def test_anthropic_to_chat_to_anthropic_keeps_the_loop(anthropic_loop: ToolLoop) -> None:
    for body in (anthropic_loop.first_request, anthropic_loop.second_request):
        back = req(req(body, A, C).body, C, A)
        assert back.body == body
        assert back.losses == []


def test_responses_round_trip_keep_ids_and_arguments(
    chat_loop: ToolLoop, anthropic_loop: ToolLoop
) -> None:
    back = resp(resp(anthropic_loop.tool_call_response, A, C).body, C, A).body
    src = anthropic_loop.tool_call_response
    assert back["id"] == src["id"]
    assert back["content"] == src["content"]
    assert back["stop_reason"] == src["stop_reason"]
    back = resp(resp(chat_loop.tool_call_response, C, A).body, A, C).body
    want = chat_loop.tool_call_response["choices"][0]
    got = back["choices"][0]
    assert got["message"]["tool_calls"] == want["message"]["tool_calls"]
    assert got["finish_reason"] == want["finish_reason"]


# ---------------------------------------------------------------- parallel tool calls

PARALLEL_CHAT = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "What is the weather in Paris and in Tokyo?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_paris",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                },
                {
                    "id": "call_tokyo",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Tokyo"}'},
                },
            ],
        },
        # results arrive in the other order: correlated by id, never by position
        {"role": "tool", "tool_call_id": "call_tokyo", "content": "Rain, 18 C"},
        {"role": "tool", "tool_call_id": "call_paris", "content": "Sunny, 24 C"},
        {"role": "user", "content": "Answer in French."},
    ],
    "parallel_tool_calls": True,
}


def test_parallel_calls_chat_to_anthropic() -> None:
    msgs = req(PARALLEL_CHAT, C, A).body["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "user"]
    uses = msgs[1]["content"]
    assert [(u["id"], u["input"]) for u in uses] == [
        ("call_paris", {"city": "Paris"}),
        ("call_tokyo", {"city": "Tokyo"}),
    ]
    turn = msgs[2]["content"]
    # both results in the one user turn that follows, before any text
    assert [b["type"] for b in turn] == ["tool_result", "tool_result", "text"]
    results = {b["tool_use_id"]: b["content"] for b in turn[:2]}
    assert results == {"call_tokyo": "Rain, 18 C", "call_paris": "Sunny, 24 C"}
    assert turn[2]["text"] == "Answer in French."


def test_parallel_calls_anthropic_to_chat_and_back() -> None:
    anthropic = req(PARALLEL_CHAT, C, A).body
    chat = req(anthropic, A, C).body
    assert [m["role"] for m in chat["messages"]] == ["user", "assistant", "tool", "tool", "user"]
    assert [m["tool_call_id"] for m in chat["messages"][2:4]] == ["call_tokyo", "call_paris"]
    calls = chat["messages"][1]["tool_calls"]
    want = PARALLEL_CHAT["messages"][1]["tool_calls"]
    assert [(c["id"], c["function"]["name"]) for c in calls] == [
        (c["id"], c["function"]["name"]) for c in want
    ]
    assert [json.loads(c["function"]["arguments"]) for c in calls] == [
        json.loads(c["function"]["arguments"]) for c in want
    ]
    assert req(chat, C, A).body == anthropic


def test_anthropic_text_before_results_is_moved_after_them_when_going_back() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Checking."},
                    {"type": "tool_use", "id": "toolu_1", "name": "w", "input": {"c": "P"}},
                    {"type": "tool_use", "id": "toolu_2", "name": "w", "input": {"c": "T"}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_2", "content": "rain"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": "sun",
                        "is_error": True,
                    },
                    {"type": "text", "text": "thanks"},
                ],
            },
        ],
    }
    t = req(body, A, C)
    msgs = t.body["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "tool", "tool", "user"]
    assert msgs[1]["content"] == "Checking."
    assert [c["id"] for c in msgs[1]["tool_calls"]] == ["toolu_1", "toolu_2"]
    assert [(m["tool_call_id"], m["content"]) for m in msgs[2:4]] == [
        ("toolu_2", "rain"),
        ("toolu_1", "sun"),
    ]
    # Chat tool messages have no is_error: reported
    assert losses_by_feature(t.losses) == {"tool_result_error": ["messages[3].is_error"]}
    back = req(t.body, C, A).body
    del body["messages"][2]["content"][1]["is_error"]
    assert back == body


# ---------------------------------------------------------------- system / developer position


def test_system_and_developer_in_the_middle_keep_their_position() -> None:
    body = {
        "model": "gpt-4.1",
        "messages": [
            {"role": "system", "content": "You are a terse code reviewer."},
            {"role": "user", "content": "Is `except: pass` ever fine?"},
            {"role": "assistant", "content": "Rarely."},
            {"role": "developer", "content": "From now on answer in French."},
            {"role": "user", "content": "And `except Exception`?"},
        ],
    }
    out = req(body, C, A).body
    assert out["system"] == "You are a terse code reviewer."
    assert out["messages"] == [
        {"role": "user", "content": "Is `except: pass` ever fine?"},
        {"role": "assistant", "content": "Rarely."},
        {"role": "system", "content": "From now on answer in French."},
        {"role": "user", "content": "And `except Exception`?"},
    ]
    back = req(out, A, C).body
    assert [m["role"] for m in back["messages"]] == [
        "system",
        "user",
        "assistant",
        "system",
        "user",
    ]
    assert [m["content"] for m in back["messages"]] == [m["content"] for m in body["messages"]]


def test_two_leading_system_messages_become_system_blocks() -> None:
    body = {
        "model": "gpt-4.1",
        "messages": [
            {"role": "system", "content": "Rule one."},
            {"role": "developer", "content": "Rule two."},
            {"role": "user", "content": "hi"},
        ],
    }
    out = req(body, C, A).body
    assert out["system"] == [
        {"type": "text", "text": "Rule one."},
        {"type": "text", "text": "Rule two."},
    ]


# ---------------------------------------------------------------- images

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def test_images_chat_to_anthropic_and_back() -> None:
    body = {
        "model": "gpt-4o",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Compare these."},
                    {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
                    {
                        "type": "image_url",
                        "image_url": {"url": "https://example.com/cat.jpg", "detail": "high"},
                    },
                ],
            }
        ],
        "max_completion_tokens": 300,
    }
    t = req(body, C, A)
    assert t.body["messages"][0]["content"][1:] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.jpg"}},
    ]
    assert losses_by_feature(t.losses) == {"image": ["messages[0].content[2].detail"]}
    back = req(t.body, A, C).body
    del body["messages"][0]["content"][2]["image_url"]["detail"]
    assert back == body


def test_images_anthropic_to_chat() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 300,
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": "image/jpeg", "data": PNG},
                    },
                    {
                        "type": "image",
                        "source": {"type": "url", "url": "https://example.com/a.png"},
                    },
                    {"type": "text", "text": "What is this?"},
                ],
            }
        ],
    }
    t = req(body, A, C)
    assert t.body["messages"][0]["content"] == [
        {"type": "image_url", "image_url": {"url": f"data:image/jpeg;base64,{PNG}"}},
        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
        {"type": "text", "text": "What is this?"},
    ]
    assert t.losses == []
    assert req(t.body, C, A).body == body


# ---------------------------------------------------------------- tool_choice and parallel calls

TOOLS_CHAT = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]


@pytest.mark.parametrize(
    ("chat", "anthropic"),
    [
        ("auto", {"type": "auto"}),
        ("none", {"type": "none"}),
        ("required", {"type": "any"}),
        (
            {"type": "function", "function": {"name": "get_weather"}},
            {"type": "tool", "name": "get_weather"},
        ),
    ],
)
def test_tool_choice_both_ways(chat: Any, anthropic: dict[str, Any]) -> None:
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "weather?"}],
        "tools": TOOLS_CHAT,
        "tool_choice": chat,
    }
    out = req(body, C, A).body
    assert out["tool_choice"] == anthropic
    assert req(out, A, C).body["tool_choice"] == chat


@pytest.mark.parametrize("parallel", [True, False])
def test_parallel_tool_calls_is_disable_parallel_tool_use(parallel: bool) -> None:
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "weather?"}],
        "tools": TOOLS_CHAT,
        "tool_choice": "auto",
        "parallel_tool_calls": parallel,
    }
    out = req(body, C, A).body
    assert out["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": not parallel}
    back = req(out, A, C).body
    assert back["parallel_tool_calls"] is parallel
    assert back["tool_choice"] == "auto"


def test_parallel_false_without_tool_choice_still_reaches_anthropic() -> None:
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "weather?"}],
        "tools": TOOLS_CHAT,
        "parallel_tool_calls": False,
    }
    assert req(body, C, A).body["tool_choice"] == {
        "type": "auto",
        "disable_parallel_tool_use": True,
    }


# ---------------------------------------------------------------- generation options


def test_sampling_stop_and_user_both_ways() -> None:
    chat = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Count to ten."}],
        "max_tokens": 256,  # the legacy name is accepted too
        "temperature": 0.2,
        "top_p": 0.9,
        "stop": ["7", "eight"],
        "user": "user-42",
    }
    t = req(chat, C, A)
    assert t.losses == []
    out = t.body
    assert out["max_tokens"] == 256
    assert (out["temperature"], out["top_p"]) == (0.2, 0.9)
    assert out["stop_sequences"] == ["7", "eight"]
    assert out["metadata"] == {"user_id": "user-42"}
    back = req(out, A, C).body
    assert back["max_completion_tokens"] == 256
    assert back["stop"] == ["7", "eight"]
    assert back["user"] == "user-42"
    # the same protocol keeps the legacy spelling
    assert req(chat, C, C).body == chat


def test_single_stop_string_reaches_anthropic_as_a_list() -> None:
    chat = {"model": "gpt-4o", "messages": [{"role": "user", "content": "x"}], "stop": "END"}
    assert req(chat, C, A).body["stop_sequences"] == ["END"]


def test_top_k_is_reported_toward_chat() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "top_k": 40,
        "temperature": 0.5,
        "messages": [{"role": "user", "content": "hi"}],
    }
    t = req(body, A, C)
    assert "top_k" not in t.body
    assert t.body["temperature"] == 0.5
    assert losses_by_feature(t.losses) == {"top_k": ["top_k"]}


def test_max_tokens_default_only_when_chat_has_none() -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    t = req(body, C, A)
    assert t.body["max_tokens"] == 4096
    (loss,) = t.losses
    assert loss.path == "max_tokens" and "default" in loss.what
    t = req({**body, "max_completion_tokens": 77}, C, A)
    assert t.body["max_tokens"] == 77 and t.losses == []


# ---------------------------------------------------------------- reasoning configuration


def test_thinking_budget_becomes_an_effort_with_a_loss() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 16000,
        "thinking": {"type": "enabled", "budget_tokens": 8000},
        "messages": [{"role": "user", "content": "Prove it."}],
    }
    t = req(body, A, C)
    assert t.body["reasoning_effort"] == "medium"
    assert losses_by_feature(t.losses) == {"reasoning_config": ["reasoning.budget_tokens"]}


def test_adaptive_thinking_with_effort_is_reasoning_effort() -> None:
    body = {
        "model": "claude-opus-4-6",
        "max_tokens": 32000,
        "thinking": {"type": "adaptive"},
        "output_config": {"effort": "high"},
        "messages": [{"role": "user", "content": "Prove it."}],
    }
    t = req(body, A, C)
    assert t.body["reasoning_effort"] == "high"
    assert t.losses == []


def test_output_config_effort_alone_is_reasoning_effort() -> None:
    body = {
        "model": "claude-opus-4-6",
        "max_tokens": 32000,
        "output_config": {"effort": "low"},
        "messages": [{"role": "user", "content": "Prove it."}],
    }
    assert req(body, A, C).body["reasoning_effort"] == "low"
    assert req(body, A, A).body == body


def test_reasoning_effort_becomes_a_thinking_budget() -> None:
    body = {
        "model": "o3",
        "reasoning_effort": "low",
        "max_completion_tokens": 8000,
        "messages": [{"role": "user", "content": "Prove it."}],
    }
    t = req(body, C, A)
    assert t.body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert t.losses == []
    assert req(t.body, A, C).body["reasoning_effort"] == "low"


def test_unknown_thinking_fields_are_reported_not_dropped() -> None:
    body = {
        "model": "claude-opus-4-7",
        "max_tokens": 32000,
        "thinking": {"type": "adaptive", "display": "summarized"},
        "output_config": {"effort": "max"},
        "messages": [{"role": "user", "content": "Prove it."}],
    }
    t = req(body, A, C)
    assert t.body["reasoning_effort"] == "high"
    assert sorted(losses_by_feature(t.losses)["reasoning_config"]) == [
        "reasoning.effort",
        "thinking.display",
    ]
    assert req(body, A, A).body == body


# ---------------------------------------------------------------- structured output

SCHEMA = {
    "type": "object",
    "properties": {"title": {"type": "string"}},
    "required": ["title"],
    "additionalProperties": False,
}


def test_response_format_becomes_output_config_format() -> None:
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Title this."}],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "title", "schema": SCHEMA, "strict": True},
        },
    }
    t = req(body, C, A)
    assert t.body["output_config"] == {"format": {"type": "json_schema", "schema": SCHEMA}}
    assert [loss.path for loss in t.losses] == ["max_tokens", "response_format.name"]


def test_output_config_format_becomes_response_format() -> None:
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 200,
        "messages": [{"role": "user", "content": "Title this."}],
        "output_config": {"format": {"type": "json_schema", "schema": SCHEMA}},
    }
    t = req(body, A, C)
    assert t.body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "response", "schema": SCHEMA},
    }
    assert t.losses == []
    assert req(t.body, C, A).body["output_config"] == body["output_config"]


def test_json_object_mode_is_reported_toward_anthropic() -> None:
    body = {
        "model": "gpt-4o",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "JSON please"}],
        "response_format": {"type": "json_object"},
    }
    t = req(body, C, A)
    assert "output_config" not in t.body
    assert losses_by_feature(t.losses) == {"structured_output": ["response_format"]}


# ---------------------------------------------------------------- caching, bad arguments, strict


def test_cache_control_is_reported_toward_chat() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "system": [{"type": "text", "text": "Long rules.", "cache_control": {"type": "ephemeral"}}],
        "tools": [
            {
                "name": "f",
                "input_schema": {"type": "object"},
                "cache_control": {"type": "ephemeral", "ttl": "1h"},
            }
        ],
        "messages": [
            {
                "role": "user",
                "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}],
            }
        ],
    }
    t = req(body, A, C)
    assert t.body["messages"] == [
        {"role": "system", "content": "Long rules."},
        {"role": "user", "content": "hi"},
    ]
    assert "cache_control" not in json.dumps(t.body)
    assert sorted(losses_by_feature(t.losses)["caching"]) == [
        "messages[0].content[0].cache",
        "messages[1].content[0].cache",
        "tools[0].cache",
    ]


def test_invalid_json_arguments_are_a_loss_not_a_crash() -> None:
    body = copy.deepcopy(PARALLEL_CHAT)
    body["messages"][1]["tool_calls"][1]["function"]["arguments"] = '{"city": "Tok'
    t = req(body, C, A)
    uses = t.body["messages"][1]["content"]
    assert uses[0]["input"] == {"city": "Paris"}
    assert uses[1] == {"type": "tool_use", "id": "call_tokyo", "name": "get_weather", "input": {}}
    (loss,) = [loss for loss in t.losses if loss.feature == "tool_call"]
    assert loss.path == "messages[1].content[1].arguments"
    assert "not valid JSON" in loss.what


def test_non_object_json_arguments_are_a_loss() -> None:
    body = copy.deepcopy(PARALLEL_CHAT)
    body["messages"][1]["tool_calls"][0]["function"]["arguments"] = "[1, 2]"
    t = req(body, C, A)
    assert t.body["messages"][1]["content"][0]["input"] == {}
    assert any("not an object" in loss.what for loss in t.losses)


def test_strict_raises_naming_every_lossy_path() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "top_k": 5,
        "system": [{"type": "text", "text": "rules", "cache_control": {"type": "ephemeral"}}],
        "thinking": {"type": "enabled", "budget_tokens": 4000},
        "messages": [{"role": "user", "content": "hi"}],
    }
    with pytest.raises(interlingua.LossError) as info:
        req(body, A, C, strict=True)
    paths = {loss.path for loss in info.value.losses}
    assert paths == {"top_k", "messages[0].content[0].cache", "reasoning.budget_tokens"}
    for p in paths:
        assert p in str(info.value)
    # the same request without the lossy fields passes in strict mode
    clean = {k: v for k, v in body.items() if k not in ("top_k", "thinking")}
    clean["system"] = "rules"
    assert req(clean, A, C, strict=True).losses == []


def test_strict_chat_to_anthropic_names_the_max_tokens_default(chat_loop: ToolLoop) -> None:
    with pytest.raises(interlingua.LossError) as info:
        req(chat_loop.first_request, C, A, strict=True)
    assert [loss.path for loss in info.value.losses] == ["max_tokens"]


# ---------------------------------------------------------------- Claude Code captures


def _claude_code_captures() -> list[Any]:
    root = FIXTURES / "clients" / "claude-code"
    if not root.is_dir():
        return [pytest.param(None, id="fixtures-absent")]
    return [pytest.param(f, id=f"{f.parent.name}/{f.name}") for f in sorted(root.rglob("*.json"))]


def _tool_blocks(body: dict[str, Any]) -> list[tuple[str, Any]]:
    out = []
    for m in body["messages"]:
        for b in m["content"] if type(m["content"]) is list else []:
            if b["type"] == "tool_use":
                out.append(("use", b["id"], b["name"], b["input"]))
            elif b["type"] == "tool_result":
                out.append(("result", b["tool_use_id"]))
    return out


@pytest.mark.parametrize("path", _claude_code_captures())
def test_claude_code_requests_through_chat_keep_their_tool_loop(path: Any) -> None:
    if path is None:
        pytest.skip("../shared/fixtures is absent")
    body = json.loads(path.read_text())["body"]
    chat = req(body, A, C)
    # what Chat cannot carry from a Claude Code request: cache breakpoints, thinking
    # signatures, the budget (as an effort), Claude Code's own metadata / context fields
    assert set(losses_by_feature(chat.losses)) <= {
        "caching",
        "reasoning_replay",
        "reasoning_config",
        "extensions",
    }
    calls = [c for m in chat.body["messages"] for c in m.get("tool_calls", ())]
    results = [m["tool_call_id"] for m in chat.body["messages"] if m["role"] == "tool"]
    assert results == [c["id"] for c in calls]
    back = req(chat.body, C, A)
    assert _tool_blocks(back.body) == _tool_blocks(body)
    assert [m["role"] for m in back.body["messages"]] == [m["role"] for m in body["messages"]]


GEMINI_OPTIONS = "recorded/gemini/tmc-langchaingo-cassettes/TestGoogleAIWithOptions/00.request.json"


@pytest.mark.parametrize(
    ("protocol", "path"),
    [
        (C, ("stop",)),
        (A, ("stop_sequences",)),
        ("gemini", ("generationConfig", "stopSequences")),  # a nested path
    ],
)
def test_a_single_stop_string_stays_one_string_to_its_own_protocol(
    protocol: str, path: tuple[str, ...]
) -> None:
    """A stop sequence sent as one string, where a list is the wire's form: the same protocol
    gets it back as it came (identity), at the top level as in a nested object."""
    if protocol == "gemini":
        if not (FIXTURES / GEMINI_OPTIONS).is_file():
            pytest.skip("../shared/fixtures is absent")
        body = json.loads((FIXTURES / GEMINI_OPTIONS).read_text(encoding="utf-8"))
    else:
        body = copy.deepcopy(tool_loop(protocol).first_request)
    body.pop("stream", None)
    parent = body
    for key in path[:-1]:
        parent = parent.setdefault(key, {})
    parent[path[-1]] = "END"
    t = req(body, protocol, protocol)
    assert t.body == body
    assert t.losses == []
