"""The error_shape row on the tiny inline spec: the generated codec's read_error_body /
read_error / write_error are run (through the runtime's one type rule, error_info, and the stream
decoder's in-band errors), and error_shape rows codegen cannot compile are refused with file,
line and row."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import orjson
import pytest
from interlingua._pipeline import error_info
from interlingua._sse import SSEDecoder
from interlingua.generated.canonical import ErrorEvent, ErrorInfo, StreamEnd
from interlingua.streams.machine import Decoder

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import generate
from tests.test_codegen_stream import STREAM
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

SHAPE = """\
error_shape:
  type_path: fault.kind
  message_path: fault.text
  code_path: fault.code
  status_code_path: fault.http
  envelope: {object: error}
  stream_status: [code, status_code]
"""
OLD_SHAPE = "error_shape: {type_path: type, message_path: message}\n"
BUSY = "  - {unified: api_error, raw: internal, status: 500}\n"
TINY = PROTOCOL.replace(OLD_SHAPE, SHAPE).replace(
    BUSY,
    BUSY
    + "  - {unified: api_error, raw: busy, status: 503, only: decode}\n"
    + "  - {unified: invalid_request, raw: too_big, status: 500, only: decode}\n",
) + STREAM.replace("{event: oops, error: message}", "{event: oops, error: fault}")
T = "tiny_v2"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate(tmp_path_factory.mktemp("tiny_errors"), TINY)


def decode(codec: Any, status: int, body: Any) -> ErrorInfo:
    return error_info(codec, T, status, body, codec.read_error_body(body))


def test_an_error_body_is_read_where_the_row_says(tiny: Any) -> None:
    body = {"object": "error", "fault": {"kind": "bad_request", "text": "no", "code": "E1"}}
    assert tiny.read_error_body(body) == ("bad_request", "no", "E1", None, None)
    err = decode(tiny, 400, body)
    assert (err.type, err.message, err.status, err.raw_type, err.code, err.source) == (
        "invalid_request",
        "no",
        400,
        "bad_request",
        "E1",
        T,
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (None, "upstream error (HTTP 500)"),
        ("plain text", "plain text"),
        ([1, 2], "[1,2]"),
        ({"fault": "down"}, '{"fault":"down"}'),
        (
            {"fault": {"kind": ["x"], "text": 7, "code": {}}},
            '{"fault":{"kind":["x"],"text":7,"code":{}}}',
        ),
        ({"message": "elsewhere"}, "elsewhere"),
    ],
)
def test_any_body_is_read_without_raising(tiny: Any, body: Any, message: str) -> None:
    err = decode(tiny, 500, body)
    assert (err.type, err.status, err.message, err.raw_type, err.code) == (
        "api_error",
        500,
        message,
        None,
        None,
    )


def test_the_body_is_written_in_the_rows_order(tiny: Any) -> None:
    err = ErrorInfo(type="invalid_request", message="no", status=400, code="E1")
    body = tiny.write_error(err, "bad_request", 400)
    assert body == {
        "object": "error",
        "fault": {"kind": "bad_request", "text": "no", "code": "E1", "http": 400},
    }
    assert list(body) == ["object", "fault"] and list(body["fault"]) == [
        "kind",
        "text",
        "code",
        "http",
    ]
    assert decode(tiny, 400, body) == ErrorInfo(
        type="invalid_request",
        message="no",
        status=400,
        raw_type="bad_request",
        code="E1",
        source=T,
    )
    # in band, an empty code carries the status (code is one of stream_status)
    err.code = None
    assert tiny.write_error(err, "bad_request", 429, True)["fault"]["code"] == 429
    assert tiny.write_error(err, "bad_request", 429)["fault"]["code"] is None
    assert tiny.ERROR_RAW_DEFAULT == "internal"


@pytest.mark.parametrize(
    ("fault", "status", "kind"),
    [
        ({"kind": "bad_request", "text": "t", "code": 429}, 429, "invalid_request"),
        ({"kind": "internal", "text": "t", "status_code": 400}, 400, "invalid_request"),
        ({"kind": "internal", "text": "t", "http": 502, "code": 400}, 502, "api_error"),
        ({"kind": "bad_request", "text": "t", "code": "429"}, 400, "invalid_request"),
        ({"kind": "internal", "text": "t", "code": True}, 500, "api_error"),
        ({"text": "t"}, 500, "api_error"),
    ],
)
def test_an_in_band_error_is_read_by_the_same_function(
    tiny: Any, fault: dict[str, Any], status: int, kind: str
) -> None:
    """The stream decoder's error row reads the error object with the codec's read_error: the
    status it carries (status_code_path, then stream_status), else its type's; a status with a
    row of its own settles a generic raw type (api_error at 400 is invalid_request)."""
    stream = importlib.import_module(tiny.__name__.replace("_codec", "_stream"))
    dec = Decoder(tiny, stream.ROWS)
    event = {"kind": "oops", "fault": fault}
    wire = b"event: oops\ndata: " + orjson.dumps(event) + b"\n\n"
    out = [e for ev in SSEDecoder().feed(wire) for e in dec.feed(ev)]
    (err,) = [e.error for e in out if type(e) is ErrorEvent]
    assert out[-1] == StreamEnd(ending="failed")
    assert (err.status, err.type, err.message, err.source) == (status, kind, "t", T)
    # one rule: the same object in an HTTP body of that status reads the same
    assert decode(tiny, status, {"fault": fault}) == err


def test_the_type_rule_is_the_rows(tiny: Any) -> None:
    # a row of (raw type, status) decides over the status's row, at that status alone; a row
    # the status's (or a firm raw type's) row decides alike is compiled to no step of its own
    assert tiny.ERROR_EXACT == {("too_big", 500): "invalid_request"}
    assert decode(tiny, 500, {"fault": {"kind": "too_big"}}).type == "invalid_request"
    assert decode(tiny, 500, {"fault": {"kind": "internal"}}).type == "api_error"
    assert decode(tiny, 400, {"fault": {"kind": "internal"}}).type == "invalid_request"
    assert tiny.ERROR_BY_STATUS == {400: "invalid_request", 500: "api_error", 503: "api_error"}
    # a row whose status is not the canonical one of its type: the canonical status travels
    err = decode(tiny, 503, {"fault": {"kind": "busy", "text": "t"}})
    assert (err.type, err.status, err.raw_type) == ("api_error", 500, "busy")
    # a status no row and no canonical type names: the raw type's type, else by its class
    assert (decode(tiny, 418, {}).type, decode(tiny, 599, {}).type) == (
        "invalid_request",
        "api_error",
    )
    assert decode(tiny, 418, {"fault": {"kind": "internal"}}).type == "api_error"
    assert decode(tiny, 418, {"fault": {"kind": "too_big"}}).type == "invalid_request"
    # the way back: the status of an error's type when it has none, else the one it has
    assert [tiny.error_status(t, s) for t, s in (("api_error", None), ("x", None))] == [500, 500]
    assert (tiny.error_status("invalid_request", None), tiny.error_status("api_error", 503)) == (
        400,
        503,
    )


def test_no_type_path_takes_the_type_from_the_status(tmp_path: Path) -> None:
    codec = generate(
        tmp_path, PROTOCOL.replace(OLD_SHAPE, "error_shape: {message_path: message}\n")
    )
    body = {"message": "boom", "type": "bad_request"}
    assert codec.read_error_body(body) == (None, "boom", None, None, None)
    assert not hasattr(codec, "ERROR_FIRM")  # no raw type: its rows are never looked up
    assert (decode(codec, 400, body).type, decode(codec, 500, body).type) == (
        "invalid_request",
        "api_error",
    )
    err = ErrorInfo(type="api_error", message="boom", status=500)
    assert codec.write_error(err, "internal", 500, True) == {"message": "boom"}


def refused(tmp_path: Path, new: str, marker: str, canonical: str = CANONICAL) -> str:
    """The SpecError of the tiny spec with error_shape ``new``, and ``file:line:`` of the line
    holding ``marker``."""
    edited = PROTOCOL.replace(OLD_SHAPE, new)
    spec = write_spec(tmp_path, canonical, edited)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = edited[: edited.index(marker)].count("\n") + 1
    msg = str(info.value)
    assert msg.startswith(f"{spec / 'protocols/tiny_v2.yaml'}:{line}: "), msg
    return msg


@pytest.mark.parametrize(
    ("new", "marker", "words"),
    [
        (
            "error_shape:\n  type_path: detail.kind\n  message_path: fault.text\n",
            "type_path",
            "error_shape.type_path: 'detail.kind' is not in the error object (fault, where "
            "message_path is): every path of the row sits in that one object",
        ),
        (
            "error_shape:\n  message_path: message\n  code_path: error.code\n",
            "code_path",
            "error_shape.code_path: 'error.code' is not in the error object (the body itself, "
            "where message_path is)",
        ),
        (
            "error_shape:\n  message_path: fault.text\n  param_path: fault..p\n",
            "param_path",
            "error_shape.param_path: 'fault..p' is not a dotted path (an empty key)",
        ),
        (
            "error_shape:\n  type_path: fault.text\n  message_path: fault.text\n",
            "message_path",
            "error_shape.message_path: 'fault.text' is also type_path",
        ),
        (
            "error_shape:\n  message_path: fault.text\n  envelope: {fault: x}\n",
            "envelope",
            "error_shape.envelope.fault: 'fault' is where the error's fields are written",
        ),
        (
            "error_shape:\n  message_path: message\n  envelope: {message: x}\n",
            "envelope",
            "error_shape.envelope.message: 'message' is where the error's fields are written",
        ),
        (
            "error_shape:\n  message_path: fault.text\n  stream_status: [code, fault.code]\n",
            "stream_status",
            "error_shape.stream_status[1] fault.code: 'fault.code' is not a key of the error object",
        ),
        (
            "error_shape:\n  message_path: fault.text\n  stream_status: [code, code]\n",
            "stream_status",
            "error_shape.stream_status[1] code: key 'code' again",
        ),
    ],
)
def test_rows_that_cannot_compile_are_refused(
    tmp_path: Path, new: str, marker: str, words: str
) -> None:
    assert words in refused(tmp_path, new, marker)


def test_an_error_no_row_names_needs_a_raw_type(tmp_path: Path) -> None:
    canonical = CANONICAL.replace("      - {value: api_error, status: 500, generic: true}\n", "")
    protocol = PROTOCOL.replace("  - {unified: api_error, raw: internal, status: 500}\n", "")
    spec = write_spec(tmp_path, canonical, protocol)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = protocol[: protocol.index("errors:")].count("\n") + 1
    assert str(info.value) == (
        f"{spec / 'protocols/tiny_v2.yaml'}:{line}: errors: no ErrorType api_error: "
        "enum_defaults.errors.encode names the raw type written for an error whose type has no row"
    )
    with_default = protocol.replace(
        "encode: COMPLETE}\n", "encode: COMPLETE}\n  errors: {encode: bad_request}\n"
    )
    load_spec(write_spec(tmp_path, canonical, with_default))  # the declared default is the raw type
