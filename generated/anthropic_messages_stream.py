# Generated from spec/protocols/anthropic_messages.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Anthropic Messages stream: the rows of `stream:` in spec/protocols/anthropic_messages.yaml, compiled for the generic machines
in runtime/streams (decoder: machine.py, encoder: encoder.py)."""

from __future__ import annotations

from typing import Any

from interlingua._errors import brief as _brief
from interlingua._pipeline import error_info as _error_info
from interlingua.generated.canonical import ErrorEvent as _ErrorEvent
from interlingua.generated.canonical import FinishEvent as _FinishEvent
from interlingua.generated.canonical import ReasoningDelta as _ReasoningDelta
from interlingua.generated.canonical import ReasoningEnd as _ReasoningEnd
from interlingua.generated.canonical import ReasoningStart as _ReasoningStart
from interlingua.generated.canonical import StreamStart as _StreamStart
from interlingua.generated.canonical import TextDelta as _TextDelta
from interlingua.generated.canonical import TextEnd as _TextEnd
from interlingua.generated.canonical import TextStart as _TextStart
from interlingua.generated.canonical import ToolCallDelta as _ToolCallDelta
from interlingua.generated.canonical import ToolCallEnd as _ToolCallEnd
from interlingua.generated.canonical import ToolCallStart as _ToolCallStart
from interlingua.generated.canonical import UsageEvent as _UsageEvent
from interlingua.generated.canonical import new_ToolCallDelta as _new_ToolCallDelta
from interlingua.streams.encoder import error_frame as _error_frame
from interlingua.streams.machine import DELTA as _DELTA
from interlingua.streams.machine import upstream_error as _upstream_error
from interlingua.streams.rules import StreamRows
from orjson import dumps as _dumps

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}
# whose opaque state this protocol's clients take (its own, and the owners its rows carry), and
# the wire name of each of those owners ($format; any other: the unknown owner)
MINE = frozenset(["anthropic_messages"])
FORMATS: dict[str, str] = {}
UNKNOWN_OWNER = ""


class _Block:
    """A decoded block: the state this protocol's compiled code keeps."""

    __slots__ = ("kind", "key", "open", "call_id", "sig", "redacted")

    def __init__(self, kind: str, key: str) -> None:
        self.kind: str = kind  # text, reasoning, tool_call or ignored
        self.key: str = key  # its canonical key
        self.open: bool = True
        self.call_id: str | None = None  # a call's id, opaque state wrapped in
        self.sig: str = ""  # opaque state, joined as it comes
        self.redacted: str | None = None


class _ItemBlock:
    """A block (or a group of blocks) on the wire: the state this protocol's compiled code keeps."""

    __slots__ = ("kind", "ev", "key", "index", "started", "ended", "args", "queued")

    def __init__(self, kind: str, ev: Any, key: str) -> None:
        self.kind: str = kind  # text, reasoning, tool_call or group
        self.ev: Any = ev  # the start event (tool calls: id and name)
        self.key: str = key  # canonical key
        self.index: int = -1
        self.started: bool = False  # its start event went out
        self.ended: bool = False
        self.args: bool = False  # argument text went out
        self.queued: list[str] | None = None  # argument pieces of a call waiting (sequential)


def _r0(v: Any) -> Any:  # content_block.text
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("text")
    return v


def _r1(v: Any) -> Any:  # index
    if type(v) is not dict:
        return None
    v = v.get("index")
    return v


def _r2(v: Any) -> Any:  # content_block.id
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("id")
    return v


def _r3(v: Any) -> Any:  # content_block.name
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("name")
    return v


def _r4(v: Any) -> Any:  # content_block.input
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("input")
    return v


def _r5(v: Any) -> Any:  # content_block.thinking
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("thinking")
    return v


def _r6(v: Any) -> Any:  # content_block.signature
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("signature")
    return v


def _r7(v: Any) -> Any:  # content_block.data
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("data")
    return v


def _r8(v: Any) -> Any:  # content_block.type
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("type")
    return v


def _r9(v: Any) -> Any:  # delta.text
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("text")
    return v


def _r10(v: Any) -> Any:  # delta.thinking
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("thinking")
    return v


def _r11(v: Any) -> Any:  # delta.partial_json
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("partial_json")
    return v


def _r12(v: Any) -> Any:  # delta.signature
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("signature")
    return v


