"""Output checks run once per contender before timing, so nothing fast-and-wrong is measured.

Each check reduces the input and the contender's output to what must survive a translation
(tool names, tool call ids, names and arguments, tool result ids, text, stop reason) and
compares the two. A contender whose output fails is reported and left out of the timing.
"""

from __future__ import annotations

from typing import Any

import interlingua
import orjson
from interlingua._sse import SSEDecoder

ANTHROPIC = "anthropic_messages"
CHAT = "openai_chat"

# Stop reasons in one vocabulary (Chat's), so both sides compare.
_STOP = {
    "end_turn": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "stop_sequence": "stop",
}


class CheckFailed(Exception):
    pass


def _args(raw: Any) -> Any:
    if isinstance(raw, str):
        return orjson.loads(raw) if raw.strip() else {}
    return raw


def _strings(obj: Any, out: list[str]) -> list[str]:
    if isinstance(obj, str):
        out.append(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            _strings(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _strings(v, out)
    return out


def _via_chat(kind: str, body: dict[str, Any], protocol: str) -> dict[str, Any]:
    translate = (
        interlingua.translate_request if kind == "request" else interlingua.translate_response
    )
    try:
        return translate(body, source=protocol, target=CHAT).body
    except Exception as e:  # noqa: BLE001
        raise CheckFailed(f"cannot read {protocol} ({type(e).__name__}: {e})") from None


# -- requests ---------------------------------------------------------------------------------


def _texts_anthropic_content(content: Any, texts: list[str]) -> None:
    if isinstance(content, str):
        texts.append(content)
        return
    for block in content or []:
        if block.get("type") == "text":
            texts.append(block["text"])
        elif block.get("type") == "tool_result":
            _texts_anthropic_content(block.get("content"), texts)


def request_summary(body: dict[str, Any], protocol: str) -> dict[str, Any]:
    tools: list[str] = []
    calls: list[tuple[str, str, Any]] = []
    results: list[str] = []
    texts: list[str] = []
    if protocol == ANTHROPIC:
        tools = [t["name"] for t in body.get("tools", [])]
        _texts_anthropic_content(body.get("system"), texts)
        for m in body["messages"]:
            _texts_anthropic_content(m["content"], texts)
            if isinstance(m["content"], list):
                for b in m["content"]:
                    if b.get("type") == "tool_use":
                        calls.append((b["id"], b["name"], b["input"]))
                    elif b.get("type") == "tool_result":
                        results.append(b["tool_use_id"])
    elif protocol == CHAT:
        tools = [t["function"]["name"] for t in body.get("tools", [])]
        for m in body["messages"]:
            content = m.get("content")
            if isinstance(content, str):
                texts.append(content)
            elif isinstance(content, list):
                texts += [p["text"] for p in content if p.get("type") == "text"]
            for c in m.get("tool_calls") or []:
                calls.append((c["id"], c["function"]["name"], _args(c["function"]["arguments"])))
            if m["role"] == "tool":
                results.append(m["tool_call_id"])
    else:
        # No reader of its own: read it as Chat, through interlingua (a weaker check).
        return request_summary(_via_chat("request", body, protocol), CHAT)
    return {"tools": tools, "calls": calls, "results": results, "texts": texts}


def check_request(inp: bytes, out: bytes, source: str, target: str) -> None:
    want = request_summary(orjson.loads(inp), source)
    got_body = orjson.loads(out)
    got = request_summary(got_body, target)
    for key in ("tools", "calls", "results"):
        if got[key] != want[key]:
            raise CheckFailed(f"{key} differ: want {want[key]!r:.200} got {got[key]!r:.200}")
    everything = "\0".join(_strings(got_body, []))
    for text in want["texts"]:
        if text.strip() and text not in everything:
            raise CheckFailed(f"text lost: {text[:80]!r}")


# -- responses --------------------------------------------------------------------------------


def response_summary(body: dict[str, Any], protocol: str) -> dict[str, Any]:
    if protocol == ANTHROPIC:
        text = "".join(b["text"] for b in body["content"] if b["type"] == "text")
        calls = [
            (b["id"], b["name"], b["input"]) for b in body["content"] if b["type"] == "tool_use"
        ]
        stop: Any = body.get("stop_reason")
        stop = _STOP.get(stop, stop)
    elif protocol == CHAT:
        msg = body["choices"][0]["message"]
        text = msg.get("content") or ""
        calls = [
            (c["id"], c["function"]["name"], _args(c["function"]["arguments"]))
            for c in msg.get("tool_calls") or []
        ]
        stop = body["choices"][0]["finish_reason"]
    else:
        return response_summary(_via_chat("response", body, protocol), CHAT)
    return {"text": text, "calls": calls, "stop": stop}


def check_response(inp: bytes, out: bytes, source: str, target: str) -> None:
    want = response_summary(orjson.loads(inp), source)
    got = response_summary(orjson.loads(out), target)
    if got != want:
        raise CheckFailed(f"want {want!r:.300} got {got!r:.300}")


# -- streams ----------------------------------------------------------------------------------


def stream_summary(sse: bytes, protocol: str) -> dict[str, Any]:
    if protocol not in (ANTHROPIC, CHAT):  # read it as Chat, through interlingua
        chat = interlingua.translate_stream([sse], source=protocol, target=CHAT)  # type: ignore[attr-defined]
        return stream_summary(b"".join(chat), CHAT)
    events = SSEDecoder().feed(sse)
    text: list[str] = []
    tools: dict[int, list[Any]] = {}
    stop = None
    for ev in events:
        if ev.data == "[DONE]":
            continue
        d = orjson.loads(ev.data)
        if protocol == ANTHROPIC:
            kind = d.get("type")
            if kind == "content_block_start" and d["content_block"]["type"] == "tool_use":
                cb = d["content_block"]
                tools[d["index"]] = [cb["id"], cb["name"], ""]
            elif kind == "content_block_delta":
                delta = d["delta"]
                if delta["type"] == "text_delta":
                    text.append(delta["text"])
                elif delta["type"] == "input_json_delta":
                    tools[d["index"]][2] += delta["partial_json"]
            elif kind == "message_delta":
                stop = _STOP.get(d["delta"].get("stop_reason"), d["delta"].get("stop_reason"))
        elif protocol == CHAT:
            for choice in d.get("choices") or []:
                delta = choice.get("delta") or {}
                if delta.get("content"):
                    text.append(delta["content"])
                for call in delta.get("tool_calls") or []:
                    slot = tools.setdefault(call["index"], [None, None, ""])
                    fn = call.get("function") or {}
                    if call.get("id"):
                        slot[0] = call["id"]
                    if fn.get("name"):
                        slot[1] = fn["name"]
                    slot[2] += fn.get("arguments") or ""
                if choice.get("finish_reason"):
                    stop = choice["finish_reason"]
    calls = [(t[0], t[1], _args(t[2])) for _, t in sorted(tools.items())]
    return {"text": "".join(text), "calls": calls, "stop": stop, "events": len(events)}


def check_stream(inp: bytes, out: bytes, source: str, target: str) -> None:
    want = stream_summary(inp, source)
    got = stream_summary(out, target)
    for key in ("text", "calls", "stop"):
        if got[key] != want[key]:
            raise CheckFailed(
                f"stream {key} differs: want {want[key]!r:.200} got {got[key]!r:.200}"
            )


def check_floor_stream(inp: bytes, out: bytes) -> None:
    """The floor re-frames every data payload unchanged (bar whitespace), [DONE] dropped."""
    want = [orjson.loads(e.data) for e in SSEDecoder().feed(inp) if e.data != "[DONE]"]
    got = [orjson.loads(e.data) for e in SSEDecoder().feed(out)]
    if got != want:
        raise CheckFailed(f"floor stream lost events: {len(want)} in, {len(got)} out")
