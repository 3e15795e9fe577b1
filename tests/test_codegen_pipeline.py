"""The transforms row compiled (codegen/pipeline.py): each codec's decode_request /
encode_request / decode_response / encode_response, run on the tiny spec (executed, not compared
with text), and the side each transform works on (its canonical.yaml row's ``side``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from interlingua._losses import Ctx
from interlingua.transforms._base import _noop

from codegen.load import load_spec
from codegen.transform_rows import COMPILED
from tests.conftest import ROOT, transform_objects
from tests.test_codegen_checks import refused
from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import CANONICAL, PROTOCOL

NO_TRANSFORMS = PROTOCOL.replace("transforms: [tiny_messages]", "transforms: []")


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The tiny codec with no transforms: the pipeline is its rows and the extension rule."""
    return generate(tmp_path_factory.mktemp("plain"), NO_TRANSFORMS)


def test_each_transform_works_on_the_side_the_canonical_spec_says() -> None:
    rows = load_spec(ROOT / "spec").canonical.transform_rows()
    objects = transform_objects()
    for name in set(rows) - set(objects):  # no object: the codec's own compiled functions
        compiled = rows[name].compiled
        assert compiled is not None and rows[name].side == COMPILED[compiled].side, name
    for name, t in objects.items():
        mine, other = (rows[name].side, "request" if rows[name].side == "response" else "response")
        assert getattr(t, f"decode_{mine}") is not _noop, name
        assert getattr(t, f"decode_{other}") is _noop, name
        assert getattr(t, f"encode_{other}") is _noop, name
        assert not getattr(t, f"{other}_keys"), name


def test_a_request_goes_through_the_rows_and_unknown_keys_ride_in_ext(plain: ModuleType) -> None:
    same = Ctx("tiny_v2", "tiny_v2")
    body = {"model": "m", "options": {"temperature": 0.5, "seed": 7}, "odd": [1]}
    req = plain.decode_request(body, same)
    assert (req.source, req.model, req.temperature) == ("tiny_v2", "m", 0.5)
    assert req.ext == {"odd": [1], "options.seed": 7}
    assert plain.encode_request(req, same) == body  # back to its protocol as it came
    other = Ctx("tiny_v2", "elsewhere")
    assert "odd" not in plain.encode_request(req, other)
    assert sorted(loss.path for loss in other.losses) == ["odd", "options.seed"]


def test_a_response_goes_through_the_rows_and_the_envelope(plain: ModuleType) -> None:
    same = Ctx("tiny_v2", "tiny_v2")
    body = {"id": "r1", "model": "m", "usage": {"tokens": {"input_tokens": 3}}, "trace": "x"}
    resp = plain.decode_response(body, same)
    assert (resp.source, resp.id, resp.model, resp.ext) == ("tiny_v2", "r1", "m", {"trace": "x"})
    assert resp.usage is not None and resp.usage.input_total == 3
    out = plain.encode_response(resp, same)
    assert (out["id"], out["model"], out["trace"]) == ("r1", "m", "x")


def test_a_required_output_limit_is_written_with_its_default_and_reported(
    tmp_path: Path,
) -> None:
    protocol = NO_TRANSFORMS.replace(
        "  parallel_flag: none\n",
        "  parallel_flag: none\n  max_tokens_required: true\n  max_tokens_default: 1000\n",
    )
    canonical = CANONICAL.replace(
        '      - {name: user, type: "str | None", feature: sampling}\n',
        '      - {name: user, type: "str | None", feature: sampling}\n'
        '      - {name: reasoning, type: "dict[str, Any] | None"}\n',
    )
    codec = generate(tmp_path, protocol, canonical)
    req = canonical_of(codec).Request(model="m")
    ctx = Ctx("elsewhere", "tiny_v2")
    out: dict[str, Any] = codec.encode_request(req, ctx)
    assert out == {"model": "m", "max_tokens": 1000}
    assert req.max_tokens is None  # the caller's request is never changed
    assert [(x.path, x.why) for x in ctx.losses] == [("max_tokens", "tiny_v2 requires one")]
    assert codec.encode_request(dataclasses.replace(req, max_tokens=5), ctx)["max_tokens"] == 5


def test_a_side_that_is_neither_request_nor_response(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        "transforms: {tiny_messages: {compiled: tools}}",
        "transforms: {tiny_messages: {object: tools.tool_of, side: reply}}",
        canonical=True,
    )
    assert msg.endswith(
        f"{at} transforms.tiny_messages.TransformRow.side: Input should be 'request' or "
        "'response' (got 'reply')"
    )


@pytest.mark.parametrize(
    ("row", "at", "expected"),
    [
        (
            "{compiled: reasoning_config}",
            "transforms.tiny_messages.compiled",
            "'reasoning_config' with no flags, no rows names no compiled functions (expected one "
            "of response_format (rows: [response_format]); reasoning_config (rows: [reasoning]); "
            "messages (rows: [messages]); turns (flags.tool_results: user_turn_blocks); "
            "tools (no flags, no rows); message_response (rows: [response_envelope.message, "
            "response_envelope.content], side: response))",
        ),
        (
            "{compiled: settings, rows: [reasoning]}",
            "transforms.tiny_messages.compiled",
            "'settings' with rows: [reasoning] names no compiled functions",
        ),
        (  # the turn walk is emitted for tool results in user turns only
            "{compiled: turns}",
            "transforms.tiny_messages.compiled",
            "'turns' with no flags, no rows names no compiled functions",
        ),
        (
            "{object: tools.tool_of, compiled: reasoning_config, rows: [reasoning]}",
            "transforms.tiny_messages",
            "expected one of object (module.OBJECT) and compiled",
        ),
        (
            "{compiled: reasoning_config, rows: [reasoning], side: response}",
            "transforms.tiny_messages.side",
            "the compiled functions walk the request",
        ),
        (  # the message beside the finish is a response's
            "{compiled: message_response, "
            "rows: [response_envelope.message, response_envelope.content]}",
            "transforms.tiny_messages.side",
            "the compiled functions walk the response",
        ),
    ],
)
def test_a_compiled_transform_row_is_checked(
    tmp_path: Path, row: str, at: str, expected: str
) -> None:
    """A row ``compiled: <name>`` (no object) must name functions the flags and rows it needs
    compile (codegen/transform_rows.py COMPILED), on their side."""
    msg, line = refused(
        tmp_path,
        "transforms: {tiny_messages: {compiled: tools}}",
        f"transforms: {{tiny_messages: {row}}}",
        canonical=True,
    )
    assert msg.startswith(f"{line} {at}: {expected}"), msg
