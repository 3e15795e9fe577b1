"""Google Gemini streams (``:streamGenerateContent?alt=sse``): every ``data:`` event is a whole
GenerateContentResponse chunk (CRLF line endings); there is no terminal event, so the stream is
completed when a chunk carried a ``finishReason`` and the connection closed, else disconnected.

Text and thought parts are deltas. A functionCall arrives whole (one part: start, the whole
arguments, end; the id synthesised when absent), or on Gemini 3 in pieces: a part with the name
and ``willContinue``, parts with ``partialArgs`` (``jsonPath`` + a value; a string whose piece
has ``willContinue`` goes on in the next piece), and an end (a part without ``willContinue``).
The pieces are assembled and the arguments emitted as one delta when the call ends. A
thoughtSignature on a functionCall rides in the call id envelope (transforms/gemini_envelope);
on any other part it is a ReasoningEnd (owner gemini) before that part. ``usageMetadata`` is
cumulative: each one replaces the last. The encoder puts another protocol's reasoning state
(Anthropic thinking) in the thoughtSignature of the part that follows it, as an ``ilgenv1:``
envelope (transforms/reasoning_envelope)."""

from __future__ import annotations

import re
from typing import Any

import orjson

from .._errors import InterlinguaError
from .._finish import encode_finish, finish_loss
from .._losses import Loss
from .._pipeline import decode_error
from .._sse import SSEEvent
from ..generated.canonical import (
    ErrorEvent,
    Finish,
    FinishEvent,
    ReasoningDelta,
    ReasoningEnd,
    ReasoningPart,
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
from ..transforms.gemini_contents import camel_part
from ..transforms.gemini_envelope import SYNTH_PREFIX, synth_id, unwrap_id, wrap_id
from ..transforms.gemini_response import decode_finish
from ..transforms.reasoning_envelope import OWNERS as ENVELOPED
from ..transforms.reasoning_envelope import to_base64, wrap_parts
from ._base import (
    DISCONNECTED,
    StreamDecoderBase,
    StreamEncoderBase,
    error_frame,
    frame,
    parse_data,
)

PROTOCOL = "gemini"
_PATH_TOKEN = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]|\['([^']*)'\]")


def _set_path(root: dict[str, Any], json_path: str, value: Any, append: bool) -> None:
    """Set ``$.a.b[0].c`` in ``root`` (creating objects / arrays); ``append`` joins strings."""
    tokens: list[str | int] = []
    for m in _PATH_TOKEN.finditer(json_path.removeprefix("$")):
        key, idx, quoted = m.groups()
        tokens.append(int(idx) if idx is not None else (key if key is not None else quoted))
    if not tokens:
        return
    cur: Any = root
    for tok, nxt in zip(tokens, tokens[1:], strict=False):
        empty: Any = [] if type(nxt) is int else {}
        if type(tok) is int:
            while len(cur) <= tok:
                cur.append(None)
            if cur[tok] is None:
                cur[tok] = empty
            cur = cur[tok]
        else:
            cur = cur.setdefault(tok, empty)
    last = tokens[-1]
    if type(last) is int:
        while len(cur) <= last:
            cur.append(None)
        old = cur[last]
        cur[last] = old + value if append and type(old) is str and type(value) is str else value
    else:
        old = cur.get(last)
        cur[last] = old + value if append and type(old) is str and type(value) is str else value


def _piece_value(piece: dict[str, Any]) -> Any:
    for k in ("stringValue", "numberValue", "boolValue", "structValue", "listValue"):
        if k in piece:
            return piece[k]
    return None


