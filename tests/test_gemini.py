"""Google Gemini: the seed tool loop both ways, ids (synthesised, parallel calls to one
function), the thoughtSignature envelope through Chat and Anthropic clients, identity on every
recorded Gemini body and Gemini CLI capture, recorded streams, errors, and google-genai as the
judge of what we emit (docs/gemini.md)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import httpx
import interlingua
import orjson
import pytest
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx
from interlingua._pipeline import decode_request, decode_response, encode_request, encode_response
from interlingua.gateway.upstream import http_spec, model_url
from interlingua.generated.canonical import ReasoningPart, TextPart, ToolCallPart
from interlingua.streams.accumulate import accumulate
from interlingua.transforms.call_id_envelope import MARK, unwrap_id

from tests.conftest import FIXTURES, ROOT, need_fixtures
from tests.stream_util import (
    args_of,
    decode_stream,
    load_client_sse,
    recorded_streams,
    sse_payloads,
)

G = "gemini"
A = "anthropic_messages"
C = "openai_chat"
R = "openai_responses"  # in progress in parallel: used when available
EXAMPLES = ROOT / "examples" / "tool_loop"
RECORDED = FIXTURES / "recorded"
CLI = FIXTURES / "clients" / "gemini-cli"


def example(pid: str, step: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{pid}.{step}.json").read_text())  # type: ignore[no-any-return]


def req(body: Any, source: str, target: str, **kw: Any) -> interlingua.Translation:
    return interlingua.translate_request(body, source=source, target=target, **kw)


def resp(body: Any, source: str, target: str) -> interlingua.Translation:
    return interlingua.translate_response(body, source=source, target=target)


def no_envelope(body: Any) -> None:
    text = json.dumps(body)
    assert MARK not in text, "signature envelope leaked into a request for a non-Gemini upstream"
    assert "thoughtSignature" not in text


# ---------------------------------------------------------------- the seed tool loop


def test_tool_loop_gemini_to_others() -> None:
    g1, g2, g3, g4 = (example(G, s) for s in ("1_request", "2_response", "3_request", "4_response"))
    c1, c2, c3, c4 = (example(C, s) for s in ("1_request", "2_response", "3_request", "4_response"))
    system = c1["messages"][0]["content"]
    user = c1["messages"][1]["content"]
    result = c3["messages"][3]["content"]
    for target in (A, C):
        t1 = req(g1, G, target, model="gemini-2.5-flash")
        assert t1.body["model"] == "gemini-2.5-flash"
        assert t1.body["tools"][0].get("name", t1.body["tools"][0].get("function", {}).get("name"))
        t3 = req(g3, G, target, model="gemini-2.5-flash")
        if target == C:
            msgs = t3.body["messages"]
            assert [m["role"] for m in msgs] == ["system", "user", "assistant", "tool"]
            assert msgs[0]["content"] == system and msgs[1]["content"] == user
            call = msgs[2]["tool_calls"][0]
            assert call["function"]["name"] == "get_plan_info"
            assert json.loads(call["function"]["arguments"]) == {"plan_code": "team"}
            assert msgs[3]["tool_call_id"] == call["id"]
            assert msgs[3]["content"] == result
            assert t1.body["tool_choice"] == "required"
        else:
            msgs = t3.body["messages"]
            assert t3.body["system"][0]["text"] == system
            assert [m["role"] for m in msgs] == ["user", "assistant", "user"]
            use = msgs[1]["content"][0]
            assert (use["type"], use["name"], use["input"]) == (
                "tool_use",
                "get_plan_info",
                {"plan_code": "team"},
            )
            res = msgs[2]["content"][0]
            assert res["tool_use_id"] == use["id"] and res["content"] == result
            assert t1.body["tool_choice"] == {"type": "any"}
        r2 = resp(g2, G, target).body
        r4 = resp(g4, G, target).body
        if target == C:
            m2 = r2["choices"][0]
            assert m2["finish_reason"] == "tool_calls"
            fn = m2["message"]["tool_calls"][0]["function"]
            assert (fn["name"], json.loads(fn["arguments"])) == (
                "get_plan_info",
                {"plan_code": "team"},
            )
            assert r4["choices"][0]["message"]["content"] == c4["choices"][0]["message"]["content"]
            assert r2["usage"]["prompt_tokens"] == c2["usage"]["prompt_tokens"]
        else:
            assert r2["stop_reason"] == "tool_use"
            assert r2["content"][0]["name"] == "get_plan_info"
            assert r2["content"][0]["input"] == {"plan_code": "team"}
            assert r4["content"][0]["text"] == c4["choices"][0]["message"]["content"]


@pytest.mark.parametrize("source", [A, C])
def test_tool_loop_others_to_gemini(source: str) -> None:
    g1, g3 = example(G, "1_request"), example(G, "3_request")
    t1 = req(example(source, "1_request"), source, G)
    assert "model" not in t1.body and "stream" not in t1.body
    assert t1.path is not None and t1.path.endswith(":generateContent")
    assert t1.body["systemInstruction"] == g1["systemInstruction"]
    assert t1.body["contents"] == g1["contents"]
    assert t1.body["tools"] == g1["tools"]
    t3 = req(example(source, "3_request"), source, G, stream=True)
    assert t3.path is not None and t3.path.endswith(":streamGenerateContent?alt=sse")
    contents = t3.body["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user"]
    fc = contents[1]["parts"][0]["functionCall"]
    assert (fc["name"], fc["args"]) == ("get_plan_info", {"plan_code": "team"})
    fr = contents[2]["parts"][0]["functionResponse"]
    assert fr["name"] == "get_plan_info" and fr["id"] == fc["id"]
    want = g3["contents"][2]["parts"][0]["functionResponse"]["response"]
    assert json.loads(fr["response"]["output"]) == want
    r2 = resp(example(source, "2_response"), source, G).body
    part = r2["candidates"][0]["content"]["parts"][0]["functionCall"]
    assert (part["name"], part["args"]) == ("get_plan_info", {"plan_code": "team"})
    assert r2["candidates"][0]["finishReason"] == "STOP"
    r4 = resp(example(source, "4_response"), source, G).body
    assert (
        r4["candidates"][0]["content"]["parts"][0]["text"]
        == example(G, "4_response")["candidates"][0]["content"]["parts"][0]["text"]
    )


def test_gemini_round_trip_through_chat_keeps_the_loop() -> None:
    g3 = example(G, "3_request")
    chat = req(g3, G, C, model="gemini-2.5-flash").body
    back = req(chat, C, G).body
    assert back["systemInstruction"] == g3["systemInstruction"]
    assert back["contents"][1] == g3["contents"][1]  # synthesised id omitted again
    fr = back["contents"][2]["parts"][0]["functionResponse"]
    assert fr["name"] == "get_plan_info" and "id" not in fr


def test_model_and_stream_keywords() -> None:
    g1 = example(G, "1_request")
    t = req(g1, G, A, model="gemini-2.5-pro", stream=True)
    assert t.body["model"] == "gemini-2.5-pro" and t.body["stream"] is True
    assert t.path is None
    t = req(g1, G, G, model="models/gemini-2.5-pro", stream=True)
    assert t.path == "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    assert t.body == g1
    t = req(example(C, "1_request"), C, G, model="gemini-2.5-pro", stream=False)
    assert t.path == "/v1beta/models/gemini-2.5-pro:generateContent"
    assert "model" not in t.body


@pytest.mark.parametrize(
    ("model", "segment"),
    [
        ("anthropic/claude-sonnet-4", "anthropic%2Fclaude-sonnet-4"),  # an OpenRouter name
        ("models/my model", "my%20model"),  # the prefix is left out, then the name quoted
        ("a:b?c", "a%3Ab%3Fc"),
    ],
)
def test_model_in_url_is_one_quoted_segment(model: str, segment: str) -> None:
    """The library's endpoint path and the gateway's upstream call name the same resource."""
    t = req(example(C, "1_request"), C, G, model=model, stream=False)
    assert t.path == f"/v1beta/models/{segment}:generateContent"
    http = http_spec(G)
    assert t.path == http.base_path + model_url(http, http.upstream_path, model)
    e = interlingua.translate_embeddings_request(
        {"model": model, "input": ["a"]}, source="openai_embeddings", target="gemini"
    )
    assert e.path == f"/v1beta/models/{segment}:batchEmbedContents"


# ---------------------------------------------------------------- ids


def _parallel(ids: tuple[str | None, str | None], answer_order: tuple[int, int]) -> dict[str, Any]:
    calls = []
    for city, cid in zip(("Paris", "Rome"), ids, strict=True):
        fc: dict[str, Any] = {"name": "get_weather", "args": {"city": city}}
        if cid:
            fc["id"] = cid
        calls.append({"functionCall": fc})
    results = []
    for i in answer_order:
        fr: dict[str, Any] = {
            "name": "get_weather",
            "response": {"output": f"sunny in {('Paris', 'Rome')[i]}"},
        }
        if ids[i]:
            fr["id"] = ids[i]
        results.append({"functionResponse": fr})
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "weather in Paris and Rome?"}]},
            {"role": "model", "parts": calls},
            {"role": "user", "parts": results},
        ]
    }


@pytest.mark.parametrize("target", [A, C])
def test_parallel_calls_to_one_function_without_ids(target: str) -> None:
    body = _parallel((None, None), (0, 1))
    out = req(body, G, target, model="gemini-2.5-flash").body
    if target == A:
        uses = [b for b in out["messages"][1]["content"] if b["type"] == "tool_use"]
        results = out["messages"][2]["content"]
        pairs = [(r["tool_use_id"], r["content"]) for r in results]
        by_id = {u["id"]: u["input"]["city"] for u in uses}
    else:
        calls = out["messages"][1]["tool_calls"]
        pairs = [(m["tool_call_id"], m["content"]) for m in out["messages"][2:]]
        by_id = {c["id"]: json.loads(c["function"]["arguments"])["city"] for c in calls}
    assert len(by_id) == 2  # two distinct synthesised ids
    assert [by_id[cid] for cid, _ in pairs] == ["Paris", "Rome"]
    assert [text for _, text in pairs] == ["sunny in Paris", "sunny in Rome"]
    # and back to Gemini: no ids invented on the wire, order kept
    assert req(out, target, G).body["contents"] == body["contents"]


def test_parallel_calls_with_gemini3_ids_match_by_id() -> None:
    body = _parallel(("c-1", "c-2"), (1, 0))  # answered in the other order
    out = req(body, G, C, model="gemini-3-pro").body
    pairs = {m["tool_call_id"]: m["content"] for m in out["messages"][2:]}
    assert pairs == {"c-1": "sunny in Paris", "c-2": "sunny in Rome"}
    assert req(body, G, G).body == body


# ---------------------------------------------------------------- thoughtSignature envelope

SIG = "CiMBjz1rX25KieIB4d4AwFn8/WbsHTRNHBXso88+PtemwfsSfRA=="


def _gemini3_call_response() -> dict[str, Any]:
    return {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "Checking."},
                        {
                            "functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                            "thoughtSignature": SIG,
                        },
                    ],
                },
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-3-pro-preview",
        "responseId": "r1",
    }


def _anthropic_next(assistant: dict[str, Any]) -> dict[str, Any]:
    use = next(b for b in assistant["content"] if b["type"] == "tool_use")
    return {
        "model": "gemini-3-pro-preview",
        "max_tokens": 1000,
        "messages": [
            {"role": "user", "content": "weather in Paris?"},
            {"role": "assistant", "content": assistant["content"]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": use["id"], "content": "sunny"}],
            },
        ],
    }


def _chat_next(message: dict[str, Any]) -> dict[str, Any]:
    call = message["tool_calls"][0]
    return {
        "model": "gemini-3-pro-preview",
        "messages": [
            {"role": "user", "content": "weather in Paris?"},
            {k: v for k, v in message.items() if k in ("role", "content", "tool_calls")},
            {"role": "tool", "tool_call_id": call["id"], "content": "sunny"},
        ],
    }


def _responses_next(body: dict[str, Any]) -> dict[str, Any]:
    call = next(o for o in body["output"] if o["type"] == "function_call")
    return {
        "model": "gemini-3-pro-preview",
        "input": [
            {"role": "user", "content": "weather in Paris?"},
            *body["output"],
            {"type": "function_call_output", "call_id": call["call_id"], "output": "sunny"},
        ],
    }


def _next_request(client: str, wire: dict[str, Any]) -> dict[str, Any]:
    if client == A:
        return _anthropic_next(wire)
    if client == C:
        return _chat_next(wire["choices"][0]["message"])
    return _responses_next(wire)


def _clients() -> list[str]:
    from interlingua._protocols import available

    return [p for p in (A, C, R) if p in available()]


def _check_next_gemini_request(body: dict[str, Any]) -> None:
    model_turn = body["contents"][1]
    fc_part = next(p for p in model_turn["parts"] if "functionCall" in p)
    assert fc_part["thoughtSignature"] == SIG
    assert fc_part["functionCall"] == {"name": "get_weather", "args": {"city": "Paris"}}
    fr = body["contents"][2]["parts"][0]["functionResponse"]
    assert fr == {"name": "get_weather", "response": {"output": "sunny"}}
    assert MARK not in json.dumps(body)


@pytest.mark.parametrize("client", _clients())
def test_thought_signature_round_trip_through_a_client(client: str) -> None:
    first = resp(_gemini3_call_response(), G, client)
    assert not [loss for loss in first.losses if loss.feature == "reasoning_replay"]
    if client == A:
        use = next(b for b in first.body["content"] if b["type"] == "tool_use")
        assert MARK in use["id"] and unwrap_id(use["id"])[1] == SIG
        assert all(c.isalnum() or c in "_-" for c in use["id"])
    elif client == C:
        msg = first.body["choices"][0]["message"]
        assert unwrap_id(msg["tool_calls"][0]["id"])[1] == SIG
    else:
        call = next(o for o in first.body["output"] if o["type"] == "function_call")
        assert unwrap_id(call["call_id"])[1] == SIG
    nxt = _next_request(client, first.body)
    _check_next_gemini_request(req(nxt, client, G).body)
    # the same conversation sent to a non-Gemini upstream: no envelope, no signature
    for upstream in [p for p in _clients() if p != G]:
        t = req(nxt, client, upstream)
        no_envelope(t.body)
        assert any(loss.feature == "reasoning_replay" for loss in t.losses)


@pytest.mark.parametrize("client", _clients())
def test_thought_signature_round_trip_through_a_streaming_client(client: str) -> None:
    chunk = _gemini3_call_response()
    sse = b"data: " + orjson.dumps(chunk) + b"\r\n\r\n"
    out = b"".join(interlingua.translate_stream([sse], source=G, target=client))
    r = accumulate(decode_stream(out, client))
    call = next(p for p in r.parts if type(p) is ToolCallPart)
    assert unwrap_id(call.id)[1] == SIG
    ctx = Ctx(client, client)
    wire = encode_response(r, client, ctx)
    nxt = _next_request(client, wire)
    _check_next_gemini_request(req(nxt, client, G).body)
    for upstream in _clients():
        no_envelope(req(nxt, client, upstream).body)


def test_signature_on_gemini_request_never_reaches_other_upstreams() -> None:
    path = CLI / "tool_loop_thought_signature"
    if not path.is_dir():
        pytest.skip("../shared/fixtures is absent")
    body = json.loads(next(path.glob("002_*.json")).read_text())["body"]
    assert "thoughtSignature" in json.dumps(body)
    for target in (A, C):
        t = req(body, G, target, model="gemini-2.5-pro")
        no_envelope(t.body)
        assert any(loss.feature == "reasoning_replay" for loss in t.losses)
    assert req(body, G, G).body == body


def test_signature_on_text_part_is_attached_to_it() -> None:
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": [{"text": "hello", "thoughtSignature": SIG}]},
            {"role": "user", "parts": [{"text": "again"}]},
        ]
    }
    r = decode_request(body, G)
    parts = r.messages[1].parts
    assert type(parts[0]) is ReasoningPart and parts[0].signature == SIG
    assert type(parts[1]) is TextPart
    assert req(body, G, G).body == body
    no_envelope(req(body, G, A, model="m").body)


# ---------------------------------------------------------------- responses


def _candidate(parts: list[Any], reason: str) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": reason}],
        "usageMetadata": {
            "promptTokenCount": 100,
            "cachedContentTokenCount": 40,
            "candidatesTokenCount": 10,
            "thoughtsTokenCount": 30,
            "totalTokenCount": 140,
        },
        "modelVersion": "gemini-2.5-pro",
        "responseId": "r",
    }


@pytest.mark.parametrize(
    ("reason", "parts", "unified", "chat", "anthropic"),
    [
        ("STOP", [{"text": "ok"}], "stop", "stop", "end_turn"),
        (
            "STOP",
            [{"functionCall": {"name": "f", "args": {}}}],
            "tool_calls",
            "tool_calls",
            "tool_use",
        ),
        ("MAX_TOKENS", [{"text": "o"}], "length", "length", "max_tokens"),
        ("SAFETY", [], "content_filter", "content_filter", "refusal"),
        ("RECITATION", [], "content_filter", "content_filter", "refusal"),
        ("MALFORMED_FUNCTION_CALL", [], "content_filter", "content_filter", "refusal"),
    ],
)
def test_finish_reasons(
    reason: str, parts: list[Any], unified: str, chat: str, anthropic: str
) -> None:
    body = _candidate(parts, reason)
    r = decode_response(body, G)
    assert r.finish is not None and (r.finish.unified, r.finish.raw) == (unified, reason)
    assert resp(body, G, C).body["choices"][0]["finish_reason"] == chat
    assert resp(body, G, A).body["stop_reason"] == anthropic
    assert resp(body, G, G).body == body


def test_a_numeric_finish_reason_is_one_rule_in_responses_and_streams() -> None:
    """finishReason sent as a proto enum number (recorded from a Go client) goes back to Gemini
    as that number and elsewhere as the reason, by the finish rule both paths share."""
    path = RECORDED / "gemini/tmc-langchaingo-cassettes/TestGoogleAICall/00.response.json"
    need_fixtures()
    body = json.loads(path.read_text())
    assert body["candidates"][0]["finishReason"] == 1
    said = resp(body, G, G).body["candidates"][0]["finishReason"]
    wire = b"data: " + orjson.dumps(body) + b"\r\n\r\n"
    back = b"".join(interlingua.translate_stream([wire], source=G, target=G))
    [streamed] = [
        c["finishReason"]
        for _, data in sse_payloads(back)
        for c in json.loads(data)["candidates"]
        if "finishReason" in c
    ]
    assert said == streamed == 1
    assert resp(body, G, C).body["choices"][0]["finish_reason"] == "stop"
    chat = b"".join(interlingua.translate_stream([wire], source=G, target=C))
    reasons = [
        ch["finish_reason"]
        for _, data in sse_payloads(chat)
        if data != "[DONE]"
        for ch in json.loads(data)["choices"]
        if ch.get("finish_reason")
    ]
    assert reasons == ["stop"]


def test_usage_arithmetic() -> None:
    body = _candidate([{"text": "ok"}], "STOP")
    u = decode_response(body, G).usage
    assert u is not None
    assert (u.input_total, u.input_cache_read, u.output_total, u.output_reasoning) == (
        100,
        40,
        40,
        30,
    )
    a = resp(body, G, A).body["usage"]
    assert a["input_tokens"] + a["cache_read_input_tokens"] == 100 and a["output_tokens"] == 40
    c = resp(body, G, C).body["usage"]
    assert c["prompt_tokens"] == 100 and c["completion_tokens"] == 40
    assert c["completion_tokens_details"]["reasoning_tokens"] == 30
    back = resp(resp(body, G, C).body, C, G).body["usageMetadata"]
    assert back["candidatesTokenCount"] == 10 and back["thoughtsTokenCount"] == 30


def test_prompt_feedback_block() -> None:
    body = {
        "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
        "usageMetadata": {"promptTokenCount": 5, "totalTokenCount": 5},
        "modelVersion": "gemini-2.5-pro",
    }
    r = decode_response(body, G)
    assert r.finish is not None
    assert (r.finish.unified, r.finish.raw) == ("content_filter", "PROHIBITED_CONTENT")
    assert resp(body, G, C).body["choices"][0]["finish_reason"] == "content_filter"
    assert resp(body, G, G).body == body


# ---------------------------------------------------------------- schemas and config


def test_openapi_parameters_become_json_schema() -> None:
    body = {
        "contents": [{"role": "user", "parts": [{"text": "x"}]}],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "f",
                        "parameters": {
                            "type": "OBJECT",
                            "properties": {"a": {"type": "STRING", "nullable": True}},
                            "required": ["a"],
                        },
                    }
                ]
            }
        ],
    }
    out = req(body, G, A, model="m").body
    assert out["tools"][0]["input_schema"] == {
        "type": "object",
        "properties": {"a": {"type": ["string", "null"]}},
        "required": ["a"],
    }
    assert req(body, G, G).body == body


def test_a_declaration_with_both_schemas_keeps_the_json_schema_and_says_so() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    decl = {
        "name": "get_weather",
        "description": "Weather by city",
        "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}},
        "parametersJsonSchema": schema,
    }
    body = {
        "contents": [{"role": "user", "parts": [{"text": "Weather in Paris?"}]}],
        "tools": [{"functionDeclarations": [decl]}],
    }
    kept = {k: v for k, v in decl.items() if k != "parameters"}
    for target in (G, A, C, R, "cohere_v2"):
        t = req(body, G, target, model="m")
        lost = [lo for lo in t.losses if lo.feature == "tool_spec"]
        assert [(lo.path, lo.what) for lo in lost] == [
            ("tools[0].functionDeclarations[0].parameters",
             "parameters dropped: parametersJsonSchema given too"),
        ], target  # fmt: skip
        assert "parametersJsonSchema" in lost[0].why
    assert req(body, G, G).body["tools"] == [{"functionDeclarations": [kept]}]
    assert req(body, G, A, model="m").body["tools"][0]["input_schema"] == schema


def test_full_json_schema_goes_to_parameters_json_schema() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"p": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
        "propertyNames": {"pattern": "^[a-z]+$"},
        "additionalProperties": False,
    }
    body = {
        "model": "m",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "x"}],
        "tools": [{"name": "f", "input_schema": schema}],
    }
    decl = req(body, A, G).body["tools"][0]["functionDeclarations"][0]
    assert decl == {"name": "f", "parametersJsonSchema": schema}


def test_generation_config_and_tool_config() -> None:
    body = {
        "contents": [{"role": "user", "parts": [{"text": "x"}]}],
        "tools": [
            {"functionDeclarations": [{"name": "f", "parametersJsonSchema": {"type": "object"}}]}
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["f"]}},
        "generationConfig": {
            "maxOutputTokens": 3000,
            "temperature": 0.2,
            "topP": 0.9,
            "topK": 20,
            "stopSequences": ["END"],
            "candidateCount": 1,
            "responseMimeType": "application/json",
            "responseJsonSchema": {"type": "object"},
            "thinkingConfig": {"thinkingBudget": 1024, "includeThoughts": True},
        },
    }
    assert req(body, G, G).body == body
    t = req(body, G, A, model="m")
    a = t.body
    assert (a["max_tokens"], a["temperature"], a["top_p"], a["top_k"]) == (3000, 0.2, 0.9, 20)
    assert a["stop_sequences"] == ["END"]
    assert a["tool_choice"] == {"type": "tool", "name": "f"}
    assert a["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert any(loss.path == "generationConfig.candidateCount" for loss in t.losses)
    c = req(body, G, C, model="m").body
    assert c["response_format"]["json_schema"]["schema"] == {"type": "object"}
    assert c["tool_choice"] == {"type": "function", "function": {"name": "f"}}
    back = req(c, C, G).body["toolConfig"]
    assert back == {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["f"]}}
    for mode, chat in (("AUTO", "auto"), ("NONE", "none"), ("ANY", "required")):
        b = {**body, "toolConfig": {"functionCallingConfig": {"mode": mode}}}
        assert req(b, G, C, model="m").body["tool_choice"] == chat
        assert req({**c, "tool_choice": chat}, C, G).body["toolConfig"] == b["toolConfig"]


def test_tools_items_hosted_and_empty_list() -> None:
    """pydantic-ai's request with a hosted tool beside a function: the tools items come back to
    Gemini as they came (the tool_entries row, the tools transform), the function alone goes to
    Chat (the hosted tool reported); ``tools: []`` goes back to Gemini, as Chat's does to Chat."""
    rel = "test_structured_output/test_function_tools_with_builtin_tools/00.request.json"
    path = need_fixtures() / "recorded/gemini/pydantic-ai-cassettes" / rel
    body = json.loads(path.read_text())
    assert req(body, G, G).body == body
    t = req(body, G, C, model="m")
    assert [tool["function"]["name"] for tool in t.body["tools"]] == ["calculator"]
    assert [(loss.path, loss.feature) for loss in t.losses if loss.feature == "hosted_tools"] == [
        ("tools[0]", "hosted_tools")
    ]
    back = req(t.body, C, G).body["tools"]
    assert [list(item) for item in back] == [["functionDeclarations"]]
    empty = {**body, "tools": []}
    assert req(empty, G, G).body == empty
    assert "tools" not in req(empty, G, C, model="m").body


