"""Error bodies and HTTP statuses between Anthropic Messages and Chat Completions."""

from __future__ import annotations

import json
from typing import Any

import interlingua
import pytest
from interlingua.generated.canonical import ErrorEvent, ErrorInfo

from tests.conftest import FIXTURES
from tests.stream_util import decode_stream

A = "anthropic_messages"
C = "openai_chat"

# (status, Anthropic error type, Chat status, Chat error type)
TABLE = [
    (400, "invalid_request_error", 400, "invalid_request_error"),
    (401, "authentication_error", 401, "authentication_error"),
    (403, "permission_error", 403, "permission_error"),
    (404, "not_found_error", 404, "not_found_error"),
    (413, "request_too_large", 413, "request_too_large"),
    (429, "rate_limit_error", 429, "rate_limit_error"),
    (500, "api_error", 500, "server_error"),
    (529, "overloaded_error", 503, "server_error"),
]


def anthropic_error(etype: str, message: str = "Something went wrong.") -> dict[str, Any]:
    return {
        "type": "error",
        "error": {"type": etype, "message": message},
        "request_id": "req_011CSHoEeqs5C35K2UUqR7Fy",
    }


def chat_error(
    etype: str, message: str = "Something went wrong.", code: Any = None
) -> dict[str, Any]:
    return {"error": {"message": message, "type": etype, "param": None, "code": code}}


@pytest.mark.parametrize(("a_status", "a_type", "c_status", "c_type"), TABLE)
def test_anthropic_error_to_chat(a_status: int, a_type: str, c_status: int, c_type: str) -> None:
    status, body = interlingua.translate_error(
        a_status, anthropic_error(a_type, "Overloaded"), source=A, target=C
    )
    assert status == c_status
    assert body == {"error": {"type": c_type, "message": "Overloaded", "param": None, "code": None}}


@pytest.mark.parametrize(("a_status", "a_type", "c_status", "c_type"), TABLE)
def test_chat_error_to_anthropic(a_status: int, a_type: str, c_status: int, c_type: str) -> None:
    status, body = interlingua.translate_error(
        c_status, chat_error(c_type, "Try again later."), source=C, target=A
    )
    assert status == a_status
    assert body == {"type": "error", "error": {"type": a_type, "message": "Try again later."}}


@pytest.mark.parametrize(("a_status", "a_type", "c_status", "c_type"), TABLE)
def test_errors_round_trip_and_same_protocol(
    a_status: int, a_type: str, c_status: int, c_type: str
) -> None:
    s, chat = interlingua.translate_error(a_status, anthropic_error(a_type), source=A, target=C)
    s, back = interlingua.translate_error(s, chat, source=C, target=A)
    assert (s, back["error"]["type"]) == (a_status, a_type)
    body = chat_error(c_type, code="some_code")
    assert interlingua.translate_error(c_status, body, source=C, target=C) == (c_status, body)
    body = anthropic_error(a_type)
    s, same = interlingua.translate_error(a_status, body, source=A, target=A)
    assert (s, same["error"]) == (a_status, body["error"])


@pytest.mark.parametrize(
    ("status", "body", "a_type"),
    [
        # real OpenAI bodies: the type says invalid_request_error, the status says more
        (
            401,
            chat_error(
                "invalid_request_error", "Incorrect API key provided: sk-abc.", "invalid_api_key"
            ),
            "authentication_error",
        ),
        (
            404,
            chat_error(
                "invalid_request_error",
                "The model `gpt-5-turbo` does not exist or you do not have access to it.",
                "model_not_found",
            ),
            "not_found_error",
        ),
        (
            429,
            chat_error("insufficient_quota", "You exceeded your current quota."),
            "rate_limit_error",
        ),
        (429, chat_error("requests", "Rate limit reached for requests."), "rate_limit_error"),
    ],
)
def test_chat_error_type_is_settled_by_the_status(
    status: int, body: dict[str, Any], a_type: str
) -> None:
    s, out = interlingua.translate_error(status, body, source=C, target=A)
    assert (s, out["error"]["type"]) == (status, a_type)
    assert out["error"]["message"] == body["error"]["message"]


def test_chat_param_and_code_survive_chat_to_chat_only() -> None:
    body = chat_error(
        "invalid_request_error", "Unsupported parameter: 'max_tokens'.", "unsupported_parameter"
    )
    body["error"]["param"] = "max_tokens"
    info = interlingua.decode_error(400, body, C)
    assert (info.param, info.code, info.raw_type) == (
        "max_tokens",
        "unsupported_parameter",
        "invalid_request_error",
    )
    assert interlingua.encode_error(info, C) == (400, body)


