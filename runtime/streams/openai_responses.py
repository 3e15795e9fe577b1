"""OpenAI Responses streams: typed events (``event:`` line + ``data.type``), keyed by item id.

response.created / in_progress (snapshots), response.output_item.added / .done (message,
function_call, reasoning; hosted-tool items are tolerated and counted), content_part.added /
.done, output_text.delta / .done, function_call_arguments.delta / .done, reasoning summary
parts and deltas, response.completed / .incomplete (usage, finish from status) / .failed, and
the in-band ``error`` event.

The encoder keeps ``sequence_number`` strictly increasing, gives every item one ``output_index``
and one id from added to done, numbers content parts per message item, uses one response id from
created to completed, and sends the whole output in the final response object. Reasoning
state of another protocol (Anthropic thinking + signature, redacted_thinking data) goes in the
reasoning item's ``encrypted_content`` as an ``ilgenv1:`` envelope (transforms/reasoning_envelope),
which the client echoes and the next decoded request unwraps.

Endings (the same rules as the Anthropic and Chat encoders): ``response.created`` and
``response.in_progress`` always come first, even when the upstream fails or ends before any
content; the finish is held until the real end (``response.completed`` / ``.incomplete`` only
for a completed upstream); an error or a disconnected upstream closes the items still open with
status ``incomplete`` (never ``completed``), then sends the in-band ``error`` event (the shape the
API sends, which the openai SDK raises as its ``APIError``) and ``response.failed``; nothing is
sent after the terminal event."""

from __future__ import annotations

from typing import Any

