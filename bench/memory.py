"""Memory: RSS growth while interlingua translates a long Chat -> Anthropic stream.

Run in a fresh process (``python -m bench.memory --events N``) so the rest of the suite's heap
does not hide or cause growth. The input is a generator (nothing held); the output is counted
and dropped. RSS is sampled every 1,000 input events; a flat stream keeps the growth after the
first 10 % of the events near zero whatever N is.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from . import contenders, data

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
MB = 1024 * 1024


def rss() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _hwm() -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _reset_hwm() -> None:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # resets the peak RSS (VmHWM) to the current RSS
    except OSError:
        pass


def measure(n_events: int) -> dict[str, Any]:
    if not contenders.has_translate_stream():
        return {"events": n_events, "n/a": "interlingua.translate_stream does not exist yet"}
    import interlingua

    translate = interlingua.translate_stream  # type: ignore[attr-defined]
    source, target = contenders.CHAT, contenders.ANTHROPIC
    for _ in translate(data.chat_stream_events(2000), source=source, target=target):
        pass  # warm-up: first-call caches and lazy imports are not growth
    samples: list[int] = []

    def sampled(events: Iterator[bytes]) -> Iterator[bytes]:
        for i, ev in enumerate(events):
            if i % 1000 == 0:
                samples.append(rss())
            yield ev

    _reset_hwm()
    start = rss()
    out_bytes = 0
    t0 = time.perf_counter()
    for chunk in translate(
        sampled(data.chat_stream_events(n_events)), source=source, target=target
    ):
        out_bytes += len(chunk)
    seconds = time.perf_counter() - t0
    end = rss()
    peak = max([*samples, end, _hwm() or 0])
    tenth = samples[max(1, len(samples) // 10)] if len(samples) > 1 else start
    return {
        "events": n_events,
        "direction": f"{source} -> {target}",
        "rss_start_mb": round(start / MB, 2),
        "rss_end_mb": round(end / MB, 2),
        "peak_growth_mb": round((peak - start) / MB, 2),
        "growth_after_first_10pct_mb": round((end - tenth) / MB, 2),
        "output_bytes": out_bytes,
        "seconds": round(seconds, 3),
        "us_per_event": round(seconds / n_events * 1e6, 3),
    }


def run_child(n_events: int, python: str | None = None) -> dict[str, Any]:
    """``measure`` in a fresh interpreter; returns its result or the error."""
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [python or sys.executable, "-m", "bench.memory", "--events", str(n_events)],
        cwd=root,
        capture_output=True,
        timeout=600,
    )
    if proc.returncode != 0:
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-3:]
        return {"events": n_events, "error": " | ".join(tail)}
    result: dict[str, Any] = orjson.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__)
    ap.add_argument("--events", type=int, default=100_000)
    args = ap.parse_args(argv)
    try:
        result = measure(args.events)
    except data.Missing as e:
        result = {"events": args.events, "skipped": str(e)}
    print(orjson.dumps(result).decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
