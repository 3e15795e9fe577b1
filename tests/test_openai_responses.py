"""OpenAI Responses: the seed-004 tool loop to and from the other protocols, identity on every
recorded Responses request / response and the Codex captures, every recorded Responses stream,
and the openai SDK as the judge of what we emit (responses.stream and responses.create)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import interlingua
import openai
import orjson
import pytest
from interlingua import Ctx, UnsupportedFeature
from interlingua.generated.canonical import (
    DEFAULT_EFFORT,
    EFFORT_BUDGETS,
    ErrorEvent,
    ErrorInfo,
    Finish,
    FinishEvent,
    ReasoningPart,
    StreamEnd,
    StreamStart,
    TextDelta,
    TextPart,
    ToolCallPart,
    ToolCallStart,
)
from interlingua.streams import stream_encoder

from tests.conftest import FIXTURES, ROOT, SEEDS, client_body, losses_by_feature, need_fixtures
from tests.stream_util import (
    accumulate_stream,
    decode_stream,
    mock_client,
    recorded_streams,
    split_at,
    sse_payloads,
)

R = "openai_responses"
A = "anthropic_messages"
C = "openai_chat"
OTHERS = (A, C)
LOOP = ROOT / "examples" / "tool_loop"
STEPS = ("1_request", "2_response", "3_request", "4_response")
RECORDED = FIXTURES / "recorded"


def loop(pid: str) -> dict[str, dict[str, Any]]:
    return {s: json.loads((LOOP / f"{pid}.{s}.json").read_text()) for s in STEPS}


def translate(step: str, body: dict[str, Any], source: str, target: str) -> interlingua.Translation:
    fn = interlingua.translate_request if "request" in step else interlingua.translate_response
    return fn(body, source=source, target=target)


def sdk_client(body: bytes, content_type: str) -> openai.OpenAI:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": content_type}, content=body)

    return openai.OpenAI(
        api_key="x",
        base_url="http://interlingua.test/v1",
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
        max_retries=0,
    )


# ---------------------------------------------------------------- seed 004 tool loop


def _calls(items: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [
        (i["call_id"], i["name"], i["arguments"]) for i in items if i.get("type") == "function_call"
    ]


CALL = ("call_plan_001", "get_plan_info", '{"plan_code":"team"}')


@pytest.mark.parametrize("target", OTHERS)
def test_tool_loop_from_responses(target: str) -> None:
    src = loop(R)
    first = translate("1_request", src["1_request"], R, target).body
    call = translate("2_response", src["2_response"], R, target).body
    second = translate("3_request", src["3_request"], R, target).body
    final = translate("4_response", src["4_response"], R, target).body
    instructions = src["1_request"]["instructions"]
    user = src["1_request"]["input"]
    output = src["3_request"]["input"][2]["output"]
    answer = src["4_response"]["output"][0]["content"][0]["text"]
    if target == A:
        assert first["system"] == instructions
        assert first["messages"] == [{"role": "user", "content": user}]
        assert first["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}
        assert first["tools"][0]["input_schema"] == src["1_request"]["tools"][0]["parameters"]
        assert call["content"] == [
            {"type": "tool_use", "id": CALL[0], "name": CALL[1], "input": {"plan_code": "team"}}
        ]
        assert call["stop_reason"] == "tool_use"
        roles = [m["role"] for m in second["messages"]]
        assert roles == ["user", "assistant", "user"]
        assert second["messages"][1]["content"][0]["id"] == CALL[0]
        result = second["messages"][2]["content"][0]
        assert (result["type"], result["tool_use_id"], result["content"]) == (
            "tool_result",
            CALL[0],
            output,
        )
        assert final["content"] == [{"type": "text", "text": answer}]
        assert final["stop_reason"] == "end_turn"
    else:
        assert first["messages"] == [
            {"role": "system", "content": instructions},
            {"role": "user", "content": user},
        ]
        assert (first["tool_choice"], first["parallel_tool_calls"]) == ("required", False)
        msg = call["choices"][0]["message"]
        assert [
            (c["id"], c["function"]["name"], c["function"]["arguments"]) for c in msg["tool_calls"]
        ] == [CALL]
        assert call["choices"][0]["finish_reason"] == "tool_calls"
        assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "tool"]
        assert second["messages"][2]["tool_calls"][0]["id"] == CALL[0]
        assert second["messages"][3] == {
            "role": "tool",
            "tool_call_id": CALL[0],
            "content": output,
        }
        assert final["choices"][0]["message"]["content"] == answer
        assert final["choices"][0]["finish_reason"] == "stop"


@pytest.mark.parametrize("source", OTHERS)
def test_tool_loop_to_responses(source: str) -> None:
    src = loop(source)
    ref = loop(R)
    first = translate("1_request", src["1_request"], source, R)
    assert first.body["instructions"] == ref["1_request"]["instructions"]
    assert first.body["input"] == [{"role": "user", "content": ref["1_request"]["input"]}]
    # the Anthropic loop names its tool; Chat's asks for any tool, once
    choice = {"type": "function", "name": CALL[1]} if source == A else "required"
    assert first.body["tool_choice"] == choice
    assert first.body.get("parallel_tool_calls") is (None if source == A else False)
    tool = first.body["tools"][0]
    assert {k: tool[k] for k in ("type", "name", "parameters", "strict")} == {
        k: ref["1_request"]["tools"][0][k] for k in ("type", "name", "parameters", "strict")
    }
    cid = "toolu_plan_001" if source == A else CALL[0]  # each loop's own call id
    call = translate("2_response", src["2_response"], source, R).body
    assert _calls(call["output"]) == [(cid, *CALL[1:])]
    fc = call["output"][0]
    assert fc["id"] != fc["call_id"] and fc["id"].startswith("fc_")
    assert call["status"] == "completed"
    second = translate("3_request", src["3_request"], source, R).body
    items = second["input"]
    assert [i.get("type", "message") for i in items] == [
        "message",
        "function_call",
        "function_call_output",
    ]
    assert _calls(items) == [(cid, *CALL[1:])]
    assert items[2]["call_id"] == cid
    assert items[2]["output"] == ref["3_request"]["input"][2]["output"]
    final = translate("4_response", src["4_response"], source, R).body
    assert (
        final["output"][0]["content"][0]["text"]
        == ref["4_response"]["output"][0]["content"][0]["text"]
    )
    assert final["output"][0]["content"][0]["type"] == "output_text"


@pytest.mark.parametrize("via", OTHERS)
@pytest.mark.parametrize("step", STEPS)
def test_tool_loop_round_trip_keeps_ids_arguments_and_order(via: str, step: str) -> None:
    src = loop(R)[step]
    there = translate(step, src, R, via).body
    back = translate(step, there, via, R).body
    key = "input" if "request" in step else "output"
    if type(src[key]) is list:
        assert _calls(back[key]) == _calls(src[key])
        kinds = [i.get("type", "message") for i in src[key]]
        assert [i.get("type", "message") for i in back[key]] == kinds
    if "request" in step:
        assert back["instructions"] == src["instructions"]


@pytest.mark.parametrize("step", STEPS)
def test_tool_loop_identity(step: str) -> None:
    body = loop(R)[step]
    t = translate(step, body, R, R)
    assert t.body == body
    assert t.losses == []


def test_output_items_of_another_role_stay_in_place() -> None:
    """An output holding items a response does not usually hold (the request's tool result and
    a user message with a key of its own put before the tool loop's answer) comes back from
    Responses as it was, in order; elsewhere the message's key is reported, as an assistant
    message's is (the output is one group of items, whatever their role)."""
    body = loop(R)["2_response"]
    result = next(i for i in loop(R)["3_request"]["input"] if "output" in i)
    said = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}
    body = {**body, "output": [{**said, "x_note": 1}, result, *body["output"]]}
    assert translate("2_response", body, R, R).body == body
    for target in OTHERS:
        lost = [x.path for x in translate("2_response", body, R, target).losses]
        assert "output[0].x_note" in lost


