"""`python -m bench.instructions`: the bench's ratios in CPU instructions, not time.

Wall-clock ratios move by 10 % or more on a shared machine; instruction counts do not depend on
the load (nor on the CPU's clock), so they are the figure to compare before and after a change.
Each workload's floor and interlingua contenders run in one process under valgrind's callgrind
(``--toggle-collect`` on the ctypes callback the loop is called through: only the loop is
counted, not the start-up). A contender is called ``n`` times, then ``2n`` times; the cost of one
call is the difference over ``n`` (the callback's own fixed cost cancels). With
``PYTHONHASHSEED=0`` a stream's counts repeat within ~0.5 % from run to run; a large body's move
by up to ~6 % (orjson's key cache is seeded per process), the floor and interlingua alike, since
both run in the same process: compare the ratios.

An instruction ratio is not a time ratio: orjson's instructions are cheaper (fewer cache misses,
more work per instruction) than the interpreter's, so the timed "× floor" is usually a little
higher than the instruction one. Use this table to see what a change did, the timed one for the
targets. Needs ``valgrind`` on PATH; without it the table says so and nothing fails.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any, TextIO

import orjson

# calls per measurement, per workload kind (the measured loop runs n, then 2n times)
ITERATIONS = {"request": 4, "response": 20, "stream": 1, "sse": 1}
_SMALL = 20  # small requests: more calls, each is short

_MARK = "_CallPythonObject"  # the ctypes function every callback call goes through


# -- the child: runs under callgrind ----------------------------------------------------------


def _child(only: list[str] | None, manifest: str, scale: int) -> None:
    from .workloads import Workload, build

    workloads = [w for w in build("LiteLLM not measured", only) if isinstance(w, Workload)]
    gc.collect()
    gc.freeze()
    callback = ctypes.CFUNCTYPE(None)
    labels: list[dict[str, Any]] = []
    for w in workloads:
        n = (_SMALL if "small" in w.id else ITERATIONS.get(w.kind, 1)) * scale
        for name in ("floor", "interlingua"):
            fn = w.contenders.get(name)
            if fn is None:
                continue
            try:
                w.check(name, fn())
            except Exception:  # noqa: BLE001 - a contender that fails its check is left out
                continue
            fn()  # warm: lazy imports and caches are not the translation's cost

            for reps in (n, 2 * n):

                def loop(fn: Any = fn, reps: int = reps) -> None:
                    for _ in range(reps):
                        fn()

                callback(loop)()  # one callgrind dump per call
                labels.append({"id": w.id, "contender": name, "calls": reps})
        labels_meta = {"title": w.title, "kind": w.kind, "events": w.events, "target": w.target}
        labels.append({"id": w.id, "meta": labels_meta})
    with open(manifest, "wb") as f:
        f.write(orjson.dumps(labels))


# -- the parent: runs the child, reads the dumps ----------------------------------------------


def _totals(path: str) -> int:
    with open(path) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    raise ValueError(f"no totals in {path}")


def measure(only: list[str] | None, scale: int = 1) -> list[dict[str, Any]]:
    """Instructions per call of each workload's floor and interlingua, and their ratio."""
    with tempfile.TemporaryDirectory(prefix="ilg-instr-") as tmp:
        manifest = os.path.join(tmp, "manifest.json")
        cmd = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no",
            f"--toggle-collect={_MARK}", f"--dump-after={_MARK}",
            f"--callgrind-out-file={tmp}/cg.out", "--log-file=" + os.path.join(tmp, "vg.log"),
            sys.executable, "-m", "bench.instructions", "--child", manifest, "--scale", str(scale),
        ]  # fmt: skip
        if only:
            cmd += ["--only", *only]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run(cmd, check=True, env=env, cwd=os.path.dirname(os.path.dirname(__file__)))
        with open(manifest, "rb") as f:
            labels = orjson.loads(f.read())
        dumps = sorted(
            (p for p in os.listdir(tmp) if p.startswith("cg.out.")),
            key=lambda p: int(p.rsplit(".", 1)[1]),
        )
        counts = [_totals(os.path.join(tmp, p)) for p in dumps]
    return _results(labels, counts)


def _results(labels: list[dict[str, Any]], counts: list[int]) -> list[dict[str, Any]]:
    it = iter(counts)
    by_id: dict[str, dict[str, Any]] = {}
    pending: dict[tuple[str, str], int] = {}
    for lab in labels:
        r = by_id.setdefault(lab["id"], {"id": lab["id"], "contenders": {}})
        if "meta" in lab:
            r.update(lab["meta"])
            continue
        k = (lab["id"], lab["contender"])
        ir = next(it)
        if k not in pending:
            pending[k] = ir
            continue
        per_call = (ir - pending.pop(k)) / (lab["calls"] / 2)
        r["contenders"][lab["contender"]] = round(per_call)
    out = []
    for r in by_id.values():
        c = r["contenders"]
        if "floor" in c and "interlingua" in c and c["floor"] > 0:
            r["x_floor"] = round(c["interlingua"] / c["floor"], 3)
        out.append(r)
    return out


def _count(n: float, per: int | None) -> str:
    if per:
        return f"{n / per:,.0f} /ev"
    return f"{n / 1000:,.0f} k" if n >= 10_000 else f"{n:,.0f}"


def table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| workload | floor instructions | interlingua instructions | × floor (instructions) "
        "| target (timed) |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        c = r["contenders"]
        per = r.get("events") if r.get("kind") == "stream" else None
        fl = _count(c["floor"], per) if "floor" in c else "n/a"
        il = _count(c["interlingua"], per) if "interlingua" in c else "n/a"
        x = f"{r['x_floor']:.2f}×" if "x_floor" in r else "n/a"
        target = r.get("target", "").replace("<=", "≤ ").replace(">=", "≥ ").replace("x", "×")
        lines.append(f"| {r.get('title', r['id'])} | {fl} | {il} | {x} | {target} |")
    return "\n".join(lines)


def run(argv: list[str] | None = None, out: TextIO | None = None) -> list[dict[str, Any]]:
    out = out or sys.stdout
    ap = argparse.ArgumentParser(
        prog="python -m bench.instructions",
        description="The bench's floor and interlingua contenders counted in CPU instructions "
        "(valgrind callgrind): ratios that do not move with the machine's load.",
    )
    ap.add_argument("--only", nargs="+", metavar="ID", help="workload ids containing any of these")
    ap.add_argument("--scale", type=int, default=1, help="multiply the calls per measurement")
    ap.add_argument("--out", metavar="FILE", help="also write the JSON result to FILE")
    ap.add_argument("--child", metavar="MANIFEST", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.only, args.child, args.scale)
        return []
    if shutil.which("valgrind") is None:
        print("# instruction counts: n/a (valgrind is not installed)", file=out)
        return []
    print(
        "# interlingua bench, instruction counts (valgrind callgrind, load-independent)", file=out
    )
    results = measure(args.only, args.scale)
    print(file=out)
    print(table(results), file=out)
    print(
        "\nInstructions per call (per input event for streams), the difference between n and 2n "
        "calls; × floor is interlingua's count over the floor's. Not a time ratio: see "
        "docs/performance.md.",
        file=out,
    )
    line = orjson.dumps({"suite": "interlingua-bench-instructions", "workloads": results})
    print(line.decode(), file=out)
    if args.out:
        with open(args.out, "wb") as f:
            f.write(line + b"\n")
    return results


def main(argv: list[str] | None = None) -> int:
    run(argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
