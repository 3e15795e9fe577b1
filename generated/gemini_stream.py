# Generated from spec/protocols/gemini.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Google Gemini generateContent stream: the rows of `stream:` in spec/protocols/gemini.yaml, compiled for the generic machines
in runtime/streams (decoder: machine.py, encoder: encoder.py)."""

from __future__ import annotations

from typing import Any

from interlingua._codec_support import arguments_object as _arguments_object
from interlingua._pipeline import error_info as _error_info
from interlingua.generated.canonical import ErrorEvent as _ErrorEvent
from interlingua.generated.canonical import FinishEvent as _FinishEvent
from interlingua.generated.canonical import ReasoningDelta as _ReasoningDelta
from interlingua.generated.canonical import ReasoningEnd as _ReasoningEnd
from interlingua.generated.canonical import ReasoningPart as _ReasoningPart
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
from interlingua.streams import partial_args as _t_partial_args
from interlingua.streams.encoder import error_frame as _error_frame
from interlingua.streams.machine import DELTA as _DELTA
from interlingua.streams.rules import NONE as _NONE
from interlingua.streams.rules import StreamRows
from interlingua.streams.rules import some as _some
from interlingua.transforms.call_id_envelope import bare_id as _bare_id
from interlingua.transforms.call_id_envelope import synth_id as _synth_id
from interlingua.transforms.call_id_envelope import unwrap_id as _unwrap_id
from interlingua.transforms.call_id_envelope import wrap_id as _wrap_id
from interlingua.transforms.envelopes import parts_signature as _parts_signature
from orjson import dumps as _dumps

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}
# whose opaque state this protocol's clients take (its own, and the owners its rows carry), and
# the wire name of each of those owners ($format; any other: the unknown owner)
MINE = frozenset(["gemini"])
FORMATS: dict[str, str] = {}
UNKNOWN_OWNER = ""


class _Block:
    """A decoded block: the state this protocol's compiled code keeps."""

    __slots__ = ("kind", "key", "open", "call_id", "sig", "acc")

    def __init__(self, kind: str, key: str) -> None:
        self.kind: str = kind  # text, reasoning, tool_call or ignored
        self.key: str = key  # its canonical key
        self.open: bool = True
        self.call_id: str | None = None  # a call's id, opaque state wrapped in
        self.sig: str = ""  # opaque state, joined as it comes
        self.acc: Any = None  # (assemble transform, its state): arguments joined at the end


class _ItemBlock:
    """A block (or a group of blocks) on the wire: the state this protocol's compiled code keeps."""

    __slots__ = ("kind", "ev", "key", "index", "started", "ended", "args", "pieces", "deltas")

    def __init__(self, kind: str, ev: Any, key: str) -> None:
        self.kind: str = kind  # text, reasoning, tool_call or group
        self.ev: Any = ev  # the start event (tool calls: id and name)
        self.key: str = key  # canonical key
        self.index: int = -1
        self.started: bool = False  # its start event went out
        self.ended: bool = False
        self.args: bool = False  # argument text went out
        self.pieces: list[str] = []  # its text / arguments (kinds the templates read)
        self.deltas: int = 0  # deltas sent (kinds the templates read)


def _r0(v: Any) -> Any:  # functionCall.partialArgs
    if type(v) is not dict:
        return None
    v = v.get("functionCall")
    if type(v) is not dict:
        return None
    v = v.get("partialArgs")
    return v


def _r1(v: Any) -> Any:  # functionCall.id
    if type(v) is not dict:
        return None
    v = v.get("functionCall")
    if type(v) is not dict:
        return None
    v = v.get("id")
    return v


def _r2(v: Any) -> Any:  # thoughtSignature
    if type(v) is not dict:
        return None
    v = v.get("thoughtSignature")
    return v


def _r3(v: Any) -> Any:  # functionCall.name
    if type(v) is not dict:
        return None
    v = v.get("functionCall")
    if type(v) is not dict:
        return None
    v = v.get("name")
    return v