def test_body_model_and_empty_generation_config_go_back_to_gemini_alone() -> None:
    """The model is in the URL, but some clients send it in the body too: read (the model of a
    request to another protocol), written back to Gemini alone (request_fields same_only row);
    pydantic-ai's ``generationConfig: {}`` comes back empty too (an empty object of the rows)."""
    rel = "test_google/test_google_model_image_url_input/01.request.json"
    body = json.loads((need_fixtures() / "recorded/gemini/pydantic-ai-cassettes" / rel).read_text())
    assert body["generationConfig"] == {}
    sent = {**body, "model": "gemini-2.5-flash"}
    for b in (body, sent):
        assert req(b, G, G).body == b
    chat = req(sent, G, C).body
    assert chat["model"] == "gemini-2.5-flash" and "generationConfig" not in chat
    back = req(chat, C, G).body
    assert "model" not in back and "generationConfig" not in back


def test_snake_case_generation_config_and_tool_config_are_read() -> None:
    """The API takes generation_config / tool_config in snake_case (snake_case_keys row): read,
    not reported lost, and written back to Gemini as they came."""
    body = {
        "contents": [{"role": "user", "parts": [{"text": "x"}]}],
        "tools": [{"function_declarations": [{"name": "f"}]}],
        "tool_config": {
            "function_calling_config": {"mode": "ANY", "allowed_function_names": ["f"]}
        },
        "generation_config": {
            "max_output_tokens": 3000,
            "temperature": 0.2,
            "stop_sequences": ["END"],
            "response_modalities": ["TEXT"],
            "response_json_schema": {"type": "object", "properties": {"a_b": {}}},
            "response_mime_type": "application/json",
            "thinking_config": {"thinking_budget": 1024},
        },
    }
    assert req(body, G, G).body == body
    t = req(body, G, A, model="m")
    a = t.body
    assert (a["max_tokens"], a["temperature"], a["stop_sequences"]) == (3000, 0.2, ["END"])
    assert a["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert a["tool_choice"] == {"type": "tool", "name": "f"}
    assert [loss.path for loss in t.losses if loss.feature == "extensions"] == [
        "generationConfig.responseModalities"
    ]
    c = req(body, G, C, model="m").body
    assert c["response_format"]["json_schema"]["schema"] == {
        "type": "object",
        "properties": {"a_b": {}},
    }
    mixed = {**body, "generationConfig": {"temperature": 0.5}}  # both spellings: the camelCase
    assert req(mixed, G, G).body == mixed
    assert req(mixed, G, A, model="m").body["temperature"] == 0.5


# ---------------------------------------------------------------- errors

STATUSES = [
    ("INVALID_ARGUMENT", 400, "invalid_request_error", "invalid_request_error"),
    ("UNAUTHENTICATED", 401, "authentication_error", "authentication_error"),
    ("PERMISSION_DENIED", 403, "permission_error", "permission_error"),
    ("NOT_FOUND", 404, "not_found_error", "not_found_error"),
    ("RESOURCE_EXHAUSTED", 429, "rate_limit_error", "rate_limit_error"),
    ("INTERNAL", 500, "api_error", "server_error"),
    ("UNAVAILABLE", 503, "overloaded_error", "server_error"),
    ("DEADLINE_EXCEEDED", 504, "timeout_error", "timeout"),
]


@pytest.mark.parametrize(("status", "code", "anthropic", "chat"), STATUSES)
def test_errors_both_ways(status: str, code: int, anthropic: str, chat: str) -> None:
    body = {"error": {"code": code, "message": "boom", "status": status}}
    s, a = interlingua.translate_error(code, body, source=G, target=A)
    assert a["error"]["type"] == anthropic and a["error"]["message"] == "boom"
    s, c = interlingua.translate_error(code, body, source=G, target=C)
    assert c["error"]["type"] == chat
    s, g = interlingua.translate_error(code, body, source=G, target=G)
    assert (s, g) == (code, body)
    s, back = interlingua.translate_error(s, a, source=A, target=G)
    assert back["error"]["status"] == status and back["error"]["code"] == s


def test_error_in_a_stream() -> None:
    sse = b'data: {"error": {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}}\r\n\r\n'
    out = b"".join(interlingua.translate_stream([sse], source=G, target=A))
    events = sse_payloads(out)
    assert json.loads(events[-1][1])["error"]["type"] == "rate_limit_error"
    back = b"".join(interlingua.translate_stream([out], source=A, target=G))
    err = json.loads(sse_payloads(back)[-1][1])["error"]
    assert err["status"] == "RESOURCE_EXHAUSTED" and err["code"] == 429


# ---------------------------------------------------------------- recorded traffic


def _index(kind: str) -> list[str]:
    index = RECORDED / "index.jsonl"
    if not index.is_file():
        return []
    out = []
    for line in index.read_text().splitlines():
        meta = json.loads(line)
        if meta["protocol"] == "gemini" and meta["kind"] == kind:
            out.append(meta["file"])
    return out


def _cli_requests() -> list[Path]:
    return sorted(CLI.glob("*/*.json")) if CLI.is_dir() else []


def _identity(body: Any, kind: str) -> Any:
    ctx = Ctx(G, G)
    if kind == "request":
        return encode_request(decode_request(body, G, ctx), G, ctx)
    return encode_response(decode_response(body, G, ctx), G, ctx)


@pytest.mark.parametrize("file", [f for f in _index("request") if f.endswith(".json")])
def test_recorded_request_identity_and_translation(file: str) -> None:
    body = json.loads((RECORDED / file).read_text())
    assert _identity(body, "request") == body
    for target in _clients():
        out = req(body, G, target, model="gemini-2.5-pro").body
        no_envelope(out)


@pytest.mark.parametrize("file", [f for f in _index("response") if f.endswith(".json")])
def test_recorded_response_identity_and_translation(file: str) -> None:
    body = json.loads((RECORDED / file).read_text())
    if "error" in body and "candidates" not in body:  # an error body indexed as a response:
        with pytest.raises(InvalidInput, match="candidates"):  # not an empty answer (issue 11)
            decode_response(body, G)
        return
    assert _identity(body, "response") == body
    for target in _clients():
        resp(body, G, target)


@pytest.mark.parametrize("path", _cli_requests(), ids=lambda p: f"{p.parent.name}/{p.name[:30]}")
def test_gemini_cli_captures(path: Path) -> None:
    body = json.loads(path.read_text())["body"]
    assert _identity(body, "request") == body
    model = path.name.split("models_")[1].split("_generate")[0].split("_streamGenerate")[0]
    for target in _clients():
        t = req(body, G, target, model=model)
        no_envelope(t.body)


def _stream_bytes(file: str) -> bytes:
    p = RECORDED / file
    if file.endswith(".chunks.txt"):
        lines = [x for x in p.read_text().splitlines() if x.strip()]
        return b"".join(b"data: " + x.encode() + b"\r\n\r\n" for x in lines)
    if file.endswith(".jsonarray.json"):  # Go SDK: one JSON array of chunks (not SSE)
        return b"".join(
            b"data: " + orjson.dumps(x) + b"\r\n\r\n" for x in json.loads(p.read_text())
        )
    return p.read_bytes()


@pytest.mark.parametrize("file", _index("stream"))
def test_recorded_streams_decode_and_translate(file: str) -> None:
    data = _stream_bytes(file)
    events = decode_stream(data, G)
    assert events[-1].ending == "completed"
    r = accumulate(events)
    assert r.finish is not None
    for target in [*_clients(), G]:
        out = b"".join(interlingua.translate_stream([data], source=G, target=target))
        again = accumulate(decode_stream(out, target))
        assert _canonical_view(again.parts) == _canonical_view(r.parts), target


def test_cli_streams_decode() -> None:
    if not CLI.is_dir():
        pytest.skip("../shared/fixtures is absent")
    for p in sorted(CLI.glob("*/*_resp.txt")):
        raw = p.read_bytes()
        if b"(SSE)" not in raw[:40]:  # a generateContent answer: one JSON body
            body = json.loads(raw.partition(b"\n")[2])
            assert _identity(body, "response") == body
            for target in _clients():
                resp(body, G, target)
            continue
        data = load_client_sse(p)
        assert b"\r\n" in data  # Gemini's CRLF line endings
        events = decode_stream(data, G)
        assert events[-1].ending == "completed", p
        for target in _clients():
            b"".join(interlingua.translate_stream([data], source=G, target=target))


def test_partial_args_are_assembled() -> None:
    need_fixtures()
    r = accumulate(
        decode_stream(
            _stream_bytes("gemini/vercel-ai/google-stream-tool-call-arguments.chunks.txt"), G
        )
    )
    calls = [(p.name, json.loads(p.arguments)) for p in r.parts if type(p) is ToolCallPart]
    assert calls == [
        ("getWeather", {"location": "Boston"}),
        ("getWeather", {"location": "San Francisco"}),
    ]
    assert r.finish is not None and r.finish.unified == "tool_calls"
    file = "gemini/vercel-ai/google-stream-tool-call-array-arguments-missing-terminal-function-call.chunks.txt"
    r = accumulate(decode_stream(_stream_bytes(file), G))
    (call,) = [p for p in r.parts if type(p) is ToolCallPart]
    ops = json.loads(call.arguments)["operations"]
    assert [o["itemid"] for o in ops] == ["apple_001", "banana_001"]
    assert ops[0] == {
        "action": "add",
        "description": "Fresh red apple",
        "itemid": "apple_001",
        "price": 0.5,
    }


def test_disconnected_stream_is_not_a_normal_stop() -> None:
    chunk = {"candidates": [{"content": {"role": "model", "parts": [{"text": "par"}]}}]}
    sse = b"data: " + orjson.dumps(chunk) + b"\r\n\r\n"
    events = decode_stream(sse, G)
    assert events[-1].ending == "disconnected"
    out = b"".join(interlingua.translate_stream([sse], source=G, target=C))
    assert b"[DONE]" not in out and b'"error"' in out


# ---------------------------------------------------------------- google-genai is the judge


def _genai_client(handler: Any) -> Any:
    from google import genai
    from google.genai import types

    return genai.Client(
        api_key="x",
        http_options=types.HttpOptions(
            base_url="http://test",
            httpx_client=httpx.Client(transport=httpx.MockTransport(handler)),
        ),
    )


def _genai_view(text: str | None, calls: Any) -> dict[str, Any]:
    return {"text": text or "", "calls": [(c.name, dict(c.args or {})) for c in calls or ()]}


def _object_or_empty(arguments: str) -> Any:
    """Gemini args are an object: invalid JSON from the model is sent as {}."""
    v = args_of(arguments)
    return v if type(v) is dict else {}


def _canonical_view(parts: list[Any]) -> dict[str, Any]:
    return {
        "text": "".join(p.text for p in parts if type(p) is TextPart),
        "calls": [
            (p.name, _object_or_empty(p.arguments)) for p in parts if type(p) is ToolCallPart
        ],
    }


@pytest.mark.parametrize("source", [A, C])
@pytest.mark.parametrize("step", ["2_response", "4_response"])
def test_genai_generate_content_reads_translated_responses(source: str, step: str) -> None:
    body = example(source, step)
    out = resp(body, source, G).body
    client = _genai_client(lambda request: httpx.Response(200, json=out))
    r = client.models.generate_content(model="gemini-2.5-pro", contents="x")
    want = _canonical_view(decode_response(body, source).parts)
    parts = r.candidates[0].content.parts
    text = "".join(p.text for p in parts if p.text)
    assert _genai_view(text, r.function_calls) == want


def _recorded_other_streams() -> list[Any]:
    return recorded_streams("anthropic", "openai-chat")


@pytest.mark.parametrize("rs", _recorded_other_streams(), ids=lambda rs: rs.name[-60:])
def test_genai_generate_content_stream_reads_translated_streams(rs: Any) -> None:
    data = rs.sse()
    src = accumulate_or_none(data, rs.pid)
    if src is None:
        pytest.skip("the source stream does not complete")
    out = b"".join(interlingua.translate_stream([data], source=rs.pid, target=G))
    client = _genai_client(
        lambda request: httpx.Response(
            200, content=out, headers={"content-type": "text/event-stream"}
        )
    )
    text = ""
    calls: list[Any] = []
    for chunk in client.models.generate_content_stream(model="gemini-2.5-pro", contents="x"):
        for p in (chunk.candidates or [None])[0].content.parts or () if chunk.candidates else ():
            if p.text and not p.thought:
                text += p.text
        calls += chunk.function_calls or []
    got = _genai_view(text, calls)
    assert got == _canonical_view(src.parts)


def accumulate_or_none(data: bytes, pid: str) -> Any:
    try:
        return accumulate(decode_stream(data, pid))
    except interlingua.InterlinguaError:
        return None


# ---------------------------------------------------------------- bad input


def _mutations(seed: int, n: int) -> list[tuple[Any, str]]:
    """Deterministic random mutations (delete / retype) of the Gemini tool loop and a few
    hand-made bodies: decoding them raises InterlinguaError or works, never anything else."""
    import copy
    import random

    rnd = random.Random(seed)
    bodies: list[tuple[Any, str]] = [
        (example(G, s), s.split("_")[1])
        for s in ("1_request", "2_response", "3_request", "4_response")
    ]
    bodies += [(_parallel(("a", None), (0, 1)), "request"), (_gemini3_call_response(), "response")]
    values: list[Any] = [None, 0, 1.5, True, "s", [], {}, [{}], {"v": 1}, {"text": 1}]

    def paths(x: Any, pre: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        items = x.items() if type(x) is dict else enumerate(x) if type(x) is list else ()
        for k, v in items:
            out.append((*pre, k))
            out += paths(v, (*pre, k))
        return out

    cases = []
    for _ in range(n):
        body, kind = rnd.choice(bodies)
        body = copy.deepcopy(body)
        for _ in range(rnd.randint(1, 3)):
            ps = paths(body)
            if not ps:
                break
            p = rnd.choice(ps)
            parent = body
            for k in p[:-1]:
                parent = parent[k]
            if rnd.random() < 0.4:
                del parent[p[-1]]
            else:
                parent[p[-1]] = rnd.choice([*values, [parent[p[-1]]], {"v": parent[p[-1]]}])
        cases.append((body, kind))
    return cases


def test_mutated_gemini_payloads_raise_only_interlingua_errors() -> None:
    for body, kind in _mutations(7, 400):
        fn = interlingua.translate_request if kind == "request" else interlingua.translate_response
        for target in (A, C, G):
            with contextlib.suppress(interlingua.InterlinguaError):
                assert type(fn(body, source=G, target=target).body) is dict
        if kind == "response":
            sse = b"data: " + orjson.dumps(body) + b"\r\n\r\n"
            with contextlib.suppress(interlingua.InterlinguaError):
                b"".join(interlingua.translate_stream([sse], source=G, target=A))


# ---------------------------------------------------------------- the pieces on their own


def test_envelope_wrap_unwrap() -> None:
    from interlingua.transforms.call_id_envelope import wrap_id

    for sig in (SIG, "U1RVQlNJRw==", "a", "é/+="):
        wrapped = wrap_id("call_1", sig)
        assert all(c.isalnum() or c in "_-" for c in wrapped)
        assert unwrap_id(wrapped) == ("call_1", sig)
    assert unwrap_id("toolu_01") == ("toolu_01", None)
    assert unwrap_id("x" + MARK + "%%%") == ("x" + MARK + "%%%", None)  # not ours: unchanged


def test_call_ids_pair_by_id_then_name_and_order() -> None:
    from interlingua.transforms.call_ids import CallIds

    ids = CallIds()
    a, b, c = ids.call("f", None), ids.call("f", None), ids.call("g", "given")
    assert (a, b) == ("ilg_0", "ilg_1")
    assert ids.result("g", None) == "given"
    assert [ids.result("f", None), ids.result("f", None)] == [a, b]
    assert ids.result("f", None).startswith("ilg_")  # an answer without a call: a fresh id
    _ = c


def test_openapi_schema_conversion() -> None:
    from interlingua.transforms.structured import openapi_to_json_schema

    s = {
        "type": "OBJECT",
        "properties": {
            "xs": {"type": "ARRAY", "items": {"type": "INTEGER", "nullable": True}},
            "e": {"type": "STRING", "enum": ["a", "b"], "description": "d"},
        },
        "required": ["xs"],
    }
    assert openapi_to_json_schema(s) == {
        "type": "object",
        "properties": {
            "xs": {"type": "array", "items": {"type": ["integer", "null"]}},
            "e": {"type": "string", "enum": ["a", "b"], "description": "d"},
        },
        "required": ["xs"],
    }


def test_a_file_id_is_dropped_and_a_text_document_goes_inline() -> None:
    """Anthropic Files API ids cannot be resolved by Gemini: no part row writes an image or
    document with neither data nor URL (dropped, reported); a plain-text document is sent inline."""
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 256,
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "image",
                        "source": {"type": "file", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w"},
                    },
                    {
                        "type": "document",
                        "source": {
                            "type": "text",
                            "media_type": "text/plain",
                            "data": "Grass is green.",
                        },
                    },
                    {"type": "text", "text": "What colour is the grass in the picture?"},
                ],
            }
        ],
    }
    t = req(body, A, G)
    inline = {"mimeType": "text/plain", "data": "R3Jhc3MgaXMgZ3JlZW4u"}  # base64 of the text
    assert t.body["contents"][0]["parts"] == [
        {"inlineData": inline},
        {"text": "What colour is the grass in the picture?"},
    ]
    [lost] = [loss for loss in t.losses if loss.feature == "image"]
    assert (lost.path, lost.what) == ("messages[0].content[0]", "ImagePart dropped")
    assert lost.why.startswith("neither data nor url: gemini lossy")


