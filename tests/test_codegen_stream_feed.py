"""The compiled encoder feed (codegen/stream_feed.py), the compiled ending (stream_encode) and the
decoder's compiled short path for delta-only rows (stream_fast.pass_on), run on the tiny inline
spec: the encode section's facts (sequential blocks, end rows under conditions, a done line) are
decided when codegen runs, and the generated functions do what the generic machines did."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from interlingua._sse import SSEDecoder
from interlingua.generated.canonical import (
    ErrorEvent,
    Finish,
    FinishEvent,
    ReasoningEnd,
    StreamEnd,
    StreamStart,
    TextDelta,
    TextEnd,
    TextStart,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
    Usage,
    UsageEvent,
)
from interlingua.streams.encoder import Encoder
from interlingua.streams.machine import Decoder

from tests.test_codegen_generate import generate
from tests.test_codegen_stream import WIRE, WITH_STREAM


def _rows(tmp_path: Path, spec: str) -> tuple[Any, Any]:
    codec = generate(tmp_path, spec)
    return codec, importlib.import_module(codec.__name__.replace("_codec", "_stream")).ROWS


def _wire(codec: Any, rows: Any, events: list[Any]) -> bytes:
    enc = Encoder(codec, rows)
    return b"".join([b for ev in events for b in enc.feed(ev)] + enc.close())


def _decode(codec: Any, rows: Any, wire: bytes) -> tuple[Decoder, list[Any]]:
    dec = Decoder(codec, rows)
    out = [e for ev in SSEDecoder().feed(wire) for e in dec.feed(ev)]
    return dec, out + dec.close()


# two calls streamed side by side (Chat's parallel tool calls), then a text block
INTERLEAVED = [
    StreamStart(id="m1", model="tiny-1"),
    ToolCallStart(key="a", id="c_a", name="add"),
    ToolCallDelta(key="a", arguments='{"x"'),
    ToolCallStart(key="b", id="c_b", name="mul"),
    ToolCallDelta(key="b", arguments='{"y":2}'),
    ToolCallDelta(key="a", arguments=":1}"),
    ToolCallEnd(key="a"),
    ToolCallEnd(key="b"),
    TextStart(key="t"),
    TextDelta(key="t", text="done"),
    FinishEvent(finish=Finish(unified="tool_calls", raw=None)),
    StreamEnd(ending="completed"),
]


def test_a_sequential_encode_section_writes_one_block_at_a_time(tmp_path: Path) -> None:
    """``blocks: sequential`` is compiled into the feed: a call that starts while another is
    open waits with its argument text and is written whole after it; every block of the wire
    ends before the next starts."""
    spec = WITH_STREAM.replace("blocks: interleaved", "blocks: sequential")
    codec, rows = _rows(tmp_path, spec)
    wire = _wire(codec, rows, INTERLEAVED)
    kinds = [e.split(b"\n")[0] for e in wire.split(b"\n\n") if e]
    assert kinds == [
        b"event: begin",
        *[b"event: call", b"event: args", b"event: args", b"event: call-stop"],
        *[b"event: call", b"event: args", b"event: call-stop"],
        *[b"event: text", b"event: text", b"event: stop"],
        b"event: done",
    ]
    _, events = _decode(codec, rows, wire)
    calls = {e.key: e.id for e in events if type(e) is ToolCallStart}
    args = {
        cid: "".join(e.arguments for e in events if type(e) is ToolCallDelta and e.key == k)
        for k, cid in calls.items()
    }
    assert args == {"c_a": '{"x":1}', "c_b": '{"y":2}'}
    assert events[-1] == StreamEnd(ending="completed")


def test_calls_waiting_behind_an_open_call_are_written_whole_one_after_another(
    tmp_path: Path,
) -> None:
    """Sequential blocks (codegen/stream_sequential.py): two calls wait behind the open one; a
    text block that starts before the source ended them ends the open call, then each waiting
    call starts, takes its text and ends before the next starts (the first of them never stays
    open beside the second); in a failing stream the waiting calls are written too, ended before
    the error."""
    spec = WITH_STREAM.replace("blocks: interleaved", "blocks: sequential")
    codec, rows = _rows(tmp_path, spec)
    calls = [
        StreamStart(id="m1", model="tiny-1"),
        *[ToolCallStart(key=k, id=f"c_{k}", name="add") for k in "abc"],
        *[ToolCallDelta(key=k, arguments='{"x":1}') for k in "abc"],
    ]
    wire = _wire(
        codec, rows, [*calls, TextDelta(key="t", text="ok"), StreamEnd(ending="completed")]
    )
    kinds = [e.split(b"\n")[0] for e in wire.split(b"\n\n") if e]
    call = [b"event: call", b"event: args", b"event: call-stop"]
    assert kinds == [b"event: begin", *call * 3, b"event: text", b"event: text", b"event: stop",
                     b"event: done"]  # fmt: skip
    _, events = _decode(codec, rows, wire)
    assert [e.id for e in events if type(e) is ToolCallStart] == ["c_a", "c_b", "c_c"]
    failed = _wire(codec, rows, [*calls, StreamEnd(ending="disconnected")])
    kinds = [e.split(b"\n")[0] for e in failed.split(b"\n\n") if e]
    assert kinds[1:10] == call * 3
    assert len(kinds) == 11  # then the error


def test_an_interleaved_encode_section_writes_blocks_as_they_come(tmp_path: Path) -> None:
    codec, rows = _rows(tmp_path, WITH_STREAM)
    wire = _wire(codec, rows, INTERLEAVED)
    kinds = [e.split(b"\n")[0] for e in wire.split(b"\n\n") if e]
    assert kinds[1:6] == [
        b"event: call", b"event: args", b"event: call", b"event: args", b"event: args",
    ]  # fmt: skip


def test_block_ends_are_compiled_into_the_feed_each_written_once(tmp_path: Path) -> None:
    """Ends are compiled handlers in ``ROWS.on``, as starts and deltas are: a block's end writes
    its end template once (a second end, or the end of a key never opened, writes nothing);
    where no template writes ``$pending_signature`` a reasoning end with no block says nothing,
    its opaque state included."""
    codec, rows = _rows(tmp_path, WITH_STREAM)
    assert {TextEnd, ToolCallEnd, ReasoningEnd} <= rows.on.keys()
    enc = Encoder(codec, rows)
    events = [
        StreamStart(id="m1", model="tiny-1"),
        TextStart(key="t"),
        TextDelta(key="t", text="hi"),
        TextEnd(key="t"),
        TextEnd(key="t"),
        ToolCallEnd(key="never"),
        ReasoningEnd(key="r", signature="sig", owner="tiny"),
    ]
    frames = [b for ev in events for b in enc.feed(ev)]
    assert [f.split(b"\n")[0] for f in frames] == [
        b"event: begin", b"event: text", b"event: text", b"event: stop",
    ]  # fmt: skip
    assert enc.sig is None


def test_end_rows_under_their_conditions_then_the_done_line(tmp_path: Path) -> None:
    """The ending is one compiled function: a row whose condition does not hold writes nothing,
    the done line comes last."""
    end = "      - body: {kind: done, why: $finish, use: $usage}\n"
    rows_yaml = (
        "      - body: {kind: done, why: $finish}\n"
        "      - if: usage\n"
        "        body: {kind: usage, use: $usage}\n"
        "    done: '[END]'\n"
    )
    assert WITH_STREAM.count(end) == 1
    codec, rows = _rows(tmp_path, WITH_STREAM.replace(end, rows_yaml))
    fin = FinishEvent(finish=Finish(unified="stop", raw=None))
    plain = [INTERLEAVED[0], fin, StreamEnd(ending="completed")]
    done = b'event: done\ndata: {"kind":"done","why":"COMPLETE"}\n\n'
    assert _wire(codec, rows, plain).endswith(done + b"data: [END]\n\n")
    used = UsageEvent(usage=Usage(input_total=3, output_total=5))
    wire = _wire(codec, rows, [*plain[:2], used, plain[2]])
    assert wire.endswith(
        b'"kind":"usage","use":{"tokens":{"input_tokens":3,"output_tokens":5}}}\n\ndata: [END]\n\n'
    )


def test_argument_text_at_the_key_of_a_text_block_goes_through_the_row(tmp_path: Path) -> None:
    """A delta-only row's compiled short path hands the value to the open block of its kind
    only; argument text at a key whose open block is text goes through the row's block step,
    which drops it: it never becomes the text, nor a call's arguments."""
    oops = "    - {event: oops, error: message}\n"
    loose = "    - {event: loose, key: n, arguments: more}\n"
    codec, rows = _rows(tmp_path, WITH_STREAM.replace(oops, oops + loose))
    stray = b'event: loose\ndata: {"kind":"loose","n":0,"more":"{}"}\n\n'
    wire = WIRE.replace(b"event: stop", stray + b"event: stop", 1)
    dec, events = _decode(codec, rows, wire)
    assert "".join(e.text for e in events if type(e) is TextDelta) == "Hello"
    assert "".join(e.arguments for e in events if type(e) is ToolCallDelta) == '{"a":1}'
    assert not any(type(e) is ToolCallDelta and e.arguments == "{}" for e in events)
    assert dec.ignored == 0


