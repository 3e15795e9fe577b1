"""What the gateway's state store adds per call.

``python -m bench.gateway_state [--turns 10] [--rounds 200]``

The gateway runs in this process (ASGI, no sockets) in front of an upstream answered in memory
(a Chat completion), so the times are the gateway's own work. A Responses client's conversation
of ``--turns`` turns is built up with ``previous_response_id``; then the next turn is timed,
``--rounds`` times, interleaving:

- **no store**: the same turn with the whole conversation inline (``store: false``,
  ``state = "off"``): what a client pays without the gateway's state;
- **memory / sqlite / redis**: the turn sent with ``previous_response_id`` (the conversation is
  read back, expanded, and the new turn written).

Reported: the median time per call, and the difference to "no store" (the store's cost); and the
same for the CPU time of this process (steadier on a busy machine; it leaves out what Redis
itself spends, and any wait).
Redis is measured when ``INTERLINGUA_TEST_REDIS`` names a server or ``redis-server`` is on the
PATH (started on a free port for the run), n/a otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import httpx
import orjson

TOOLS = [{"type": "function", "name": "lookup", "parameters": {"type": "object"}}]


def upstream(request: httpx.Request) -> httpx.Response:
    body = orjson.loads(request.content)
    n = len(body["messages"])
    answer = {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": body["model"],
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": f"Answer {n}: " + "words " * 40},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10 * n, "completion_tokens": 50, "total_tokens": 10 * n + 50},
    }
    return httpx.Response(200, content=orjson.dumps(answer))


@contextlib.contextmanager
def redis_url() -> Iterator[str | None]:
    import os

    if os.environ.get("INTERLINGUA_TEST_REDIS"):
        yield os.environ["INTERLINGUA_TEST_REDIS"]
        return
    binary = shutil.which("redis-server")
    try:
        import redis  # noqa: F401
    except ImportError:
        binary = None
    if binary is None:
        yield None
        return
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        time.sleep(0.3)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


def client_for(state: str) -> httpx.AsyncClient:
    from interlingua.gateway.app import create_app
    from interlingua.gateway.config import load_config

    cfg = load_config(
        data={
            "state": state,
            "upstreams": [
                {"protocol": "openai_chat", "base_url": "http://up/v1", "api_key_env": ""}
            ],
        }
    )
    app = create_app(cfg, transport=httpx.MockTransport(upstream))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw")


async def post(c: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    r = await c.post("/v1/responses", json=body)
    if r.status_code != 200:
        raise SystemExit(f"bench.gateway_state: {r.status_code} {r.text[:300]}")
    out: dict[str, Any] = r.json()
    return out


def question(i: int) -> str:
    return f"Question {i}: " + "tell me more about this " * 10


async def conversation(c: httpx.AsyncClient, turns: int) -> tuple[str, list[Any]]:
    """(the last response id, the whole conversation as inline items)."""
    prev = None
    inline: list[Any] = []
    for i in range(turns):
        body: dict[str, Any] = {"model": "m", "input": question(i), "tools": TOOLS}
        if prev:
            body["previous_response_id"] = prev
        r = await post(c, body)
        prev = r["id"]
        inline += [{"role": "user", "content": question(i)}, *r["output"]]
    assert prev is not None
    return prev, inline


async def run(
    turns: int, rounds: int, redis: str | None, tmp: str, size: list[int]
) -> dict[str, list[float]]:
    """Times per store; ``size`` gets the conversation's item count and inline JSON bytes."""
    states = {"no store": "off", "memory": "memory", "sqlite": f"sqlite:///{tmp}/state.db"}
    if redis:
        states["redis"] = redis
    clients = {name: client_for(s) for name, s in states.items()}
    bodies: dict[str, dict[str, Any]] = {}
    nxt = {"role": "user", "content": question(turns)}
    for name, c in clients.items():
        if name == "no store":  # the same conversation, inline (made through another client)
            _, inline = await conversation(clients["memory"], turns)
            bodies[name] = {"model": "m", "store": False, "tools": TOOLS, "input": [*inline, nxt]}
            size += [len(inline), len(orjson.dumps(inline))]
        else:
            prev, _ = await conversation(c, turns)
            bodies[name] = {"model": "m", "previous_response_id": prev, "tools": TOOLS,
                            "input": [nxt]}  # fmt: skip
    times: dict[str, list[float]] = {name: [] for name in clients}
    for name in clients:
        times["cpu " + name] = []
    order = list(clients.items())
    for _ in range(rounds):
        random.shuffle(order)  # no store gains or loses by its place in the round
        for name, c in order:
            c0, t0 = time.process_time(), time.perf_counter()
            await post(c, bodies[name])
            times[name].append(time.perf_counter() - t0)
            times["cpu " + name].append(time.process_time() - c0)
    for c in clients.values():
        await c.aclose()
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.gateway_state")
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args(argv)
    with redis_url() as redis, tempfile.TemporaryDirectory() as tmp:
        size: list[int] = []
        times = asyncio.run(run(args.turns, args.rounds, redis, tmp, size))
    base = statistics.median(times["no store"])
    cpu_base = statistics.median(times["cpu no store"])
    print(
        f"\ngateway state: turn {args.turns + 1} of a Responses conversation ({size[0]} items, "
        f"{size[1] / 1024:.0f} KiB inline), median of {args.rounds}"
    )
    print("| store | per call | added by the store | CPU of this process per call | added |")
    print("|---|---|---|---|---|")
    for name in ("no store", "memory", "sqlite", "redis"):
        if name not in times:
            print(f"| {name} | n/a | n/a | n/a | n/a |")
            continue
        med = statistics.median(times[name])
        cpu = statistics.median(times["cpu " + name])
        added = "" if name == "no store" else f"{(med - base) * 1e6:+.0f} µs"
        cpu_added = "" if name == "no store" else f"{(cpu - cpu_base) * 1e6:+.0f} µs"
        print(f"| {name} | {med * 1e6:.0f} µs | {added} | {cpu * 1e6:.0f} µs | {cpu_added} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
