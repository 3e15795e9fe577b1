"""What the gateway adds to a call: the same calls straight to a fast fake upstream and through
``interlingua serve`` in front of it, on loopback with keep-alive connections.

``python -m bench.gateway_overhead [--calls 400] [--concurrency 32] [--seconds 5]``

- the upstream (a separate process) answers Chat Completions at once: a small body, or a stream
  of ``--events`` chunks;
- the gateway (a separate process, its access log on) takes Anthropic Messages calls and
  translates them to Chat and back;
- reported, for a body and for a stream: the p50 / p95 time of one call at a time (direct, through
  the gateway, and the difference: what the gateway adds), then the calls per second of
  ``--concurrency`` concurrent callers for ``--seconds`` (and the gateway's share of direct).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx
import orjson

BODY = orjson.dumps(
    {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "The answer is 42."},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 12, "completion_tokens": 6, "total_tokens": 18},
    }
)


def stream_body(events: int) -> bytes:
    out = []
    for i in range(events):
        delta = {"role": "assistant", "content": ""} if i == 0 else {"content": f"w{i} "}
        chunk = {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
        }
        out.append(b"data: " + orjson.dumps(chunk) + b"\n\n")
    end = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 12, "completion_tokens": events, "total_tokens": 12 + events},
    }
    out.append(b"data: " + orjson.dumps(end) + b"\n\ndata: [DONE]\n\n")
    return b"".join(out)


def upstream_app(events: int) -> Any:
    stream = stream_body(events)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            m = await receive()
            body += m.get("body", b"")
            if not m.get("more_body"):
                break
        streamed = b'"stream":true' in body or b'"stream": true' in body
        content = stream if streamed else BODY
        ctype = b"text/event-stream" if streamed else b"application/json"
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", ctype),
                    (b"content-length", str(len(content)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": content})

    return app


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port: int = s.getsockname()[1]
    s.close()
    return port


def wait_up(url: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not start")


async def one_at_a_time(
    client: httpx.AsyncClient, url: str, body: dict[str, Any], n: int, stream: bool
) -> list[float]:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        if stream:
            async with client.stream("POST", url, json=body) as r:
                async for _ in r.aiter_bytes():
                    pass
        else:
            r = await client.post(url, json=body)
        assert r.status_code == 200, r.status_code
        times.append(time.perf_counter() - t)
    return times


async def throughput(
    url: str, body: dict[str, Any], concurrency: int, seconds: float, stream: bool
) -> float:
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    done = 0
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        end = time.perf_counter() + seconds

        async def caller() -> None:
            nonlocal done
            while time.perf_counter() < end:
                if stream:
                    async with client.stream("POST", url, json=body) as r:
                        async for _ in r.aiter_bytes():
                            pass
                else:
                    r = await client.post(url, json=body)
                assert r.status_code == 200
                done += 1

        start = time.perf_counter()
        await asyncio.gather(*(caller() for _ in range(concurrency)))
        return done / (time.perf_counter() - start)


def ms(xs: list[float], q: float) -> float:
    return statistics.quantiles(xs, n=100)[int(q) - 1] * 1000 if len(xs) > 1 else xs[0] * 1000


async def measure(args: argparse.Namespace, up: str, gw: str) -> None:
    messages = [{"role": "user", "content": "What is the answer?"}]
    for stream in (False, True):
        direct_body: dict[str, Any] = {"model": "m", "messages": messages, "stream": stream}
        gw_body: dict[str, Any] = {**direct_body, "max_tokens": 64}
        direct_url, gw_url = up + "/v1/chat/completions", gw + "/v1/messages"
        async with httpx.AsyncClient(timeout=30) as c:
            await one_at_a_time(c, direct_url, direct_body, 20, stream)  # warm up
            await one_at_a_time(c, gw_url, gw_body, 20, stream)
            d = await one_at_a_time(c, direct_url, direct_body, args.calls, stream)
            g = await one_at_a_time(c, gw_url, gw_body, args.calls, stream)
        kind = f"stream of {args.events} events" if stream else "body"
        print(f"{kind}: one call at a time ({args.calls} calls)")
        for q in (50, 95):
            print(
                f"  p{q}: direct {ms(d, q):.2f} ms, gateway {ms(g, q):.2f} ms, "
                f"added {ms(g, q) - ms(d, q):.2f} ms"
            )
        rd = await throughput(direct_url, direct_body, args.concurrency, args.seconds, stream)
        rg = await throughput(gw_url, gw_body, args.concurrency, args.seconds, stream)
        print(
            f"  {args.concurrency} concurrent callers: direct {rd:.0f}/s, gateway {rg:.0f}/s "
            f"({100 * rg / rd:.0f}% of direct)"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.gateway_overhead", description=__doc__)
    ap.add_argument("--calls", type=int, default=400)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--events", type=int, default=60)
    ap.add_argument("--upstream", type=int, help=argparse.SUPPRESS)  # run as the upstream
    args = ap.parse_args(argv)
    if args.upstream:
        import uvicorn

        uvicorn.run(upstream_app(args.events), host="127.0.0.1", port=args.upstream,
                    log_level="error", access_log=False)  # fmt: skip
        return 0
    up_port, gw_port = free_port(), free_port()
    env = {**os.environ, "INTERLINGUA_STATE": ""}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.gateway_overhead",
                "--upstream",
                str(up_port),
                "--events",
                str(args.events),
            ]  # fmt: skip
        ),
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "interlingua",
                "serve",
                "--port",
                str(gw_port),
                "--upstream-protocol",
                "openai_chat",
                "--upstream-base-url",
                f"http://127.0.0.1:{up_port}/v1",
                "--state",
                "off",
                "--log-level",
                "warning",
            ],  # fmt: skip
            env=env,
            stderr=subprocess.DEVNULL,
        ),
    ]
    try:
        up, gw = f"http://127.0.0.1:{up_port}", f"http://127.0.0.1:{gw_port}"
        wait_up(up)
        wait_up(gw + "/healthz")
        asyncio.run(measure(args, up, gw))
    finally:
        for p in procs:
            p.terminate()
            p.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
