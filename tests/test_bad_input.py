"""Bad payloads give interlingua.InvalidInput naming the JSON path; nothing else ever escapes
(a hypothesis fuzz over random JSON and random mutations of real requests and responses)."""

from __future__ import annotations

import copy
from typing import Any

import interlingua
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

A = "anthropic_messages"
C = "openai_chat"

ANTHROPIC_REQUEST: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "system": [{"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}],
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Call the tool.", "signature": "EqQBCkgIAR"},
                {
                    "type": "tool_use",
                    "id": "toolu_01",
                    "name": "get_weather",
                    "input": {"city": "Paris"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01", "content": "Sunny"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"},
                },
            ],
        },
    ],
    "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
    "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
    "thinking": {"type": "enabled", "budget_tokens": 2048},
    "metadata": {"user_id": "u-1"},
    "stop_sequences": ["END"],
}

CHAT_REQUEST: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "You are terse."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Weather?"},
                {"type": "image_url", "image_url": {"url": "https://x/y.png"}},
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "Sunny"},
    ],
    "tools": [
        {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
    ],
    "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
    "parallel_tool_calls": False,
    "response_format": {
        "type": "json_schema",
        "json_schema": {"name": "w", "schema": {"type": "object"}},
    },
    "reasoning_effort": "low",
    "stop": ["END"],
    "max_completion_tokens": 100,
}

ANTHROPIC_RESPONSE: dict[str, Any] = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [
        {"type": "text", "text": "Checking."},
        {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}},
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 10, "cache_read_input_tokens": 5, "output_tokens": 3},
}

CHAT_RESPONSE: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1741570283,
    "model": "gpt-4o",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": "Checking.",
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "f", "arguments": "{}"},
                    }
                ],
            },
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {
        "prompt_tokens": 10,
        "completion_tokens": 3,
        "total_tokens": 13,
        "prompt_tokens_details": {"cached_tokens": 5},
    },
}


def _invalid(fn: Any, body: Any, source: str) -> interlingua.InvalidInput:
    target = C if source == A else A
    with pytest.raises(interlingua.InvalidInput) as info:
        fn(body, source=source, target=target)
    return info.value


# ---------------------------------------------------------------- each kind of bad input


@pytest.mark.parametrize("body", [b"{not json", b"", "[1, 2", b"\xff\xfe"])
@pytest.mark.parametrize("source", [A, C])
def test_non_json_is_invalid_input(body: Any, source: str) -> None:
    err = _invalid(interlingua.translate_request, body, source)
    assert "JSON" in str(err)
    err = _invalid(interlingua.translate_response, body, source)
    assert "JSON" in str(err)


@pytest.mark.parametrize("body", [b"[]", b"42", b'"text"', b"null"])
@pytest.mark.parametrize("source", [A, C])
def test_a_body_that_is_not_an_object(body: bytes, source: str) -> None:
    err = _invalid(interlingua.translate_request, body, source)
    assert err.path == ""
    assert "expected an object" in err.message


