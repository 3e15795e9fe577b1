"""What a request keeps for its own protocol alone, compiled into decode_request_fields /
encode_request_fields (executed here on the tiny spec): a `same_only` row (Gemini's body
`model`, which the API takes from the URL) is read, and written back to the same protocol only
when the source sent it; an object of the rows sent empty (Gemini `generationConfig: {}`)
goes back empty to the same protocol. A `same_only` outside the request rows is refused with
file, line and row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from interlingua._losses import Ctx

from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import CANONICAL, PROTOCOL, refusal

MODEL = "  - {c: model, w: model, required: true}\n"
SAME_ONLY = "  - {c: model, w: model, same_only: true}\n"
TINY = PROTOCOL.replace(MODEL, SAME_ONLY)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate(tmp_path_factory.mktemp("tiny_request_kept"), TINY)


def roundtrip(codec: Any, body: dict[str, Any], target: str, model: str | None = None) -> Any:
    """``body``'s request fields decoded, the model set (as a URL says it) and encoded."""
    req = canonical_of(codec).Request()
    ctx = Ctx("tiny_v2", target)
    codec.decode_request_fields(body, req, ctx)
    if model is not None:
        req.model = model
    out: dict[str, Any] = {}
    codec.encode_request_fields(req, out, ctx)
    return req, out


def test_a_same_only_field_goes_back_to_its_source_alone(tiny: Any) -> None:
    body = {"model": "tiny-1", "max_tokens": 64}
    req, out = roundtrip(tiny, body, "tiny_v2")
    assert (req.model, out) == ("tiny-1", body)
    assert roundtrip(tiny, body, "other")[1] == {"max_tokens": 64}
    url = roundtrip(tiny, {"max_tokens": 64}, "tiny_v2", model="from-the-url")
    assert (url[0].model, url[1]) == ("from-the-url", {"max_tokens": 64})  # never sent: not written


def test_an_empty_object_of_the_rows_goes_back_to_its_source(tiny: Any) -> None:
    body = {"model": "tiny-1", "options": {}}
    assert roundtrip(tiny, body, "tiny_v2")[1] == body
    assert roundtrip(tiny, body, "other")[1] == {}
    full = {"options": {"temperature": 0.5}}
    assert roundtrip(tiny, full, "tiny_v2")[1] == full


@pytest.mark.parametrize(
    ("protocol", "row"),
    [
        (TINY.replace("  - {c: id, w: id}\n", "  - {c: id, w: id, same_only: true}\n"),
         "{c: id, w: id, same_only: true}"),
        (TINY.replace("{c: text, w: text, required: true}", "{c: text, w: text, same_only: true}"),
         "{c: text, w: text, same_only: true}"),
    ],
)  # fmt: skip
def test_same_only_outside_the_request_rows_is_refused(
    tmp_path: Path, protocol: str, row: str
) -> None:
    msg = refusal(tmp_path, CANONICAL, protocol, row)
    assert "only a request row is kept for its source" in msg


MAX_TOKENS = "  - {c: max_tokens, w: max_tokens, type: int, feature: sampling}\n"
FORMS = PROTOCOL.replace(
    MAX_TOKENS,
    "  - {c: max_tokens, w: max_tokens, type: int, feature: sampling, aliases: [max_output]}\n"
    "  - {c: stop, w: options.stop, type: str_list, feature: sampling}\n",
)
USER = '      - {name: user, type: "str | None", feature: sampling}\n'
WITH_STOP = CANONICAL.replace(
    USER, USER + '      - {name: stop, type: "list[str] | None", feature: sampling}\n'
)


def test_a_field_goes_back_to_its_source_in_the_form_it_came(tmp_path: Path) -> None:
    """An alias (a top-level key) and a single string for a string list (here nested) are
    written back so to the same protocol alone; the primary key and a list elsewhere."""
    codec = generate(tmp_path, FORMS, WITH_STOP)
    body = {"model": "m", "max_output": 64, "options": {"stop": "END"}}
    req, out = roundtrip(codec, body, "tiny_v2")
    assert (req.max_tokens, req.stop, out) == (64, ["END"], body)
    elsewhere = {"model": "m", "max_tokens": 64, "options": {"stop": ["END"]}}
    assert roundtrip(codec, body, "other")[1] == elsewhere
    for sent in (elsewhere, {"model": "m", "options": {"stop": ["a", "b"]}}):
        assert roundtrip(codec, sent, "tiny_v2")[1] == sent