class Decoder(StreamDecoderBase):
    def __init__(self, codec: Any) -> None:
        super().__init__(codec)
        self.started = False
        self.n = 0
        self.text: str | None = None  # open text key
        self.reasoning: str | None = None  # open thought key
        self.reasoning_sig: str | None = None
        self.call: dict[str, Any] | None = None  # a call arriving in pieces
        self.calls = 0
        self.finished = False

    def _key(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def _close_text(self, out: list[Any]) -> None:
        if self.text is not None:
            out.append(TextEnd(key=self.text))
            self.text = None

    def _close_reasoning(self, out: list[Any]) -> None:
        if self.reasoning is not None:
            sig = self.reasoning_sig
            out.append(
                ReasoningEnd(key=self.reasoning, signature=sig, owner=PROTOCOL if sig else None)
            )
            self.reasoning = None
            self.reasoning_sig = None

    def _close_call(self, out: list[Any]) -> None:
        c = self.call
        if c is not None:
            self.call = None
            if c["args"]:
                out.append(ToolCallDelta(key=c["key"], arguments=orjson.dumps(c["args"]).decode()))
            out.append(ToolCallEnd(key=c["key"]))

    def _close_all(self, out: list[Any]) -> None:
        self._close_call(out)
        self._close_text(out)
        self._close_reasoning(out)

    def _start_call(self, fc: dict[str, Any], sig: str | None, out: list[Any]) -> str:
        self._close_all(out)
        self.calls += 1
        cid = fc.get("id")
        cid = str(cid) if cid else synth_id()
        if sig is not None:
            cid = wrap_id(cid, sig)
        key = self._key("call")
        out.append(ToolCallStart(key=key, id=cid, name=str(fc.get("name") or "")))
        return key

    def _part(self, w: dict[str, Any], out: list[Any]) -> None:
        w = camel_part(w)[0]
        sig = w.get("thoughtSignature")
        sig = sig if type(sig) is str else None
        fc = w.get("functionCall")
        if type(fc) is dict:
            self._function_call(fc, sig, out)
            return
        text = w.get("text")
        if w.get("thought") is True:
            self._close_call(out)
            self._close_text(out)
            if self.reasoning is None:
                self.reasoning = self._key("thought")
                out.append(ReasoningStart(key=self.reasoning))
            if type(text) is str and text:
                out.append(ReasoningDelta(key=self.reasoning, text=text))
            if sig is not None:
                self.reasoning_sig = sig
            return
        if type(text) is str:
            self._close_call(out)
            self._close_reasoning(out)
            if sig is not None:  # a signature on a text part: attached to what follows
                self._close_text(out)
                out.append(ReasoningEnd(key=self._key("sig"), signature=sig, owner=PROTOCOL))
            if self.text is None and text:
                self.text = self._key("text")
                out.append(TextStart(key=self.text))
            if text:
                out.append(TextDelta(key=self.text or "", text=text))
            return
        if sig is not None and len(w) == 1:
            self._close_all(out)
            out.append(ReasoningEnd(key=self._key("sig"), signature=sig, owner=PROTOCOL))
            return
        self.ignored += 1  # inlineData, executableCode ...: no stream event carries them

    def _function_call(self, fc: dict[str, Any], sig: str | None, out: list[Any]) -> None:
        c = self.call
        if c is not None and "name" not in fc:  # a piece of the open call
            pieces = fc.get("partialArgs")
            for piece in pieces if type(pieces) is list else ():
                if type(piece) is not dict or type(piece.get("jsonPath")) is not str:
                    self.ignored += 1
                    continue
                path = piece["jsonPath"]
                try:
                    _set_path(c["args"], path, _piece_value(piece), append=path == c["cont"])
                except (TypeError, AttributeError, IndexError, KeyError):
                    self.ignored += 1  # a path that contradicts the pieces before it
                c["cont"] = path if piece.get("willContinue") else None
            if not fc.get("willContinue"):
                self._close_call(out)
            return
        if not fc:
            return
        key = self._start_call(fc, sig, out)
        if fc.get("willContinue"):
            args = fc.get("args")
            self.call = {"key": key, "args": dict(args) if type(args) is dict else {}, "cont": None}
            return
        args = fc.get("args")
        if args is not None:
            out.append(ToolCallDelta(key=key, arguments=orjson.dumps(args).decode()))
        out.append(ToolCallEnd(key=key))

    def feed(self, ev: SSEEvent) -> list[Any]:
        d, bad = parse_data(ev)
        if bad is not None:
            self.ended = "failed"
            out: list[Any] = []
            self._close_all(out)
            return [*out, bad, StreamEnd(ending="failed")]
        chunks = d if type(d) is list else [d]
        out = []
        for c in chunks:
            if type(c) is not dict:
                self.ignored += 1
                continue
            self._chunk(c, out)
            if self.ended is not None:
                break
        return out

    def _chunk(self, d: dict[str, Any], out: list[Any]) -> None:
        err = d.get("error")
        if type(err) is dict:
            self._close_all(out)
            code = err.get("code")
            status = code if type(code) is int else 500
            out += [ErrorEvent(error=decode_error(status, d, PROTOCOL)), StreamEnd(ending="failed")]
            self.ended = "failed"
            return
        if not self.started:
            self.started = True
            out.append(StreamStart(id=d.get("responseId"), model=d.get("modelVersion")))
        cands = d.get("candidates")
        finish: Any = None
        if type(cands) is list and cands and type(cands[0]) is dict:
            c0 = cands[0]
            content = c0.get("content")
            parts = content.get("parts") if type(content) is dict else None
            for w in parts if type(parts) is list else ():
                if type(w) is dict:
                    self._part(w, out)
            finish = c0.get("finishReason")
        pf = d.get("promptFeedback")
        if finish is None and type(pf) is dict and pf.get("blockReason") and not cands:
            self._close_all(out)
            out.append(FinishEvent(finish=Finish(unified="content_filter", raw=pf["blockReason"])))
            self.finished = True
        if finish is not None:
            self._close_all(out)
            f = decode_finish(
                finish if type(finish) is int else str(finish), "", self.codec, self.calls > 0
            )
            out.append(FinishEvent(finish=f or Finish(unified="stop")))
            self.finished = True
        u = d.get("usageMetadata")
        if type(u) is dict and ("promptTokenCount" in u or "candidatesTokenCount" in u):
            try:
                out.append(UsageEvent(usage=self.codec.decode_usage(u, "usageMetadata")))
            except InterlinguaError:
                self.ignored += 1  # a malformed usage object: tolerated and counted

    def close(self) -> list[Any]:
        if self.ended is not None:
            return []
        out: list[Any] = []
        self._close_all(out)
        self.ended = "completed" if self.finished else "disconnected"
        out.append(StreamEnd(ending=self.ended))
        return out


class Encoder(StreamEncoderBase):
    def __init__(self, codec: Any) -> None:
        super().__init__(codec)
        self.base: dict[str, Any] = {"modelVersion": "unknown", "responseId": "interlingua"}
        self.calls: dict[str, dict[str, Any]] = {}
        self.any_calls = False
        self.reasoning_open: set[str] = set()
        self.sig: str | None = None  # a signature waiting for the part it belongs to
        self.thinking: dict[str, list[str]] = {}  # reasoning key -> text so far
        self.foreign: list[ReasoningPart] = []  # another protocol's blocks (reasoning_envelope)
        self.finish: FinishEvent | None = None
        self.usage: Usage | None = None
        self.any_calls = False

    def _chunk(self, parts: list[dict[str, Any]], **extra: Any) -> bytes:
        cand: dict[str, Any] = {"content": {"parts": parts, "role": "model"}, "index": 0}
        cand.update(extra)
        return frame({"candidates": [cand], **self.base}, None)

    def _part(self, part: dict[str, Any]) -> bytes:
        if self.foreign and not part.get("thought"):  # the next part carries them, as in a
            # non-stream response (a thought part would not: clients may drop thoughts)
            self.sig = self.sig or to_base64(wrap_parts(self.foreign))
            self.foreign = []
        if self.sig is not None:
            part["thoughtSignature"] = self.sig
            self.sig = None
        return self._chunk([part])

    def feed(self, ev: Any) -> list[bytes]:
        t = type(ev)
        if t is TextDelta:
            return [self._part({"text": ev.text})] if ev.text else []
        if t is ToolCallDelta:
            c = self.calls.get(ev.key)
            if c is not None:
                c["args"].append(ev.arguments)
            return []
        if t is ReasoningDelta:
            if ev.key in self.thinking:
                self.thinking[ev.key].append(ev.text)
            return [self._part({"text": ev.text, "thought": True})] if ev.text else []
        if t is StreamStart:
            if ev.id:
                self.base["responseId"] = ev.id
            if ev.model:
                self.base["modelVersion"] = ev.model
            return []
        if t is ReasoningStart:
            self.reasoning_open.add(ev.key)
            self.thinking[ev.key] = []
        elif t is ReasoningEnd:
            text = "".join(self.thinking.pop(ev.key, ()))
            if ev.owner in ENVELOPED and (ev.signature is not None or ev.redacted is not None):
                self.reasoning_open.discard(ev.key)
                self.foreign.append(
                    ReasoningPart(
                        text=text, signature=ev.signature, redacted=ev.redacted, owner=ev.owner
                    )
                )
                return []
            mine = ev.owner == PROTOCOL and ev.signature
            if ev.key in self.reasoning_open:
                self.reasoning_open.discard(ev.key)
                if mine:
                    return [
                        self._chunk(
                            [{"text": "", "thought": True, "thoughtSignature": ev.signature}]
                        )
                    ]
            elif mine:
                self.sig = ev.signature
        elif t is ToolCallStart:
            self.calls[ev.key] = {"id": ev.id, "name": ev.name, "args": []}
            self.any_calls = True
        elif t is ToolCallEnd:
            return self._call(ev.key)
        elif t is UsageEvent:
            self.usage = ev.usage
        elif t is FinishEvent:
            self.finish = ev
        elif t is ErrorEvent:
            self.closed = True
            return [error_frame(ev.error, PROTOCOL, None)]
        elif t is StreamEnd:
            return self._end(ev.ending)
        return []

    def _call(self, key: str) -> list[bytes]:
        c = self.calls.pop(key, None)
        if c is None:
            return []
        self.any_calls = True
        cid, sig = unwrap_id(c["id"])
        text = "".join(c["args"]) or "{}"
        try:
            args = orjson.loads(text)
        except orjson.JSONDecodeError:
            args = None
        fc: dict[str, Any] = {"name": c["name"], "args": args if type(args) is dict else {}}
        if cid and not cid.startswith(SYNTH_PREFIX):
            fc["id"] = cid
        part: dict[str, Any] = {"functionCall": fc}
        if sig is not None:
            self.sig = sig
        return [self._part(part)]

    def _end(self, ending: str) -> list[bytes]:
        if self.closed:
            return []
        self.closed = True
        out: list[bytes] = []
        for key in list(self.calls):
            out += self._call(key)
        if ending != "completed":
            out.append(error_frame(DISCONNECTED, PROTOCOL, None))
            return out
        f = self.finish.finish if self.finish is not None else None
        raw, lossy = encode_finish(self.codec, f, self.any_calls)
        if lossy:
            self.losses.append(
                Loss("stream.finish", *finish_loss(f, raw, PROTOCOL), "finish_reason")
            )
        parts: list[dict[str, Any]] = []
        if self.foreign:
            self.sig = self.sig or to_base64(wrap_parts(self.foreign))
            self.foreign = []
        if self.sig is not None:
            parts.append({"text": "", "thoughtSignature": self.sig})
            self.sig = None
        usage = self.codec.encode_usage(self.usage or Usage())
        cand: dict[str, Any] = {
            "content": {"parts": parts, "role": "model"},
            "finishReason": raw,
            "index": 0,
        }
        out.append(frame({"candidates": [cand], "usageMetadata": usage, **self.base}, None))
        return out

    def close(self) -> list[bytes]:
        return self._end("disconnected") if not self.closed else []