def edit(body: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of body with the value at a JSON path (a.b[2].c) replaced; DELETE removes it."""
    out = copy.deepcopy(body)
    cur: Any = out
    keys: list[Any] = []
    for seg in path.replace("]", "").split("."):
        name, *idx = seg.split("[")
        keys.append(name)
        keys.extend(int(i) for i in idx)
    for k in keys[:-1]:
        cur = cur[k]
    if value is DELETE:
        del cur[keys[-1]]
    else:
        cur[keys[-1]] = value
    return out


DELETE = object()


@pytest.mark.parametrize(
    ("source", "path", "value", "want_path", "words"),
    [
        # wrong types
        (A, "max_tokens", "1024", "max_tokens", "expected an integer"),
        (A, "temperature", "hot", "temperature", "expected a number"),
        (A, "messages", {"role": "user"}, "messages", "expected an array"),
        (A, "messages[0]", "hello", "messages[0]", "expected an object"),
        (
            A,
            "messages[1].content[1].input",
            '{"city": "Paris"}',
            "messages[1].content[1].input",
            "expected an object",
        ),
        (A, "messages[1].content[1].id", 17, "messages[1].content[1].id", "expected a string"),
        (A, "tools[0].input_schema", [], "tools[0].input_schema", "expected an object"),
        (A, "stop_sequences", [1], "stop_sequences[0]", "expected a string"),
        (A, "thinking.budget_tokens", 2.5, "thinking.budget_tokens", "expected an integer"),
        (A, "metadata.user_id", 5, "metadata.user_id", "expected a string"),
        (C, "max_completion_tokens", True, "max_completion_tokens", "expected an integer"),
        (C, "messages[2].tool_calls", {}, "messages[2].tool_calls", "expected an array"),
        (
            C,
            "messages[2].tool_calls[0].function.arguments",
            {"city": "Paris"},
            "messages[2].tool_calls[0].function.arguments",
            "expected a string",
        ),
        (
            C,
            "messages[1].content[1].image_url.url",
            None,
            "messages[1].content[1].image_url.url",
            "missing",
        ),
        (C, "parallel_tool_calls", "no", "parallel_tool_calls", "expected a boolean"),
        (C, "tools[0].function", "get_weather", "tools[0].function", "expected an object"),
        (C, "reasoning_effort", 3, "reasoning_effort", "expected a string"),
        # missing required fields
        (A, "messages", DELETE, "messages", "missing"),
        (A, "messages[0].content", DELETE, "messages[0].content", "missing"),
        (A, "messages[1].content[1].name", DELETE, "messages[1].content[1].name", "missing"),
        (
            A,
            "messages[2].content[0].tool_use_id",
            DELETE,
            "messages[2].content[0].tool_use_id",
            "missing",
        ),
        (A, "tools[0].name", DELETE, "tools[0].name", "missing"),
        (C, "messages", DELETE, "messages", "missing"),
        (C, "messages", [], "messages", "at least one"),
        (C, "messages[3].tool_call_id", DELETE, "messages[3].tool_call_id", "missing"),
        (C, "messages[2].tool_calls[0].id", DELETE, "messages[2].tool_calls[0].id", "missing"),
        (C, "tools[0].function.name", DELETE, "tools[0].function.name", "missing"),
        # unknown roles, block types, enum values
        (A, "messages[0].role", "system_admin", "messages[0].role", "unknown role"),
        (A, "messages[0].role", None, "messages[0].role", "unknown role"),
        (
            A,
            "messages[2].content[1].type",
            "hologram",
            "messages[2].content[1].type",
            "unknown content block type",
        ),
        (A, "tool_choice.type", "sometimes", "tool_choice.type", "unknown tool_choice"),
        (A, "thinking.type", "maybe", "thinking.type", "unknown thinking type"),
        (C, "messages[0].role", "narrator", "messages[0].role", "unknown role"),
        (
            C,
            "messages[1].content[0].type",
            "hologram",
            "messages[1].content[0].type",
            "unknown content block type",
        ),
        (C, "tool_choice", "sometimes", "tool_choice", "unknown tool_choice"),
        (C, "response_format.type", "yaml", "response_format.type", "unknown response_format type"),
    ],
)
def test_bad_requests_name_the_path(
    source: str, path: str, value: Any, want_path: str, words: str
) -> None:
    body = edit(ANTHROPIC_REQUEST if source == A else CHAT_REQUEST, path, value)
    err = _invalid(interlingua.translate_request, body, source)
    assert err.path == want_path
    assert words in err.message
    assert err.status == 400 and err.error_type == "invalid_request"


@pytest.mark.parametrize(
    ("source", "path", "value", "want_path"),
    [
        (A, "content", DELETE, "content"),
        (A, "content", {"type": "text"}, "content"),
        (A, "content[1].type", "hologram", "content[1].type"),
        (A, "content[1].input", [], "content[1].input"),
        (A, "stop_reason", 3, "stop_reason"),
        (A, "usage.input_tokens", "10", "usage.input_tokens"),
        (C, "choices", DELETE, "choices"),
        (C, "choices", [], "choices"),
        (C, "choices", None, "choices"),
        (C, "choices", {"0": {}}, "choices"),
        (C, "choices[0].message", DELETE, "choices[0].message"),
        (C, "choices[0].message.role", "robot", "choices[0].message.role"),
        (
            C,
            "choices[0].message.tool_calls[0].function",
            None,
            "choices[0].message.tool_calls[0].function.name",
        ),
        (C, "choices[0].finish_reason", 1, "choices[0].finish_reason"),
        (C, "usage.prompt_tokens_details", 5, "usage.prompt_tokens_details"),
    ],
)
def test_bad_responses_name_the_path(source: str, path: str, value: Any, want_path: str) -> None:
    body = edit(ANTHROPIC_RESPONSE if source == A else CHAT_RESPONSE, path, value)
    err = _invalid(interlingua.translate_response, body, source)
    assert err.path == want_path


def test_the_valid_payloads_translate() -> None:
    """Guard: the payloads mutated above are valid, so each failure above is the mutation's."""
    for body, src in ((ANTHROPIC_REQUEST, A), (CHAT_REQUEST, C)):
        for target in (A, C):
            interlingua.translate_request(body, source=src, target=target)
    for body, src in ((ANTHROPIC_RESPONSE, A), (CHAT_RESPONSE, C)):
        for target in (A, C):
            interlingua.translate_response(body, source=src, target=target)


def test_unknown_protocol_is_an_interlingua_error() -> None:
    with pytest.raises(interlingua.InterlinguaError):
        interlingua.translate_request({"messages": []}, source="cohere", target=A)


# ---------------------------------------------------------------- fuzz

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "role",
                    "content",
                    "type",
                    "text",
                    "messages",
                    "id",
                    "name",
                    "input",
                    "tool_calls",
                    "function",
                    "arguments",
                    "choices",
                    "message",
                    "usage",
                    "source",
                    "tool_use_id",
                    "max_tokens",
                    "tools",
                    "tool_choice",
                    "system",
                    "thinking",
                    "x",
                ]
            )
            | st.text(max_size=6),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)

