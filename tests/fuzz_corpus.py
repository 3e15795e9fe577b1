"""The fuzz corpus: recorded request, response, error and stream bodies of every protocol.

Read from ../shared/fixtures/recorded (index.jsonl); empty when ../shared is absent (the fuzz
tests then skip). Protocols without recordings of their own (Cohere v2) get the translations of
the Anthropic and Chat recordings, so every source protocol is fuzzed from realistic bodies.
Bodies larger than ``MAX_BYTES`` are left out: a case must stay well under a second."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

import interlingua
import orjson

from tests.conftest import FIXTURES
from tests.stream_util import ALL_PID, load_stream

__all__ = ["KINDS", "Sample", "by_protocol", "corpus", "pick_sample", "targets"]

KINDS = ("request", "response", "stream", "error")
MAX_BYTES = 48_000
RECORDED = FIXTURES / "recorded"


@dataclass(frozen=True, slots=True)
class Sample:
    kind: str  # request / response / stream / error
    pid: str  # the protocol the bytes are in
    data: bytes  # a JSON body, or SSE bytes for a stream
    name: str  # where it came from


def targets() -> tuple[str, ...]:
    return tuple(interlingua.available())


def _index() -> list[dict[str, object]]:
    index = RECORDED / "index.jsonl"
    if not index.is_file():
        return []
    return [json.loads(line) for line in index.read_text().splitlines() if line.strip()]


@cache
def corpus() -> dict[str, list[Sample]]:
    """kind -> samples (every protocol the library has, recorded or translated)."""
    out: dict[str, list[Sample]] = {k: [] for k in KINDS}
    for meta in _index():
        pid = ALL_PID.get(str(meta["protocol"]))
        kind = {"error-response": "error"}.get(str(meta["kind"]), str(meta["kind"]))
        path = RECORDED / str(meta["file"])
        if pid is None or kind not in out or not path.is_file():
            continue
        if path.stat().st_size > MAX_BYTES or path.suffix == ".txt" and kind != "stream":
            continue
        try:
            data = load_stream(path, pid) if kind == "stream" else path.read_bytes()
            if kind != "stream":
                orjson.loads(data)
        except (ValueError, UnicodeDecodeError):
            continue
        if len(data) <= MAX_BYTES:
            out[kind].append(Sample(kind, pid, data, str(meta["file"])))
    _translated(out)
    for samples in out.values():
        samples.sort(key=lambda s: (s.pid, s.name))
    return out


def _translated(out: dict[str, list[Sample]]) -> None:
    """Samples for the protocols with no recordings: translations of recorded ones."""
    recorded = {s.pid for ss in out.values() for s in ss}
    for pid in targets():
        if pid in recorded:
            continue
        for kind in KINDS:
            for s in [x for x in out[kind] if x.pid in ("anthropic_messages", "openai_chat")]:
                data = _translate(s, pid)
                if data is not None:
                    out[kind].append(Sample(kind, pid, data, f"{s.name} -> {pid}"))


def _translate(s: Sample, pid: str) -> bytes | None:
    try:
        if s.kind == "stream":
            return b"".join(interlingua.translate_stream([s.data], source=s.pid, target=pid))
        if s.kind == "error":
            _, body = interlingua.translate_error(400, s.data, source=s.pid, target=pid)
            return orjson.dumps(body)
        fn = (
            interlingua.translate_request if s.kind == "request" else interlingua.translate_response
        )
        return fn(s.data, source=s.pid, target=pid).to_bytes()
    except interlingua.InterlinguaError:
        return None


@cache
def by_protocol(kind: str) -> dict[str, list[Sample]]:
    out: dict[str, list[Sample]] = {}
    for s in corpus()[kind]:
        out.setdefault(s.pid, []).append(s)
    return out


def pick_sample(kind: str, pick: Any) -> Sample:
    """A sample of ``kind``: the protocol first (each equally likely), then one of its bodies."""
    groups = by_protocol(kind)
    return pick(groups[pick(sorted(groups))])