def _r4(v: Any) -> Any:  # functionCall.args
    if type(v) is not dict:
        return None
    v = v.get("functionCall")
    if type(v) is not dict:
        return None
    v = v.get("args")
    return v


def _r5(v: Any) -> Any:  # text
    if type(v) is not dict:
        return None
    v = v.get("text")
    return v


def _r6(v: Any) -> Any:  # parts
    if type(v) is not dict:
        return None
    v = v.get("parts")
    return v


_Kat1 = frozenset(
    [
        "avgLogprobs",
        "content",
        "finishMessage",
        "finishReason",
        "index",
        "logprobsResult",
        "safetyRatings",
        "tokenCount",
    ]
)  # candidates.0: keys with a home


_Kat0 = frozenset(["parts", "role"])  # candidates.0.content: keys with a home


def _text_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"data: "
        + _dumps(
            {
                "modelVersion": s.model,
                "responseId": s.id,
                "candidates": [
                    {
                        "content": {
                            "parts": [
                                {
                                    "text": ev.text,
                                    **(
                                        {"thoughtSignature": _o0}
                                        if (
                                            _o0 := (
                                                _take_folded(s)
                                                if s.sig is not None or s.foreign
                                                else None
                                            )
                                        )
                                        is not None
                                        else _NONE
                                    ),
                                }
                            ],
                            "role": "model",
                        },
                        "index": 0,
                    }
                ],
            }
        )
        + b"\n\n"
    )


def _reasoning_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"data: "
        + _dumps(
            {
                "modelVersion": s.model,
                "responseId": s.id,
                "candidates": [
                    {
                        "content": {
                            "parts": [
                                {
                                    "text": ev.text,
                                    "thought": True,
                                    **(
                                        {"thoughtSignature": _o0}
                                        if (
                                            _o0 := (
                                                s.take_signature() if s.sig is not None else None
                                            )
                                        )
                                        is not None
                                        else _NONE
                                    ),
                                }
                            ],
                            "role": "model",
                        },
                        "index": 0,
                    }
                ],
            }
        )
        + b"\n\n"
    )


def _reasoning_signature(s: Any, ev: Any, i: int) -> Any:
    return (
        b"data: "
        + _dumps(
            {
                "modelVersion": s.model,
                "responseId": s.id,
                "candidates": [
                    {
                        "content": {
                            "parts": [
                                {"text": "", "thought": True, "thoughtSignature": ev.signature}
                            ],
                            "role": "model",
                        },
                        "index": 0,
                    }
                ],
            }
        )
        + b"\n\n"
    )


