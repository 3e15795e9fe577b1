"""The embeddings spec language on a tiny inline spec: malformed rows are refused with the file,
the line and the row; the codec generated from a well-formed one imports and runs."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from interlingua._errors import InvalidInput, UnsupportedFeature
from interlingua._losses import Ctx
from interlingua.generated.embeddings_canonical import EmbeddingsRequest, EmbedInput

from codegen.__main__ import main
from codegen.load import SpecError, load_spec
from tests.tiny_spec import write_spec

ROOT = Path(__file__).resolve().parent.parent

TINY = """\
id: tiny_embed
title: Tiny embeddings
endpoint: POST /embed
upstreams: [tiny_v2]
errors: tiny_v2
http:
  inbound_paths: [/embed]
  upstream_path: /embed
max_inputs: 2
request:
  batch: items
  input: {w: doc, form: content, parts: segs, text: t}
  fields:
    - {c: dimensions, w: size, type: int, feature: dimensions}
  input_fields:
    - {c: task_type, w: kind, type: task_type, feature: task_type}
task_types:
  - {unified: retrieval_query, raw: Q}
response:
  items: vectors
  vector: v
support:
  text_input: {level: full}
  token_input: {level: unsupported}
  multipart_input: {level: full}
  dimensions: {level: full}
  vector_encoding: {level: lossy}
  task_type: {level: full}
  title: {level: unsupported}
  user: {level: unsupported}
  usage: {level: unsupported}
  batch: {level: full}
  extensions: {level: lossy}
