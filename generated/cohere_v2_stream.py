# Generated from spec/protocols/cohere_v2.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Cohere v2 Chat stream: the rows of `stream:` in spec/protocols/cohere_v2.yaml, compiled for the generic machines
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
from interlingua.streams.machine import DELTA as _DELTA
from interlingua.streams.machine import upstream_error as _upstream_error
from interlingua.streams.rules import StreamRows
from orjson import dumps as _dumps

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}
# whose opaque state this protocol's clients take (its own, and the owners its rows carry), and
# the wire name of each of those owners ($format; any other: the unknown owner)
MINE = frozenset(["cohere_v2"])
FORMATS: dict[str, str] = {}
UNKNOWN_OWNER = ""


class _Block:
    """A decoded block: the state this protocol's compiled code keeps."""

    __slots__ = ("kind", "key", "open", "call_id")

    def __init__(self, kind: str, key: str) -> None:
        self.kind: str = kind  # text, reasoning, tool_call or ignored
        self.key: str = key  # its canonical key
        self.open: bool = True
        self.call_id: str | None = None  # a call's id, opaque state wrapped in


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


def _r0(v: Any) -> Any:  # delta.message.content.text
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("message")
    if type(v) is not dict:
        return None
    v = v.get("content")
    if type(v) is not dict:
        return None
    v = v.get("text")
    return v


def _r1(v: Any) -> Any:  # index
    if type(v) is not dict:
        return None
    v = v.get("index")
    return v


def _r2(v: Any) -> Any:  # delta.message.content.thinking
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("message")
    if type(v) is not dict:
        return None
    v = v.get("content")
    if type(v) is not dict:
        return None
    v = v.get("thinking")
    return v


def _r3(v: Any) -> Any:  # delta.message.content.type
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("message")
    if type(v) is not dict:
        return None
    v = v.get("content")
    if type(v) is not dict:
        return None
    v = v.get("type")
    return v


def _r4(v: Any) -> Any:  # delta.message.tool_plan
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("message")
    if type(v) is not dict:
        return None
    v = v.get("tool_plan")
    return v


def _r5(v: Any) -> Any:  # delta.message.tool_calls.function.arguments
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("message")
    if type(v) is not dict:
        return None
    v = v.get("tool_calls")
    if type(v) is not dict:
        return None
    v = v.get("function")
    if type(v) is not dict:
        return None
    v = v.get("arguments")
    return v


def _r6(v: Any) -> Any:  # delta.message.tool_calls.id
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("message")
    if type(v) is not dict:
        return None
    v = v.get("tool_calls")
    if type(v) is not dict:
        return None
    v = v.get("id")
    return v


def _r7(v: Any) -> Any:  # delta.message.tool_calls.function.name
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("message")
    if type(v) is not dict:
        return None
    v = v.get("tool_calls")
    if type(v) is not dict:
        return None
    v = v.get("function")
    if type(v) is not dict:
        return None
    v = v.get("name")
    return v


def _start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: message-start\ndata: "
        + _dumps({"type": "message-start", "id": s.id, "delta": {"message": {"role": "assistant"}}})
        + b"\n\n"
    )


def _text_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content-start\ndata: "
        + _dumps(
            {
                "type": "content-start",
                "index": i,
                "delta": {"message": {"content": {"type": "text", "text": ""}}},
            }
        )
        + b"\n\n"
    )


def _text_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content-delta\ndata: "
        + _dumps(
            {
                "type": "content-delta",
                "index": i,
                "delta": {"message": {"content": {"text": ev.text}}},
            }
        )
        + b"\n\n"
    )


def _text_end(s: Any, ev: Any, i: int) -> Any:
    return b"event: content-end\ndata: " + _dumps({"type": "content-end", "index": i}) + b"\n\n"


def _reasoning_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content-start\ndata: "
        + _dumps(
            {
                "type": "content-start",
                "index": i,
                "delta": {"message": {"content": {"type": "thinking", "thinking": ""}}},
            }
        )
        + b"\n\n"
    )


def _reasoning_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: content-delta\ndata: "
        + _dumps(
            {
                "type": "content-delta",
                "index": i,
                "delta": {"message": {"content": {"thinking": ev.text}}},
            }
        )
        + b"\n\n"
    )


def _reasoning_end(s: Any, ev: Any, i: int) -> Any:
    return b"event: content-end\ndata: " + _dumps({"type": "content-end", "index": i}) + b"\n\n"


