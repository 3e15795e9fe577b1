"""Codegen refuses a bad spec: one test per refusal, each on the tiny inline spec with one line
edited, asserting the whole message (file, line, row, what was expected)."""

from __future__ import annotations

import typing
from importlib import import_module
from pathlib import Path

import pytest
from interlingua.transforms._base import Transform

from codegen.__main__ import main
from codegen.load import SpecError, load_spec
from codegen.spec_model import WIRE_TYPES_FOR, WireType
from codegen.wire_models import _JSON
from tests.conftest import ROOT, transform_objects
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec


def refused(
    tmp_path: Path, old: str, new: str, *, canonical: bool = False, at: str | None = None
) -> tuple[str, str]:
    """Edit one line of the tiny spec, load it: (the error, "file:line:" of the line holding
    ``at`` (default: the edit) in the edited file)."""
    text = CANONICAL if canonical else PROTOCOL
    assert text.count(old) == 1, old
    edited = text.replace(old, new)
    spec = write_spec(tmp_path, *((edited, PROTOCOL) if canonical else (CANONICAL, edited)))
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    path = spec / ("canonical.yaml" if canonical else "protocols/tiny_v2.yaml")
    line = edited[: edited.index(at or new.strip())].count("\n") + 1
    return str(info.value), f"{path}:{line}:"


def test_the_tiny_spec_loads(tmp_path: Path) -> None:
    spec = load_spec(write_spec(tmp_path))
    assert [p.id for p in spec.protocols] == ["tiny_v2"]


def test_unknown_enum_value(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        "  - {unified: length, raw: MAX_TOKENS}",
        "  - {unified: lenght, raw: MAX_TOKENS}",
    )
    assert msg == (
        f"{at} finish_reasons[1] {{unified: lenght, raw: MAX_TOKENS}}: unified: 'lenght' is "
        "not a FinishReason (expected one of length, other, stop)"
    )


def test_duplicate_yaml_key_names_both_lines(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path, "  sse_event_names: true\n", "  sse_event_names: true\n  sse_event_names: false\n"
    )
    line = int(at.rsplit(":", 2)[1])
    assert msg == (
        f"{at[: at.rindex(':', 0, -1)]}:{line + 1}: flags: duplicate key 'sse_event_names' "
        f"(lines {line} and {line + 1})"
    )


@pytest.mark.parametrize(
    ("old", "new", "row", "expected"),
    [
        (
            "  - {c: max_tokens, w: max_tokens, type: int, feature: sampling}",
            "  - {c: max_tokns, w: max_tokens, type: int, feature: sampling}",
            "request_fields[2] {c: max_tokns, w: max_tokens, type: int, feature: sampling}: c:",
            "Request has no field 'max_tokns' (expected one of ext, hints, max_tokens, messages, "
            "model, source, temperature, tools, user)",
        ),
        (
            "  - {c: id, w: id}",
            "  - {c: ident, w: id}",
            "response_fields[0] {c: ident, w: id}: c:",
            "Response has no field 'ident' (expected one of ext, finish, hints, id, model, parts, "
            "source, usage)",
        ),
        (
            "  - {c: description, w: description}",
            "  - {c: doc, w: description}",
            "tool_fields[1] {c: doc, w: description}: c:",
            "Tool has no field 'doc' (expected one of description, ext, hints, kind, name, "
            "parameters)",
        ),
        (
            "  - {c: output_total, w: tokens.output_tokens, type: int}",
            "  - {c: output, w: tokens.output_tokens, type: int}",
            "usage_fields[1] {c: output, w: tokens.output_tokens, type: int}: c:",
            "Usage has no field 'output' (expected one of input, input_cache_read, "
            "input_cache_write, input_total, output_reasoning, output_total, raw, total)",
        ),
        (
            "      - {c: text, w: text, required: true}",
            "      - {c: txt, w: text, required: true}",
            "parts[0].fields[0] {c: txt, w: text, required: true}: c:",
            "TextPart has no field 'txt' (expected one of ext, text)",
        ),
    ],
)
def test_unknown_canonical_name_in_a_row(
    tmp_path: Path, old: str, new: str, row: str, expected: str
) -> None:
    msg, at = refused(tmp_path, old, new)
    assert msg == f"{at} {row} {expected}"


