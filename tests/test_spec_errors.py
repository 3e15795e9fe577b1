"""A bad row in the real spec fails in codegen.load.load_spec with the file, the line, the row
and what was expected. Each case copies spec/ into tmp_path and breaks one line of YAML (the
refusals one by one on a tiny spec: tests/test_codegen_checks.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codegen.load import SpecError, load_spec
from tests.conftest import ROOT

SPEC = ROOT / "spec"


def broken_spec(tmp_path: Path, rel: str, old: str, new: str) -> Path:
    root = tmp_path / "spec"
    shutil.copytree(SPEC, root)
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {rel}"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return root


def at(root: Path, rel: str, text: str) -> str:
    """``file:line:`` of the line holding ``text`` in the (edited) spec file."""
    content = (root / rel).read_text(encoding="utf-8")
    return f"{root / rel}:{content[: content.index(text)].count(chr(10)) + 1}:"


def spec_error(root: Path) -> str:
    with pytest.raises(SpecError) as info:
        load_spec(root)
    return str(info.value)


def test_the_real_spec_loads() -> None:
    spec = load_spec(SPEC)
    assert {"anthropic_messages", "openai_chat"} <= {p.id for p in spec.protocols}


def test_unknown_key_in_a_row(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/openai_chat.yaml",
        "  - {c: temperature, w: temperature, type: number, feature: sampling}",
        "  - {c: temperature, w: temperature, type: number, feature: sampling, requird: true}",
    )
    msg = spec_error(root)
    where = at(root, "protocols/openai_chat.yaml", "requird")
    assert f"{where} request_fields[2] {{c: temperature, w: temperature," in msg
    assert "requird: true}: requird: unknown key" in msg
    assert "expected one of" in msg and "required" in msg


def test_unknown_key_in_a_part_field_row(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/anthropic_messages.yaml",
        "      - {c: signature, w: signature, type: str}",
        "      - {c: signature, w: signature, type: str, optional: true}",
    )
    msg = spec_error(root)
    where = at(root, "protocols/anthropic_messages.yaml", "optional: true")
    assert f"{where} parts[12].fields[1] {{c: signature, w: signature" in msg
    assert "optional: true}: optional: unknown key (expected one of" in msg


def test_wrong_type_of_a_wire_field(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/openai_chat.yaml",
        "  - {c: temperature, w: temperature, type: number, feature: sampling}",
        "  - {c: temperature, w: temperature, type: float, feature: sampling}",
    )
    msg = spec_error(root)
    where = at(root, "protocols/openai_chat.yaml", "type: float")
    assert f"{where} request_fields[2] {{c: temperature, w: temperature, type: float" in msg
    assert "'number'" in msg and "got 'float'" in msg


def test_wrong_type_of_a_flag(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/anthropic_messages.yaml",
        "  max_tokens_default: 4096",
        "  max_tokens_default: plenty",
    )
    msg = spec_error(root)
    where = at(root, "protocols/anthropic_messages.yaml", "plenty")
    assert f"{where} flags.max_tokens_default:" in msg
    assert "valid integer" in msg and "'plenty'" in msg


def test_unknown_feature_id(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/anthropic_messages.yaml",
        "  - {c: top_k, w: top_k, type: int, feature: top_k}",
        "  - {c: top_k, w: top_k, type: int, feature: topk}",
    )
    msg = spec_error(root)
    where = at(root, "protocols/anthropic_messages.yaml", "feature: topk")
    assert f"{where} request_fields[4] {{c: top_k, w: top_k, type: int, feature: topk}}:" in msg
    assert "feature: unknown feature 'topk' (expected a feature of canonical.yaml)" in msg


def test_part_row_naming_a_field_the_canonical_part_lacks(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/anthropic_messages.yaml",
        "      - {c: signature, w: signature, type: str}",
        "      - {c: signatur, w: signature, type: str}",
    )
    msg = spec_error(root)
    where = at(root, "protocols/anthropic_messages.yaml", "c: signatur,")
    assert f"{where} parts[12].fields[1] {{c: signatur, w: signature, type: str}}: c:" in msg
    assert "ReasoningPart has no field 'signatur'" in msg
    assert "(expected one of cache, ext, id, owner, redacted, signature, text)" in msg


def test_support_table_must_cover_every_feature(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/openai_chat.yaml",
        '  top_k: {level: unsupported, note: "not in the official API"}\n',
        "",
    )
    msg = spec_error(root)
    where = at(root, "protocols/openai_chat.yaml", "support:")
    assert f"{where} support: no entry for features ['top_k']" in msg


def test_bad_canonical_file(tmp_path: Path) -> None:
    root = broken_spec(tmp_path, "canonical.yaml", "version: 1", "version: 2")
    msg = spec_error(root)
    assert f"{at(root, 'canonical.yaml', 'version: 2')} version: Input should be 1" in msg


def test_not_yaml(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path, "protocols/openai_chat.yaml", "id: openai_chat", "id: [openai_chat"
    )
    msg = spec_error(root)
    assert f"{root / 'protocols/openai_chat.yaml'}:" in msg and ": not valid YAML" in msg


def test_bad_http_section(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/gemini.yaml",
        "    countTokens: count_tokens\n",
        "    countTokens: count\n",
    )
    msg = spec_error(root)
    where = at(root, "protocols/gemini.yaml", "countTokens: count")
    assert f"{where} http.url_actions.countTokens: Input should be" in msg


def test_http_model_prefix_needs_a_model_in_the_path(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/openai_chat.yaml",
        "  upstream_path: /chat/completions\n",
        '  upstream_path: /chat/completions\n  model_prefix: "models/"\n',
    )
    msg = spec_error(root)
    where = at(root, "protocols/openai_chat.yaml", "http:")
    assert f"{where} http: Value error, model_prefix is left out of a path's {{model}}" in msg


def test_http_url_actions_need_a_target(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/openai_chat.yaml",
        "  upstream_path: /chat/completions\n",
        "  upstream_path: /chat/completions\n  url_actions: {generate: generate}\n",
    )
    msg = spec_error(root)
    where = at(root, "protocols/openai_chat.yaml", "http:")
    assert f"{where} http: Value error, url_actions are needed exactly when" in msg


def test_a_finish_reason_without_an_encode_row_needs_a_default(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/openai_chat.yaml",
        "  finish_reasons: {decode: other, encode: stop}\n",
        "  finish_reasons: {decode: other}\n",
    )
    assert "finish_reasons.encode: Field required" in spec_error(root)
    root = broken_spec(
        tmp_path / "2",
        "protocols/openai_chat.yaml",
        "  - {unified: pause, raw: stop, only: encode}\n",
        "",
    )
    load_spec(root)  # the declared encode default covers `pause`


def test_a_role_without_an_encode_row_or_default_is_refused(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/openai_chat.yaml",
        "  - {unified: developer, raw: developer}\n",
        "",
    )
    msg = spec_error(root)
    where = at(root, "protocols/openai_chat.yaml", "roles:")
    assert f"{where} roles: no encode row for Role developer" in msg
    assert "no enum_defaults.roles.encode" in msg


def test_enum_defaults_must_be_real_values(tmp_path: Path) -> None:
    root = broken_spec(
        tmp_path,
        "protocols/gemini.yaml",
        "  finish_reasons: {decode: other, encode: STOP}",
        "  finish_reasons: {decode: unknown, encode: DONE}",
    )
    msg = spec_error(root)
    assert "enum_defaults.finish_reasons.decode: 'unknown' is not a FinishReason" in msg
    assert "enum_defaults.finish_reasons.encode: 'DONE' is not the raw value" in msg


def test_generated_codecs_fall_back_on_the_finish_defaults() -> None:
    """enum_defaults.finish_reasons, compiled into decode_finish / encode_finish: an unknown raw
    reason reads as the decode default; a reason with no row is sent as the encode default, a
    raw reason that reads back (as another reason: lossy)."""
    import importlib

    from interlingua.generated.canonical import Finish

    for proto, decode, no_row, encode in (
        ("anthropic_messages", "other", "other", "end_turn"),
        ("openai_chat", "other", "pause", "stop"),
        ("openai_responses", "other", "pause", "completed"),
        ("gemini", "other", "pause", "STOP"),
        ("cohere_v2", "other", "pause", "COMPLETE"),
    ):
        codec = importlib.import_module(f"interlingua.generated.{proto}_codec")
        assert codec.decode_finish("no_such_reason") == Finish(unified=decode, raw="no_such_reason")
        assert codec.encode_finish(Finish(unified=no_row, raw=None)) == (encode, True)
        assert codec.decode_finish(encode).unified != decode  # a raw reason it reads back


def test_numeric_finish_values_name_decoded_raw_reasons(tmp_path: Path) -> None:
    root = broken_spec(tmp_path, "protocols/gemini.yaml", "5: OTHER}", "5: OTHR}")
    msg = spec_error(root)
    where = at(root, "protocols/gemini.yaml", "numeric:")
    assert f"{where} finish_rule.numeric.5: 'OTHR' is not the raw value of a finish_reasons" in msg


def test_an_error_shape_path_outside_the_error_object(tmp_path: Path) -> None:
    """codegen compiles error_shape into each codec's read_error / write_error: every path sits in
    the one error object a stream's error row points at (codegen/errors.py)."""
    root = broken_spec(
        tmp_path,
        "protocols/gemini.yaml",
        "  status_code_path: error.code",
        "  status_code_path: code",
    )
    msg = spec_error(root)
    where = at(root, "protocols/gemini.yaml", "status_code_path: code")
    assert f"{where} error_shape.status_code_path: 'code' is not in the error object (error," in msg