def test_the_compiled_start_step_reads_the_row_fields_and_fails_a_spliced_message(
    tmp_path: Path,
) -> None:
    """A start row is compiled into the dispatch (only the fields it has, each of its type);
    with ``restart: fail`` a start of another message fails the stream (bad_gateway) and the
    same message again is ignored; the default ``ignore`` reads only the first start."""
    codec, rows = _rows(tmp_path, WITH_STREAM)
    again = b'event: begin\ndata: {"kind":"begin","id":"m1","model":"tiny-1"}\n\n'
    other = b'event: begin\ndata: {"kind":"begin","id":"m2","model":7}\n\n'
    at = WIRE.index(b"event: stop")
    dec, events = _decode(codec, rows, WIRE[:at] + again + WIRE[at:])
    assert events[0] == StreamStart(id="m1", model="tiny-1") and dec.ignored == 1
    assert events[-1] == StreamEnd(ending="completed")
    dec, events = _decode(codec, rows, WIRE[:at] + other + WIRE[at:])
    (err,) = [e for e in events if type(e) is ErrorEvent]
    assert err.error.type == "bad_gateway" and "m2" in err.error.message
    assert events[-1] == StreamEnd(ending="failed")
    assert _decode(codec, rows, other)[1][0] == StreamStart(id="m2", model=None)
    codec, rows = _rows(tmp_path / "ignore", WITH_STREAM.replace(", restart: fail}", "}"))
    dec, events = _decode(codec, rows, WIRE[:at] + other + WIRE[at:])
    assert [e.id for e in events if type(e) is StreamStart] == ["m1"]
    assert events[-1] == StreamEnd(ending="completed") and dec.ignored == 0
