"""OpenAI Chat Completions streams: unnamed ``data:`` chunks with choices[0].delta (content,
reasoning dialect fields, tool_calls keyed by index), finish_reason, a usage chunk with empty
choices (stream_options.include_usage), ``[DONE]``; an ``{"error": ...}`` chunk in band."""

from __future__ import annotations

from typing import Any

from .._pipeline import decode_error
from .._sse import SSEEvent
from ..generated.canonical import (
    ErrorEvent,
    Finish,
    FinishEvent,
    ReasoningDelta,
    ReasoningEnd,
    ReasoningStart,
    StreamEnd,
    StreamStart,
    TextDelta,
    TextEnd,
    TextStart,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
    Usage,
    UsageEvent,
)
from ._base import StreamDecoderBase, StreamEncoderBase, frame, parse_data

PROTOCOL = "openai_chat"
_TEXT = "text"
_REASONING = "reasoning"


class Decoder(StreamDecoderBase):
    def __init__(self, codec: Any) -> None:
        super().__init__(codec)
        self.started = False
        self.open: list[str] = []  # open keys in order
        self.tools: dict[int, str] = {}  # wire index -> key
        self.finished = False
        self.reasoning_fields = codec.FLAGS.reasoning_fields

    def _close_all(self) -> list[Any]:
        out: list[Any] = []
        for key in self.open:
            if key == _TEXT:
                out.append(TextEnd(key=key))
            elif key == _REASONING:
                out.append(ReasoningEnd(key=key))
            else:
                out.append(ToolCallEnd(key=key))
        self.open = []
        return out

    def _close(self, key: str, out: list[Any]) -> None:
        if key in self.open:
            self.open.remove(key)
            out.append(TextEnd(key=key) if key == _TEXT else ReasoningEnd(key=key))

    def feed(self, ev: SSEEvent) -> list[Any]:
        if ev.data == "[DONE]":
            done = self._close_all()
            self.ended = "completed"
            done.append(StreamEnd(ending="completed"))
            return done
        d, bad = parse_data(ev)
        if bad is not None:
            self.ended = "failed"
            return [*self._close_all(), bad, StreamEnd(ending="failed")]
        if type(d) is not dict:
            self.ignored += 1
            return []
        out: list[Any] = []
        if "error" in d and not d.get("choices"):
            self.ended = "failed"
            err = d["error"] if type(d["error"]) is dict else {}
            code = err.get("code")
            status: int = code if type(code) is int else 500
            out += self._close_all()
            out += [ErrorEvent(error=decode_error(status, d, PROTOCOL)), StreamEnd(ending="failed")]
            return out
        if not self.started:
            self.started = True
            out.append(StreamStart(id=d.get("id"), model=d.get("model"), created=d.get("created")))
        for c in d.get("choices") or ():
            if type(c) is not dict or c.get("index", 0) != 0:
                continue
            delta = c.get("delta")
            if type(delta) is dict:
                self._delta(delta, out)
            raw = c.get("finish_reason")
            if raw is not None:
                out += self._close_all()
                self.finished = True
                out.append(
                    FinishEvent(
                        finish=Finish(unified=self.codec.FINISH_DECODE.get(raw, "other"), raw=raw)
                    )
                )
        u = d.get("usage")
        if type(u) is dict:
            out.append(UsageEvent(usage=self.codec.decode_usage(u, "usage")))
        return out

    def _delta(self, delta: dict[str, Any], out: list[Any]) -> None:
        for field in self.reasoning_fields:
            r = delta.get(field)
            if r:
                if _REASONING not in self.open:
                    self.open.append(_REASONING)
                    out.append(ReasoningStart(key=_REASONING))
                out.append(ReasoningDelta(key=_REASONING, text=r))
                break
        text = delta.get("content")
        if text:
            self._close(_REASONING, out)
            if _TEXT not in self.open:
                self.open.append(_TEXT)
                out.append(TextStart(key=_TEXT))
            out.append(TextDelta(key=_TEXT, text=text))
        calls = delta.get("tool_calls")
        if calls:
            for pos, tc in enumerate(calls):
                if type(tc) is not dict:
                    continue
                idx = tc.get("index", pos)
                fn = tc.get("function") or {}
                key = self.tools.get(idx)
                if key is None:
                    self._close(_REASONING, out)
                    self._close(_TEXT, out)
                    key = f"call{idx}"
                    self.tools[idx] = key
                    self.open.append(key)
                    call_id = tc.get("id") or f"call_interlingua_{idx}"
                    out.append(ToolCallStart(key=key, id=str(call_id), name=fn.get("name") or ""))
                args = fn.get("arguments")
                if args:
                    out.append(ToolCallDelta(key=key, arguments=args))