def test_wire_type_contradicting_the_canonical_type(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        "  - {c: max_tokens, w: max_tokens, type: int, feature: sampling}",
        "  - {c: max_tokens, w: max_tokens, type: str, feature: sampling}",
    )
    assert msg == (
        f"{at} request_fields[2] {{c: max_tokens, w: max_tokens, type: str, feature: sampling}}: "
        "type: wire type 'str' cannot carry Request.max_tokens (int | None); it needs one of "
        "int, whole_number"
    )


def test_the_same_row_twice(tmp_path: Path) -> None:
    old = "  - {unified: none, raw: NONE}\n"
    msg, at = refused(tmp_path, old, old + old, at="NONE}\n  - {unified: none")
    first = int(at.rsplit(":", 2)[1])
    assert (
        f"{at[: at.rindex(':', 0, -1)]}:{first + 1}: tool_choice[2] {{unified: none, raw: NONE}}: "
        in msg
    )
    assert f"the same row again (first at line {first}, tool_choice[1])" in msg


def test_two_decode_rows_for_one_raw_value(tmp_path: Path) -> None:
    old = "  - {unified: length, raw: MAX_TOKENS}\n"
    msg, at = refused(
        tmp_path, old, old + "  - {unified: other, raw: COMPLETE}\n", at="{unified: other"
    )
    assert msg == (
        f"{at} finish_reasons[2] {{unified: other, raw: COMPLETE}}: a decode row for raw "
        f"'COMPLETE' again (first at line {int(at.rsplit(':', 2)[1]) - 2}, finish_reasons[0])"
    )


def test_two_encode_rows_for_one_unified_value(tmp_path: Path) -> None:
    old = "  - {unified: length, raw: MAX_TOKENS}\n"
    msg, at = refused(tmp_path, old, old + "  - {unified: stop, raw: END}\n", at="raw: END")
    assert msg.startswith(f"{at} finish_reasons[2] {{unified: stop, raw: END}}: an encode row")
    assert "for unified 'stop' again (first at line" in msg


def test_two_field_rows_for_one_canonical_field(tmp_path: Path) -> None:
    old = "  - {c: max_tokens, w: max_tokens, type: int, feature: sampling}\n"
    msg, at = refused(
        tmp_path, old, old + "  - {c: max_tokens, w: max_output, type: int}\n", at="w: max_output"
    )
    assert msg.startswith(f"{at} request_fields[3] {{c: max_tokens, w: max_output, type: int}}: ")
    assert "a row for c 'max_tokens' again (first at line" in msg


def test_a_default_only_on_an_optional_str_row(tmp_path: Path) -> None:
    """`default` fills a str field the wire left out: a required row never needs one."""
    msg, at = refused(
        tmp_path,
        "  - {c: text, w: text, required: true}",
        "  - {c: text, w: text, required: true, default: x}",
    )
    assert msg.startswith(f"{at} parts[0].fields[0] {{c: text, w: text, required: true, ")
    assert msg.endswith("a default is for an optional str row of a str field")


@pytest.mark.parametrize(
    ("old", "new", "row", "expected"),
    [
        (  # a tool row once took it, and generated nothing: parameters stayed unread
            "  - {c: parameters, w: parameters, type: object}",
            "  - {c: parameters, w: parameters, type: object, aliases: [schema]}",
            "tool_fields[2] {c: parameters, w: parameters, type: object, aliases: [...]}",
            "aliases: only a request row reads another wire key",
        ),
        (  # the request template reads w[alias]: a path never matched
            "  - {c: max_tokens, w: max_tokens, type: int, feature: sampling}",
            "  - {c: max_tokens, w: max_tokens, type: int, feature: sampling, aliases: [o.max]}",
            "request_fields[2].aliases[0] o.max",
            "an alias is a top-level key, not a path",
        ),
    ],
)
def test_aliases_only_as_top_level_keys_of_request_rows(
    tmp_path: Path, old: str, new: str, row: str, expected: str
) -> None:
    msg, at = refused(tmp_path, old, new)
    assert msg == f"{at} {row}: {expected}"


