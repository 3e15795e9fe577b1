"""Bench inputs, read from ../shared/fixtures (recorded real traffic) and assembled into the
workload shapes: wire bodies as compact bytes, streams as lists of per-event SSE chunks."""

from __future__ import annotations

import os
from collections.abc import Iterator
from itertools import cycle, islice
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("INTERLINGUA_SHARED", ROOT.parent / "shared"))
FIXTURES = SHARED / "fixtures"
REC = FIXTURES / "recorded"

CLAUDE_CODE = "clients/claude-code/tool_loop_thinking_signature/002_POST_v1_messages.json"
SMALL_ANTHROPIC_REQUEST = "recorded/anthropic/pydantic-ai-cassettes/test_tool_choice_matrix/test_tool_choice_matrix[tools_plus_output-anthropic]/01.request.json"
SMALL_CHAT_REQUEST = "recorded/openai-chat/pydantic-ai-cassettes/test_tool_choice_matrix/test_tool_choice_matrix[auto-openai]/01.request.json"
CHAT_PARALLEL_RESPONSE = "recorded/openai-chat/openai-python/inline-snapshots/test_completions/test_parse_multiple_pydantic_tools.response.json"
ANTHROPIC_PARALLEL_RESPONSE = "recorded/anthropic/pydantic-ai-cassettes/test_anthropic/test_multiple_parallel_tool_calls/00.response.json"
CHAT_TEXT_CHUNKS = "recorded/openai-chat/vercel-ai/openai-text.chunks.txt"
CHAT_PARALLEL_TOOLS_SSE = "recorded/openai-chat/openai-python/inline-snapshot-external/f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin"
ANTHROPIC_TEXT_CHUNKS = "recorded/anthropic/vercel-ai/anthropic-text.chunks.txt"
ANTHROPIC_TOOL_SSE = (
    "recorded/anthropic/anthropic-sdk-python/streaming-fixtures/tool_use_response.txt"
)
LARGE_CHAT_SSE = "recorded/openai-chat/pydantic-ai-cassettes/compatible-api.groq.com/test_groq/test_groq_model_thinking_part_iter/01.response.sse"
LARGE_ANTHROPIC_SSE = "recorded/anthropic/pydantic-ai-cassettes/test_anthropic/test_pause_turn_web_search_streaming_vcr/00.response.sse"

STREAM_EVENTS = 1000
PARALLEL_TOOLS = 4  # tool calls in the built streams, streamed one after the other as Chat does


class Missing(Exception):
    """A bench input is not under ../shared/fixtures: its workloads are skipped."""


def path(rel: str) -> Path:
    p = FIXTURES / rel
    if not p.is_file():
        raise Missing(f"{p} is absent")
    return p


def compact(obj: Any) -> bytes:
    return orjson.dumps(obj)


def load(rel: str) -> Any:
    return orjson.loads(path(rel).read_bytes())


# -- request and response bodies --------------------------------------------------------------


def claude_code_request() -> bytes:
    return compact(load(CLAUDE_CODE)["body"])


def small_anthropic_request() -> bytes:
    return compact(load(SMALL_ANTHROPIC_REQUEST))


def small_chat_request() -> bytes:
    return compact(load(SMALL_CHAT_REQUEST))


def chat_parallel_response() -> bytes:
    return compact(load(CHAT_PARALLEL_RESPONSE))


def anthropic_parallel_response() -> bytes:
    return compact(load(ANTHROPIC_PARALLEL_RESPONSE))


# -- streams ----------------------------------------------------------------------------------


def _sse_payloads(raw: bytes) -> list[Any]:
    out = []
    for block in raw.replace(b"\r\n", b"\n").split(b"\n\n"):
        for line in block.split(b"\n"):
            if line.startswith(b"data:"):
                payload = line[5:].strip()
                if payload and payload != b"[DONE]":
                    out.append(orjson.loads(payload))
    return out


def _chat_frame(obj: Any) -> bytes:
    return b"data: " + orjson.dumps(obj) + b"\n\n"


def _anthropic_frame(obj: Any) -> bytes:
    return b"event: " + obj["type"].encode() + b"\ndata: " + orjson.dumps(obj) + b"\n\n"