class Encoder(StreamEncoderBase):
    def __init__(self, codec: Any) -> None:
        super().__init__(codec)
        self.base: dict[str, Any] = {
            "id": "chatcmpl-interlingua",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "unknown",
        }
        self.tool_index: dict[str, int] = {}
        self.usage: Usage | None = None
        self.started = False
        self.reasoning_field = codec.FLAGS.reasoning_fields[0]

    def _chunk(self, delta: dict[str, Any], finish: str | None = None) -> bytes:
        return frame(
            {**self.base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}, None
        )

    def feed(self, ev: Any) -> list[bytes]:
        t = type(ev)
        if t is TextDelta:
            return [self._chunk({"content": ev.text})]
        if t is ToolCallDelta:
            i = self.tool_index.get(ev.key)
            if i is None:
                return []
            return [
                self._chunk({"tool_calls": [{"index": i, "function": {"arguments": ev.arguments}}]})
            ]
        if t is ReasoningDelta:
            return [self._chunk({self.reasoning_field: ev.text})]
        if t is StreamStart:
            if ev.id:
                self.base["id"] = ev.id
            if ev.model:
                self.base["model"] = ev.model
            if ev.created:
                self.base["created"] = ev.created
            self.started = True
            return [self._chunk({"role": "assistant", "content": ""})]
        out = [] if self.started or t is StreamEnd else self.feed(StreamStart())
        if t is ToolCallStart:
            i = len(self.tool_index)
            self.tool_index[ev.key] = i
            call = {
                "index": i,
                "id": ev.id,
                "type": "function",
                "function": {"name": ev.name, "arguments": ""},
            }
            out.append(self._chunk({"tool_calls": [call]}))
        elif t is FinishEvent:
            f = ev.finish
            raw = (
                f.raw
                if f.raw is not None and self.codec.FINISH_DECODE.get(f.raw) == f.unified
                else self.codec.FINISH_ENCODE.get(f.unified, "stop")
            )
            out.append(self._chunk({}, raw))
        elif t is UsageEvent:
            self.usage = ev.usage
        elif t is ErrorEvent:
            out.append(
                self._error(ev.error.type, ev.error.message, ev.error.raw_type, ev.error.status)
            )
            self.closed = True
        elif t is StreamEnd:
            out += self._end(ev.ending)
        return out

    def _error(self, etype: str, message: str, raw: str | None, status: int | None) -> bytes:
        wire = (
            raw
            if raw and self.codec.ERROR_DECODE.get(raw) == etype
            else self.codec.ERROR_ENCODE.get(etype, "server_error")
        )
        return frame(
            {"error": {"message": message, "type": wire, "param": None, "code": status}}, None
        )

    def _end(self, ending: str) -> list[bytes]:
        if self.closed:
            return []
        self.closed = True
        if ending != "completed":
            return [
                self._error(
                    "api_error", "upstream stream ended without its terminal event", None, 502
                )
            ]
        out = []
        if self.usage is not None:
            out.append(
                frame(
                    {**self.base, "choices": [], "usage": self.codec.encode_usage(self.usage)}, None
                )
            )
        out.append(b"data: [DONE]\n\n")
        return out

    def close(self) -> list[bytes]:
        return self._end("disconnected") if not self.closed else []
