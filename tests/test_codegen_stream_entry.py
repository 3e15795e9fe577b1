"""What runs around the compiled decode rows (codegen/stream_entry.py), on the tiny inline spec:
a start read from every chunk waits for a chunk that says something and goes first, also when
the event ends the stream; a start event of its own starts where it is read; a data line holding
a list of events runs each where the stream ``batches``, and matches nothing where it does not.
Each generated module holds only the code its rows need; it is imported and run by the generic
decoder."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any

import orjson
import pytest
from interlingua._sse import SSEDecoder
from interlingua.generated.canonical import (
    StreamEnd,
    StreamStart,
    TextDelta,
    TextEnd,
    UsageEvent,
)
from interlingua.streams.machine import Decoder

from tests.test_codegen_generate import generate
from tests.tiny_spec import PROTOCOL

CHUNKS = """\
stream:
  match: all
  batches: true
  decode:
    - {error: error}
    - {start: {id: rid, model: mv}}
    - {present: t, key_const: tx, open: text, text: t}
    - {present: bye, end: true}
  encode:
    blocks: interleaved
    index: per_kind
    id_default: tiny
    events:
      text_delta: {t: $text}
    end:
      - body: {bye: 1}
"""
EVENTS = """\
stream:
  recognise: kind
  decode:
    - {event: begin, start: {id: id}, usage: use}
    - {event: text, key: n, open: text, text: t}
    - {event: done, end: true}
  encode:
    blocks: interleaved
    index: per_kind
    id_default: tiny
    events:
      start: {kind: begin, id: $id}
      text_delta: {kind: text, n: $index, t: $text}
    end:
      - body: {kind: done}
"""
USE = {"tokens": {"input_tokens": 3}}


def _spec(stream: str) -> str:
    return PROTOCOL.replace("sse_event_names: true", "sse_event_names: false") + stream


def _rows(tmp_path: Path, stream: str) -> tuple[Any, Any]:
    codec = generate(tmp_path, _spec(stream))
    return codec, importlib.import_module(codec.__name__.replace("_codec", "_stream")).ROWS


@pytest.fixture(scope="module")
def chunks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return _rows(tmp_path_factory.mktemp("tiny_entry"), CHUNKS)


def _decode(codec: Any, rows: Any, *data: Any) -> tuple[list[Any], Decoder]:
    dec = Decoder(codec, rows)
    out: list[Any] = []
    wire = b"".join(b"data: " + orjson.dumps(d) + b"\n\n" for d in data)
    for ev in SSEDecoder().feed(wire):
        out += dec.feed(ev)
    return out, dec


def _shape(events: list[Any]) -> list[tuple[Any, ...]]:
    return [
        (type(e).__name__, *((e.id,) if type(e) is StreamStart else ()),
         *((e.text,) if type(e) is TextDelta else ()))
        for e in events
    ]  # fmt: skip


def test_a_start_read_from_every_chunk_waits_for_one_that_says_something(
    chunks: tuple[Any, Any],
) -> None:
    codec, rows = chunks
    out, dec = _decode(codec, rows, {"mv": "m1"}, {"t": "Hi"}, {"rid": "r2", "t": "!"})
    assert _shape(out) == [  # the anonymous chunk starts nothing; the start has no id then
        ("StreamStart", None),
        ("TextStart",),
        ("TextDelta", "Hi"),
        ("TextDelta", "!"),  # started once
    ]
    assert out[0].model is None  # read from the chunk that started (the first one went)
    assert dec.msg_id == "" and dec.ignored == 0
    out, _ = _decode(codec, rows, {"rid": "r1", "bye": 1})  # the event ends the stream
    assert out == [StreamStart(id="r1"), StreamEnd(ending="completed")]


def test_a_list_of_events_runs_each_where_the_stream_batches(
    chunks: tuple[Any, Any], tmp_path: Path
) -> None:
    codec, rows = chunks
    data = [{"t": "a"}, 5, [{"t": "x"}], {"rid": "r1", "t": "b"}, {"bye": 1}, {"t": "c"}]
    out, dec = _decode(codec, rows, {"mv": "m1"}, data, {"t": "d"})
    assert _shape(out) == [
        ("StreamStart", None),  # each event its own start: the first that says something
        ("TextStart",),
        ("TextDelta", "a"),
        ("TextDelta", "b"),
        ("TextEnd",),
        ("StreamEnd",),  # nothing after it runs
    ]
    assert dec.ignored == 3  # 5 and the nested list; the event after the end
    assert "_batch" in inspect.getsource(importlib.import_module(rows.dispatch.__module__))
    codec, rows = _rows(tmp_path, CHUNKS.replace("  batches: true\n", ""))
    out, dec = _decode(codec, rows, [{"rid": "r1", "t": "a"}], "text", {"t": "b"})
    assert _shape(out) == [("StreamStart", None), ("TextStart",), ("TextDelta", "b")]
    assert dec.ignored == 2  # data that is no object matches nothing
    assert "_batch" not in inspect.getsource(importlib.import_module(rows.dispatch.__module__))


def test_a_start_event_starts_where_it_is_read(tmp_path: Path) -> None:
    codec, rows = _rows(tmp_path, EVENTS)
    out, _ = _decode(
        codec, rows,
        {"kind": "begin", "use": USE}, {"kind": "text", "n": 0, "t": "Hi"},
        {"kind": "begin", "id": "m2", "use": USE}, {"kind": "done"},
    )  # fmt: skip
    # an anonymous start event starts all the same, with its usage; the second start is
    # ignored (restart: ignore), its usage passed on
    assert _shape(out) == [
        ("StreamStart", None),
        ("TextStart",),
        ("TextDelta", "Hi"),
        ("UsageEvent",),
        ("TextEnd",),
        ("StreamEnd",),
    ]
    assert out[0].usage is not None and out[0].usage.input_total == 3
    assert type(out[3]) is UsageEvent and type(out[4]) is TextEnd
    source = inspect.getsource(rows.dispatch)
    assert "start.id or out" not in source  # no waiting start
    codec, rows = _rows(tmp_path / "none", EVENTS.replace(", start: {id: id}", ""))
    assert "start" not in inspect.getsource(rows.dispatch).replace("_start", "")
    out, _ = _decode(codec, rows, {"kind": "text", "n": 0, "t": "Hi"}, {"kind": "done"})
    assert _shape(out)[0] == ("TextStart",)