def _start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: message_start\ndata: "
        + _dumps(
            {
                "type": "message_start",
                "message": {
                    "id": s.id,
                    "type": "message",
                    "role": "assistant",
                    "model": s.model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    **s.envelope,
                    "usage": s.usage_wire(),
                },
            }
        )
        + b"\n\n"
    )


def _text_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_start\ndata: "
        + _dumps(
            {
                "type": "content_block_start",
                "index": i,
                "content_block": {"type": "text", "text": ""},
            }
        )
        + b"\n\n"
    )


def _text_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_delta\ndata: "
        + _dumps(
            {
                "type": "content_block_delta",
                "index": i,
                "delta": {"type": "text_delta", "text": ev.text},
            }
        )
        + b"\n\n"
    )


def _text_end(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_stop\ndata: "
        + _dumps({"type": "content_block_stop", "index": i})
        + b"\n\n"
    )


def _reasoning_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_start\ndata: "
        + _dumps(
            {
                "type": "content_block_start",
                "index": i,
                "content_block": {"type": "thinking", "thinking": "", "signature": ""},
            }
        )
        + b"\n\n"
    )


def _reasoning_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_delta\ndata: "
        + _dumps(
            {
                "type": "content_block_delta",
                "index": i,
                "delta": {"type": "thinking_delta", "thinking": ev.text},
            }
        )
        + b"\n\n"
    )


def _reasoning_signature(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_delta\ndata: "
        + _dumps(
            {
                "type": "content_block_delta",
                "index": i,
                "delta": {"type": "signature_delta", "signature": ev.signature},
            }
        )
        + b"\n\n"
    )


def _reasoning_redacted(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_start\ndata: "
        + _dumps(
            {
                "type": "content_block_start",
                "index": i,
                "content_block": {"type": "redacted_thinking", "data": ev.redacted},
            }
        )
        + b"\n\n"
    )


def _reasoning_end(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_stop\ndata: "
        + _dumps({"type": "content_block_stop", "index": i})
        + b"\n\n"
    )


def _tool_call_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_start\ndata: "
        + _dumps(
            {
                "type": "content_block_start",
                "index": i,
                "content_block": {"type": "tool_use", "id": ev.id, "name": ev.name, "input": {}},
            }
        )
        + b"\n\n"
    )


def _tool_call_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_delta\ndata: "
        + _dumps(
            {
                "type": "content_block_delta",
                "index": i,
                "delta": {"type": "input_json_delta", "partial_json": ev.arguments},
            }
        )
        + b"\n\n"
    )


def _tool_call_end(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content_block_stop\ndata: "
        + _dumps({"type": "content_block_stop", "index": i})
        + b"\n\n"
    )


def _error(s: Any, ev: Any, i: int) -> Any:
    return _error_frame(ev.error, s.pid, b"event: error\ndata: ")


def _ending(s: Any, ev: Any, out: list[Any]) -> None:
    out.append(
        b"event: message_delta\ndata: "
        + _dumps(
            {
                "type": "message_delta",
                "delta": {"stop_reason": s.finish_raw, "stop_sequence": s.stop_sequence},
                "usage": s.usage_wire(),
            }
        )
        + b"\n\n"
    )
    out.append(b"event: message_stop\ndata: " + _dumps({"type": "message_stop"}) + b"\n\n")


def _begin_text(s: Any, b: Any, out: list[Any]) -> None:
    s.counters["all"] = b.index = s.counters.get("all", -1) + 1
    s.cur = b
    out.append(_text_start(s, b.ev, b.index))


def _begin_reasoning(s: Any, b: Any, out: list[Any]) -> None:
    s.counters["all"] = b.index = s.counters.get("all", -1) + 1
    s.cur = b
    out.append(_reasoning_start(s, b.ev, b.index))


def _begin_tool_call(s: Any, b: Any, out: list[Any]) -> None:
    s.counters["all"] = b.index = s.counters.get("all", -1) + 1
    s.calls += 1
    s.cur = b
    out.append(_tool_call_start(s, b.ev, b.index))


