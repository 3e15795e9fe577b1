"""docs/compatibility.md and the losses reported at run time agree.

Every loss a translation reports names a feature; the matrix (generated from the same `support:`
rows) must list that feature as lost in that direction. Translating the seed tool loop, the
captured client requests and a sample of recorded traffic exercises the loss paths."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import interlingua
import pytest
from interlingua._protocols import protocol

from tests.conftest import FIXTURES, ROOT

PROTOCOLS = interlingua.available()
EXAMPLES = ROOT / "examples" / "tool_loop"


def lost_in_direction(source: str, target: str) -> set[str]:
    """The features docs/compatibility.md lists for source -> target (same rule as codegen)."""
    src = protocol(source).SUPPORT
    dst = protocol(target).SUPPORT
    return {f for f in dst if src[f][0] != "unsupported" and dst[f][0] != "full"}


def matrix_row(source: str, target: str) -> set[str]:
    text = (ROOT / "docs" / "compatibility.md").read_text()
    prefix = f"- `{source}` → `{target}`: "
    line = next(line for line in text.splitlines() if line.startswith(prefix))
    rest = line[len(prefix) :]
    return set() if rest == "nothing" else {x.strip(" `") for x in rest.split(",")}


def _bodies() -> list[tuple[str, str, Path]]:
    out = []
    for p in sorted(EXAMPLES.glob("*.json")):
        pid, step = p.name.split(".")[:2]
        out.append((pid, "request" if step.endswith("request") else "response", p))
    if FIXTURES.is_dir():
        for p in sorted((FIXTURES / "clients").rglob("*.json")):
            client = p.relative_to(FIXTURES / "clients").parts[0]
            pid = {
                "claude-code": "anthropic_messages",
                "codex": "openai_responses",
                "gemini-cli": "gemini",
            }[client]
            if pid in PROTOCOLS:
                out.append((pid, "request", p))
        out += _recorded_sample()
    return out


_INDEX_PROTOCOL = {
    "anthropic": "anthropic_messages",
    "openai-chat": "openai_chat",
    "openai-responses": "openai_responses",
    "gemini": "gemini",
}


def _recorded_sample(every: int = 7) -> list[tuple[str, str, Path]]:
    """Every 7th recorded JSON request/response of each protocol (deterministic)."""
    picked: list[tuple[str, str, Path]] = []
    seen: dict[str, int] = {}
    for line in (FIXTURES / "recorded" / "index.jsonl").read_text().splitlines():
        row = json.loads(line)
        pid = _INDEX_PROTOCOL.get(row["protocol"])
        if pid not in PROTOCOLS or row["kind"] not in ("request", "response"):
            continue
        if not row["file"].endswith(".json") or "error" in row.get("features", []):
            continue
        n = seen[pid] = seen.get(pid, 0) + 1
        if n % every == 0:
            picked.append((pid, row["kind"], FIXTURES / "recorded" / row["file"]))
    return picked


@pytest.mark.parametrize(("source", "target"), list(itertools.permutations(PROTOCOLS, 2)))
def test_matrix_file_lists_what_the_rows_say(source: str, target: str) -> None:
    assert matrix_row(source, target) == lost_in_direction(source, target)


@pytest.mark.parametrize(("source", "kind", "path"), _bodies(), ids=lambda v: getattr(v, "name", v))
def test_reported_losses_are_in_the_matrix(source: str, kind: str, path: Path) -> None:
    raw = json.loads(path.read_text())
    if not isinstance(raw, dict):
        pytest.skip("not a JSON object")
    body = raw["body"] if "body" in raw and "clients" in path.parts else raw
    fn = interlingua.translate_request if kind == "request" else interlingua.translate_response
    for target in PROTOCOLS:
        if target == source:
            continue
        try:
            result = fn(body, source=source, target=target)
        except interlingua.InterlinguaError:
            continue  # invalid or state-bound bodies are covered by their own tests
        allowed = lost_in_direction(source, target)
        for loss in result.losses:
            assert loss.feature in allowed, (
                f"{source}->{target}: {loss} (feature {loss.feature!r} is not lost per the matrix)"
            )
