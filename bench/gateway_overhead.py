"""What the gateway adds to a call: the same calls straight to a fast fake upstream and through
``interlingua serve`` in front of it, on loopback with keep-alive connections.

``python -m bench.gateway_overhead [--calls 400] [--concurrency 32] [--seconds 1] [--rounds 5]``

- the upstream (a separate process, uvicorn) answers Chat Completions at once: a small body, or a
  stream of ``--events`` chunks;
- the gateway (``interlingua serve``, a separate process, its access log and metrics on) takes
  Anthropic Messages calls and translates them to Chat and back;
- one client for both contenders (bench/rawhttp.py: keep-alive HTTP/1.1, each answer read
  whole), so the direct call does the same HTTP work as the call through the gateway: one POST,
  one answer read to its end;
- the contenders are interleaved (blocks of calls, direct then gateway, again and again), so a
  busy moment of the machine falls on both;
- reported, for a body and for a stream: p50 / p95 of one call at a time (direct, through the
  gateway, and the difference: what the gateway adds), the CPU time each server process spent
  per call (from /proc, Linux), then the calls per second of ``--concurrency`` concurrent callers
  (each on its own connection) in ``--rounds`` alternating rounds of ``--seconds``, and the
  gateway's share of direct (the median of the per-round ratios), with the CPUs each process
  (client, upstream, gateway) kept busy meanwhile: which of them bounds the calls per second;
- the targets (issue 10): the gateway adds at most 0.5 ms per call and per stream at p50, and
  serves at least 60 % of the direct calls per second.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from importlib.util import find_spec
from typing import Any

import httpx
import orjson

from .rawhttp import Connection

ADDED_MS_TARGET = 0.5
SHARE_TARGET = 0.60

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
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not start")


def cpu_seconds(pid: int) -> float | None:
    """CPU time of a process's threads so far, in nanoseconds' precision (Linux schedstat),
    None elsewhere."""
    try:
        total = 0
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return total / 1e9


class Contender:
    """One way to make the call: where it goes, what is sent, and the server processes."""

    def __init__(self, name: str, port: int, path: str, body: bytes, pids: list[int]) -> None:
        self.name, self.port, self.path, self.body, self.pids = name, port, path, body, pids
        self.times: list[float] = []
        self.cpu: dict[int, float] = dict.fromkeys(pids, 0.0)
        self.timed_calls = 0
        # per throughput round: the CPUs each process kept busy (the client's first)
        self.busy: list[list[float | None]] = []

    async def call(self, conn: Connection) -> bytes:
        status, out = await conn.post(self.path, self.body)
        if status != 200:
            raise RuntimeError(f"{self.name}: HTTP {status}: {out[:200]!r}")
        return out

    async def block(self, conn: Connection, n: int) -> None:
        """``n`` calls one at a time, each timed, and the servers' CPU time over them."""
        before = {pid: cpu_seconds(pid) for pid in self.pids}
        for _ in range(n):
            t = time.perf_counter()
            await self.call(conn)
            self.times.append(time.perf_counter() - t)
        for pid, b in before.items():
            a = cpu_seconds(pid)
            if a is not None and b is not None:
                self.cpu[pid] += a - b
        self.timed_calls += n

    async def rate(self, concurrency: int, seconds: float) -> float:
        """Calls per second of ``concurrency`` callers, each on its own open connection."""
        conns = [Connection("127.0.0.1", self.port) for _ in range(concurrency)]
        await asyncio.gather(*(self.call(c) for c in conns))  # connected and warm
        done = 0
        end = time.perf_counter() + seconds

        async def caller(c: Connection) -> None:
            nonlocal done
            while time.perf_counter() < end:
                await self.call(c)
                done += 1

        pids = [os.getpid(), *self.pids]
        cpu = [cpu_seconds(p) for p in pids]
        start = time.perf_counter()
        await asyncio.gather(*(caller(c) for c in conns))
        elapsed = time.perf_counter() - start
        used = [cpu_seconds(p) for p in pids]
        self.busy.append(
            [None if a is None or b is None else (a - b) / elapsed for a, b in zip(used, cpu)]
        )
        for c in conns:
            c.close()
        return done / elapsed


