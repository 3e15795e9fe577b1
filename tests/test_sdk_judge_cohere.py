"""The official ``cohere`` SDK (ClientV2, pinned in the dev extra) judges what we emit for Cohere
v2 Chat: recorded responses of the four other protocols, translated to cohere_v2, are answered
to ``client.chat(...)`` through an httpx mock transport (the SDK's own parsing), and validated
against the SDK's pydantic model of the response; translated errors must raise the SDK's own
class for their status, with our message in its body."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import interlingua
import pytest
from interlingua.generated.canonical import ReasoningPart, TextPart, ToolCallPart

from tests.conftest import FIXTURES
from tests.stream_util import args_of

cohere = pytest.importorskip("cohere")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # the SDK on pydantic 2
from cohere.core.api_error import ApiError  # noqa: E402
from cohere.v2.types.v2chat_response import V2ChatResponse  # noqa: E402

K = "cohere_v2"
INDEX = {
    "anthropic": "anthropic_messages",
    "openai-chat": "openai_chat",
    "openai-responses": "openai_responses",
    "gemini": "gemini",
}


def client(body: bytes, status: int = 200) -> Any:
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v2/chat"
        return httpx.Response(status, content=body, headers={"content-type": "application/json"})

    http = httpx.Client(transport=httpx.MockTransport(handler))
    return cohere.ClientV2(api_key="test", base_url="http://test", httpx_client=http)


def chat(body: dict[str, Any], status: int = 200) -> Any:
    return client(json.dumps(body).encode(), status).chat(
        model="command-a-03-2025", messages=[{"role": "user", "content": "hi"}]
    )


def _recorded(every: int = 4) -> list[tuple[str, str, Path]]:
    index = FIXTURES / "recorded" / "index.jsonl"
    if not index.is_file():
        return []
    out, seen = [], {}
    for line in index.read_text().splitlines():
        meta = json.loads(line)
        pid = INDEX.get(meta["protocol"])
        if pid is None or meta["kind"] != "response" or not meta["file"].endswith(".json"):
            continue
        seen[pid] = n = seen.get(pid, 0) + 1
        if n % every == 0:
            out.append((meta["file"], pid, FIXTURES / "recorded" / meta["file"]))
    return out


def _decodable(source: str, path: Path) -> bool:
    try:
        interlingua.decode_response(json.loads(path.read_bytes()), source)
    except (interlingua.InvalidInput, ValueError):  # error bodies recorded as responses
        return False
    return True


RESPONSES = [r for r in _recorded() if _decodable(r[1], r[2])]


@pytest.mark.parametrize("name, source, path", RESPONSES, ids=[r[0][-70:] for r in RESPONSES])
def test_cohere_sdk_reads_translated_response(name: str, source: str, path: Path) -> None:
    body = json.loads(path.read_bytes())
    out = interlingua.translate_response(body, source=source, target=K).body
    V2ChatResponse.model_validate(out)  # every field has the SDK's type
    got = chat(out)
    parts = interlingua.decode_response(body, source).parts
    ours = interlingua.decode_response(out, K).parts  # and the SDK reads what we meant
    msg = got.message
    calls = [(c.id, c.function.name, args_of(c.function.arguments)) for c in msg.tool_calls or ()]
    assert calls == [(p.id, p.name, args_of(p.arguments)) for p in ours if type(p) is ToolCallPart]
    # names and arguments survive (Gemini ids are synthesised per decoding)
    assert [c[1:] for c in calls] == [
        (p.name, args_of(p.arguments)) for p in parts if type(p) is ToolCallPart
    ]
    content = msg.content or []
    text = "".join(c.text for c in content if c.type == "text") + (msg.tool_plan or "")
    want = [p.text for p in parts if type(p) is TextPart]
    assert sorted(text) == sorted("".join(want))  # text, or the plan before calls
    thinking = "".join(c.thinking for c in content if c.type == "thinking")
    assert thinking == "".join(p.text for p in parts if type(p) is ReasoningPart)
    assert got.finish_reason in ("COMPLETE", "STOP_SEQUENCE", "MAX_TOKENS", "TOOL_CALL", "ERROR")


ERRORS = {
    400: "BadRequestError",
    401: "UnauthorizedError",
    403: "ForbiddenError",
    404: "NotFoundError",
    429: "TooManyRequestsError",
    500: "InternalServerError",
    503: "ServiceUnavailableError",
    504: "GatewayTimeoutError",
}
SOURCES = [
    ("anthropic_messages", 529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, 503),
    ("anthropic_messages", 400, {"type": "error", "error": {"type": "invalid_request_error", "message": "bad"}}, 400),
    ("openai_chat", 429, {"error": {"message": "Rate limit reached", "type": "rate_limit_error", "code": None}}, 429),
    ("openai_chat", 401, {"error": {"message": "Incorrect API key", "type": "invalid_request_error", "code": "invalid_api_key"}}, 401),
    ("openai_responses", 500, {"error": {"message": "server had an error", "type": "server_error", "code": None}}, 500),
    ("gemini", 403, {"error": {"code": 403, "message": "denied", "status": "PERMISSION_DENIED"}}, 403),
    ("gemini", 504, {"error": {"code": 504, "message": "deadline", "status": "DEADLINE_EXCEEDED"}}, 504),
    ("gemini", 404, {"error": {"code": 404, "message": "no model", "status": "NOT_FOUND"}}, 404),
]  # fmt: skip


@pytest.mark.parametrize(("source", "status", "body", "want"), SOURCES)
def test_translated_error_raises_the_cohere_sdk_class(
    source: str, status: int, body: dict[str, Any], want: int
) -> None:
    st, out = interlingua.translate_error(status, body, source=source, target=K)
    assert st == want
    with pytest.raises(ApiError) as e:
        chat(out, st)
    assert type(e.value).__name__ == ERRORS[want]
    assert e.value.status_code == want
    assert e.value.body == {"message": interlingua.decode_error(status, body, source).message}
