"""Responses between Chat Completions and Anthropic Messages: finish reasons, usage arithmetic,
reasoning text, ids."""

from __future__ import annotations

import copy
from typing import Any

import interlingua
import pytest

from tests.conftest import losses_by_feature

A = "anthropic_messages"
C = "openai_chat"

ANTHROPIC = {
    "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5-20250929",
    "content": [{"type": "text", "text": "Paris is the capital of France."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 12,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "output_tokens": 9,
    },
}

CHAT = {
    "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    "object": "chat.completion",
    "created": 1741570283,
    "model": "gpt-4o-2024-08-06",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": "Paris is the capital of France.",
                "refusal": None,
                "annotations": [],
            },
            "logprobs": None,
            "finish_reason": "stop",
        }
    ],
    "usage": {
        "prompt_tokens": 1117,
        "completion_tokens": 46,
        "total_tokens": 1163,
        "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
    },
    "service_tier": "default",
    "system_fingerprint": "fp_fc9f1d7035",
}


def resp(body: dict[str, Any], source: str, target: str, **kw: Any) -> interlingua.Translation:
    return interlingua.translate_response(body, source=source, target=target, **kw)


def with_stop(stop_reason: str, stop_sequence: str | None = None) -> dict[str, Any]:
    body = copy.deepcopy(ANTHROPIC)
    body["stop_reason"] = stop_reason
    body["stop_sequence"] = stop_sequence
    return body


def with_finish(finish: str) -> dict[str, Any]:
    body = copy.deepcopy(CHAT)
    body["choices"][0]["finish_reason"] = finish
    return body


# ---------------------------------------------------------------- finish reasons


@pytest.mark.parametrize(
    ("stop_reason", "finish", "lossy"),
    [
        ("end_turn", "stop", False),
        ("max_tokens", "length", False),
        ("stop_sequence", "stop", True),
        ("tool_use", "tool_calls", False),
        ("refusal", "content_filter", True),
        ("pause_turn", "stop", True),
    ],
)
def test_anthropic_stop_reason_to_chat(stop_reason: str, finish: str, lossy: bool) -> None:
    t = resp(with_stop(stop_reason), A, C)
    assert t.body["choices"][0]["finish_reason"] == finish
    lost = losses_by_feature(t.losses).get("finish_reason", [])
    assert lost == (["choices[0].finish_reason"] if lossy else [])


@pytest.mark.parametrize(
    ("finish", "stop_reason", "lossy"),
    [
        ("stop", "end_turn", False),
        ("length", "max_tokens", False),
        ("tool_calls", "tool_use", False),
        ("content_filter", "refusal", True),
    ],
)
def test_chat_finish_reason_to_anthropic(finish: str, stop_reason: str, lossy: bool) -> None:
    t = resp(with_finish(finish), C, A)
    assert t.body["stop_reason"] == stop_reason
    assert ("finish_reason" in losses_by_feature(t.losses)) is lossy


def test_stop_sequence_that_matched_is_reported_toward_chat() -> None:
    t = resp(with_stop("stop_sequence", "###"), A, C)
    assert t.body["choices"][0]["finish_reason"] == "stop"
    assert sorted(loss.path for loss in t.losses) == ["choices[0].finish_reason", "stop_sequence"]


def test_same_protocol_keeps_the_raw_finish_reason() -> None:
    body = with_stop("model_context_window_exceeded")
    assert resp(body, A, A).body == body
    chat = with_finish("function_call")
    assert resp(chat, C, C).body == chat
    # across protocols the unified reason travels
    assert resp(body, A, C).body["choices"][0]["finish_reason"] == "length"
    assert resp(chat, C, A).body["stop_reason"] == "tool_use"


# ---------------------------------------------------------------- usage arithmetic