def test_snake_case_parts_are_read_and_written_back() -> None:
    body = {
        "system_instruction": {"parts": [{"text": "be brief"}]},
        "tools": [
            {
                "function_declarations": [
                    {"name": "f", "parameters": {"type": "OBJECT", "properties": {"a_b": {}}}}
                ]
            }
        ],
        "contents": [
            {
                "role": "user",
                "parts": [{"file_data": {"file_uri": "gs://b/x.png", "mime_type": "image/png"}}],
            },
            {
                "role": "model",
                "parts": [
                    {"function_call": {"name": "f", "args": {"a_b": 1}}, "thought_signature": "s"}
                ],
            },
            {
                "role": "user",
                "parts": [{"function_response": {"name": "f", "response": {"x_y": 2}}}],
            },
        ],
    }
    assert req(body, G, G).body == body
    t = req(body, G, A, model="m").body
    assert t["system"] == [{"type": "text", "text": "be brief"}]
    assert t["tools"][0]["input_schema"] == {"type": "object", "properties": {"a_b": {}}}
    a = t["messages"]
    assert a[0]["content"][0]["source"] == {"type": "url", "url": "gs://b/x.png"}
    assert a[1]["content"][0]["input"] == {"a_b": 1}
    assert json.loads(a[2]["content"][0]["content"]) == {"x_y": 2}


