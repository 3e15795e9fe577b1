"""A dialect's stream module on the tiny inline spec: it imports from its base protocol's module
every function its rows leave as they are, and defines only what its rows change (the replaced
row's block step, the dispatch that calls it); both run."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from interlingua._sse import SSEDecoder
from interlingua.generated.canonical import TextDelta
from interlingua.streams.encoder import Encoder
from interlingua.streams.machine import Decoder

from codegen.__main__ import main
from tests.test_codegen_dialects import DIALECT, WITH_STREAM
from tests.test_codegen_generate import generate

WIRE = (
    b'data: {"type":"message-start","id":"m1"}\n\n'
    b'data: {"type":"content-delta","index":0,"delta":{"message":"Hi"}}\n\n'
    b'data: {"type":"content-delta","index":0,"delta":{"text":" there"}}\n\n'
    b'data: {"type":"message-end","delta":{"finish_reason":"COMPLETE"}}\n\n'
)


def _text(codec: Any, rows: Any) -> str:
    dec = Decoder(codec, rows)
    events = [e for ev in SSEDecoder().feed(WIRE) for e in dec.feed(ev)]
    return "".join(e.text for e in events if type(e) is TextDelta)


def test_a_dialect_stream_module_shares_what_its_rows_leave(tmp_path: Path) -> None:
    base = generate(tmp_path, WITH_STREAM)
    (tmp_path / "spec" / "dialects").mkdir(exist_ok=True)
    (tmp_path / "spec" / "dialects" / "acme.yaml").write_text(DIALECT, encoding="utf-8")
    assert main(["--spec", str(tmp_path / "spec"), "--out", str(tmp_path / "out")]) == 0
    pkg = base.__name__.rsplit(".", 1)[0]
    mine = importlib.import_module(f"{pkg}.tiny_v2__acme_stream")
    theirs = importlib.import_module(f"{pkg}.tiny_v2_stream")
    # the encoder's functions and the untouched rows' steps are the base's own objects
    assert mine._start is theirs._start and mine.ROWS.end is theirs.ROWS.end
    assert mine.ROWS.on == theirs.ROWS.on and mine.ROWS.finish == theirs.ROWS.finish
    # the replaced row's step and the dispatch calling it are the dialect's
    assert mine._block1 is not theirs._block1 and mine.dispatch is not theirs.dispatch
    codec = importlib.import_module(f"{pkg}.tiny_v2__acme_codec")
    assert _text(codec, mine.ROWS) == "Hi there"
    assert _text(base, theirs.ROWS) == " there"  # (the base reads no delta.message)
    enc = Encoder(codec, mine.ROWS)
    dec = Decoder(codec, mine.ROWS)
    events = [e for ev in SSEDecoder().feed(WIRE) for e in dec.feed(ev)] + dec.close()
    wire = b"".join([b for ev in events for b in enc.feed(ev)] + enc.close())
    assert b'"delta":{"text":"Hi"}' in wire and wire.endswith(b'"finish_reason":"COMPLETE"}}\n\n')
