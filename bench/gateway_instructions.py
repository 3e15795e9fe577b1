"""Instructions the gateway process executes per call: load-independent, unlike its timed cost.

``python -m bench.gateway_instructions [--calls 200] [--events 60] [--src DIR ...]``

The fake upstream and the client of bench/gateway_overhead.py; the gateway (``interlingua
serve``, access log and metrics on, as there) runs under valgrind's callgrind with its
instrumentation off until it has started. After 20 warm-up calls, its counters are zeroed
(``callgrind_control -z``), ``--calls`` calls are made one at a time, and the counters dumped
(``-d``): user-space instructions per call, for a body and for a stream of ``--events``
events. Repeatable to about 1 % whatever the machine's load, so it says what a change did to
the gateway's cost where the timed figures (gateway_overhead.py) drift with the load.

``--src DIR`` (repeatable) measures the gateway of another checkout too (its ``runtime/`` is
imported as ``interlingua``: e.g. a ``git worktree`` of the commit before a change), each
against the same upstream, so before and after come from one run. ``--floor relay`` / ``--floor
json`` also measure bench/gateway_floor.py's proxy (the gateway's server and upstream client
with only a relay, or the bare JSON floor, in between). ``--keep DIR`` copies callgrind's dumps
there (for ``callgrind_annotate``). Needs ``valgrind`` on PATH.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import orjson

from .gateway_overhead import free_port, wait_up
from .rawhttp import Connection

WARM = 20

_BOOT = """import sys, importlib.util as u
src = sys.argv.pop(1)
mods = []
for name, d in (("interlingua", "runtime"), ("interlingua.generated", "generated")):
    s = u.spec_from_file_location(name, f"{src}/{d}/__init__.py",
                                  submodule_search_locations=[f"{src}/{d}"])
    mods.append((s, u.module_from_spec(s)))
    sys.modules[name] = mods[-1][1]
for s, m in reversed(mods):
    s.loader.exec_module(m)
from interlingua._cli import main
sys.exit(main())
"""


def _wait_up(url: str, seconds: float = 600) -> None:
    """As gateway_overhead.wait_up, with the time a start under valgrind takes on a busy machine."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            wait_up(url)
            return
        except RuntimeError:
            if time.monotonic() > deadline:
                raise


def _totals(path: str) -> int:
    with open(path) as f:
        for line in f:
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1])
    raise ValueError(f"no totals in {path}")


def _control(pid: int, *flags: str) -> None:
    subprocess.run(["callgrind_control", *flags, str(pid)], check=True, capture_output=True)


async def _calls(port: int, body: bytes, n: int) -> None:
    conn = Connection("127.0.0.1", port)
    for _ in range(n):
        status, out = await conn.post("/v1/messages", body)
        if status != 200:
            raise RuntimeError(f"HTTP {status}: {out[:200]!r}")
    conn.close()


def _last_dump(tmp: str, port: int, label: str) -> str:
    """The dump callgrind just wrote (renamed, so the next one is told apart)."""
    deadline = time.monotonic() + 30
    while True:
        dumps = [p for p in os.listdir(tmp) if p.startswith(f"cg.{port}.") and p[-1].isdigit()]
        if dumps or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    last = os.path.join(tmp, max(dumps, key=lambda p: int(p.rsplit(".", 1)[1])))
    done = os.path.join(tmp, f"done.{port}.{label}")
    os.rename(last, done)
    return done


def measure_gateway(
    src: str | None, up_port: int, calls: int, windows: int, tmp: str, keep: str | None = None
) -> dict[str, Any]:
    """Instructions per call of one gateway (``src``: another checkout, None: this one)."""
    port = free_port()
    out = os.path.join(tmp, f"cg.{port}")
    grind = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
             "--log-file=" + out + ".log", sys.executable]  # fmt: skip
    up_url = f"http://127.0.0.1:{up_port}/v1"
    if src is not None and src.startswith("floor:"):  # bench/gateway_floor.py's proxy
        cmd = [*grind, "-m", "bench.gateway_floor", "--port", str(port), "--upstream-base-url",
               up_url, "--mode", src[6:]]  # fmt: skip
    else:
        boot = ["-m", "interlingua"] if src is None else ["-c", _BOOT, os.path.abspath(src)]
        cmd = [*grind, *boot, "serve", "--port", str(port), "--upstream-protocol", "openai_chat",
               "--upstream-base-url", up_url, "--upstream-api-key-env", "", "--state", "off",
               "--log-level", "warning"]  # fmt: skip
    env = {**os.environ, "INTERLINGUA_STATE": "", "PYTHONHASHSEED": "0"}
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
    result: dict[str, Any] = {"gateway": src or "."}
    label = (
        src.replace(":", "-")
        if src and src.startswith("floor:")
        else os.path.basename(os.path.abspath(src or "."))
    )
    try:
        _wait_up(f"http://127.0.0.1:{port}/healthz")
        _control(proc.pid, "-i", "on")
        messages = [{"role": "user", "content": "What is the answer?"}]
        for kind, stream in (("body", False), ("stream", True)):
            body = orjson.dumps(
                {"model": "m", "messages": messages, "stream": stream, "max_tokens": 64}
            )
            asyncio.run(_calls(port, body, WARM))
            per_window = []
            for w in range(windows):
                _control(proc.pid, "-z")
                asyncio.run(_calls(port, body, calls))
                _control(proc.pid, "-d")
                dump = _last_dump(tmp, port, f"{kind}.{w}")
                per_window.append(_totals(dump) / calls)
                if keep:
                    shutil.copy(dump, os.path.join(keep, f"{label}.{kind}.{w}.out"))
            result[kind] = round(statistics.median(per_window))
            result[kind + "_windows"] = [round(x) for x in per_window]
    finally:
        proc.terminate()
        proc.wait(30)
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.gateway_instructions", description=__doc__)
    ap.add_argument("--calls", type=int, default=50, help="calls per window")
    ap.add_argument("--windows", type=int, default=5, help="windows per kind (the median is kept)")
    ap.add_argument("--events", type=int, default=60)
    ap.add_argument("--src", action="append", default=[], help="another checkout to measure")
    ap.add_argument(
        "--floor",
        action="append",
        default=[],
        choices=("answer", "relay", "json"),
        help="also measure bench/gateway_floor.py's proxy in this mode",
    )
    ap.add_argument("--keep", help="copy callgrind's dumps into this folder (callgrind_annotate)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("# gateway instructions: n/a (valgrind is not installed)")
        return 0
    up_port = free_port()
    up_cmd = [sys.executable, "-m", "bench.gateway_overhead", "--upstream", str(up_port),
              "--events", str(args.events)]  # fmt: skip
    up = subprocess.Popen(up_cmd)
    results = []
    try:
        wait_up(f"http://127.0.0.1:{up_port}")
        with tempfile.TemporaryDirectory(prefix="ilg-gw-instr-") as tmp:
            for src in [*(f"floor:{m}" for m in args.floor), *args.src, None]:
                r = measure_gateway(src, up_port, args.calls, args.windows, tmp, args.keep)
                print(
                    f"{r['gateway']}: body {r['body'] / 1e3:,.0f} K instructions per call, "
                    f"{args.events}-event stream {r['stream'] / 1e3:,.0f} K",
                    flush=True,
                )
                results.append(r)
    finally:
        up.terminate()
        up.wait(10)
    print(orjson.dumps({"gateway_instructions": results, "events": args.events}).decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
