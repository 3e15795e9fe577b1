# Generated from spec/protocols/cohere_v2.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Cohere v2 Chat stream: the rows of `stream:` in spec/protocols/cohere_v2.yaml, compiled for the generic machines
in runtime/streams (decoder: machine.py, encoder: encoder.py)."""

from __future__ import annotations

from typing import Any

from interlingua.streams.rules import Rule, StreamRows
from orjson import dumps as _dumps

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}


def _r0(v: Any) -> Any:  # index
    if type(v) is not dict:
        return None
    v = v.get("index")
    return v


def _r1(v: Any) -> Any:  # delta.message.content.text
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


def _r5(v: Any) -> Any:  # delta.message.tool_calls.id
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


def _r6(v: Any) -> Any:  # delta.message.tool_calls.function.name
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


def _r7(v: Any) -> Any:  # delta.message.tool_calls.function.arguments
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


def _end0(s: Any, ev: Any, i: int) -> Any:
    return (
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


_RULES = (
    Rule(),
    Rule(key=_r0, text=(_r1,), quiet=True, open="text"),
    Rule(key=_r0, text=(_r2,), quiet=True, open="reasoning"),
    Rule(key=_r0, quiet=True, open="ignored", what="content-start", label=_r3),
    Rule(
        key=_r0,
        text=(
            _r1,
            _r2,
        ),
        quiet=True,
    ),
    Rule(key=_r0, close=True),
    Rule(text=(_r4,), key_const="tool_plan", quiet=True, open="text"),
    Rule(key=_r0, call_id=_r5, name=_r6, arguments=_r7, key_prefix="call", open="tool_call"),
    Rule(key=_r0, arguments=_r7, quiet=True, key_prefix="call"),
    Rule(key=_r0, key_prefix="call", close=True),
    Rule(what="citation-start/citation-end"),
    Rule(),
    Rule(),
)


def dispatch(m: Any, d: Any, out: list[Any]) -> bool:
    kind = d.get("type")
    if kind == "message-start":
        if m._start(d.get("id"), None, None, out):
            return True
        return True
    if kind == "content-start":
        w0 = _r3(d)
        if w0 == "text":
            m._delta(_RULES[1], d, f"{d.get('index')}", _r1(d), out)
            return True
        if w0 == "thinking":
            m._delta(_RULES[2], d, f"{d.get('index')}", _r2(d), out)
            return True
        m._block(_RULES[3], d, None, out)
        return True
    if kind == "content-delta":
        m._block(_RULES[4], d, None, out)
        return True
    if kind == "content-end":
        m._block(_RULES[5], d, None, out)
        return True
    if kind == "tool-plan-delta":
        m._block(_RULES[6], d, None, out)
        return True
    if kind == "tool-call-start":
        if (b := m.blocks.get("tool_plan")) is not None:
            m._close(b, out)
        m._block(_RULES[7], d, None, out)
        return True
    if kind == "tool-call-delta":
        m._delta(_RULES[8], d, f"call{d.get('index')}", _r7(d), out)
        return True
    if kind == "tool-call-end":
        m._block(_RULES[9], d, None, out)
        return True
    if kind == "citation-start":
        m.ignored += 1
        m.drop(m._what(_RULES[10], d), "event")
        return True
    if kind == "citation-end":
        m.ignored += 1
        m.drop(m._what(_RULES[10], d), "event")
        return True
    if kind == "message-end":
        err = _v.get("error") if type(_v := d.get("delta")) is dict else None
        if err:
            m._fail_error(err, d, out)
            return True
        out += m._close_all()
        if type(u := (_v.get("usage") if type(_v := d.get("delta")) is dict else None)) is dict:
            m._usage(u, out)
        raw = _v.get("finish_reason") if type(_v := d.get("delta")) is dict else None
        if raw is not None:
            m._finish(raw, None, None, out)
        out += m._end("completed")
        return True
    return kind in ("debug",)


ROWS = StreamRows(
    protocol="cohere_v2",
    dispatch=dispatch,
    start_event=True,
    implicit_blocks=False,
    done_sentinel=None,
    end_after_finish=False,
    sequential=True,
    counters={"text": "content", "reasoning": "content", "tool_call": "tool"},
    id_default="interlingua",
    empty_arguments=None,
    templates={
        "start": _start,
        "text_start": _text_start,
        "text_delta": _text_delta,
        "text_end": _text_end,
        "reasoning_start": _reasoning_start,
        "reasoning_delta": _reasoning_delta,
        "reasoning_end": _reasoning_end,
        "tool_call_start": _tool_call_start,
        "tool_call_delta": _tool_call_delta,
        "tool_call_end": _tool_call_end,
        "error": _error,
    },
    end=(_end0,),
    done=None,
)
