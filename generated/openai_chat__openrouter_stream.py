# Generated from spec/dialects/openrouter.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""OpenAI Chat Completions stream: the rows of `stream:` in spec/dialects/openrouter.yaml, compiled for the generic machines
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
from orjson import dumps as _dumps

from .openai_chat_stream import (
    _args,
    _begin_reasoning,
    _close_text,
    _close_tool_call,
    _ending,
    _error,
    _finish_text,
    _finish_tool_call,
    _ItemBlock,
    _on_ReasoningEnd,
    _on_ReasoningStart,
    _on_TextDelta,
    _on_TextEnd,
    _on_TextStart,
    _on_ToolCallDelta,
    _on_ToolCallEnd,
    _on_ToolCallStart,
    _r1,
    _r6,
    _r8,
    _r9,
    _start,
)
from .openai_chat_stream import _block3 as _block4
from .openai_chat_stream import _block4 as _block5
from .openai_chat_stream import _block5 as _block6

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {
    "anthropic-claude-v1": ("anthropic_messages", "text"),
    "openai-responses-v1": ("openai_responses", "encrypted"),
    "google-gemini-v1": ("gemini", "text"),
}
# whose opaque state this protocol's clients take (its own, and the owners its rows carry), and
# the wire name of each of those owners ($format; any other: the unknown owner)
MINE = frozenset(["openai_chat", "anthropic_messages", "openai_responses", "gemini"])
FORMATS: dict[str, str] = {
    "anthropic_messages": "anthropic-claude-v1",
    "openai_responses": "openai-responses-v1",
    "gemini": "google-gemini-v1",
}
UNKNOWN_OWNER = "unknown"


class _Block:
    """A decoded block: the state this protocol's compiled code keeps."""

    __slots__ = ("kind", "key", "open", "call_id", "sig", "redacted", "owner")

    def __init__(self, kind: str, key: str) -> None:
        self.kind: str = kind  # text, reasoning, tool_call or ignored
        self.key: str = key  # its canonical key
        self.open: bool = True
        self.call_id: str | None = None  # a call's id, opaque state wrapped in
        self.sig: str = ""  # opaque state, joined as it comes
        self.redacted: str | None = None
        self.owner: str | None = None  # read from the wire (a row's owner); None: the protocol


def _r10(v: Any) -> Any:  # text
    if type(v) is not dict:
        return None
    v = v.get("text")
    return v


def _r11(v: Any) -> Any:  # summary
    if type(v) is not dict:
        return None
    v = v.get("summary")
    return v


def _r12(v: Any) -> Any:  # signature
    if type(v) is not dict:
        return None
    v = v.get("signature")
    return v


def _r13(v: Any) -> Any:  # data
    if type(v) is not dict:
        return None
    v = v.get("data")
    return v


def _r14(v: Any) -> Any:  # format
    if type(v) is not dict:
        return None
    v = v.get("format")
    return v


def _owner_r14(v: Any) -> Any:
    return OWNERS.get(_r14(v))


def _r15(v: Any) -> Any:  # choices[index=0].delta.reasoning_details
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
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("reasoning_details")
    return v


def _r16(v: Any) -> Any:  # reasoning_details
    if type(v) is not dict:
        return None
    v = v.get("reasoning_details")
    return v


_Kat1 = frozenset(
    ["delta", "finish_reason", "index", "native_finish_reason"]
)  # choices[index=0]: keys with a home


_Kat0 = frozenset(
    ["content", "reasoning", "reasoning_details", "refusal", "role", "tool_calls"]
)  # choices[index=0].delta: keys with a home


def _reasoning_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"data: "
        + _dumps(
            {
                "id": s.id,
                "object": "chat.completion.chunk",
                "created": s.created,
                "model": s.model,
                "choices": [{"index": 0, "delta": {"reasoning": ev.text}, "finish_reason": None}],
            }
        )
        + b"\n\n"
    )