def test_anthropic_usage_to_chat_adds_cache_to_prompt_tokens() -> None:
    body = copy.deepcopy(ANTHROPIC)
    body["usage"] = {
        "input_tokens": 50,
        "cache_creation_input_tokens": 200,
        "cache_read_input_tokens": 3000,
        "output_tokens": 75,
    }
    t = resp(body, A, C)
    u = t.body["usage"]
    assert u["prompt_tokens"] == 50 + 200 + 3000
    assert u["prompt_tokens_details"]["cached_tokens"] == 3000
    assert u["completion_tokens"] == 75
    assert u["total_tokens"] == 3250 + 75
    # Chat has no cache-write count: its 200 tokens stay in prompt_tokens, the split is reported
    assert losses_by_feature(t.losses) == {"usage": ["usage.input_cache_write"]}


def test_chat_usage_to_anthropic_subtracts_cached_tokens() -> None:
    t = resp(CHAT, C, A)
    assert t.body["usage"] == {
        "input_tokens": 1117 - 1024,
        "cache_read_input_tokens": 1024,
        "cache_creation_input_tokens": 0,
        "output_tokens": 46,
    }


def test_reasoning_tokens_are_reported_toward_anthropic() -> None:
    body = copy.deepcopy(CHAT)
    body["usage"]["completion_tokens_details"]["reasoning_tokens"] = 30
    t = resp(body, C, A)
    assert t.body["usage"]["output_tokens"] == 46  # reasoning is part of the output count
    assert losses_by_feature(t.losses)["usage"] == ["usage.output_reasoning"]


def test_usage_round_trip_is_exact() -> None:
    body = copy.deepcopy(ANTHROPIC)
    body["usage"] = {
        "input_tokens": 7,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 4096,
        "output_tokens": 512,
    }
    back = resp(resp(body, A, C).body, C, A).body
    assert back["usage"] == body["usage"]


def test_canonical_usage_totals() -> None:
    ctx = interlingua.Ctx(A, C)
    body = copy.deepcopy(ANTHROPIC)
    body["usage"] = {
        "input_tokens": 3,
        "cache_creation_input_tokens": 10,
        "cache_read_input_tokens": 100,
        "output_tokens": 5,
    }
    u = interlingua.decode_response(body, A, ctx).usage
    assert u is not None
    assert (u.input_total, u.input_cache_read, u.input_cache_write, u.output_total) == (
        113,
        100,
        10,
        5,
    )
    u = interlingua.decode_response(CHAT, C, interlingua.Ctx(C, A)).usage
    assert u is not None
    assert (u.input_total, u.input_cache_read, u.output_total) == (1117, 1024, 46)


# ---------------------------------------------------------------- reasoning text


def chat_with_reasoning(field: str) -> dict[str, Any]:
    body = copy.deepcopy(CHAT)
    body["model"] = "deepseek-reasoner"
    msg = body["choices"][0]["message"]
    msg[field] = "The user asks for a capital. France -> Paris."
    return body


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_chat_reasoning_dialects_become_a_thinking_block(field: str) -> None:
    t = resp(chat_with_reasoning(field), C, A)
    assert t.body["content"] == [
        {
            "type": "thinking",
            "thinking": "The user asks for a capital. France -> Paris.",
            "signature": "",
        },
        {"type": "text", "text": "Paris is the capital of France."},
    ]
    assert "reasoning_replay" not in losses_by_feature(t.losses)


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_chat_reasoning_dialect_field_is_kept_between_chat_endpoints(field: str) -> None:
    body = chat_with_reasoning(field)
    assert resp(body, C, C).body == body


def test_thinking_block_becomes_reasoning_content_and_the_signature_is_reported() -> None:
    body = copy.deepcopy(ANTHROPIC)
    body["content"] = [
        {
            "type": "thinking",
            "thinking": "France's capital is Paris.",
            "signature": "EqQBCkgIARABGAIiQL6hbXoRLy3eo6kqXr0G",
        },
        {"type": "text", "text": "Paris."},
    ]
    t = resp(body, A, C)
    msg = t.body["choices"][0]["message"]
    assert msg["reasoning_content"] == "France's capital is Paris."
    assert msg["content"] == "Paris."
    assert losses_by_feature(t.losses) == {"reasoning_replay": ["parts[0]"]}  # canonical part
    # back to Anthropic: the text is shown, the signature is gone (never invented)
    back = resp(t.body, C, A).body
    assert back["content"][0] == {
        "type": "thinking",
        "thinking": "France's capital is Paris.",
        "signature": "",
    }


