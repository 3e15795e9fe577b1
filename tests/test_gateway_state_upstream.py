"""Gateway state beside a Responses upstream, store failures at the end of a stream, and TTLs
renewed by use; the official ``openai`` SDK is the client.

- ids a Responses upstream keeps itself (``responses_state = "auto"``): ``responses.retrieve``,
  ``responses.input_items.list`` and ``responses.delete`` reach the upstream; ids the gateway
  keeps are answered by the gateway; ``responses_state = "gateway"`` keeps the conversation in
  the gateway in front of a Responses upstream (which then never sees ``previous_response_id``);
- a store that fails when a stream ends: the caller gets its protocol's in-band error instead of
  the stream's normal end (Responses and Chat clients), never a silent loss;
- an entry read for a call lives on: a conversation expires after its last use.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import orjson  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import Response  # noqa: E402
from starlette.routing import Route  # noqa: E402

from tests import gateway_upstream as gu  # noqa: E402
from tests.test_gateway_state import client, stack_with, turn  # noqa: E402


def _json(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status, media_type="application/json")


class KeepingUpstream:
    """A Responses API that keeps its responses (POST, GET, input_items, DELETE), and a Chat
    API; every request is noted in ``seen`` as (method, path, query, authorization)."""

    def __init__(self) -> None:
        self.kept: dict[str, dict[str, Any]] = {}
        self.inputs: dict[str, list[Any]] = {}
        self.seen: list[tuple[str, str, str, str]] = []
        self.bodies: list[Any] = []
        self.ids = itertools.count(1)

    def app(self) -> Starlette:
        def note(request: Request) -> None:
            auth = request.headers.get("authorization", "")
            self.seen.append((request.method, request.url.path, request.url.query, auth))

        async def create(request: Request) -> Response:
            note(request)
            body = orjson.loads(await request.body())
            self.bodies.append(body)
            rid = f"resp_up_{next(self.ids)}"
            inp = body["input"]
            items = [{"role": "user", "content": inp}] if type(inp) is str else inp
            self.inputs[rid] = [{"id": f"msg_in_{rid}_{i}", **it} for i, it in enumerate(items)]
            text = f"answer {len(items)} items"
            resp = {
                "id": rid,
                "object": "response",
                "created_at": 0,
                "status": "completed",
                "model": body["model"],
                "output": [
                    {
                        "id": f"msg_{rid}",
                        "type": "message",
                        "role": "assistant",
                        "status": "completed",
                        "content": [{"type": "output_text", "text": text, "annotations": []}],
                    }
                ],
                "parallel_tool_calls": True,
                "tool_choice": "auto",
                "tools": [],
                "previous_response_id": body.get("previous_response_id"),
                "store": body.get("store", True),
                "usage": {"input_tokens": 5, "output_tokens": 3, "total_tokens": 8},
            }
            if body.get("store", True):
                self.kept[rid] = resp
            if body.get("stream"):
                from interlingua.generated.canonical import TextPart

                evs = gu._events([TextPart(text=text)], "stop", body["model"])
                chunks = gu._encode_stream("openai_responses", evs)
                return Response(b"".join(chunks), media_type="text/event-stream")
            return _json(resp)

        def missing(rid: str) -> Response:
            err = {
                "message": f"Response with id '{rid}' not found.",
                "type": "invalid_request_error",
            }
            return _json({"error": {**err, "param": None, "code": None}}, 404)

        async def one(request: Request) -> Response:
            note(request)
            rid = request.path_params["rid"]
            if rid not in self.kept:
                return missing(rid)
            if request.method == "DELETE":
                del self.kept[rid]
                return _json({"id": rid, "object": "response", "deleted": True})
            return _json(self.kept[rid])

        async def input_items(request: Request) -> Response:
            note(request)
            rid = request.path_params["rid"]
            if rid not in self.kept:
                return missing(rid)
            data = self.inputs[rid]
            if request.query_params.get("order", "desc") == "desc":
                data = data[::-1]
            page = {"object": "list", "data": data, "has_more": False}
            return _json({**page, "first_id": data[0]["id"], "last_id": data[-1]["id"]})

        async def chat(request: Request) -> Response:
            note(request)
            body = orjson.loads(await request.body())
            msg = {"role": "assistant", "content": f"chat answer to {len(body['messages'])}"}
            return _json(
                {
                    "id": "chatcmpl-1",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body["model"],
                    "choices": [{"index": 0, "message": msg, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
                }
            )

        return Starlette(
            routes=[
                Route("/v1/responses", create, methods=["POST"]),
                Route("/v1/responses/{rid}", one, methods=["GET", "DELETE"]),
                Route("/v1/responses/{rid}/input_items", input_items, methods=["GET"]),
                Route("/v1/chat/completions", chat, methods=["POST"]),
            ]
        )


@contextlib.contextmanager
def keeping_stack(responses_state: str = "auto") -> Iterator[tuple[str, KeepingUpstream]]:
    import os

    from interlingua.gateway.app import create_app
    from interlingua.gateway.config import load_config

    saved = os.environ.get(gu.UPSTREAM_KEY_ENV)
    os.environ[gu.UPSTREAM_KEY_ENV] = gu.UPSTREAM_KEY
    up = KeepingUpstream()
    server = gu.ServerThread(up.app())
    server.start()
    gateway = None
    try:
        base = server.url + "/v1"
        cfg = load_config(
            data={
                "state": "memory",
                "responses_state": responses_state,
                "upstreams": [
                    {
                        "name": "chat",
                        "protocol": "openai_chat",
                        "base_url": base,
                        "models": ["chat-*"],
                    },
                    {
                        "name": "resp",
                        "protocol": "openai_responses",
                        "base_url": base,
                        "models": ["resp-*"],
                        "api_key_env": gu.UPSTREAM_KEY_ENV,
                    },
                ],
            }  # fmt: skip
        )
        gateway = gu.ServerThread(create_app(cfg))
        gateway.start()
        yield gateway.url, up
    finally:
        if gateway is not None:
            gateway.stop()
        server.stop()
        if saved is None:
            os.environ.pop(gu.UPSTREAM_KEY_ENV, None)
        else:
            os.environ[gu.UPSTREAM_KEY_ENV] = saved


def test_ids_a_responses_upstream_keeps_are_read_there() -> None:
    import openai

    with keeping_stack() as (url, up):
        c = gu.openai_client(url, "k")
        r1 = c.responses.create(model="resp-1", input="Hello")
        assert r1.id == "resp_up_1"  # a pass-through: the upstream's own id
        r2 = c.responses.create(model="resp-1", input="More", previous_response_id=r1.id)
        assert up.bodies[-1]["previous_response_id"] == r1.id  # its own state
        got = c.responses.retrieve(r1.id)
        assert got.id == r1.id and got.output_text == r1.output_text
        items = c.responses.input_items.list(r2.id, order="asc")
        assert [i.id for i in items.data] == ["msg_in_resp_up_2_0"]
        assert up.seen[-1][:3] == ("GET", "/v1/responses/resp_up_2/input_items", "order=asc")
        assert up.seen[-1][3] == "Bearer " + gu.UPSTREAM_KEY  # the upstream's key, not the caller's
        # a response the gateway keeps (made through the Chat upstream) is answered here
        n = len(up.seen)
        mine = c.responses.create(model="chat-1", input="Hi")
        assert mine.id != r1.id and mine.id.startswith("resp_")
        assert c.responses.retrieve(mine.id).output_text == mine.output_text
        assert len(up.seen) == n + 1  # the Chat call only
        c.responses.delete(r1.id)
        assert up.seen[-1][:2] == ("DELETE", "/v1/responses/resp_up_1")
        with pytest.raises(openai.NotFoundError):
            c.responses.retrieve(r1.id)  # the upstream's 404, relayed
        with pytest.raises(openai.NotFoundError):
            c.responses.delete("resp_nobody_has")
        c.responses.delete(mine.id)
        with pytest.raises(openai.NotFoundError):
            c.responses.retrieve(mine.id)


def test_responses_state_gateway_keeps_the_conversation_before_a_responses_upstream() -> None:
    """responses_state = "gateway": the Responses upstream gets the whole conversation (no
    previous_response_id), the client gets the gateway's ids, and nothing is forwarded."""
    import openai

    with keeping_stack("gateway") as (url, up):
        c = gu.openai_client(url, "k")
        r1 = c.responses.create(model="resp-1", input="Hello")
        assert r1.id.startswith("resp_") and r1.id != "resp_up_1"
        with c.responses.stream(model="resp-1", input="More", previous_response_id=r1.id) as s:
            r2 = s.get_final_response()
        sent = up.bodies[-1]
        assert "previous_response_id" not in sent
        texts = [it.get("content") for it in sent["input"]]
        assert texts[0] == "Hello" and texts[-1] == "More" and len(sent["input"]) == 3
        assert r2.previous_response_id == r1.id
        r3 = c.responses.create(model="resp-1", input="Last", previous_response_id=r2.id)
        assert len(up.bodies[-1]["input"]) == 5  # 3 turns: 3 inputs, 2 outputs
        n = len(up.seen)
        assert c.responses.retrieve(r3.id).output_text == r3.output_text
        assert [i.type for i in c.responses.input_items.list(r3.id).data] == ["message"]
        with pytest.raises(openai.NotFoundError):
            c.responses.retrieve("resp_up_1")  # the upstream's own id is not forwarded
        assert len(up.seen) == n


