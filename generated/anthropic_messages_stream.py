# Generated from spec/protocols/anthropic_messages.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Anthropic Messages stream: the rows of `stream:` in spec/protocols/anthropic_messages.yaml, compiled for the generic machines
in runtime/streams (decoder: machine.py, encoder: encoder.py)."""

from __future__ import annotations

from typing import Any

from interlingua.streams.inband import error_frame as _error_frame
from interlingua.streams.rules import Rule, StreamRows
from orjson import dumps as _dumps

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}


def _r0(v: Any) -> Any:  # index
    if type(v) is not dict:
        return None
    v = v.get("index")
    return v


def _r1(v: Any) -> Any:  # content_block.text
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("text")
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


def _r5(v: Any) -> Any:  # content_block.signature
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("signature")
    return v


def _r6(v: Any) -> Any:  # content_block.data
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("data")
    return v


def _r7(v: Any) -> Any:  # content_block.thinking
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("thinking")
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


def _end0(s: Any, ev: Any, i: int) -> Any:
    return (
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


def _end1(s: Any, ev: Any, i: int) -> Any:
    return b"event: message_stop\ndata: " + _dumps({"type": "message_stop"}) + b"\n\n"


_RULES = (
    Rule(),
    Rule(key=_r0, text=(_r1,), quiet=True, open="text"),
    Rule(key=_r0, call_id=_r2, name=_r3, arguments_object=_r4, open="tool_call"),
    Rule(key=_r0, signature=_r5, redacted=_r6, text=(_r7,), open="reasoning"),
    Rule(key=_r0, quiet=True, open="ignored", what="content_block_start", label=_r8),
    Rule(key=_r0, text=(_r9,), quiet=True),
    Rule(key=_r0, text=(_r10,), quiet=True),
    Rule(key=_r0, arguments=_r11, quiet=True),
    Rule(key=_r0, signature=_r12),
    Rule(key=_r0, close=True),
    Rule(),
    Rule(),
    Rule(),
    Rule(),
)


def dispatch(m: Any, d: Any, out: list[Any]) -> bool:
    kind = d.get("type")
    if kind == "message_start":
        if m._start(
            (_v.get("id") if type(_v := d.get("message")) is dict else None),
            (_v.get("model") if type(_v := d.get("message")) is dict else None),
            None,
            out,
        ):
            return True
        if type(u := (_v.get("usage") if type(_v := d.get("message")) is dict else None)) is dict:
            m._usage(u, out, True)
        return True
    if kind == "content_block_start":
        w0 = _v.get("type") if type(_v := d.get("content_block")) is dict else None
        if w0 == "text":
            m._delta(
                _RULES[1],
                d,
                f"{d.get('index')}",
                (_v.get("text") if type(_v := d.get("content_block")) is dict else None),
                out,
            )
            return True
        if w0 == "tool_use":
            m._block(_RULES[2], d, None, out)
            return True
        if w0 in ("thinking", "redacted_thinking"):
            m._block(_RULES[3], d, None, out)
            return True
        m._block(_RULES[4], d, None, out)
        return True
    if kind == "content_block_delta":
        w1 = _v.get("type") if type(_v := d.get("delta")) is dict else None
        if w1 == "text_delta":
            m._delta(
                _RULES[5],
                d,
                f"{d.get('index')}",
                (_v.get("text") if type(_v := d.get("delta")) is dict else None),
                out,
            )
            return True
        if w1 == "thinking_delta":
            m._delta(
                _RULES[6],
                d,
                f"{d.get('index')}",
                (_v.get("thinking") if type(_v := d.get("delta")) is dict else None),
                out,
            )
            return True
        if w1 == "input_json_delta":
            m._delta(
                _RULES[7],
                d,
                f"{d.get('index')}",
                (_v.get("partial_json") if type(_v := d.get("delta")) is dict else None),
                out,
            )
            return True
        if w1 == "signature_delta":
            m._block(_RULES[8], d, None, out)
            return True
        return False
    if kind == "content_block_stop":
        m._block(_RULES[9], d, None, out)
        return True
    if kind == "message_delta":
        if type(u := d.get("usage")) is dict:
            m._usage(u, out)
        raw = _v.get("stop_reason") if type(_v := d.get("delta")) is dict else None
        if raw is not None:
            m._finish(
                raw,
                (_v.get("stop_sequence") if type(_v := d.get("delta")) is dict else None),
                None,
                out,
            )
        return True
    if kind == "message_stop":
        out += m._end("completed")
        return True
    if kind == "error":
        err = d.get("error")
        if err:
            m._fail_error(err, d, out)
            return True
        return True
    return kind in ("ping",)


ROWS = StreamRows(
    protocol="anthropic_messages",
    dispatch=dispatch,
    start_event=True,
    implicit_blocks=False,
    done_sentinel=None,
    end_after_finish=False,
    sequential=True,
    counters={"text": "all", "reasoning": "all", "tool_call": "all"},
    id_default="msg_interlingua",
    empty_arguments=None,
    templates={
        "start": _start,
        "text_start": _text_start,
        "text_delta": _text_delta,
        "text_end": _text_end,
        "reasoning_start": _reasoning_start,
        "reasoning_delta": _reasoning_delta,
        "reasoning_signature": _reasoning_signature,
        "reasoning_redacted": _reasoning_redacted,
        "reasoning_end": _reasoning_end,
        "tool_call_start": _tool_call_start,
        "tool_call_delta": _tool_call_delta,
        "tool_call_end": _tool_call_end,
        "error": _error,
    },
    end=(
        _end0,
        _end1,
    ),
    done=None,
)
