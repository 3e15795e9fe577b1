"""Helpers for the stream tests: recorded streams as SSE bytes, decoding to canonical events.

Recorded streams live in ../shared/fixtures/recorded (index.jsonl, ``kind: stream``):

- ``*.chunks.txt`` (vercel/ai): one SSE ``data:`` payload per line, the envelope removed.
  Re-wrapped as ``event: <type>`` + ``data:`` for Anthropic and Responses (the event name is
  the payload's ``type``, as the real APIs send it) and bare ``data:`` for Chat and Gemini. None
  of the Chat recordings keeps the ``[DONE]`` sentinel (vercel's test harness appends it when it
  replays them), so it is appended when missing.
- ``*.jsonarray.json`` (Gemini Go SDK): one JSON array of chunks, each sent as ``data:``.
- everything else (``*.response.sse``, ``*.sse``, openai-python ``*.bin``, anthropic-sdk-python
  ``*.txt``): raw SSE bytes. A few were stored without the blank line that terminates their last
  event (``...message_stop"}`` / ``data: [DONE]\\n``); by WHATWG rules that event would never be
  dispatched, so the loader terminates it — the recordings are complete streams.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson
from interlingua._protocols import protocol
from interlingua._sse import SSEDecoder
from interlingua.generated.canonical import (
    Finish,
    ReasoningPart,
    Response,
    TextPart,
    ToolCallPart,
)
from interlingua.streams import stream_decoder
from interlingua.streams.accumulate import accumulate

from tests.conftest import FIXTURES

__all__ = [
    "PID",
    "ALL_PID",
    "RecordedStream",
    "recorded_streams",
    "load_stream",
    "chunks_to_sse",
    "claude_code_streams",
    "load_client_sse",
    "decode_stream",
    "accumulate_stream",
    "sse_payloads",
    "split_at",
    "view",
    "args_of",
    "expected_finish",
    "mock_client",
    "sdk_final_message",
    "sdk_final_completion",
    "sdk_snapshot",
]

# index.jsonl protocol name -> interlingua protocol id (``recorded_streams()`` defaults to these)
PID = {"anthropic": "anthropic_messages", "openai-chat": "openai_chat"}
# all four protocols (``recorded_streams(*ALL_PID)``)
ALL_PID = {**PID, "openai-responses": "openai_responses", "gemini": "gemini"}
RECORDED = FIXTURES / "recorded"
_TYPE = re.compile(r'"type"\s*:\s*"([^"]+)"')


class RecordedStream:
    """One recorded stream of the index: its file, protocol id and index metadata."""

    __slots__ = ("file", "pid", "meta")

    def __init__(self, meta: dict[str, Any]) -> None:
        self.meta = meta
        self.file = RECORDED / meta["file"]
        self.pid = ALL_PID[meta["protocol"]]

    @property
    def name(self) -> str:
        return str(self.meta["file"])

    @property
    def features(self) -> list[str]:
        return list(self.meta.get("features") or [])

    def sse(self) -> bytes:
        return load_stream(self.file, self.pid)

    def __repr__(self) -> str:
        return f"RecordedStream({self.name!r})"


def recorded_streams(*protocols: str) -> list[RecordedStream]:
    """Index entries of kind ``stream`` for the given index protocols (default: both).

    Empty when ../shared is absent, so parametrised tests collect to nothing; use
    ``need_fixtures()`` in a test that must say it was skipped."""
    index = RECORDED / "index.jsonl"
    if not index.is_file():
        return []
    wanted = protocols or tuple(PID)
    out = []
    for line in index.read_text().splitlines():
        meta = json.loads(line)
        if meta["kind"] == "stream" and meta["protocol"] in wanted:
            out.append(RecordedStream(meta))
    return out


def chunks_to_sse(lines: Iterable[str], pid: str) -> bytes:
    """JSONL of SSE data payloads -> the SSE bytes the provider sent (Anthropic and Responses
    name each event after the payload's ``type``; a Responses recording cut mid-object has its
    type found without parsing)."""
    out: list[bytes] = []
    done = False
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if pid == "anthropic_messages":
            etype = orjson.loads(line)["type"]
            out.append(f"event: {etype}\ndata: {line}\n\n".encode())
        elif pid == "openai_responses":
            m = _TYPE.search(line)
            out.append(f"event: {m.group(1) if m else 'message'}\ndata: {line}\n\n".encode())
        else:
            done = done or line == "[DONE]"
            out.append(f"data: {line}\n\n".encode())
    if pid == "openai_chat" and not done:
        out.append(b"data: [DONE]\n\n")
    return b"".join(out)


def _terminated(raw: bytes) -> bytes:
    body = raw.rstrip(b"\r\n")
    nl = b"\r\n" if body.count(b"\r\n") * 2 > body.count(b"\n") else b"\n"
    return body + nl + nl


def load_stream(path: Path, pid: str) -> bytes:
    """A recorded stream file as the SSE bytes of the wire (see the module doc)."""
    raw = path.read_bytes()
    if path.name.endswith(".chunks.txt"):
        return chunks_to_sse(raw.decode().splitlines(), pid)
    if path.name.endswith(".jsonarray.json"):  # Gemini Go SDK: one JSON array of chunks
        return b"".join(b"data: " + orjson.dumps(x) + b"\n\n" for x in orjson.loads(raw))
    return _terminated(raw)


def load_client_sse(path: Path) -> bytes:
    """A clients/*/NNN_*_resp.txt answer: drop the ``HTTP 200 (SSE)`` status line."""
    raw = path.read_bytes()
    first, _, rest = raw.partition(b"\n")
    assert first.startswith(b"HTTP "), path
    return _terminated(rest)


def claude_code_streams() -> list[Path]:
    root = FIXTURES / "clients" / "claude-code"
    if not root.is_dir():
        return []
    return sorted(p for p in root.glob("*/*_resp.txt") if b"(SSE)" in p.read_bytes()[:40])