def test_unknown_transform_name(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path, "transforms: [tiny_messages]", "transforms: [tiny_messages, tiny_mesages]"
    )
    assert msg == (
        f"{at} transforms[1] tiny_mesages: unknown transform 'tiny_mesages' (expected one of "
        "canonical.yaml transforms: tiny_messages)"
    )


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("tools.TOOLZ", "runtime/transforms/tools.py defines no TOOLZ"),
        ("tool.TOOLS", "no module runtime/transforms/tool.py (expected module.OBJECT)"),
        ("TOOLS", "no module runtime/transforms/TOOLS.py (expected module.OBJECT)"),
    ],
)
def test_a_transform_whose_module_or_object_does_not_exist(
    tmp_path: Path, target: str, expected: str
) -> None:
    msg, at = refused(
        tmp_path,
        "transforms: {tiny_messages: {compiled: tools}}",
        f"transforms: {{tiny_messages: {target}}}",
        canonical=True,
    )
    assert msg == f"{at} transforms.tiny_messages: {target}: {expected}"


@pytest.mark.parametrize(
    ("row", "at", "expected"),
    [
        (
            "flags: {tool_result: items}",
            "transforms.tiny_messages.flags.tool_result",
            "no flag 'tool_result' (a key of a protocol's flags)",
        ),
        (
            "flags: {tool_results: blocks}",
            "transforms.tiny_messages.flags.tool_results",
            "'blocks' is no value of flags.tool_results",
        ),
        (
            "rows: [response_envelope.mesage]",
            "transforms.tiny_messages.rows[0] response_envelope.mesage",
            "'mesage' is no key of ResponseEnvelope (expected ",
        ),
    ],
)
def test_a_transform_row_naming_no_flag_value_or_row(
    tmp_path: Path, row: str, at: str, expected: str
) -> None:
    """What a transform needs must be a flag with one of its values, or a protocol's row."""
    msg, line = refused(
        tmp_path,
        "transforms: {tiny_messages: {compiled: tools}}",
        f"transforms: {{tiny_messages: {{object: tools.tool_of, {row}}}}}",
        canonical=True,
    )
    assert msg.startswith(f"{line} {at}: {expected}"), msg


def test_a_protocol_without_a_row_its_transform_reads_is_refused(tmp_path: Path) -> None:
    canonical = CANONICAL.replace(
        "tiny_messages: {compiled: tools}",
        "tiny_messages: {object: tools.tool_of, rows: [response_envelope]}",
    )
    spec = write_spec(tmp_path, canonical, PROTOCOL)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = PROTOCOL[: PROTOCOL.index("transforms: [tiny_messages]")].count("\n") + 1
    assert str(info.value) == (
        f"{spec / 'protocols/tiny_v2.yaml'}:{line}: transforms[0] tiny_messages: transform "
        "tiny_messages needs `response_envelope`"
    )


def test_a_canonical_value_without_an_encode_row_or_default(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, "  - {unified: none, raw: NONE}\n", "", at="tool_choice:")
    assert msg == (
        f"{at} tool_choice: no encode row for ToolChoiceMode none and no "
        "enum_defaults.tool_choice.encode"
    )
    fixed = PROTOCOL.replace("  - {unified: none, raw: NONE}\n", "").replace(
        "  finish_reasons: {decode: other, encode: COMPLETE}",
        "  finish_reasons: {decode: other, encode: COMPLETE}\n  tool_choice: {encode: AUTO}",
    )
    load_spec(write_spec(tmp_path / "fixed", protocol=fixed))


def test_enum_defaults_must_name_real_values(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        "  finish_reasons: {decode: other, encode: COMPLETE}",
        "  finish_reasons: {decode: unknown, encode: DONE}",
    )
    assert msg == (
        f"{at} enum_defaults.finish_reasons.decode: 'unknown' is not a FinishReason (expected "
        f"one of length, other, stop)\n{at} enum_defaults.finish_reasons.encode: 'DONE' is not the "
        "raw value of a finish_reasons decode row (expected one of COMPLETE, MAX_TOKENS)"
    )


def test_unknown_feature(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        "  - {c: temperature, w: options.temperature, type: number, feature: sampling}",
        "  - {c: temperature, w: options.temperature, type: number, feature: sampler}",
    )
    assert msg.startswith(f"{at} request_fields[1] {{c: temperature, w: options.temperature,")
    assert msg.endswith("feature: unknown feature 'sampler' (expected a feature of canonical.yaml)")


