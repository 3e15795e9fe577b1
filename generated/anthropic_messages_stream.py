# Generated from spec/protocols/anthropic_messages.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Anthropic Messages stream: the rows of `stream:` in spec/protocols/anthropic_messages.yaml, compiled for the generic machines
in runtime/streams (decoder: machine.py, encoder: encoder.py)."""

from __future__ import annotations

from typing import Any

from interlingua.streams.rules import Rule, StreamRows

TRANSFORM = None

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}


def _r0(v: Any) -> Any:  # message.usage
    if type(v) is not dict:
        return None
    v = v.get("message")
    if type(v) is not dict:
        return None
    v = v.get("usage")
    return v


def _r1(v: Any) -> Any:  # message.id
    if type(v) is not dict:
        return None
    v = v.get("message")
    if type(v) is not dict:
        return None
    v = v.get("id")
    return v


def _r2(v: Any) -> Any:  # message.model
    if type(v) is not dict:
        return None
    v = v.get("message")
    if type(v) is not dict:
        return None
    v = v.get("model")
    return v


def _r3(v: Any) -> Any:  # content_block.type
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("type")
    return v


def _r4(v: Any) -> Any:  # index
    if type(v) is not dict:
        return None
    v = v.get("index")
    return v


def _r5(v: Any) -> Any:  # content_block.text
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("text")
    return v


def _r6(v: Any) -> Any:  # content_block.id
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("id")
    return v


def _r7(v: Any) -> Any:  # content_block.name
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("name")
    return v


def _r8(v: Any) -> Any:  # content_block.input
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("input")
    return v


def _r9(v: Any) -> Any:  # content_block.signature
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("signature")
    return v


def _r10(v: Any) -> Any:  # content_block.data
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("data")
    return v


def _r11(v: Any) -> Any:  # content_block.thinking
    if type(v) is not dict:
        return None
    v = v.get("content_block")
    if type(v) is not dict:
        return None
    v = v.get("thinking")
    return v


def _r12(v: Any) -> Any:  # delta.type
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("type")
    return v


def _r13(v: Any) -> Any:  # delta.text
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("text")
    return v


def _r14(v: Any) -> Any:  # delta.thinking
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("thinking")
    return v


def _r15(v: Any) -> Any:  # delta.partial_json
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("partial_json")
    return v


def _r16(v: Any) -> Any:  # delta.signature
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("signature")
    return v


def _r17(v: Any) -> Any:  # delta.stop_reason
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("stop_reason")
    return v


def _r18(v: Any) -> Any:  # delta.stop_sequence
    if type(v) is not dict:
        return None
    v = v.get("delta")
    if type(v) is not dict:
        return None
    v = v.get("stop_sequence")
    return v


def _r19(v: Any) -> Any:  # usage
    if type(v) is not dict:
        return None
    v = v.get("usage")
    return v


def _r20(v: Any) -> Any:  # error
    if type(v) is not dict:
        return None
    v = v.get("error")
    return v


def _r21(v: Any) -> Any:  # type
    if type(v) is not dict:
        return None
    v = v.get("type")
    return v


def _start(s: Any, ev: Any, i: int) -> Any:
    return {
        "type": "message_start",
        "message": {
            "id": s.id,
            "type": "message",
            "role": "assistant",
            "model": s.model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": s.usage_wire(),
        },
    }


def _text_start(s: Any, ev: Any, i: int) -> Any:
    return {
        "type": "content_block_start",
        "index": i,
        "content_block": {"type": "text", "text": ""},
    }


def _text_delta(s: Any, ev: Any, i: int) -> Any:
    return {
        "type": "content_block_delta",
        "index": i,
        "delta": {"type": "text_delta", "text": ev.text},
    }


def _text_end(s: Any, ev: Any, i: int) -> Any:
    return {"type": "content_block_stop", "index": i}


def _reasoning_start(s: Any, ev: Any, i: int) -> Any:
    return {
        "type": "content_block_start",
        "index": i,
        "content_block": {"type": "thinking", "thinking": "", "signature": ""},
    }


def _reasoning_delta(s: Any, ev: Any, i: int) -> Any:
    return {
        "type": "content_block_delta",
        "index": i,
        "delta": {"type": "thinking_delta", "thinking": ev.text},
    }


def _reasoning_signature(s: Any, ev: Any, i: int) -> Any:
    return {
        "type": "content_block_delta",
        "index": i,
        "delta": {"type": "signature_delta", "signature": ev.signature},
    }


def _reasoning_redacted(s: Any, ev: Any, i: int) -> Any:
    return {
        "type": "content_block_start",
        "index": i,
        "content_block": {"type": "redacted_thinking", "data": ev.redacted},
    }


def _reasoning_end(s: Any, ev: Any, i: int) -> Any:
    return {"type": "content_block_stop", "index": i}


def _tool_call_start(s: Any, ev: Any, i: int) -> Any:
    return {
        "type": "content_block_start",
        "index": i,
        "content_block": {"type": "tool_use", "id": ev.id, "name": ev.name, "input": {}},
    }


def _tool_call_delta(s: Any, ev: Any, i: int) -> Any:
    return {
        "type": "content_block_delta",
        "index": i,
        "delta": {"type": "input_json_delta", "partial_json": ev.arguments},
    }


def _tool_call_end(s: Any, ev: Any, i: int) -> Any:
    return {"type": "content_block_stop", "index": i}


def _end0(s: Any, ev: Any, i: int) -> Any:
    return {
        "type": "message_delta",
        "delta": {"stop_reason": s.finish_raw, "stop_sequence": s.stop_sequence},
        "usage": s.usage_wire(),
    }


def _end1(s: Any, ev: Any, i: int) -> Any:
    return {"type": "message_stop"}


ROWS = StreamRows(
    protocol="anthropic_messages",
    recognise=_r21,
    by_on={
        "message_start": (Rule(usage=(_r0,), start=(_r1, _r2, None), restart="fail"),),
        "content_block_start": (
            Rule(when=((_r3, ("text",)),), key=_r4, text=(_r5,), open="text"),
            Rule(
                when=((_r3, ("tool_use",)),),
                key=_r4,
                call_id=_r6,
                name=_r7,
                arguments_object=_r8,
                open="tool_call",
            ),
            Rule(
                when=((_r3, ("thinking", "redacted_thinking")),),
                key=_r4,
                signature=_r9,
                redacted=_r10,
                text=(_r11,),
                open="reasoning",
            ),
            Rule(key=_r4, open="ignored"),
        ),
        "content_block_delta": (
            Rule(when=((_r12, ("text_delta",)),), key=_r4, text=(_r13,)),
            Rule(when=((_r12, ("thinking_delta",)),), key=_r4, text=(_r14,)),
            Rule(when=((_r12, ("input_json_delta",)),), key=_r4, arguments=_r15),
            Rule(when=((_r12, ("signature_delta",)),), key=_r4, signature=_r16),
        ),
        "content_block_stop": (Rule(key=_r4, close=True),),
        "message_delta": (Rule(finish=_r17, stop_sequence=_r18, usage=(_r19,)),),
        "message_stop": (Rule(end=True),),
        "error": (Rule(error=_r20),),
        "ping": (Rule(),),
    },
    every=(),
    first_match=True,
    implicit_blocks=False,
    done_sentinel=None,
    end_after_finish=False,
    sequential=True,
    index="shared",
    id_default="msg_interlingua",
    empty_arguments=None,
    templates={
        "start": (_start, "message_start"),
        "text_start": (_text_start, "content_block_start"),
        "text_delta": (_text_delta, "content_block_delta"),
        "text_end": (_text_end, "content_block_stop"),
        "reasoning_start": (_reasoning_start, "content_block_start"),
        "reasoning_delta": (_reasoning_delta, "content_block_delta"),
        "reasoning_signature": (_reasoning_signature, "content_block_delta"),
        "reasoning_redacted": (_reasoning_redacted, "content_block_start"),
        "reasoning_end": (_reasoning_end, "content_block_stop"),
        "tool_call_start": (_tool_call_start, "content_block_start"),
        "tool_call_delta": (_tool_call_delta, "content_block_delta"),
        "tool_call_end": (_tool_call_end, "content_block_stop"),
    },
    end=(
        (_end0, "message_delta", False),
        (_end1, "message_stop", False),
    ),
    done=None,
)
