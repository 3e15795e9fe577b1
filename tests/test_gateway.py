"""The gateway with each official SDK as the client, in front of a test upstream of every protocol.

A full two-turn tool loop (the model calls a tool, the client sends the result back, the model
answers in text) runs for every (client protocol, upstream protocol) pair the gateway serves
(``servable()``: what ``interlingua.available()`` lists, streams included), streamed and not,
with the official SDK of the client protocol: ``anthropic`` (messages.create, messages.stream),
``openai`` (chat.completions.create/.stream, responses.create/.stream) and ``google-genai``
(generate_content, generate_content_stream). Both servers run on free ports in background
threads (tests/gateway_upstream.py)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from interlingua.gateway.app import servable as available  # noqa: E402

from tests import gateway_upstream as gu  # noqa: E402
from tests.gateway_upstream import (  # noqa: E402
    INBOUND_KEY,
    MAPPED_MODEL,
    UPSTREAM_KEY,
    Stack,
    answer_text,
    running_stack,
)

RESULT = "21 C and sunny"
QUESTION = "What is the weather in Paris?"
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    with running_stack() as s:
        yield s


# ---------------------------------------------------------------- client paths, per protocol


def anthropic_client(stack: Stack, key: str = INBOUND_KEY) -> Any:
    return gu.anthropic_client(stack.url, key)


def openai_client(stack: Stack, key: str = INBOUND_KEY) -> Any:
    return gu.openai_client(stack.url, key)


def anthropic_loop(stack: Stack, model: str, stream: bool) -> str:
    client = anthropic_client(stack)
    tools = [{"name": "get_weather", "description": "Weather in a city", "input_schema": SCHEMA}]
    messages: list[Any] = [{"role": "user", "content": QUESTION}]

    def turn() -> Any:
        kw = {"model": model, "max_tokens": 256, "messages": messages, "tools": tools}
        if stream:
            with client.messages.stream(**kw) as s:
                return s.get_final_message()
        return client.messages.create(**kw)

    first = turn()
    assert first.stop_reason == "tool_use"
    calls = [b for b in first.content if b.type == "tool_use"]
    assert calls and all(c.id for c in calls)
    messages.append({"role": "assistant", "content": [b.to_dict() for b in first.content]})
    messages.append(
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": c.id, "content": RESULT} for c in calls
            ],
        }
    )
    second = turn()
    assert second.stop_reason == "end_turn"
    assert second.usage.output_tokens > 0
    return "".join(b.text for b in second.content if b.type == "text")


def openai_chat_loop(stack: Stack, model: str, stream: bool) -> str:
    client = openai_client(stack)
    tools = [
        {
            "type": "function",
            "function": {"name": "get_weather", "description": "Weather", "parameters": SCHEMA},
        }
    ]
    messages: list[Any] = [{"role": "user", "content": QUESTION}]

    def turn() -> Any:
        kw = {"model": model, "messages": messages, "tools": tools}
        if stream:
            with client.chat.completions.stream(**kw) as s:
                return s.get_final_completion()
        return client.chat.completions.create(**kw)

    first = turn()
    choice = first.choices[0]
    assert choice.finish_reason == "tool_calls"
    calls = choice.message.tool_calls
    assert calls and all(c.id for c in calls)
    messages.append(
        {
            "role": "assistant",
            "content": choice.message.content,
            "tool_calls": [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.function.name, "arguments": c.function.arguments},
                }
                for c in calls
            ],
        }
    )
    messages += [{"role": "tool", "tool_call_id": c.id, "content": RESULT} for c in calls]
    second = turn()
    assert second.choices[0].finish_reason == "stop"
    return str(second.choices[0].message.content)


def openai_responses_loop(stack: Stack, model: str, stream: bool) -> str:
    client = openai_client(stack)
    tools = [
        {"type": "function", "name": "get_weather", "description": "Weather", "parameters": SCHEMA}
    ]
    items: list[Any] = [{"role": "user", "content": QUESTION}]

    def turn() -> Any:
        kw = {"model": model, "input": items, "tools": tools}
        if stream:
            with client.responses.stream(**kw) as s:
                return s.get_final_response()
        return client.responses.create(**kw)

    first = turn()
    calls = [o for o in first.output if o.type == "function_call"]
    assert calls and all(c.call_id for c in calls)
    items += [o.to_dict() for o in first.output]
    items += [
        {"type": "function_call_output", "call_id": c.call_id, "output": RESULT} for c in calls
    ]
    second = turn()
    assert second.status == "completed"
    assert not [o for o in second.output if o.type == "function_call"]
    return str(second.output_text)


def gemini_client(stack: Stack) -> Any:
    from google import genai
    from google.genai import types

    opts = types.HttpOptions(
        base_url=stack.url, timeout=10_000, retry_options=types.HttpRetryOptions(attempts=1)
    )
    return genai.Client(api_key=INBOUND_KEY, http_options=opts)


def gemini_loop(stack: Stack, model: str, stream: bool) -> str:
    from google.genai import types

    client = gemini_client(stack)
    decl = types.FunctionDeclaration(
        name="get_weather", description="Weather", parameters_json_schema=SCHEMA
    )
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[decl])],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    contents: list[Any] = [types.Content(role="user", parts=[types.Part(text=QUESTION)])]

    def turn() -> tuple[list[Any], Any]:
        if stream:
            chunks = list(
                client.models.generate_content_stream(model=model, contents=contents, config=config)
            )
        else:
            chunks = [client.models.generate_content(model=model, contents=contents, config=config)]
        cands = [c.candidates[0] for c in chunks if c.candidates]
        parts = [p for c in cands if c.content and c.content.parts for p in c.content.parts]
        finish = next((c.finish_reason for c in reversed(cands) if c.finish_reason), None)
        return parts, finish

    parts, finish = turn()
    calls = [p.function_call for p in parts if p.function_call]
    assert calls, parts
    contents.append(types.Content(role="model", parts=parts))
    answers = [
        types.Part(
            function_response=types.FunctionResponse(
                id=c.id, name=c.name, response={"result": RESULT}
            )
        )
        for c in calls
    ]
    contents.append(types.Content(role="user", parts=answers))
    parts, finish = turn()
    assert finish == types.FinishReason.STOP
    assert not [p for p in parts if p.function_call]
    return "".join(p.text for p in parts if p.text)


CLIENT_LOOPS = {
    "anthropic_messages": anthropic_loop,
    "openai_chat": openai_chat_loop,
    "openai_responses": openai_responses_loop,
    "gemini": gemini_loop,
}
PAIRS = [(i, u) for i in available() for u in available()]


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize("inbound,upstream", PAIRS, ids=[f"{i}->{u}" for i, u in PAIRS])
def test_tool_loop(stack: Stack, inbound: str, upstream: str, stream: bool) -> None:
    loop = CLIENT_LOOPS.get(inbound)
    if loop is None:
        pytest.skip(f"no client path written for {inbound}")
    stack.need(inbound, upstream)
    before = len(stack.state.requests)
    text = loop(stack, f"{upstream}--tool-loop", stream)
    assert text.startswith(answer_text("")) and RESULT in text  # gemini sends {"result": ...}
    seen = stack.state.requests[before:]
    assert [s.protocol for s in seen] == [upstream, upstream]
    for s in seen:  # the model map and the upstream's auth were applied
        assert s.body.get("model", MAPPED_MODEL) == MAPPED_MODEL or MAPPED_MODEL in s.path
        assert UPSTREAM_KEY in " ".join(s.headers.values())
        assert INBOUND_KEY not in " ".join(s.headers.values())
        assert s.headers.get("x-extra") == "yes"


def test_tool_loop_scripted_first_turn(stack: Stack) -> None:
    """The scripted first turn (not the recorded one) for the pairs with a recording."""
    stack.state.use_recorded = False
    try:
        for inbound, upstream in PAIRS:
            loop = CLIENT_LOOPS.get(inbound)
            if loop is not None and inbound in stack.protocols and upstream in stack.protocols:
                for stream in (False, True):
                    assert RESULT in loop(stack, f"{upstream}--tool-loop", stream)
    finally:
        stack.state.use_recorded = True


def test_upstream_auth_headers(stack: Stack) -> None:
    want = {
        "anthropic_messages": ("x-api-key", UPSTREAM_KEY),
        "openai_chat": ("authorization", f"Bearer {UPSTREAM_KEY}"),
        "openai_responses": ("authorization", f"Bearer {UPSTREAM_KEY}"),
        "gemini": ("x-goog-api-key", UPSTREAM_KEY),
        "cohere_v2": ("authorization", f"Bearer {UPSTREAM_KEY}"),
    }
    stack.need("anthropic_messages")
    for upstream in stack.protocols:
        before = len(stack.state.requests)
        anthropic_loop(stack, f"{upstream}--tool-loop", False)
        for s in stack.state.requests[before:]:
            name, value = want[upstream]
            assert s.headers[name] == value
            if upstream == "anthropic_messages":
                assert s.headers["anthropic-version"] == "2023-06-01"


def test_count_tokens(stack: Stack) -> None:
    client = anthropic_client(stack)
    msgs = [{"role": "user", "content": QUESTION}]
    if "anthropic_messages" in available():  # the upstream's own count
        r = client.messages.count_tokens(model="anthropic_messages--tool-loop", messages=msgs)
        assert r.input_tokens == 42
        assert stack.state.requests[-1].body["model"] == MAPPED_MODEL
    r = client.messages.count_tokens(model="openai_chat--tool-loop", messages=msgs)
    assert 0 < r.input_tokens < 100  # the estimate: len(json) / 4
    if "gemini" in stack.protocols:  # Gemini's countTokens: the same estimate
        g = gemini_client(stack)
        assert (
            g.models.count_tokens(model="x--tool-loop", contents=QUESTION).total_tokens or 0
        ) > 0
        h = {"x-goog-api-key": INBOUND_KEY}
        r = httpx.post(stack.url + "/v1beta/models/m:nope", json={}, headers=h)
        assert r.status_code == 404 and r.json()["error"]["status"] == "NOT_FOUND"


def test_models_and_health(stack: Stack) -> None:
    ids = [m.id for m in anthropic_client(stack).models.list()]
    assert MAPPED_MODEL in ids
    ids = [m.id for m in openai_client(stack).models.list()]
    assert MAPPED_MODEL in ids
    r = httpx.get(stack.url + "/healthz")
    assert r.status_code == 200 and r.json()["protocols"] == stack.protocols
    if "gemini" in stack.protocols:  # Gemini's list, with the key as ?key= (spec: http.auth.query)
        r = httpx.get(stack.url + "/v1beta/models", params={"key": INBOUND_KEY})
        assert r.status_code == 200
        (m,) = [m for m in r.json()["models"] if m["name"] == f"models/{MAPPED_MODEL}"]
        assert m["supportedGenerationMethods"] == ["generateContent", "streamGenerateContent"]


def test_model_listing_merges_the_protocols_sharing_a_path() -> None:
    from interlingua._protocols import protocol
    from interlingua.gateway.app import model_listing

    shared = [protocol(p).HTTP.models for p in ("anthropic_messages", "openai_chat")]
    body = model_listing(shared, ["a", "b"])
    assert body["object"] == "list" and body["has_more"] is False
    assert (body["first_id"], body["last_id"]) == ("a", "b")
    assert body["data"][1] == {
        "id": "b",
        "type": "model",
        "created_at": "1970-01-01T00:00:00Z",
        "display_name": "b",
        "object": "model",
        "created": 0,
        "owned_by": "interlingua",
    }
    assert model_listing(shared, [])["first_id"] is None


def test_bare_paths_and_beta_query(stack: Stack) -> None:
    body = {
        "model": "openai_chat--tool-loop",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": QUESTION}],
    }
    h = {"x-api-key": INBOUND_KEY}
    for path in ("/v1/messages?beta=true", "/messages"):
        r = httpx.post(stack.url + path, json=body, headers=h)
        assert r.status_code == 200, r.text
        assert r.json()["stop_reason"] == "tool_use"
        assert r.headers["x-interlingua-request-id"].startswith("req_")
    chat = {"model": "anthropic_messages--tool-loop", "messages": body["messages"]}
    r = httpx.post(stack.url + "/chat/completions", json=chat, headers=h)
    assert r.status_code == 200, r.text
    assert r.json()["choices"][0]["finish_reason"] == "tool_calls"
    # Anthropic needs max_tokens: the default sent is a reported loss
    assert r.headers["x-interlingua-losses"] == "1"


def access_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "interlingua.gateway.access"]


def test_access_log(stack: Stack, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="interlingua.gateway.access"):
        openai_chat_loop(stack, "anthropic_messages--tool-loop", True)
        anthropic_loop(stack, "openai_chat--tool-loop", False)
        deadline = time.monotonic() + 5  # a stream logs when it ends, just after its last byte
        while len(access_lines(caplog)) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
    lines = access_lines(caplog)
    assert len(lines) == 4
    text = "\n".join(lines)
    assert UPSTREAM_KEY not in text and INBOUND_KEY not in text
    assert QUESTION not in text and RESULT not in text
    recs = [json.loads(line) for line in lines]
    streamed = [r for r in recs if r["stream"]]
    assert streamed and all(r["ending"] == "completed" for r in streamed)
    for r in recs:
        assert r["request_id"].startswith("req_")
        assert r["status"] == 200 and r["upstream_model"] == MAPPED_MODEL
        assert r["model"].endswith("--tool-loop")
        assert r["latency_ms"] >= r["ttfb_ms"] >= 0
        assert r["inbound"] in available() and r["upstream"] in available()
    assert any(r["usage"] and r["usage"]["output_tokens"] > 0 for r in recs)


# ---------------------------------------------------------------- configuration and the CLI


def serve_args(*argv: str) -> Any:
    import argparse

    from interlingua.gateway.cli import add_serve_parser

    ap = argparse.ArgumentParser()
    add_serve_parser(ap.add_subparsers(dest="command"))
    return ap.parse_args(["serve", *argv])


def test_cli_flags_make_one_upstream(monkeypatch: pytest.MonkeyPatch) -> None:
    from interlingua.gateway.cli import config_from_args

    monkeypatch.setenv("SOME_VAR", "sk-x")

    cfg = config_from_args(
        serve_args(
            "--port",
            "8081",
            "--upstream-protocol",
            "openai_chat",
            "--upstream-base-url",
            "http://127.0.0.1:11434/v1/",
            "--upstream-api-key-env",
            "SOME_VAR",
            "--model-map",
            "claude-*=qwen3",
            "--model-map",
            "claude-haiku-4=small",
        )
    )
    assert (cfg.host, cfg.port) == ("127.0.0.1", 8081)  # localhost unless told otherwise
    [up] = cfg.upstreams
    assert (up.protocol, up.base_url, up.api_key_env) == (
        "openai_chat",
        "http://127.0.0.1:11434/v1",
        "SOME_VAR",
    )
    assert cfg.map_model("claude-sonnet-4-5") == "qwen3"
    assert cfg.map_model("claude-haiku-4") == "small"  # an exact name wins over a glob
    assert cfg.map_model("gpt-4o") == "gpt-4o"


def test_config_file_env_and_flags(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from interlingua.gateway.cli import config_from_args
    from interlingua.gateway.config import ConfigError, load_config

    f = tmp_path / "gw.toml"
    f.write_text(
        'port = 9000\n[model_map]\n"claude-*" = "from-file"\n"gpt-*" = "g"\n'
        '[[upstreams]]\nprotocol = "anthropic_messages"\nbase_url = "http://a/v1"\n'
        'models = ["claude-*"]\napi_key_env = ""\n'
        '[[upstreams]]\nname = "rest"\nprotocol = "openai_chat"\nbase_url = "http://b/v1"\n'
        'api_key_env = ""\n'
    )
    cfg = load_config(f)
    assert cfg.port == 9000 and [u.protocol for u in cfg.upstreams] == [
        "anthropic_messages",
        "openai_chat",
    ]
    assert cfg.route("claude-x", "from-file") is cfg.upstreams[0]  # routed by model name
    assert cfg.route("llama", "llama") is cfg.upstreams[1]
    monkeypatch.setenv("INTERLINGUA_PORT", "9100")
    assert load_config(f).port == 9100  # the environment over the file
    cfg = config_from_args(
        serve_args("--config", str(f), "--port", "9200", "--model-map", "claude-*=flag")
    )
    assert cfg.port == 9200 and cfg.map_model("claude-1") == "flag"  # flags over both
    assert cfg.map_model("gpt-5") == "g"
    bad = tmp_path / "bad.toml"
    bad.write_text('[[upstreams]]\nprotocol = "nope"\nbase_url = "http://x"\n')
    with pytest.raises(ConfigError, match=r"upstreams\[0\]\.protocol"):
        load_config(bad)
    bad.write_text(
        '[[upstreams]]\nprotocol = "openai_chat"\nbase_url = "http://x"\napi_key = "sk"\n'
    )
    with pytest.raises(ConfigError, match="unknown keys"):  # keys live in the environment only
        load_config(bad)
    with pytest.raises(ConfigError, match="no upstream"):
        load_config(data={})
    with pytest.raises(ConfigError, match="--upstream-base-url"):
        config_from_args(serve_args("--upstream-protocol", "gemini"))
    monkeypatch.delenv("NO_SUCH_KEYS", raising=False)
    with pytest.raises(ConfigError, match="NO_SUCH_KEYS"):
        load_config(f, overrides={"inbound_keys_env": "NO_SUCH_KEYS"})


def test_cli_serve_reports_bad_config(capsys: pytest.CaptureFixture[str]) -> None:
    from interlingua._cli import main

    assert main(["serve", "--config", "/nonexistent.toml"]) == 2
    assert "nonexistent" in capsys.readouterr().err


def test_same_protocol_is_a_pass_through(stack: Stack) -> None:
    """Anthropic in front of Anthropic: the upstream's answer comes back byte for byte (here a
    recorded real response), with the model mapped and the upstream's auth on the way in."""
    stack.need("anthropic_messages")
    recorded = gu._recorded("anthropic_messages", stream=False)
    if recorded is None:
        pytest.skip("../shared/fixtures/recorded is absent")
    body = {
        "model": "anthropic_messages--tool-loop",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": QUESTION}],
    }
    h = {"x-api-key": INBOUND_KEY, "anthropic-beta": "some-beta-2025"}
    r = httpx.post(stack.url + "/v1/messages", json=body, headers=h)
    assert r.status_code == 200
    assert r.content == recorded.read_bytes()
    seen = stack.state.requests[-1]
    assert seen.body == {**body, "model": MAPPED_MODEL}
    assert seen.headers["anthropic-beta"] == "some-beta-2025"  # kept on a pass-through
    assert seen.headers["x-api-key"] == UPSTREAM_KEY
