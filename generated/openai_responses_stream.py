# Generated from spec/protocols/openai_responses.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""OpenAI Responses stream: the rows of `stream:` in spec/protocols/openai_responses.yaml, compiled for the generic machines
in runtime/streams (decoder: machine.py, encoder: encoder.py)."""

from __future__ import annotations

from typing import Any

from interlingua.streams.rules import NONE as _NONE
from interlingua.streams.rules import Rule, StreamRows
from orjson import dumps as _dumps

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}


def _r0(v: Any) -> Any:  # item_id
    if type(v) is not dict:
        return None
    v = v.get("item_id")
    return v


def _r1(v: Any) -> Any:  # output_index
    if type(v) is not dict:
        return None
    v = v.get("output_index")
    return v


def _r2(v: Any) -> Any:  # first of item_id, output_index
    if type(v) is not dict:
        return None
    x = v.get("item_id")
    if x is not None:
        return x
    x = v.get("output_index")
    if x is not None:
        return x
    return None


def _r3(v: Any) -> Any:  # content_index
    if type(v) is not dict:
        return None
    v = v.get("content_index")
    return v


def _r4(v: Any) -> Any:  # delta
    if type(v) is not dict:
        return None
    v = v.get("delta")
    return v


def _r5(v: Any) -> Any:  # item.id
    if type(v) is not dict:
        return None
    v = v.get("item")
    if type(v) is not dict:
        return None
    v = v.get("id")
    return v


def _r6(v: Any) -> Any:  # first of item.id, output_index
    if type(v) is not dict:
        return None
    x = _r5(v)
    if x is not None:
        return x
    x = v.get("output_index")
    if x is not None:
        return x
    return None


def _r7(v: Any) -> Any:  # item.call_id
    if type(v) is not dict:
        return None
    v = v.get("item")
    if type(v) is not dict:
        return None
    v = v.get("call_id")
    return v


def _r8(v: Any) -> Any:  # first of item.call_id, item.id
    x = _r7(v)
    if x is not None:
        return x
    x = _r5(v)
    if x is not None:
        return x
    return None


def _r9(v: Any) -> Any:  # item.name
    if type(v) is not dict:
        return None
    v = v.get("item")
    if type(v) is not dict:
        return None
    v = v.get("name")
    return v


def _r10(v: Any) -> Any:  # item.arguments
    if type(v) is not dict:
        return None
    v = v.get("item")
    if type(v) is not dict:
        return None
    v = v.get("arguments")
    return v


def _r11(v: Any) -> Any:  # item.type
    if type(v) is not dict:
        return None
    v = v.get("item")
    if type(v) is not dict:
        return None
    v = v.get("type")
    return v


def _r12(v: Any) -> Any:  # part.text
    if type(v) is not dict:
        return None
    v = v.get("part")
    if type(v) is not dict:
        return None
    v = v.get("text")
    return v


def _r13(v: Any) -> Any:  # part.refusal
    if type(v) is not dict:
        return None
    v = v.get("part")
    if type(v) is not dict:
        return None
    v = v.get("refusal")
    return v


def _r14(v: Any) -> Any:  # text
    if type(v) is not dict:
        return None
    v = v.get("text")
    return v


def _r15(v: Any) -> Any:  # refusal
    if type(v) is not dict:
        return None
    v = v.get("refusal")
    return v


def _r16(v: Any) -> Any:  # arguments
    if type(v) is not dict:
        return None
    v = v.get("arguments")
    return v


def _r17(v: Any) -> Any:  # item.encrypted_content
    if type(v) is not dict:
        return None
    v = v.get("item")
    if type(v) is not dict:
        return None
    v = v.get("encrypted_content")
    return v


def _r18(v: Any) -> Any:  # response.incomplete_details.reason
    if type(v) is not dict:
        return None
    v = v.get("response")
    if type(v) is not dict:
        return None
    v = v.get("incomplete_details")
    if type(v) is not dict:
        return None
    v = v.get("reason")
    return v


def _r19(v: Any) -> Any:  # response.status
    if type(v) is not dict:
        return None
    v = v.get("response")
    if type(v) is not dict:
        return None
    v = v.get("status")
    return v


def _r20(v: Any) -> Any:  # first of response.incomplete_details.reason, response.status
    x = _r18(v)
    if x is not None:
        return x
    x = _r19(v)
    if x is not None:
        return x
    return None


def _r21(v: Any) -> Any:  # code
    if type(v) is not dict:
        return None
    v = v.get("code")
    return v


def _r22(v: Any) -> Any:  # error
    if type(v) is not dict:
        return None
    v = v.get("error")
    return v


def _r23(v: Any) -> Any:  # message
    if type(v) is not dict:
        return None
    v = v.get("message")
    return v


def _r24(v: Any) -> Any:  # first of error, message
    if type(v) is not dict:
        return None
    x = v.get("error")
    if x is not None:
        return x
    x = v.get("message")
    if x is not None:
        return x
    return None


def _start(s: Any, ev: Any, i: int) -> Any:
    out: list[bytes] = []
    out.append(
        b"event: response.created\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.created",
                "response": {
                    "id": s.id,
                    "object": "response",
                    "created_at": s.created,
                    "status": "in_progress",
                    "error": None,
                    "incomplete_details": None,
                    "instructions": None,
                    "max_output_tokens": None,
                    "model": s.model,
                    "output": [],
                    "parallel_tool_calls": True,
                    "previous_response_id": None,
                    "reasoning": {"effort": None, "summary": None},
                    "store": False,
                    "temperature": None,
                    "text": {"format": {"type": "text"}},
                    "tool_choice": "auto",
                    "tools": [],
                    "top_p": None,
                    "truncation": "disabled",
                    "usage": None,
                    "user": None,
                    "metadata": {},
                    **s.envelope,
                },
            }
        )
        + b"\n\n"
    )
    out.append(
        b"event: response.in_progress\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.in_progress",
                "response": {
                    "id": s.id,
                    "object": "response",
                    "created_at": s.created,
                    "status": "in_progress",
                    "error": None,
                    "incomplete_details": None,
                    "instructions": None,
                    "max_output_tokens": None,
                    "model": s.model,
                    "output": [],
                    "parallel_tool_calls": True,
                    "previous_response_id": None,
                    "reasoning": {"effort": None, "summary": None},
                    "store": False,
                    "temperature": None,
                    "text": {"format": {"type": "text"}},
                    "tool_choice": "auto",
                    "tools": [],
                    "top_p": None,
                    "truncation": "disabled",
                    "usage": None,
                    "user": None,
                    "metadata": {},
                    **s.envelope,
                },
            }
        )
        + b"\n\n"
    )
    return b"".join(out)


def _group_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: response.output_item.added\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.output_item.added",
                "output_index": i,
                "item": {
                    "id": s.cur.wid,
                    "type": "message",
                    "status": "in_progress",
                    "role": "assistant",
                    "content": [],
                },
            }
        )
        + b"\n\n"
    )


def _group_end(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: response.output_item.done\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.output_item.done",
                "output_index": i,
                "item": s.keep(
                    {
                        "id": s.cur.wid,
                        "type": "message",
                        "status": s.status,
                        "role": "assistant",
                        "content": s.cur.kept_parts(),
                    }
                ),
            }
        )
        + b"\n\n"
    )


def _text_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: response.content_part.added\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.content_part.added",
                "item_id": s.cur.wid,
                "output_index": i,
                "content_index": s.cur.part,
                "part": {"type": "output_text", "text": "", "annotations": [], "logprobs": []},
            }
        )
        + b"\n\n"
    )


def _text_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: response.output_text.delta\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.output_text.delta",
                "item_id": s.cur.wid,
                "output_index": i,
                "content_index": s.cur.part,
                "delta": ev.text,
                "logprobs": [],
            }
        )
        + b"\n\n"
    )


def _text_end(s: Any, ev: Any, i: int) -> Any:
    out: list[bytes] = []
    out.append(
        b"event: response.output_text.done\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.output_text.done",
                "item_id": s.cur.wid,
                "output_index": i,
                "content_index": s.cur.part,
                "text": s.cur.all(),
                "logprobs": [],
            }
        )
        + b"\n\n"
    )
    out.append(
        b"event: response.content_part.done\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.content_part.done",
                "item_id": s.cur.wid,
                "output_index": i,
                "content_index": s.cur.part,
                "part": s.keep_part(
                    {"type": "output_text", "text": s.cur.all(), "annotations": [], "logprobs": []}
                ),
            }
        )
        + b"\n\n"
    )
    return b"".join(out)


def _reasoning_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: response.output_item.added\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.output_item.added",
                "output_index": i,
                "item": {"id": s.cur.wid, "type": "reasoning", "summary": []},
            }
        )
        + b"\n\n"
    )


def _reasoning_delta(s: Any, ev: Any, i: int) -> Any:
    out: list[bytes] = []
    if s.cur.deltas == 1:
        out.append(
            b"event: response.reasoning_summary_part.added\ndata: "
            + _dumps(
                {
                    "sequence_number": s.next_seq(),
                    "type": "response.reasoning_summary_part.added",
                    "item_id": s.cur.wid,
                    "output_index": i,
                    "summary_index": 0,
                    "part": {"type": "summary_text", "text": ""},
                }
            )
            + b"\n\n"
        )
    out.append(
        b"event: response.reasoning_summary_text.delta\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.reasoning_summary_text.delta",
                "item_id": s.cur.wid,
                "output_index": i,
                "summary_index": 0,
                "delta": ev.text,
            }
        )
        + b"\n\n"
    )
    return b"".join(out)


def _reasoning_end(s: Any, ev: Any, i: int) -> Any:
    out: list[bytes] = []
    if s.cur.deltas > 0:
        out.append(
            b"event: response.reasoning_summary_text.done\ndata: "
            + _dumps(
                {
                    "sequence_number": s.next_seq(),
                    "type": "response.reasoning_summary_text.done",
                    "item_id": s.cur.wid,
                    "output_index": i,
                    "summary_index": 0,
                    "text": s.cur.all(),
                }
            )
            + b"\n\n"
        )
    if s.cur.deltas > 0:
        out.append(
            b"event: response.reasoning_summary_part.done\ndata: "
            + _dumps(
                {
                    "sequence_number": s.next_seq(),
                    "type": "response.reasoning_summary_part.done",
                    "item_id": s.cur.wid,
                    "output_index": i,
                    "summary_index": 0,
                    "part": {"type": "summary_text", "text": s.cur.all()},
                }
            )
            + b"\n\n"
        )
    if s.cur.deltas > 0:
        out.append(
            b"event: response.output_item.done\ndata: "
            + _dumps(
                {
                    "sequence_number": s.next_seq(),
                    "type": "response.output_item.done",
                    "output_index": i,
                    "item": s.keep(
                        {
                            "id": s.cur.wid,
                            "type": "reasoning",
                            "summary": [{"type": "summary_text", "text": s.cur.all()}],
                            **(
                                {"encrypted_content": _o0}
                                if (_o0 := s.encrypted(ev)) is not None
                                else _NONE
                            ),
                            **(
                                {"status": _o1}
                                if (_o1 := None if s.status == "completed" else s.status)
                                is not None
                                else _NONE
                            ),
                        }
                    ),
                }
            )
            + b"\n\n"
        )
    if not (s.cur.deltas > 0):
        out.append(
            b"event: response.output_item.done\ndata: "
            + _dumps(
                {
                    "sequence_number": s.next_seq(),
                    "type": "response.output_item.done",
                    "output_index": i,
                    "item": s.keep(
                        {
                            "id": s.cur.wid,
                            "type": "reasoning",
                            "summary": [],
                            **(
                                {"encrypted_content": _o0}
                                if (_o0 := s.encrypted(ev)) is not None
                                else _NONE
                            ),
                            **(
                                {"status": _o1}
                                if (_o1 := None if s.status == "completed" else s.status)
                                is not None
                                else _NONE
                            ),
                        }
                    ),
                }
            )
            + b"\n\n"
        )
    return b"".join(out)


def _tool_call_start(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: response.output_item.added\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.output_item.added",
                "output_index": i,
                "item": {
                    "id": s.cur.wid,
                    "type": "function_call",
                    "status": "in_progress",
                    "call_id": ev.id,
                    "name": ev.name,
                    "arguments": "",
                },
            }
        )
        + b"\n\n"
    )


def _tool_call_delta(s: Any, ev: Any, i: int) -> Any:
    return (
        b"event: response.function_call_arguments.delta\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.function_call_arguments.delta",
                "item_id": s.cur.wid,
                "output_index": i,
                "delta": ev.arguments,
            }
        )
        + b"\n\n"
    )


def _tool_call_end(s: Any, ev: Any, i: int) -> Any:
    out: list[bytes] = []
    if s.status == "completed":
        out.append(
            b"event: response.function_call_arguments.done\ndata: "
            + _dumps(
                {
                    "sequence_number": s.next_seq(),
                    "type": "response.function_call_arguments.done",
                    "item_id": s.cur.wid,
                    "output_index": i,
                    "arguments": s.cur.all(),
                }
            )
            + b"\n\n"
        )
    out.append(
        b"event: response.output_item.done\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.output_item.done",
                "output_index": i,
                "item": s.keep(
                    {
                        "id": s.cur.wid,
                        "type": "function_call",
                        "status": s.status,
                        "call_id": s.cur.ev.id,
                        "name": s.cur.ev.name,
                        "arguments": s.cur.all(),
                    }
                ),
            }
        )
        + b"\n\n"
    )
    return b"".join(out)


def _error(s: Any, ev: Any, i: int) -> Any:
    out: list[bytes] = []
    out.append(
        b"event: error\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "error",
                "code": s.error_type(ev),
                "message": ev.error.message,
                "param": None,
                "error": {
                    "type": s.error_type(ev),
                    "code": s.error_type(ev),
                    "message": ev.error.message,
                    "param": None,
                },
            }
        )
        + b"\n\n"
    )
    out.append(
        b"event: response.failed\ndata: "
        + _dumps(
            {
                "sequence_number": s.next_seq(),
                "type": "response.failed",
                "response": {
                    "id": s.id,
                    "object": "response",
                    "created_at": s.created,
                    "incomplete_details": None,
                    "instructions": None,
                    "max_output_tokens": None,
                    "model": s.model,
                    "parallel_tool_calls": True,
                    "previous_response_id": None,
                    "reasoning": {"effort": None, "summary": None},
                    "store": False,
                    "temperature": None,
                    "text": {"format": {"type": "text"}},
                    "tool_choice": "auto",
                    "tools": [],
                    "top_p": None,
                    "truncation": "disabled",
                    "user": None,
                    "metadata": {},
                    **s.envelope,
                    "status": "failed",
                    "output": s.output(),
                    "usage": s.usage_wire(),
                    "error": {"code": s.error_type(ev), "message": ev.error.message},
                },
            }
        )
        + b"\n\n"
    )
    return b"".join(out)


def _end0(s: Any, ev: Any, i: int) -> Any:
    if s.finish_raw in ("max_output_tokens", "content_filter", "incomplete"):
        return (
            b"event: response.incomplete\ndata: "
            + _dumps(
                {
                    "sequence_number": s.next_seq(),
                    "type": "response.incomplete",
                    "response": {
                        "id": s.id,
                        "object": "response",
                        "created_at": s.created,
                        "error": None,
                        "instructions": None,
                        "max_output_tokens": None,
                        "model": s.model,
                        "parallel_tool_calls": True,
                        "previous_response_id": None,
                        "reasoning": {"effort": None, "summary": None},
                        "store": False,
                        "temperature": None,
                        "text": {"format": {"type": "text"}},
                        "tool_choice": "auto",
                        "tools": [],
                        "top_p": None,
                        "truncation": "disabled",
                        "user": None,
                        "metadata": {},
                        **s.envelope,
                        "status": "incomplete",
                        "incomplete_details": {"reason": s.finish_raw},
                        "output": s.output(),
                        "usage": s.usage_wire(),
                    },
                }
            )
            + b"\n\n"
        )
    return None


def _end1(s: Any, ev: Any, i: int) -> Any:
    if s.finish_raw not in ("max_output_tokens", "content_filter", "incomplete"):
        return (
            b"event: response.completed\ndata: "
            + _dumps(
                {
                    "sequence_number": s.next_seq(),
                    "type": "response.completed",
                    "response": {
                        "id": s.id,
                        "object": "response",
                        "created_at": s.created,
                        "error": None,
                        "incomplete_details": None,
                        "instructions": None,
                        "max_output_tokens": None,
                        "model": s.model,
                        "parallel_tool_calls": True,
                        "previous_response_id": None,
                        "reasoning": {"effort": None, "summary": None},
                        "store": False,
                        "temperature": None,
                        "text": {"format": {"type": "text"}},
                        "tool_choice": "auto",
                        "tools": [],
                        "top_p": None,
                        "truncation": "disabled",
                        "user": None,
                        "metadata": {},
                        **s.envelope,
                        "status": "completed",
                        "output": s.output(),
                        "usage": s.usage_wire(),
                    },
                }
            )
            + b"\n\n"
        )
    return None


_RULES = (
    Rule(key=_r2, sub=_r3, text=(_r4,), quiet=True, open="text"),
    Rule(key=_r2, arguments=_r4, quiet=True),
    Rule(),
    Rule(),
    Rule(key=_r6, call_id=_r8, name=_r9, arguments=_r10, quiet=True, open="tool_call"),
    Rule(key=_r6, quiet=True, open="reasoning"),
    Rule(key=_r6, quiet=True, open="ignored", what="response.output_item.added", label=_r11),
    Rule(
        key=_r2,
        sub=_r3,
        text=(
            _r12,
            _r13,
        ),
        quiet=True,
        open="text",
    ),
    Rule(),
    Rule(
        key=_r2,
        sub=_r3,
        whole=True,
        text=(
            _r14,
            _r15,
        ),
        quiet=True,
    ),
    Rule(key=_r2, sub=_r3, close=True),
    Rule(key=_r2, arguments=_r16, whole=True, quiet=True),
    Rule(key=_r2, separator="\n\n"),
    Rule(key=_r2, text=(_r4,), quiet=True),
    Rule(key=_r2, whole=True, text=(_r14,), quiet=True),
    Rule(),
    Rule(key=_r6, arguments=_r10, whole=True, close=True),
    Rule(key=_r6, signature=_r17, close=True),
    Rule(key=_r6, close=True),
    Rule(),
    Rule(),
    Rule(),
)


def dispatch(m: Any, d: Any, out: list[Any]) -> bool:
    kind = d.get("type")
    if kind == "response.output_text.delta":
        m._delta(
            _RULES[0],
            d,
            f"{d.get('item_id')}:{_s if (_s := d.get('content_index')) is not None else 0}",
            d.get("delta"),
            out,
        )
        return True
    if kind == "response.refusal.delta":
        m._delta(
            _RULES[0],
            d,
            f"{d.get('item_id')}:{_s if (_s := d.get('content_index')) is not None else 0}",
            d.get("delta"),
            out,
        )
        return True
    if kind == "response.function_call_arguments.delta":
        m._delta(_RULES[1], d, f"{d.get('item_id')}", d.get("delta"), out)
        return True
    if kind == "response.created":
        if m.msg_id is None:
            m._start(
                (_v.get("id") if type(_v := d.get("response")) is dict else None),
                (_v.get("model") if type(_v := d.get("response")) is dict else None),
                (_v.get("created_at") if type(_v := d.get("response")) is dict else None),
                out,
            )
        return True
    if kind == "response.in_progress":
        if m.msg_id is None:
            m._start(
                (_v.get("id") if type(_v := d.get("response")) is dict else None),
                (_v.get("model") if type(_v := d.get("response")) is dict else None),
                (_v.get("created_at") if type(_v := d.get("response")) is dict else None),
                out,
            )
        return True
    if kind == "response.queued":
        if m.msg_id is None:
            m._start(
                (_v.get("id") if type(_v := d.get("response")) is dict else None),
                (_v.get("model") if type(_v := d.get("response")) is dict else None),
                (_v.get("created_at") if type(_v := d.get("response")) is dict else None),
                out,
            )
        return True
    if kind == "response.output_item.added":
        w0 = _v.get("type") if type(_v := d.get("item")) is dict else None
        if w0 == "message":
            return True
        if w0 == "function_call":
            m._block(_RULES[4], d, None, out)
            return True
        if w0 == "reasoning":
            m._block(_RULES[5], d, None, out)
            return True
        m._block(_RULES[6], d, None, out)
        return True
    if kind == "response.content_part.added":
        w1 = _v.get("type") if type(_v := d.get("part")) is dict else None
        if w1 in ("output_text", "refusal"):
            m._block(_RULES[7], d, None, out)
            return True
        return True
    if kind == "response.output_text.done":
        m._block(_RULES[9], d, None, out)
        return True
    if kind == "response.refusal.done":
        m._block(_RULES[9], d, None, out)
        return True
    if kind == "response.content_part.done":
        m._block(_RULES[10], d, None, out)
        return True
    if kind == "response.function_call_arguments.done":
        m._block(_RULES[11], d, None, out)
        return True
    if kind == "response.reasoning_summary_part.added":
        m._block(_RULES[12], d, None, out)
        return True
    if kind == "response.reasoning_summary_text.delta":
        m._delta(_RULES[13], d, f"{d.get('item_id')}", d.get("delta"), out)
        return True
    if kind == "response.reasoning_text.delta":
        m._delta(_RULES[13], d, f"{d.get('item_id')}", d.get("delta"), out)
        return True
    if kind == "response.reasoning_summary_text.done":
        m._block(_RULES[14], d, None, out)
        return True
    if kind == "response.reasoning_text.done":
        m._block(_RULES[14], d, None, out)
        return True
    if kind == "response.output_item.done":
        w2 = _v.get("type") if type(_v := d.get("item")) is dict else None
        if w2 == "function_call":
            m._block(_RULES[16], d, None, out)
            return True
        if w2 == "reasoning":
            m._block(_RULES[17], d, None, out)
            return True
        m._block(_RULES[18], d, None, out)
        return True
    if kind == "response.completed":
        out += m._close_all()
        if type(u := (_v.get("usage") if type(_v := d.get("response")) is dict else None)) is dict:
            m._usage(u, out)
        raw = _r20(d)
        if raw is not None:
            m._finish(raw, None, None, out)
        out += m._end("completed")
        return True
    if kind == "response.incomplete":
        out += m._close_all()
        if type(u := (_v.get("usage") if type(_v := d.get("response")) is dict else None)) is dict:
            m._usage(u, out)
        raw = _r20(d)
        if raw is not None:
            m._finish(raw, None, None, out)
        out += m._end("completed")
        return True
    if kind == "response.failed":
        err = _v.get("error") if type(_v := d.get("response")) is dict else None
        if err:
            m._fail_error(err, d, out, _r21)
            return True
        return True
    if kind == "error":
        err = _r24(d)
        if err:
            m._fail_error(err, d, out, _r21)
            return True
        return True
    return kind in ("response.reasoning_summary_part.done",)


ROWS = StreamRows(
    protocol="openai_responses",
    dispatch=dispatch,
    start_event=True,
    implicit_blocks=False,
    done_sentinel=None,
    end_after_finish=False,
    parts=True,
    special=("[DONE]",),
    sequential=False,
    counters={"text": "all", "reasoning": "all", "tool_call": "all"},
    id_default="resp_interlingua",
    empty_arguments="{}",
    templates={
        "start": _start,
        "group_start": _group_start,
        "group_end": _group_end,
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
    end=(
        _end0,
        _end1,
    ),
    done=None,
    group="text",
    ids={"text": "msg_", "reasoning": "rs_", "tool_call": "fc_"},
    accumulate=("reasoning", "text", "tool_call"),
)
