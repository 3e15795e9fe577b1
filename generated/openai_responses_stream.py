# Generated from spec/protocols/openai_responses.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""OpenAI Responses stream: the rows of `stream:` in spec/protocols/openai_responses.yaml, compiled for the generic machines
in runtime/streams (decoder: machine.py, encoder: encoder.py)."""

from __future__ import annotations

from typing import Any

from interlingua._pipeline import error_info as _error_info
from interlingua._pipeline import raw_error_type as _raw_error_type
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
from interlingua.streams.machine import DELTA as _DELTA
from interlingua.streams.rules import NONE as _NONE
from interlingua.streams.rules import StreamRows
from interlingua.transforms.envelopes import signature_for as _signature_for
from orjson import dumps as _dumps

# wire owner name -> (protocol id that owns the opaque state, where its signature rides)
OWNERS: dict[str, tuple[str, str]] = {}
# whose opaque state this protocol's clients take (its own, and the owners its rows carry), and
# the wire name of each of those owners ($format; any other: the unknown owner)
MINE = frozenset(["openai_responses"])
FORMATS: dict[str, str] = {}
UNKNOWN_OWNER = ""


class _Block:
    """A decoded block: the state this protocol's compiled code keeps."""

    __slots__ = ("kind", "key", "open", "call_id", "sig", "parent", "fresh")

    def __init__(self, kind: str, key: str) -> None:
        self.kind: str = kind  # text, reasoning, tool_call or ignored
        self.key: str = key  # its canonical key
        self.open: bool = True
        self.call_id: str | None = None  # a call's id, opaque state wrapped in
        self.sig: str = ""  # opaque state, joined as it comes
        self.parent: str | None = None  # the wire key it ends with (a row's sub)
        self.fresh: bool = True  # no delta since it opened (or since its last separator)


class _ItemBlock:
    """A block (or a group of blocks) on the wire: the state this protocol's compiled code keeps."""

    __slots__ = (
        "kind",
        "ev",
        "key",
        "index",
        "started",
        "ended",
        "args",
        "wid",
        "group",
        "part",
        "pieces",
        "deltas",
        "parts",
        "children",
    )

    def __init__(self, kind: str, ev: Any, key: str) -> None:
        self.kind: str = kind  # text, reasoning, tool_call or group
        self.ev: Any = ev  # the start event (tool calls: id and name)
        self.key: str = key  # canonical key
        self.index: int = -1
        self.started: bool = False  # its start event went out
        self.ended: bool = False
        self.args: bool = False  # argument text went out
        self.wid: str = ""  # wire item id (codec.ITEM_ID_PREFIXES)
        self.group: Any = None  # the group it is in
        self.part: int = 0  # position in its group
        self.pieces: list[str] = []  # its text / arguments (kinds the templates read)
        self.deltas: int = 0  # deltas sent (kinds the templates read)
        self.parts: dict[int, Any] = {}  # a group: finished parts by position
        self.children: list[Any] = []  # a group: its blocks


def _r0(v: Any) -> Any:  # delta
    if type(v) is not dict:
        return None
    v = v.get("delta")
    return v


def _r1(v: Any) -> Any:  # item_id
    if type(v) is not dict:
        return None
    v = v.get("item_id")
    return v


def _r2(v: Any) -> Any:  # output_index
    if type(v) is not dict:
        return None
    v = v.get("output_index")
    return v


def _r3(v: Any) -> Any:  # first of item_id, output_index
    if type(v) is not dict:
        return None
    x = v.get("item_id")
    if x is not None:
        return x
    x = v.get("output_index")
    if x is not None:
        return x
    return None


def _r4(v: Any) -> Any:  # content_index
    if type(v) is not dict:
        return None
    v = v.get("content_index")
    return v


def _r5(v: Any) -> Any:  # item.arguments
    if type(v) is not dict:
        return None
    v = v.get("item")
    if type(v) is not dict:
        return None
    v = v.get("arguments")
    return v


def _r6(v: Any) -> Any:  # item.call_id
    if type(v) is not dict:
        return None
    v = v.get("item")
    if type(v) is not dict:
        return None
    v = v.get("call_id")
    return v