def test_gemini_stream_encoder_emits_whole_calls_with_their_signature() -> None:
    sse = b"data: " + orjson.dumps(_gemini3_call_response()) + b"\r\n\r\n"
    out = b"".join(interlingua.translate_stream([sse], source=G, target=G))
    chunks = [json.loads(d) for _, d in sse_payloads(out)]
    parts = [p for ch in chunks for p in ch["candidates"][0]["content"]["parts"]]
    fc = next(p for p in parts if "functionCall" in p)
    assert fc == {
        "functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
        "thoughtSignature": SIG,
    }
    assert chunks[-1]["candidates"][0]["finishReason"] == "STOP"
    assert chunks[-1]["usageMetadata"]["promptTokenCount"] == 10


def test_cli_takes_model_and_stream(capsys: pytest.CaptureFixture[str]) -> None:
    from interlingua._cli import main

    src = str(EXAMPLES / "openai_chat.1_request.json")
    assert (
        main(["translate", "--from", C, "--to", G, "--model", "gemini-2.5-pro", "--stream", src])
        == 0
    )
    out, err = capsys.readouterr()
    assert "path: /v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse" in err
    assert json.loads(out)["contents"][0]["parts"][0]["text"].startswith("Consulte")


def _other_client_captures() -> list[tuple[Path, str]]:
    pids = {"claude-code": A, "codex": R}
    out = []
    for folder, pid in pids.items():
        root = FIXTURES / "clients" / folder
        if root.is_dir():
            out += [(p, pid) for p in sorted(root.glob("*/*.json"))]
    return out


