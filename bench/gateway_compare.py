"""Several gateways side by side in one run: before and after a change, or ``--workers N``.

``python -m bench.gateway_compare [--src DIR ...] [--workers N ...] [--calls 400] [--rounds 5]``

The upstream, the client, the checks and the figures of bench/gateway_overhead.py, with more
than one gateway in front of the same upstream: this checkout's, each ``--src DIR`` (another
checkout's ``runtime/`` run as ``interlingua``: e.g. an export of the commit before a change),
this checkout's again with ``--workers N`` for each N given, and ``--floor relay`` / ``--floor
json``: bench/gateway_floor.py's proxy (the gateway's server and upstream client, with only a
relay or the bare JSON floor in between; its answers are checked against the upstream's). Every contender is timed in
the same blocks, interleaved (direct, then each gateway, again and again), so a busy moment of
a shared machine falls on all of them; the throughput rounds alternate the same way. Reported
per gateway: p50 / p95 and what it adds to the direct call, its CPU time per call (all its
processes), its calls per second at ``--concurrency`` callers and its share of direct.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from typing import Any

import orjson

from .gateway_instructions import _BOOT
from .gateway_overhead import Contender, check, cpu_seconds, free_port, ms, wait_up
from .rawhttp import Connection


def tree(pid: int) -> list[int]:
    """``pid`` and its descendants (``--workers``: the worker processes)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return out


class Gateway(Contender):
    """A gateway contender whose CPU time is its whole process tree's."""

    def __init__(self, name: str, port: int, body: bytes, root: int) -> None:
        super().__init__(name, port, "/v1/messages", body, [])
        self.root = root
        self.cpu_total = 0.0

    async def block(self, conn: Connection, n: int) -> None:
        pids = tree(self.root)
        before = sum(cpu_seconds(p) or 0.0 for p in pids)
        await super().block(conn, n)
        self.cpu_total += sum(cpu_seconds(p) or 0.0 for p in pids) - before


def start(label: str, src: str | None, workers: int, up_port: int) -> tuple[str, int, Any]:
    port = free_port()
    if src is not None and src.startswith("floor:"):  # bench/gateway_floor.py's proxy
        cmd = [sys.executable, "-m", "bench.gateway_floor", "--port", str(port),
               "--upstream-base-url", f"http://127.0.0.1:{up_port}/v1", "--mode", src[6:]]  # fmt: skip
        return label, port, subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
    boot = ["-m", "interlingua"] if src is None else ["-c", _BOOT, os.path.abspath(src)]
    cmd = [sys.executable, *boot, "serve", "--port", str(port), "--upstream-protocol",
           "openai_chat", "--upstream-base-url", f"http://127.0.0.1:{up_port}/v1",
           "--upstream-api-key-env", "", "--log-level", "warning"]  # fmt: skip
    cmd += ["--state", "off"] if workers == 1 else ["--workers", str(workers)]
    env = {**os.environ, "INTERLINGUA_STATE": ""}
    return label, port, subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)