def test_an_upstream_that_cannot_be_reached_is_a_502_not_a_404() -> None:
    import openai
    from interlingua.gateway.app import create_app
    from interlingua.gateway.config import load_config

    port = gu.free_closed_port()
    cfg = load_config(
        data={
            "state": "memory",
            "upstreams": [
                {"protocol": "openai_responses", "base_url": f"http://127.0.0.1:{port}/v1"}
            ],
        }
    )
    gateway = gu.ServerThread(create_app(cfg))
    gateway.start()
    try:
        with pytest.raises(openai.APIStatusError) as e:
            gu.openai_client(gateway.url, "k").responses.retrieve("resp_somewhere")
        assert e.value.status_code == 502
    finally:
        gateway.stop()


# ------------------------------------------------------------ a store failing at stream end


@pytest.fixture
def failing_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write of the memory store fails, as a full disk or a Redis gone away would."""
    from interlingua.gateway.state import MemoryStore, StateUnavailable

    async def put_many(self: Any, items: Any, ttl: float, renew: Any = ()) -> None:
        raise StateUnavailable("memory state store: scripted failure")

    monkeypatch.setattr(MemoryStore, "put_many", put_many)


def test_a_responses_stream_whose_state_cannot_be_kept_ends_in_an_error(
    failing_writes: None,
) -> None:
    """The answer streams; its end (response.completed) is replaced by the in-band error and
    response.failed: the client never continues from a response the gateway did not keep."""
    import openai

    with stack_with(state="memory") as s:
        s.need("openai_chat")
        c = client(s)
        seen: list[str] = []
        with (
            pytest.raises(openai.APIError, match="gateway state unavailable") as e,
            c.responses.stream(model="openai_chat--tool-loop", input="Weather?") as st,
        ):
            for ev in st:
                seen.append(ev.type)
        assert "response.completed" not in seen and "response.output_item.done" in seen
        assert "could not be kept" in str(e.value)
        # without a stream, the same failure is a 503 instead of the answer
        with pytest.raises(openai.APIStatusError) as e2:
            turn(s, "openai_chat--tool-loop", False, input="Weather?")
        assert e2.value.status_code == 503
        # store: false needs no write: it goes through
        r = turn(s, "openai_chat--tool-loop", True, input="Weather?", store=False)
        assert r.status == "completed"


def test_a_chat_stream_whose_reasoning_cannot_be_kept_ends_in_an_error(
    failing_writes: None,
) -> None:
    """A Chat client of a thinking Anthropic upstream: the signed thinking must be kept for the
    next turn; when it cannot be, the stream ends in Chat's in-band error."""
    import openai

    from tests.test_gateway_state_reasoning import TOOLS, thinking_stack

    with thinking_stack("memory") as (url, _):
        c = gu.openai_client(url, "any")
        stream = c.chat.completions.create(
            model="claude-thinker",
            messages=[{"role": "user", "content": "Look up two numbers, then sum up."}],
            tools=TOOLS,
            reasoning_effort="high",
            stream=True,
        )
        chunks = []
        with pytest.raises(openai.APIError, match="gateway state unavailable"):
            for chunk in stream:
                chunks.append(chunk)
        assert chunks and not any(ch.choices and ch.choices[0].finish_reason for ch in chunks)


