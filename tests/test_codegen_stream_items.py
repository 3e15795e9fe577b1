"""Item-shaped stream rows (the OpenAI Responses form) on the tiny inline spec: parts keyed under
their item (`sub`), whole values used only when no delta came (`whole`), summary parts joined by
a `separator`, a typed error object (`error_type`); encoded with wire item ids (`ids`), text
parts grouped in one item (`group`), sequence numbers, kept items and parts (`$output`,
`$parts`), ending rows chosen by the finish and items a failure ends as incomplete. The
generated module is imported and run by the generic machines; bad rows are refused with file,
line and row."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from interlingua._sse import SSEDecoder
from interlingua.generated.canonical import (
    ErrorEvent,
    FinishEvent,
    ReasoningDelta,
    ReasoningEnd,
    StreamEnd,
    TextDelta,
    ToolCallDelta,
    UsageEvent,
)
from interlingua.streams.encoder import Encoder
from interlingua.streams.machine import Decoder

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

STREAM = """\
stream:
  recognise: kind
  skip_data: [END]
  decode:
    - {event: begin, start: {id: r.id, model: r.model}}
    - {event: item, when: {item.kind: msg}}
    - {event: item, when: {item.kind: call}, key: [item.id, at], open: tool_call, call_id: item.call, name: item.fn}
    - {event: item, when: {item.kind: think}, key: [item.id, at], open: reasoning}
    - {event: text, key: [iid, at], sub: part, open: text, text: d}
    - {event: text-done, key: [iid, at], sub: part, text: whole, whole: true}
    - {event: args, key: [iid, at], arguments: d}
    - {event: args-done, key: [iid, at], arguments: whole, whole: true}
    - {event: think-part, key: [iid, at], separator: "\\n\\n"}
    - {event: think, key: [iid, at], text: d}
    - {event: item-done, when: {item.kind: think}, key: [item.id, at], signature: item.state, close: true}
    - {event: item-done, key: [item.id, at], close: true}
    - {event: done, usage: r.use, finish: [r.why, r.status], end: true}
    - {event: failed, error: r.error, error_type: code}
  encode:
    blocks: interleaved
    index: shared
    group: text
    id_default: r_tiny
    ids: {text: m_, reasoning: t_, tool_call: c_}
    item_key: item
    part_key: piece
    envelope: {seq: $seq}
    defs:
      r: {id: $id, model: $model}
    events:
      start: {kind: begin, r: {$use: r}}
      group_start: {kind: item, at: $index, item: {id: $item_id, kind: msg}}
      group_end: {kind: item-done, at: $index, item: {id: $item_id, kind: msg, status: $status, parts: $parts}}
      text_start: {kind: text, iid: $item_id, at: $index, part: $part, d: ""}
      text_delta: {kind: text, iid: $item_id, at: $index, part: $part, d: $text}
      text_end: {kind: text-done, iid: $item_id, at: $index, part: $part, whole: $text_all, piece: {text: $text_all}}
      reasoning_start: {kind: item, at: $index, item: {id: $item_id, kind: think}}
      reasoning_delta:
        - {if: first, body: {kind: think-part, iid: $item_id, at: $index}}
        - body: {kind: think, iid: $item_id, at: $index, d: $text}
      reasoning_end: {kind: item-done, at: $index,
                      item: {id: $item_id, kind: think, "state?": $encrypted, "status?": $status_failed}}
      tool_call_start: {kind: item, at: $index, item: {id: $item_id, kind: call, call: $call_id, fn: $name}}
      tool_call_delta: {kind: args, iid: $item_id, at: $index, d: $arguments}
      tool_call_end:
        - {if: completed, body: {kind: args-done, iid: $item_id, at: $index, whole: $arguments_all}}
        - body: {kind: item-done, at: $index, item: {id: $item_id, kind: call, call: $call_id, fn: $name,
                 status: $status, args: $arguments_all}}
      error:
        - body: {kind: failed, r: {$use: r, error: {code: $error_type, message: $error}, output: $output}}
    end:
      - {finish_in: [MAX_TOKENS], body: {kind: done, r: {$use: r, why: $finish, output: $output, use: $usage}}}
      - {finish_not_in: [MAX_TOKENS], body: {kind: done, r: {$use: r, status: $finish, output: $output, use: $usage}}}
