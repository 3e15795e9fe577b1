"""OpenAI Chat Completions streams: unnamed ``data:`` chunks with choices[0].delta (content,
reasoning dialect fields, tool_calls keyed by index), finish_reason, a usage chunk with empty
choices (stream_options.include_usage), ``[DONE]``; an ``{"error": ...}`` chunk in band."""

from __future__ import annotations

from typing import Any

from .._codec_support import get_dotted
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
from ._base import (
    DISCONNECTED,
    StreamDecoderBase,
    StreamEncoderBase,
    error_frame,
    frame,
    parse_data,
)

PROTOCOL = "openai_chat"
_TEXT = "text"
_REASONING = "reasoning"
_REFUSAL = "refusal"


class Decoder(StreamDecoderBase):
    """Endings: ``[DONE]`` completes; so does the end of the body after a ``finish_reason``
    (servers such as older TGI, llama.cpp forks and llama-box never sent ``[DONE]``, and the
    OpenAI SDK, like every client, accepts the body's end as the stream's end); an end with
    neither is a disconnect. A chunk with a truthy ``error`` fails the stream, even beside
    ``choices`` (OpenRouter), as the OpenAI SDK raises on it."""

    def __init__(self, codec: Any) -> None:
        super().__init__(codec)
        self.started = False
        self.open: list[str] = []  # open keys in order
        self.tools: dict[int, str] = {}  # wire index -> key of the call open at that index
        self.tool_ids: dict[str, str] = {}  # key -> call id
        self.finished = False
        self.reasoning_fields = codec.FLAGS.reasoning_fields

    def _end_event(self, key: str) -> Any:
        if key in (_TEXT, _REFUSAL):
            return TextEnd(key=key)
        if key == _REASONING:
            return ReasoningEnd(key=key)
        return ToolCallEnd(key=key)

    def _close_all(self) -> list[Any]:
        out = [self._end_event(key) for key in self.open]
        self.open = []
        return out

    def _close(self, key: str, out: list[Any]) -> None:
        if key in self.open:
            self.open.remove(key)
            out.append(self._end_event(key))

    def _status(self, err: Any) -> int:
        """HTTP status of an in-band error: an int ``code`` (OpenRouter), ``status_code`` (Groq),
        else the status of its ``type``."""
        if type(err) is not dict:
            return 500
        for k in ("code", "status_code", "status"):
            v = err.get(k)
            if type(v) is int and 400 <= v <= 599:
                return v
        unified = self.codec.ERROR_DECODE.get(err.get("type"))
        return int(self.codec.ERROR_STATUS.get(unified, 500)) if unified else 500

    def feed(self, ev: SSEEvent) -> list[Any]:
        if self.ended is not None:  # nothing after [DONE] / an error counts
            self.ignored += 1
            return []
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
        if d.get("error"):
            self.ended = "failed"
            out += self._close_all()
            err = decode_error(self._status(d["error"]), d, PROTOCOL)
            out += [ErrorEvent(error=err), StreamEnd(ending="failed")]
            return out
        body: list[Any] = []
        for c in d.get("choices") or ():
            if type(c) is not dict or c.get("index", 0) != 0:
                continue
            delta = c.get("delta")
            if type(delta) is dict:
                self._delta(delta, body)
            raw = c.get("finish_reason")
            if raw is not None:
                body += self._close_all()
                self.finished = True
                body.append(
                    FinishEvent(
                        finish=Finish(unified=self.codec.FINISH_DECODE.get(raw, "other"), raw=raw)
                    )
                )
        u = d.get("usage")
        if u is None:
            for path in self.codec.FLAGS.stream_usage_fallbacks:
                u = get_dotted(d, path)
                if u is not None:
                    break
        if type(u) is dict:
            body.append(UsageEvent(usage=self.codec.decode_usage(u, "usage")))
        # Start on the first chunk that says something; Azure opens with an anonymous
        # prompt_filter_results chunk (id "", model "", no choices) that must not name the message.
        if not self.started and (body or d.get("id") or d.get("choices")):
            self.started = True
            out.append(
                StreamStart(
                    id=d.get("id") or None, model=d.get("model") or None, created=d.get("created")
                )
            )
        out += body
        return out

    def _text(self, key: str, text: str, out: list[Any]) -> None:
        if key not in self.open:
            self.open.append(key)
            out.append(TextStart(key=key))
        out.append(TextDelta(key=key, text=text))

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
            self._text(_TEXT, text, out)
        refusal = delta.get("refusal")
        if refusal and type(refusal) is str:
            # No canonical refusal stream event yet: the refusal is text of its own part rather
            # than dropped in silence (Anthropic itself refuses in text + stop_reason refusal).
            self._close(_REASONING, out)
            self._text(_REFUSAL, refusal, out)
        calls = delta.get("tool_calls")
        if calls:
            for pos, tc in enumerate(calls):
                if type(tc) is not dict:
                    continue
                idx = tc.get("index", pos)
                fn = tc.get("function") or {}
                call_id = tc.get("id")
                key = self.tools.get(idx)
                if key is not None and call_id and str(call_id) != self.tool_ids[key]:
                    # a new call id at a known index: dialects that send every call at index 0
                    self._close(key, out)
                    key = None
                if key is None:
                    self._close(_REASONING, out)
                    self._close(_TEXT, out)
                    self._close(_REFUSAL, out)
                    key = f"call{len(self.tool_ids)}"
                    self.tools[idx] = key
                    self.open.append(key)
                    cid = str(call_id) if call_id else f"call_interlingua_{len(self.tool_ids)}"
                    self.tool_ids[key] = cid
                    out.append(ToolCallStart(key=key, id=cid, name=fn.get("name") or ""))
                args = fn.get("arguments")
                if args and type(args) is str:
                    out.append(ToolCallDelta(key=key, arguments=args))

    def close(self) -> list[Any]:
        if self.ended is None and self.finished:
            self.ended = "completed"
            return [*self._close_all(), StreamEnd(ending="completed")]
        return super().close()


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
        self.no_args: dict[str, None] = {}  # calls without argument text yet (ordered set)
        self.finish: FinishEvent | None = None  # sent at the completed ending, never before
        self.usage: Usage | None = None
        self.started = False
        self.reasoning_field = codec.FLAGS.reasoning_fields[0]

    def _chunk(self, delta: dict[str, Any], finish: str | None = None) -> bytes:
        return frame(
            {**self.base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}, None
        )

    def _args(self, i: int, arguments: str) -> bytes:
        return self._chunk({"tool_calls": [{"index": i, "function": {"arguments": arguments}}]})

    def _end_calls(self) -> list[bytes]:
        """A call that streamed no argument text gets ``{}``, as OpenAI sends for one without
        arguments (clients json-parse the joined text)."""
        out = [self._args(self.tool_index[key], "{}") for key in self.no_args]
        self.no_args.clear()
        return out

    def feed(self, ev: Any) -> list[bytes]:
        if self.closed:  # after [DONE] or an error chunk the stream is over
            return []
        t = type(ev)
        if t is TextDelta:
            return [self._chunk({"content": ev.text})]
        if t is ToolCallDelta:
            i = self.tool_index.get(ev.key)
            if i is None:
                return []
            self.no_args.pop(ev.key, None)
            return [self._args(i, ev.arguments)]
        if t is ReasoningDelta:
            return [self._chunk({self.reasoning_field: ev.text})]
        if t is StreamStart:
            if self.started:
                return []
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
            self.no_args[ev.key] = None
        elif t is ToolCallEnd:
            if ev.key in self.no_args:
                del self.no_args[ev.key]
                out.append(self._args(self.tool_index[ev.key], "{}"))
        elif t is FinishEvent:
            self.finish = ev
        elif t is UsageEvent:
            self.usage = ev.usage
        elif t is ErrorEvent:
            out.append(error_frame(ev.error, PROTOCOL, None))
            self.closed = True
        elif t is StreamEnd:
            out += self._end(ev.ending)
        return out

    def _end(self, ending: str) -> list[bytes]:
        if self.closed:
            return []
        self.closed = True
        if ending != "completed":
            return [error_frame(DISCONNECTED, PROTOCOL, None)]
        # The finish_reason waits for the terminal event: an upstream cut after its stop reason
        # but before its end (Anthropic message_delta, no message_stop) must not read as a stop.
        out = self._end_calls()
        if self.finish is not None:
            f = self.finish.finish
            raw = (
                f.raw
                if f.raw is not None and self.codec.FINISH_DECODE.get(f.raw) == f.unified
                else self.codec.FINISH_ENCODE.get(f.unified, "stop")
            )
        else:  # completed without a finish reason: say how it ended
            raw = "tool_calls" if self.tool_index else "stop"
        out.append(self._chunk({}, raw))
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