def _r7(v: Any) -> Any:  # item.id
    if type(v) is not dict:
        return None
    v = v.get("item")
    if type(v) is not dict:
        return None
    v = v.get("id")
    return v


def _r8(v: Any) -> Any:  # first of item.call_id, item.id
    x = _r6(v)
    if x is not None:
        return x
    x = _r7(v)
    if x is not None:
        return x
    return None


def _r9(v: Any) -> Any:  # first of item.id, output_index
    if type(v) is not dict:
        return None
    x = _r7(v)
    if x is not None:
        return x
    x = v.get("output_index")
    if x is not None:
        return x
    return None


def _r10(v: Any) -> Any:  # item.name
    if type(v) is not dict:
        return None
    v = v.get("item")
    if type(v) is not dict:
        return None
    v = v.get("name")
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
                "sequence_number": next(s.seq),
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
                "sequence_number": next(s.seq),
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
                "sequence_number": next(s.seq),
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
                "sequence_number": next(s.seq),
                "type": "response.output_item.done",
                "output_index": i,
                "item": s.keep(
                    {
                        "id": s.cur.wid,
                        "type": "message",
                        "status": s.status,
                        "role": "assistant",
                        "content": [v for _, v in sorted(s.cur.parts.items())],
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
                "sequence_number": next(s.seq),
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
                "sequence_number": next(s.seq),
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
                "sequence_number": next(s.seq),
                "type": "response.output_text.done",
                "item_id": s.cur.wid,
                "output_index": i,
                "content_index": s.cur.part,
                "text": "".join(s.cur.pieces),
                "logprobs": [],
            }
        )
        + b"\n\n"
    )
    out.append(
        b"event: response.content_part.done\ndata: "
        + _dumps(
            {
                "sequence_number": next(s.seq),
                "type": "response.content_part.done",
                "item_id": s.cur.wid,
                "output_index": i,
                "content_index": s.cur.part,
                "part": _keep_part(
                    s,
                    {
                        "type": "output_text",
                        "text": "".join(s.cur.pieces),
                        "annotations": [],
                        "logprobs": [],
                    },
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
                "sequence_number": next(s.seq),
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
                    "sequence_number": next(s.seq),
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
                "sequence_number": next(s.seq),
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
                    "sequence_number": next(s.seq),
                    "type": "response.reasoning_summary_text.done",
                    "item_id": s.cur.wid,
                    "output_index": i,
                    "summary_index": 0,
                    "text": "".join(s.cur.pieces),
                }
            )
            + b"\n\n"
        )
    if s.cur.deltas > 0:
        out.append(
            b"event: response.reasoning_summary_part.done\ndata: "
            + _dumps(
                {
                    "sequence_number": next(s.seq),
                    "type": "response.reasoning_summary_part.done",
                    "item_id": s.cur.wid,
                    "output_index": i,
                    "summary_index": 0,
                    "part": {"type": "summary_text", "text": "".join(s.cur.pieces)},
                }
            )
            + b"\n\n"
        )
    if s.cur.deltas > 0:
        out.append(
            b"event: response.output_item.done\ndata: "
            + _dumps(
                {
                    "sequence_number": next(s.seq),
                    "type": "response.output_item.done",
                    "output_index": i,
                    "item": s.keep(
                        {
                            "id": s.cur.wid,
                            "type": "reasoning",
                            "summary": [{"type": "summary_text", "text": "".join(s.cur.pieces)}],
                            **(
                                {"encrypted_content": _o0}
                                if (
                                    _o0 := _signature_for(
                                        ev.owner,
                                        "".join(s.cur.pieces),
                                        ev.signature,
                                        ev.redacted,
                                        s.codec,
                                    )
                                )
                                is not None
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
                    "sequence_number": next(s.seq),
                    "type": "response.output_item.done",
                    "output_index": i,
                    "item": s.keep(
                        {
                            "id": s.cur.wid,
                            "type": "reasoning",
                            "summary": [],
                            **(
                                {"encrypted_content": _o0}
                                if (
                                    _o0 := _signature_for(
                                        ev.owner,
                                        "".join(s.cur.pieces),
                                        ev.signature,
                                        ev.redacted,
                                        s.codec,
                                    )
                                )
                                is not None
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
                "sequence_number": next(s.seq),
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
                "sequence_number": next(s.seq),
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
                    "sequence_number": next(s.seq),
                    "type": "response.function_call_arguments.done",
                    "item_id": s.cur.wid,
                    "output_index": i,
                    "arguments": "".join(s.cur.pieces),
                }
            )
            + b"\n\n"
        )
    out.append(
        b"event: response.output_item.done\ndata: "
        + _dumps(
            {
                "sequence_number": next(s.seq),
                "type": "response.output_item.done",
                "output_index": i,
                "item": s.keep(
                    {
                        "id": s.cur.wid,
                        "type": "function_call",
                        "status": s.status,
                        "call_id": s.cur.ev.id,
                        "name": s.cur.ev.name,
                        "arguments": "".join(s.cur.pieces),
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
                "sequence_number": next(s.seq),
                "type": "error",
                "code": _raw_error_type(ev.error, s.pid, s.codec),
                "message": ev.error.message,
                "param": None,
                "error": {
                    "type": _raw_error_type(ev.error, s.pid, s.codec),
                    "code": _raw_error_type(ev.error, s.pid, s.codec),
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
                "sequence_number": next(s.seq),
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
                    "output": [v for _, v in sorted(s.kept.items())],
                    "usage": s.usage_wire(),
                    "error": {
                        "code": _raw_error_type(ev.error, s.pid, s.codec),
                        "message": ev.error.message,
                    },
                },
            }
        )
        + b"\n\n"
    )
    return b"".join(out)


def _ending(s: Any, ev: Any, out: list[Any]) -> None:
    if s.finish_raw in ("max_output_tokens", "content_filter", "incomplete"):
        out.append(
            b"event: response.incomplete\ndata: "
            + _dumps(
                {
                    "sequence_number": next(s.seq),
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
                        "output": [v for _, v in sorted(s.kept.items())],
                        "usage": s.usage_wire(),
                    },
                }
            )
            + b"\n\n"
        )
    if s.finish_raw not in ("max_output_tokens", "content_filter", "incomplete"):
        out.append(
            b"event: response.completed\ndata: "
            + _dumps(
                {
                    "sequence_number": next(s.seq),
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
                        "output": [v for _, v in sorted(s.kept.items())],
                        "usage": s.usage_wire(),
                    },
                }
            )
            + b"\n\n"
        )


def _begin_text(s: Any, b: Any, out: list[Any]) -> None:
    g = s.group
    if g is None:
        g = s.group = _ItemBlock("group", None, b.key)
        g.started = True
        s.counters["all"] = g.index = s.counters.get("all", -1) + 1
        g.wid = s.wire_id("text", b.key, g.index)
        s.cur = g
        out.append(_group_start(s, None, g.index))
    b.group, b.index, b.part, b.wid = g, g.index, len(g.children), g.wid
    g.children.append(b)
    s.cur = b
    out.append(_text_start(s, b.ev, b.index))


def _begin_reasoning(s: Any, b: Any, out: list[Any]) -> None:
    _end_group(s, out)
    s.counters["all"] = b.index = s.counters.get("all", -1) + 1
    b.wid = s.wire_id("reasoning", b.key, b.index)
    s.cur = b
    out.append(_reasoning_start(s, b.ev, b.index))


def _begin_tool_call(s: Any, b: Any, out: list[Any]) -> None:
    _end_group(s, out)
    s.counters["all"] = b.index = s.counters.get("all", -1) + 1
    s.calls += 1
    b.wid = s.wire_id("tool_call", b.key, b.index)
    s.cur = b
    out.append(_tool_call_start(s, b.ev, b.index))


def _finish_text(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if not b.started:
        b.started = True
        _begin_text(s, b, out)
    b.ended = True
    s.cur = b
    out.append(_text_end(s, ev, b.index))


def _finish_reasoning(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if type(ev) is not _ReasoningEnd:
        ev = _ReasoningEnd(key=b.key)
    if not b.started:
        b.started = True
        _begin_reasoning(s, b, out)
    b.ended = True
    s.cur = b
    out.append(_reasoning_end(s, ev, b.index))


def _finish_tool_call(s: Any, b: Any, ev: Any, out: list[Any]) -> None:
    if not b.started:
        b.started = True
        _begin_tool_call(s, b, out)
    if not b.args and s.status == "completed":  # a cut call's arguments never ended
        _args(s, b, _ToolCallDelta(key=b.key, arguments="{}"), out)
    b.ended = True
    s.cur = b
    out.append(_tool_call_end(s, ev, b.index))


def _end_group(s: Any, out: list[Any]) -> None:
    g, s.group = s.group, None
    if g is None:
        return
    for b in g.children:
        if not b.ended:
            _finish_text(s, b, None, out)
    g.ended = True
    s.cur = g
    out.append(_group_end(s, None, g.index))


def _keep_part(s: Any, part: Any) -> Any:
    s.cur.group.parts[s.cur.part] = part
    return part


def _on_TextDelta(s: Any, ev: Any, out: list[Any]) -> None:
    b = s.blocks.get(ev.key)
    if b is None or b.ended or b.kind != "text":
        b = s.blocks[ev.key] = _ItemBlock("text", ev, ev.key)
    if not b.started:
        b.started = True
        _begin_text(s, b, out)
    b.deltas += 1
    b.pieces.append(ev.text)
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


def _close_text(m: Any, b: Any, out: list[Any]) -> None:
    out.append(_TextEnd(key=b.key))


def _close_tool_call(m: Any, b: Any, out: list[Any]) -> None:
    out.append(_ToolCallEnd(key=b.key))


def _close_reasoning(m: Any, b: Any, out: list[Any]) -> None:
    owner = m.pid if b.sig else None
    out.append(_ReasoningEnd(key=b.key, signature=b.sig or None, owner=owner))


def _close_ignored(m: Any, b: Any, out: list[Any]) -> None:
    pass  # (reported when it opened)


def _block0(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[0]
    text = t if (t := _r0(w)) and type(t) is str else None
    wkey = str(k if (k := _r3(w)) is not None else pos)
    parent = wkey
    wkey = f"{parent}:{s if (s := _r4(w)) is not None else 0}"
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        b = m._new("text", wkey)
        out.append(_TextStart(key=b.key))
        b.parent = parent  # it ends with the block of its key
    if text:
        b.fresh = False
    kind = b.kind
    # (text at the key of a tool call is not the call's)
    if kind == "ignored" or (text and kind == "tool_call"):
        if text:
            m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))


def _block1(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[1]
    args = a if type(a := _r0(w)) is str else None
    wkey = str(k if (k := _r3(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        if args:
            m.ignored += 1
        return
    if args:
        b.fresh = False
    kind = b.kind
    if kind == "ignored" and args:
        m.ignored += 1
    if kind == "tool_call" and args:
        out.append(_new_ToolCallDelta(key=b.key, arguments=args))


def _block4(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[4]
    args = a if type(a := _r5(w)) is str else None
    cid = _r8(w)
    wkey = str(k if (k := _r9(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is not None and b.open and cid and b.call_id is not None and str(cid) != b.call_id:
        m._close(b, out)  # a new call id at a known key: a new call
    if b is None or not b.open:
        b = m._new("tool_call", wkey)
        b.call_id = str(cid) if cid else f"call_interlingua_{m.calls}"
        m.calls += 1
        out.append(
            _ToolCallStart(key=b.key, id=b.call_id, name=n if type(n := _r10(w)) is str else "")
        )
    if args:
        b.fresh = False
    kind = b.kind
    if kind == "ignored" and args:
        m.ignored += 1
    if kind == "tool_call" and args:
        out.append(_new_ToolCallDelta(key=b.key, arguments=args))


def _block5(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[5]
    wkey = str(k if (k := _r9(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        b = m._new("reasoning", wkey)
        out.append(_ReasoningStart(key=b.key))


def _block6(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[6]
    wkey = str(k if (k := _r9(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        b = m._new("ignored", wkey)
        m.ignored += 1
        m.drop(
            (
                f"response.output_item.added[{n}]"
                if type(n := _r11(w)) is str and n
                else "response.output_item.added"
            ),
            "event",
        )


def _block7(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[7]
    text = (
        t
        if (t := _r12(w)) and type(t) is str
        else (t if (t := _r13(w)) and type(t) is str else None)
    )
    wkey = str(k if (k := _r3(w)) is not None else pos)
    parent = wkey
    wkey = f"{parent}:{s if (s := _r4(w)) is not None else 0}"
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        b = m._new("text", wkey)
        out.append(_TextStart(key=b.key))
        b.parent = parent  # it ends with the block of its key
    if text:
        b.fresh = False
    kind = b.kind
    # (text at the key of a tool call is not the call's)
    if kind == "ignored" or (text and kind == "tool_call"):
        if text:
            m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))


def _block9(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[9]
    text = (
        t
        if (t := _r14(w)) and type(t) is str
        else (t if (t := _r15(w)) and type(t) is str else None)
    )
    wkey = str(k if (k := _r3(w)) is not None else pos)
    parent = wkey
    wkey = f"{parent}:{s if (s := _r4(w)) is not None else 0}"
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        return
    if not b.fresh:
        text = None
    elif text:
        b.fresh = False
    kind = b.kind
    # (text at the key of a tool call is not the call's)
    if kind == "ignored" or (text and kind == "tool_call"):
        if text:
            m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))


def _block10(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[10]
    wkey = str(k if (k := _r3(w)) is not None else pos)
    parent = wkey
    wkey = f"{parent}:{s if (s := _r4(w)) is not None else 0}"
    b = m.blocks.get(wkey)
    for o in [o for o in m.open if o.parent == wkey]:
        m._close(o, out)
    if b is None or not b.open:
        return
    m._close(b, out)


def _block11(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[11]
    args = a if type(a := _r16(w)) is str else None
    wkey = str(k if (k := _r3(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        return
    if not b.fresh:
        args = None
    elif args:
        b.fresh = False
    kind = b.kind
    if kind == "ignored" and args:
        m.ignored += 1
    if kind == "tool_call" and args:
        out.append(_new_ToolCallDelta(key=b.key, arguments=args))


def _block12(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[12]
    wkey = str(k if (k := _r3(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        return
    if not b.fresh and (new := _DELTA.get(b.kind)) is not None:
        out.append(new(key=b.key, text="\n\n"))
    b.fresh = True


def _block13(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[13]
    text = t if (t := _r0(w)) and type(t) is str else None
    wkey = str(k if (k := _r3(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        if text:
            m.ignored += 1
        return
    if text:
        b.fresh = False
    kind = b.kind
    # (text at the key of a tool call is not the call's)
    if kind == "ignored" or (text and kind == "tool_call"):
        if text:
            m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))


def _block14(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[14]
    text = t if (t := _r14(w)) and type(t) is str else None
    wkey = str(k if (k := _r3(w)) is not None else pos)
    b = m.blocks.get(wkey)
    if b is None or not b.open:
        return
    if not b.fresh:
        text = None
    elif text:
        b.fresh = False
    kind = b.kind
    # (text at the key of a tool call is not the call's)
    if kind == "ignored" or (text and kind == "tool_call"):
        if text:
            m.ignored += 1
    elif text:
        out.append(_DELTA[kind](key=b.key, text=text))


def _block16(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[16]
    args = a if type(a := _r5(w)) is str else None
    wkey = str(k if (k := _r9(w)) is not None else pos)
    b = m.blocks.get(wkey)
    for o in [o for o in m.open if o.parent == wkey]:
        m._close(o, out)
    if b is None or not b.open:
        return
    if not b.fresh:
        args = None
    elif args:
        b.fresh = False
    kind = b.kind
    if kind == "ignored" and args:
        m.ignored += 1
    if kind == "tool_call" and args:
        out.append(_new_ToolCallDelta(key=b.key, arguments=args))
    m._close(b, out)


def _block17(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[17]
    sig = x if (x := _r17(w)) and type(x) is str else None
    wkey = str(k if (k := _r9(w)) is not None else pos)
    b = m.blocks.get(wkey)
    for o in [o for o in m.open if o.parent == wkey]:
        m._close(o, out)
    if b is None or not b.open:
        return
    kind = b.kind
    if kind == "ignored":
        m.ignored += 1
    if kind == "reasoning" and sig:
        b.sig += sig
    m._close(b, out)


def _block18(m: Any, w: Any, pos: Any, out: list[Any]) -> None:
    # spec/protocols/openai_responses.yaml: stream.decode[18]
    wkey = str(k if (k := _r9(w)) is not None else pos)
    b = m.blocks.get(wkey)
    for o in [o for o in m.open if o.parent == wkey]:
        m._close(o, out)
    if b is None or not b.open:
        return
    m._close(b, out)


def dispatch(m: Any, d: Any, out: list[Any]) -> bool:
    if type(d) is not dict:
        return False
    kind = d.get("type")
    if kind == "response.output_text.delta":
        v = d.get("delta")
        if (
            b := m.blocks.get(
                f"{d.get('item_id')}:{_s if (_s := d.get('content_index')) is not None else 0}"
            )
        ) is None or not b.open:
            _block0(m, d, None, out)
        elif v and type(v) is str:
            if (new := _DELTA.get(b.kind)) is None:
                _block0(m, d, None, out)
            else:
                out.append(new(key=b.key, text=v))
                b.fresh = False
        return True
    if kind == "response.refusal.delta":
        v = d.get("delta")
        if (
            b := m.blocks.get(
                f"{d.get('item_id')}:{_s if (_s := d.get('content_index')) is not None else 0}"
            )
        ) is None or not b.open:
            _block0(m, d, None, out)
        elif v and type(v) is str:
            if (new := _DELTA.get(b.kind)) is None:
                _block0(m, d, None, out)
            else:
                out.append(new(key=b.key, text=v))
                b.fresh = False
        return True
    if kind == "response.function_call_arguments.delta":
        v = d.get("delta")
        if (b := m.blocks.get(f"{d.get('item_id')}")) is None or not b.open:
            _block1(m, d, None, out)
        elif v and type(v) is str:
            if b.kind != "tool_call":
                _block1(m, d, None, out)
            else:
                out.append(_new_ToolCallDelta(key=b.key, arguments=v))
                b.fresh = False
        return True
    if kind == "response.created":
        if m.msg_id is None:
            start = _StreamStart(
                id=str(_x)
                if (_x := (_v.get("id") if type(_v := d.get("response")) is dict else None))
                else None,
                model=_x
                if type(_x := (_v.get("model") if type(_v := d.get("response")) is dict else None))
                is str
                and _x
                else None,
                created=_x
                if type(
                    _x := (_v.get("created_at") if type(_v := d.get("response")) is dict else None)
                )
                is int
                else None,
            )
            m.msg_id = start.id or ""
            out.insert(0, start)
        return True
    if kind == "response.in_progress":
        if m.msg_id is None:
            start = _StreamStart(
                id=str(_x)
                if (_x := (_v.get("id") if type(_v := d.get("response")) is dict else None))
                else None,
                model=_x
                if type(_x := (_v.get("model") if type(_v := d.get("response")) is dict else None))
                is str
                and _x
                else None,
                created=_x
                if type(
                    _x := (_v.get("created_at") if type(_v := d.get("response")) is dict else None)
                )
                is int
                else None,
            )
            m.msg_id = start.id or ""
            out.insert(0, start)
        return True
    if kind == "response.queued":
        if m.msg_id is None:
            start = _StreamStart(
                id=str(_x)
                if (_x := (_v.get("id") if type(_v := d.get("response")) is dict else None))
                else None,
                model=_x
                if type(_x := (_v.get("model") if type(_v := d.get("response")) is dict else None))
                is str
                and _x
                else None,
                created=_x
                if type(
                    _x := (_v.get("created_at") if type(_v := d.get("response")) is dict else None)
                )
                is int
                else None,
            )
            m.msg_id = start.id or ""
            out.insert(0, start)
        return True
    if kind == "response.output_item.added":
        w0 = _v.get("type") if type(_v := d.get("item")) is dict else None
        if w0 == "message":
            return True
        if w0 == "function_call":
            _block4(m, d, None, out)
            return True
        if w0 == "reasoning":
            _block5(m, d, None, out)
            return True
        _block6(m, d, None, out)
        return True
    if kind == "response.content_part.added":
        w1 = _v.get("type") if type(_v := d.get("part")) is dict else None
        if w1 in ("output_text", "refusal"):
            _block7(m, d, None, out)
            return True
        return True
    if kind == "response.output_text.done":
        _block9(m, d, None, out)
        return True
    if kind == "response.refusal.done":
        _block9(m, d, None, out)
        return True
    if kind == "response.content_part.done":
        _block10(m, d, None, out)
        return True
    if kind == "response.function_call_arguments.done":
        _block11(m, d, None, out)
        return True
    if kind == "response.reasoning_summary_part.added":
        _block12(m, d, None, out)
        return True
    if kind == "response.reasoning_summary_text.delta":
        v = d.get("delta")
        if (b := m.blocks.get(f"{d.get('item_id')}")) is None or not b.open:
            _block13(m, d, None, out)
        elif v and type(v) is str:
            if (new := _DELTA.get(b.kind)) is None:
                _block13(m, d, None, out)
            else:
                out.append(new(key=b.key, text=v))
                b.fresh = False
        return True
    if kind == "response.reasoning_text.delta":
        v = d.get("delta")
        if (b := m.blocks.get(f"{d.get('item_id')}")) is None or not b.open:
            _block13(m, d, None, out)
        elif v and type(v) is str:
            if (new := _DELTA.get(b.kind)) is None:
                _block13(m, d, None, out)
            else:
                out.append(new(key=b.key, text=v))
                b.fresh = False
        return True
    if kind == "response.reasoning_summary_text.done":
        _block14(m, d, None, out)
        return True
    if kind == "response.reasoning_text.done":
        _block14(m, d, None, out)
        return True
    if kind == "response.output_item.done":
        w2 = _v.get("type") if type(_v := d.get("item")) is dict else None
        if w2 == "function_call":
            _block16(m, d, None, out)
            return True
        if w2 == "reasoning":
            _block17(m, d, None, out)
            return True
        _block18(m, d, None, out)
        return True
    if kind == "response.completed":
        out += m._close_all()
        if type(u := (_v.get("usage") if type(_v := d.get("response")) is dict else None)) is dict:
            out.append(_UsageEvent(usage=m.usage_of(u)))
        raw = _r20(d)
        if raw is not None:
            fin = m.codec.decode_finish(raw, m.calls > 0, "response.incomplete_details.reason")
            m.finished = True
            out.append(_FinishEvent(finish=fin, stop_sequence=None))
        out += m._end("completed")
        return True
    if kind == "response.incomplete":
        out += m._close_all()
        if type(u := (_v.get("usage") if type(_v := d.get("response")) is dict else None)) is dict:
            out.append(_UsageEvent(usage=m.usage_of(u)))
        raw = _r20(d)
        if raw is not None:
            fin = m.codec.decode_finish(raw, m.calls > 0, "response.incomplete_details.reason")
            m.finished = True
            out.append(_FinishEvent(finish=fin, stop_sequence=None))
        out += m._end("completed")
        return True
    if kind == "response.failed":
        err = _v.get("error") if type(_v := d.get("response")) is dict else None
        if err:
            if type(err) is dict:
                fields = m.codec.read_error(err, _r21(err))
            else:
                fields = (_r21(d), err, *m.codec.read_error(d)[2:])
            info = _error_info(m.codec, m.pid, None, d, fields)
            out += m._end("failed", _ErrorEvent(error=info))
            return True
        return True
    if kind == "error":
        err = _r24(d)
        if err:
            if type(err) is dict:
                fields = m.codec.read_error(err, _r21(err))
            else:
                fields = (_r21(d), err, *m.codec.read_error(d)[2:])
            info = _error_info(m.codec, m.pid, None, d, fields)
            out += m._end("failed", _ErrorEvent(error=info))
            return True
        return True
    return kind in ("response.reasoning_summary_part.done",)


ROWS = StreamRows(
    protocol="openai_responses",
    dispatch=dispatch,
    block=_Block,
    done_sentinel=None,
    end_after_finish=False,
    close={
        "text": _close_text,
        "tool_call": _close_tool_call,
        "reasoning": _close_reasoning,
        "ignored": _close_ignored,
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
    id_default="resp_interlingua",
    finish={
        "text": _finish_text,
        "reasoning": _finish_reasoning,
        "tool_call": _finish_tool_call,
    },
    start=_start,
    error=_error,
    end=_ending,
    end_group=_end_group,
)