def _tool_call_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: tool-call-start\ndata: "
        + _dumps(
            {
                "type": "tool-call-start",
                "index": i,
                "delta": {
                    "message": {
                        "tool_calls": {
                            "id": ev.id,
                            "type": "function",
                            "function": {"name": ev.name, "arguments": ""},
                        }
                    }
                },
            }
        )
        + b"\n\n"
    )


def _tool_call_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: tool-call-delta\ndata: "
        + _dumps(
            {
                "type": "tool-call-delta",
                "index": i,
                "delta": {"message": {"tool_calls": {"function": {"arguments": ev.arguments}}}},
            }
        )
        + b"\n\n"
    )


def _tool_call_end(s: Any, ev: Any, i: int) -> Any:
    return b"event: tool-call-end\ndata: " + _dumps({"type": "tool-call-end", "index": i}) + b"\n\n"


def _error(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: message-end\ndata: "
        + _dumps(
            {
                "type": "message-end",
                "id": s.id,
                "delta": {"finish_reason": "ERROR", "error": ev.error.message},
            }
        )
        + b"\n\n"
    )


def _ending(s: Any, ev: Any, out: list[Any]) -> None:
    out.append(
        b"event: message-end\ndata: "
        + _dumps(
            {
                "type": "message-end",
                "id": s.id,
                "delta": {"finish_reason": s.finish_raw, "usage": s.usage_wire()},
            }
        )
        + b"\n\n"
    )


def _begin_text(s: Any, b: Any, out: list[Any]) -> None:
    s.counters["content"] = b.index = s.counters.get("content", -1) + 1
    s.cur = b
    out.append(_text_start(s, b.ev, b.index))


def _begin_reasoning(s: Any, b: Any, out: list[Any]) -> None:
    s.counters["content"] = b.index = s.counters.get("content", -1) + 1
    s.cur = b
    out.append(_reasoning_start(s, b.ev, b.index))


def _begin_tool_call(s: Any, b: Any, out: list[Any]) -> None:
    s.counters["tool"] = b.index = s.counters.get("tool", -1) + 1
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
    if not b.started:
        b.started = True
        _begin_reasoning(s, b, out)
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


def _close_reasoning(m: Any, b: Any, out: list[Any]) -> None:
    out.append(_ReasoningEnd(key=b.key))


def _close_ignored(m: Any, b: Any, out: list[Any]) -> None:
    pass  # (reported when it opened)


def _close_tool_call(m: Any, b: Any, out: list[Any]) -> None:
    out.append(_ToolCallEnd(key=b.key))


def _block1(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/cohere_v2.yaml: stream.decode[1]
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
    # spec/protocols/cohere_v2.yaml: stream.decode[2]
    text = t if (t := _r2(w)) and type(t) is str else None
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        b = m._new("reasoning", wkey)
        out.append(_ReasoningStart(key=b.key))
    kind = b.kind
    # (text at the key of a tool call is not the call's)
    if kind == "ignored" or (text and kind == "tool_call"):
        if text:
            m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))