@pytest.mark.parametrize(
    ("path", "pid"), _other_client_captures(), ids=lambda v: getattr(v, "name", v)[:40]
)
def test_other_clients_requests_translate_to_gemini(path: Path, pid: str) -> None:
    from interlingua._protocols import available

    if pid not in available():
        pytest.skip(f"{pid} is not available")
    body = json.loads(path.read_text())["body"]
    t = req(body, pid, G)
    assert t.path is not None and "model" not in t.body
    assert t.body["contents"]
    for p in t.body.get("tools", []):
        for decl in p.get("functionDeclarations", []):
            assert set(decl) <= {"name", "description", "parametersJsonSchema"}


def _recorded_other_responses() -> list[tuple[str, str]]:
    index = RECORDED / "index.jsonl"
    if not index.is_file():
        return []
    pids = {"anthropic": A, "openai-chat": C}
    out = []
    for line in index.read_text().splitlines():
        meta = json.loads(line)
        if (
            meta["kind"] == "response"
            and meta["protocol"] in pids
            and meta["file"].endswith(".json")
        ):
            out.append((meta["file"], pids[meta["protocol"]]))
    return out


def test_genai_generate_content_reads_translated_recorded_responses() -> None:
    cases = _recorded_other_responses()
    if not cases:
        pytest.skip("../shared/fixtures is absent")
    judged = 0
    for file, pid in cases:
        body = json.loads((RECORDED / file).read_text())
        try:
            src = decode_response(body, pid)
            out = resp(body, pid, G).body
        except interlingua.InterlinguaError:
            continue  # not a body of its protocol (the other tests say which)
        client = _genai_client(lambda request, out=out: httpx.Response(200, json=out))
        r = client.models.generate_content(model="gemini-2.5-pro", contents="x")
        parts = (
            r.candidates[0].content.parts if r.candidates and r.candidates[0].content else None
        ) or []
        text = "".join(p.text for p in parts if p.text and not p.thought)
        assert _genai_view(text, r.function_calls) == _canonical_view(src.parts), file
        judged += 1
    assert judged > len(cases) * 0.9


