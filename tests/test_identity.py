"""Same-protocol translation is the identity, through the codecs (decode to canonical, encode
back), on every recorded request and response of Anthropic Messages and Chat Completions and on
the requests Claude Code sent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import interlingua
import pytest

from tests.conftest import FIXTURES

PROTOCOLS = {"anthropic": "anthropic_messages", "openai-chat": "openai_chat"}

# Files the index lists as a request/response that are not one of their protocol (reason each).
NOT_A_BODY = {
    "openai-chat/vercel-ai/reasoning-model-legacy-parameter-error.json": (
        "an error body ({error: ...}) recorded as a response"
    ),
    "openai-chat/pydantic-ai-cassettes/compatible-demo-endpoints.pydantic.workers.dev/"
    "test_openai/test_invalid_response/00.response.json": (
        "a test server's echo of the request path, recorded to test invalid responses"
    ),
}


def _cases() -> list[Any]:
    recorded = FIXTURES / "recorded"
    index = recorded / "index.jsonl"
    if not index.is_file():
        return [pytest.param(None, None, None, id="fixtures-absent")]
    cases = []
    for line in index.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        pid = PROTOCOLS.get(row["protocol"])
        if pid is None or row["kind"] not in ("request", "response"):
            continue
        marks = []
        if row["file"] in NOT_A_BODY:
            marks.append(pytest.mark.xfail(reason=NOT_A_BODY[row["file"]], strict=True))
        cases.append(
            pytest.param(recorded / row["file"], pid, row["kind"], id=row["file"], marks=marks)
        )
    clients = FIXTURES / "clients" / "claude-code"
    for f in sorted(clients.rglob("*.json")):
        rel = str(f.relative_to(FIXTURES))
        cases.append(pytest.param(f, "anthropic_messages", "client", id=rel))
    return cases


def _load(path: Path, kind: str) -> dict[str, Any]:
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        pytest.skip("not JSON")
    if kind == "client":
        body = body.get("body") if type(body) is dict else None
    if type(body) is not dict:
        pytest.skip("not a JSON object")
    return body


@pytest.mark.parametrize(("path", "protocol", "kind"), _cases())
def test_same_protocol_is_the_identity(path: Path | None, protocol: str, kind: str) -> None:
    if path is None:
        pytest.skip("../shared/fixtures is absent")
    body = _load(path, kind)
    original = json.loads(json.dumps(body))
    decode_ctx = interlingua.Ctx(protocol, protocol)
    encode_ctx = interlingua.Ctx(protocol, protocol)
    if kind == "response":
        canonical: Any = interlingua.decode_response(body, protocol, decode_ctx)
        out = interlingua.encode_response(canonical, protocol, encode_ctx)
    else:
        canonical = interlingua.decode_request(body, protocol, decode_ctx)
        out = interlingua.encode_request(canonical, protocol, encode_ctx)
    assert body == original, "decoding must not change its input"
    assert decode_ctx.losses == [] and encode_ctx.losses == []
    assert out == body


def test_identity_is_not_vacuous() -> None:
    """Guard: the cases above really hold requests and responses of both protocols."""
    cases = [c.values for c in _cases() if c.values[0] is not None]
    if not cases:
        pytest.skip("../shared/fixtures is absent")
    kinds = {(protocol, kind) for _, protocol, kind in cases}
    assert kinds >= {
        ("anthropic_messages", "request"),
        ("anthropic_messages", "response"),
        ("openai_chat", "request"),
        ("openai_chat", "response"),
        ("anthropic_messages", "client"),
    }
    assert len(cases) > 1000