VALID = [
    (ANTHROPIC_REQUEST, A, "request"),
    (CHAT_REQUEST, C, "request"),
    (ANTHROPIC_RESPONSE, A, "response"),
    (CHAT_RESPONSE, C, "response"),
]


def _paths(v: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if type(v) is dict:
        for k, x in v.items():
            out += _paths(x, (*prefix, k))
    elif type(v) is list:
        for i, x in enumerate(v):
            out += _paths(x, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> tuple[Any, str, str]:
    body, source, kind = draw(st.sampled_from(VALID))
    body = copy.deepcopy(body)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(body)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent: Any = body
        for k in path[:-1]:
            parent = parent[k]
        action = draw(st.sampled_from(["delete", "retype", "replace"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "retype":
            old = parent[path[-1]]
            choices: list[Any] = [None, 0, 1.5, True, "s", [], {}, [old], {"v": old}]
            parent[path[-1]] = draw(st.sampled_from(choices))
        else:
            parent[path[-1]] = draw(json_values)
    return body, source, kind


def _translate_everywhere(body: Any, source: str, kind: str) -> None:
    fn = interlingua.translate_request if kind == "request" else interlingua.translate_response
    for target in (A, C):
        for strict in (False, True):
            try:
                t = fn(body, source=source, target=target, strict=strict)
            except interlingua.InterlinguaError:
                continue
            assert type(t.body) is dict


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_fuzz_mutated_payloads_raise_only_interlingua_errors(case: tuple[Any, str, str]) -> None:
    _translate_everywhere(*case)


@settings(max_examples=100, deadline=None)
@given(json_values, st.sampled_from([A, C]), st.sampled_from(["request", "response"]))
def test_fuzz_random_json_raises_only_interlingua_errors(body: Any, source: str, kind: str) -> None:
    _translate_everywhere(body, source, kind)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(100, 599),
    st.one_of(json_values, st.binary(max_size=40), st.text(max_size=40)),
    st.sampled_from([A, C]),
    st.sampled_from([A, C]),
)
def test_fuzz_error_bodies_never_raise(status: int, body: Any, source: str, target: str) -> None:
    s, out = interlingua.translate_error(status, body, source=source, target=target)
    assert type(s) is int and type(out) is dict