@pytest.mark.parametrize(("status", "code", "anthropic", "chat"), STATUSES)
def test_genai_raises_its_own_errors_for_translated_errors(
    status: str, code: int, anthropic: str, chat: str
) -> None:
    from google.genai import errors

    body = {"type": "error", "error": {"type": anthropic, "message": "boom"}}
    s, out = interlingua.translate_error(code, body, source=A, target=G)
    client = _genai_client(lambda request: httpx.Response(s, json=out))
    with pytest.raises(errors.APIError) as info:
        client.models.generate_content(model="gemini-2.5-pro", contents="x")
    assert info.value.code == code and info.value.status == status
    assert info.value.message == "boom"


# ---------------------------------------------------------------- the other SDKs read translated Gemini


@pytest.mark.parametrize("file", _index("stream"))
def test_sdks_read_translated_gemini_streams(file: str) -> None:
    from tests.stream_util import sdk_snapshot

    data = _stream_bytes(file)
    want = _canonical_view(accumulate(decode_stream(data, G)).parts)
    a = sdk_snapshot(b"".join(interlingua.translate_stream([data], source=G, target=A)), A)
    got_a = {
        "text": "".join(b.text for b in a.content if b.type == "text"),
        "calls": [(b.name, b.input) for b in a.content if b.type == "tool_use"],
    }
    assert got_a == want
    c = sdk_snapshot(b"".join(interlingua.translate_stream([data], source=G, target=C)), C)
    msg = c.choices[0].message
    got_c = {
        "text": msg.content or "",
        "calls": [
            (t.function.name, _object_or_empty(t.function.arguments)) for t in msg.tool_calls or ()
        ],
    }
    assert got_c == want


