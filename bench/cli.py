"""`python -m bench`: run the workloads, print a Markdown table and one JSON line."""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
from typing import Any, TextIO

import orjson

from . import checks, memory, timing
from .contenders import LiteLLM
from .workloads import BROKEN, Skipped, Workload, build

NAMES = {"floor": "floor", "interlingua": "interlingua", "litellm": "LiteLLM"}


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        nproc = len(os.sched_getaffinity(0))
    except AttributeError:
        nproc = os.cpu_count() or 0
    return {
        "cpu": cpu,
        "nproc": nproc,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(terse=True),
    }


def _load() -> float | None:
    """The 1-minute load average (other processes competing for the CPUs), None if unknown."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def _versions(lite: LiteLLM | str | None) -> dict[str, str]:
    from importlib.metadata import version

    out = {"interlingua": version("interlingua"), "orjson": version("orjson")}
    if isinstance(lite, LiteLLM):
        out["litellm"] = lite.version
    return out


# -- one workload -----------------------------------------------------------------------------


def run_workload(w: Workload, settings: timing.Settings) -> dict[str, Any]:
    fns = {}
    notes = list(w.notes)
    for name, fn in w.contenders.items():
        try:
            w.check(name, fn())
        except Exception as e:  # noqa: BLE001 - any failure disqualifies the contender
            kind = "wrong output" if isinstance(e, checks.CheckFailed) else type(e).__name__
            notes.append(f"{NAMES[name]} left out, {kind}: {str(e)[:160]}")
            continue
        fns[name] = fn
    timings = timing.interleave(fns, settings) if fns else {}
    per = w.events or 1
    res: dict[str, Any] = {
        "id": w.id,
        "title": w.title,
        "kind": w.kind,
        "input_bytes": w.input_bytes,
        "events": w.events,
        "target": w.target,
        "notes": notes,
        "derived_input": w.derived,
        "contenders": {},
    }
    for name, t in timings.items():
        entry = {
            "median_us": round(t.median_ns / 1000, 3),
            "min_us": round(min(t.samples_ns) / 1000, 3),
            "spread": round(t.spread, 4),
            "mb_s": round(w.input_bytes / (t.median_ns / 1e9) / 1e6, 1),
            "loops": t.loops,
            "rounds": len(t.samples_ns),
        }
        if w.events:
            entry["us_per_event"] = round(t.median_ns / 1000 / per, 4)
        if name != "floor" and "floor" in timings:
            entry["x_floor"] = round(timing.ratio(timings, name), 3)
            entry["x_floor_of_minima"] = round(
                min(t.samples_ns) / min(timings["floor"].samples_ns), 3
            )
        res["contenders"][name] = entry
    if "litellm" in timings and "interlingua" in timings:
        res["litellm_over_interlingua"] = round(timing.ratio(timings, "litellm", "interlingua"), 2)
    res["met"] = _met(res)
    return res


def _met(res: dict[str, Any]) -> bool | None:
    il = res["contenders"].get("interlingua")
    if il is None:
        return None
    target: str = res["target"]
    if target.endswith("MB/s"):
        return bool(il["mb_s"] >= float(target[2:].split()[0]))
    if "x_floor" not in il:
        return None
    return bool(il["x_floor"] <= float(target[2:-1]))


# -- report -----------------------------------------------------------------------------------


def _size(n: int) -> str:
    return f"{n / 1000:.1f} KB" if n < 1_000_000 else f"{n / 1e6:.2f} MB"


def _time(entry: dict[str, Any] | None, per_event: bool) -> str:
    if entry is None:
        return "n/a"
    us = entry["us_per_event"] if per_event else entry["median_us"]
    unit = "µs/ev" if per_event else "µs"
    fmt = f"{us:.3g}" if us < 10 else f"{us:,.0f}"
    return f"{fmt} {unit} ±{entry['spread'] * 50:.0f}%"


def _ratio(entry: dict[str, Any] | None) -> str:
    if entry is None or "x_floor" not in entry:
        return "n/a"
    return f"{entry['x_floor']:.2f}×"


def _target(t: str) -> str:
    return t.replace("<=", "≤ ").replace(">=", "≥ ").replace("x", "×")


def table(results: list[dict[str, Any]], skipped: list[Skipped]) -> str:
    head = (
        "| workload | input | floor | interlingua | × floor | LiteLLM | × floor "
        "| LiteLLM ÷ interlingua | interlingua MB/s | target |"
    )
    lines = [head, "|" + "---|" * 10]
    for r in results:
        c = r["contenders"]
        per_event = r["kind"] == "stream"
        size = _size(r["input_bytes"]) + (f", {r['events']:,} ev" if r["events"] else "")
        size += " †" if r["derived_input"] else ""
        il = c.get("interlingua")
        lite = c.get("litellm")
        speedup = (
            f"{r['litellm_over_interlingua']:.1f}×" if "litellm_over_interlingua" in r else "n/a"
        )
        met = {True: "met", False: "**missed**", None: "n/a"}[r["met"]]
        lines.append(
            f"| {r['title']} | {size} | {_time(c.get('floor'), per_event)} | {_time(il, per_event)} "
            f"| {_ratio(il)} | {_time(lite, per_event)} | {_ratio(lite)} | {speedup} "
            f"| {il['mb_s'] if il else 'n/a'} | {_target(r['target'])} {met} |"
        )
    lines.append("")
    lines.append(
        "† input is interlingua's translation of the recorded Anthropic or Chat input "
        "(no recorded one of that shape in the source protocol). Streams: one event per read; "
        "SSE rows: 4 KiB reads, the floor only splits on blank lines and cuts out the data."
    )
    if skipped:
        lines.append("")
        for reason, ids in _grouped(skipped).items():
            lines.append(f"Skipped {', '.join(ids)}: {reason}")
    return "\n".join(lines)


def _grouped(skipped: list[Skipped]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for s in skipped:
        out.setdefault(s.reason, []).append(s.id)
    return out


def _memory_line(mem: dict[str, Any]) -> str:
    n = f"{mem['events']:,}-event Chat → Anthropic stream"
    if "peak_growth_mb" in mem:
        return (
            f"memory, {n}: peak RSS growth {mem['peak_growth_mb']:+.2f} MB over "
            f"{mem['rss_start_mb']:.1f} MB, growth after the first 10 % of the events "
            f"{mem['growth_after_first_10pct_mb']:+.2f} MB ({mem['us_per_event']:.2f} µs/event)"
        )
    return f"memory, {n}: n/a ({mem.get('n/a') or mem.get('skipped') or mem.get('error')})"


# -- main -------------------------------------------------------------------------------------


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="python -m bench",
        description="Translation cost vs the orjson floor and LiteLLM, contenders interleaved.",
    )
    ap.add_argument("--quick", action="store_true", help="tiny repeats: proves the suite runs")
    ap.add_argument("--only", nargs="+", metavar="ID", help="workload ids containing any of these")
    ap.add_argument("--list", action="store_true", help="list the workload ids and exit")
    ap.add_argument("--no-litellm", action="store_true", help="leave LiteLLM out even if installed")
    ap.add_argument("--memory-events", type=int, help="events of the memory stream (100,000)")
    ap.add_argument("--out", metavar="FILE", help="also write the JSON result to FILE")
    return ap.parse_args(argv)


def run(argv: list[str] | None = None, out: TextIO | None = None) -> dict[str, Any]:
    """Run the suite; print the table and the JSON line to ``out``; return the result."""
    out = out or sys.stdout
    args = parse(argv)
    settings = timing.QUICK if args.quick else timing.FULL
    t_start = time.perf_counter()
    lite: LiteLLM | str | None = (
        "LiteLLM not measured (--no-litellm)" if args.no_litellm else LiteLLM.load()
    )
    workloads = build(lite, args.only)
    if args.list:
        for w in workloads:
            print(w.id, "-", w.title, file=out)
        return {}
    gc.collect()
    gc.freeze()  # the imports' and inputs' objects are never scanned again during timing

    m = machine()
    m["loadavg_start"] = _load()
    print(
        f"# interlingua bench: {m['cpu']}, {m['nproc']} CPUs, Python {m['python']}; "
        f"{settings.rounds} interleaved rounds per workload"
        + (" (--quick: figures are meaningless)" if args.quick else ""),
        file=out,
    )
    if isinstance(lite, str):
        print(f"# LiteLLM: {lite}", file=out)
    if m["loadavg_start"] is not None and m["loadavg_start"] > 0.5 * m["nproc"]:
        print(
            f"# warning: the machine is busy (load {m['loadavg_start']:.1f} on {m['nproc']} CPUs): "
            "figures and even ratios will be noisy",
            file=out,
        )
    for pid, why in BROKEN.items():
        print(f"# protocol {pid} left out, it does not load: {why}", file=out)
    results = []
    skipped = [w for w in workloads if isinstance(w, Skipped)]
    for reason, ids in _grouped(skipped).items():
        print(f"# skipped {', '.join(ids)}: {reason}", file=out)
    for w in workloads:
        if isinstance(w, Workload):
            results.append(run_workload(w, settings))
            print(f"# done {w.id}", file=out, flush=True)
    gc.unfreeze()  # in-process callers (the smoke test) get their collector back as it was

    mem: dict[str, Any] | None = None
    if not args.only or any(o in "memory" for o in args.only):
        events = args.memory_events or (5_000 if args.quick else 100_000)
        mem = memory.run_child(events)

    print(file=out)
    print(table(results, skipped), file=out)
    print(file=out)
    for r in results:
        for note in r["notes"]:
            print(f"- {r['id']}: {note}", file=out)
    if mem is not None:
        print(_memory_line(mem), file=out)
    elapsed = time.perf_counter() - t_start
    m["loadavg_end"] = _load()
    print(f"({elapsed:.0f} s)", file=out)
    result = {
        "suite": "interlingua-bench",
        "quick": args.quick,
        "rounds": settings.rounds,
        "machine": m,
        "versions": _versions(lite),
        "workloads": results,
        "skipped": [{"id": s.id, "reason": s.reason} for s in skipped],
        "memory": mem,
        "protocols_left_out": BROKEN,
        "seconds": round(elapsed, 1),
    }
    line = orjson.dumps(result).decode()
    print(line, file=out)
    if args.out:
        with open(args.out, "w") as f:
            f.write(line + "\n")
    return result


def main(argv: list[str] | None = None) -> int:
    run(argv)
    return 0
