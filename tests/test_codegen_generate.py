"""The generator on a tiny inline spec: each test writes the spec into tmp_path, runs
`python -m codegen --spec ... --out ...` into tmp_path, imports the generated codec and runs it
on small bodies (the generated code is executed, not compared with text)."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx

from codegen.__main__ import main
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec


def generate(tmp_path: Path, protocol: str = PROTOCOL, canonical: str = CANONICAL) -> ModuleType:
    """Generate the spec into tmp_path/out and import its `generated` folder as a fresh package;
    returns the tiny_v2 codec module (its package also holds `canonical`, `spec_types`)."""
    spec = write_spec(tmp_path, canonical, protocol)
    out = tmp_path / "out"
    assert main(["--spec", str(spec), "--out", str(out)]) == 0
    name = f"tinygen_{abs(hash(str(tmp_path)))}"
    pkg = out / "generated"
    loader = importlib.util.spec_from_file_location(
        name, pkg / "__init__.py", submodule_search_locations=[str(pkg)]
    )
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    sys.modules[name] = module
    loader.loader.exec_module(module)
    return importlib.import_module(f"{name}.tiny_v2_codec")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The codec generated from the unedited tiny spec (generated once for the module)."""
    return generate(tmp_path_factory.mktemp("tiny"))


def canonical_of(codec: ModuleType) -> Any:
    return importlib.import_module(codec.__name__.rsplit(".", 1)[0] + ".canonical")


def test_generated_codec_decodes_and_encodes_request_fields(tiny: ModuleType) -> None:
    codec = tiny
    c = canonical_of(codec)
    ctx = Ctx("tiny_v2", "tiny_v2")
    body = {"model": "tiny-1", "options": {"temperature": 0.5}, "max_tokens": 64}
    req = c.Request()
    codec.decode_request_fields(body, req, ctx)
    assert (req.model, req.temperature, req.max_tokens) == ("tiny-1", 0.5, 64)
    out: dict[str, Any] = {}
    codec.encode_request_fields(req, out, ctx)
    assert out == body
    assert ctx.losses == []
    # the rows' top-level keys, and the list its compiled tools walk reads
    assert {"model", "options", "max_tokens", "tools"} == codec.REQUEST_ROW_KEYS


def test_generated_codec_refuses_bad_wire_values_with_their_path(tiny: ModuleType) -> None:
    codec = tiny
    c = canonical_of(codec)
    ctx = Ctx("tiny_v2", "tiny_v2")
    with pytest.raises(InvalidInput, match="missing required field") as info:
        codec.decode_request_fields({"max_tokens": 1}, c.Request(), ctx)
    assert info.value.path == "model"
    with pytest.raises(InvalidInput, match="expected a number") as info:
        codec.decode_request_fields(
            {"model": "m", "options": {"temperature": "hot"}}, c.Request(), ctx
        )
    assert info.value.path == "options.temperature"
    with pytest.raises(InvalidInput, match="unknown content block type 'image'"):
        codec.decode_part({"type": "image"}, ".content[0]", ctx)


def test_generated_codec_reports_a_canonical_field_it_has_no_row_for(tiny: ModuleType) -> None:
    codec = tiny
    c = canonical_of(codec)
    ctx = Ctx("other", "tiny_v2")
    out: dict[str, Any] = {}
    codec.encode_request_fields(c.Request(model="m", user="u-1"), out, ctx)
    assert out == {"model": "m"}
    assert [(loss.path, loss.feature) for loss in ctx.losses] == [("user", "sampling")]
    assert "no top_p; user is dropped" in ctx.losses[0].why


def test_generated_parts_tools_and_usage_round_trip(tiny: ModuleType) -> None:
    codec = tiny
    c = canonical_of(codec)
    ctx = Ctx("tiny_v2", "tiny_v2")
    part = codec.decode_part({"type": "text", "text": "hi", "cite": [1]}, ".content[0]", ctx)
    assert part == c.TextPart(text="hi", ext={"cite": [1]})
    assert codec.encode_part(part, ".content[0]", ctx) == {
        "type": "text",
        "text": "hi",
        "cite": [1],
    }
    tool = codec.decode_tool({"name": "f", "parameters": {"type": "object"}}, ".tools[0]", ctx)
    assert (tool.name, tool.parameters, tool.description) == ("f", {"type": "object"}, None)
    assert codec.encode_tool(tool, ".tools[0]", ctx) == {
        "name": "f",
        "parameters": {"type": "object"},
    }
    usage = codec.decode_usage({"tokens": {"input_tokens": 3, "output_tokens": 4}}, ".usage")
    assert (usage.input_total, usage.output_total) == (3, 4)
    assert codec.encode_usage(usage) == {"tokens": {"input_tokens": 3, "output_tokens": 4}}
    # the usage rule, compiled: the counts the tiny usage rows do not carry, and only those
    usage.input_cache_read, usage.output_reasoning = 2, 0
    [lost] = codec.usage_losses(usage, "tiny_v2", "usage")
    assert (lost.path, lost.what, lost.why, lost.feature) == (
        "usage.input_cache_read",
        "input_cache_read count 2 dropped (still included in the totals)",
        "tiny_v2 usage has no such count",
        "usage",
    )
    assert "output_total" not in inspect.getsource(codec.usage_losses)  # a carried count


