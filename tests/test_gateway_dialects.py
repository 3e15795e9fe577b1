"""The gateway speaks an upstream's dialect (``dialect = "openrouter"`` in [[upstreams]], or
``--upstream-dialect``): Claude Code-style Anthropic clients in front of an OpenRouter upstream
that answers with recorded Claude thinking, then gets it back in reasoning_details."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest
from interlingua.gateway.cli import config_from_args
from interlingua.gateway.config import ConfigError, load_config

from tests import gateway_upstream as gu
from tests.test_dialects import CLAUDE_STREAM, CLAUDE_THINKING, OPENROUTER, next_turn, recorded


def test_config_takes_a_dialect_per_upstream_and_refuses_a_wrong_one() -> None:
    up = {"protocol": "openai_chat", "base_url": "https://openrouter.ai/api/v1", "api_key_env": ""}
    cfg = load_config(data={"upstreams": [{**up, "dialect": "openrouter"}, up]})
    assert [u.dialect for u in cfg.upstreams] == ["openrouter", None]
    with pytest.raises(ConfigError, match=r"upstreams\[0\].dialect: 'openrouter' is not a dialect"):
        load_config(data={"upstreams": [{**up, "protocol": "gemini", "dialect": "openrouter"}]})
    with pytest.raises(ConfigError, match="expected one of deepseek, groq, openrouter"):
        load_config(data={"upstreams": [{**up, "dialect": "openrutor"}]})


def test_the_upstream_dialect_flag() -> None:
    names = ("config", "host", "port", "upstream_protocol", "upstream_api_key_env")
    names += ("upstream_timeout", "inbound_keys_env", "max_body_bytes", "state")
    args = {n: None for n in names} | {"model_map": []}
    cfg = config_from_args(
        argparse.Namespace(
            **args, upstream_base_url="http://127.0.0.1:9/v1", upstream_dialect="deepseek"
        )
    )
    assert (cfg.upstreams[0].protocol, cfg.upstreams[0].dialect) == ("openai_chat", "deepseek")
    with pytest.raises(ConfigError, match="need --upstream-base-url"):
        config_from_args(
            argparse.Namespace(**args, upstream_base_url=None, upstream_dialect="groq")
        )


@pytest.fixture
def gateway() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    from interlingua.gateway.app import create_app

    answer = recorded(OPENROUTER / CLAUDE_THINKING).read_bytes()
    stream = recorded(OPENROUTER / CLAUDE_STREAM).read_bytes()
    seen: list[dict[str, Any]] = []

    def upstream(request: httpx.Request) -> httpx.Response:
        body = orjson.loads(request.content)
        seen.append(body)
        if body.get("stream"):
            return httpx.Response(
                200, content=stream, headers={"content-type": "text/event-stream"}
            )
        return httpx.Response(200, content=answer, headers={"content-type": "application/json"})

    cfg = load_config(
        data={
            "state": "off",
            "upstreams": [
                {
                    "protocol": "openai_chat",
                    "dialect": "openrouter",
                    "base_url": "https://openrouter.test/api/v1",
                    "api_key_env": "",
                }
            ],
        }
    )
    server = gu.ServerThread(create_app(cfg, transport=httpx.MockTransport(upstream)))
    server.start()
    try:
        yield server.url, seen
    finally:
        server.stop()


def test_openrouter_claude_thinking_through_the_gateway(
    gateway: tuple[str, list[dict[str, Any]]],
) -> None:
    url, seen = gateway
    item = orjson.loads(recorded(OPENROUTER / CLAUDE_THINKING).read_bytes())["choices"][0][
        "message"
    ]["reasoning_details"][0]
    first = next_turn([{"type": "text", "text": "ok"}])
    first["messages"] = first["messages"][:1]
    r = httpx.post(url + "/v1/messages", json=first, timeout=10)
    assert r.status_code == 200, r.text
    content = r.json()["content"]
    assert content[0] == {
        "type": "thinking",
        "thinking": item["text"],
        "signature": item["signature"],
    }
    r = httpx.post(url + "/v1/messages", json=next_turn(content), timeout=10)
    assert r.status_code == 200
    (sent,) = seen[-1]["messages"][1]["reasoning_details"]
    assert (sent["signature"], sent["format"]) == (item["signature"], "anthropic-claude-v1")
    # streamed: the signature arrives as the Anthropic client's signature_delta
    r = httpx.post(url + "/v1/messages", json={**first, "stream": True}, timeout=10)
    deltas = [
        orjson.loads(line[6:])["delta"]
        for line in r.text.splitlines()
        if line.startswith("data: ") and '"content_block_delta"' in line
    ]
    assert [d["type"] for d in deltas].count("signature_delta") == 1
    assert seen[-1]["stream"] is True
