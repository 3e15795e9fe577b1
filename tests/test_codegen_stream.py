"""Stream rows on the tiny inline spec: the generated stream module is imported and run by the
generic machines (decode, encode, decode again), and rows codegen cannot make sense of are
refused with file, line and row."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from interlingua._sse import SSEDecoder
from interlingua.generated.canonical import (
    FinishEvent,
    ReasoningEnd,
    StreamEnd,
    StreamStart,
    TextDelta,
    TextEnd,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
)
from interlingua.streams.encoder import Encoder
from interlingua.streams.machine import Decoder

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

STREAM = """\
stream:
  recognise: kind
  decode:
    - {event: begin, start: {id: id, model: model}, restart: fail}
    - {event: text, key: n, open: text, text: t}
    - {event: call, key: n, key_prefix: c, open: tool_call, call_id: call.id, name: call.fn,
       arguments: call.args}
    - {event: args, key: n, key_prefix: c, arguments: more}
    - {event: stop, key: n, close: true}
    - {event: call-stop, key: n, key_prefix: c, close: true}
    - {event: done, finish: why, usage: use, end: true}
    - {event: oops, error: message}
  encode:
    blocks: interleaved
    index: per_kind
    id_default: tiny
    events:
      start: {kind: begin, id: $id, model: $model}
      text_start: {kind: text, n: $index, t: ""}
      text_delta: {kind: text, n: $index, t: $text}
      text_end: {kind: stop, n: $index}
      tool_call_start: {kind: call, n: $index, call: {id: $call_id, fn: $name, args: ""}}
      tool_call_delta: {kind: args, n: $index, more: $arguments}
      tool_call_end: {kind: call-stop, n: $index}
      error: {kind: oops, message: $error}
    end:
      - body: {kind: done, why: $finish, use: $usage}