# ---------------------------------------------------------------- requests


def test_previous_response_id_and_conversation_fail_toward_other_protocols() -> None:
    for field, value in (("previous_response_id", "resp_1"), ("conversation", "conv_1")):
        body = {"model": "m", field: value, "input": "next"}
        for target in OTHERS:
            with pytest.raises(UnsupportedFeature, match="full history"):
                interlingua.translate_request(body, source=R, target=target)
        assert interlingua.translate_request(body, source=R, target=R).body == body
        # decoded as Responses -> Responses, then encoded elsewhere: reported, never silent
        req = interlingua.decode_request(body, R)
        ctx = interlingua.Ctx(R, "anthropic_messages")
        interlingua.encode_request(req, "anthropic_messages", ctx)
        assert field in [loss.path for loss in ctx.losses]  # (and the default max_tokens)


REASONING_REQUEST: dict[str, Any] = {
    "model": "gpt-5",
    "instructions": "be brief",
    "input": [
        {"role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "thinking"}],
            "encrypted_content": "gAAA-opaque",
        },
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "calling", "annotations": []}],
        },
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "f",
            "arguments": "{}",
        },
        {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {}},
    ],
    "tools": [{"type": "web_search"}],
    "text": {"format": {"type": "json_schema", "name": "o", "schema": {}}, "verbosity": "low"},
    "reasoning": {"effort": "low", "summary": "auto"},
}


REASONING_RESPONSE: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1,
    "status": "completed",
    "model": "gpt-5",
    "output": [
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"},
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [
                {
                    "type": "output_text",
                    "text": "see",
                    "annotations": [{"type": "url_citation", "url": "https://x"}],
                    "logprobs": [],
                }
            ],
        },
        {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f", "arguments": "{}"},
    ],
    "usage": {
        "input_tokens": 3,
        "input_tokens_details": {"cached_tokens": 1},
        "output_tokens": 2,
        "output_tokens_details": {"reasoning_tokens": 1},
        "total_tokens": 5,
    },
}


def test_reasoning_response_identity_and_translation() -> None:
    t = interlingua.translate_response(REASONING_RESPONSE, source=R, target=R)
    assert t.body == REASONING_RESPONSE and t.losses == []
    for target in OTHERS:
        t = interlingua.translate_response(REASONING_RESPONSE, source=R, target=target)
        assert "gAAA" not in json.dumps(t.body)
        assert "reasoning_replay" in losses_by_feature(t.losses)