def _tool_call_end(s: Any, ev: Any, i: int) -> Any:
    return (
        b"data: "
        + _dumps(
            {
                "modelVersion": s.model,
                "responseId": s.id,
                "candidates": [
                    {
                        "content": {
                            "parts": [
                                {
                                    "functionCall": {
                                        "name": s.cur.ev.name,
                                        "args": _arguments_object(
                                            "".join(s.cur.pieces),
                                            "stream.tool_call.arguments",
                                            s.ctx,
                                        ),
                                        **(
                                            {"id": _o0}
                                            if (_o0 := _bare_id(s.cur.ev.id)) is not None
                                            else _NONE
                                        ),
                                    },
                                    **(
                                        {"thoughtSignature": _o1}
                                        if (
                                            _o1 := (
                                                _take_folded(s)
                                                if s.sig is not None or s.foreign
                                                else None
                                            )
                                        )
                                        is not None
                                        else _NONE
                                    ),
                                }
                            ],
                            "role": "model",
                        },
                        "index": 0,
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
                "modelVersion": s.model,
                "responseId": s.id,
                "candidates": [
                    {
                        "content": {
                            "parts": [
                                *_some(
                                    {
                                        "text": "",
                                        **(
                                            {"thoughtSignature": _o0}
                                            if (
                                                _o0 := (
                                                    _take_folded(s)
                                                    if s.sig is not None or s.foreign
                                                    else None
                                                )
                                            )
                                            is not None
                                            else _NONE
                                        ),
                                    },
                                    ("thoughtSignature",),
                                )
                            ],
                            "role": "model",
                        },
                        "finishReason": s.finish_raw,
                        "index": 0,
                    }
                ],
                "usageMetadata": s.usage_wire(),
            }
        )
        + b"\n\n"
    )


def _lone_end(s: Any, ev: Any) -> None:
    """A reasoning end with no block: its state waits for the next part."""
    if ev.owner in MINE:
        if ev.signature:
            s.sig = ev.signature
    else:
        _keep_foreign(s, "", ev)


def _keep_foreign(s: Any, text: str, ev: Any) -> None:
    """Another protocol's reasoning state, for the envelope of the next part."""
    if s.codec.CARRIER.get(ev.owner) == "parts" and (ev.signature or ev.redacted):
        part = _ReasoningPart(
            text=text, signature=ev.signature, redacted=ev.redacted, owner=ev.owner
        )
        s.foreign.append(part)


def _take_folded(s: Any) -> Any:
    """$pending_signature on a part that is no reasoning: other protocols' reasoning
    folded into one envelope with the waiting state, taken."""
    if s.foreign:
        s.sig = s.sig or _parts_signature(s.foreign)
        s.foreign = []
    return s.take_signature()


def _begin_text(s: Any, b: Any, out: list[Any]) -> None:
    s.counters["all"] = b.index = s.counters.get("all", -1) + 1


def _begin_reasoning(s: Any, b: Any, out: list[Any]) -> None:
    s.counters["all"] = b.index = s.counters.get("all", -1) + 1


def _begin_tool_call(s: Any, b: Any, out: list[Any]) -> None:
    s.counters["all"] = b.index = s.counters.get("all", -1) + 1
    s.calls += 1


def _finish_text(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if not b.started:
        b.started = True
        _begin_text(s, b, out)
    b.ended = True


def _finish_reasoning(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if type(ev) is not _ReasoningEnd:
        ev = _ReasoningEnd(key=b.key)
    _keep_foreign(s, "".join(b.pieces), ev)
    mine = ev.owner in MINE
    if not b.started:
        b.started = True
        _begin_reasoning(s, b, out)
    if mine and ev.signature:
        s.cur = b
        out.append(_reasoning_signature(s, ev, b.index))
    b.ended = True


def _finish_tool_call(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if b.ev is not None and (own := _unwrap_id(b.ev.id)[1]) is not None:
        s.sig = own
    if not b.started:
        b.started = True
        _begin_tool_call(s, b, out)
    b.ended = True
    s.cur = b
    out.append(_tool_call_end(s, ev, b.index))


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
    b.deltas += 1
    b.pieces.append(ev.text)
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
    b.deltas += 1
    b.pieces.append(ev.arguments)


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
    elif b is None:
        _lone_end(s, ev)


def _close_tool_call(m: Any, b: Any, out: list[Any]) -> None:
    if b.acc is not None and (text := b.acc[0].text(b.acc[1])):
        out.append(_new_ToolCallDelta(key=b.key, arguments=text))
    out.append(_ToolCallEnd(key=b.key))


def _close_reasoning(m: Any, b: Any, out: list[Any]) -> None:
    owner = m.pid if b.sig else None
    out.append(_ReasoningEnd(key=b.key, signature=b.sig or None, owner=owner))


def _close_text(m: Any, b: Any, out: list[Any]) -> None:
    out.append(_TextEnd(key=b.key))


def _block2(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/gemini.yaml: stream.decode[2]
    wkey = "pcall"
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        return
    kind = b.kind
    if kind == "tool_call":
        if b.acc is None:
            b.acc = (_t_partial_args, _t_partial_args.start(None))
        m.ignored += _t_partial_args.feed(b.acc[1], _r0(w))


def _block3(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/gemini.yaml: stream.decode[3]
    wkey = "pcall"
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        return
    kind = b.kind
    if kind == "tool_call":
        if b.acc is None:
            b.acc = (_t_partial_args, _t_partial_args.start(None))
        m.ignored += _t_partial_args.feed(b.acc[1], _r0(w))
    m._close(b, out)


def _block4(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/gemini.yaml: stream.decode[4]
    cid = _r1(w)
    sig = x if (x := _r2(w)) and type(x) is str else None
    wkey = "pcall"
    b = m.blocks.get(wkey)
    if b is not None and b.open and cid and b.call_id is not None and str(cid) != b.call_id:
        m._close(b, out)  # a new call id at a known key: a new call
    if b is None or not b.open:
        for o in [o for o in m.open if o.kind != "tool_call"]:
            m._close(o, out)
        b = m._new("tool_call", wkey)
        call_id = str(cid) if cid else _synth_id()
        b.call_id = _wrap_id(call_id, sig) if sig else call_id
        m.calls += 1
        out.append(
            _ToolCallStart(key=b.key, id=b.call_id, name=n if type(n := _r3(w)) is str else "")
        )
    kind = b.kind
    if kind == "ignored":
        m.ignored += 1
    if kind == "tool_call":
        if b.acc is None:
            b.acc = (_t_partial_args, _t_partial_args.start(_r4(w)))
    elif kind == "reasoning" and sig:
        b.sig += sig


def _block5(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/gemini.yaml: stream.decode[5]
    cid = _r1(w)
    sig = x if (x := _r2(w)) and type(x) is str else None
    wkey = "call"
    b = m.blocks.get(wkey)
    if b is not None and b.open and cid and b.call_id is not None and str(cid) != b.call_id:
        m._close(b, out)  # a new call id at a known key: a new call
    if b is None or not b.open:
        for o in [o for o in m.open if o.kind != "tool_call"]:
            m._close(o, out)
        b = m._new("tool_call", wkey)
        call_id = str(cid) if cid else _synth_id()
        b.call_id = _wrap_id(call_id, sig) if sig else call_id
        m.calls += 1
        out.append(
            _ToolCallStart(key=b.key, id=b.call_id, name=n if type(n := _r3(w)) is str else "")
        )
    kind = b.kind
    if kind == "ignored":
        m.ignored += 1
    if kind == "tool_call":
        if (obj := _r4(w)) and type(obj) is dict:
            args = _dumps(obj).decode()
            out.append(_ToolCallDelta(key=b.key, arguments=args))
    elif kind == "reasoning" and sig:
        b.sig += sig
    m._close(b, out)


def _block6(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/gemini.yaml: stream.decode[6]
    text = t if (t := _r5(w)) and type(t) is str else None
    sig = x if (x := _r2(w)) and type(x) is str else None
    wkey = "thought"
    b = m.blocks.get(wkey)
    if (b is None or not b.open) and (text or sig):
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
    if kind == "reasoning" and sig:
        b.sig += sig


def _block7(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/gemini.yaml: stream.decode[7]
    text = t if (t := _r5(w)) and type(t) is str else None
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


def dispatch(m: Any, d: Any, out: list[Any]) -> bool:
    if type(d) is not dict:
        return type(d) is list and _batch(m, d, out)
    start = None  # the start this event reads
    matched = False
    at1 = _v[0] if type(_v := d.get("candidates")) is list and len(_v) > 0 else None
    if type(at1) is dict and not _Kat1.issuperset(at1):
        m.drop_fields(at1, _Kat1, "candidates.0")
    at0 = at1.get("content") if type(at1) is dict else None
    if type(at0) is dict and not _Kat0.issuperset(at0):
        m.drop_fields(at0, _Kat0, "candidates.0.content")
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
            id=str(_x) if (_x := d.get("responseId")) else None,
            model=_x if type(_x := d.get("modelVersion")) is str and _x else None,
        )
    if at0 is not None:
        matched = True
        items = _r6(at0)
        if type(items) is list:
            for pos, item in enumerate(items):
                if type(item) is not dict:
                    m.ignored += 1
                    continue
                v0 = item.get("functionCall")
                if v0 is not None:
                    if (
                        _v.get("name") if type(_v := item.get("functionCall")) is dict else None
                    ) is None and (
                        _v.get("willContinue")
                        if type(_v := item.get("functionCall")) is dict
                        else None
                    ) is True:
                        _block2(m, item, pos, out)
                    elif (
                        _v.get("name") if type(_v := item.get("functionCall")) is dict else None
                    ) is None:
                        _block3(m, item, pos, out)
                    elif (
                        _v.get("willContinue")
                        if type(_v := item.get("functionCall")) is dict
                        else None
                    ) is True:
                        _block4(m, item, pos, out)
                    else:
                        _block5(m, item, pos, out)
                elif item.get("thought") is True:
                    _block6(m, item, pos, out)
                elif item.get("text") is not None:
                    if type(ls := item.get("thoughtSignature")) is str and ls:
                        out += m._close_all()
                        out.append(_ReasoningEnd(key=m._fresh("sig"), signature=ls, owner=m.pid))
                    v = item.get("text")
                    if (b := m.blocks.get("text")) is None or not b.open:
                        _block7(m, item, None, out)
                    elif v and type(v) is str:
                        if (new := _DELTA.get(b.kind)) is None:
                            _block7(m, item, None, out)
                        else:
                            out.append(new(key=b.key, text=v))
                elif item.get("thoughtSignature") is not None:
                    if type(ls := item.get("thoughtSignature")) is str and ls:
                        out += m._close_all()
                        out.append(_ReasoningEnd(key=m._fresh("sig"), signature=ls, owner=m.pid))
                else:
                    m.ignored += 1
    if at1 is not None:
        matched = True
        raw = at1.get("finishReason") if type(at1) is dict else None
        if raw is not None:
            out += m._close_all()
            fin = m.codec.decode_finish(raw, m.calls > 0, "candidates.0.finishReason")
            m.finished = True
            out.append(_FinishEvent(finish=fin, stop_sequence=None))
        if m.ended is not None:
            if start is not None and (start.id or out):
                m.msg_id = start.id or ""
                out.insert(0, start)
            return True
    w0 = d.get("candidates")
    if w0 in (None, []):
        matched = True
        if (fin := m.codec.read_blocked(d)) is not None:
            out += m._close_all()
            m.finished = True
            out.append(_FinishEvent(finish=fin))
        if m.ended is not None:
            if start is not None and (start.id or out):
                m.msg_id = start.id or ""
                out.insert(0, start)
            return True
    if (
        _v.get("promptTokenCount") if type(_v := d.get("usageMetadata")) is dict else None
    ) is not None:
        matched = True
        if type(u := d.get("usageMetadata")) is dict:
            out.append(_UsageEvent(usage=m.usage_of(u)))
    if start is not None and (start.id or out):
        m.msg_id = start.id or ""
        out.insert(0, start)
    return matched


def _batch(m: Any, d: list[Any], out: list[Any]) -> bool:
    """A data line holding a list of events: each runs as one, until the stream ends."""
    for x in d:
        if m.ended is not None:
            break
        o: list[Any] = []
        if not (type(x) is dict and dispatch(m, x, o)):
            m.ignored += 1
        out += o
    return True


ROWS = StreamRows(
    protocol="gemini",
    dispatch=dispatch,
    block=_Block,
    done_sentinel=None,
    end_after_finish=True,
    close={
        "tool_call": _close_tool_call,
        "reasoning": _close_reasoning,
        "text": _close_text,
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
    error=_error,
    end=_ending,
)
