"""The response_envelope rows on the tiny inline spec: the generated codec and stream module are
imported and run (the envelope helper on a response, the stream encoder's start event built from
the same defaults), and envelope rows codegen cannot use are refused with file, line and row."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import orjson
import pytest
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx
from interlingua.generated.canonical import StreamStart
from interlingua.streams.encoder import Encoder

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import canonical_of, generate
from tests.test_codegen_messages import FLAT_CANONICAL, FLAT_PROTOCOL
from tests.test_codegen_stream import STREAM
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

ENVELOPE = """\
response_envelope:
  finish: why
  finish_required: true
  finish_detail: {value: INCOMPLETE, reason: details.reason, reasons: [MAX_TOKENS]}
  defaults: {id: tiny-default, object: reply, model: unknown, meta: {tags: []}}
  echo: [seed, budget]
"""
# the stream's start event is the envelope's defaults; its default id comes from them
WITH_ENVELOPE = (
    PROTOCOL
    + ENVELOPE
    + STREAM.replace("    id_default: tiny\n", "").replace(
        "start: {kind: begin, id: $id, model: $model}",
        "start: {kind: begin, reply: {$use: response_envelope}}",
    )
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    codec = generate(tmp_path_factory.mktemp("tiny_envelope"), WITH_ENVELOPE)
    stream = importlib.import_module(codec.__name__.replace("_codec", "_stream"))
    return codec, stream.ROWS


def test_envelope_row_is_generated(tiny: tuple[Any, Any]) -> None:
    codec, _ = tiny
    assert codec.RESPONSE_ID == "tiny-default"
    assert codec.RESPONSE_KEPT == ("seed", "budget", "why", "details")  # echo, the finish's keys
    assert list(codec.response_defaults()) == ["id", "object", "model", "meta"]
    # known keys: never carried in ext
    assert {
        "id",
        "object",
        "model",
        "meta",
        "seed",
        "budget",
        "why",
        "usage",
    } == codec.RESPONSE_KNOWN


def test_defaults_are_written_and_left_out_again_for_the_same_protocol(
    tiny: tuple[Any, Any],
) -> None:
    codec, _ = tiny
    c = canonical_of(codec)
    wire = {"id": "r1", "model": "tiny-1", "why": "COMPLETE", "details": None, "seed": 7}
    resp = c.Response()
    codec.decode_response_fields(wire, resp, Ctx("tiny_v2", "tiny_v2"))
    codec.decode_response_envelope(wire, resp, Ctx("tiny_v2", "tiny_v2"))
    assert (resp.finish.unified, resp.finish.raw) == ("stop", "COMPLETE")  # the top-level finish
    # the echo and the raw finish, kept for this protocol
    kept = {"seed": 7, "why": "COMPLETE", "details": None}
    assert resp.hints == {"absent": ["object", "meta", "usage"], "kept": kept}
    # to another protocol's client (no hints): every default, the response's own values first
    other = c.Response(id="r1", model="tiny-1", usage=c.Usage(input_total=1, output_total=2))
    out: dict[str, Any] = codec.response_defaults()
    codec.encode_response_fields(other, out, Ctx("x", "tiny_v2"))
    assert out == {"id": "r1", "model": "tiny-1", "object": "reply", "meta": {"tags": []}}
    assert list(out) == ["id", "object", "model", "meta"]  # the row's order
    codec.encode_response_envelope(other, out, Ctx("x", "tiny_v2"))  # the finish: no echo
    assert {k: out[k] for k in ("why", "details")} == {"why": "COMPLETE", "details": None}
    assert "seed" not in out
    out["meta"]["tags"].append("mutated")  # each response gets its own copy of a default
    again = codec.response_defaults()
    assert again["meta"] == {"tags": []} and again["id"] == "tiny-default"
    # back to the same protocol: what the source left out is left out again
    same = Ctx("tiny_v2", "tiny_v2")
    out = codec.response_defaults()
    codec.encode_response_fields(resp, out, same)
    codec.encode_response_envelope(resp, out, same)
    assert out == {"id": "r1", "model": "tiny-1", **kept}


def test_finish_where_the_row_puts_it(tiny: tuple[Any, Any]) -> None:
    codec, _ = tiny
    c = canonical_of(codec)
    # a detail reason: the row's value, the reason beside it; read back from the same place
    out: dict[str, Any] = {}
    ctx = Ctx("x", "tiny_v2")
    codec.write_finish(c.Finish(unified="length", raw="max_tokens"), out, ctx)
    assert out == {"why": "INCOMPLETE", "details": {"reason": "MAX_TOKENS"}}
    f = codec.read_finish(out)
    assert (f.unified, f.raw) == ("length", "MAX_TOKENS")
    # any other reason: the value itself, the detail object null
    out = {}
    codec.write_finish(c.Finish(unified="stop", raw="end_turn"), out, ctx)
    assert out == {"why": "COMPLETE", "details": None} and ctx.losses == []
    # the detail value with no reason beside it reads as itself (no row: the decode default)
    f = codec.read_finish({"why": "INCOMPLETE"})
    assert (f.unified, f.raw) == ("other", "INCOMPLETE")
    f = codec.read_finish({"why": "INCOMPLETE", "details": "MAX_TOKENS"})  # not an object
    assert (f.unified, f.raw) == ("other", "INCOMPLETE")
    # finish_required: no finish is written as how the output ended
    out = {}
    codec.write_finish(None, out, ctx)
    assert out == {"why": "COMPLETE", "details": None}
    # a reason the protocol cannot say: the encode default, reported at the path
    codec.write_finish(c.Finish(unified="other", raw="weird"), out, ctx)
    assert out["why"] == "COMPLETE"
    assert [(loss.path, loss.feature) for loss in ctx.losses] == [("why", "finish_reason")]


def test_stream_start_is_the_envelope_defaults(tiny: tuple[Any, Any]) -> None:
    codec, rows = tiny
    assert rows.id_default == "tiny-default"  # no id_default row: the envelope's
    enc = Encoder(codec, rows)
    (frame,) = enc.feed(StreamStart(id=None))
    body = orjson.loads(frame.split(b"data: ", 1)[1])
    assert body == {
        "kind": "begin",
        "reply": {
            "id": "tiny-default",
            "object": "reply",
            "model": "unknown",
            "meta": {"tags": []},
        },
    }


def _refused(tmp_path: Path, protocol: str, canonical: str = CANONICAL) -> str:
    with pytest.raises(SpecError) as info:
        load_spec(write_spec(tmp_path, canonical, protocol))
    return str(info.value)


def _line(text: str, at: str) -> int:
    return text[: text.index(at)].count("\n") + 1


def test_message_response_needs_message_and_content(tmp_path: Path) -> None:
    canonical = CANONICAL.replace(
        "transforms: {tiny_messages: {compiled: tools}}",
        "transforms: {tiny_messages: {compiled: tools}, message_response: "
        "{compiled: message_response, side: response, "
        "rows: [response_envelope.message, response_envelope.content]}}",
    )
    protocol = (PROTOCOL + ENVELOPE).replace(
        "transforms: [tiny_messages]", "transforms: [tiny_messages, message_response]"
    )
    msg = _refused(tmp_path, protocol, canonical)
    path = tmp_path / "spec" / "protocols" / "tiny_v2.yaml"
    line = _line(protocol, "transforms: [tiny_messages, message_response]")
    at = f"{path}:{line}: transforms[1] message_response: transform message_response needs"
    assert msg.splitlines() == [
        f"{at} `response_envelope.message`",
        f"{at} `response_envelope.content`",
    ]
    no_envelope = PROTOCOL.replace(
        "transforms: [tiny_messages]", "transforms: [tiny_messages, message_response]"
    )
    msg = _refused(tmp_path, no_envelope, canonical)
    assert msg.splitlines() == [
        f"{path}:{_line(no_envelope, 'transforms: [tiny_messages, message_response]')}: "
        f"transforms[1] message_response: transform message_response needs `{row}`"
        for row in ("response_envelope.message", "response_envelope.content")
    ]


def test_echo_key_twice_is_refused_with_its_row(tmp_path: Path) -> None:
    protocol = PROTOCOL + ENVELOPE.replace("echo: [seed, budget]", "echo: [seed, budget, seed]")
    msg = _refused(tmp_path, protocol)
    path = tmp_path / "spec" / "protocols" / "tiny_v2.yaml"
    assert msg == (
        f"{path}:{_line(protocol, 'echo:')}: response_envelope.echo[2] seed: key 'seed' again (echo[0])"
    )
    quiet = PROTOCOL + ENVELOPE.replace("echo: [seed, budget]", "choice_quiet: [index, x, index]")
    msg = _refused(tmp_path, quiet)
    assert msg == (
        f"{path}:{_line(quiet, 'choice_quiet:')}: response_envelope.choice_quiet[2] index: "
        "key 'index' again (choice_quiet[0])"
    )


def test_echo_beside_a_finish_in_choices_is_kept_alone(tmp_path: Path) -> None:
    """Beside choices (Gemini's promptFeedback) the echo is kept without the finish, which the
    choice holds: back to this protocol as it came, to another nowhere, and never at the top."""
    rows = CHOICES.replace("  defaults:", "  echo: [seed]\n  defaults:")
    codec = generate(tmp_path, PROTOCOL + rows, WITH_CALLS)
    assert codec.RESPONSE_KEPT == ("seed",) and "seed" in codec.RESPONSE_KNOWN
    c = canonical_of(codec)
    same = Ctx("tiny_v2", "tiny_v2")
    resp = c.Response()
    codec.decode_response_envelope({"id": "r1", "seed": {"n": 7}, "usage": None}, resp, same)
    assert resp.hints == {"kept": {"seed": {"n": 7}}}
    out: dict[str, Any] = {}
    codec.encode_response_envelope(resp, out, same)
    assert out["seed"] == {"n": 7} and "why" not in out
    out = {}
    codec.encode_response_envelope(resp, out, Ctx("x", "tiny_v2"))
    assert "seed" not in out and "why" not in out


def test_unknown_envelope_key_names_the_allowed_ones(tmp_path: Path) -> None:
    protocol = PROTOCOL + ENVELOPE.replace("  finish: why\n", "  finish: why\n  finsh: why\n")
    msg = _refused(tmp_path, protocol)
    assert f"tiny_v2.yaml:{_line(protocol, 'finsh:')}: response_envelope.finsh" in msg
    assert (
        "unknown key (expected one of blocked, choice_constants, choice_defaults, choice_quiet, "
        in msg
    )


def test_finish_detail_reason_without_a_finish_row_is_refused(tmp_path: Path) -> None:
    protocol = PROTOCOL + ENVELOPE.replace("reasons: [MAX_TOKENS]", "reasons: [MAX_TOKEN]")
    msg = _refused(tmp_path, protocol)
    path = tmp_path / "spec" / "protocols" / "tiny_v2.yaml"
    assert msg == (
        f"{path}:{_line(protocol, 'finish_detail:')}: response_envelope.finish_detail.reasons[0]"
        " MAX_TOKEN: 'MAX_TOKEN' is not the raw value of a finish_reasons row (expected one of "
        "COMPLETE, INCOMPLETE, MAX_TOKENS)"
    )


def test_usage_row_leaves_a_zero_count_out(tmp_path: Path) -> None:
    row = "  - {c: output_total, w: tokens.output_tokens, type: int}"
    codec = generate(tmp_path, PROTOCOL.replace(row, row[:-1] + ", omit_zero: true}"))
    c = canonical_of(codec)
    assert codec.encode_usage(c.Usage(input_total=3)) == {"tokens": {"input_tokens": 3}}
    assert codec.encode_usage(c.Usage(input_total=3, output_total=5)) == {
        "tokens": {"input_tokens": 3, "output_tokens": 5}
    }
    # what is left out reads back as zero
    assert codec.decode_usage({"tokens": {"input_tokens": 3}}, "usage").output_total == 0


def test_omit_zero_on_a_request_row_is_refused(tmp_path: Path) -> None:
    row = "  - {c: max_tokens, w: max_tokens, type: int, feature: sampling}"
    protocol = PROTOCOL.replace(row, row[:-1] + ", omit_zero: true}")
    msg = _refused(tmp_path, protocol)
    path = tmp_path / "spec" / "protocols" / "tiny_v2.yaml"
    assert msg.startswith(f"{path}:{_line(protocol, 'omit_zero: true')}: request_fields[2] ")
    assert msg.endswith("omit_zero: only a usage row leaves a zero count out")


# ---------------------------------------------------------------- the finish rule, compiled
CHOICES = """\
response_envelope:
  choices: outputs
  message: message
  finish: why
  choice_constants: {rank: 0}
  choice_defaults: {score: null}
  choice_quiet: [score]
  defaults: {id: tiny-default}
finish_rule:
  stop_with_calls: true
  numeric: {1: COMPLETE, 2: MAX_TOKENS}
"""
FINISH = '      - {name: raw, type: "str | None"}\n'
HINTS = CANONICAL.replace(  # where a number the reason came as is kept (numeric)
    FINISH, FINISH + '      - {name: hints, type: "dict[str, Any] | None"}\n'
)
NO_HINTS = CANONICAL.replace(
    "values: [stop, length, other]", "values: [stop, length, tool_calls, other]"
)
WITH_CALLS = HINTS.replace(
    "values: [stop, length, other]", "values: [stop, length, tool_calls, other]"
)


@pytest.fixture(scope="module")
def choices(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate(tmp_path_factory.mktemp("tiny_choices"), PROTOCOL + CHOICES, WITH_CALLS)


def test_finish_rule_is_compiled_from_the_rows(choices: Any, tmp_path: Path) -> None:
    codec = choices
    c = canonical_of(codec)
    f = codec.decode_finish("COMPLETE")
    assert (f.unified, f.raw) == ("stop", "COMPLETE")
    # stop with tool calls (finish_rule.stop_with_calls), numbers (numeric), unknown: the default
    assert codec.decode_finish("COMPLETE", True).unified == "tool_calls"
    assert codec.decode_finish("MAX_TOKENS", True).unified == "length"
    f = codec.decode_finish(2)
    assert (f.unified, f.raw, f.hints) == ("length", "MAX_TOKENS", {"numeric": 2})
    # a number goes back as it came to this protocol (responses and streams: finish_wire), a name
    # elsewhere; a name read as one has no such hint
    assert codec.encode_finish(f, same=True) == (2, False)
    assert codec.encode_finish(f) == ("MAX_TOKENS", False)
    assert codec.decode_finish("MAX_TOKENS").hints is None
    f = codec.decode_finish(9)
    assert (f.unified, f.raw) == ("other", "9")
    # encoding: a raw value that reads back as the reason is kept; otherwise the row, else the
    # default, lossy when it does not read back as the same reason
    assert codec.encode_finish(c.Finish(unified="tool_calls", raw="COMPLETE")) == (
        "COMPLETE",
        False,
    )
    assert codec.encode_finish(c.Finish(unified="length", raw="max_tokens")) == (
        "MAX_TOKENS",
        False,
    )
    assert codec.encode_finish(c.Finish(unified="other", raw="weird")) == ("COMPLETE", True)
    assert codec.encode_finish(c.Finish(unified="other", raw="weird"), same=True) == (
        "weird",
        False,
    )
    assert codec.encode_finish(None, has_calls=True) == ("COMPLETE", False)
    # a value that is no reason is refused (responses and streams alike), at the caller's path
    with pytest.raises(InvalidInput, match="outputs.0.reason: expected a string, got dict"):
        codec.decode_finish({}, False, "outputs.0.reason")
    # the plain codec (no stop_with_calls, no numbers): a number is no reason, stop stays stop
    plain = generate(tmp_path, PROTOCOL)
    assert plain.decode_finish("COMPLETE", True).unified == "stop"
    with pytest.raises(InvalidInput, match="finish: expected a string, got int"):
        plain.decode_finish(2)
    assert not hasattr(plain, "FINISH_NUMERIC") and not hasattr(plain, "read_finish")


def test_first_choice_and_finish_where_the_choices_row_puts_them(choices: Any) -> None:
    codec = choices
    c = canonical_of(codec)
    wire = {
        "outputs": [
            {"message": {}, "why": 1, "rank": 0, "score": 0.5, "seed": 7},
            {"message": {}, "why": "MAX_TOKENS", "rank": 1},
        ]
    }
    resp, hints, ctx = c.Response(), {}, Ctx("tiny_v2", "x")
    c0 = codec.first_choice(wire, resp, hints, ctx)
    assert c0 is wire["outputs"][0] and codec.read_finish(c0, True).unified == "tool_calls"
    assert resp.ext == {"outputs": [wire["outputs"][1]]}
    assert hints == {"choice_ext": {"score": 0.5, "seed": 7}}
    # toward another protocol the unread key that says something is reported (score is quiet)
    assert [x.path for x in ctx.losses] == ["outputs[0].seed"]
    assert codec.first_choice({"outputs": []}, resp, {}, ctx) is None
    with pytest.raises(InvalidInput):
        codec.read_finish({"why": ["COMPLETE"]})
    # encoding: from another protocol, the choice_defaults; back to tiny, its own keys and items
    out: dict[str, Any] = {}
    choice: dict[str, Any] = {"message": {}}
    codec.write_finish(c.Finish(unified="length", raw="length"), choice, Ctx("x", "tiny_v2"))
    codec.write_choices(choice, resp, out, Ctx("x", "tiny_v2"))
    assert out == {"outputs": [{"message": {}, "why": "MAX_TOKENS", "score": None}]}
    resp.hints = hints
    codec.write_choices({"message": {}}, resp, out, Ctx("tiny_v2", "tiny_v2"))
    assert out["outputs"] == [{"message": {}, "score": 0.5, "seed": 7}, wire["outputs"][1]]
    # no finish and finish_required unset: null
    codec.write_finish(None, choice, Ctx("x", "tiny_v2"))
    assert choice["why"] is None


def test_finish_rows_the_rule_cannot_compile_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "spec" / "protocols" / "tiny_v2.yaml"
    protocol = PROTOCOL + CHOICES
    msg = _refused(tmp_path, protocol, HINTS)  # the tiny canonical model has no tool_calls reason
    assert msg == (
        f"{path}:{_line(protocol, 'stop_with_calls')}: finish_rule.stop_with_calls: needs the "
        "FinishReason tool_calls (canonical has stop, length, other)"
    )
    protocol = PROTOCOL + ENVELOPE.replace("reason: details.reason", "reason: details..reason")
    msg = _refused(tmp_path, protocol)
    assert msg == (
        f"{path}:{_line(protocol, 'finish_detail:')}: response_envelope.finish_detail.reason: "
        "'details..reason' is not a dotted path"
    )


# ---------------------------------------------------------------- parts beside the finish (rows only)
PARTS = """\
response_envelope:
  parts: blocks
  part_defaults: {text: {lang: und}}
  finish: why
  finish_required: true
  defaults: {id: tiny-default, blocks: [], why: null}
"""


def test_parts_row_needs_no_transform(tmp_path: Path) -> None:
    codec = generate(tmp_path, PROTOCOL + PARTS)
    c = canonical_of(codec)
    assert "blocks" in codec.RESPONSE_KNOWN
    wire = {"id": "r1", "blocks": [{"type": "text", "text": "Hi"}], "why": "MAX_TOKENS"}
    resp, same = c.Response(), Ctx("tiny_v2", "tiny_v2")
    codec.decode_response_fields(wire, resp, same)
    codec.decode_response_envelope(wire, resp, same)
    assert [p.text for p in resp.parts] == ["Hi"] and resp.finish.unified == "length"
    with pytest.raises(InvalidInput) as e:
        codec.decode_response_envelope({"why": "COMPLETE"}, c.Response(), same)
    assert e.value.path == "blocks"
    # back to tiny: as it came; from another protocol: the part defaults and a finish
    out = codec.response_defaults()
    codec.encode_response_fields(resp, out, same)
    codec.encode_response_envelope(resp, out, same)
    assert out == wire
    other = c.Response(parts=resp.parts)
    out = codec.response_defaults()
    codec.encode_response_envelope(other, out, Ctx("x", "tiny_v2"))
    assert out["blocks"] == [{"type": "text", "text": "Hi", "lang": "und"}]
    assert out["why"] == "COMPLETE"


def test_parts_rows_that_cannot_be_compiled_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "spec" / "protocols" / "tiny_v2.yaml"
    protocol = PROTOCOL + PARTS.replace("  parts: blocks\n", "  parts: blocks\n  message: msg\n")
    msg = _refused(tmp_path, protocol)
    assert msg == (
        f"{path}:{_line(protocol, 'parts: blocks')}: response_envelope.parts: parts sit at the "
        "top level: no `message`"
    )
    protocol = PROTOCOL + PARTS.replace("  parts: blocks\n", "")
    msg = _refused(tmp_path, protocol)
    assert msg == (
        f"{path}:{_line(protocol, 'part_defaults:')}: response_envelope.part_defaults: no "
        "`parts` key to write them in"
    )


# ---------------------------------------------------------------- a message beside the finish
MESSAGE = """\
response_envelope:
  choices: outputs
  message: msg
  finish: why
  content: string
  content_parts: [text]
  choice_constants: {rank: 0}
  defaults: {id: tiny-default}
"""


def test_message_rows_are_compiled(tmp_path: Path) -> None:
    """The message_response transform compiled from the rows (decode_message_response /
    encode_message_response), run by the codec's pipeline on a tiny flat-messages protocol."""
    canonical = FLAT_CANONICAL.replace(
        "transforms: {",
        "transforms: {message_response: {compiled: message_response, side: response, "
        "rows: [response_envelope.message, response_envelope.content]}, ",
    )
    protocol = FLAT_PROTOCOL.replace(
        "transforms: [messages_flat]", "transforms: [messages_flat, message_response]"
    )
    codec = generate(tmp_path, protocol + MESSAGE, canonical)
    c = canonical_of(codec)
    assert codec.MESSAGE_PATH == "outputs[0].msg"
    wire = {
        "outputs": [{"rank": 0, "msg": {"role": "chatbot", "content": "Hi"}, "why": "COMPLETE"}]
    }
    resp = codec.decode_response(wire, Ctx("tiny_v2", "x"))
    assert [p.text for p in resp.parts] == ["Hi"] and resp.finish.raw == "COMPLETE"
    assert resp.hints is not None and resp.hints["message_hints"] == {"string": True}  # its form
    with pytest.raises(InvalidInput) as e:
        codec.decode_response({"outputs": []}, Ctx("tiny_v2", "x"))
    assert (e.value.path, str(e.value)) == ("outputs", "outputs: no choices")
    # content_parts: another kind of part is reported at the message's path; content: string:
    # text blocks join (from another protocol); the constants are written beside the message
    parts = [c.TextPart(text="a"), c.NativePart(type="x", data={}, owner="o"), c.TextPart(text="b")]
    ctx = Ctx("x", "tiny_v2")
    out = codec.encode_response(c.Response(parts=parts), ctx)
    assert out["outputs"] == [{"rank": 0, "msg": {"role": "chatbot", "content": "ab"}, "why": None}]
    assert [x.path for x in ctx.losses] == ["outputs[0].msg.content[1]"]
    # to the same protocol the source's own form is kept: a list of one text part stays a list
    same, listed = Ctx("tiny_v2", "tiny_v2"), [{"type": "text", "text": "Hi"}]
    back = c.Response(parts=[c.TextPart(text="Hi")], hints={"message_hints": {}})
    assert codec.encode_response(back, same)["outputs"][0]["msg"]["content"] == listed
    assert codec.encode_response(back, Ctx("x", "tiny_v2"))["outputs"][0]["msg"]["content"] == "Hi"


def test_message_rows_naming_parts_without_rows_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "spec" / "protocols" / "tiny_v2.yaml"
    protocol = PROTOCOL + MESSAGE.replace("content_parts: [text]", "content_parts: [text, image]")
    msg = _refused(tmp_path, protocol)
    assert msg == (
        f"{path}:{_line(protocol, 'content_parts:')}: response_envelope.content_parts[1] image: "
        "no part row for 'image' (expected one of text)"
    )


def test_numbers_need_a_place_in_finish_to_go_back_as_they_came(tmp_path: Path) -> None:
    protocol = PROTOCOL + CHOICES
    msg = _refused(tmp_path, protocol, NO_HINTS)
    assert msg.startswith(
        f"{tmp_path / 'spec/protocols/tiny_v2.yaml'}:{_line(protocol, 'numeric:')}: "
    )
    assert "finish_rule.numeric: no Finish.hints to keep the number in" in msg