from .._finish import finish_loss
from .._losses import Loss
from .._pipeline import decode_error
from .._sse import SSEEvent
from ..generated.canonical import (
    ErrorEvent,
    ErrorInfo,
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
from ..transforms.reasoning_envelope import OWNERS as ENVELOPED
from ..transforms.reasoning_envelope import wrap
from ..transforms.responses_output import finish_of_status, finish_status, response_envelope
from ._base import StreamDecoderBase, StreamEncoderBase, frame, parse_data

PROTOCOL = "openai_responses"


def _obj(d: dict[str, Any], key: str) -> dict[str, Any]:
    v = d.get(key)
    return v if type(v) is dict else {}


class Decoder(StreamDecoderBase):
    def __init__(self, codec: Any) -> None:
        super().__init__(codec)
        self.kinds: dict[str, str] = {}  # item id -> message | function_call | reasoning
        self.open_text: dict[str, list[str]] = {}  # message item id -> open part keys
        self.args_seen: set[str] = set()
        self.summary_seen: dict[str, int] = {}  # reasoning item id -> summary parts so far
        self.calls = 0
        self.started = False

    @staticmethod
    def _item_id(d: dict[str, Any]) -> str:
        return str(d.get("item_id") or f"item{d.get('output_index', 0)}")

    def feed(self, ev: SSEEvent) -> list[Any]:
        if ev.data == "[DONE]" or self.ended is not None:  # OpenRouter appends [DONE]
            return []
        d, bad = parse_data(ev)
        if bad is not None:
            self.ended = "failed"
            return [bad, StreamEnd(ending="failed")]
        if type(d) is not dict:
            self.ignored += 1
            return []
        t = d.get("type") or ev.event
        out: list[Any] = []
        if t == "response.output_text.delta" or t == "response.refusal.delta":
            key = f"{self._item_id(d)}:{d.get('content_index', 0)}"
            out += self._text_start(self._item_id(d), key)
            delta = d.get("delta")
            if type(delta) is str and delta:
                out.append(TextDelta(key=key, text=delta))
            return out
        if t == "response.function_call_arguments.delta":
            iid = self._item_id(d)
            delta = d.get("delta")
            if self.kinds.get(iid) == "function_call" and type(delta) is str and delta:
                self.args_seen.add(iid)
                return [ToolCallDelta(key=iid, arguments=delta)]
            return []
        if t in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            iid = self._item_id(d)
            delta = d.get("delta")
            if self.kinds.get(iid) == "reasoning" and type(delta) is str and delta:
                return [ReasoningDelta(key=iid, text=delta)]
            return []
        if t == "response.created" or t == "response.in_progress" or t == "response.queued":
            if self.started:
                return []
            self.started = True
            r = _obj(d, "response")
            return [StreamStart(id=r.get("id"), model=r.get("model"), created=r.get("created_at"))]
        if not self.started:  # a stream that skipped response.created
            self.started = True
            out.append(StreamStart())
        if t == "response.output_item.added":
            item = _obj(d, "item")
            iid = str(item.get("id") or f"item{d.get('output_index', 0)}")
            it = item.get("type")
            if it == "message":
                self.kinds[iid] = "message"
                self.open_text[iid] = []
            elif it == "function_call":
                self.kinds[iid] = "function_call"
                self.calls += 1
                call_id = item.get("call_id") or iid
                out.append(ToolCallStart(key=iid, id=str(call_id), name=item.get("name") or ""))
                args = item.get("arguments")
                if type(args) is str and args:
                    self.args_seen.add(iid)
                    out.append(ToolCallDelta(key=iid, arguments=args))
            elif it == "reasoning":
                self.kinds[iid] = "reasoning"
                out.append(ReasoningStart(key=iid))
            else:
                self.ignored += 1
            return out
        if t == "response.content_part.added":
            iid = self._item_id(d)
            part = _obj(d, "part")
            if part.get("type") in ("output_text", "refusal"):
                key = f"{iid}:{d.get('content_index', 0)}"
                out += self._text_start(iid, key)
                text = part.get("text") or part.get("refusal")
                if type(text) is str and text:
                    out.append(TextDelta(key=key, text=text))
            return out
        if t == "response.content_part.done":
            iid = self._item_id(d)
            key = f"{iid}:{d.get('content_index', 0)}"
            keys = self.open_text.get(iid) or []
            if key in keys:
                keys.remove(key)
                out.append(TextEnd(key=key))
            return out
        if t == "response.function_call_arguments.done":
            iid = self._item_id(d)
            args = d.get("arguments")
            if iid not in self.args_seen and type(args) is str and args:
                self.args_seen.add(iid)
                out.append(ToolCallDelta(key=iid, arguments=args))
            return out
        if t == "response.reasoning_summary_part.added":
            iid = self._item_id(d)
            n = self.summary_seen.get(iid, 0)
            self.summary_seen[iid] = n + 1
            if n and self.kinds.get(iid) == "reasoning":
                out.append(ReasoningDelta(key=iid, text="\n\n"))
            return out
        if t == "response.output_item.done":
            return out + self._item_done(d)
        if t == "response.completed" or t == "response.incomplete":
            return out + self._completed(d)
        if t == "response.failed":
            r = _obj(d, "response")
            err = _obj(r, "error")
            return out + self._fail(err.get("code"), err.get("message"))
        if t == "error":
            err = _obj(d, "error") or d
            return out + self._fail(err.get("code") or err.get("type"), err.get("message"))
        if t in (
            "response.output_text.done",
            "response.reasoning_summary_text.done",
            "response.reasoning_summary_part.done",
            "response.reasoning_text.done",
            "response.refusal.done",
        ):
            return out
        self.ignored += 1
        return out

    def _text_start(self, iid: str, key: str) -> list[Any]:
        keys = self.open_text.setdefault(iid, [])
        if key in keys:
            return []
        keys.append(key)
        self.kinds.setdefault(iid, "message")
        return [TextStart(key=key)]

    def _item_done(self, d: dict[str, Any]) -> list[Any]:
        item = _obj(d, "item")
        iid = str(item.get("id") or f"item{d.get('output_index', 0)}")
        kind = self.kinds.pop(iid, None)
        if kind == "message":
            return [TextEnd(key=k) for k in self.open_text.pop(iid, [])]
        if kind == "function_call":
            out: list[Any] = []
            args = item.get("arguments")
            if iid not in self.args_seen and type(args) is str and args:
                out.append(ToolCallDelta(key=iid, arguments=args))
            self.args_seen.discard(iid)
            out.append(ToolCallEnd(key=iid))
            return out
        if kind == "reasoning":
            enc = item.get("encrypted_content")
            return [
                ReasoningEnd(key=iid, signature=enc if type(enc) is str else None, owner=PROTOCOL)
            ]
        return []

    def _close_all(self) -> list[Any]:
        out: list[Any] = []
        for iid, kind in list(self.kinds.items()):
            if kind == "message":
                out += [TextEnd(key=k) for k in self.open_text.pop(iid, [])]
            elif kind == "function_call":
                out.append(ToolCallEnd(key=iid))
            elif kind == "reasoning":
                out.append(ReasoningEnd(key=iid, owner=PROTOCOL))
        self.kinds.clear()
        return out

    def _completed(self, d: dict[str, Any]) -> list[Any]:
        r = _obj(d, "response")
        out = self._close_all()
        u = r.get("usage")
        if type(u) is dict:
            out.append(UsageEvent(usage=self.codec.decode_usage(u, "response.usage")))
        status = r.get("status") or (
            "incomplete" if d.get("type") == "response.incomplete" else "completed"
        )
        details = r.get("incomplete_details")
        fin = finish_of_status(status, details, bool(self.calls), self.codec, "max_output_tokens")
        out.append(FinishEvent(finish=fin))
        self.ended = "completed"
        out.append(StreamEnd(ending="completed"))
        return out

    def _fail(self, code: Any, message: Any) -> list[Any]:
        out = self._close_all()
        self.ended = "failed"
        raw = str(code) if code is not None else None
        unified = self.codec.ERROR_DECODE.get(raw) if raw else None
        status = self.codec.ERROR_STATUS.get(unified, 500) if unified else 500
        body = {"error": {"type": raw, "message": message, "code": code}}
        info = decode_error(status, body, PROTOCOL)
        out += [ErrorEvent(error=info), StreamEnd(ending="failed")]
        return out


class _Item:
    __slots__ = ("index", "id", "kind", "data", "parts", "text")

    def __init__(self, index: int, iid: str, kind: str, data: dict[str, Any]) -> None:
        self.index = index
        self.id = iid
        self.kind = kind
        self.data = data  # the wire item as it will be in output_item.done
        self.parts: list[dict[str, Any]] = []  # message content parts
        self.text: list[str] = []  # reasoning summary / call arguments pieces


class Encoder(StreamEncoderBase):
    def __init__(self, codec: Any) -> None:
        super().__init__(codec)
        self.seq = 0
        self.started = False
        self.envelope = response_envelope(None, None, None)
        self.items: list[_Item] = []
        self.by_key: dict[str, _Item] = {}
        self.text_parts: dict[str, tuple[_Item, int, list[str]]] = {}  # key -> message, index
        self.message: _Item | None = None  # message item still accepting text parts
        self.usage: Usage | None = None
        self.finish: FinishEvent | None = None

    # -------------------------------------------------------------- framing
    def _ev(self, etype: str, body: dict[str, Any]) -> bytes:
        obj = {"type": etype, "sequence_number": self.seq, **body}
        self.seq += 1
        return frame(obj, etype if self.codec.FLAGS.sse_event_names else None)

    def _response(self, status: str) -> dict[str, Any]:
        r = dict(self.envelope)
        r["status"] = status
        return r

    def _start(self, ev: StreamStart | None) -> list[bytes]:
        self.started = True
        if ev is not None:
            if ev.id:
                self.envelope["id"] = ev.id
            if ev.model:
                self.envelope["model"] = ev.model
            if ev.created:
                self.envelope["created_at"] = ev.created
            if ev.usage is not None:
                self.usage = ev.usage
        return [
            self._ev("response.created", {"response": self._response("in_progress")}),
            self._ev("response.in_progress", {"response": self._response("in_progress")}),
        ]

    # -------------------------------------------------------------- items
    def _add(self, kind: str, iid: str, data: dict[str, Any]) -> tuple[_Item, bytes]:
        item = _Item(len(self.items), iid, kind, data)
        self.items.append(item)
        added = {**data, "status": "in_progress"} if "status" in data else data
        if kind == "message":
            added = {**data, "content": []}
        elif kind == "function_call":
            added = {**data, "arguments": ""}
        elif kind == "reasoning":
            added = {**data, "summary": []}
        return item, self._ev(
            "response.output_item.added", {"output_index": item.index, "item": added}
        )

    def _done(self, item: _Item) -> bytes:
        return self._ev(
            "response.output_item.done", {"output_index": item.index, "item": item.data}
        )

    def _unique(self, prefix: str, key: str) -> str:
        key = key.partition(":")[0]  # a text key is "<message item id>:<content index>"
        if key.startswith(prefix) and all(i.id != key for i in self.items):
            return key
        return f"{prefix}interlingua_{self.envelope['id']}_{len(self.items)}"

    def _close_message(self, status: str = "completed") -> list[bytes]:
        m = self.message
        if m is None:
            return []
        self.message = None
        out: list[bytes] = []
        for key, (item, _, _) in list(self.text_parts.items()):
            if item is m:
                out += self._text_end(key)
        m.data["status"] = status
        m.data["content"] = m.parts
        out.append(self._done(m))
        return out

    def _text_start(self, key: str) -> list[bytes]:
        out: list[bytes] = []
        if self.message is None:
            iid = self._unique("msg_", key)
            data = {"id": iid, "type": "message", "status": "in_progress", "role": "assistant"}
            self.message, added = self._add("message", iid, data)
            out.append(added)
        m = self.message
        ci = len(m.parts)
        part = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
        m.parts.append(part)
        self.text_parts[key] = (m, ci, [])
        out.append(
            self._ev(
                "response.content_part.added",
                {"item_id": m.id, "output_index": m.index, "content_index": ci, "part": part},
            )
        )
        return out

    def _text_end(self, key: str) -> list[bytes]:
        entry = self.text_parts.pop(key, None)
        if entry is None:
            return []
        m, ci, pieces = entry
        text = "".join(pieces)
        part = {"type": "output_text", "text": text, "annotations": [], "logprobs": []}
        m.parts[ci] = part
        where = {"item_id": m.id, "output_index": m.index, "content_index": ci}
        return [
            self._ev("response.output_text.done", {**where, "text": text, "logprobs": []}),
            self._ev("response.content_part.done", {**where, "part": part}),
        ]

    def _reasoning_summary_start(self, item: _Item) -> bytes:
        item.data["summary_open"] = True
        return self._ev(
            "response.reasoning_summary_part.added",
            {
                "item_id": item.id,
                "output_index": item.index,
                "summary_index": 0,
                "part": {"type": "summary_text", "text": ""},
            },
        )

    # -------------------------------------------------------------- feed
    def feed(self, ev: Any) -> list[bytes]:
        if self.closed:  # after response.completed / .incomplete / .failed the stream is over
            return []
        t = type(ev)
        if t is StreamStart:
            return [] if self.started else self._start(ev)
        out: list[bytes] = [] if self.started or t is StreamEnd else self._start(None)
        if t is TextDelta:
            if ev.key not in self.text_parts:
                out += self._text_start(ev.key)
            m, ci, pieces = self.text_parts[ev.key]
            pieces.append(ev.text)
            out.append(
                self._ev(
                    "response.output_text.delta",
                    {
                        "item_id": m.id,
                        "output_index": m.index,
                        "content_index": ci,
                        "delta": ev.text,
                        "logprobs": [],
                    },
                )
            )
        elif t is TextStart:
            if ev.key not in self.text_parts:
                out += self._text_start(ev.key)
        elif t is TextEnd:
            out += self._text_end(ev.key)
        elif t is ToolCallStart:
            out += self._close_message()
            iid = self._unique("fc_", ev.key)
            data = {
                "id": iid,
                "type": "function_call",
                "status": "in_progress",
                "call_id": ev.id,
                "name": ev.name,
                "arguments": "",
            }
            item, added = self._add("function_call", iid, data)
            self.by_key[ev.key] = item
            out.append(added)
        elif t is ToolCallDelta:
            call = self.by_key.get(ev.key)
            if call is not None and call.kind == "function_call":
                call.text.append(ev.arguments)
                out.append(
                    self._ev(
                        "response.function_call_arguments.delta",
                        {"item_id": call.id, "output_index": call.index, "delta": ev.arguments},
                    )
                )
        elif t is ToolCallEnd:
            out += self._call_end(ev.key)
        elif t is ReasoningStart:
            out += self._close_message()
            iid = self._unique("rs_", ev.key)
            item, added = self._add("reasoning", iid, {"id": iid, "type": "reasoning"})
            self.by_key[ev.key] = item
            out.append(added)
        elif t is ReasoningDelta:
            if ev.key not in self.by_key:
                out += self.feed(ReasoningStart(key=ev.key))
            item = self.by_key[ev.key]
            if item.kind == "reasoning":
                if not item.text:
                    out.append(self._reasoning_summary_start(item))
                item.text.append(ev.text)
                out.append(
                    self._ev(
                        "response.reasoning_summary_text.delta",
                        {
                            "item_id": item.id,
                            "output_index": item.index,
                            "summary_index": 0,
                            "delta": ev.text,
                        },
                    )
                )
        elif t is ReasoningEnd:
            out += self._reasoning_end(ev)
        elif t is UsageEvent:
            self.usage = ev.usage
        elif t is FinishEvent:
            self.finish = ev
        elif t is ErrorEvent:
            out += self._fail(ev.error)
        elif t is StreamEnd:
            out += self._end(ev.ending)
        return out

    def _call_end(self, key: str, status: str = "completed") -> list[bytes]:
        item = self.by_key.get(key)
        if item is None or item.kind != "function_call":
            return []
        out: list[bytes] = []
        if not item.text and status == "completed":  # no arguments: "{}", as a whole call has
            out += self.feed(ToolCallDelta(key=key, arguments="{}"))
        args = "".join(item.text)
        item.data["arguments"] = args
        item.data["status"] = status
        self.by_key.pop(key, None)
        if status != "completed":  # cut: the arguments never ended
            return [self._done(item)]
        return out + [
            self._ev(
                "response.function_call_arguments.done",
                {"item_id": item.id, "output_index": item.index, "arguments": args},
            ),
            self._done(item),
        ]

    def _reasoning_end(self, ev: ReasoningEnd, status: str = "completed") -> list[bytes]:
        item = self.by_key.pop(ev.key, None)
        out: list[bytes] = []
        foreign = ev.owner in ENVELOPED and (ev.signature is not None or ev.redacted is not None)
        if item is None:
            if not ((ev.owner == PROTOCOL and (ev.signature or ev.redacted)) or foreign):
                return []
            out += self.feed(ReasoningStart(key=ev.key))
            item = self.by_key.pop(ev.key)
        text = "".join(item.text)
        opened = item.data.pop("summary_open", False)
        where = {"item_id": item.id, "output_index": item.index, "summary_index": 0}
        part = {"type": "summary_text", "text": text}
        if opened:
            out.append(self._ev("response.reasoning_summary_text.done", {**where, "text": text}))
            out.append(self._ev("response.reasoning_summary_part.done", {**where, "part": part}))
        item.data["summary"] = [part] if text else []
        if ev.owner == PROTOCOL and ev.signature:
            item.data["encrypted_content"] = ev.signature
        elif foreign:  # another protocol's state, echoed back by the client (reasoning_envelope)
            item.data["encrypted_content"] = wrap(ev.owner or "", text, ev.signature, ev.redacted)
        if status != "completed":
            item.data["status"] = status
        out.append(self._done(item))
        return out

    def _close_all(self, status: str = "completed") -> list[bytes]:
        """Closes the items still open: ``completed`` at a normal end, ``incomplete`` when the
        stream fails or the upstream is cut (an item that did not finish is never completed)."""
        out = self._close_message(status)
        for key in list(self.by_key):
            item = self.by_key[key]
            if item.kind == "function_call":
                out += self._call_end(key, status)
            else:
                out += self._reasoning_end(ReasoningEnd(key=key), status)
        return out

    def _final(self, status: str, details: dict[str, Any] | None) -> dict[str, Any]:
        r = self._response(status)
        r["incomplete_details"] = details
        r["output"] = [i.data for i in self.items]
        r["usage"] = self.codec.encode_usage(self.usage or Usage())
        return r

    def _fail(self, err: ErrorInfo) -> list[bytes]:
        if self.closed:
            return []
        out = [] if self.started else self._start(None)
        out += self._close_all("incomplete")
        self.closed = True
        raw = (
            err.raw_type
            if err.raw_type and self.codec.ERROR_DECODE.get(err.raw_type) == err.type
            else self.codec.ERROR_ENCODE.get(err.type, "server_error")
        )
        # The in-band error event as the API sends it (the error nested, as in the recorded
        # streams; code and message also at the top, as the SDK's ResponseErrorEvent types them).
        error = {"type": raw, "code": raw, "message": err.message, "param": None}
        out.append(
            self._ev("error", {"code": raw, "message": err.message, "param": None, "error": error})
        )
        r = self._final("failed", None)
        r["error"] = {"code": raw, "message": err.message}
        out.append(self._ev("response.failed", {"response": r}))
        return out

    def _end(self, ending: str) -> list[bytes]:
        if self.closed:
            return []
        if ending != "completed":
            return self._fail(
                ErrorInfo(
                    type="bad_gateway",
                    message="upstream stream ended without its terminal event",
                    status=502,
                )
            )
        out = [] if self.started else self._start(None)
        out += self._close_all()
        self.closed = True
        fin = self.finish.finish if self.finish is not None else None
        status, details, lossy = finish_status(fin, self.codec)
        if lossy:
            said = details["reason"] if details else status
            self.losses.append(
                Loss("stream.finish", *finish_loss(fin, said, PROTOCOL), "finish_reason")
            )
        etype = "response.incomplete" if status == "incomplete" else "response.completed"
        if status not in ("completed", "incomplete"):
            status, etype = "completed", "response.completed"
        out.append(self._ev(etype, {"response": self._final(status, details)}))
        return out

    def close(self) -> list[bytes]:
        return self._end("disconnected") if not self.closed else []