"""


def write(tmp_path: Path, tiny: str = TINY) -> Path:
    spec = write_spec(tmp_path)
    (spec / "embeddings").mkdir(exist_ok=True)
    canonical = (ROOT / "spec" / "embeddings" / "canonical.yaml").read_text(encoding="utf-8")
    (spec / "embeddings" / "canonical.yaml").write_text(canonical, encoding="utf-8")
    (spec / "embeddings" / "tiny_embed.yaml").write_text(tiny, encoding="utf-8")
    return spec


def refused(tmp_path: Path, old: str, new: str) -> str:
    assert old in TINY
    spec = write(tmp_path, TINY.replace(old, new))
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    return str(info.value)


def test_unknown_canonical_field_names_the_file_line_and_row(tmp_path: Path) -> None:
    msg = refused(tmp_path, "{c: dimensions, w: size", "{c: dimension, w: size")
    assert "tiny_embed.yaml:14: request.fields[0] {c: dimension, w: size" in msg
    assert "'dimension' is not a field of EmbeddingsRequest" in msg


def test_wire_type_must_carry_the_canonical_type(tmp_path: Path) -> None:
    msg = refused(tmp_path, "w: size, type: int", "w: size, type: str")
    assert (
        "tiny_embed.yaml:14:" in msg
        and "str carries str, EmbeddingsRequest.dimensions is int" in msg
    )


def test_unknown_task_type_and_feature_and_missing_support(tmp_path: Path) -> None:
    msg = refused(
        tmp_path, "{unified: retrieval_query, raw: Q}", "{unified: retrieval_querry, raw: Q}"
    )
    assert (
        "tiny_embed.yaml:18: task_types[0]" in msg and "'retrieval_querry' is not a TaskType" in msg
    )
    msg = refused(tmp_path, "feature: dimensions}", "feature: dims}")
    assert "tiny_embed.yaml:14:" in msg and "unknown feature 'dims'" in msg
    msg = refused(tmp_path, "  batch: {level: full}\n", "")
    assert "missing features batch" in msg


def test_unknown_key_form_and_upstream(tmp_path: Path) -> None:
    msg = refused(tmp_path, "max_inputs: 2\n", "max_inputs: 2\nmax_input: 3\n")
    assert "tiny_embed.yaml:10: max_input: unknown key (expected one of " in msg
    assert "max_inputs" in msg.split("max_input: ", 1)[1]
    msg = refused(tmp_path, "form: content", "form: contents")
    assert "tiny_embed.yaml:12: request.input.form:" in msg
    msg = refused(tmp_path, "upstreams: [tiny_v2]", "upstreams: [tiny_v3]")
    assert "tiny_embed.yaml:4: upstreams[0]" in msg and "'tiny_v3' is not a protocol" in msg
    msg = refused(tmp_path, "max_inputs: 2", "max_inputs: 0")
    assert "tiny_embed.yaml:9: max_inputs: Input should be greater than 0" in msg


def test_a_chat_protocol_served_by_two_embeddings_protocols_is_refused(tmp_path: Path) -> None:
    spec = write(tmp_path)
    other = TINY.replace("id: tiny_embed", "id: tiny_embed2")
    (spec / "embeddings" / "tiny_embed2.yaml").write_text(other, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    assert "tiny_embed2.yaml:4: upstreams[0]" in str(info.value)
    assert "'tiny_v2' is served by tiny_embed already" in str(info.value)


def test_the_registry_lists_what_the_spec_defines(tmp_path: Path) -> None:
    assert main(["--spec", str(write(tmp_path)), "--out", str(tmp_path / "out")]) == 0
    registry: dict[str, object] = {}
    text = (tmp_path / "out" / "generated" / "registry.py").read_text(encoding="utf-8")
    exec(compile(text, "registry.py", "exec"), registry)
    assert registry["PROTOCOLS"] == ("tiny_v2",)
    assert registry["EMBEDDINGS_PROTOCOLS"] == ("tiny_embed",)
    assert registry["EMBEDDINGS_OF"] == {"tiny_v2": "tiny_embed"}


def generate(tmp_path: Path, tiny: str = TINY) -> ModuleType:
    out = tmp_path / "out"
    assert main(["--spec", str(write(tmp_path, tiny)), "--out", str(out)]) == 0
    name = f"tinyembed_{abs(hash(str(tmp_path)))}"
    pkg = out / "generated"
    loader = importlib.util.spec_from_file_location(
        name, pkg / "__init__.py", submodule_search_locations=[str(pkg)]
    )
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    sys.modules[name] = module
    loader.loader.exec_module(module)
    return importlib.import_module(f"{name}.tiny_embed_codec")


def test_the_generated_codec_runs(tmp_path: Path) -> None:
    codec = generate(tmp_path)
    assert (codec.MAX_INPUTS, codec.BATCH_KEY, codec.TASK_DECODE) == (
        2,
        "items",
        {"Q": "retrieval_query"},
    )
    body = {"items": [{"doc": {"segs": [{"t": "a"}]}, "size": 4, "kind": "Q"}]}
    ctx = Ctx("tiny_embed", "tiny_embed")
    req = codec.decode_request(body, ctx)
    assert (req.inputs[0].text, req.inputs[0].task_type, req.dimensions) == (
        "a",
        "retrieval_query",
        4,
    )
    assert codec.encode_request(req, ctx) == body
    resp = codec.decode_response({"vectors": [{"v": [0.5, 1]}]}, ctx)
    assert resp.embeddings[0].vector == [0.5, 1]
    out = codec.encode_response(resp, Ctx("other", "tiny_embed"))
    assert out == {"vectors": [{"v": [0.5, 1]}]}
    with pytest.raises(InvalidInput) as info:
        codec.decode_request({"items": [{"doc": {"segs": [{"t": "a"}]}, "size": "4"}]}, ctx)
    assert info.value.path == "items[0].size"
    text = (tmp_path / "out" / "generated" / "tiny_embed_codec.py").read_text(encoding="utf-8")
    assert text.startswith(
        "# Generated from spec/embeddings/tiny_embed.yaml by `make generate`"
    ) or ("tiny_embed.yaml by `make generate`" in text.splitlines()[0])


def test_list_form_facts_are_refused_on_the_content_form(tmp_path: Path) -> None:
    msg = refused(tmp_path, "text: t}", "text: t, tokens: true}")
    assert "tiny_embed.yaml:12: request.input" in msg
    assert "tokens and unlisted are facts of the list form" in msg


@pytest.mark.parametrize(
    ("old", "new"),
    [("parts: segs, text: t}", "text: t}"), ("form: content", "form: list")],
)
def test_the_content_keys_are_facts_of_the_content_form(tmp_path: Path, old: str, new: str) -> None:
    msg = refused(tmp_path, old, new)
    assert "tiny_embed.yaml:12: request.input" in msg
    assert "parts and text (both) are facts of the content form" in msg


def test_the_content_form_reads_and_writes_its_rows_keys(tmp_path: Path) -> None:
    codec = generate(tmp_path)
    ctx = Ctx("tiny_embed", "tiny_embed")
    doc = {"segs": [{"t": "a"}, {"t": "b"}], "role": "user"}
    req = codec.decode_request({"items": [{"doc": doc}]}, ctx)
    assert req.inputs[0].text == "a\nb"  # several text parts are one input
    assert codec.encode_request(req, ctx) == {"items": [{"doc": doc}]}  # as it came
    other = Ctx("elsewhere", "tiny_embed")  # toward it: one text part of the row's keys
    assert codec.encode_request(req, other) == {"items": [{"doc": {"segs": [{"t": "a\nb"}]}}]}
    assert [(x.path, x.what) for x in other.losses] == [
        ("inputs[0].role", "content field 'role' dropped")
    ]
    with pytest.raises(InvalidInput) as info:
        codec.decode_request({"items": [{"doc": {"segs": [{"t": 1}]}}]}, ctx)
    assert info.value.path == "items[0].doc.segs[0].t"
    image = codec.decode_request({"items": [{"doc": {"segs": [{"img": "x"}]}}]}, ctx)
    with pytest.raises(UnsupportedFeature):  # a part that is no text: this protocol only
        codec.encode_request(image, other)


def list_form(facts: str) -> str:
    """The tiny spec with its inputs in one list (no request objects), the row saying ``facts``."""
    tiny = TINY.replace("  batch: items\n", "")
    tiny = tiny.replace("form: content, parts: segs, text: t}", f"form: list{facts}}}")
    return tiny.replace("  input_fields:", "  shared_input_fields:")


@pytest.mark.parametrize(
    ("facts", "body", "single"),
    [
        ("", {"doc": ["a", "b"]}, False),
        (", tokens: true", {"doc": [[1, 2], [3]]}, False),
        (", unlisted: true", {"doc": "a"}, True),
        (", tokens: true, unlisted: true", {"doc": [1, 2]}, True),
    ],
)
def test_the_list_form_takes_what_its_row_says(
    tmp_path: Path, facts: str, body: dict[str, object], single: bool
) -> None:
    codec = generate(tmp_path, list_form(facts))
    ctx = Ctx("tiny_embed", "tiny_embed")
    req = codec.decode_request(body, ctx)
    assert req.hints == {"single": single}
    assert codec.encode_request(req, ctx) == body


@pytest.mark.parametrize(
    ("facts", "body", "path", "message"),
    [
        ("", {"doc": "a"}, "doc", "expected an array, got str"),
        ("", {"doc": [[1, 2]]}, "doc[0]", "expected a string, got list"),
        (
            ", tokens: true",
            {"doc": [1, 2]},
            "doc[0]",
            "expected a string or a token array, got int",
        ),
        (", unlisted: true", {"doc": [1, 2]}, "doc[0]", "expected a string, got int"),
    ],
)
def test_the_list_form_refuses_what_its_row_does_not_say(
    tmp_path: Path, facts: str, body: dict[str, object], path: str, message: str
) -> None:
    codec = generate(tmp_path, list_form(facts))
    with pytest.raises(InvalidInput) as info:
        codec.decode_request(body, Ctx("tiny_embed", "tiny_embed"))
    assert (info.value.path, info.value.message) == (path, message)


def test_token_arrays_go_only_where_the_row_takes_them(tmp_path: Path) -> None:
    codec = generate(tmp_path, list_form(""))
    tokens = EmbeddingsRequest(inputs=[EmbedInput(tokens=[1, 2])], hints={"single": True})
    with pytest.raises(UnsupportedFeature) as info:
        codec.encode_request(tokens, Ctx("other", "tiny_embed"))
    assert info.value.path == "inputs[0]" and "no tokenizer" in str(info.value)
    one = EmbeddingsRequest(inputs=[EmbedInput(text="a")], hints={"single": True})
    assert codec.encode_request(one, Ctx("other", "tiny_embed"))["doc"] == ["a"]  # never unlisted


def test_a_task_type_default_must_be_a_raw_value_of_the_table(tmp_path: Path) -> None:
    msg = refused(tmp_path, "type: task_type, feature: task_type}", "type: task_type, default: X}")
    assert "tiny_embed.yaml:16: request.input_fields[0] {c: task_type, w: kind" in msg
    assert "default: 'X' is not a raw value of task_types (expected one of Q)" in msg


def test_the_task_table_and_its_default_are_compiled(tmp_path: Path) -> None:
    tiny = list_form("").replace("feature: task_type}", "feature: task_type, default: Q}")
    codec = generate(tmp_path, tiny)
    text = (tmp_path / "out" / "generated" / "tiny_embed_codec.py").read_text(encoding="utf-8")
    assert "encode_task" not in text and "_VECTOR_OUT" not in text  # no interpreter left
    req = EmbeddingsRequest(inputs=[EmbedInput(text="a", task_type="clustering")])
    ctx = Ctx("other", "tiny_embed")
    assert codec.encode_request(req, ctx)["kind"] == "Q"  # the row's default, reported
    assert [(x.path, x.what) for x in ctx.losses] == [
        ("inputs[0].task_type", "task type 'clustering' has no tiny_embed equivalent: sent as 'Q'")
    ]
    same = Ctx("tiny_embed", "tiny_embed")  # the same protocol gets its own raw value back
    assert codec.encode_request(req, same)["kind"] == "clustering" and not same.losses
    req.inputs[0].task_type = "retrieval_query"
    assert codec.encode_request(req, ctx)["kind"] == "Q"
    req.inputs[0].task_type = None
    assert codec.encode_request(req, ctx)["kind"] == "Q"


def test_a_base64_encoding_row_compiles_to_its_one_call(tmp_path: Path) -> None:
    tiny = TINY.replace(
        "task_types:",
        "encodings:\n  - {value: float, vector: float_list}\n"
        "  - {value: b64, vector: base64_float32}\ntask_types:",
    ).replace(
        "    - {c: dimensions, w: size, type: int, feature: dimensions}\n",
        "    - {c: dimensions, w: size, type: int, feature: dimensions}\n"
        "    - {c: encoding_format, w: fmt, type: encoding}\n",
    )
    codec = generate(tmp_path, tiny)
    ctx = Ctx("tiny_embed", "tiny_embed")
    resp = codec.decode_response({"vectors": [{"v": "AAAAPwAAgD8="}]}, ctx)
    assert resp.embeddings[0].vector == [0.5, 1.0] and resp.hints == {"encoding": "b64"}
    assert codec.encode_response(resp, ctx) == {"vectors": [{"v": "AAAAPwAAgD8="}]}
    asked = EmbeddingsRequest(encoding_format="float")
    assert codec.encode_response(resp, ctx, asked) == {"vectors": [{"v": [0.5, 1.0]}]}
    floats = generate(tmp_path / "floats")  # no base64 row: floats whatever is asked
    assert floats.encode_response(resp, ctx, EmbeddingsRequest(encoding_format="b64")) == {
        "vectors": [{"v": [0.5, 1.0]}]
    }
