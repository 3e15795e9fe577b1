"""Whole-part stream rows (the Gemini shape) on the tiny inline spec: item groups read per item,
lone signatures, calls with no id (synthesised, a signature riding in the id), arguments in
pieces joined by a named stream transform, a blocked-prompt finish, a list of events in one data
line; and the encoder writing whole parts (calls written when they end, optional keys, opaque
state on the next part). The generated module is imported and run by the generic machines;
malformed rows are refused with file, line and row."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import orjson
import pytest
from interlingua._sse import SSEDecoder
from interlingua.generated.canonical import (
    FinishEvent,
    ReasoningDelta,
    ReasoningEnd,
    ReasoningPart,
    ReasoningStart,
    StreamEnd,
    StreamStart,
    TextDelta,
    TextStart,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
)
from interlingua.streams.encoder import Encoder
from interlingua.streams.machine import Decoder
from interlingua.transforms.call_id_envelope import SYNTH_PREFIX, unwrap_id
from interlingua.transforms.envelopes import parts_signature

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

STREAM = """\
stream:
  match: all
  blocks: implicit
  end_after_finish: true
  batches: true
  missing_call_id: random
  decode:
    - {error: error}
    - {start: {id: rid, model: mv}}
    - {at: out, each: parts, present: call, when: {call.name: null, call.more: true}, key_const: pc,
       assemble: partial_args, pieces: call.bits}
    - {at: out, each: parts, present: call, when: {call.name: null}, key_const: pc,
       assemble: partial_args, pieces: call.bits, close: true}
    - {at: out, each: parts, present: call, when: {call.more: true}, key_const: pc, open: tool_call,
       call_id: call.id, name: call.name, signature: sig, assemble: partial_args, arguments_object: call.args}
    - {at: out, each: parts, present: call, key_const: call, open: tool_call, call_id: call.id,
       name: call.name, arguments_object: call.args, signature: sig, close: true}
    - {at: out, each: parts, when: {thought: true}, key_const: th, open: reasoning, text: t, signature: sig}
    - {at: out, each: parts, present: t, lone_signature: sig, key_const: tx, open: text, text: t}
    - {at: out, each: parts, present: sig, lone_signature: sig}
    - {finish: why}
    - {when: {out: null}, blocked: true}
    - {usage: use, present: use.tokens}
  encode:
    blocks: interleaved
    index: shared
    calls: whole
    id_default: tiny
    envelope: {rid: $id, mv: $model}
    events:
      text_delta: {out: {parts: [{t: $text, "sig?": $pending_signature}]}}
      reasoning_delta: {out: {parts: [{t: $text, thought: true, "sig?": $pending_signature}]}}
      reasoning_signature: {out: {parts: [{t: "", thought: true, sig: $signature}]}}
      tool_call_end: {out: {parts: [{call: {name: $name, args: $arguments_object, "id?": $bare_call_id},
                      "sig?": $pending_signature}]}}
    end:
      - body: {out: {parts: [{t: "", "sig?": $pending_signature}]}, why: $finish, use: $usage}
