"""Interleaved timing: every round runs each contender once (A B C A B C ...), so a slow spell
of a shared machine hits all of them alike; ratios are taken per round, then their median."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter, perf_counter_ns
from typing import Any


@dataclass(frozen=True)
class Settings:
    rounds: int  # timed rounds per workload
    sample_s: float  # target duration of one sample (one contender, one round)


FULL = Settings(rounds=31, sample_s=0.010)
QUICK = Settings(rounds=3, sample_s=0.0005)


@dataclass
class Timing:
    loops: int  # calls per sample
    samples_ns: list[float] = field(default_factory=list)  # per-call time of each round

    @property
    def median_ns(self) -> float:
        return statistics.median(self.samples_ns)

    @property
    def spread(self) -> float:
        """Inter-quartile range over the median (0.03 = 3 %)."""
        s = sorted(self.samples_ns)
        if len(s) < 4:
            return (s[-1] - s[0]) / self.median_ns if s else 0.0
        q = statistics.quantiles(s, n=4)
        return (q[2] - q[0]) / self.median_ns


def calibrate(fn: Callable[[], Any], sample_s: float) -> int:
    """Calls per sample so that one sample lasts about ``sample_s`` (at least one call)."""
    n = 1
    while True:
        t0 = perf_counter()
        for _ in range(n):
            fn()
        dt = perf_counter() - t0
        if dt >= sample_s / 4 or n >= 1 << 20:
            return max(1, round(n * sample_s / max(dt, 1e-9)))
        n *= 4


def interleave(contenders: dict[str, Callable[[], Any]], settings: Settings) -> dict[str, Timing]:
    """Time every contender over ``settings.rounds`` interleaved rounds (after one warm-up)."""
    timings = {name: Timing(calibrate(fn, settings.sample_s)) for name, fn in contenders.items()}
    for _round in range(settings.rounds):
        for name, fn in contenders.items():
            t = timings[name]
            loops = t.loops
            t0 = perf_counter_ns()
            for _ in range(loops):
                fn()
            t.samples_ns.append((perf_counter_ns() - t0) / loops)
    return timings


def ratio(timings: dict[str, Timing], name: str, base: str = "floor") -> float:
    """Median over rounds of (contender / base) measured in the same round."""
    a, b = timings[name].samples_ns, timings[base].samples_ns
    return statistics.median(x / y for x, y in zip(a, b))
