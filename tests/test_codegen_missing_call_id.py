"""One row, ``stream.missing_call_id``, says what id a call sent without one gets, in a response
and in a stream alike: the stream machine is compiled from it, and the codec's RANDOM_CALL_IDS
(which gemini_response reads) too. On the tiny spec (the constant compiled from the row, or its
absence) and on a realistic Gemini answer read as a response and as a stream."""

from __future__ import annotations

from pathlib import Path

import orjson
from interlingua._losses import Ctx
from interlingua._pipeline import decode_response
from interlingua.generated.canonical import ToolCallPart, ToolCallStart
from interlingua.transforms.call_id_envelope import SYNTH_PREFIX

from tests.stream_util import decode_stream
from tests.test_codegen_generate import generate
from tests.test_codegen_stream_parts import WITH_STREAM
from tests.tiny_spec import PROTOCOL

ANSWER = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}],
            },
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "usageMetadata": {"promptTokenCount": 21, "candidatesTokenCount": 5, "totalTokenCount": 26},
    "modelVersion": "gemini-2.5-flash",
}


def test_the_codec_constant_is_the_rows(tmp_path: Path) -> None:
    assert generate(tmp_path / "random", WITH_STREAM).RANDOM_CALL_IDS is True
    counter = WITH_STREAM.replace("  missing_call_id: random\n", "")
    assert generate(tmp_path / "counter", counter).RANDOM_CALL_IDS is False
    assert generate(tmp_path / "none", PROTOCOL).RANDOM_CALL_IDS is False  # no stream rows


def _response_id() -> str:
    resp = decode_response(ANSWER, "gemini", Ctx("gemini", "openai_chat"))
    [call] = [p for p in resp.parts if type(p) is ToolCallPart]
    return str(call.id)


def _stream_id() -> str:
    events = decode_stream(b"data: " + orjson.dumps(ANSWER) + b"\r\n\r\n", "gemini")
    [start] = [e for e in events if type(e) is ToolCallStart]
    return str(start.id)


def test_a_call_without_an_id_gets_a_random_one_in_responses_and_streams() -> None:
    for read in (_response_id, _stream_id):
        first, second = read(), read()
        assert first.startswith(SYNTH_PREFIX) and second.startswith(SYNTH_PREFIX)
        assert first != second, read  # unique across the turns a client keeps
        assert not first.removeprefix(SYNTH_PREFIX).isdigit()  # not a counter (ilg_0)