"""
BLOCKED = "response_envelope:\n  finish: why\n  blocked: {reason: blocked, finish: other}\n"
WITH_STREAM = PROTOCOL.replace("sse_event_names: true", "sse_event_names: false") + STREAM + BLOCKED


def _sse(*chunks: Any) -> bytes:
    return b"".join(b"data: " + orjson.dumps(c) + b"\r\n\r\n" for c in chunks)


def _parts(*parts: Any, **top: Any) -> dict[str, Any]:
    return {"out": {"parts": list(parts)}, **top}


WIRE = _sse(
    _parts(
        {"t": "hm", "thought": True}, {"t": "m", "thought": True, "sig": "S1"}, rid="r1", mv="m1"
    ),
    _parts({"t": "Hel", "sig": "S2"}, {"t": "lo"}),
    [  # one data line, two events
        _parts({"call": {"name": "add", "args": {"a": 1}}, "sig": "S3"}),
        _parts({"call": {"name": "mul", "more": True}}),
    ],
    _parts(
        {
            "call": {
                "bits": [{"jsonPath": "$.x", "stringValue": "ab", "willContinue": True}],
                "more": True,
            }
        }
    ),
    _parts(
        {
            "call": {
                "bits": [
                    {"jsonPath": "$.x", "stringValue": "cd"},
                    {"jsonPath": "$.n[1]", "numberValue": 2},
                ]
            }
        }
    ),
    _parts(
        {"sig": "S4"}, {"img": 1}, {"t": ""}, why="COMPLETE", use={"tokens": {"input_tokens": 3}}
    ),
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    codec = generate(tmp_path_factory.mktemp("tiny_parts"), WITH_STREAM)
    stream = importlib.import_module(codec.__name__.replace("_codec", "_stream"))
    return codec, stream.ROWS


def _decode(codec: Any, rows: Any, wire: bytes) -> tuple[list[Any], Decoder]:
    dec = Decoder(codec, rows)
    out: list[Any] = []
    for ev in SSEDecoder().feed(wire):
        out += dec.feed(ev)
    return out + dec.close(), dec


def _shape(events: list[Any]) -> list[tuple[Any, ...]]:
    """Events without keys and with synthesised ids reduced to their signature."""
    out: list[tuple[Any, ...]] = []
    for e in events:
        t = type(e)
        if t is ToolCallStart:
            clean, sig = unwrap_id(e.id)
            out.append((t.__name__, e.name, clean.startswith(SYNTH_PREFIX), sig))
        elif t in (TextDelta, ReasoningDelta):
            out.append((t.__name__, e.text))
        elif t is ToolCallDelta:
            out.append((t.__name__, orjson.loads(e.arguments)))
        elif t is ReasoningEnd:
            out.append((t.__name__, e.signature, e.owner))
        elif t is FinishEvent:
            out.append((t.__name__, e.finish.unified, e.finish.raw))
        elif t is StreamStart:
            out.append((t.__name__, e.id, e.model))
        elif t is StreamEnd:
            out.append((t.__name__, e.ending))
        else:
            out.append((t.__name__,))
    return out


def test_whole_parts_decode(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    events, dec = _decode(codec, rows, WIRE)
    assert _shape(events) == [
        ("StreamStart", "r1", "m1"),
        ("ReasoningStart",),
        ("ReasoningDelta", "hm"),
        ("ReasoningDelta", "m"),
        ("ReasoningEnd", "S1", "tiny_v2"),  # the text part's signature ends the open blocks
        ("ReasoningEnd", "S2", "tiny_v2"),  # a signature with no reasoning block, before its part
        ("TextStart",),
        ("TextDelta", "Hel"),
        ("TextDelta", "lo"),
        ("TextEnd",),
        ("ToolCallStart", "add", True, "S3"),  # no id: synthesised; the signature rides in it
        ("ToolCallDelta", {"a": 1}),
        ("ToolCallEnd",),
        ("ToolCallStart", "mul", True, None),
        ("ToolCallDelta", {"x": "abcd", "n": [None, 2]}),  # pieces joined when the call ends
        ("ToolCallEnd",),
        ("ReasoningEnd", "S4", "tiny_v2"),
        ("FinishEvent", "stop", "COMPLETE"),
        ("UsageEvent",),
        ("StreamEnd", "completed"),
    ]
    assert dec.ignored == 1  # {"img": 1}: no row takes it; {"t": ""} opens nothing
    assert len({e.key for e in events if type(e) in (ToolCallStart, ReasoningEnd)}) == 5


def test_implicit_blocks_end_when_another_kind_opens(tiny: tuple[Any, Any]) -> None:
    """``blocks: implicit`` is compiled into the opening steps: a block of another kind opening
    ends the open ones, but a call opening leaves the open calls open (parallel calls)."""
    codec, rows = tiny
    wire = _sse(
        _parts({"t": "hi"}),
        _parts({"call": {"name": "mul", "more": True}}),  # stays open (key pc)
        _parts({"call": {"name": "add", "args": {"a": 1}}}),  # opens and ends beside it
        _parts({"t": "ok"}, why="COMPLETE"),
    )
    events, _ = _decode(codec, rows, wire)
    starts = {e.key: e.name for e in events if type(e) is ToolCallStart}
    order = [(type(e).__name__, starts.get(e.key, "")) for e in events if hasattr(e, "key")]
    assert [x for x in order if x[0] not in _CONTENT] == [
        ("TextStart", ""),
        ("TextEnd", ""),  # a call opens
        ("ToolCallStart", "mul"),
        ("ToolCallStart", "add"),  # the other call stays open
        ("ToolCallEnd", "add"),
        ("ToolCallEnd", "mul"),  # text opens
        ("TextStart", ""),
        ("TextEnd", ""),
    ]


_CONTENT = ("TextDelta", "ToolCallDelta")


def test_whole_parts_encode_what_they_decode(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    events, _ = _decode(codec, rows, WIRE)
    enc = Encoder(codec, rows)
    wire = b"".join([b for ev in events for b in enc.feed(ev)] + enc.close())
    chunks = [orjson.loads(ev.data) for ev in SSEDecoder().feed(wire)]
    parts = [p for c in chunks for p in c["out"]["parts"]]
    # no lifecycle on the wire: one part per delta, calls whole, state on the next part
    assert parts == [
        {"t": "hm", "thought": True},
        {"t": "m", "thought": True},
        {"t": "", "thought": True, "sig": "S1"},
        {"t": "Hel", "sig": "S2"},
        {"t": "lo"},
        {"call": {"name": "add", "args": {"a": 1}}, "sig": "S3"},  # synthesised id left out
        {"call": {"name": "mul", "args": {"x": "abcd", "n": [None, 2]}}},
        {"t": "", "sig": "S4"},
    ]
    assert chunks[-1]["why"] == "COMPLETE" and chunks[-1]["use"]["tokens"]["input_tokens"] == 3
    assert all(c["rid"] == "r1" and c["mv"] == "m1" for c in chunks)
    again, _ = _decode(codec, rows, wire)
    merged = [e for e in _shape(events) if e != ("ReasoningDelta", "m")]
    assert [e for e in _shape(again) if e != ("ReasoningDelta", "m")] == merged
    assert enc.losses == []


def test_no_signature_no_part(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    events, _ = _decode(codec, rows, _sse(_parts({"t": "Hi"}, why="MAX_TOKENS")))
    enc = Encoder(codec, rows)
    wire = b"".join([b for ev in events for b in enc.feed(ev)] + enc.close())
    last = orjson.loads(list(SSEDecoder().feed(wire))[-1].data)
    assert last["out"] == {"parts": []} and last["why"] == "MAX_TOKENS"


def test_blocked_prompt_and_bad_arguments(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    events, _ = _decode(codec, rows, _sse({"blocked": "SAFETY"}))
    fin = next(e for e in events if type(e) is FinishEvent)
    assert (fin.finish.unified, fin.finish.raw) == ("other", "SAFETY")
    assert events[-1] == StreamEnd(ending="completed")
    enc = Encoder(codec, rows)
    feed = [
        StreamStart(id="x"),
        ToolCallStart(key="k", id="call_7", name="f"),
        ToolCallDelta(key="k", arguments='{"a":'),
        ToolCallEnd(key="k"),
        StreamEnd(ending="completed"),
    ]
    wire = b"".join(b for ev in feed for b in enc.feed(ev))
    call = orjson.loads(list(SSEDecoder().feed(wire))[0].data)["out"]["parts"][0]["call"]
    assert call == {"name": "f", "args": {}, "id": "call_7"}  # a real id is kept
    assert "tool_call" in [loss.feature for loss in enc.losses]


def test_cut_stream_is_disconnected(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    events, _ = _decode(codec, rows, _sse(_parts({"t": "par"})))
    assert [type(e) for e in events] == [StreamStart, TextStart, TextDelta, StreamEnd]
    assert events[-1] == StreamEnd(ending="disconnected")


def test_foreign_reasoning_folds_into_the_next_part_where_the_flag_says(
    tiny: tuple[Any, Any], tmp_path: Path
) -> None:
    """Another protocol's reasoning state (text and signature) waits for the next part that is
    no reasoning, as one envelope, where flags.foreign_reasoning is ``parts``: codegen compiles
    the holding (``_keep_foreign``, ``_take_folded``) into that protocol's module only; with the
    flag ``none`` the state is not carried (the text still is)."""
    flag = WITH_STREAM.replace("flags:\n", "flags:\n  foreign_reasoning: parts\n", 1)
    codec = generate(tmp_path, flag)
    stream = importlib.import_module(codec.__name__.replace("_codec", "_stream"))
    # the tiny spec has no other protocol: the CARRIER codegen makes (reasoning_items.carriers)
    # where one with flags.enveloped_reasoning is beside it
    codec.CARRIER = {**codec.CARRIER, "anthropic_messages": "parts"}
    feed = [
        StreamStart(id="x"),
        ReasoningStart(key="r"),
        ReasoningDelta(key="r", text="why"),
        ReasoningEnd(key="r", signature="SIG", owner="anthropic_messages"),
        ReasoningDelta(key="r2", text="more"),
        TextDelta(key="t", text="Hi"),
        StreamEnd(ending="completed"),
    ]

    def parts(c: Any, rows: Any) -> list[Any]:
        enc = Encoder(c, rows)
        wire = b"".join(b for ev in feed for b in enc.feed(ev))
        return [p for ev in SSEDecoder().feed(wire) for p in orjson.loads(ev.data)["out"]["parts"]]

    folded = parts_signature(
        [ReasoningPart(text="why", signature="SIG", owner="anthropic_messages")]
    )
    assert parts(codec, stream.ROWS)[:3] == [
        {"t": "why", "thought": True},
        {"t": "more", "thought": True},  # never on a reasoning part
        {"t": "Hi", "sig": folded},
    ]
    assert hasattr(stream, "_keep_foreign") and hasattr(stream, "_take_folded")
    plain_codec, plain_rows = tiny
    plain = importlib.import_module(plain_codec.__name__.replace("_codec", "_stream"))
    assert not hasattr(plain, "_keep_foreign") and not hasattr(plain, "_take_folded")
    assert parts(plain_codec, plain_rows)[:3] == [
        {"t": "why", "thought": True},
        {"t": "more", "thought": True},
        {"t": "Hi"},
    ]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "assemble: partial_args, pieces: call.bits}",
            "assemble: nowhere, pieces: call.bits}",
            "no stream transform runtime/streams/nowhere.py",
        ),
        ("  blocked: {reason: blocked, finish: other}\n", "", "no response_envelope.blocked row"),
        ("{finish: why}", "{finish: why, blocked: true}", "`blocked` reads the finish"),
        (
            "    - {at: out, each: parts, present: sig, lone_signature: sig}\n",
            "    - {at: out, each: parts, lone_signature: sig}\n    - {at: out, each: parts, present: sig}\n",
            "decode[9] {at: out, each: parts, present: sig}: never runs: stream.decode[8] takes",
        ),
        ('"id?": $bare_call_id', "id: $bare_call_id", ""),  # fine: the id is then always written
        (
            "text_delta: {out: {parts: [{t: $text,",
            "text_delta: {out: {parts: [{t: $bare_call_id,",
            "$bare_call_id is read only by tool_call_end with `calls: whole`",
        ),
        ("    calls: whole\n", "", "$arguments_object is read only by tool_call_end"),
        ("present: t, lone", "present: 't[0', lone", "bad path segment 't[0'"),
    ],
)
def test_bad_part_rows_are_refused_with_file_and_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert WITH_STREAM.count(old) == 1, old
    spec = write_spec(tmp_path, CANONICAL, WITH_STREAM.replace(old, new))
    if not message:
        load_spec(spec)
        return
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    text = str(info.value)
    assert message in text
    assert f"{spec / 'protocols' / 'tiny_v2.yaml'}:" in text