def _reasoning_signature(s: Any, ev: Any, i: int) -> Any:
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
                            "reasoning_details": [
                                {
                                    "type": "reasoning.text",
                                    "signature": ev.signature,
                                    "format": FORMATS.get(ev.owner, UNKNOWN_OWNER),
                                    "index": i,
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


def _reasoning_redacted(s: Any, ev: Any, i: int) -> Any:
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
                            "reasoning_details": [
                                {
                                    "type": "reasoning.encrypted",
                                    "data": ev.redacted,
                                    "format": FORMATS.get(ev.owner, UNKNOWN_OWNER),
                                    "index": i,
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


def _finish_reasoning(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if type(ev) is not _ReasoningEnd:
        ev = _ReasoningEnd(key=b.key)
    mine = ev.owner in MINE
    if mine and ev.redacted and not b.started:
        b.started = True
        out.append(_reasoning_redacted(s, ev, b.index))
    else:
        if not b.started:
            b.started = True
            _begin_reasoning(s, b, out)
        if mine and ev.signature:
            s.cur = b
            out.append(_reasoning_signature(s, ev, b.index))
    b.ended = True


def _on_ReasoningDelta(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is None or b.ended or b.kind != "reasoning":
        b = s.blocks[ev.key] = _ItemBlock("reasoning", ev, ev.key)
    if not b.started:
        b.started = True
        _begin_reasoning(s, b, out)
    s.cur = b
    out.append(_reasoning_delta(s, ev, b.index))


def _close_reasoning(m: Any, b: Any, out: list[Any]) -> None:
    owner = (b.owner or m.pid) if b.sig or b.redacted else None
    out.append(_ReasoningEnd(key=b.key, signature=b.sig or None, redacted=b.redacted, owner=owner))


def _block2(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/dialects/openrouter.yaml: stream.decode[2]
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


def _block3(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/dialects/openrouter.yaml: stream.decode[3]
    text = (
        t
        if (t := _r10(w)) and type(t) is str
        else (t if (t := _r11(w)) and type(t) is str else None)
    )
    sig = x if (x := _r12(w)) and type(x) is str else None
    red = x if (x := _r13(w)) and type(x) is str else None
    wkey = "rd" + str(k if (k := _r6(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if (b is None or not b.open) and (text or sig or red):
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
        m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))
    if kind == "reasoning":
        if sig:
            b.sig += sig
        if (own := _owner_r14(w)) is not None:
            b.owner = own[0]
            if own[1] == "encrypted" and red:
                b.sig += red
                red = None
        if red:
            b.redacted = red


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
    w0 = _r15(d)
    if w0 in (None, []) and at0 is not None:
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
        items = _r16(at0)
        if type(items) is list:
            for pos, item in enumerate(items):
                if type(item) is dict:
                    _block3(m, item, pos, out)
    if at0 is not None:
        matched = True
        v = at0.get("content") if type(at0) is dict else None
        if v:  # most chunks lack it
            if (b := m.blocks.get("text")) is None or not b.open:
                _block4(m, at0, None, out)
            elif type(v) is str:
                if (new := _DELTA.get(b.kind)) is None:
                    _block4(m, at0, None, out)
                else:
                    out.append(new(key=b.key, text=v))
    if at0 is not None:
        matched = True
        v = at0.get("refusal") if type(at0) is dict else None
        if v:  # most chunks lack it
            if (b := m.blocks.get("refusal")) is None or not b.open:
                _block5(m, at0, None, out)
            elif type(v) is str:
                if (new := _DELTA.get(b.kind)) is None:
                    _block5(m, at0, None, out)
                else:
                    out.append(new(key=b.key, text=v))
    if at0 is not None:
        matched = True
        items = _r8(at0)
        if type(items) is list:
            for pos, item in enumerate(items):
                if type(item) is dict:
                    _block6(m, item, pos, out)
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