def test_reasoning_items_replay_only_to_responses() -> None:
    body = {
        "model": "gpt-5",
        "input": [
            {"role": "user", "content": "hi"},
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [{"type": "summary_text", "text": "thinking"}],
                "encrypted_content": "gAAA-opaque",
            },
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "f",
                "arguments": "{}",
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        ],
        "include": ["reasoning.encrypted_content"],
        "store": False,
    }
    req = interlingua.decode_request(body, R)
    parts = req.messages[1].parts
    r = parts[0]
    assert type(r) is ReasoningPart
    assert (r.owner, r.id, r.signature, r.text) == (R, "rs_1", "gAAA-opaque", "thinking")
    assert type(parts[1]) is ToolCallPart and parts[1].id == "call_1"
    assert interlingua.encode_request(req, R, Ctx(R, R)) == body
    for target in OTHERS:
        t = interlingua.translate_request(body, source=R, target=target)
        assert "gAAA-opaque" not in json.dumps(t.body)
        assert "reasoning_replay" in losses_by_feature(t.losses)


def test_anthropic_thinking_is_not_sent_to_responses() -> None:
    body = {
        "model": "claude",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm", "signature": "SIG"},
                    {"type": "text", "text": "hello"},
                ],
            },
            {"role": "user", "content": "again"},
        ],
    }
    t = interlingua.translate_request(body, source=A, target=R)
    assert "SIG" not in json.dumps(t.body)
    assert [i.get("type", "message") for i in t.body["input"]] == ["message"] * 3
    assert t.body["input"][1]["content"] == [
        {"type": "output_text", "text": "hello", "annotations": []}
    ]
    assert "reasoning_replay" in losses_by_feature(t.losses)


def test_hosted_tools_carried_to_responses_and_reported_elsewhere() -> None:
    body = {
        "model": "gpt-5",
        "input": "search",
        "tools": [
            {"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": False},
            {"type": "web_search", "external_web_access": False},
            {"type": "namespace", "name": "ns", "description": "d", "tools": []},
            {"type": "custom", "name": "apply_patch", "description": "patch"},
        ],
        "tool_choice": {
            "type": "allowed_tools",
            "mode": "required",
            "tools": [{"type": "function", "name": "f"}],
        },
    }
    assert interlingua.translate_request(body, source=R, target=R).body == body
    for target in OTHERS:
        t = interlingua.translate_request(body, source=R, target=target)
        assert len(t.body["tools"]) == 1
        lost = losses_by_feature(t.losses)
        assert lost["hosted_tools"] == ["tools[1]", "tools[2]", "tools[3]"]
        assert lost["tool_choice"] == ["tool_choice"]


def test_cache_hints_reported_at_their_messages_as_chat_reports_them() -> None:
    """Claude Code's cache breakpoints (two system blocks, a tool result) toward Responses,
    whose leading system message becomes ``instructions``: each is reported at its own message,
    in the words of the compiled part rows, as toward Chat; before, the ones after the system
    message were reported one message early and the system's in words of their own."""
    body = client_body("claude-code/tool_loop_bash/002_POST_v1_messages.json")

    def cache_losses(target: str) -> list[tuple[str, str]]:
        t = interlingua.translate_request(body, source=A, target=target)
        return sorted((x.path, x.what) for x in t.losses if x.feature == "caching")

    assert "instructions" in interlingua.translate_request(body, source=A, target=R).body
    assert len(cache_losses(R)) == 3
    assert cache_losses(R) == cache_losses(C)


def test_a_plain_user_texts_other_keys_are_reported_as_toward_anthropic() -> None:
    """pydantic-ai's recorded OpenRouter request puts ``cache_control`` on the one text part of
    its system and user messages (keys Chat has no row for): toward Responses each is reported
    at its part, as toward Anthropic. The user message went as a string with its key dropped in
    silence (a plain user text is a string across protocols only when it holds nothing else)."""
    rel = "compatible-openrouter.ai/test_cache/test_openrouter_cache_all_settings_real_api"
    path = need_fixtures() / "recorded/openai-chat/pydantic-ai-cassettes" / rel / "00.request.json"
    body = json.loads(path.read_text("utf-8"))

    def extensions(target: str) -> list[str]:
        t = interlingua.translate_request(body, source=C, target=target, model="m")
        return sorted(x.path for x in t.losses if x.feature == "extensions")

    assert "messages[1].content[0].cache_control" in extensions(R)
    assert extensions(R) == extensions(A)


def test_request_options_map_to_chat_and_back() -> None:
    body = {
        "model": "gpt-5",
        "instructions": "be brief",
        "input": [
            {"role": "developer", "content": "dev note"},
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "look"},
                    {
                        "type": "input_image",
                        "image_url": "data:image/png;base64,AAAA",
                        "detail": "low",
                    },
                    {
                        "type": "input_file",
                        "file_data": "data:application/pdf;base64,JVBE",
                        "filename": "a.pdf",
                    },
                ],
            },
        ],
        "tools": [
            {"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": True}
        ],
        "tool_choice": {"type": "function", "name": "f"},
        "parallel_tool_calls": True,
        "text": {
            "format": {
                "type": "json_schema",
                "name": "out",
                "schema": {"type": "object"},
                "strict": True,
            }
        },
        "reasoning": {"effort": "high", "summary": "auto"},
        "max_output_tokens": 500,
        "metadata": {"k": "v"},
        "temperature": 0.5,
        "top_p": 0.9,
    }
    t = interlingua.translate_request(body, source=R, target=C)
    out = t.body
    assert out["messages"][0] == {"role": "system", "content": "be brief"}
    assert out["messages"][1] == {"role": "developer", "content": "dev note"}
    content = out["messages"][2]["content"]
    assert content[1] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64,AAAA", "detail": "low"},
    }
    assert content[2]["file"] == {
        "file_data": "data:application/pdf;base64,JVBE",
        "filename": "a.pdf",
    }
    assert out["tool_choice"] == {"type": "function", "function": {"name": "f"}}
    assert out["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "out", "schema": {"type": "object"}, "strict": True},
    }
    assert out["reasoning_effort"] == "high"
    assert out["max_completion_tokens"] == 500
    back = interlingua.translate_request(out, source=C, target=R).body
    assert back["instructions"] == "be brief"
    assert back["tool_choice"] == {"type": "function", "name": "f"}
    assert back["text"] == body["text"]
    assert back["reasoning"] == {"effort": "high"}
    assert back["input"][1]["content"][1:] == body["input"][1]["content"][1:]
    assert back["max_output_tokens"] == 500