def check(direct: bytes, gateway: bytes, stream: bool) -> None:
    """Both answers are what they should be before anything is timed."""
    if stream:
        ok = direct.endswith(b"data: [DONE]\n\n") and b"message_stop" in gateway
        ok = ok and gateway.count(b"text_delta") >= 59 and b"w59 " in gateway
    else:
        ok = b"The answer is 42." in direct and b"The answer is 42." in gateway
        ok = ok and b'"type":"message"' in gateway.replace(b" ", b"")
    if not ok:
        raise RuntimeError(f"unexpected answer: direct {direct[:120]!r}, gateway {gateway[:120]!r}")


def ms(xs: list[float], q: int) -> float:
    if len(xs) < 2:
        return xs[0] * 1000
    return statistics.quantiles(xs, n=100)[q - 1] * 1000


async def measure_one(
    args: argparse.Namespace, direct: Contender, gateway: Contender, stream: bool
) -> dict[str, Any]:
    cd, cg = Connection("127.0.0.1", direct.port), Connection("127.0.0.1", gateway.port)
    check(await direct.call(cd), await gateway.call(cg), stream)
    for _ in range(20):  # warm up
        await direct.call(cd)
        await gateway.call(cg)
    block = max(1, min(20, args.calls // 10))
    left = args.calls
    while left > 0:  # interleaved: a block direct, a block through the gateway
        n = min(block, left)
        await direct.block(cd, n)
        await gateway.block(cg, n)
        left -= n
    cd.close()
    cg.close()
    rates: dict[str, list[float]] = {"direct": [], "gateway": []}
    for _ in range(args.rounds):
        rates["direct"].append(await direct.rate(args.concurrency, args.seconds))
        rates["gateway"].append(await gateway.rate(args.concurrency, args.seconds))
    shares = [g / d for d, g in zip(rates["direct"], rates["gateway"], strict=True)]
    up_pid, gw_pid = direct.pids[0], gateway.pids[1]

    def busy(c: Contender) -> dict[str, float | None]:
        """The median over the rounds of the CPUs each process kept busy."""
        names = ["client", "upstream", "gateway"][: len(c.busy[0])]
        out = {}
        for i, name in enumerate(names):
            xs = [r[i] for r in c.busy if r[i] is not None]
            out[name] = round(statistics.median(xs), 2) if xs else None
        return out

    def cpu_us(c: Contender, pid: int) -> float | None:
        if cpu_seconds(pid) is None:
            return None
        return round(c.cpu[pid] / c.timed_calls * 1e6)

    return {
        "kind": f"stream of {args.events} events" if stream else "body",
        "calls": args.calls,
        "p50": {"direct": ms(direct.times, 50), "gateway": ms(gateway.times, 50)},
        "p95": {"direct": ms(direct.times, 95), "gateway": ms(gateway.times, 95)},
        "added_p50_ms": round(ms(gateway.times, 50) - ms(direct.times, 50), 3),
        "added_p95_ms": round(ms(gateway.times, 95) - ms(direct.times, 95), 3),
        "cpu_us_per_call": {
            "upstream (direct calls)": cpu_us(direct, up_pid),
            "upstream (gateway calls)": cpu_us(gateway, up_pid),
            "gateway": cpu_us(gateway, gw_pid),
        },
        "busy_cpus": {"direct": busy(direct), "gateway": busy(gateway)},
        "rate_direct": round(statistics.median(rates["direct"])),
        "rate_gateway": round(statistics.median(rates["gateway"])),
        "share": round(statistics.median(shares), 3),
    }


def report(r: dict[str, Any], concurrency: int) -> None:
    print(f"{r['kind']}: one call at a time ({r['calls']} calls each, interleaved)")
    for q in ("p50", "p95"):
        d, g = r[q]["direct"], r[q]["gateway"]
        print(f"  {q}: direct {d:.3f} ms, gateway {g:.3f} ms, added {g - d:.3f} ms")
    cpu = r["cpu_us_per_call"]
    if cpu["gateway"] is not None:
        print(
            f"  CPU per call: gateway process {cpu['gateway']} us, upstream process "
            f"{cpu['upstream (direct calls)']} us"
        )
    print(
        f"  {concurrency} concurrent callers: direct {r['rate_direct']}/s, gateway "
        f"{r['rate_gateway']}/s ({100 * r['share']:.0f}% of direct, median of the rounds)"
    )
    for who, busy in r["busy_cpus"].items():
        if None not in busy.values():
            shown = ", ".join(f"{k} {v:.2f}" for k, v in busy.items())
            print(f"    CPUs kept busy during the {who} rounds: {shown}")


def verdict(results: list[dict[str, Any]]) -> list[str]:
    out = []
    for r in results:
        added = r["added_p50_ms"]
        met = "met" if added <= ADDED_MS_TARGET else "missed"
        out.append(f"{r['kind']}: added at p50 {added:.3f} ms (target <= {ADDED_MS_TARGET}): {met}")
        met = "met" if r["share"] >= SHARE_TARGET else "missed"
        out.append(
            f"{r['kind']}: {100 * r['share']:.0f}% of the direct calls per second "
            f"(target >= {100 * SHARE_TARGET:.0f}%): {met}"
        )
    return out


def servers() -> str:
    loop = "uvloop" if find_spec("uvloop") else "asyncio"
    http = "httptools" if find_spec("httptools") else "h11"
    return f"uvicorn with {loop} + {http} (both servers)"


async def measure(args: argparse.Namespace, up: int, gw: int, pids: list[int]) -> list[Any]:
    messages = [{"role": "user", "content": "What is the answer?"}]
    results = []
    for stream in (False, True):
        d_body = {"model": "m", "messages": messages, "stream": stream}
        g_body = {**d_body, "max_tokens": 64}
        direct = Contender("direct", up, "/v1/chat/completions", orjson.dumps(d_body), pids[:1])
        gateway = Contender("gateway", gw, "/v1/messages", orjson.dumps(g_body), pids)
        r = await measure_one(args, direct, gateway, stream)
        report(r, args.concurrency)
        results.append(r)
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.gateway_overhead", description=__doc__)
    ap.add_argument("--calls", type=int, default=400, help="timed calls per contender")
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one throughput round")
    ap.add_argument("--rounds", type=int, default=5, help="throughput rounds per contender")
    ap.add_argument("--events", type=int, default=60)
    ap.add_argument("--quick", action="store_true", help="tiny counts (a smoke test)")
    ap.add_argument("--upstream", type=int, help=argparse.SUPPRESS)  # run as the upstream
    args = ap.parse_args(argv)
    if args.upstream:
        import uvicorn

        uvicorn.run(upstream_app(args.events), host="127.0.0.1", port=args.upstream,
                    log_level="error", access_log=False)  # fmt: skip
        return 0
    if args.quick:
        args.calls, args.rounds, args.seconds, args.concurrency = 20, 1, 0.2, 4
    up_port, gw_port = free_port(), free_port()
    env = {**os.environ, "INTERLINGUA_STATE": ""}
    up_cmd = [sys.executable, "-m", "bench.gateway_overhead", "--upstream", str(up_port),
              "--events", str(args.events)]  # fmt: skip
    gw_cmd = [sys.executable, "-m", "interlingua", "serve", "--port", str(gw_port),
              "--upstream-protocol", "openai_chat", "--upstream-base-url",
              f"http://127.0.0.1:{up_port}/v1", "--upstream-api-key-env", "", "--state", "off",
              "--log-level", "warning"]  # fmt: skip
    procs = [
        subprocess.Popen(up_cmd),
        subprocess.Popen(gw_cmd, env=env, stderr=subprocess.DEVNULL),  # access log on, unread
    ]
    try:
        wait_up(f"http://127.0.0.1:{up_port}")
        wait_up(f"http://127.0.0.1:{gw_port}/healthz")
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        print(
            f"# gateway overhead: {servers()}, CPython {platform.python_version()}, "
            f"{os.cpu_count()} CPUs, load average {load:.2f} at the start"
            if load is not None
            else f"# gateway overhead: {servers()}"
        )
        results = asyncio.run(measure(args, up_port, gw_port, [p.pid for p in procs]))
        for line in verdict(results):
            print("  " + line)
        end = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        print(orjson.dumps({"gateway_overhead": results, "load": [load, end]}).decode())
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