@pytest.mark.parametrize("file", [f for f in _index("response") if f.endswith(".json")])
def test_sdks_read_translated_gemini_responses(file: str) -> None:
    from tests.stream_util import mock_client

    body = json.loads((RECORDED / file).read_text())
    if "error" in body and "candidates" not in body:
        pytest.skip("an error body indexed as a response (refused: see the identity test)")
    want = _canonical_view(decode_response(body, G).parts)
    a_body = orjson.dumps(resp(body, G, A).body)
    m = mock_client("anthropic", a_body, content_type="application/json").messages.create(
        model="m", max_tokens=8, messages=[{"role": "user", "content": "x"}]
    )
    assert {
        "text": "".join(b.text for b in m.content if b.type == "text"),
        "calls": [(b.name, b.input) for b in m.content if b.type == "tool_use"],
    } == want
    c_body = orjson.dumps(resp(body, G, C).body)
    cc = mock_client("openai", c_body, content_type="application/json").chat.completions.create(
        model="m", messages=[{"role": "user", "content": "x"}]
    )
    msg = cc.choices[0].message
    content: Any = msg.content  # an image output makes it a list of parts (see test_sdk_judges)
    if type(content) is list:
        content = "".join(x["text"] for x in content if x.get("type") == "text")
    assert {
        "text": content or "",
        "calls": [
            (t.function.name, _object_or_empty(t.function.arguments)) for t in msg.tool_calls or ()
        ],
    } == want


