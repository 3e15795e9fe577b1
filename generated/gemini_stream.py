# Generated from spec/protocols/gemini.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Google Gemini generateContent stream: the rows of `stream:` in spec/protocols/gemini.yaml, compiled for the generic machines
in runtime/streams (decoder: machine.py, encoder: encoder.py)."""

from __future__ import annotations

from typing import Any

from interlingua.streams import partial_args as _t_partial_args
from interlingua.streams.inband import error_frame as _error_frame
from interlingua.streams.rules import NONE as _NONE
from interlingua.streams.rules import Rule, StreamRows
from interlingua.streams.rules import some as _some
from orjson import dumps as _dumps

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}


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


def _r2(v: Any) -> Any:  # functionCall.name
    if type(v) is not dict:
        return None
    v = v.get("functionCall")
    if type(v) is not dict:
        return None
    v = v.get("name")
    return v


def _r3(v: Any) -> Any:  # functionCall.args
    if type(v) is not dict:
        return None
    v = v.get("functionCall")
    if type(v) is not dict:
        return None
    v = v.get("args")
    return v


def _r4(v: Any) -> Any:  # thoughtSignature
    if type(v) is not dict:
        return None
    v = v.get("thoughtSignature")
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
                                                s.take_signature(ev)
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
                                                s.take_signature(ev)
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
                                        "args": s.arguments_object(s.cur.all()),
                                        **(
                                            {"id": _o0}
                                            if (_o0 := s.bare_call_id(s.cur.ev.id)) is not None
                                            else _NONE
                                        ),
                                    },
                                    **(
                                        {"thoughtSignature": _o1}
                                        if (
                                            _o1 := (
                                                s.take_signature(ev)
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


def _end0(s: Any, ev: Any, i: int) -> Any:
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
                                *_some(
                                    {
                                        "text": "",
                                        **(
                                            {"thoughtSignature": _o0}
                                            if (
                                                _o0 := (
                                                    s.take_signature(ev)
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


_RULES = (
    Rule(),
    Rule(),
    Rule(pieces=_r0, assemble=_t_partial_args, sure=True, key_const="pcall"),
    Rule(pieces=_r0, assemble=_t_partial_args, sure=True, key_const="pcall", close=True),
    Rule(
        call_id=_r1,
        name=_r2,
        arguments_object=_r3,
        signature=_r4,
        assemble=_t_partial_args,
        sure=True,
        key_const="pcall",
        open="tool_call",
    ),
    Rule(
        call_id=_r1,
        name=_r2,
        arguments_object=_r3,
        signature=_r4,
        sure=True,
        key_const="call",
        open="tool_call",
        close=True,
    ),
    Rule(signature=_r4, text=(_r5,), sure=True, key_const="thought", open="reasoning"),
    Rule(text=(_r5,), lone_signature=_r4, sure=True, key_const="text", open="text"),
    Rule(lone_signature=_r4, sure=True),
    Rule(),
    Rule(),
    Rule(),
)


def dispatch(m: Any, d: Any, out: list[Any]) -> bool:
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
        m._fail_error(err, d, out)
        return True
    matched = True
    if m.msg_id is None:
        m._start(d.get("responseId"), d.get("modelVersion"), None, out)
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
                        m._block(_RULES[2], item, pos, out)
                    elif (
                        _v.get("name") if type(_v := item.get("functionCall")) is dict else None
                    ) is None:
                        m._block(_RULES[3], item, pos, out)
                    elif (
                        _v.get("willContinue")
                        if type(_v := item.get("functionCall")) is dict
                        else None
                    ) is True:
                        m._block(_RULES[4], item, pos, out)
                    else:
                        m._block(_RULES[5], item, pos, out)
                elif item.get("thought") is True:
                    m._block(_RULES[6], item, pos, out)
                elif item.get("text") is not None:
                    if item.get("thoughtSignature"):
                        m._lone(_RULES[7], item, out)
                    m._delta(_RULES[7], item, "text", item.get("text"), out)
                elif item.get("thoughtSignature") is not None:
                    if item.get("thoughtSignature"):
                        m._lone(_RULES[8], item, out)
                else:
                    m.ignored += 1
    if at1 is not None:
        matched = True
        raw = at1.get("finishReason") if type(at1) is dict else None
        if raw is not None:
            out += m._close_all()
            m._finish(raw, None, None, out)
        if m.ended is not None:
            return True
    w0 = d.get("candidates")
    if w0 in (None, []):
        matched = True
        raw = _v.get("blockReason") if type(_v := d.get("promptFeedback")) is dict else None
        if raw is not None:
            out += m._close_all()
            m._finish(raw, None, "content_filter", out)
        if m.ended is not None:
            return True
    if (
        _v.get("promptTokenCount") if type(_v := d.get("usageMetadata")) is dict else None
    ) is not None:
        matched = True
        if type(u := d.get("usageMetadata")) is dict:
            m._usage(u, out)
    return matched


ROWS = StreamRows(
    protocol="gemini",
    dispatch=dispatch,
    start_event=False,
    implicit_blocks=True,
    done_sentinel=None,
    end_after_finish=True,
    sequential=False,
    counters={"text": "all", "reasoning": "all", "tool_call": "all"},
    id_default="interlingua",
    empty_arguments=None,
    templates={
        "text_delta": _text_delta,
        "reasoning_delta": _reasoning_delta,
        "reasoning_signature": _reasoning_signature,
        "tool_call_end": _tool_call_end,
        "error": _error,
    },
    end=(_end0,),
    done=None,
    accumulate=("reasoning", "tool_call"),
    batches=True,
    random_ids=True,
    pending=True,
)