# ------------------------------------------------------------------ TTL renewed by use


def test_a_conversation_in_use_does_not_expire() -> None:
    """TTL 1 day: each turn comes 0.8 day after the last; the first turn, read by every later
    one, is still there after 2.4 days. A response nobody reads expires."""
    import openai

    day = 86400.0
    with stack_with(state="memory", state_ttl_days=1) as s:
        s.need("openai_chat")
        keeper = s.app.state.gateway.state  # type: ignore[attr-defined]
        now = [1000.0]
        keeper.store._clock = keeper.responses.clock = lambda: now[0]
        model = "openai_chat--tool-loop"
        r1 = turn(s, model, False, input="What is the weather in Paris?")
        idle = turn(s, model, False, input="Forget me")
        fc = next(o for o in r1.output if o.type == "function_call")
        out = {"type": "function_call_output", "call_id": fc.call_id, "output": "9 C"}
        now[0] += 0.8 * day
        r2 = turn(s, model, False, previous_response_id=r1.id, input=[out])
        now[0] += 0.8 * day
        r3 = turn(s, model, False, previous_response_id=r2.id, input="And tomorrow?")
        now[0] += 0.8 * day
        r4 = turn(s, model, False, previous_response_id=r3.id, input="Thanks")
        assert r4.output_text
        c = client(s)
        assert c.responses.retrieve(r1.id).id == r1.id  # 2.4 days after it was written
        with pytest.raises(openai.NotFoundError):
            c.responses.retrieve(idle.id)
        # a retrieve renews too: r1 was last read at 2.4 days (turn 4), so it lives to 3.4 days;
        # read at 3.2 days, it lives to 4.2
        now[0] += 0.8 * day
        assert c.responses.retrieve(r1.id).id == r1.id
        now[0] += 0.5 * day
        assert c.responses.retrieve(r1.id).id == r1.id