def _chat_parts() -> tuple[
    dict[str, Any], list[dict[str, Any]], list[list[dict[str, Any]]], dict[str, Any], dict[str, Any]
]:
    """Recorded Chat chunks: (role chunk, text-delta chunks, per-tool chunk lists, finish chunk,
    usage chunk), all rewritten to one stream id / model so they read as one response."""
    text_lines = [orjson.loads(x) for x in path(CHAT_TEXT_CHUNKS).read_bytes().splitlines() if x]
    tool_stream = _sse_payloads(path(CHAT_PARALLEL_TOOLS_SSE).read_bytes())
    head = {
        k: tool_stream[0][k] for k in ("id", "object", "created", "model", "system_fingerprint")
    }

    def restamp(chunk: dict[str, Any]) -> dict[str, Any]:
        out = dict(chunk)
        out.update(head)
        out.pop("obfuscation", None)
        out.pop("service_tier", None)
        if out.get("usage", 0) is None:
            del out["usage"]
        return out

    role = restamp(text_lines[0])
    texts = [
        restamp(c)
        for c in text_lines[1:]
        if c.get("choices") and c["choices"][0]["delta"].get("content")
    ]
    per_tool: dict[int, list[dict[str, Any]]] = {}
    finish = usage = None
    for c in tool_stream:
        choices = c.get("choices") or []
        if not choices:
            usage = c
            continue
        delta = choices[0]["delta"]
        if delta.get("tool_calls"):
            per_tool.setdefault(delta["tool_calls"][0]["index"], []).append(c)
        elif choices[0].get("finish_reason"):
            finish = c
    assert finish is not None and usage is not None
    tools = [per_tool[i] for i in sorted(per_tool)]
    return role, texts, tools, finish, usage


def _chat_tool_block(template: list[dict[str, Any]], index: int) -> list[dict[str, Any]]:
    """A recorded tool call's chunks re-indexed as parallel call ``index`` with its own id."""
    out = []
    for c in template:
        c = orjson.loads(orjson.dumps(c))
        call = c["choices"][0]["delta"]["tool_calls"][0]
        call["index"] = index
        if "id" in call:
            call["id"] = f"{call['id'][:-3]}{index:03d}"
        out.append(c)
    return out


def chat_stream_events(n_events: int = STREAM_EVENTS) -> Iterator[bytes]:
    """A Chat stream of exactly ``n_events`` SSE events (the final ``[DONE]`` included): the
    role chunk, recorded text deltas (cycled), PARALLEL_TOOLS streamed tool calls, the finish
    chunk, the usage chunk. A generator: nothing but the templates is held in memory."""
    role, texts, tools, finish, usage = _chat_parts()
    tool_chunks = [
        _chat_frame(c)
        for i in range(PARALLEL_TOOLS)
        for c in _chat_tool_block(tools[i % len(tools)], i)
    ]
    n_text = n_events - 1 - len(tool_chunks) - 3
    if n_text < 1:
        raise ValueError(f"a stream needs more than {len(tool_chunks) + 4} events")
    text_frames = [_chat_frame(c) for c in texts]
    yield _chat_frame(role)
    yield from islice(cycle(text_frames), n_text)
    yield from tool_chunks
    yield _chat_frame(finish)
    yield _chat_frame(usage)
    yield b"data: [DONE]\n\n"


def chat_stream(n_events: int = STREAM_EVENTS) -> list[bytes]:
    return list(chat_stream_events(n_events))


def anthropic_stream(n_events: int = STREAM_EVENTS) -> list[bytes]:
    """An Anthropic stream of ``n_events`` events: message_start, a text block of recorded text
    deltas (cycled), PARALLEL_TOOLS tool_use blocks of recorded input_json deltas,
    message_delta, message_stop. Every event has its ``event:`` line, as on the wire."""
    text_events = [
        orjson.loads(x) for x in path(ANTHROPIC_TEXT_CHUNKS).read_bytes().splitlines() if x
    ]
    tool_events = _sse_payloads(path(ANTHROPIC_TOOL_SSE).read_bytes())
    start = tool_events[0]
    deltas = [e for e in text_events if e.get("delta", {}).get("type") == "text_delta"]
    deltas += [e for e in tool_events if e.get("delta", {}).get("type") == "text_delta"]
    tool_start = next(
        e
        for e in tool_events
        if e["type"] == "content_block_start" and e["content_block"]["type"] == "tool_use"
    )
    tool_deltas = [e for e in tool_events if e.get("delta", {}).get("type") == "input_json_delta"]
    message_delta = next(e for e in tool_events if e["type"] == "message_delta")
    tools: list[dict[str, Any]] = []
    for i in range(PARALLEL_TOOLS):
        idx = i + 1
        s = orjson.loads(orjson.dumps(tool_start))
        s["index"] = idx
        s["content_block"]["id"] = f"{s['content_block']['id'][:-3]}{i:03d}"
        tools.append(s)
        for d in tool_deltas:
            d = dict(d, index=idx)
            tools.append(d)
        tools.append({"type": "content_block_stop", "index": idx})
    head = [
        start,
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "ping"},
    ]
    tail = [message_delta, {"type": "message_stop"}]
    n_text = n_events - len(head) - 1 - len(tools) - len(tail)
    if n_text < 1:
        raise ValueError("stream too short")
    text = [dict(d, index=0) for d in islice(cycle(deltas), n_text)]
    events = [*head, *text, {"type": "content_block_stop", "index": 0}, *tools, *tail]
    assert len(events) == n_events
    return [_anthropic_frame(e) for e in events]


def raw_chunks(rel: str, size: int = 4096) -> list[bytes]:
    """A recorded raw SSE body cut in ``size``-byte network reads."""
    raw = path(rel).read_bytes()
    return [raw[i : i + size] for i in range(0, len(raw), size)]
