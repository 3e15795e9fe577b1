"""Nothing silent: the gateway reports every loss the library reports for the same bodies.

Every recorded request body (../shared/fixtures/recorded, and the requests captured from Claude
Code, Codex and Gemini CLI) goes through the gateway in front of an upstream of each other
protocol, and through ``translate_request`` toward that protocol; the upstream's answer (a body,
or a stream when the request streams) through ``translate_response`` / ``StreamTranslator``.
The gateway's ``x-interlingua-losses`` header must count the request's losses and its access
log must name every loss of both directions by path and feature; a body the library refuses
must be refused by the gateway with a 400."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

pytest.importorskip("starlette")

from interlingua import translate_request, translate_response  # noqa: E402
from interlingua._errors import InterlinguaError  # noqa: E402
from interlingua._losses import Ctx, Loss  # noqa: E402
from interlingua._pipeline import encode_response  # noqa: E402
from interlingua._stream_api import StreamTranslator  # noqa: E402
from interlingua.gateway.app import create_app, servable  # noqa: E402
from interlingua.gateway.config import load_config  # noqa: E402
from interlingua.gateway.log import ACCESS_LOGGER  # noqa: E402
from interlingua.generated.canonical import Finish, Response, TextPart, Usage  # noqa: E402

from tests.conftest import FIXTURES  # noqa: E402
from tests.gateway_upstream import _encode_stream, _events  # noqa: E402

PROTOCOLS = {
    "anthropic": "anthropic_messages",
    "openai-chat": "openai_chat",
    "openai-responses": "openai_responses",
    "gemini": "gemini",
}
CLIENTS = {"claude-code": "anthropic_messages", "codex": "openai_responses", "gemini-cli": "gemini"}
MODEL = "m-1"
SERVED = servable()


def recorded_requests(pid: str) -> list[tuple[str, Any]]:
    """(name, body) of every recorded request of ``pid`` that is a JSON object."""
    index = FIXTURES / "recorded" / "index.jsonl"
    if not index.is_file():
        pytest.skip("../shared/fixtures is absent")
    files: list[Path] = []
    for line in index.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["kind"] == "request" and PROTOCOLS.get(row["protocol"]) == pid:
            files.append(FIXTURES / "recorded" / row["file"])
    out = []
    for f in files:
        try:
            body = json.loads(f.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if type(body) is dict:
            out.append((str(f.relative_to(FIXTURES)), body))
    for client, cpid in CLIENTS.items():
        if cpid != pid:
            continue
        for f in sorted((FIXTURES / "clients" / client).rglob("*.json")):
            body = json.loads(f.read_text(encoding="utf-8")).get("body")
            if type(body) is dict:
                out.append((str(f.relative_to(FIXTURES)), body))
    return out


def upstream_answer(pid: str, stream: bool) -> bytes:
    """A plain text answer in ``pid``'s wire format (a stream, or a body)."""
    if stream:
        return b"".join(_encode_stream(pid, _events([TextPart(text="ok")], "stop", MODEL)))
    resp = Response(
        id="r1",
        model=MODEL,
        parts=[TextPart(text="ok")],
        finish=Finish(unified="stop"),
        usage=Usage(input_total=3, output_total=1),
    )
    return orjson.dumps(encode_response(resp, pid, Ctx(pid, pid)))


def response_losses(source: str, target: str, stream: bool) -> list[Loss]:
    if not stream:
        return translate_response(
            upstream_answer(source, False), source=source, target=target
        ).losses
    t = StreamTranslator(source, target)
    t.feed(upstream_answer(source, True))
    t.close()
    return t.losses


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(record.getMessage()))


@pytest.fixture
def access() -> Iterator[Collect]:
    h = Collect()
    level = ACCESS_LOGGER.level
    ACCESS_LOGGER.addHandler(h)
    ACCESS_LOGGER.setLevel(logging.INFO)
    try:
        yield h
    finally:
        ACCESS_LOGGER.removeHandler(h)
        ACCESS_LOGGER.setLevel(level)


def gateway(upstream: str) -> httpx.AsyncClient:
    """The gateway app in process, in front of a fake upstream of ``upstream``."""

    def answer(request: httpx.Request) -> httpx.Response:
        stream = request.headers.get("accept") == "text/event-stream"
        ctype = "text/event-stream" if stream else "application/json"
        return httpx.Response(
            200, content=upstream_answer(upstream, stream), headers={"content-type": ctype}
        )

    base = "http://up.test" + ("/v1beta" if upstream == "gemini" else "/v1")
    cfg = load_config(
        data={
            "state": "memory",
            "upstreams": [
                {"name": "up", "protocol": upstream, "base_url": base, "api_key_env": ""}
            ],
        }
    )
    app = create_app(cfg, transport=httpx.MockTransport(answer))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw.test")