def streaming_protocols() -> list[str]:
    """The available protocols that translate streams (the one place tests ask; a protocol
    whose stream rows have not landed raises NoStream)."""
    from interlingua import available
    from interlingua.streams import NoStream, stream_encoder

    out = []
    for pid in available():
        try:
            stream_decoder(pid)
            stream_encoder(pid)
        except NoStream:
            continue
        out.append(pid)
    return out


def decode_stream(data: bytes | Iterable[bytes], pid: str) -> list[Any]:
    """SSE bytes (or chunks) of protocol ``pid`` -> the canonical events, close() included."""
    chunks = [data] if isinstance(data, bytes) else data
    sse = SSEDecoder()
    dec = stream_decoder(pid)
    out: list[Any] = []
    for chunk in chunks:
        for ev in sse.feed(chunk):
            out += dec.feed(ev)
    out += dec.close()
    return out


def accumulate_stream(data: bytes, pid: str) -> Response:
    return accumulate(decode_stream(data, pid))


def sse_payloads(data: bytes) -> list[tuple[str | None, str]]:
    """(event name, data) of every SSE event in ``data``."""
    return [(e.event, e.data) for e in SSEDecoder().feed(data)]


def split_at(data: bytes, cuts: Iterable[int]) -> Iterator[bytes]:
    """``data`` cut at the given byte offsets (any order, duplicates and out of range ignored)."""
    prev = 0
    for c in sorted({c for c in cuts if 0 < c < len(data)}):
        yield data[prev:c]
        prev = c
    yield data[prev:]


def args_of(arguments: str) -> Any:
    """Tool arguments parsed (the raw text when it is not JSON: surfaced, not crashed on)."""
    try:
        return orjson.loads(arguments or "{}")
    except orjson.JSONDecodeError:
        return arguments


def view(r: Response) -> dict[str, Any]:
    """What must survive a translation: the text, the reasoning text, the tool calls."""
    return {
        "text": "".join(p.text for p in r.parts if type(p) is TextPart),
        "reasoning": "".join(p.text for p in r.parts if type(p) is ReasoningPart),
        "calls": [(p.id, p.name, args_of(p.arguments)) for p in r.parts if type(p) is ToolCallPart],
    }


def expected_finish(unified: str, target: str) -> str:
    """The unified finish reason a ``unified`` reason reads as after a trip through ``target``."""
    codec = protocol(target)
    raw, _ = codec.encode_finish(Finish(unified=unified, raw=None))
    return str(codec.decode_finish(raw).unified)


# ---------------------------------------------------------------- the official SDKs as judges
# anthropic 2.x and openai 3.x run on ``httpx2`` (they reject ``httpx`` objects): the mock
# transport is httpx2's.


def mock_client(
    sdk: str, body: bytes, *, status: int = 200, content_type: str = "text/event-stream"
) -> Any:
    """An ``anthropic.Anthropic`` / ``openai.OpenAI`` client whose every request is answered with
    ``body`` (max_retries=0)."""
    import httpx2

    def handler(request: Any) -> Any:
        return httpx2.Response(status, content=body, headers={"content-type": content_type})

    http = httpx2.Client(transport=httpx2.MockTransport(handler))
    if sdk == "anthropic":
        import anthropic

        return anthropic.Anthropic(
            api_key="test", base_url="http://test", max_retries=0, http_client=http
        )
    import openai

    return openai.OpenAI(api_key="test", base_url="http://test/v1", max_retries=0, http_client=http)


def sdk_final_message(sse: bytes) -> Any:
    """anthropic's ``messages.stream(...).get_final_message()`` over ``sse``."""
    client = mock_client("anthropic", sse)
    with client.messages.stream(
        model="claude-test", max_tokens=64, messages=[{"role": "user", "content": "hi"}]
    ) as s:
        return s.get_final_message()


def sdk_final_completion(sse: bytes) -> Any:
    """openai's ``chat.completions.stream(...).get_final_completion()`` over ``sse``."""
    client = mock_client("openai", sse)
    with client.chat.completions.stream(
        model="gpt-test", messages=[{"role": "user", "content": "hi"}]
    ) as s:
        return s.get_final_completion()


def sdk_snapshot(sse: bytes, pid: str) -> Any:
    """The official SDK's accumulation of a whole stream, without the helpers' final checks
    (the Chat ``.stream()`` helper refuses ``length`` / ``content_filter`` endings)."""
    if pid == "anthropic_messages":
        client = mock_client("anthropic", sse)
        with client.messages.stream(
            model="m", max_tokens=8, messages=[{"role": "user", "content": "x"}]
        ) as s:
            for _ in s:
                pass
            return s.current_message_snapshot
    from openai.lib.streaming.chat import ChatCompletionStreamState

    client = mock_client("openai", sse)
    state: Any = ChatCompletionStreamState()
    for c in client.chat.completions.create(
        model="m", messages=[{"role": "user", "content": "x"}], stream=True
    ):
        state.handle_chunk(c)
    return state.current_completion_snapshot