"""
WITH_STREAM = PROTOCOL + STREAM


def _sse(*events: dict[str, Any]) -> bytes:
    return b"".join(
        f"event: {e['kind']}\ndata: {json.dumps(e)}\n\n".encode() if e else b"data: END\n\n"
        for e in events
    )


WIRE = _sse(
    {"kind": "begin", "r": {"id": "r1", "model": "tiny-1"}},
    {"kind": "item", "at": 0, "item": {"id": "m_1", "kind": "msg"}},
    {"kind": "text", "iid": "m_1", "at": 0, "part": 0, "d": "Hel"},
    {"kind": "text", "iid": "m_1", "at": 0, "part": 0, "d": "lo"},
    {"kind": "text-done", "iid": "m_1", "at": 0, "part": 0, "whole": "Hello"},
    {"kind": "item-done", "at": 0, "item": {"id": "m_1", "kind": "msg"}},
    {"kind": "item", "at": 1, "item": {"id": "t_1", "kind": "think"}},
    {"kind": "think-part", "iid": "t_1", "at": 1},
    {"kind": "think", "iid": "t_1", "at": 1, "d": "a"},
    {"kind": "think-part", "iid": "t_1", "at": 1},
    {"kind": "think", "iid": "t_1", "at": 1, "d": "b"},
    {"kind": "item-done", "at": 1, "item": {"id": "t_1", "kind": "think", "state": "S"}},
    {"kind": "item", "at": 2, "item": {"id": "c_1", "kind": "call", "call": "k1", "fn": "add"}},
    {"kind": "args-done", "iid": "c_1", "at": 2, "whole": '{"a":1}'},
    {"kind": "item-done", "at": 2, "item": {"id": "c_1", "kind": "call"}},
    {"kind": "done", "r": {"status": "COMPLETE", "use": {"tokens": {"input_tokens": 3}}}},
    {},  # END: skipped
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    codec = generate(tmp_path_factory.mktemp("tiny_items"), WITH_STREAM)
    stream = importlib.import_module(codec.__name__.replace("_codec", "_stream"))
    return codec, stream.ROWS


def _decode(codec: Any, rows: Any, wire: bytes) -> list[Any]:
    dec = Decoder(codec, rows)
    out: list[Any] = []
    for ev in SSEDecoder().feed(wire):
        out += dec.feed(ev)
    return out + dec.close()


def _encode(codec: Any, rows: Any, events: list[Any]) -> bytes:
    enc = Encoder(codec, rows)
    return b"".join([b for ev in events for b in enc.feed(ev)] + enc.close())


def _bodies(wire: bytes) -> list[dict[str, Any]]:
    return [json.loads(e.data) for e in SSEDecoder().feed(wire)]


def test_item_rows_decode(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    events = _decode(codec, rows, WIRE)
    assert "".join(e.text for e in events if type(e) is TextDelta) == "Hello"  # not twice
    assert "".join(e.text for e in events if type(e) is ReasoningDelta) == "a\n\nb"
    (end,) = [e for e in events if type(e) is ReasoningEnd]
    assert (end.signature, end.owner) == ("S", "tiny_v2")
    assert [e.arguments for e in events if type(e) is ToolCallDelta] == ['{"a":1}']
    (fin,) = [e for e in events if type(e) is FinishEvent]
    assert fin.finish.unified == "stop"
    assert events[-1] == StreamEnd(ending="completed")


def test_item_rows_encode_what_they_decode(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    events = _decode(codec, rows, WIRE)
    wire = _encode(codec, rows, events)
    bodies = _bodies(wire)
    assert [b["seq"] for b in bodies] == list(range(len(bodies)))
    done = [b["item"] for b in bodies if b["kind"] == "item-done"]
    assert [i["id"] for i in done] == ["m_1", "t_1", "c_1"]  # the source's ids, kept
    assert done[0]["parts"] == [{"text": "Hello"}]
    assert done[1] == {"id": "t_1", "kind": "think", "state": "S"}  # no status: completed
    assert done[2]["args"] == '{"a":1}' and done[2]["status"] == "completed"
    assert bodies[-1]["r"]["output"] == done and bodies[-1]["r"]["status"] == "COMPLETE"
    again = _decode(codec, rows, wire)
    assert [e for e in again if type(e) is not UsageEvent] == [
        e for e in events if type(e) is not UsageEvent
    ]
    assert [e.usage.input_total for e in again if type(e) is UsageEvent] == [3]


def test_item_ids_come_from_the_codecs_one_table(tiny: tuple[Any, Any]) -> None:
    # the `ids` row is compiled once, into the codec, which responses read too (ItemIds)
    codec, rows = tiny
    assert codec.ITEM_ID_PREFIXES == {"text": "m_", "reasoning": "t_", "tool_call": "c_"}
    assert not hasattr(rows, "ids")
    foreign = WIRE.replace(b'"m_1"', b'"x1"').replace(b'"c_1"', b'"t_1"')  # no / another prefix
    done = [
        b["item"]["id"]
        for b in _bodies(_encode(codec, rows, _decode(codec, rows, foreign)))
        if b["kind"] == "item-done"
    ]
    assert done == ["m_interlingua_r1_0", "t_1", "c_interlingua_r1_2"]


def test_item_rows_end_by_finish_and_fail_as_incomplete(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    events = _decode(codec, rows, WIRE.replace(b'"status": "COMPLETE"', b'"why": "MAX_TOKENS"'))
    last = _bodies(_encode(codec, rows, events))[-1]
    assert last["r"]["why"] == "MAX_TOKENS" and "status" not in last["r"]
    # cut inside the call: the open items end incomplete, then the error template
    cut = WIRE[: WIRE.index(b"event: args-done")]
    bodies = _bodies(_encode(codec, rows, _decode(codec, rows, cut)))
    assert not any(b["kind"] == "args-done" for b in bodies)
    call = [b["item"] for b in bodies if b["kind"] == "item-done"][-1]
    assert (call["status"], call["args"]) == ("incomplete", "")
    assert bodies[-1]["kind"] == "failed"
    assert bodies[-1]["r"]["error"]["code"] == "internal"
    assert bodies[-1]["r"]["output"][-1] == call


def test_a_cut_stream_ends_its_open_group_part_first(tiny: tuple[Any, Any]) -> None:
    """The group's end is compiled only where the encode section has a group (``_end_group``,
    ``ROWS.end_group``, codegen/stream_lifecycle.group_funcs): a stream cut inside the message
    ends its open text part (kept for ``$parts``), then the message item as incomplete, then
    the error (a protocol without a group has none of it: test_codegen_stream)."""
    codec, rows = tiny
    stream = importlib.import_module(codec.__name__.replace("_codec", "_stream"))
    assert rows.end_group is stream._end_group
    assert {"group", "part", "parts", "children"} <= set(stream._ItemBlock.__slots__)
    cut = WIRE[: WIRE.index(b"event: text-done")]
    bodies = _bodies(_encode(codec, rows, _decode(codec, rows, cut)))
    assert [b["kind"] for b in bodies[-3:]] == ["text-done", "item-done", "failed"]
    msg = bodies[-2]["item"]
    assert (msg["id"], msg["status"], msg["parts"]) == ("m_1", "incomplete", [{"text": "Hello"}])
    assert bodies[-1]["r"]["output"] == [msg]


def test_error_object_type_read_where_the_row_says() -> None:
    """Responses response.failed: {code, message} (error_type: code), not the HTTP body shape."""
    from interlingua.streams import stream_decoder

    dec = stream_decoder("openai_responses")
    failed = {"type": "response.failed", "response": {"error": {"code": "insufficient_quota",
                                                                "message": "no"}}}  # fmt: skip
    events = [e for ev in SSEDecoder().feed(_sse_typed(failed)) for e in dec.feed(ev)]
    (err,) = [e for e in events if type(e) is ErrorEvent]
    assert (err.error.type, err.error.message, err.error.status) == ("rate_limit", "no", 429)
    # the error event, nested (as recorded) or flat (as the SDK types it): code is the type
    nested = {"type": "error", "error": {"type": "invalid_request_error", "message": "bad"}}
    flat = {"type": "error", "code": "insufficient_quota", "message": "slow", "param": "model"}
    for d, want in ((nested, ("invalid_request", "bad")), (flat, ("rate_limit", "slow"))):
        dec = stream_decoder("openai_responses")
        events = [e for ev in SSEDecoder().feed(_sse_typed(d)) for e in dec.feed(ev)]
        (err,) = [e for e in events if type(e) is ErrorEvent]
        assert (err.error.type, err.error.message) == want
    # the flat event's own code and param are the error's (its param was lost)
    assert (err.error.code, err.error.param) == ("insufficient_quota", "model")


def _sse_typed(d: dict[str, Any]) -> bytes:
    return f"event: {d['type']}\ndata: {json.dumps(d)}\n\n".encode()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "key: [iid, at], sub: part, open: text",
            "key_const: t, sub: part, open: text",
            "needs `key`",
        ),
        ("arguments: whole, whole: true", "whole: true", "`whole` needs the row's `text`"),
        ("error: r.error, error_type: code", "error_type: code", "`error_type` is read in"),
        ("    group: text\n", "", "the group_start template needs `group`"),
        ("whole: $text_all, piece", "whole: $parts, piece", "$parts is the group's"),
        ("{if: first, body", "{finish_in: [X], body", "apply to end rows only"),
        (
            "whole: $text_all, piece",
            "whole: $encrypted, piece",
            "$encrypted is a reasoning end's: only in reasoning_end",
        ),
        ("r: {$use: r}}", "r: {$use: resp}}", "unknown def 'resp'"),
        ("{kind: begin, r:", "{kind: begin, x: $text_all, r:", "$text_all is a block's"),
        ("{if: first, body", "{if: firts, body", "Input should be 'usage'"),
    ],
)
def test_bad_item_rows_are_refused_with_file_and_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert WITH_STREAM.count(old) == 1, old
    spec = write_spec(tmp_path, CANONICAL, WITH_STREAM.replace(old, new))
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    text = str(info.value)
    assert message in text
    assert f"{spec / 'protocols' / 'tiny_v2.yaml'}:" in text


def test_caller_fields_go_into_every_named_body(tiny: tuple[Any, Any]) -> None:
    """The gateway sets stored-response fields on the encoder's ``envelope``: every ``$use``
    body carries them, under the row's own keys."""
    codec, rows = tiny
    enc = Encoder(codec, rows)
    enc.envelope.update({"prev": "r0", "model": "echoed"})
    events = _decode(codec, rows, WIRE)
    bodies = _bodies(b"".join([b for ev in events for b in enc.feed(ev)] + enc.close()))
    for b in (bodies[0], bodies[-1]):
        assert b["r"]["prev"] == "r0" and b["r"]["model"] == "echoed"
    assert bodies[-1]["r"]["status"] == "COMPLETE"
