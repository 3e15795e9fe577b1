from __future__ import annotations

from pathlib import Path
from typing import Any

import interlingua
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from interlingua._sse import SSEDecoder, SSEEvent

from tests.stream_util import recorded_streams

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures"
SSE_FILES = sorted((FIXTURES / "recorded").rglob("*.response.sse")) if FIXTURES.is_dir() else []


def encode_sse(data: str | bytes, event: str | None = None) -> bytes:
    """Encode one event: ``b"event: X\\ndata: ...\\n\\n"``, the round trips' input (the
    runtime's stream encoders write one ``data:`` line per event after the prefix bytes codegen
    writes for each template, ``StreamRows.templates``).

    Line breaks (LF, CRLF, CR) in ``data`` become separate ``data:`` lines. ``bytes`` data is
    used as-is (assumed UTF-8). ``event`` must not contain line breaks.
    """
    if isinstance(data, str):
        if "\r" in data:
            data = data.replace("\r\n", "\n").replace("\r", "\n")
        body = b"data: " + data.replace("\n", "\ndata: ").encode() + b"\n\n"
    else:
        if 13 in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        body = b"data: " + data.replace(b"\n", b"\ndata: ") + b"\n\n"
    if event is None:
        return body
    if "\n" in event or "\r" in event:
        raise ValueError(f"SSE event name contains a line break: {event!r}")
    return b"event: " + event.encode() + b"\n" + body


def decode(*chunks: bytes) -> list[SSEEvent]:
    decoder = SSEDecoder()
    return [e for chunk in chunks for e in decoder.feed(chunk)]


def ev(
    data: str, event: str | None = None, id: str | None = None, retry: int | None = None
) -> SSEEvent:
    return SSEEvent(event, data, id, retry)


