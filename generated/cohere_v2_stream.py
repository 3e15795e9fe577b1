# Generated from spec/protocols/cohere_v2.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Cohere v2 Chat stream: the rows of `stream:` in spec/protocols/cohere_v2.yaml, compiled for the generic machines
in runtime/streams (decoder: machine.py, encoder: encoder.py)."""

from __future__ import annotations

from typing import Any

from interlingua.streams.rules import Rule, StreamRows
from orjson import dumps as _dumps

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}


def _r0(v: Any) -> Any:  # id
    if type(v) is not dict:
        return None
    v = v.get("id")
    return v


def _r1(v: Any) -> Any:  # index
    if type(v) is not dict:
        return None
    v = v.get("index")
    return v


def _r2(v: Any) -> Any:  # delta.message.content.text
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


def _r3(v: Any) -> Any:  # delta.message.content.thinking
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


def _r4(v: Any) -> Any:  # delta.message.content.type
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


def _r5(v: Any) -> Any:  # delta.message.tool_plan
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


def _r8(v: Any) -> Any:  # delta.message.tool_calls.function.arguments
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


def _r9(v: Any) -> Any:  # delta.finish_reason
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("finish_reason")
    return v


def _r10(v: Any) -> Any:  # delta.error
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("error")
    return v


def _r11(v: Any) -> Any:  # delta.usage
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("usage")
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
    Rule(start=(_r0, None, None), restart="fail"),
    Rule(key=_r1, text=(_r2,), keyed=True, quiet=True, open="text"),
    Rule(key=_r1, text=(_r3,), keyed=True, quiet=True, open="reasoning"),
    Rule(key=_r1, keyed=True, quiet=True, open="ignored", what="content-start", label=_r4),
    Rule(
        key=_r1,
        text=(
            _r2,
            _r3,
        ),
        keyed=True,
        quiet=True,
    ),
    Rule(key=_r1, keyed=True, close=True),
    Rule(text=(_r5,), key_const="tool_plan", keyed=True, quiet=True, open="text"),
    Rule(
        key=_r1,
        call_id=_r6,
        name=_r7,
        arguments=_r8,
        keyed=True,
        key_prefix="call",
        open="tool_call",
        ends=("tool_plan",),
    ),
    Rule(key=_r1, arguments=_r8, keyed=True, quiet=True, key_prefix="call"),
    Rule(key=_r1, keyed=True, key_prefix="call", close=True),
    Rule(count=True, what="citation-start/citation-end"),
    Rule(finish=_r9, error=_r10, usage=(_r11,), end=True),
    Rule(),
)


def dispatch(m: Any, d: Any, out: list[Any]) -> bool:
    kind = d.get("type")
    if kind == "message-start":
        m._apply(_RULES[0], d, None, d, out)
        return True
    if kind == "content-start":
        w0 = _r4(d)
        if w0 == "text":
            m._delta(_RULES[1], d, d.get("index"), None, _r2(d), out)
            return True
        if w0 == "thinking":
            m._delta(_RULES[2], d, d.get("index"), None, _r3(d), out)
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
        m._apply(_RULES[7], d, None, d, out)
        return True
    if kind == "tool-call-delta":
        m._delta(_RULES[8], d, d.get("index"), None, _r8(d), out)
        return True
    if kind == "tool-call-end":
        m._block(_RULES[9], d, None, out)
        return True
    if kind == "citation-start":
        m._apply(_RULES[10], d, None, d, out)
        return True
    if kind == "citation-end":
        m._apply(_RULES[10], d, None, d, out)
        return True
    if kind == "message-end":
        m._apply(_RULES[11], d, None, d, out)
        return True
    if kind == "debug":
        m._apply(_RULES[12], d, None, d, out)
        return True
    return False


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
    error_prefix=b"event: error\ndata: ",
)
