"""The snake_case_keys row on the tiny inline spec: the generated codec's decode_snake_case /
encode_snake_case are run (an object taken in either spelling, its keys recased as deep as the
row says, lists walked through, written back as it came), and rows codegen cannot compile are
refused with file, line and row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from interlingua._codec_support import camel, recase_keys
from interlingua._losses import Ctx

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

ROW = "  - {c: temperature, w: options.temperature, type: number, feature: sampling}\n"
NEW = "  - {c: temperature, w: modelOptions.temperature, type: number, feature: sampling}\n"
TINY = PROTOCOL.replace(ROW, NEW).replace(
    "request_fields:\n",
    "snake_case_keys: {modelOptions: 1, toolSetup: 0, turns: 2}\nrequest_fields:\n",
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return generate(tmp_path_factory.mktemp("tiny_snake"), TINY)


def roundtrip(codec: Any, body: dict[str, Any], target: str = "tiny_v2") -> tuple[Any, Any]:
    req = canonical_of(codec).Request()
    w = codec.decode_snake_case(body, req)
    codec.decode_request_fields(w, req, Ctx("tiny_v2", target))
    out: dict[str, Any] = {}
    codec.encode_request_fields(req, out, Ctx("tiny_v2", target))
    out.update({k: v for k, v in w.items() if k == "toolSetup"})  # a transform's key
    codec.encode_snake_case(req, out, Ctx("tiny_v2", target))
    return req, out


def test_an_object_is_read_in_either_spelling_and_written_back_as_it_came(tiny: Any) -> None:
    body = {"model": "m", "model_options": {"temperature": 0.5, "top_k_x": {"a_b": 1}}}
    req, out = roundtrip(tiny, body)
    assert req.temperature == 0.5
    assert req.hints == {"snake_keys": ["model_options", "top_k_x"]}
    assert out == {"model": "m", "model_options": {"temperature": 0.5}}  # top_k_x: ext's
    camel = {"model": "m", "modelOptions": {"temperature": 0.5}}
    assert roundtrip(tiny, camel)[1] == camel and roundtrip(tiny, camel)[0].hints is None
    assert roundtrip(tiny, body, "other")[1] == camel  # to another protocol: camelCase
    both = {**camel, "model_options": {"temperature": 9}}  # the camelCase one wins
    assert roundtrip(tiny, both)[0].temperature == 0.5


def test_depth_zero_renames_the_key_alone(tiny: Any) -> None:
    body = {"model": "m", "tool_setup": {"a_b": 1}}
    req, out = roundtrip(tiny, body)
    assert out == body and req.hints == {"snake_keys": ["tool_setup"]}
    w = tiny.decode_snake_case(body, canonical_of(tiny).Request())
    assert w == {"model": "m", "toolSetup": {"a_b": 1}} and body["tool_setup"] == {"a_b": 1}


def test_a_key_of_one_spelling_has_its_keys_recased_through_lists(tiny: Any) -> None:
    """``turns: 2``: the keys of the list's objects and of theirs, never deeper (the args')."""
    body = {"turns": [{"the_parts": [{"call_args": {"a_b": 1}}]}, {"role": "user"}]}
    req = canonical_of(tiny).Request()
    w = tiny.decode_snake_case(body, req)
    assert w == {"turns": [{"theParts": [{"callArgs": {"a_b": 1}}]}, {"role": "user"}]}
    assert req.hints == {"snake_keys": ["call_args", "the_parts"]}
    out = dict(w)
    tiny.encode_snake_case(req, out, Ctx("tiny_v2", "tiny_v2"))
    assert out == body
    camel = {"turns": [{"role": "user"}]}
    assert tiny.decode_snake_case(camel, canonical_of(tiny).Request()) is camel  # unchanged


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ("snake_case_keys: {options: 0}", "'options' has no other snake_case spelling and no"),
        ("snake_case_keys: {modelOptions: 4}", "depth 4 is not between 0 and 3"),
        ("snake_case_keys: {model.options: 1}", "'model.options' is not a camelCase top-level"),
    ],
)
def test_rows_that_cannot_compile_are_refused(tmp_path: Path, row: str, words: str) -> None:
    edited = PROTOCOL.replace("request_fields:\n", row + "\nrequest_fields:\n")
    spec = write_spec(tmp_path, CANONICAL, edited)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = edited[: edited.index(row)].count("\n") + 1
    msg = str(info.value)
    assert msg.startswith(f"{spec / 'protocols/tiny_v2.yaml'}:{line}: "), msg
    assert words in msg


_KEYS = st.sampled_from(["text", "parts", "function_call", "functionCall", "mime_type", "a_b2"])
_JSON = st.recursive(
    st.none() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=12,
)


def _reference(v: Any, depth: int, seen: set[str]) -> Any:
    """recase_keys toward camelCase written the plain way: every object copied."""
    if depth and type(v) is list:
        return [_reference(x, depth, seen) for x in v]
    if not depth or type(v) is not dict:
        return v
    seen.update(k for k in v if "_" in k)
    return {(camel(k) if "_" in k else k): _reference(x, depth - 1, seen) for k, x in v.items()}


@given(_JSON, st.integers(min_value=0, max_value=4))
def test_recase_keys_copies_only_what_changes(v: Any, depth: int) -> None:
    seen: set[str] = set()
    want_seen: set[str] = set()
    got = recase_keys(v, depth, seen)
    assert got == _reference(v, depth, want_seen)
    assert list(_keys(got)) == list(_keys(_reference(v, depth, set())))  # order kept
    assert seen == want_seen
    if not seen:
        assert got is v  # a body already in camelCase is not copied


def _keys(v: Any) -> Any:
    if type(v) is dict:
        for k, x in v.items():
            yield k
            yield from _keys(x)
    elif type(v) is list:
        for x in v:
            yield from _keys(x)


@given(_JSON, st.integers(min_value=0, max_value=4))
def test_recase_keys_with_names_goes_back_as_it_came(v: Any, depth: int) -> None:
    """The way back (``encode_snake_case``): the keys that came snake_case, named by their
    camelCase spelling, are renamed back and nothing else changes (a body that had a key in
    both spellings is merged on the way there, so it is left out)."""
    seen: set[str] = set()
    there = recase_keys(v, depth, seen)
    names = {camel(s): s for s in seen}
    assume(not names.keys() & set(_keys(v)))
    back = recase_keys(there, depth, set(), names)
    assert back == v and list(_keys(back)) == list(_keys(v))
    if not seen:
        assert back is v