def test_gemini_client_with_an_anthropic_upstream_keeps_the_ids() -> None:
    """A Gemini client echoes the ids our Gemini stream gave its calls; the next request maps
    them back to the upstream's tool_use ids."""
    sse = b"".join(
        b"event: " + t.encode() + b"\ndata: " + orjson.dumps(d) + b"\n\n"
        for t, d in [
            (
                "message_start",
                {
                    "type": "message_start",
                    "message": {
                        "id": "msg_1",
                        "type": "message",
                        "role": "assistant",
                        "model": "claude",
                        "content": [],
                        "stop_reason": None,
                        "usage": {"input_tokens": 5, "output_tokens": 0},
                    },
                },
            ),
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {
                        "type": "tool_use",
                        "id": "toolu_01",
                        "name": "get_weather",
                        "input": {},
                    },
                },
            ),
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "input_json_delta", "partial_json": '{"city": "Paris"}'},
                },
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "tool_use"},
                    "usage": {"output_tokens": 7},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
    )
    out = b"".join(interlingua.translate_stream([sse], source=A, target=G))
    parts = [
        p for _, d in sse_payloads(out) for p in json.loads(d)["candidates"][0]["content"]["parts"]
    ]
    fc = next(p["functionCall"] for p in parts if "functionCall" in p)
    assert fc == {"name": "get_weather", "args": {"city": "Paris"}, "id": "toolu_01"}
    nxt = {
        "contents": [
            {"role": "user", "parts": [{"text": "weather?"}]},
            {"role": "model", "parts": [{"functionCall": fc}]},
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "id": fc["id"],
                            "name": fc["name"],
                            "response": {"output": "sunny"},
                        }
                    }
                ],
            },
        ]
    }
    a = req(nxt, G, A, model="claude").body["messages"]
    assert a[1]["content"][0]["id"] == "toolu_01"
    assert a[2]["content"][0] == {
        "type": "tool_result",
        "tool_use_id": "toolu_01",
        "content": "sunny",
    }


def test_a_chat_message_name_is_reported_not_dropped_silently() -> None:
    """Gemini contents have no name: the name is reported (as toward Anthropic), the rest kept."""
    body = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "hi", "name": "alice"},
            {"role": "assistant", "content": "hello", "name": "bot"},
        ],
    }
    t = req(body, C, G)
    assert [(loss.path, loss.feature) for loss in t.losses] == [
        ("messages[1].name", "roles"),
        ("messages[2].name", "roles"),
    ]
    assert t.body["contents"] == [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [{"text": "hello"}]},
    ]
    assert t.body["systemInstruction"] == {"parts": [{"text": "be brief"}]}


def test_candidate_keys_are_reported_alike_in_responses_and_streams() -> None:
    """One row (response_envelope.choice_quiet, the stream's quiet_fields by anchor) says which
    candidate keys tell another client nothing; any other key with a value is reported by the
    response path and the stream path alike, a key Google adds later included."""
    cand = {
        "content": {"role": "model", "parts": [{"text": "Paris."}]},
        "finishReason": "STOP",
        "index": 0,
        "safetyRatings": [{"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"}],
        "avgLogprobs": -0.1,
        "groundingMetadata": {"webSearchQueries": ["capital of France"]},
        "citationMetadata": {"citations": []},
        "futureField": {"x": 1},
    }
    body = {
        "candidates": [cand],
        "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 2, "totalTokenCount": 7},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "r1",
    }
    for target in ("anthropic_messages", "openai_chat", "openai_responses", "cohere_v2"):
        said = interlingua.translate_response(body, source="gemini", target=target).losses
        st = interlingua.StreamTranslator("gemini", target)
        st.feed(b"data: " + orjson.dumps(body) + b"\r\n\r\n")
        st.close()
        answered = {(lo.path.removeprefix("candidates[0]."), lo.what) for lo in said}
        streamed = {(lo.path.removeprefix("stream.candidates.0."), lo.what) for lo in st.losses}
        assert answered == streamed  # the same keys, in the same words
        assert {k for k, _ in answered} == {"groundingMetadata", "citationMetadata", "futureField"}
    same = interlingua.translate_response(body, source="gemini", target="gemini")
    assert same.losses == [] and same.body["candidates"][0] == cand


def test_more_candidates_go_back_to_gemini_only() -> None:
    """candidateCount > 1: the first candidate is the response (the walk Chat's choices share);
    the others go back to a Gemini client and are reported for any other."""
    second = {"content": {"role": "model", "parts": [{"text": "Lyon?"}]}, "finishReason": "STOP"}
    body = {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "Paris."}]}, "finishReason": "STOP"},
            {**second, "index": 1},
        ],
        "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 4, "totalTokenCount": 9},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "r2",
    }
    same = interlingua.translate_response(body, source="gemini", target="gemini")
    assert same.losses == [] and same.body == body
    t = interlingua.translate_response(body, source="gemini", target="openai_chat")
    assert [c["message"]["content"] for c in t.body["choices"]] == ["Paris."]
    assert [lo.path for lo in t.losses] == ["candidates"]


def test_tools_items_that_hold_no_tool_go_back_to_gemini() -> None:
    """A tools item with an empty ``functionDeclarations`` list, or an empty item, holds no tool:
    nothing to report toward another protocol, but back to Gemini it comes as it was, at its
    place among the items (an empty list beside a hosted tool too)."""
    decl = {"name": "f", "parametersJsonSchema": {"type": "object"}}
    body = {
        "contents": [{"role": "user", "parts": [{"text": "x"}]}],
        "tools": [
            {"functionDeclarations": []},
            {"functionDeclarations": [decl]},
            {},
            {"googleSearch": {}, "functionDeclarations": []},
        ],
    }
    assert req(body, G, G).body == body
    t = req(body, G, C, model="m")
    assert [tool["function"]["name"] for tool in t.body["tools"]] == ["f"]
    assert [(loss.path, loss.feature) for loss in t.losses] == [("tools[1]", "hosted_tools")]


@pytest.mark.parametrize("target", [A, C, R])
def test_unknown_candidate_content_key_is_reported_in_responses_as_in_streams(target: str) -> None:
    """A key of ``candidates[0].content`` with no canonical home (not role, not parts) goes back
    to Gemini as it came, and toward another protocol is reported as lost: by the response path
    as by the stream path (it was dropped in silence by the response path)."""
    content = {"role": "model", "parts": [{"text": "hi"}], "citationHint": {"uri": "x"}}
    body = {"candidates": [{"content": content, "finishReason": "STOP"}]}
    same = interlingua.translate_response(body, source=G, target=G)
    assert same.body["candidates"][0]["content"] == content and same.losses == []
    out = interlingua.translate_response(body, source=G, target=target)
    assert [(x.path, x.feature) for x in out.losses] == [
        ("candidates[0].content.citationHint", "extensions")
    ]
    t = interlingua.StreamTranslator(G, target)
    t.feed(b"data: " + orjson.dumps(body) + b"\n\n")
    t.close()
    assert any(x.path.endswith("content.citationHint") for x in t.losses)