@pytest.mark.parametrize("nl", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
def test_line_endings(nl: bytes) -> None:
    stream = nl.join([b"event: a", b"data: 1", b"", b"data: 2", b"data: 3", b"", b""])
    assert decode(stream) == [ev("1", "a"), ev("2\n3")]
    assert decode(*[stream[i : i + 1] for i in range(len(stream))]) == [ev("1", "a"), ev("2\n3")]


def test_mixed_line_endings() -> None:
    assert decode(b"data: a\r\ndata: b\rdata: c\n\r\n") == [ev("a\nb\nc")]


def test_crlf_split_between_chunks_is_one_line_end() -> None:
    # A spurious empty line after "a" would dispatch "a" on its own.
    assert decode(b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n") == [ev("a\nb")]
    assert decode(b"data: a\r", b"\r") == [ev("a")]  # CR then CR: two line ends
    assert decode(b"data: a\r", b"\r\n") == [ev("a")]
    assert decode(b"data: a\r", b"", b"\ndata: b\n\n") == [ev("a\nb")]  # empty chunk between
    assert decode(b"data: a\r", b"\n", b"\r", b"\n", b"data: b\n\n") == [ev("a"), ev("b")]


def test_comments_are_ignored() -> None:
    assert decode(b": keep-alive\n\n") == []
    assert decode(b":ping\ndata: x\n: in the middle\ndata: y\n\n") == [ev("x\ny")]
    assert decode(b"data: x\n:\n\n") == [ev("x")]


def test_multi_line_data_and_trailing_newline() -> None:
    assert decode(b"data: a\ndata:\ndata: b\n\n") == [ev("a\n\nb")]
    assert decode(b"data: a\ndata\n\n") == [ev("a\n")]  # only one trailing "\n" stripped


def test_event_names() -> None:
    stream = b"event: first\nevent: second\ndata: x\n\ndata: y\n\nevent:\ndata: z\n\n"
    assert decode(stream) == [ev("x", "second"), ev("y"), ev("z", "")]


def test_event_without_data_is_not_dispatched_and_name_is_reset() -> None:
    assert decode(b"event: ping\n\n") == []
    assert decode(b"event: ping\n\ndata: x\n\n") == [ev("x")]
    assert decode(b"event: ping\nid: 1\n\n\n\n") == []


def test_id_persists_across_events() -> None:
    stream = b"id: 1\ndata: a\n\ndata: b\n\nid: 2\n\ndata: c\n\nid\ndata: d\n\n"
    assert decode(stream) == [ev("a", id="1"), ev("b", id="1"), ev("c", id="2"), ev("d", id="")]
    decoder = SSEDecoder()
    assert decoder.feed(b"id: 7\ndata: a\n\n") == [ev("a", id="7")]
    assert decoder.feed(b"data: b\n\n") == [ev("b", id="7")]  # persists across feed() calls


def test_id_with_nul_is_ignored() -> None:
    assert decode(b"id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n") == [
        ev("a", id="1"),
        ev("b", id="1"),
    ]


def test_retry() -> None:
    stream = b"retry: 1500\ndata: a\n\nretry: 12a\ndata: b\n\nretry: -1\nretry:  7\ndata: c\n\n"
    assert decode(stream) == [ev("a", retry=1500), ev("b", retry=1500), ev("c", retry=1500)]
    assert decode(b"retry: \xd9\xa3\ndata: a\n\n") == [ev("a")]  # non-ASCII digit ignored
    assert decode(b"retry:0\ndata: a\n\n") == [ev("a", retry=0)]


def test_bom_is_skipped_only_at_stream_start() -> None:
    assert decode(b"\xef\xbb\xbfdata: a\n\n") == [ev("a")]
    assert decode(b"\xef", b"\xbb", b"\xbfdata: a\n\n") == [ev("a")]
    # A second BOM makes the field name "\ufeffdata": an unknown field.
    assert decode(b"\xef\xbb\xbf\xef\xbb\xbfdata: a\n\ndata: b\n\n") == [ev("b")]
    assert decode(b"data: a\n\n\xef\xbb\xbfdata: b\n\n") == [ev("a")]


def test_field_without_colon_and_space_handling() -> None:
    assert decode(b"data\n\n") == [ev("")]
    assert decode(b"event\ndata\ndata\n\n") == [ev("\n", "")]
    assert decode(b"data:x\n\n") == [ev("x")]
    assert decode(b"data:  x \n\n") == [ev(" x ")]  # only one space removed
    assert decode(b"data: a: b\n\n") == [ev("a: b")]
    assert decode(b"event:e\ndata:{}\n\n") == [ev("{}", "e")]


def test_unknown_fields_are_ignored() -> None:
    assert decode(b"foo: bar\nData: x\ndata : y\ndata: z\n\n") == [ev("z")]


def test_done_is_a_normal_event() -> None:
    stream = b'data: {"a":1}\n\ndata: [DONE]\n\n'
    assert decode(stream) == [ev('{"a":1}'), ev("[DONE]")]


def test_utf8_split_inside_characters_and_invalid_bytes() -> None:
    stream = "data: héllo 😀 世界\n\n".encode()
    assert decode(*[stream[i : i + 1] for i in range(len(stream))]) == [ev("héllo 😀 世界")]
    assert decode(b"data: a\xffb\xe2\x82\n\n") == [ev("a\ufffdb\ufffd")]


def test_an_event_is_dispatched_by_its_blank_line_only() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\n\ndata: partial") == [ev("a")]
    assert decoder.feed(b"\n") == []  # one line end: the event is still open
    assert decoder.feed(b"\n") == [ev("partial")]  # the blank line dispatches it
    assert decoder.feed(b"data: [DONE]\n") == []


@pytest.mark.parametrize("rec", recorded_streams() or [None], ids=repr)
def test_a_stream_ending_before_its_last_blank_line_ends_without_that_event(rec: Any) -> None:
    """WHATWG: an event the stream ends before its blank line is discarded, so the translated
    stream is the one cut before that event (the stream decoder sees it end without it)."""
    if rec is None:
        pytest.skip(f"no recorded streams under {FIXTURES}")
    body = rec.sse().rstrip(b"\r\n")
    start = max(body.rfind(b"\n\n") + 2, body.rfind(b"\r\n\r\n") + 4)  # of the last event

    def translated(data: bytes) -> tuple[bytes, str | None]:
        t = interlingua.StreamTranslator(rec.pid, "anthropic_messages")
        return t.feed(data) + t.close(), t.decoder.ended

    assert translated(body + b"\n") == translated(body[:start])


def test_feed_empty_chunks() -> None:
    assert decode(b"", b"data: a\n", b"", b"\n", b"") == [ev("a")]


def test_encode_sse() -> None:
    assert encode_sse('{"x":1}') == b'data: {"x":1}\n\n'
    assert encode_sse("a\nb", event="delta") == b"event: delta\ndata: a\ndata: b\n\n"
    assert encode_sse(b'{"y":"\xc3\xa9"}', "e") == b'event: e\ndata: {"y":"\xc3\xa9"}\n\n'
    assert encode_sse("a\r\nb\rc") == b"data: a\ndata: b\ndata: c\n\n"
    assert encode_sse("") == b"data: \n\n"
    assert encode_sse("[DONE]") == b"data: [DONE]\n\n"
    with pytest.raises(ValueError):
        encode_sse("x", event="bad\nname")


names = st.none() | st.text(st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=12)
payloads = st.text(
    st.characters(codec="utf-8", exclude_characters="\r") | st.sampled_from("\n😀é世"), max_size=40
)


@st.composite
def streams(draw: st.DrawFn) -> tuple[list[SSEEvent], bytes, list[int]]:
    events = [ev(d, n) for n, d in draw(st.lists(st.tuples(names, payloads), max_size=8))]
    nl = draw(st.sampled_from([b"\n", b"\r\n", b"\r"]))
    bom = draw(st.sampled_from([b"", b"\xef\xbb\xbf"]))
    stream = bom + b"".join(encode_sse(e.data, e.event) for e in events).replace(b"\n", nl)
    cuts = draw(st.lists(st.integers(0, len(stream)), max_size=12))
    return events, stream, sorted(cuts)


@settings(max_examples=400, deadline=None)
@given(streams())
def test_roundtrip_with_arbitrary_splits(case: tuple[list[SSEEvent], bytes, list[int]]) -> None:
    events, stream, cuts = case
    bounds = [0, *cuts, len(stream)]
    decoder = SSEDecoder()
    got = [e for a, b in zip(bounds, bounds[1:]) for e in decoder.feed(stream[a:b])]
    assert got == events
    assert decoder.feed(b"\n\n") == []  # nothing left undispatched


@pytest.mark.parametrize(
    "path", SSE_FILES or [None], ids=lambda p: str(p.relative_to(FIXTURES)) if p else "absent"
)
def test_recorded_streams(path: Path | None) -> None:
    if path is None:
        pytest.skip(f"no recorded SSE fixtures under {FIXTURES}")
    raw = path.read_bytes()
    whole = SSEDecoder()
    events = whole.feed(raw)
    assert events and whole.feed(b"\n\n") == []  # no event left open: the recording is whole
    assert decode(*[raw[i : i + 7] for i in range(0, len(raw), 7)]) == events
    for event in events:
        if event.data != "[DONE]":
            orjson.loads(event.data)
