"""The fuzz suite (issue 11): hypothesis over the recorded bodies and streams of every protocol.

Each case takes a recorded request, response, error body or stream (tests/fuzz_corpus.py),
mutates it (tests/fuzz_engine.py: fields deleted, retyped, replaced, lone surrogates, values
nested up to and past the parser's limit, invalid UTF-8, stream events dropped, doubled, swapped,
renamed, the bytes cut and split anywhere) and translates it toward every protocol. The only
exceptions allowed out are the library's typed errors; ``translate_error`` and the stream
translator raise nothing at all. A case that takes more than a second fails the test: the check
measures the thread's CPU time, not the wall clock, so a busy machine (two cores shared by many
processes) cannot fail a fast case, and a slow one fails every time.

The budget is ``FUZZ_EXAMPLES`` cases per kind (default 300: about 20 s of ``make test`` on a busy machine);
``make fuzz`` runs 10,000 per kind, plus ``python -m tests.fuzz_run`` (every exception tallied).
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import need_fixtures
from tests.fuzz_corpus import KINDS, by_protocol
from tests.fuzz_engine import DrawChooser, make_case, run_case

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))

LIMIT_S = 1.0  # CPU seconds a case may take

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,  # wall time on a shared machine: the CPU-time check below instead
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)


@pytest.mark.parametrize("kind", KINDS)
@FUZZ
@given(data=st.data())
def test_fuzz_only_typed_errors_escape(kind: str, data: st.DataObject) -> None:
    groups = by_protocol(kind)
    if not groups:
        need_fixtures()
        pytest.skip(f"no recorded {kind} bodies")
    pid = data.draw(st.sampled_from(sorted(groups)), label="protocol")
    sample = data.draw(st.sampled_from(groups[pid]), label="sample")
    case = make_case(sample, DrawChooser(data.draw))
    data.draw(st.just(case.mutation), label="mutation")
    within_a_second(run_case, case)


def within_a_second(fn: Any, *args: Any) -> Any:
    """``fn(*args)``, failing when it takes more than LIMIT_S seconds of this thread's CPU."""
    t0 = time.thread_time()
    out = fn(*args)
    spent = time.thread_time() - t0
    assert spent <= LIMIT_S, f"the case took {spent:.2f} s of CPU time (limit {LIMIT_S} s)"
    return out


# ------------------------------------------------------------ the gateway


@pytest.mark.parametrize(
    "inbound", ["anthropic_messages", "openai_chat", "openai_responses", "gemini"]
)
@settings(FUZZ, max_examples=max(10, EXAMPLES // 10))
@given(data=st.data())
def test_fuzz_the_gateway_never_answers_500_to_bad_input(inbound: str, data: st.DataObject) -> None:
    """Mutated recorded requests through the gateway: whatever the body, the answer is never a
    500, and a refusal is in the caller's error shape."""
    pytest.importorskip("starlette")
    from tests.fuzz_engine import dump
    from tests.test_gateway_hardening import call, in_shape, path_of

    samples = by_protocol("request").get(inbound)
    if not samples:
        need_fixtures()
        pytest.skip(f"no recorded {inbound} requests")
    case = make_case(data.draw(st.sampled_from(samples)), DrawChooser(data.draw))
    body = case.body if type(case.body) is bytes else dump(case.body)
    upstream = "anthropic_messages" if inbound == "openai_chat" else "openai_chat"
    r = within_a_second(lambda: call(upstream, inbound, body, path=path_of(inbound)))
    assert r.status_code != 500, r.text[:300]
    if r.status_code >= 400:
        in_shape(r, inbound)
