"""Anthropic Messages streams: message_start, content_block_start/delta/stop (keyed by index),
message_delta (stop_reason, cumulative usage), message_stop; ping ignored; error in band."""

from __future__ import annotations

from typing import Any

from .._pipeline import decode_error
from .._sse import SSEEvent
from ..generated.canonical import (
    ErrorEvent,
    ErrorInfo,
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
from ._base import (
    DISCONNECTED,
    StreamDecoderBase,
    StreamEncoderBase,
    error_frame,
    frame,
    parse_data,
)

PROTOCOL = "anthropic_messages"


class Decoder(StreamDecoderBase):
    def __init__(self, codec: Any) -> None:
        super().__init__(codec)
        self.kinds: dict[str, str] = {}
        self.sig: dict[str, str] = {}
        self.redacted: dict[str, str] = {}
        self.usage = Usage()
        self.msg_id: str | None = None  # id of the message_start seen (None: not started)

    def feed(self, ev: SSEEvent) -> list[Any]:
        if self.ended is not None:  # nothing after message_stop / error counts
            self.ignored += 1
            return []
        d, bad = parse_data(ev)
        if bad is not None:
            self.ended = "failed"
            return [bad, StreamEnd(ending="failed")]
        if type(d) is not dict:
            self.ignored += 1
            return []
        t = d.get("type")
        if t == "content_block_delta":
            key = str(d.get("index"))
            if self.kinds.get(key) == "ignored":  # deltas of a block with no canonical home
                self.ignored += 1
                return []
            delta = d.get("delta") or {}
            dt = delta.get("type")
            if dt == "text_delta":
                return [TextDelta(key=key, text=delta.get("text", ""))]
            if dt == "input_json_delta":
                pj = delta.get("partial_json", "")
                return [ToolCallDelta(key=key, arguments=pj)] if pj else []
            if dt == "thinking_delta":
                return [ReasoningDelta(key=key, text=delta.get("thinking", ""))]
            if dt == "signature_delta":
                self.sig[key] = self.sig.get(key, "") + delta.get("signature", "")
                return []
            self.ignored += 1
            return []
        if t == "content_block_start":
            key = str(d.get("index"))
            cb = d.get("content_block") or {}
            ct = cb.get("type")
            if ct == "text":
                self.kinds[key] = "text"
                out: list[Any] = [TextStart(key=key)]
                if cb.get("text"):
                    out.append(TextDelta(key=key, text=cb["text"]))
                return out
            if ct == "tool_use":
                self.kinds[key] = "tool"
                out = [ToolCallStart(key=key, id=cb.get("id", ""), name=cb.get("name", ""))]
                if cb.get("input"):
                    import orjson

                    out.append(ToolCallDelta(key=key, arguments=orjson.dumps(cb["input"]).decode()))
                return out
            if ct in ("thinking", "redacted_thinking"):
                self.kinds[key] = "reasoning"
                if ct == "redacted_thinking":
                    self.redacted[key] = cb.get("data", "")
                out = [ReasoningStart(key=key)]
                if cb.get("thinking"):
                    out.append(ReasoningDelta(key=key, text=cb["thinking"]))
                if cb.get("signature"):
                    self.sig[key] = cb["signature"]
                return out
            self.kinds[key] = "ignored"
            self.ignored += 1
            return []
        if t == "content_block_stop":
            key = str(d.get("index"))
            kind = self.kinds.pop(key, None)
            if kind == "text":
                return [TextEnd(key=key)]
            if kind == "tool":
                return [ToolCallEnd(key=key)]
            if kind == "reasoning":
                sig = self.sig.pop(key, None)
                red = self.redacted.pop(key, None)
                owner = PROTOCOL if (sig or red) else None
                return [ReasoningEnd(key=key, signature=sig, redacted=red, owner=owner)]
            return []
        if t == "message_start":
            m = d.get("message") or {}
            if self.msg_id is not None:
                if m.get("id") == self.msg_id:  # a repeated message_start: nothing new
                    self.ignored += 1
                    return []
                self.ended = "failed"  # another message spliced into the open one
                err = ErrorInfo(
                    type="bad_gateway",
                    message=f"upstream started message {m.get('id')!r} inside message {self.msg_id!r}",
                    status=502,
                )
                return [ErrorEvent(error=err), StreamEnd(ending="failed")]
            self.msg_id = str(m.get("id") or "")
            u = m.get("usage")
            if type(u) is dict:
                self.usage = self.codec.decode_usage(u, "message.usage")
            return [StreamStart(id=m.get("id"), model=m.get("model"), usage=self.usage)]
        if t == "message_delta":
            out = []
            u = d.get("usage")
            if type(u) is dict:
                merged = {**(self.usage.raw or {}), **{k: v for k, v in u.items() if v is not None}}
                self.usage = self.codec.decode_usage(merged, "usage")
                out.append(UsageEvent(usage=self.usage))
            delta = d.get("delta") or {}
            raw = delta.get("stop_reason")
            if raw is not None:
                fin = Finish(unified=self.codec.FINISH_DECODE.get(raw, "other"), raw=raw)
                out.append(FinishEvent(finish=fin, stop_sequence=delta.get("stop_sequence")))
            return out
        if t == "message_stop":
            self.ended = "completed"
            return [StreamEnd(ending="completed")]
        if t == "ping":
            return []
        if t == "error":
            self.ended = "failed"
            err = d.get("error") or {}
            status = self.codec.ERROR_STATUS.get(
                self.codec.ERROR_DECODE.get(err.get("type"), ""), 500
            )
            return [ErrorEvent(error=decode_error(status, d, PROTOCOL)), StreamEnd(ending="failed")]
        self.ignored += 1
        return []


class Encoder(StreamEncoderBase):
    def __init__(self, codec: Any) -> None:
        super().__init__(codec)
        self.index = -1
        self.open: str | None = None  # key of the open block
        self.index_of: dict[str, int] = {}
        self.pending_reasoning: str | None = None  # reasoning block not started yet (lazy)
        # Anthropic blocks never interleave: a tool call that starts while another tool block is
        # open waits here (id, name, argument pieces, ended) until that block ends
        self.queued: dict[str, tuple[str, str, list[str], list[bool]]] = {}
        self.open_tool = False
        self.finish: FinishEvent | None = None
        self.usage: Usage | None = None
        self.started = False
        self.msg_id = "msg_interlingua"
        self.model = "unknown"

    def _start(self, key: str, block: dict[str, Any]) -> list[bytes]:
        out = self._stop()
        if self.queued and block["type"] != "tool_use":
            out += self._flush(all_of_them=True)
        self.index += 1
        self.index_of[key] = self.index
        self.open = key
        self.open_tool = block["type"] == "tool_use"
        out.append(
            frame(
                {"type": "content_block_start", "index": self.index, "content_block": block},
                "content_block_start",
            )
        )
        return out

    def _stop(self) -> list[bytes]:
        if self.pending_reasoning is not None:
            key = self.pending_reasoning
            self.pending_reasoning = None
            out = self._start(key, {"type": "thinking", "thinking": "", "signature": ""})
            return out + self._stop()
        if self.open is None:
            return []
        idx = self.index_of[self.open]
        self.open = None
        return [frame({"type": "content_block_stop", "index": idx}, "content_block_stop")]

    def _flush(self, *, all_of_them: bool) -> list[bytes]:
        """Start the queued tool calls in order; the first one still streaming stays open
        (unless ``all_of_them``: the stream ends or another kind of block starts)."""
        out: list[bytes] = []
        while self.queued:
            key = next(iter(self.queued))
            call_id, name, pieces, ended = self.queued.pop(key)
            out += self._start(key, {"type": "tool_use", "id": call_id, "name": name, "input": {}})
            if pieces:
                out.append(
                    self._delta(key, {"type": "input_json_delta", "partial_json": "".join(pieces)})
                )
            if ended[0] or all_of_them:
                out += self._stop()
            else:
                break
        return out

    def _delta(self, key: str, delta: dict[str, Any]) -> bytes:
        return frame(
            {"type": "content_block_delta", "index": self.index_of[key], "delta": delta},
            "content_block_delta",
        )

    def _message_start(self, id: str | None, model: str | None, usage: Usage | None) -> list[bytes]:
        self.started = True
        u = self.codec.encode_usage(usage or Usage())
        msg = {
            "id": id or self.msg_id,
            "type": "message",
            "role": "assistant",
            "model": model or self.model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": u,
        }
        return [frame({"type": "message_start", "message": msg}, "message_start")]

    def feed(self, ev: Any) -> list[bytes]:
        if self.closed:  # after message_stop or an error event the stream is over
            return []
        t = type(ev)
        if t is TextDelta:
            if ev.key not in self.index_of or self.open != ev.key:
                out = self._start(ev.key, {"type": "text", "text": ""})
                out.append(self._delta(ev.key, {"type": "text_delta", "text": ev.text}))
                return out
            return [self._delta(ev.key, {"type": "text_delta", "text": ev.text})]
        if t is ToolCallDelta:
            queued = self.queued.get(ev.key)
            if queued is not None:
                queued[2].append(ev.arguments)
                return []
            if ev.key not in self.index_of:
                return []
            return [self._delta(ev.key, {"type": "input_json_delta", "partial_json": ev.arguments})]
        if t is ReasoningDelta:
            out = []
            if self.pending_reasoning == ev.key:
                self.pending_reasoning = None
                out = self._start(ev.key, {"type": "thinking", "thinking": "", "signature": ""})
            elif ev.key not in self.index_of:
                out = self._start(ev.key, {"type": "thinking", "thinking": "", "signature": ""})
            out.append(self._delta(ev.key, {"type": "thinking_delta", "thinking": ev.text}))
            return out
        if t is StreamStart:
            return self._message_start(ev.id, ev.model, ev.usage)
        out = [] if self.started or t is StreamEnd else self._message_start(None, None, None)
        if t is TextStart:
            out += self._start(ev.key, {"type": "text", "text": ""})
        elif t is TextEnd:
            if self.open == ev.key:
                out += self._stop()
        elif t is ToolCallEnd:
            if ev.key in self.queued:
                self.queued[ev.key][3][0] = True
            elif self.open == ev.key:
                out += self._stop()
                out += self._flush(all_of_them=False)
        elif t is ToolCallStart:
            if self.open is not None and self.open_tool:
                self.queued[ev.key] = (ev.id, ev.name, [], [False])
            else:
                out += self._start(
                    ev.key, {"type": "tool_use", "id": ev.id, "name": ev.name, "input": {}}
                )
        elif t is ReasoningStart:
            out += self._stop()
            self.pending_reasoning = ev.key
        elif t is ReasoningEnd:
            out += self._reasoning_end(ev)
        elif t is UsageEvent:
            self.usage = ev.usage
        elif t is FinishEvent:
            self.finish = ev
        elif t is ErrorEvent:
            out += self._stop()
            out.append(error_frame(ev.error, PROTOCOL, "error"))
            self.closed = True
        elif t is StreamEnd:
            out += self._end(ev.ending)
        return out

    def _reasoning_end(self, ev: ReasoningEnd) -> list[bytes]:
        mine = ev.owner == PROTOCOL
        if self.pending_reasoning == ev.key:
            self.pending_reasoning = None
            if mine and ev.redacted:
                return (
                    self._start(ev.key, {"type": "redacted_thinking", "data": ev.redacted})
                    + self._stop()
                )
            out = self._start(ev.key, {"type": "thinking", "thinking": "", "signature": ""})
        else:
            out = []
        if self.open == ev.key:
            if mine and ev.signature:
                out.append(
                    self._delta(ev.key, {"type": "signature_delta", "signature": ev.signature})
                )
            out += self._stop()
        return out

    def _end(self, ending: str) -> list[bytes]:
        if self.closed:
            return []
        self.closed = True
        out = [] if self.started else self._message_start(None, None, None)
        out += self._stop()
        if ending != "completed":  # queued calls never finished: the error says so
            out.append(error_frame(DISCONNECTED, PROTOCOL, "error"))
            return out
        out += self._flush(all_of_them=True)
        fin = self.finish
        if (
            fin is not None
            and fin.finish.raw is not None
            and self.codec.FINISH_DECODE.get(fin.finish.raw) == fin.finish.unified
        ):
            reason = fin.finish.raw
        else:
            unified = fin.finish.unified if fin is not None else "stop"
            reason = self.codec.FINISH_ENCODE.get(unified, "end_turn")
        usage = self.codec.encode_usage(self.usage or Usage())
        delta = {"stop_reason": reason, "stop_sequence": fin.stop_sequence if fin else None}
        out.append(
            frame({"type": "message_delta", "delta": delta, "usage": usage}, "message_delta")
        )
        out.append(frame({"type": "message_stop"}, "message_stop"))
        return out

    def close(self) -> list[bytes]:
        return self._end("disconnected") if not self.closed else []