async def measure(args: argparse.Namespace, up: int, gws: list[tuple[str, int, Any]]) -> Any:
    messages = [{"role": "user", "content": "What is the answer?"}]
    results = []
    for stream in (False, True):
        d_body = orjson.dumps({"model": "m", "messages": messages, "stream": stream})
        g_body = orjson.dumps({"model": "m", "messages": messages, "stream": stream,
                               "max_tokens": 64})  # fmt: skip
        direct = Contender("direct", up, "/v1/chat/completions", d_body, [])
        gates = [Gateway(label, port, g_body, p.pid) for label, port, p in gws]
        everyone: list[Contender] = [direct, *gates]
        conns = [Connection("127.0.0.1", c.port) for c in everyone]
        first = await direct.call(conns[0])
        for g, c in zip(gates, conns[1:], strict=True):
            if g.name.startswith("floor"):  # the upstream's answer, parsed and written again
                same = orjson.loads(first) if not stream else first.count(b"data: ")
                got = await g.call(c)
                if same != (orjson.loads(got) if not stream else got.count(b"data: ")):
                    raise RuntimeError(f"{g.name}: unexpected answer {got[:120]!r}")
                continue
            check(first, await g.call(c), stream)
        for _ in range(20):  # warm up
            for who, c in zip(everyone, conns, strict=True):
                await who.call(c)
        left = args.calls
        while left > 0:
            n = min(20, left)
            for who, c in zip(everyone, conns, strict=True):
                await who.block(c, n)
            left -= n
        for c in conns:
            c.close()
        rates: dict[str, list[float]] = {c.name: [] for c in everyone}
        for _ in range(args.rounds):
            for who in everyone:
                rates[who.name].append(await who.rate(args.concurrency, args.seconds))
        kind = f"stream of {args.events} events" if stream else "body"
        print(f"{kind}: direct p50 {ms(direct.times, 50):.3f} ms, p95 {ms(direct.times, 95):.3f}"
              f" ms, {statistics.median(rates['direct']):,.0f}/s")  # fmt: skip
        for g in gates:
            shares = [a / b for a, b in zip(rates[g.name], rates["direct"], strict=True)]
            r = {
                "kind": kind,
                "gateway": g.name,
                "p50": ms(g.times, 50),
                "p95": ms(g.times, 95),
                "added_p50_ms": round(ms(g.times, 50) - ms(direct.times, 50), 3),
                "cpu_us_per_call": round(g.cpu_total / g.timed_calls * 1e6),
                "rate": round(statistics.median(rates[g.name])),
                "share": round(statistics.median(shares), 3),
            }
            print(f"  {g.name}: p50 {r['p50']:.3f} ms (adds {r['added_p50_ms']:.3f}), p95 "
                  f"{r['p95']:.3f} ms, CPU {r['cpu_us_per_call']} us per call, {r['rate']:,}/s"
                  f" ({100 * r['share']:.0f}% of direct)", flush=True)  # fmt: skip
            results.append(r)
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.gateway_compare", description=__doc__)
    ap.add_argument("--src", action="append", default=[], help="another checkout's gateway")
    ap.add_argument(
        "--floor",
        action="append",
        default=[],
        choices=("answer", "relay", "json"),
        help="also bench/gateway_floor.py's proxy in this mode",
    )
    ap.add_argument("--workers", type=int, action="append", default=[], help="also with N")
    ap.add_argument("--calls", type=int, default=400, help="timed calls per contender")
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one throughput round")
    ap.add_argument("--rounds", type=int, default=5, help="throughput rounds per contender")
    ap.add_argument("--events", type=int, default=60)
    args = ap.parse_args(argv)
    up_port = free_port()
    up = subprocess.Popen([sys.executable, "-m", "bench.gateway_overhead", "--upstream",
                           str(up_port), "--events", str(args.events)])  # fmt: skip
    gws = [start(f"floor {m}", f"floor:{m}", 1, up_port) for m in args.floor]
    gws += [start(f"gateway {src}", src, 1, up_port) for src in args.src]
    gws.append(start("gateway", None, 1, up_port))
    gws += [start(f"gateway --workers {n}", None, n, up_port) for n in args.workers]
    try:
        wait_up(f"http://127.0.0.1:{up_port}")
        for _, port, _ in gws:
            wait_up(f"http://127.0.0.1:{port}/healthz")
        if args.workers:
            time.sleep(5)  # every worker up, not only the first
        load = os.getloadavg()[0]
        print(f"# gateways side by side: {os.cpu_count()} CPUs, load average {load:.2f}")
        results = asyncio.run(measure(args, up_port, gws))
        end = os.getloadavg()[0]
        print(orjson.dumps({"gateway_compare": results, "load": [load, end]}).decode())
    finally:
        for *_, p in [*gws, ("", 0, up)]:
            p.terminate()
        for *_, p in [*gws, ("", 0, up)]:
            p.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