def inbound_call(inbound: str, body: dict[str, Any]) -> tuple[str, bool]:
    """(path, stream) of a call of ``inbound``'s clients carrying ``body``."""
    if inbound == "gemini":
        return f"/v1beta/models/{MODEL}:generateContent", False
    paths = {
        "anthropic_messages": "/v1/messages",
        "openai_chat": "/v1/chat/completions",
        "openai_responses": "/v1/responses",
    }
    return paths[inbound], body.get("stream") is True


def expected(
    body: dict[str, Any], inbound: str, upstream: str, stream: bool
) -> tuple[list[Loss], list[Loss]] | None:
    """(request losses, response losses) the library reports, None when it refuses the body."""
    model = MODEL if inbound == "gemini" else None
    try:
        req = translate_request(body, source=inbound, target=upstream, model=model)
    except InterlinguaError:
        return None
    return req.losses, response_losses(upstream, inbound, stream)


STATE_LOSS = Loss("reasoning", "", "", "reasoning_replay")  # gateway/state/reasoning.py
STATE_OFF = "reasoning (reasoning_replay)"


def named(losses: list[Loss]) -> list[str]:
    return [f"{x.path} ({x.feature})" for x in losses]


PAIRS = [
    pytest.param(i, u, id=f"{i}->{u}")
    for i in PROTOCOLS.values()
    for u in PROTOCOLS.values()
    if i != u
]


@pytest.mark.parametrize(("inbound", "upstream"), PAIRS)
def test_gateway_reports_the_library_losses(inbound: str, upstream: str, access: Collect) -> None:
    if inbound not in SERVED or upstream not in SERVED:
        pytest.skip("protocol not servable")
    bodies = recorded_requests(inbound)
    mismatches: list[str] = []
    lossy = 0

    async def run() -> None:
        nonlocal lossy
        async with gateway(upstream) as client:
            for name, body in bodies:
                if body.get("previous_response_id"):
                    continue  # the gateway's state answers it (test_gateway_state), not the library
                path, stream = inbound_call(inbound, body)
                want = expected(body, inbound, upstream, stream)
                if inbound != "gemini" and not body.get("model"):
                    want = None  # the gateway refuses a call without a model (the library not)
                access.lines.clear()
                r = await client.post(path, content=orjson.dumps(body))
                await r.aread()
                if want is None:
                    if r.status_code != 400:
                        mismatches.append(f"{name}: library refuses it, gateway {r.status_code}")
                    continue
                req_losses, resp_losses = want
                line = access.lines[-1]
                if STATE_OFF in line["loss_paths"]:
                    # the gateway turned reasoning off for a turn whose reasoning state it does
                    # not hold (reported): the library's reasoning settings no longer apply
                    req_losses = [STATE_LOSS, *(x for x in req_losses if x.path != "reasoning")]
                    req_losses = [x for x in req_losses if not x.path.startswith("reasoning.")]
                got_header = int(r.headers.get("x-interlingua-losses", "0"))
                want_header = len(req_losses) + (0 if stream else len(resp_losses))
                if r.status_code != 200:
                    mismatches.append(f"{name}: status {r.status_code} {r.text[:200]}")
                elif got_header != want_header:
                    mismatches.append(f"{name}: header {got_header}, library {want_header}")
                elif sorted(line["loss_paths"]) != sorted(named(req_losses + resp_losses)):
                    mismatches.append(
                        f"{name}: log {line['loss_paths']}, library "
                        f"{named(req_losses + resp_losses)}"
                    )
                lossy += bool(req_losses)

    asyncio.run(run())
    assert not mismatches, f"{len(mismatches)} of {len(bodies)}:\n" + "\n".join(mismatches[:10])
    assert len(bodies) > 20 and lossy > 0  # the comparison saw real bodies and real losses


PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


def test_tool_result_images_go_to_chat_as_the_chat_api_accepts_them() -> None:
    """Chat ``tool`` messages hold text only: a screenshot a tool returned travels in a user
    message right after the tool messages, and the tool message keeps the text."""
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    body = {
        "model": "claude-x",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "take two screenshots"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "shot", "input": {}},
                    {"type": "tool_use", "id": "t2", "name": "shot", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": [{"type": "text", "text": "here it is"}, image],
                    },
                    {"type": "tool_result", "tool_use_id": "t2", "content": [image]},
                ],
            },
        ],
    }
    out = translate_request(body, source="anthropic_messages", target="openai_chat")
    msgs = out.body["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "tool", "tool", "user"]
    for m in msgs[2:4]:
        assert all(p["type"] == "text" for p in m["content"])
    assert msgs[2]["content"][0]["text"] == "here it is"
    assert "follow" in msgs[3]["content"][0]["text"]
    urls = [p["image_url"]["url"] for p in msgs[4]["content"]]
    assert urls == [f"data:image/png;base64,{PNG}"] * 2
    # between Chat endpoints a tool message is kept as it came (dialect servers take images)
    same = translate_request(
        out.body | {"messages": msgs[:3]}, source="openai_chat", target="openai_chat"
    )
    assert same.body["messages"] == msgs[:3]