# ---------------------------------------------------------------- responses


def test_incomplete_max_output_tokens_is_length_both_ways() -> None:
    body = {
        "id": "resp_1",
        "object": "response",
        "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"},
        "model": "gpt-5",
        "output": [
            {
                "id": "msg_1",
                "type": "message",
                "status": "incomplete",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "cut", "annotations": []}],
            }
        ],
        "usage": {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 4},
            "output_tokens": 20,
            "output_tokens_details": {"reasoning_tokens": 5},
            "total_tokens": 30,
        },
    }
    resp = interlingua.decode_response(body, R)
    assert resp.finish is not None and resp.finish.unified == "length"
    assert resp.usage is not None
    assert (resp.usage.input_total, resp.usage.input_cache_read, resp.usage.output_reasoning) == (
        10,
        4,
        5,
    )
    a = interlingua.translate_response(body, source=R, target=A).body
    assert a["stop_reason"] == "max_tokens"
    assert a["usage"]["input_tokens"] == 6 and a["usage"]["cache_read_input_tokens"] == 4
    back = interlingua.translate_response(a, source=A, target=R).body
    assert back["status"] == "incomplete"
    assert back["incomplete_details"] == {"reason": "max_output_tokens"}
    assert back["usage"]["input_tokens"] == 10
    assert back["usage"]["input_tokens_details"] == {"cached_tokens": 4, "cache_write_tokens": 0}


@pytest.mark.parametrize("source", OTHERS)
@pytest.mark.parametrize("step", ("2_response", "4_response"))
def test_sdk_parses_translated_response(source: str, step: str) -> None:
    t = interlingua.translate_response(loop(source)[step], source=source, target=R)
    client = sdk_client(orjson.dumps(t.body), "application/json")
    r = client.responses.create(model="m", input="hi")
    expected = interlingua.decode_response(loop(source)[step], source)
    text = "".join(p.text for p in expected.parts if type(p) is TextPart)
    assert r.output_text == text
    calls = [(o.call_id, o.name, o.arguments) for o in r.output if o.type == "function_call"]
    assert calls == [(p.id, p.name, p.arguments) for p in expected.parts if type(p) is ToolCallPart]
    assert r.usage is not None and r.usage.input_tokens_details.cache_write_tokens == 0


def test_error_bodies_both_ways() -> None:
    body = {
        "error": {
            "message": "quota",
            "type": "insufficient_quota",
            "param": None,
            "code": "insufficient_quota",
        }
    }
    status, out = interlingua.translate_error(429, body, source=R, target=A)
    assert (status, out["error"]["type"]) == (429, "rate_limit_error")
    status, back = interlingua.translate_error(status, out, source=A, target=R)
    assert (status, back["error"]["type"], back["error"]["message"]) == (
        429,
        "rate_limit_error",
        "quota",
    )


# ---------------------------------------------------------------- recorded traffic


def _index(kind: str) -> list[dict[str, Any]]:
    index = RECORDED / "index.jsonl"
    if not index.is_file():
        return []
    out = []
    for line in index.read_text().splitlines():
        meta = json.loads(line)
        if meta["protocol"] == "openai-responses" and meta["kind"] == kind:
            out.append(meta)
    return out


def _codex() -> list[Path]:
    root = FIXTURES / "clients" / "codex"
    return sorted(root.glob("*/*_POST_v1_responses.json")) if root.is_dir() else []


def _body(meta: dict[str, Any]) -> Any:
    return json.loads((RECORDED / meta["file"]).read_text())


@pytest.mark.parametrize("meta", _index("request"), ids=lambda m: m["file"])
def test_recorded_request_identity_and_translation(meta: dict[str, Any]) -> None:
    body = _body(meta)
    req = interlingua.decode_request(body, R)
    assert interlingua.encode_request(req, R, Ctx(R, R)) == body
    stateful = any(body.get(k) is not None for k in ("previous_response_id", "conversation"))
    for target in OTHERS:
        if stateful:
            with pytest.raises(UnsupportedFeature):
                interlingua.translate_request(body, source=R, target=target)
        else:
            assert type(interlingua.translate_request(body, source=R, target=target).body) is dict