def test_redacted_thinking_is_reported_toward_chat() -> None:
    body = copy.deepcopy(ANTHROPIC)
    body["content"] = [
        {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT"},
        {"type": "text", "text": "Paris."},
    ]
    t = resp(body, A, C)
    msg = t.body["choices"][0]["message"]
    assert "reasoning_content" not in msg
    assert msg["content"] == "Paris."
    assert losses_by_feature(t.losses) == {"reasoning_replay": ["parts[0]"]}  # canonical part


# ---------------------------------------------------------------- ids, tool calls, refusals


def test_ids_and_model_are_kept_both_ways() -> None:
    out = resp(ANTHROPIC, A, C).body
    assert (out["id"], out["model"], out["object"]) == (
        ANTHROPIC["id"],
        ANTHROPIC["model"],
        "chat.completion",
    )
    out = resp(CHAT, C, A).body
    assert (out["id"], out["model"], out["type"], out["role"]) == (
        CHAT["id"],
        CHAT["model"],
        "message",
        "assistant",
    )


def test_chat_only_fields_are_reported_toward_anthropic() -> None:
    t = resp(CHAT, C, A)
    assert sorted(losses_by_feature(t.losses)["extensions"]) == [
        "service_tier",
        "system_fingerprint",
    ]


def test_tool_use_response_with_text_to_chat() -> None:
    body = copy.deepcopy(ANTHROPIC)
    body["stop_reason"] = "tool_use"
    body["content"] = [
        {"type": "text", "text": "I'll check both cities."},
        {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Paris"}},
        {"type": "tool_use", "id": "toolu_01B", "name": "get_weather", "input": {"city": "Tokyo"}},
    ]
    t = resp(body, A, C)
    msg = t.body["choices"][0]["message"]
    assert msg["content"] == "I'll check both cities."
    assert [(c["id"], c["function"]["arguments"]) for c in msg["tool_calls"]] == [
        ("toolu_01A", '{"city":"Paris"}'),
        ("toolu_01B", '{"city":"Tokyo"}'),
    ]
    assert t.body["choices"][0]["finish_reason"] == "tool_calls"
    assert resp(t.body, C, A).body["content"] == body["content"]


def test_chat_refusal_becomes_text_toward_anthropic() -> None:
    body = copy.deepcopy(CHAT)
    body["choices"][0]["message"]["content"] = None
    body["choices"][0]["message"]["refusal"] = "I can't help with that."
    t = resp(body, C, A)
    assert t.body["content"] == [{"type": "text", "text": "I can't help with that."}]
    assert losses_by_feature(t.losses)["text"] == ["content[0]"]
    # between Chat endpoints the refusal field is kept
    assert resp(body, C, C).body == body


def test_more_than_one_choice_is_reported() -> None:
    body = copy.deepcopy(CHAT)
    second = copy.deepcopy(body["choices"][0])
    second["index"] = 1
    second["message"]["content"] = "The capital is Paris."
    body["choices"].append(second)
    t = resp(body, C, A)
    assert t.body["content"] == [{"type": "text", "text": "Paris is the capital of France."}]
    assert "choices" in {loss.path for loss in t.losses}
    # through the canonical API too: decoded on its own, then encoded for Anthropic
    canonical = interlingua.decode_response(body, C)
    ctx = interlingua.Ctx(C, A)
    interlingua.encode_response(canonical, A, ctx)
    assert "choices" in {loss.path for loss in ctx.losses}
    assert resp(body, C, C).body == body


def test_several_text_blocks_become_one_content_string() -> None:
    body = copy.deepcopy(ANTHROPIC)
    body["content"] = [
        {"type": "text", "text": "Paris is the capital"},
        {
            "type": "text",
            "text": " of France.",
            "citations": [{"type": "char_location", "cited_text": "Paris", "document_index": 0}],
        },
    ]
    t = resp(body, A, C)
    assert t.body["choices"][0]["message"]["content"] == "Paris is the capital of France."
    assert losses_by_feature(t.losses) == {"text": ["choices[0].message.content[1].annotations"]}
