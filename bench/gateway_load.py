"""The gateway under load: N concurrent streaming requests, none lost or mixed up.

``python -m bench.gateway_load [--concurrency 200] [--deltas 20]``

- a local upstream (a separate process) streams Chat Completions: each request gets an answer
  made of its own nonce, in ``--deltas`` text deltas a few milliseconds apart, under the chunk id
  ``chatcmpl-<nonce>``;
- the gateway (``interlingua serve``, a separate process) sits in front of it;
- the clients (this process) send N Anthropic Messages streaming requests at once through the
  gateway, then the same N straight to the upstream (in Chat, the baseline);
- every answer is checked: its message id and its text must be the request's own, and it must
  end with ``message_stop`` (a lost, truncated or mixed-up stream fails the run);
- reported: time to first byte and total time, p50/p95, direct and through the gateway (the
  difference is the gateway's added latency), and the gateway's memory (RSS before, after, peak).

Exits 1 when any check fails.
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
import uuid
from typing import Any

import httpx
import orjson

UPSTREAM_MODEL = "load-model"


# ---------------------------------------------------------------- the upstream process


def upstream_app(deltas: int, delay: float) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import StreamingResponse
    from starlette.routing import Route

    async def chat(request: Request) -> StreamingResponse:
        body = orjson.loads(await request.body())
        nonce = body["messages"][-1]["content"]
        cid = f"chatcmpl-{nonce}"

        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            c = {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": 0,
                "model": body["model"],
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            return b"data: " + orjson.dumps(c) + b"\n\n"

        async def gen() -> Any:
            yield chunk({"role": "assistant", "content": ""})
            for i in range(deltas):
                yield chunk({"content": f"{nonce}:{i} "})
                await asyncio.sleep(delay)
            yield chunk({}, "stop")
            usage = {"prompt_tokens": 5, "completion_tokens": deltas, "total_tokens": 5 + deltas}
            yield b"data: " + orjson.dumps({"id": cid, "choices": [], "usage": usage}) + b"\n\n"
            yield b"data: [DONE]\n\n"

        return StreamingResponse(gen(), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])


def run_upstream(port: int, deltas: int, delay: float) -> None:
    import uvicorn

    uvicorn.run(
        upstream_app(deltas, delay),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        backlog=4096,
    )


# ---------------------------------------------------------------- the clients


def expected_text(nonce: str, deltas: int) -> str:
    return "".join(f"{nonce}:{i} " for i in range(deltas))


async def one_stream(
    client: httpx.AsyncClient, url: str, via_gateway: bool, deltas: int
) -> tuple[float, float, str | None]:
    """(ttfb, total, problem) of one streaming request."""
    nonce = uuid.uuid4().hex
    if via_gateway:
        body: dict[str, Any] = {
            "model": "claude-load",
            "max_tokens": 256,
            "stream": True,
            "messages": [{"role": "user", "content": nonce}],
        }
        path = "/v1/messages"
    else:
        body = {
            "model": UPSTREAM_MODEL,
            "stream": True,
            "messages": [{"role": "user", "content": nonce}],
        }
        path = "/v1/chat/completions"
    started = time.perf_counter()
    ttfb = None
    raw = bytearray()
    async with client.stream("POST", url + path, json=body) as r:
        if r.status_code != 200:
            return 0.0, 0.0, f"HTTP {r.status_code}"
        async for chunk in r.aiter_bytes():
            if ttfb is None:
                ttfb = time.perf_counter() - started
            raw += chunk
    total = time.perf_counter() - started
    return ttfb or total, total, check(bytes(raw), nonce, deltas, via_gateway)


def check(raw: bytes, nonce: str, deltas: int, via_gateway: bool) -> str | None:
    text: list[str] = []
    ids: set[str] = set()
    ended = False
    for block in raw.split(b"\n\n"):
        for line in block.split(b"\n"):
            if not line.startswith(b"data:"):
                continue
            data = line[5:].strip()
            if data == b"[DONE]":
                ended = True
                continue
            ev = orjson.loads(data)
            if via_gateway:
                t = ev.get("type")
                if t == "message_start":
                    ids.add(ev["message"]["id"])
                elif t == "content_block_delta" and ev["delta"].get("type") == "text_delta":
                    text.append(ev["delta"]["text"])
                elif t == "message_stop":
                    ended = True
                elif t == "error":
                    return f"error event: {ev['error']}"
            else:
                ids.add(ev["id"])
                for ch in ev.get("choices") or []:
                    text.append(ch["delta"].get("content") or "")
    if ids != {f"chatcmpl-{nonce}"}:
        return f"ids {sorted(ids)} (expected chatcmpl-{nonce})"
    if "".join(text) != expected_text(nonce, deltas):
        return "text mixed up or truncated"
    if not ended:
        return "no terminal event"
    return None


async def burst(
    url: str, n: int, via_gateway: bool, deltas: int
) -> list[tuple[float, float, str | None]]:
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        return await asyncio.gather(
            *(one_stream(client, url, via_gateway, deltas) for _ in range(n))
        )


# ---------------------------------------------------------------- processes and report


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port: int = s.getsockname()[1]
    s.close()
    return port


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{url}: the process exited ({proc.returncode})")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not start")


def rss_kb(pid: int) -> dict[str, int]:
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    key, value = line.split(":", 1)
                    out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(results: list[tuple[float, float, str | None]]) -> dict[str, float]:
    ttfb = [r[0] * 1000 for r in results if r[2] is None]
    total = [r[1] * 1000 for r in results if r[2] is None]
    return {
        "ttfb_p50_ms": round(statistics.median(ttfb), 1) if ttfb else 0.0,
        "ttfb_p95_ms": round(pct(ttfb, 0.95), 1),
        "total_p50_ms": round(statistics.median(total), 1) if total else 0.0,
        "total_p95_ms": round(pct(total, 0.95), 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.gateway_load", description=__doc__)
    ap.add_argument("--concurrency", type=int, default=200)
    ap.add_argument("--deltas", type=int, default=20, help="text deltas per answer")
    ap.add_argument("--delay", type=float, default=0.005, help="seconds between deltas")
    ap.add_argument("--upstream", type=int, help=argparse.SUPPRESS)  # run as the upstream
    args = ap.parse_args(argv)
    if args.upstream:
        run_upstream(args.upstream, args.deltas, args.delay)
        return 0

    up_port, gw_port = free_port(), free_port()
    up_url, gw_url = f"http://127.0.0.1:{up_port}", f"http://127.0.0.1:{gw_port}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    upstream = subprocess.Popen(
        [sys.executable, "-m", "bench.gateway_load", "--upstream", str(up_port)]
        + ["--deltas", str(args.deltas), "--delay", str(args.delay)],
        env=env,
    )
    gateway = subprocess.Popen(
        [sys.executable, "-m", "interlingua", "serve", "--port", str(gw_port)]
        + ["--upstream-protocol", "openai_chat", "--upstream-base-url", up_url + "/v1"]
        + ["--model-map", f"claude-*={UPSTREAM_MODEL}", "--log-level", "warning"],
        env=env,
        stderr=subprocess.DEVNULL,  # the access log: one line per request
    )
    try:
        wait_ready(up_url + "/", upstream)
        wait_ready(gw_url + "/healthz", gateway)
        n = args.concurrency
        asyncio.run(burst(gw_url, 10, True, args.deltas))  # warm-up (imports, pools)
        before = rss_kb(gateway.pid)
        direct = asyncio.run(burst(up_url, n, False, args.deltas))
        through = asyncio.run(burst(gw_url, n, True, args.deltas))
        after = rss_kb(gateway.pid)
    finally:
        for p in (gateway, upstream):
            p.terminate()
        for p in (gateway, upstream):
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
    problems = [r[2] for r in through if r[2]] + [f"direct: {r[2]}" for r in direct if r[2]]
    d, g = summary(direct), summary(through)
    report = {
        "concurrency": n,
        "deltas": args.deltas,
        "ok": n - len([r for r in through if r[2]]),
        "lost_or_mixed": len([r for r in through if r[2]]),
        "direct": d,
        "gateway": g,
        "added_ms": {k: round(g[k] - d[k], 1) for k in d},
        "gateway_rss_kb": {
            "before": before.get("VmRSS"),
            "after": after.get("VmRSS"),
            "peak": after.get("VmHWM"),
        },
    }
    print(f"gateway load: {n} concurrent streams of {args.deltas} deltas (Anthropic -> Chat)")
    print("| | TTFB p50 | TTFB p95 | total p50 | total p95 |")
    print("|---|---|---|---|---|")
    for name, s in (("direct to upstream", d), ("through the gateway", g)):
        print(
            f"| {name} | {s['ttfb_p50_ms']} ms | {s['ttfb_p95_ms']} ms | "
            f"{s['total_p50_ms']} ms | {s['total_p95_ms']} ms |"
        )
    rss = report["gateway_rss_kb"]
    print(f"gateway RSS: {rss['before']} kB before, {rss['after']} kB after, peak {rss['peak']} kB")
    print(f"lost or mixed up: {report['lost_or_mixed']} of {n}")
    print(orjson.dumps(report).decode())
    for p in problems[:10]:
        print(f"  problem: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
