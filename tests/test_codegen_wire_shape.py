"""Wire paths a part's encoder always writes though the source may leave them out or send null
(codegen/wire_shape.py), compiled into the tiny spec's text row (its ``match`` keys, one nested)
and executed: the decoder records which came absent or null, the encoder writes them back so to
the same protocol alone."""

from __future__ import annotations

from typing import Any

import pytest
from interlingua._losses import Ctx

from tests.test_codegen_generate import generate
from tests.tiny_spec import CANONICAL, PROTOCOL

TEXT_EXT = '      - {name: ext, type: "dict[str, Any] | None"}\n  - name: NativePart'
WITH_HINTS = CANONICAL.replace(
    TEXT_EXT, TEXT_EXT.replace("\n", '\n      - {name: hints, type: "dict[str, Any] | None"}\n', 1)
)
TINY = PROTOCOL.replace("    match: {type: text}\n", "    match: {type: text, meta.kind: plain}\n")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate(tmp_path_factory.mktemp("tiny_wire_shape"), TINY, WITH_HINTS)


def roundtrip(codec: Any, w: dict[str, Any], target: str) -> tuple[Any, dict[str, Any]]:
    ctx = Ctx("tiny_v2", target)
    part = codec.decode_text(w, "p", ctx)
    return part.hints, codec.encode_text(part, "p", ctx)


@pytest.mark.parametrize(
    ("w", "hints"),
    [
        ({"type": "text", "meta": {"kind": "plain"}, "text": "hi"}, None),
        ({"meta": {}, "text": "hi"}, {"absent": ["type", "meta.kind"]}),
        ({"type": None, "meta": {}, "text": "hi"}, {"null": ["type"], "absent": ["meta.kind"]}),
        ({"type": "text", "meta": {"kind": None}, "text": "hi"}, {"null": ["meta.kind"]}),
    ],
)
def test_absent_and_null_paths_go_back_as_they_came(
    tiny: Any, w: dict[str, Any], hints: Any
) -> None:
    assert roundtrip(tiny, w, "tiny_v2") == (hints, w)
    full = {"type": "text", "meta": {"kind": "plain"}, "text": "hi"}
    assert roundtrip(tiny, w, "other")[1] == full