"""
WITH_STREAM = PROTOCOL + STREAM

WIRE = (
    b'event: begin\ndata: {"kind":"begin","id":"m1","model":"tiny-1"}\n\n'
    b'event: text\ndata: {"kind":"text","n":0,"t":"Hel"}\n\n'
    b'event: text\ndata: {"kind":"text","n":0,"t":"lo"}\n\n'
    b'event: stop\ndata: {"kind":"stop","n":0}\n\n'
    b'event: call\ndata: {"kind":"call","n":0,"call":{"id":"c_1","fn":"add","args":"{\\"a\\""}}\n\n'
    b'event: args\ndata: {"kind":"args","n":0,"more":":1}"}\n\n'
    b'event: call-stop\ndata: {"kind":"call-stop","n":0}\n\n'
    b'event: done\ndata: {"kind":"done","why":"MAX_TOKENS","use":{"tokens":{"input_tokens":3,"output_tokens":5}}}\n\n'
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    codec = generate(tmp_path_factory.mktemp("tiny_stream"), WITH_STREAM)
    stream = importlib.import_module(codec.__name__.replace("_codec", "_stream"))
    return codec, stream.ROWS


def _with_row(tmp_path: Path, row: str) -> tuple[Any, Any]:
    """(codec, stream rows) of the tiny spec with one more decode row (a YAML flow mapping)."""
    oops = "    - {event: oops, error: message}\n"
    codec = generate(tmp_path, WITH_STREAM.replace(oops, f"{oops}    - {row}\n"))
    return codec, importlib.import_module(codec.__name__.replace("_codec", "_stream")).ROWS


def _before_call(*events: bytes) -> bytes:
    """The tiny wire with ``events`` (SSE frames) sent before its call starts."""
    return WIRE.replace(b"event: call\n", b"".join(events) + b"event: call\n")


def _decode(codec: Any, rows: Any, wire: bytes) -> list[Any]:
    dec = Decoder(codec, rows)
    out: list[Any] = []
    for ev in SSEDecoder().feed(wire):
        out += dec.feed(ev)
    return out + dec.close()


def test_generated_stream_rows_decode(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    events = _decode(codec, rows, WIRE)
    assert type(events[0]) is StreamStart and events[0].id == "m1" and events[0].model == "tiny-1"
    assert "".join(e.text for e in events if type(e) is TextDelta) == "Hello"
    (call,) = [e for e in events if type(e) is ToolCallStart]
    assert (call.id, call.name) == ("c_1", "add")
    assert "".join(e.arguments for e in events if type(e) is ToolCallDelta) == '{"a":1}'
    (fin,) = [e for e in events if type(e) is FinishEvent]
    assert (fin.finish.unified, fin.finish.raw) == ("length", "MAX_TOKENS")
    assert events[-1] == StreamEnd(ending="completed")


def test_generated_stream_rows_encode_what_they_decode(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    events = _decode(codec, rows, WIRE)
    enc = Encoder(codec, rows)
    wire = b"".join([b for ev in events for b in enc.feed(ev)] + enc.close())
    again = _decode(codec, rows, wire)
    assert [type(e) for e in again] == [type(e) for e in events]
    assert again == events


def test_cut_stream_ends_with_the_error_template(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    cut = WIRE[: WIRE.index(b"event: done")]
    events = _decode(codec, rows, cut)
    assert events[-1] == StreamEnd(ending="disconnected")
    enc = Encoder(codec, rows)
    wire = b"".join([b for ev in events for b in enc.feed(ev)] + enc.close())
    assert wire.endswith(
        b'data: {"kind":"oops","message":"upstream stream ended without its terminal event"}\n\n'
    )
    assert _decode(codec, rows, wire)[-1] == StreamEnd(ending="failed")


def test_first_match_rows_report_the_unread_keys_of_their_at_object(tmp_path: Path) -> None:
    """A key of an ``at`` object that no row reads is reported as lost with its count (the
    generated dispatch of first-match rows checks the object before the rows run)."""
    codec, rows = _with_row(
        tmp_path, "{event: note, at: info, key_const: note, open: text, text: t}"
    )
    note_event = b'event: note\ndata: {"kind":"note","info":{"t":"Hi","mood":"calm"}}\n\n'
    events = _decode(codec, rows, WIRE.replace(b"event: done", note_event + b"event: done"))
    assert "".join(e.text for e in events if type(e) is TextDelta) == "HelloHi"
    dec = Decoder(codec, rows)
    for ev in SSEDecoder().feed(note_event * 2):
        dec.feed(ev)
    assert dec.unread == {("field", "info.mood"): 2}


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "key: n, open: text, text: t}",
            "key: n, open: text, text: 't[0'}",
            "bad path segment 't[0'",
        ),
        ("why: $finish", "why: $finnish", "unknown variable '$finnish'"),
        ("  recognise: kind\n", "", "a row with `event` needs the stream's `recognise` path"),
        # a whole hand-written stream machine is no option: a row names a transform (assemble)
        ("  decode:\n", "  transform: nowhere\n  decode:\n", "stream.transform: unknown key"),
        ("open: text, text: t}", "open: txt, text: t}", "Input should be 'text'"),
        (
            "  decode:\n",
            "  quiet_fields: {nowhere: [x]}\n  decode:\n",
            "'nowhere' is not the `at` path of any decode row",
        ),
        # row contents the compiled block step could only ignore
        (
            "arguments: more}",
            "arguments: more, name: fn}",
            "name: `name` is read when the row opens a tool call",
        ),
        (
            "key: n, close: true}",
            "key: n, close: true, label: why}",
            "label: `label` names a counted event",
        ),
        (
            "open: text, text: t}",
            "open: text, text: t, separator: ' ', whole: true}",
            "separator: a row with `separator` begins a new part",
        ),
        (
            "open: text, text: t}",
            "open: text, text: t, owner: who}",
            "owner: `owner` names who made opaque state",
        ),
    ],
)
def test_bad_stream_rows_are_refused_with_file_and_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert WITH_STREAM.count(old) == 1, old
    spec = write_spec(tmp_path, CANONICAL, WITH_STREAM.replace(old, new))
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    text = str(info.value)
    assert message in text
    assert f"{spec / 'protocols' / 'tiny_v2.yaml'}:" in text


def test_a_known_event_that_yields_nothing_is_matched_not_ignored(tmp_path: Path) -> None:
    """A row with no action (a ping) is one test in the generated dispatch: the event is known,
    so it is not counted as ignored, as an unknown event is."""
    codec, rows = _with_row(tmp_path, "{event: ping}")
    dec = Decoder(codec, rows)
    for ev in SSEDecoder().feed(WIRE[: WIRE.index(b"event: stop")]):
        dec.feed(ev)
    for ev in SSEDecoder().feed(b'data: {"kind":"ping"}\n\ndata: {"kind":"pong"}\n\n'):
        assert dec.feed(ev) == []
    assert dec.ignored == 1


def test_an_ignored_block_is_reported_by_the_name_its_label_reads(tmp_path: Path) -> None:
    """A row that opens an ignored block reports it once, named by the wire value its `label`
    reads (the compiled block step writes the name), and the deltas sent to it are ignored."""
    codec, rows = _with_row(tmp_path, "{event: tool, key: n, open: ignored, label: tool.type}")
    wire = _before_call(
        b'event: tool\ndata: {"kind":"tool","n":1,"tool":{"type":"web_search"}}\n\n',
        b'event: text\ndata: {"kind":"text","n":1,"t":"not said"}\n\n',
    )
    dec = Decoder(codec, rows)
    events = [e for ev in SSEDecoder().feed(wire) for e in dec.feed(ev)]
    assert "".join(e.text for e in events if type(e) is TextDelta) == "Hello"
    assert dec.unread == {("event", "tool[web_search]"): 1}
    assert dec.ignored == 2  # the block and its delta


def test_a_block_ends_with_what_its_rows_gathered(tiny: tuple[Any, Any], tmp_path: Path) -> None:
    """Each kind a row opens ends through its compiled end (``ROWS.close``): the tiny rows open
    text and calls only; a reasoning row that reads opaque state ends its block with the pieces
    joined, owned by the protocol, when the block ends (here: the terminal event ends it)."""
    assert set(tiny[1].close) == {"text", "tool_call"}
    think = "{event: think, key: n, key_prefix: r, open: reasoning, text: t, signature: s}"
    codec, rows = _with_row(tmp_path, think)
    wire = _before_call(
        b'event: think\ndata: {"kind":"think","n":0,"t":"hm","s":"A1"}\n\n',
        b'event: think\ndata: {"kind":"think","n":0,"s":"B2"}\n\n',
    )
    events = _decode(codec, rows, wire)
    (end,) = [e for e in events if type(e) is ReasoningEnd]
    assert (end.signature, end.redacted, end.owner) == ("A1B2", None, "tiny_v2")
    assert [type(e) for e in events if type(e) in (TextEnd, ToolCallEnd)] == [TextEnd, ToolCallEnd]


def test_a_block_keeps_only_the_state_its_rows_use(tiny: tuple[Any, Any], tmp_path: Path) -> None:
    """The generated block classes (codegen/stream_state.py) have the slots every block has and
    of the others only what the compiled code uses: the tiny rows gather no opaque state, group
    nothing and never ask whether a delta came (no whole value, no separator: no ``fresh``), so
    their blocks have no slot for it; a row that reads a signature adds one, and the decoder
    fills it (a block of the class ``ROWS.block`` makes)."""
    codec, rows = tiny
    stream = importlib.import_module(codec.__name__.replace("_codec", "_stream"))
    assert rows.block is stream._Block
    assert stream._Block.__slots__ == ("kind", "key", "open", "call_id")
    assert stream._ItemBlock.__slots__ == ("kind", "ev", "key", "index", "started", "ended", "args")
    assert not hasattr(stream, "_end_group") and not hasattr(stream, "_settle")  # (no group,
    # interleaved blocks: the encoder's end_group and settle are the defaults, doing nothing)
    think = "{event: think, key: n, key_prefix: r, open: reasoning, text: t, signature: s}"
    codec, rows = _with_row(tmp_path, think)
    assert "sig" in rows.block.__slots__
    dec = Decoder(codec, rows)
    for ev in SSEDecoder().feed(
        b'event: think\ndata: {"kind":"think","n":0,"t":"hm","s":"A1"}\n\n'
    ):
        dec.feed(ev)
    (b,) = dec.open
    assert (type(b), b.kind, b.sig) == (rows.block, "reasoning", "A1")
