"""The long fuzz run (``make fuzz``): N cases over the recorded corpus, every exception tallied.

    python -m tests.fuzz_run [--cases 40000] [--seed 1] [--kind stream] [--show 3]

Unlike the hypothesis tests (which stop at the first failure and shrink it), this run goes on
and reports: cases run per kind, the exceptions that escaped by type and by the place that
raised them (file:line of the innermost library frame), an example case for each place, the
slowest case, and how many took more than a second. The exit status is 1 when anything
escaped or a case took more than a second."""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from typing import Any

from tests.fuzz_corpus import KINDS, corpus, pick_sample
from tests.fuzz_engine import Case, RandomChooser, make_case, run_case

LIMIT_S = 1.0


def where(exc: BaseException) -> str:
    """The innermost frame inside the library (else the innermost frame)."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if "/runtime/" in f.filename or "/generated/" in f.filename]
    f = (mine or frames)[-1]
    name = f.filename.split("/runtime/")[-1].split("/generated/")[-1]
    return f"{name}:{f.lineno} ({f.name})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz_run")
    ap.add_argument("--cases", type=int, default=40_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=KINDS, action="append")
    ap.add_argument("--show", type=int, default=1, help="example cases shown per place")
    args = ap.parse_args(argv)
    samples = corpus()
    kinds = [k for k in (args.kind or KINDS) if samples[k]]
    if not kinds:
        print("fuzz: ../shared/fixtures is absent; nothing to run")
        return 0
    rng = random.Random(args.seed)
    c = RandomChooser(rng)
    ran: Counter[str] = Counter()
    by_type: Counter[str] = Counter()
    by_place: Counter[str] = Counter()
    examples: dict[str, list[Case]] = {}
    slow = 0
    slowest: tuple[float, Any] = (0.0, None)
    started = time.perf_counter()
    for n in range(args.cases):
        kind = kinds[n % len(kinds)]
        case = make_case(pick_sample(kind, c.pick), c)
        t0 = time.perf_counter()
        try:
            run_case(case)
        except Exception as e:  # noqa: BLE001 - the point: tally everything that escapes
            place = where(e)
            by_type[f"{type(e).__name__} ({kind})"] += 1
            by_place[f"{type(e).__name__} at {place}"] += 1
            examples.setdefault(place, [])
            if len(examples[place]) < args.show:
                examples[place].append(case)
        dt = time.perf_counter() - t0
        ran[kind] += 1
        slow += dt > LIMIT_S
        if dt > slowest[0]:
            slowest = (dt, case)
    total = time.perf_counter() - started
    print(f"fuzz: {sum(ran.values())} cases in {total:.0f} s (seed {args.seed}): {dict(ran)}")
    print(f"corpus: { {k: len(v) for k, v in samples.items()} }")
    print(f"escaped: {sum(by_type.values())} in {len(by_place)} places")
    for k, v in by_type.most_common():
        print(f"  {v:6d}  {k}")
    for k, v in by_place.most_common():
        print(f"  {v:6d}  {k}")
        for ex in examples[k.split(" at ", 1)[1]]:
            print(f"            e.g. {ex!r:.400}")
    print(
        f"slowest case: {slowest[0] * 1000:.0f} ms ({slowest[1]!r:.200}); over {LIMIT_S} s: {slow}"
    )
    return 1 if by_type or slow else 0


if __name__ == "__main__":
    sys.exit(main())
