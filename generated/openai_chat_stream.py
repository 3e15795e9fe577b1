# Generated from spec/protocols/openai_chat.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""OpenAI Chat Completions stream: the rows of `stream:` in spec/protocols/openai_chat.yaml, compiled for the generic machines
in runtime/streams (decoder: machine.py, encoder: encoder.py)."""

from __future__ import annotations

from typing import Any

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
from interlingua.streams.rules import StreamRows
from orjson import dumps as _dumps

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}
# whose opaque state this protocol's clients take (its own, and the owners its rows carry), and
# the wire name of each of those owners ($format; any other: the unknown owner)
MINE = frozenset(["openai_chat"])
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

    __slots__ = ("kind", "ev", "key", "index", "started", "ended", "args")

    def __init__(self, kind: str, ev: Any, key: str) -> None:
        self.kind: str = kind  # text, reasoning, tool_call or group
        self.ev: Any = ev  # the start event (tool calls: id and name)
        self.key: str = key  # canonical key
        self.index: int = -1
        self.started: bool = False  # its start event went out
        self.ended: bool = False
        self.args: bool = False  # argument text went out


def _r0(v: Any) -> Any:  # reasoning_content
    if type(v) is not dict:
        return None
    v = v.get("reasoning_content")
    return v


def _r1(v: Any) -> Any:  # reasoning
    if type(v) is not dict:
        return None
    v = v.get("reasoning")
    return v


def _r2(v: Any) -> Any:  # content
    if type(v) is not dict:
        return None
    v = v.get("content")
    return v


def _r3(v: Any) -> Any:  # refusal
    if type(v) is not dict:
        return None
    v = v.get("refusal")
    return v


def _r4(v: Any) -> Any:  # function.arguments
    if type(v) is not dict:
        return None
    v = v.get("function")
    if type(v) is not dict:
        return None
    v = v.get("arguments")
    return v


def _r5(v: Any) -> Any:  # id
    if type(v) is not dict:
        return None
    v = v.get("id")
    return v


def _r6(v: Any) -> Any:  # index
    if type(v) is not dict:
        return None
    v = v.get("index")
    return v


def _r7(v: Any) -> Any:  # function.name
    if type(v) is not dict:
        return None
    v = v.get("function")
    if type(v) is not dict:
        return None
    v = v.get("name")
    return v


def _r8(v: Any) -> Any:  # tool_calls
    if type(v) is not dict:
        return None
    v = v.get("tool_calls")
    return v


def _r9(v: Any) -> Any:  # choices[index=0]
    if type(v) is not dict:
        return None
    v = v.get("choices")
    if type(v) is not list:
        return None
    for x in v:
        if type(x) is dict and x.get("index", 0) == 0:
            v = x
            break
    else:
        return None
    return v


_Kat1 = frozenset(["delta", "finish_reason", "index"])  # choices[index=0]: keys with a home


_Kat0 = frozenset(
    ["content", "reasoning", "reasoning_content", "refusal", "role", "tool_calls"]
)  # choices[index=0].delta: keys with a home


def _start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"data: "
        + _dumps(
            {
                "id": s.id,
                "object": "chat.completion.chunk",
                "created": s.created,
                "model": s.model,
                "choices": [
                    {
                        "index": 0,
                        "delta": {"role": "assistant", "content": ""},
                        "finish_reason": None,
                    }
                ],
            }
        )
        + b"\n\n"
    )


def _text_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"data: "
        + _dumps(
            {
                "id": s.id,
                "object": "chat.completion.chunk",
                "created": s.created,
                "model": s.model,
                "choices": [{"index": 0, "delta": {"content": ev.text}, "finish_reason": None}],
            }
        )
        + b"\n\n"
    )


def _reasoning_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"data: "
        + _dumps(
            {
                "id": s.id,
                "object": "chat.completion.chunk",
                "created": s.created,
                "model": s.model,
                "choices": [
                    {"index": 0, "delta": {"reasoning_content": ev.text}, "finish_reason": None}
                ],
            }
        )
        + b"\n\n"
    )


def _tool_call_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"data: "
        + _dumps(
            {
                "id": s.id,
                "object": "chat.completion.chunk",
                "created": s.created,
                "model": s.model,
                "choices": [
                    {
                        "index": 0,
                        "delta": {
                            "tool_calls": [
                                {
                                    "index": i,
                                    "id": ev.id,
                                    "type": "function",
                                    "function": {"name": ev.name, "arguments": ""},
                                }
                            ]
                        },
                        "finish_reason": None,
                    }
                ],
            }
        )
        + b"\n\n"
    )


def _tool_call_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"data: "
        + _dumps(
            {
                "id": s.id,
                "object": "chat.completion.chunk",
                "created": s.created,
                "model": s.model,
                "choices": [
                    {
                        "index": 0,
                        "delta": {
                            "tool_calls": [{"index": i, "function": {"arguments": ev.arguments}}]
                        },
                        "finish_reason": None,
                    }
                ],
            }
        )
        + b"\n\n"
    )


def _error(s: Any, ev: Any, i: int) -> Any:
    return _error_frame(ev.error, s.pid, b"data: ")


def _ending(s: Any, ev: Any, out: list[Any]) -> None:
    out.append(
        b"data: "
        + _dumps(
            {
                "id": s.id,
                "object": "chat.completion.chunk",
                "created": s.created,
                "model": s.model,
                "choices": [{"index": 0, "delta": {}, "finish_reason": s.finish_raw}],
            }
        )
        + b"\n\n"
    )
    if s.usage is not None:
        out.append(
            b"data: "
            + _dumps(
                {
                    "id": s.id,
                    "object": "chat.completion.chunk",
                    "created": s.created,
                    "model": s.model,
                    "choices": [],
                    "usage": s.usage_wire(),
                }
            )
            + b"\n\n"
        )
    out.append(b"data: [DONE]\n\n")


def _begin_text(s: Any, b: Any, out: list[Any]) -> None:
    pass


def _begin_reasoning(s: Any, b: Any, out: list[Any]) -> None:
    pass


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


def _finish_reasoning(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if not b.started:
        b.started = True
        _begin_reasoning(s, b, out)
    b.ended = True


def _finish_tool_call(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if not b.started:
        b.started = True
        _begin_tool_call(s, b, out)
    if not b.args and s.status == "completed":  # a cut call's arguments never ended
        _args(s, b, _ToolCallDelta(key=b.key, arguments="{}"), out)
    b.ended = True


def _on_TextDelta(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is None or b.ended or b.kind != "text":
        b = s.blocks[ev.key] = _ItemBlock("text", ev, ev.key)
    if not b.started:
        b.started = True
        _begin_text(s, b, out)
    s.cur = b
    out.append(_text_delta(s, ev, b.index))


def _on_ReasoningDelta(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is None or b.ended or b.kind != "reasoning":
        b = s.blocks[ev.key] = _ItemBlock("reasoning", ev, ev.key)
    if not b.started:
        b.started = True
        _begin_reasoning(s, b, out)
    s.cur = b
    out.append(_reasoning_delta(s, ev, b.index))


def _on_ToolCallDelta(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is None or b.kind != "tool_call":
        return
    if not b.ended:
        _args(s, b, ev, out)


def _args(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    b.args = True
    s.cur = b
    out.append(_tool_call_delta(s, ev, b.index))


def _on_TextStart(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks[ev.key] = _ItemBlock("text", ev, ev.key)
    b.started = True
    _begin_text(s, b, out)


def _on_ReasoningStart(s: Any, ev: Any, out: list[Any]) -> None:
    s.blocks[ev.key] = _ItemBlock("reasoning", ev, ev.key)


def _on_ToolCallStart(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks[ev.key] = _ItemBlock("tool_call", ev, ev.key)
    b.started = True
    _begin_tool_call(s, b, out)


def _on_TextEnd(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is not None and not b.ended:
        s.rows.finish[b.kind](s, b, ev, out)


def _on_ToolCallEnd(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is not None and not b.ended:
        s.rows.finish[b.kind](s, b, ev, out)


def _on_ReasoningEnd(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is not None and not b.ended:
        s.rows.finish[b.kind](s, b, ev, out)


def _close_reasoning(m: Any, b: Any, out: list[Any]) -> None:
    out.append(_ReasoningEnd(key=b.key))


def _close_text(m: Any, b: Any, out: list[Any]) -> None:
    out.append(_TextEnd(key=b.key))


def _close_tool_call(m: Any, b: Any, out: list[Any]) -> None:
    out.append(_ToolCallEnd(key=b.key))


def _block2(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_chat.yaml: stream.decode[2]
    text = (
        t if (t := _r0(w)) and type(t) is str else (t if (t := _r1(w)) and type(t) is str else None)
    )
    if not (text):  # most chunks lack them
        return
    wkey = "reasoning"
    b = m.blocks.get(wkey)
    if (b is None or not b.open) and text:
        out += m._close_all()
        b = m._new("reasoning", wkey)
        out.append(_ReasoningStart(key=b.key))
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


def _block3(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_chat.yaml: stream.decode[3]
    text = t if (t := _r2(w)) and type(t) is str else None
    if not (text):  # most chunks lack them
        return
    wkey = "text"
    b = m.blocks.get(wkey)
    if (b is None or not b.open) and text:
        out += m._close_all()
        b = m._new("text", wkey)
        out.append(_TextStart(key=b.key))
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


def _block4(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_chat.yaml: stream.decode[4]
    text = t if (t := _r3(w)) and type(t) is str else None
    if not (text):  # most chunks lack them
        return
    wkey = "refusal"
    b = m.blocks.get(wkey)
    if (b is None or not b.open) and text:
        out += m._close_all()
        b = m._new("text", wkey)
        out.append(_TextStart(key=b.key))
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
    # spec/protocols/openai_chat.yaml: stream.decode[5]
    args = a if type(a := _r4(w)) is str else None
    cid = _r5(w)
    if not (args or cid):  # most chunks lack them
        return
    wkey = "call" + str(k if (k := _r6(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is not None and b.open and cid and b.call_id is not None and str(cid) != b.call_id:
        m._close(b, out)  # a new call id at a known key: a new call
    if (b is None or not b.open) and (args or cid):
        for o in [o for o in m.open if o.kind != "tool_call"]:
            m._close(o, out)
        b = m._new("tool_call", wkey)
        b.call_id = str(cid) if cid else f"call_interlingua_{m.calls}"
        m.calls += 1
        out.append(
            _ToolCallStart(key=b.key, id=b.call_id, name=n if type(n := _r7(w)) is str else "")
        )
    if b is None or not b.open:
        if args:
            m.ignored += 1
        return
    kind = b.kind
    if kind == "ignored" and args:
        m.ignored += 1
    if kind == "tool_call" and args:
        out.append(_new_ToolCallDelta(key=b.key, arguments=args))


def dispatch(m: Any, d: Any, out: list[Any]) -> bool:
    if type(d) is not dict:
        return False
    start = None  # the start this event reads
    matched = False
    at1 = _r9(d)
    if type(at1) is dict and not _Kat1.issuperset(at1):
        m.drop_fields(at1, _Kat1, "choices[index=0]")
    at0 = at1.get("delta") if type(at1) is dict else None
    if type(at0) is dict and not _Kat0.issuperset(at0):
        m.drop_fields(at0, _Kat0, "choices[index=0].delta")
    matched = True
    err = d.get("error")
    if err:
        if type(err) is dict:
            fields = m.codec.read_error(err)
        else:
            fields = (None, err, *m.codec.read_error(d)[2:])
        info = _error_info(m.codec, m.pid, None, d, fields)
        out += m._end("failed", _ErrorEvent(error=info))
        return True
    matched = True
    if m.msg_id is None:
        start = _StreamStart(
            id=str(_x) if (_x := d.get("id")) else None,
            model=_x if type(_x := d.get("model")) is str and _x else None,
            created=_x if type(_x := d.get("created")) is int else None,
        )
    if at0 is not None:
        matched = True
        if (at0.get("reasoning_content") if type(at0) is dict else None) or (
            at0.get("reasoning") if type(at0) is dict else None
        ):
            _block2(m, at0, None, out)
    if at0 is not None:
        matched = True
        v = at0.get("content") if type(at0) is dict else None
        if v:  # most chunks lack it
            if (b := m.blocks.get("text")) is None or not b.open:
                _block3(m, at0, None, out)
            elif type(v) is str:
                if (new := _DELTA.get(b.kind)) is None:
                    _block3(m, at0, None, out)
                else:
                    out.append(new(key=b.key, text=v))
    if at0 is not None:
        matched = True
        v = at0.get("refusal") if type(at0) is dict else None
        if v:  # most chunks lack it
            if (b := m.blocks.get("refusal")) is None or not b.open:
                _block4(m, at0, None, out)
            elif type(v) is str:
                if (new := _DELTA.get(b.kind)) is None:
                    _block4(m, at0, None, out)
                else:
                    out.append(new(key=b.key, text=v))
    if at0 is not None:
        matched = True
        items = _r8(at0)
        if type(items) is list:
            for pos, item in enumerate(items):
                if type(item) is dict:
                    _block5(m, item, pos, out)
    if at1 is not None:
        matched = True
        raw = at1.get("finish_reason") if type(at1) is dict else None
        if raw is not None:
            out += m._close_all()
            fin = m.codec.decode_finish(raw, m.calls > 0, "choices[index=0].finish_reason")
            m.finished = True
            out.append(_FinishEvent(finish=fin, stop_sequence=None))
        if m.ended is not None:
            if start is not None and (start.id or out):
                m.msg_id = start.id or ""
                out.insert(0, start)
            return True
    matched = True
    if type(u := d.get("usage")) is dict:
        out.append(_UsageEvent(usage=m.usage_of(u)))
    if start is not None and (start.id or out):
        m.msg_id = start.id or ""
        out.insert(0, start)
    return matched


ROWS = StreamRows(
    protocol="openai_chat",
    dispatch=dispatch,
    block=_Block,
    done_sentinel="[DONE]",
    end_after_finish=True,
    close={
        "reasoning": _close_reasoning,
        "text": _close_text,
        "tool_call": _close_tool_call,
    },
    special=("[DONE]",),
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
    id_default="chatcmpl-interlingua",
    finish={
        "text": _finish_text,
        "reasoning": _finish_reasoning,
        "tool_call": _finish_tool_call,
    },
    start=_start,
    error=_error,
    end=_ending,
)