def test_unknown_key_names_the_line_and_the_row(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, "  - {c: id, w: id}", "  - {c: id, w: id, requird: true}")
    assert msg == (
        f"{at} response_fields[0] {{c: id, w: id, requird: true}}: requird: unknown key "
        "(expected one of aliases, c, default, feature, omit_zero, required, same_only, type, w) "
        "(got True)"
    )


def test_protocol_ids_may_hold_digits_but_must_match_the_file(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, "id: tiny_v2", "id: tiny_v3")
    assert msg == f"{at} id: expected 'tiny_v2' (the file name), got 'tiny_v3'"
    msg, at = refused(tmp_path / "2", "id: tiny_v2", "id: 2tiny")
    assert msg.startswith(f"{at} id: String should match pattern '^[a-z][a-z0-9_]*$'")


def test_duplicate_canonical_names(tmp_path: Path) -> None:
    old = '      - {name: description, type: "str | None"}\n'
    msg, at = refused(
        tmp_path,
        old,
        old + '      - {name: description, type: "str"}\n',
        canonical=True,
        at='description, type: "str"}',
    )
    assert msg.startswith(f"{at} types[2].fields[2] {{name: description, type: str}}: field")
    assert "'description' again (first at line" in msg


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, "title: Tiny v2", "title: [Tiny v2")
    assert msg.startswith(f"{at.rsplit(':', 2)[0]}:")
    assert ": not valid YAML: " in msg


def test_every_problem_is_listed(tmp_path: Path) -> None:
    edited = PROTOCOL.replace("{unified: length, raw", "{unified: lenght, raw").replace(
        "{c: id, w: id}", "{c: ident, w: id}"
    )
    with pytest.raises(SpecError) as info:
        load_spec(write_spec(tmp_path, protocol=edited))
    assert len(str(info.value).splitlines()) == 2


def test_a_refused_spec_leaves_the_outputs_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    spec = write_spec(tmp_path)
    assert main(["--spec", str(spec), "--out", str(out)]) == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    broken = PROTOCOL.replace("{unified: length, raw", "{unified: lenght, raw")
    write_spec(tmp_path, protocol=broken)
    capsys.readouterr()
    assert main(["--spec", str(spec), "--out", str(out)]) == 2
    assert "tiny_v2.yaml:" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert main(["--spec", str(spec), "--out", str(out), "--check"]) == 2


def test_every_wire_type_has_a_canonical_type_and_a_json_schema() -> None:
    wire_types = set(typing.get_args(WireType))
    assert set().union(*WIRE_TYPES_FOR.values()) == wire_types
    assert set(_JSON) == wire_types


def test_canonical_transforms_name_every_runtime_transform() -> None:
    """spec/canonical.yaml `transforms` is the one table codegen checks names against: each
    object it names is a runtime transform, and runtime/transforms defines no transform it does
    not name (a row ``compiled: <name>`` has none: each codec calls its own functions)."""
    objects = list(transform_objects().values())
    assert all(isinstance(t, Transform) for t in objects)
    defined = {
        f"{f.stem}.{k}": v
        for f in sorted((ROOT / "runtime" / "transforms").glob("*.py"))
        for k, v in vars(import_module(f"interlingua.transforms.{f.stem}")).items()
        if isinstance(v, Transform)
    }
    unnamed = sorted(k for k, v in defined.items() if not any(v is t for t in objects))
    assert not unnamed, f"transforms spec/canonical.yaml does not name: {unnamed}"


def test_unknown_type_in_a_canonical_field(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        '      - {name: finish, type: "Finish | None"}',
        '      - {name: finish, type: "Finsh | None"}',
        canonical=True,
    )
    assert msg.startswith(f"{at} types[7].fields[3] {{name: finish, type: Finsh | None}}: type: ")
    assert "unknown type 'Finsh' (a type of canonical.yaml or one of Any, None, Part," in msg


def test_canonical_model_must_define_what_protocol_rows_map_to(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        "  - {name: ToolChoiceMode, values: [auto, none]}\n",
        "",
        canonical=True,
        at="enums:",
    )
    assert msg == f"{at} enums: missing ToolChoiceMode (the protocol rows map to them)"
