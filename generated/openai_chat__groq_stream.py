# Generated from spec/dialects/groq.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""OpenAI Chat Completions stream: the rows of `stream:` in spec/dialects/groq.yaml, compiled for the generic machines
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
from interlingua.streams.machine import DELTA as _DELTA
from interlingua.streams.rules import StreamRows

from .openai_chat_stream import (
    _args,
    _Block,
    _block3,
    _block4,
    _block5,
    _close_reasoning,
    _close_text,
    _close_tool_call,
    _ending,
    _error,
    _finish_reasoning,
    _finish_text,
    _finish_tool_call,
    _Kat1,
    _on_ReasoningDelta,
    _on_ReasoningEnd,
    _on_ReasoningStart,
    _on_TextDelta,
    _on_TextEnd,
    _on_TextStart,
    _on_ToolCallDelta,
    _on_ToolCallEnd,
    _on_ToolCallStart,
    _r1,
    _r8,
    _r9,
    _start,
)


def _r10(v: Any) -> Any:  # usage
    if type(v) is not dict:
        return None
    v = v.get("usage")
    return v


def _r11(v: Any) -> Any:  # x_groq.usage
    if type(v) is not dict:
        return None
    v = v.get("x_groq")
    if type(v) is not dict:
        return None
    v = v.get("usage")
    return v


def _r12(v: Any) -> Any:  # first of usage, x_groq.usage
    if type(v) is not dict:
        return None
    x = v.get("usage")
    if x is not None:
        return x
    x = _r11(v)
    if x is not None:
        return x
    return None


_Kat0 = frozenset(
    ["content", "reasoning", "refusal", "role", "tool_calls"]
)  # choices[index=0].delta: keys with a home


def _block2(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/dialects/groq.yaml: stream.decode[2]
    text = t if (t := _r1(w)) and type(t) is str else None
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
        v = at0.get("reasoning") if type(at0) is dict else None
        if v:  # most chunks lack it
            if (b := m.blocks.get("reasoning")) is None or not b.open:
                _block2(m, at0, None, out)
            elif type(v) is str:
                if (new := _DELTA.get(b.kind)) is None:
                    _block2(m, at0, None, out)
                else:
                    out.append(new(key=b.key, text=v))
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
    if type(u := _r12(d)) is dict:
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