def _finish_text(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if not b.started:
        b.started = True
        _begin_text(s, b, out)
    b.ended = True
    s.cur = b
    out.append(_text_end(s, ev, b.index))


def _finish_reasoning(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if type(ev) is not _ReasoningEnd:
        ev = _ReasoningEnd(key=b.key)
    mine = ev.owner in MINE
    if mine and ev.redacted and not b.started:
        b.started = True
        s.counters["all"] = b.index = s.counters.get("all", -1) + 1
        out.append(_reasoning_redacted(s, ev, b.index))
    else:
        if not b.started:
            b.started = True
            _begin_reasoning(s, b, out)
        if mine and ev.signature:
            s.cur = b
            out.append(_reasoning_signature(s, ev, b.index))
    b.ended = True
    s.cur = b
    out.append(_reasoning_end(s, ev, b.index))


def _finish_tool_call(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if not b.started:
        b.started = True
        _begin_tool_call(s, b, out)
    b.ended = True
    s.cur = b
    out.append(_tool_call_end(s, ev, b.index))


def _settle(s: Any, out: list[Any]) -> None:
    while (b := s.current) is not None:  # (its end starts the next waiting call)
        _end_block(s, b, None, out)


def _end_block(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if b.queued is not None:  # a call still waiting: it ends when it starts
        b.ended = True
        return
    s.rows.finish[b.kind](s, b, ev, out)
    if s.current is b:
        s.current = None
        _flush(s, out)


def _flush(s: Any, out: list[Any]) -> None:
    while s.waiting:
        b = s.waiting.pop(next(iter(s.waiting)))
        pieces, b.queued = b.queued, None
        s.current = b
        b.started = True
        _begin_tool_call(s, b, out)
        if pieces:
            _args(s, b, _ToolCallDelta(key=b.key, arguments="".join(pieces)), out)
        if not b.ended:  # still streaming: it stays open
            return
        b.ended = False
        _finish_tool_call(s, b, None, out)
        s.current = None


def _on_TextDelta(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is None or b.ended or b.kind != "text" or s.current is not b:
        b = s.blocks[ev.key] = _ItemBlock("text", ev, ev.key)
        _settle(s, out)
        s.current = b
    if not b.started:
        b.started = True
        _begin_text(s, b, out)
    s.cur = b
    out.append(_text_delta(s, ev, b.index))


def _on_ReasoningDelta(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is None or b.ended or b.kind != "reasoning" or s.current is not b:
        b = s.blocks[ev.key] = _ItemBlock("reasoning", ev, ev.key)
        _settle(s, out)
        s.current = b
    if not b.started:
        b.started = True
        _begin_reasoning(s, b, out)
    s.cur = b
    out.append(_reasoning_delta(s, ev, b.index))


def _on_ToolCallDelta(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is None or b.kind != "tool_call":
        return
    if b.queued is not None:
        b.queued.append(ev.arguments)
        return
    if not b.ended:
        _args(s, b, ev, out)


def _args(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    b.args = True
    s.cur = b
    out.append(_tool_call_delta(s, ev, b.index))


def _on_TextStart(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks[ev.key] = _ItemBlock("text", ev, ev.key)
    _settle(s, out)
    s.current = b
    b.started = True
    _begin_text(s, b, out)


def _on_ReasoningStart(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks[ev.key] = _ItemBlock("reasoning", ev, ev.key)
    _settle(s, out)
    s.current = b


def _on_ToolCallStart(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks[ev.key] = _ItemBlock("tool_call", ev, ev.key)
    if (cur := s.current) is not None and cur.kind == "tool_call":  # it waits
        b.queued = []
        s.waiting[ev.key] = b
    else:
        _settle(s, out)
        s.current = b
    if b.queued is None:
        b.started = True
        _begin_tool_call(s, b, out)


def _on_TextEnd(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is not None and not b.ended:
        _end_block(s, b, ev, out)


def _on_ToolCallEnd(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is not None and not b.ended:
        _end_block(s, b, ev, out)


def _on_ReasoningEnd(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is not None and not b.ended:
        _end_block(s, b, ev, out)


def _close_text(m: Any, b: Any, out: list[Any]) -> None:
    out.append(_TextEnd(key=b.key))


def _close_tool_call(m: Any, b: Any, out: list[Any]) -> None:
    out.append(_ToolCallEnd(key=b.key))


def _close_reasoning(m: Any, b: Any, out: list[Any]) -> None:
    owner = m.pid if b.sig or b.redacted else None
    out.append(_ReasoningEnd(key=b.key, signature=b.sig or None, redacted=b.redacted, owner=owner))


def _close_ignored(m: Any, b: Any, out: list[Any]) -> None:
    pass  # (reported when it opened)


def _block1(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/anthropic_messages.yaml: stream.decode[1]
    text = t if (t := _r0(w)) and type(t) is str else None
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        b = m._new("text", wkey)
        out.append(_TextStart(key=b.key))
    kind = b.kind
    # (text at the key of a tool call is not the call's)
    if kind == "ignored" or (text and kind == "tool_call"):
        if text:
            m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))


def _block2(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/anthropic_messages.yaml: stream.decode[2]
    cid = _r2(w)
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is not None and b.open and cid and b.call_id is not None and str(cid) != b.call_id:
        m._close(b, out)  # a new call id at a known key: a new call
    if b is None or not b.open:
        b = m._new("tool_call", wkey)
        b.call_id = str(cid) if cid else f"call_interlingua_{m.calls}"
        m.calls += 1
        out.append(
            _ToolCallStart(key=b.key, id=b.call_id, name=n if type(n := _r3(w)) is str else "")
        )
    kind = b.kind
    if kind == "tool_call" and (obj := _r4(w)) and type(obj) is dict:
        args = _dumps(obj).decode()
        out.append(_ToolCallDelta(key=b.key, arguments=args))


def _block3(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/anthropic_messages.yaml: stream.decode[3]
    text = t if (t := _r5(w)) and type(t) is str else None
    sig = x if (x := _r6(w)) and type(x) is str else None
    red = x if (x := _r7(w)) and type(x) is str else None
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        b = m._new("reasoning", wkey)
        out.append(_ReasoningStart(key=b.key))
    kind = b.kind
    # (text at the key of a tool call is not the call's)
    if kind == "ignored" or (text and kind == "tool_call"):
        m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))
    if kind == "reasoning":
        if sig:
            b.sig += sig
        if red:
            b.redacted = red


def _block4(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/anthropic_messages.yaml: stream.decode[4]
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        b = m._new("ignored", wkey)
        m.ignored += 1
        m.drop(
            (
                f"content_block_start[{n}]"
                if type(n := _r8(w)) is str and n
                else "content_block_start"
            ),
            "event",
        )


def _block5(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/anthropic_messages.yaml: stream.decode[5]
    text = t if (t := _r9(w)) and type(t) is str else None
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        if text:
            m.ignored += 1
        return
    kind = b.kind
    # (text at the key of a tool call is not the call's)
    if kind == "ignored" or (text and kind == "tool_call"):
        if text:
            m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))


def _block6(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/anthropic_messages.yaml: stream.decode[6]
    text = t if (t := _r10(w)) and type(t) is str else None
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        if text:
            m.ignored += 1
        return
    kind = b.kind
    # (text at the key of a tool call is not the call's)
    if kind == "ignored" or (text and kind == "tool_call"):
        if text:
            m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))


def _block7(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/anthropic_messages.yaml: stream.decode[7]
    args = a if type(a := _r11(w)) is str else None
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        if args:
            m.ignored += 1
        return
    kind = b.kind
    if kind == "ignored" and args:
        m.ignored += 1
    if kind == "tool_call" and args:
        out.append(_new_ToolCallDelta(key=b.key, arguments=args))


def _block8(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/anthropic_messages.yaml: stream.decode[8]
    sig = x if (x := _r12(w)) and type(x) is str else None
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        return
    kind = b.kind
    if kind == "ignored":
        m.ignored += 1
    if kind == "reasoning" and sig:
        b.sig += sig


def _block9(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/anthropic_messages.yaml: stream.decode[9]
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        return
    m._close(b, out)


def dispatch(m: Any, d: Any, out: list[Any]) -> bool:
    if type(d) is not dict:
        return False
    kind = d.get("type")
    if kind == "message_start":
        if m.msg_id is not None:
            if (
                mid := str(_x)
                if (_x := (_v.get("id") if type(_v := d.get("message")) is dict else None))
                else None
            ) and mid != m.msg_id:
                error = _upstream_error(
                    f"upstream started message {_brief(mid)} inside message {_brief(m.msg_id)}"
                )
                out += m._end("failed", _ErrorEvent(error=error))
                return True
            m.ignored += 1
            return True
        start = _StreamStart(
            id=str(_x)
            if (_x := (_v.get("id") if type(_v := d.get("message")) is dict else None))
            else None,
            model=_x
            if type(_x := (_v.get("model") if type(_v := d.get("message")) is dict else None))
            is str
            and _x
            else None,
        )
        m.msg_id = start.id or ""
        out.insert(0, start)
        if type(u := (_v.get("usage") if type(_v := d.get("message")) is dict else None)) is dict:
            start.usage = m.usage_of(u)
        return True
    if kind == "content_block_start":
        w0 = _v.get("type") if type(_v := d.get("content_block")) is dict else None
        if w0 == "text":
            v = _v.get("text") if type(_v := d.get("content_block")) is dict else None
            if (b := m.blocks.get(f"{d.get('index')}")) is None or not b.open:
                _block1(m, d, None, out)
            elif v and type(v) is str:
                if (new := _DELTA.get(b.kind)) is None:
                    _block1(m, d, None, out)
                else:
                    out.append(new(key=b.key, text=v))
            return True
        if w0 == "tool_use":
            _block2(m, d, None, out)
            return True
        if w0 in ("thinking", "redacted_thinking"):
            _block3(m, d, None, out)
            return True
        _block4(m, d, None, out)
        return True
    if kind == "content_block_delta":
        w1 = _v.get("type") if type(_v := d.get("delta")) is dict else None
        if w1 == "text_delta":
            v = _v.get("text") if type(_v := d.get("delta")) is dict else None
            if (b := m.blocks.get(f"{d.get('index')}")) is None or not b.open:
                _block5(m, d, None, out)
            elif v and type(v) is str:
                if (new := _DELTA.get(b.kind)) is None:
                    _block5(m, d, None, out)
                else:
                    out.append(new(key=b.key, text=v))
            return True
        if w1 == "thinking_delta":
            v = _v.get("thinking") if type(_v := d.get("delta")) is dict else None
            if (b := m.blocks.get(f"{d.get('index')}")) is None or not b.open:
                _block6(m, d, None, out)
            elif v and type(v) is str:
                if (new := _DELTA.get(b.kind)) is None:
                    _block6(m, d, None, out)
                else:
                    out.append(new(key=b.key, text=v))
            return True
        if w1 == "input_json_delta":
            v = _v.get("partial_json") if type(_v := d.get("delta")) is dict else None
            if (b := m.blocks.get(f"{d.get('index')}")) is None or not b.open:
                _block7(m, d, None, out)
            elif v and type(v) is str:
                if b.kind != "tool_call":
                    _block7(m, d, None, out)
                else:
                    out.append(_new_ToolCallDelta(key=b.key, arguments=v))
            return True
        if w1 == "signature_delta":
            _block8(m, d, None, out)
            return True
        return False
    if kind == "content_block_stop":
        _block9(m, d, None, out)
        return True
    if kind == "message_delta":
        if type(u := d.get("usage")) is dict:
            out.append(_UsageEvent(usage=m.usage_of(u)))
        raw = _v.get("stop_reason") if type(_v := d.get("delta")) is dict else None
        if raw is not None:
            fin = m.codec.decode_finish(raw, m.calls > 0, "delta.stop_reason")
            m.finished = True
            out.append(
                _FinishEvent(
                    finish=fin,
                    stop_sequence=(
                        _v.get("stop_sequence") if type(_v := d.get("delta")) is dict else None
                    ),
                )
            )
        return True
    if kind == "message_stop":
        out += m._end("completed")
        return True
    if kind == "error":
        err = d.get("error")
        if err:
            if type(err) is dict:
                fields = m.codec.read_error(err)
            else:
                fields = (None, err, *m.codec.read_error(d)[2:])
            info = _error_info(m.codec, m.pid, None, d, fields)
            out += m._end("failed", _ErrorEvent(error=info))
            return True
        return True
    return kind in ("ping",)


ROWS = StreamRows(
    protocol="anthropic_messages",
    dispatch=dispatch,
    block=_Block,
    done_sentinel=None,
    end_after_finish=False,
    close={
        "text": _close_text,
        "tool_call": _close_tool_call,
        "reasoning": _close_reasoning,
        "ignored": _close_ignored,
    },
    on={
        _TextDelta: _on_TextDelta,
        _ReasoningDelta: _on_ReasoningDelta,
        _ToolCallDelta: _on_ToolCallDelta,
        _TextStart: _on_TextStart,
        _ReasoningStart: _on_ReasoningStart,
        _ToolCallStart: _on_ToolCallStart,
        _TextEnd: _on_TextEnd,
        _ToolCallEnd: _on_ToolCallEnd,
        _ReasoningEnd: _on_ReasoningEnd,
    },
    args=_args,
    id_default="msg_interlingua",
    finish={
        "text": _finish_text,
        "reasoning": _finish_reasoning,
        "tool_call": _finish_tool_call,
    },
    start=_start,
    error=_error,
    end=_ending,
    settle=_settle,
)