@pytest.mark.parametrize(
    ("status", "body", "message"),
    [
        (
            502,
            b"<html><body><h1>502 Bad Gateway</h1></body></html>",
            "<html><body><h1>502 Bad Gateway</h1></body></html>",
        ),
        (
            503,
            "upstream connect error or disconnect/reset before headers",
            "upstream connect error or disconnect/reset before headers",
        ),
        (500, None, "upstream error (HTTP 500)"),
        (500, b"", "upstream error (HTTP 500)"),
        (429, b'{"error": "Too many requests"}', "Too many requests"),
        (400, b'{"message": "bad field"}', "bad field"),
        (400, b"[1, 2, 3]", "[1,2,3]"),
        (400, b"\xff\xfe not utf-8", "\ufffd\ufffd not utf-8"),
        (
            400,
            {"error": {"type": 7, "message": ["not", "a", "string"]}},
            '{"error":{"type":7,"message":["not","a","string"]}}',
        ),
        (400, {"error": None}, '{"error":null}'),
        (500, b'{"error": {"message": "truncated', '{"error": {"message": "truncated'),
        (404, {}, "{}"),
    ],
)
@pytest.mark.parametrize(("source", "target"), [(A, C), (C, A), (A, A), (C, C)])
def test_malformed_error_bodies_never_raise(
    status: int, body: Any, message: str, source: str, target: str
) -> None:
    s, out = interlingua.translate_error(status, body, source=source, target=target)
    assert type(s) is int and s >= 400
    text = out["error"]["message"]
    assert text == message
    assert type(out["error"]["type"]) is str
    json.dumps(out)


def test_unknown_statuses_pick_a_sensible_type() -> None:
    assert (
        interlingua.translate_error(502, None, source=C, target=A)[1]["error"]["type"]
        == "api_error"
    )
    assert (
        interlingua.translate_error(418, None, source=C, target=A)[1]["error"]["type"]
        == "invalid_request_error"
    )
    s, out = interlingua.translate_error(503, None, source=C, target=A)
    assert (s, out["error"]["type"]) == (529, "overloaded_error")


# ---------------------------------------------------------------- recorded error bodies


def _recorded_errors() -> list[Any]:
    index = FIXTURES / "recorded" / "index.jsonl"
    if not index.is_file():
        return [pytest.param(None, None, id="fixtures-absent")]
    out = []
    for line in index.read_text().splitlines():
        row = json.loads(line)
        pid = {"anthropic": A, "openai-chat": C}.get(row["protocol"])
        if pid is not None and row["kind"] == "error-response" and row["file"].endswith(".json"):
            out.append(pytest.param(FIXTURES / "recorded" / row["file"], pid, id=row["file"]))
    return out


@pytest.mark.parametrize(("path", "protocol"), _recorded_errors())
def test_recorded_error_bodies(path: Any, protocol: str) -> None:
    if path is None:
        pytest.skip("../shared/fixtures is absent")
    body = json.loads(path.read_text())
    meta = path.with_name(path.name.replace(".response.json", ".meta.json"))
    status = 400
    if meta.is_file():
        status = json.loads(meta.read_text()).get("status", 400)
    other = C if protocol == A else A
    s, out = interlingua.translate_error(status, body, source=protocol, target=other)
    assert s == status or {s, status} == {503, 529}
    want = body["error"]["message"] if isinstance(body.get("error"), dict) else None
    got = out["error"]["message"]
    assert got == want if type(want) is str else got
    s2, same = interlingua.translate_error(status, body, source=protocol, target=protocol)
    assert s2 == status
    assert same["error"]["type"] == (body["error"].get("type") or same["error"]["type"])


def test_bad_arguments_are_typed_errors_naming_them() -> None:
    with pytest.raises(interlingua.InvalidInput, match="expected an HTTP status") as e:
        interlingua.decode_error("500", {}, C)  # type: ignore[arg-type]
    assert e.value.path == "status"
    with pytest.raises(interlingua.InvalidInput, match="expected an ErrorInfo, got an object") as e:
        interlingua.encode_error({"type": "api_error"}, A)  # type: ignore[arg-type]
    assert e.value.path == "err"
    # a type no row names (an ErrorInfo made by hand): the raw type of an error with no row
    odd = ErrorInfo(type="teapot", message="short and stout", status=418)
    assert interlingua.encode_error(odd, C) == (
        418,
        {
            "error": {
                "type": "server_error",
                "message": "short and stout",
                "param": None,
                "code": None,
            }
        },
    )
    assert interlingua.encode_error(odd, "gemini")[1]["error"]["status"] == "INTERNAL"


@pytest.mark.parametrize(
    ("source", "error", "status", "etype"),
    [
        # the status an in-band error carries: Gemini's code, OpenRouter's code, Groq's status_code
        (
            "gemini",
            {"code": 429, "message": "m", "status": "RESOURCE_EXHAUSTED"},
            429,
            "rate_limit",
        ),
        (C, {"code": 400, "message": "m"}, 400, "invalid_request"),
        (
            C,
            {"message": "m", "type": "invalid_request_error", "status_code": 413},
            413,
            "request_too_large",
        ),
        # none carried: the status of its raw type (Gemini's status word, Anthropic's type)
        ("gemini", {"message": "m", "status": "RESOURCE_EXHAUSTED"}, 429, "rate_limit"),
        (A, {"type": "overloaded_error", "message": "m"}, 529, "overloaded"),
    ],
)
def test_an_in_band_error_reads_as_the_http_body_of_its_status(
    source: str, error: dict[str, Any], status: int, etype: str
) -> None:
    """One rule: the stream's error object and an HTTP body holding it, read by the codec's
    read_error, give the same ErrorInfo."""
    event = {"type": "error", "error": error}
    prefix = b"event: error\n" if source == A else b""
    (err,) = [
        e.error
        for e in decode_stream(prefix + b"data: " + json.dumps(event).encode() + b"\n\n", source)
        if type(e) is ErrorEvent
    ]
    assert (err.status, err.type, err.message) == (status, etype, "m")
    assert interlingua.decode_error(status, event, source) == err