def test_a_full_redis_is_a_clear_error() -> None:
    """Redis at its maxmemory (noeviction): reads still work, every write is refused (OOM).
    The answer that could not be kept is a 503 (body) or the stream's in-band error, in the
    caller's protocol; store: false still goes through."""
    import openai
    import redis

    from tests.redis_util import redis_server

    servers = redis_server()
    url = next(servers)
    r = redis.Redis.from_url(url)
    saved = r.config_get("maxmemory"), r.config_get("maxmemory-policy")
    try:
        r.config_set("maxmemory-policy", "noeviction")
        r.config_set("maxmemory", 1)  # below what Redis uses already: full
        with stack_with(state=url) as s:
            s.need("openai_chat")
            with pytest.raises(openai.APIStatusError) as e:
                turn(s, "openai_chat--tool-loop", False, input="Weather?")
            assert e.value.status_code == 503 and "OutOfMemoryError" in str(e.value)
            assert "interlingua:" not in str(e.value)  # no key or stored value in the error
            with pytest.raises(openai.APIError, match="gateway state unavailable"):
                turn(s, "openai_chat--tool-loop", True, input="Weather?")
            assert turn(s, "openai_chat--tool-loop", False, input="Hi", store=False).output
    finally:
        r.config_set("maxmemory", saved[0]["maxmemory"])
        r.config_set("maxmemory-policy", saved[1]["maxmemory-policy"])
        r.close()
        servers.close()


def test_a_responses_count_counts_the_stored_conversation() -> None:
    """``responses.input_tokens.count`` with ``previous_response_id`` toward an upstream that
    keeps no state: the stored conversation is expanded before the count (Anthropic's
    count_tokens sees the first question; Chat's estimate grows with it)."""
    from interlingua import decode_request

    with stack_with(state="memory") as s:
        s.need("openai_chat", "anthropic_messages")
        c = client(s)
        first = "What is the weather in Paris? " * 20
        r1 = turn(s, "openai_chat--tool-loop", False, input=first)
        alone = c.responses.input_tokens.count(model="openai_chat--tool-loop", input="More?")
        more = c.responses.input_tokens.count(
            model="openai_chat--tool-loop", input="More?", previous_response_id=r1.id
        )
        assert more.input_tokens > alone.input_tokens + len(first) // 5
        n = c.responses.input_tokens.count(
            model="anthropic_messages--tool-loop", input="More?", previous_response_id=r1.id
        )
        assert n.input_tokens == 42  # the upstream's own count
        seen = s.state.requests[-1]
        assert seen.path.endswith("/count_tokens")
        req = decode_request(seen.body, "anthropic_messages")
        texts = [p.text for m in req.messages for p in m.parts if hasattr(p, "text")]
        assert texts[0] == first and texts[-1] == "More?"