def test_generated_enum_tables_defaults_flags_and_http(tiny: ModuleType) -> None:
    codec = tiny
    assert codec.PROTOCOL == "tiny_v2"  # a protocol id may hold digits
    assert codec.FINISH_DECODE == {"COMPLETE": "stop", "MAX_TOKENS": "length"}
    # enum_defaults: an unknown raw reason reads as `other`, a reason with no row is sent as
    # COMPLETE (lossy: it reads back as stop)
    finish = canonical_of(codec).Finish
    assert codec.decode_finish("PAUSED") == finish(unified="other", raw="PAUSED")
    assert codec.encode_finish(finish(unified="other", raw=None)) == ("COMPLETE", True)
    assert not hasattr(codec, "TOOL_CHOICE_ENCODE_DEFAULT")  # declared only when the spec says
    assert codec.ROLE_ENCODE == {"user": "user", "assistant": "chatbot"}
    assert codec.ERROR_STATUS == {"invalid_request": 400, "api_error": 500}
    assert codec.FLAGS.tool_calls == "message_field"
    assert not hasattr(codec.FLAGS, "reasoning_fields")  # codegen_only: compiled, not carried
    assert codec.HTTP.auth.value("k-1") == "Bearer k-1"
    assert codec.HTTP.auth.key_in("bearer k-1") == "k-1"
    assert codec.HTTP.auth.key_in("Basic k-1") is None
    assert codec.HTTP.model_in_path is False and codec.HTTP.count_tokens is None
    assert codec.TRANSFORMS == ("tiny_messages",)


def test_a_spec_change_changes_the_generated_behaviour(tmp_path: Path) -> None:
    """whole_number: a wire number with a whole value (40.0) decodes as an int (a declared
    tool_choice default: test_codegen_tool_choice, where decode_tool_choice falls back on it)."""
    protocol = PROTOCOL.replace(
        "  - {c: max_tokens, w: max_tokens, type: int, feature: sampling}",
        "  - {c: max_tokens, w: limits.max, type: whole_number, feature: sampling}",
    )
    codec = generate(tmp_path, protocol)
    c = canonical_of(codec)
    ctx = Ctx("tiny_v2", "tiny_v2")
    req = c.Request()
    codec.decode_request_fields({"model": "m", "limits": {"max": 40.0}}, req, ctx)
    assert req.max_tokens == 40 and type(req.max_tokens) is int
    with pytest.raises(InvalidInput, match="expected a whole number") as info:
        codec.decode_request_fields({"model": "m", "limits": {"max": 40.5}}, c.Request(), ctx)
    assert info.value.path == "limits.max"


def test_generated_spec_types_carry_the_spec_model_fields(tmp_path: Path) -> None:
    """The runtime's flag and HTTP types are generated from the pydantic spec models: every
    model field (and computed field) is a field of the runtime type, but those the model names
    ``codegen_only`` (compiled into the codecs, read by no runtime code)."""
    import dataclasses

    import interlingua.generated.spec_types as generated_types

    from codegen.spec_types import RUNTIME_TYPES

    for model, name in RUNTIME_TYPES.items():
        runtime_type = getattr(generated_types, name)
        fields = {f.name for f in dataclasses.fields(runtime_type)}
        only = getattr(model, "codegen_only", frozenset())
        assert fields == (set(model.model_fields) | set(model.model_computed_fields)) - only, name


def test_a_flag_constant_and_a_canonical_default_in_part_rows(tmp_path: Path) -> None:
    """Parts recognised by a key (`present`, Gemini): a `match` constant true is that flag
    itself (`1` is not it) and is written back; a row field absent on the wire takes the row's
    `default` (Gemini's thought part with only a signature has the text "")."""
    protocol = PROTOCOL.replace(
        """parts:
  - part: text
    feature: text
    match: {type: text}
    fields:
      - {c: text, w: text, required: true}
""",
        """parts:
  - part: text
    feature: text
    present: note
    match: {note: true}
    fields:
      - {c: text, w: body, default: ""}
  - part: text
    feature: text
    present: text
    match: {}
    decode_only: true
    fields:
      - {c: text, w: text, required: true}
""",
    )
    assert protocol != PROTOCOL
    codec = generate(tmp_path, protocol)
    c = canonical_of(codec)
    ctx = Ctx("tiny_v2", "tiny_v2")
    assert codec.decode_part({"note": True}, "p", ctx) == c.TextPart(text="")
    assert codec.decode_part({"note": True, "body": "b"}, "p", ctx).text == "b"
    assert codec.decode_part({"note": 1, "text": "t"}, "p", ctx) == c.TextPart(
        text="t", ext={"note": 1}
    )
    assert codec.encode_part(c.TextPart(text="hi"), "p", ctx) == {"note": True, "body": "hi"}