@pytest.mark.parametrize("path", _codex(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_codex_request_identity_and_translation(path: Path) -> None:
    body = json.loads(path.read_text())["body"]
    ctx = Ctx(R, R)
    assert interlingua.encode_request(interlingua.decode_request(body, R, ctx), R, ctx) == body
    assert ctx.losses == []
    for target in OTHERS:
        t = interlingua.translate_request(body, source=R, target=target)
        lost = losses_by_feature(t.losses)
        assert "hosted_tools" in lost  # web_search and the namespace are reported, not dropped


def _response_id(meta: dict[str, Any]) -> Any:
    body = _body(meta)
    if "output" not in body and "error" in body:
        return pytest.param(meta, marks=pytest.mark.skip(reason="an error body (tested below)"))
    if "choices" in body:
        return pytest.param(
            meta,
            marks=pytest.mark.xfail(
                reason="a Chat Completions body filed as Responses", strict=True
            ),
        )
    return meta


@pytest.mark.parametrize(
    "meta", [_response_id(m) for m in _index("response")], ids=lambda m: m["file"]
)
def test_recorded_response_identity_and_translation(meta: dict[str, Any]) -> None:
    body = _body(meta)
    resp = interlingua.decode_response(body, R)
    assert interlingua.encode_response(resp, R, Ctx(R, R)) == body
    for target in OTHERS:
        interlingua.translate_response(body, source=R, target=target)


def _error_bodies() -> list[dict[str, Any]]:
    out = []
    for m in _index("response") + _index("error-response"):
        body = _body(m)
        if "error" in body and body.get("output") is None:
            out.append(m)
    return out


@pytest.mark.parametrize("meta", _error_bodies(), ids=lambda m: m["file"])
def test_recorded_error_bodies_decode(meta: dict[str, Any]) -> None:
    body = _body(meta)
    info = interlingua.decode_error(429, body, R)
    assert info.message
    for target in OTHERS:
        interlingua.encode_error(info, target)


# ---------------------------------------------------------------- streams

_TYPE = re.compile(r'"type"\s*:\s*"([^"]+)"')
# recordings that do not end normally, and why
ODD_STREAMS = {
    "openai-responses/vercel-ai/openai-error.1.chunks.txt": "failed",  # a recorded error event
    # the first payload is cut mid-object in the recording: not JSON, so failed
    "openai-responses/vercel-ai/parallel-tool-call-wrapper.1.chunks.txt": "failed",
    # Chat Completions chunks filed under Responses: no Responses terminal event
    "openai-responses/vercel-ai/compatible/azure/azure-deepseek-reasoning.1.chunks.txt": "disconnected",
}


def responses_sse(path: Path) -> bytes:
    """A recorded Responses stream as wire SSE: ``*.chunks.txt`` hold one data payload per line
    (wrapped as ``event: <type>``, found without parsing: one recording is cut mid-object)."""
    raw = path.read_bytes()
    if not path.name.endswith(".chunks.txt"):
        return raw.rstrip(b"\r\n") + b"\n\n"
    out = []
    for line in raw.decode().splitlines():
        line = line.strip()
        if line:
            m = _TYPE.search(line)
            out.append(f"event: {m.group(1) if m else 'message'}\ndata: {line}\n\n".encode())
    return b"".join(out)


@pytest.mark.parametrize("meta", _index("stream"), ids=lambda m: m["file"])
def test_recorded_stream_decodes_and_translates(meta: dict[str, Any]) -> None:
    data = responses_sse(RECORDED / meta["file"])
    events = decode_stream(data, R)
    ending = events[-1].ending
    assert ending == ODD_STREAMS.get(meta["file"], "completed")
    for target in (*OTHERS, R):
        out = b"".join(interlingua.translate_stream([data], source=R, target=target))
        assert out


def check_responses_sse(sse: bytes) -> list[dict[str, Any]]:
    """The invariants of an emitted Responses stream (the issue's list)."""
    events = []
    for name, data in sse_payloads(sse):
        d = json.loads(data)
        assert name == d["type"]  # the event: line is sent, and matches data.type
        events.append(d)
    seqs = [d["sequence_number"] for d in events]
    assert seqs == sorted(set(seqs)) and seqs[0] == 0
    assert events[0]["type"] == "response.created"
    rid = events[0]["response"]["id"]
    added: dict[int, str] = {}
    done: dict[int, dict[str, Any]] = {}
    for d in events:
        t = d["type"]
        if t == "response.output_item.added":
            assert d["output_index"] == len(added)
            added[d["output_index"]] = d["item"]["id"]
        elif t == "response.output_item.done":
            assert added[d["output_index"]] == d["item"]["id"]
            done[d["output_index"]] = d["item"]
        elif "item_id" in d:
            assert added[d["output_index"]] == d["item_id"]
            assert d["output_index"] not in done
    last = events[-1]
    if last["type"] in ("response.completed", "response.incomplete"):
        assert last["response"]["id"] == rid
        assert last["response"]["output"] == [done[i] for i in sorted(done)]
        assert sorted(done) == sorted(added)
    return events


def _source_streams() -> Iterator[Any]:
    for rs in recorded_streams():
        yield pytest.param(rs, id=rs.name)


@pytest.mark.parametrize("rs", list(_source_streams()))
def test_sdk_accepts_translated_stream(rs: Any) -> None:
    data = rs.sse()
    try:
        expected = accumulate_stream(data, rs.pid)
    except interlingua.InterlinguaError:
        expected = None  # the source did not complete: the target must say so
    out = b"".join(interlingua.translate_stream([data], source=rs.pid, target=R))
    events = check_responses_sse(out)
    last = events[-1]["type"]
    if expected is None:
        assert last == "response.failed"
        return
    if last != "response.completed":  # a length / refusal ending: response.incomplete
        assert last == "response.incomplete"
        assert expected.finish is not None and expected.finish.unified != "stop"
        return
    client = sdk_client(out, "text/event-stream")
    with client.responses.stream(model="m", input="hi") as stream:
        final = stream.get_final_response()
    assert final.output_text == "".join(p.text for p in expected.parts if type(p) is TextPart)
    calls = [(o.call_id, o.name, o.arguments) for o in final.output if o.type == "function_call"]
    assert calls == [(p.id, p.name, p.arguments) for p in expected.parts if type(p) is ToolCallPart]


@pytest.mark.parametrize(
    "rs", recorded_streams("anthropic", "openai-chat", "gemini"), ids=lambda rs: rs.name
)
def test_item_ids_are_one_rule_for_streams_and_responses(rs: Any) -> None:
    """A stream from another protocol and the response accumulated from it give a Responses
    client the same items with the same ids (items.ids: ``<prefix>interlingua_<response id>_
    <output index>``, unique in the output)."""
    data = rs.sse()
    try:
        resp = accumulate_stream(data, rs.pid)
    except interlingua.InterlinguaError:
        pytest.skip("the recorded stream does not complete")
    out = b"".join(interlingua.translate_stream([data], source=rs.pid, target=R))
    streamed = check_responses_sse(out)[-1]["response"]["output"]
    body = interlingua.encode_response(resp, rs.pid, Ctx(rs.pid, rs.pid))
    answered = interlingua.translate_response(body, source=rs.pid, target=R).body["output"]
    ids = [(i["type"], i["id"]) for i in answered]
    assert [(i["type"], i["id"]) for i in streamed] == ids
    assert len({i for _, i in ids}) == len(ids)
    prefix = {"message": "msg_", "function_call": "fc_", "reasoning": "rs_"}
    assert all(i.startswith(f"{prefix[t]}interlingua_{resp.id}_") for t, i in ids)


def test_responses_stream_identity_through_canonical() -> None:
    root = need_fixtures() / "clients" / "codex"
    for resp in sorted(root.glob("*/*_resp.txt")):
        raw = resp.read_bytes().partition(b"\n")[2]
        expected = accumulate_stream(raw, R)
        out = b"".join(interlingua.translate_stream([raw], source=R, target=R))
        check_responses_sse(out)
        got = accumulate_stream(out, R)
        assert got.id == expected.id
        assert [type(p) for p in got.parts] == [type(p) for p in expected.parts]
        assert _calls_of(got) == _calls_of(expected)


def _calls_of(resp: Any) -> list[tuple[str, str, str]]:
    return [(p.id, p.name, p.arguments) for p in resp.parts if type(p) is ToolCallPart]


# ---------------------------------------------------------------- bad input


def _paths(v: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if type(v) is dict:
        for k, x in v.items():
            out += _paths(x, (*prefix, k))
    elif type(v) is list:
        for i, x in enumerate(v):
            out += _paths(x, (*prefix, i))
    return out


_BAD_VALUES: list[Any] = [None, 0, 1.5, True, "s", [], {}, [{}], {"type": []}, [None]]


@pytest.mark.parametrize("step", [*STEPS, "reasoning_request", "reasoning_response"])
def test_mutated_payloads_raise_only_interlingua_errors(step: str) -> None:
    """Every single-field deletion or retyping of the tool loop: a typed error or a body."""
    extra = {"reasoning_request": REASONING_REQUEST, "reasoning_response": REASONING_RESPONSE}
    body = extra[step] if step in extra else loop(R)[step]
    for path in _paths(body):
        for value in [*_BAD_VALUES, "<delete>"]:
            bad = json.loads(json.dumps(body))
            parent: Any = bad
            for k in path[:-1]:
                parent = parent[k]
            if value == "<delete>":
                del parent[path[-1]]
            else:
                parent[path[-1]] = value
            for target in (*OTHERS, R):
                try:
                    t = translate(step.replace("reasoning_", "0_"), bad, R, target)
                except interlingua.InterlinguaError:
                    continue
                assert type(t.body) is dict


def _text_of(resp: Any) -> str:
    return "".join(p.text for p in resp.parts if type(p) is TextPart)


@pytest.mark.parametrize(
    "meta", [m for m in _index("stream") if m["file"] not in ODD_STREAMS], ids=lambda m: m["file"]
)
def test_recorded_stream_keeps_text_and_calls_in_every_target(meta: dict[str, Any]) -> None:
    data = responses_sse(RECORDED / meta["file"])
    expected = accumulate_stream(data, R)
    for target in (*OTHERS, R):
        out = b"".join(interlingua.translate_stream([data], source=R, target=target))
        got = accumulate_stream(out, target)
        assert _text_of(got) == _text_of(expected)
        assert _calls_of(got) == _calls_of(expected)
    out = b"".join(interlingua.translate_stream([data], source=R, target=R))
    if check_responses_sse(out)[-1]["type"] == "response.completed":
        with sdk_client(out, "text/event-stream").responses.stream(model="m", input="x") as s:
            final = s.get_final_response()
        assert final.output_text == _text_of(expected)


@pytest.mark.parametrize("rs", list(_source_streams())[:40])
def test_accumulated_stream_as_a_responses_body(rs: Any) -> None:
    """A non-streaming Responses client served from a streaming upstream (the gateway path)."""
    try:
        resp = accumulate_stream(rs.sse(), rs.pid)
    except interlingua.InterlinguaError:
        pytest.skip("the recorded stream does not complete")
    for ctx in (Ctx(rs.pid, R), Ctx(R, R)):
        body = interlingua.encode_response(resp, R, ctx)
        assert body["status"] in ("completed", "incomplete")
        r = sdk_client(orjson.dumps(body), "application/json").responses.create(
            model="m", input="x"
        )
        assert r.output_text == _text_of(resp)
        assert [
            (o.call_id, o.name, o.arguments) for o in r.output if o.type == "function_call"
        ] == (_calls_of(resp))


def test_stream_decoding_does_not_depend_on_chunking() -> None:
    root = need_fixtures() / "clients" / "codex"
    for resp in sorted(root.glob("*/*_resp.txt")):
        raw = resp.read_bytes().partition(b"\n")[2]
        whole = decode_stream(raw, R)
        for step in (1, 7, 97):
            assert decode_stream(split_at(raw, range(step, len(raw), step)), R) == whole


def _json_documents(text: str) -> list[dict[str, Any]]:
    """The JSON objects of the article that start a line or a ``curl -d '`` body."""
    decoder = json.JSONDecoder()
    out = []
    for m in re.finditer(r"^(?:\s*-d ')?\{", text, re.M):
        try:
            obj, _ = decoder.raw_decode(text, m.end() - 1)
        except json.JSONDecodeError:
            continue
        out.append(obj)
    return out


def test_examples_transcribe_the_seed_loop() -> None:
    """examples/tool_loop/openai_responses.* are seed 004's Responses loop (the responses with
    the created_at / status / model / usage fields a real response carries added)."""
    seeds = sorted(SEEDS.glob("004_*.txt")) if SEEDS.is_dir() else []
    if not seeds:
        pytest.skip("../shared/seeds/004_*.txt is absent")
    text = seeds[0].read_text(encoding="utf-8")
    start = text.index("Responses: ciclo completo")
    section = text[start : text.index("Se você optar por continuidade de estado", start)]
    docs = [d for d in _json_documents(section) if d.keys() & {"model", "output"}]
    assert len(docs) == 4
    ours = loop(R)
    for step, doc in zip(STEPS, docs, strict=True):
        if "request" in step:
            assert ours[step] == doc
        else:
            assert {k: ours[step][k] for k in doc} == doc


# ---------------------------------------------------------------- stream endings (encoder)


def _responses_events(sse: bytes) -> list[dict[str, Any]]:
    return [json.loads(d) for _, d in sse_payloads(sse)]


def _sdk_stream_raises_api_error(sse: bytes) -> openai.APIError:
    """openai's ``responses.stream(...)`` over ``sse``: the SDK's own APIError, raised while
    iterating or by get_final_response (never a RuntimeError of its accumulator)."""
    client = mock_client("openai", sse)
    with (
        pytest.raises(openai.APIError) as e,
        client.responses.stream(model="m", input="x") as stream,
    ):
        for _ in stream:
            pass
        stream.get_final_response()
    return e.value


def test_stream_failing_before_any_content_starts_with_created() -> None:
    from tests.test_streams import MSG_START, anthropic_sse

    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    cases = {
        "empty upstream": (b"", A),
        "error first": (anthropic_sse(overloaded), A),
        "error after start": (anthropic_sse(MSG_START, overloaded), A),
        "empty Responses upstream": (b"", R),
    }
    for name, (data, source) in cases.items():
        out = b"".join(interlingua.translate_stream([data], source=source, target=R))
        events = check_responses_sse(out)
        assert [e["type"] for e in events[:2]] == ["response.created", "response.in_progress"], name
        assert [e["type"] for e in events[-2:]] == ["error", "response.failed"], name
        assert events[-1]["response"]["id"] == events[0]["response"]["id"], name
        err = _sdk_stream_raises_api_error(out)
        if "error" in name:
            assert err.message == "Overloaded"
        else:
            assert "without its terminal event" in err.message
    # the encoder fed nothing but its close()
    enc = stream_encoder(R)
    out = b"".join(enc.close())
    assert [e["type"] for e in _responses_events(out)] == [
        "response.created",
        "response.in_progress",
        "error",
        "response.failed",
    ]


def test_cut_function_call_is_incomplete_never_completed() -> None:
    from tests.test_streams import PARALLEL, anthropic_sse

    # cut inside the first call's arguments ('{"city": "Pa'), the message text, the reasoning
    for cut in (PARALLEL[:14], PARALLEL[:9], PARALLEL[:4]):
        out = b"".join(interlingua.translate_stream([anthropic_sse(*cut)], source=A, target=R))
        events = check_responses_sse(out)
        done = [e["item"] for e in events if e["type"] == "response.output_item.done"]
        cut_item = done[-1]
        assert cut_item["status"] == "incomplete"
        assert all(i["status"] == "completed" for i in done[:-1] if "status" in i)
        assert not any(e["type"] == "response.completed" for e in events)
        assert [e["type"] for e in events[-2:]] == ["error", "response.failed"]
        final = events[-1]["response"]
        assert final["status"] == "failed"
        assert final["output"] == done
        if cut_item["type"] == "function_call":
            assert cut_item["arguments"] == '{"city": "Pa'  # what came, not closed or padded
            # the arguments never ended: no function_call_arguments.done for the cut call
            assert not any(
                e["type"] == "response.function_call_arguments.done"
                and e["item_id"] == cut_item["id"]
                for e in events
            )
        assert "without its terminal event" in _sdk_stream_raises_api_error(out).message
        # read back, the cut is a failed stream, not a finished call
        assert decode_stream(out, R)[-1].ending == "failed"


def test_responses_stream_ending_rules() -> None:
    """As for the Anthropic and Chat streams: nothing after the terminal event (decoder and
    encoder), and the finish is held until the real end (a stop reason then a cut is a failure)."""
    from tests.test_streams import PARALLEL, PARALLEL_SSE, anthropic_sse

    whole = b"".join(interlingua.translate_stream([PARALLEL_SSE], source=A, target=R))
    assert _responses_events(whole)[-1]["type"] == "response.completed"
    # the decoder ignores what follows response.completed (here a whole second response)
    extra = whole + whole.replace(b"Paris", b"Lyon")
    for target in (A, C, R):
        assert b"".join(interlingua.translate_stream([extra], source=R, target=target)) == (
            b"".join(interlingua.translate_stream([whole], source=R, target=target))
        )
    # the encoder sends nothing after its terminal event
    for terminal in (
        StreamEnd(ending="completed"),
        ErrorEvent(error=ErrorInfo(type="overloaded", message="Overloaded", status=529)),
    ):
        enc = stream_encoder(R)
        out = enc.feed(StreamStart(id="resp_1", model="m")) + enc.feed(terminal)
        late = [
            TextDelta(key="t", text="late"),
            ToolCallStart(key="c", id="call_1", name="f"),
            FinishEvent(finish=Finish(unified="stop", raw="completed")),
            StreamEnd(ending="completed"),
            ErrorEvent(error=ErrorInfo(type="overloaded", message="again", status=529)),
        ]
        assert [b for ev in late for b in enc.feed(ev)] + enc.close() == []
        assert _responses_events(b"".join(out))[-1]["type"] in (
            "response.completed",
            "response.failed",
        )
    # the finish is held: a stop reason without message_stop is not a completion
    out = b"".join(
        interlingua.translate_stream([anthropic_sse(*PARALLEL[:-1])], source=A, target=R)
    )
    types = [e["type"] for e in check_responses_sse(out)]
    assert types[-1] == "response.failed"
    assert "response.completed" not in types and "response.incomplete" not in types
    done = [e["item"] for e in _responses_events(out) if e["type"] == "response.output_item.done"]
    assert all(i.get("status", "completed") == "completed" for i in done)  # those did finish


def test_codex_reasoning_summary_is_reported_where_the_target_has_no_setting() -> None:
    """Codex asks for ``reasoning.summary: auto``: Gemini has includeThoughts for it; Anthropic,
    Chat and Cohere have no such setting, so it is reported, never dropped in silence."""
    path = need_fixtures() / "clients/codex/tool_loop_exec_command/001_POST_v1_responses.json"
    body = json.loads(path.read_text())["body"]
    assert body["reasoning"]["summary"] == "auto"
    for target in ("anthropic_messages", "openai_chat", "cohere_v2"):
        out = interlingua.translate_request(body, source=R, target=target)
        (loss,) = [x for x in out.losses if x.path == "reasoning.summary"]
        assert loss.what == "summary 'auto' dropped" and target in loss.why
    out = interlingua.translate_request(body, source=R, target="gemini")
    assert not [x for x in out.losses if x.path == "reasoning.summary"]
    assert out.body["generationConfig"]["thinkingConfig"]["includeThoughts"] is True


def test_codex_reasoning_summary_alone_turns_thinking_on_where_it_is_off_by_default() -> None:
    """Codex sends ``reasoning: {summary: "auto"}`` with no effort: it asks to see the
    reasoning, so a protocol whose thinking is off unless asked for (Anthropic, Cohere: budgets,
    no summary setting) gets thinking on, as for an enabled mode (Anthropic: the default budget,
    with room for it in a defaulted max_tokens); before, Anthropic got no thinking and Codex showed no reasoning. Gemini takes
    includeThoughts alone (it thinks by default); Chat's models decide, no effort is sent."""
    path = need_fixtures() / "clients/codex/tool_loop_exec_command/001_POST_v1_responses.json"
    body = json.loads(path.read_text())["body"]
    assert body["reasoning"] == {"summary": "auto"}
    default = EFFORT_BUDGETS[DEFAULT_EFFORT]
    out = interlingua.translate_request(body, source=R, target="anthropic_messages")
    assert out.body["thinking"] == {"type": "enabled", "budget_tokens": default}
    assert out.body["max_tokens"] > default
    assert [x.path for x in out.losses if x.path.startswith("reasoning")] == ["reasoning.summary"]
    out = interlingua.translate_request(body, source=R, target="cohere_v2")
    assert out.body["thinking"] == {"type": "enabled"}  # as an enabled mode: no amount needed
    out = interlingua.translate_request(body, source=R, target="gemini")
    assert out.body["generationConfig"]["thinkingConfig"] == {"includeThoughts": True}
    out = interlingua.translate_request(body, source=R, target="openai_chat")
    assert "reasoning_effort" not in out.body
    body = {**body, "reasoning": {"summary": "auto", "effort": "none"}}  # thinking off: none
    out = interlingua.translate_request(body, source=R, target="anthropic_messages")
    assert out.body.get("thinking", {}).get("type") != "enabled"