def _block3(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/cohere_v2.yaml: stream.decode[3]
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        b = m._new("ignored", wkey)
        m.ignored += 1
        m.drop(
            (f"content-start[{n}]" if type(n := _r3(w)) is str and n else "content-start"), "event"
        )


def _block4(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/cohere_v2.yaml: stream.decode[4]
    text = (
        t if (t := _r0(w)) and type(t) is str else (t if (t := _r2(w)) and type(t) is str else None)
    )
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


def _block5(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/cohere_v2.yaml: stream.decode[5]
    wkey = str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        return
    m._close(b, out)


def _block6(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/cohere_v2.yaml: stream.decode[6]
    text = t if (t := _r4(w)) and type(t) is str else None
    wkey = "tool_plan"
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


def _block7(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/cohere_v2.yaml: stream.decode[7]
    args = a if type(a := _r5(w)) is str else None
    cid = _r6(w)
    wkey = "call" + str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is not None and b.open and cid and b.call_id is not None and str(cid) != b.call_id:
        m._close(b, out)  # a new call id at a known key: a new call
    if b is None or not b.open:
        b = m._new("tool_call", wkey)
        b.call_id = str(cid) if cid else f"call_interlingua_{m.calls}"
        m.calls += 1
        out.append(
            _ToolCallStart(key=b.key, id=b.call_id, name=n if type(n := _r7(w)) is str else "")
        )
    kind = b.kind
    if kind == "ignored" and args:
        m.ignored += 1
    if kind == "tool_call" and args:
        out.append(_new_ToolCallDelta(key=b.key, arguments=args))


def _block8(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/cohere_v2.yaml: stream.decode[8]
    args = a if type(a := _r5(w)) is str else None
    wkey = "call" + str(k if (k := _r1(w)) is not None else pos)
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


def _block9(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/cohere_v2.yaml: stream.decode[9]
    wkey = "call" + str(k if (k := _r1(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        return
    m._close(b, out)


def dispatch(m: Any, d: Any, out: list[Any]) -> bool:
    if type(d) is not dict:
        return False
    kind = d.get("type")
    if kind == "message-start":
        if m.msg_id is not None:
            if (mid := str(_x) if (_x := d.get("id")) else None) and mid != m.msg_id:
                error = _upstream_error(
                    f"upstream started message {_brief(mid)} inside message {_brief(m.msg_id)}"
                )
                out += m._end("failed", _ErrorEvent(error=error))
                return True
            m.ignored += 1
            return True
        start = _StreamStart(id=str(_x) if (_x := d.get("id")) else None)
        m.msg_id = start.id or ""
        out.insert(0, start)
        return True
    if kind == "content-start":
        w0 = _r3(d)
        if w0 == "text":
            v = _r0(d)
            if (b := m.blocks.get(f"{d.get('index')}")) is None or not b.open:
                _block1(m, d, None, out)
            elif v and type(v) is str:
                if (new := _DELTA.get(b.kind)) is None:
                    _block1(m, d, None, out)
                else:
                    out.append(new(key=b.key, text=v))
            return True
        if w0 == "thinking":
            v = _r2(d)
            if (b := m.blocks.get(f"{d.get('index')}")) is None or not b.open:
                _block2(m, d, None, out)
            elif v and type(v) is str:
                if (new := _DELTA.get(b.kind)) is None:
                    _block2(m, d, None, out)
                else:
                    out.append(new(key=b.key, text=v))
            return True
        _block3(m, d, None, out)
        return True
    if kind == "content-delta":
        _block4(m, d, None, out)
        return True
    if kind == "content-end":
        _block5(m, d, None, out)
        return True
    if kind == "tool-plan-delta":
        _block6(m, d, None, out)
        return True
    if kind == "tool-call-start":
        if (b := m.blocks.get("tool_plan")) is not None:
            m._close(b, out)
        _block7(m, d, None, out)
        return True
    if kind == "tool-call-delta":
        v = _r5(d)
        if (b := m.blocks.get(f"call{d.get('index')}")) is None or not b.open:
            _block8(m, d, None, out)
        elif v and type(v) is str:
            if b.kind != "tool_call":
                _block8(m, d, None, out)
            else:
                out.append(_new_ToolCallDelta(key=b.key, arguments=v))
        return True
    if kind == "tool-call-end":
        _block9(m, d, None, out)
        return True
    if kind == "citation-start":
        m.ignored += 1
        m.drop("citation-start/citation-end", "event")
        return True
    if kind == "citation-end":
        m.ignored += 1
        m.drop("citation-start/citation-end", "event")
        return True
    if kind == "message-end":
        err = _v.get("error") if type(_v := d.get("delta")) is dict else None
        if err:
            if type(err) is dict:
                fields = m.codec.read_error(err)
            else:
                fields = (None, err, *m.codec.read_error(d)[2:])
            info = _error_info(m.codec, m.pid, None, d, fields)
            out += m._end("failed", _ErrorEvent(error=info))
            return True
        out += m._close_all()
        if type(u := (_v.get("usage") if type(_v := d.get("delta")) is dict else None)) is dict:
            out.append(_UsageEvent(usage=m.usage_of(u)))
        raw = _v.get("finish_reason") if type(_v := d.get("delta")) is dict else None
        if raw is not None:
            fin = m.codec.decode_finish(raw, m.calls > 0, "delta.finish_reason")
            m.finished = True
            out.append(_FinishEvent(finish=fin, stop_sequence=None))
        out += m._end("completed")
        return True
    return kind in ("debug",)


ROWS = StreamRows(
    protocol="cohere_v2",
    dispatch=dispatch,
    block=_Block,
    done_sentinel=None,
    end_after_finish=False,
    close={
        "text": _close_text,
        "reasoning": _close_reasoning,
        "ignored": _close_ignored,
        "tool_call": _close_tool_call,
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
    id_default="interlingua",
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
