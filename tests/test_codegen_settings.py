"""The settings rows (codegen/settings.py: ``response_format:`` and ``reasoning:``) on the tiny
inline spec: codegen refuses bad rows with file, line and row, and the functions it compiles the
rows into (decode/encode_response_format, decode/encode_reasoning_config) run on small bodies."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from interlingua._errors import InvalidInput
from interlingua._losses import Ctx
from interlingua.generated.canonical import ReasoningConfig, Request, ResponseFormat

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

CANON = (
    CANONICAL.replace(
        '      - {name: user, type: "str | None", feature: sampling}\n',
        '      - {name: user, type: "str | None", feature: sampling}\n'
        '      - {name: response_format, type: "ResponseFormat | None"}\n'
        '      - {name: reasoning, type: "ReasoningConfig | None"}\n',
    )
    .replace(
        "  - name: Message\n",
        "  - name: ResponseFormat\n"
        "    fields:\n"
        '      - {name: type, type: "str"}\n'
        '      - {name: name, type: "str | None"}\n'
        '      - {name: schema, type: "dict[str, Any] | None"}\n'
        '      - {name: strict, type: "bool | None"}\n'
        '      - {name: description, type: "str | None"}\n'
        "  - name: ReasoningConfig\n"
        "    fields:\n"
        '      - {name: mode, type: "str | None"}\n'
        '      - {name: budget_tokens, type: "int | None"}\n'
        '      - {name: effort, type: "str | None"}\n'
        '      - {name: summary, type: "str | None"}\n'
        '      - {name: ext, type: "dict[str, dict[str, Any]] | None"}\n'
        "  - name: Message\n",
    )
    .replace(
        "transforms: {tiny_messages: {compiled: tools}}\n",
        "transforms:\n"
        "  tiny_messages: {compiled: tools}\n"
        "  tiny_think: {compiled: reasoning_config, rows: [reasoning]}\n"
        "  tiny_format: {compiled: response_format, rows: [response_format]}\n",
    )
)
ROWS = """\
reasoning:
  mode: think.type
  modes: {enabled: "on", disabled: "off", adaptive: "on"}
  budget: think.tokens
  budget_below: cap
  budget_min: 300
  effort: think.level
  efforts: [low, high]
  effort_map: {medium: high}
  ext: [think]
response_format:
  type: output.format.type
  types: {text: text, json_object: json, json_schema: json_schema}
  fields: {name: output.format.name, schema: output.format.schema}
  required: [schema]
  keep: [output]
"""
TINY = PROTOCOL.replace(
    "transforms: [tiny_messages]\n", ROWS + "transforms: [tiny_think, tiny_format]\n"
)


def refused(tmp_path: Path, old: str, new: str) -> tuple[str, str]:
    assert TINY.count(old) == 1, old
    edited = TINY.replace(old, new)
    spec = write_spec(tmp_path, CANON, edited)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = edited[: edited.index(new.strip())].count("\n") + 1
    return str(info.value), f"{spec / 'protocols/tiny_v2.yaml'}:{line}:"


def test_the_rows_load(tmp_path: Path) -> None:
    spec = load_spec(write_spec(tmp_path, CANON, TINY))
    rows = spec.protocols[0].response_format
    assert rows is not None and rows.required == ["schema"]


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (
            "types: {text: text, json_object: json, json_schema: json_schema}",
            "types: {text: text, yaml: json, json_schema: json_schema}",
            "response_format.types.yaml: 'yaml' is not a format type (expected one of text, "
            "json_object, json_schema)",
        ),
        (
            "fields: {name: output.format.name,",
            "fields: {nme: output.format.name,",
            "response_format.fields.nme: ResponseFormat has no field 'nme' (expected one of "
            "description, name, schema, strict)",
        ),
        (
            "required: [schema]",
            "required: [strict]",
            "response_format.required[0] strict: 'strict' has no path in fields (expected one of name, "
            "schema)",
        ),
        (
            "keep: [output]",
            "keep: [outpt]",
            "response_format.keep[0] outpt: 'outpt' is not an object on a path of these rows",
        ),
        (
            "  keep: [output]",
            "  unknown: json_object2\n  keep: [output]",
            "response_format.unknown: 'json_object2' has no row in types (expected one of text, "
            "json_object, json_schema)",
        ),
        (
            "  keep: [output]",
            "  default: x\n  keep: [output]",
            "response_format.default: unknown key (expected one of default_name, fields, keep, "
            "raw_same, required, schema_openapi, type, types, unknown) (got 'x')",
        ),
        (
            'modes: {enabled: "on", disabled: "off", adaptive: "on"}',
            'modes: {enabled: "on", disabled: "off", sometimes: "on"}',
            "reasoning.modes.sometimes: 'sometimes' is not a mode (expected one of enabled, "
            "adaptive, disabled)",
        ),
        (
            "effort_map: {medium: high}",
            "effort_map: {medium: max}",
            "reasoning.effort_map.medium: 'max' is not one of efforts (low, high)",
        ),
        (
            "  mode: think.type",
            "  mode: kind",
            "reasoning.mode: 'kind' is not inside an object of ext (think)",
        ),
        (
            "  budget: think.tokens",
            "  budget: settings.tokens",
            "reasoning.budget: 'settings.tokens' is not inside an object of ext (think)",
        ),
    ],
)
def test_bad_rows_are_refused_with_file_line_and_row(
    tmp_path: Path, old: str, new: str, words: str
) -> None:
    msg, at = refused(tmp_path, old, new)
    assert msg == f"{at} {words}"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return generate(tmp_path_factory.mktemp("settings"), TINY, CANON)


def test_a_json_schema_format_without_a_schema_path_is_refused(tmp_path: Path) -> None:
    """The compiled rows read and write a json_schema format's schema at its path: without one
    they cannot be compiled."""
    edited = TINY.replace(", schema: output.format.schema}", "}").replace(
        "  required: [schema]\n", ""
    )
    spec = write_spec(tmp_path, CANON, edited)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = edited[: edited.index("types: {text: text")].count("\n") + 1
    assert str(info.value) == (
        f"{spec / 'protocols/tiny_v2.yaml'}:{line}: response_format.types.json_schema: a "
        "json_schema format needs a schema path in fields (expected fields.schema)"
    )


def run(codec: ModuleType, wire: dict[str, Any], target: str) -> tuple[Any, dict[str, Any], Ctx]:
    """The compiled rows both ways (the compiled pipeline calls them: transform row compiled)."""
    req = canonical_of(codec).Request()
    codec.decode_response_format(wire, req, Ctx("tiny_v2", target))
    out: dict[str, Any] = {}
    ctx = Ctx("tiny_v2", target)
    codec.encode_response_format(req, out, ctx)
    return req, out, ctx


def test_generated_rows_drive_the_helper(tiny: ModuleType) -> None:
    assert "output" in tiny.REQUEST_ROW_KEYS  # the rows' object never rides in ext
    rf = canonical_of(tiny).ResponseFormat
    wire = {"output": {"format": {"type": "json_schema", "schema": {}}, "tone": "dry"}}
    req, out, ctx = run(tiny, wire, "tiny_v2")
    assert req.response_format == rf(type="json_schema", schema={})
    assert out == wire and ctx.losses == []  # the kept key goes back to the same protocol
    req, out, ctx = run(tiny, {"output": {"format": {"type": "json"}}}, "tiny_v2")
    assert req.response_format == rf(type="json_object")
    assert out == {"output": {"format": {"type": "json"}}}


def test_generated_rows_report_and_refuse(tiny: ModuleType) -> None:
    ctx = Ctx("openai_chat", "tiny_v2")
    rf = ResponseFormat(type="json_schema", schema={}, description="d", strict=False)
    out: dict[str, Any] = {}
    tiny.encode_response_format(Request(response_format=rf), out, ctx)
    assert out == {"output": {"format": {"type": "json_schema", "schema": {}}}}
    assert [x.path for x in ctx.losses] == ["response_format.strict", "response_format.description"]
    with pytest.raises(InvalidInput, match="unknown format type 'xml'") as e:
        run(tiny, {"output": {"format": {"type": "xml"}}}, "tiny_v2")
    assert e.value.path == "output.format.type"
    with pytest.raises(InvalidInput) as e:
        run(tiny, {"output": {"format": {"type": "json_schema", "name": "x"}}}, "tiny_v2")
    assert e.value.path == "output.format.schema"  # required


def test_the_pipeline_calls_the_compiled_transforms_in_row_order(tiny: ModuleType) -> None:
    """A transform row ``compiled: <name>`` is the codec's own decode_/encode_<name>: the whole
    compiled decode_request and encode_request call them where the protocol's row names them."""
    assert list(tiny.TRANSFORMS) == ["tiny_think", "tiny_format"]
    wire = {
        "model": "m",
        "think": {"type": "on", "tokens": 100},
        "output": {"format": {"type": "json"}},
    }
    ctx = Ctx("tiny_v2", "tiny_v2")
    req = tiny.decode_request(wire, ctx)
    c = canonical_of(tiny)
    assert req.reasoning == c.ReasoningConfig(mode="enabled", budget_tokens=100)
    assert req.response_format == c.ResponseFormat(type="json_object")
    assert req.ext is None  # their keys are the rows', never ext
    assert tiny.encode_request(req, ctx) == wire and ctx.losses == []
    other = Ctx("openai_chat", "tiny_v2")  # another protocol's format: what has no path is said
    req.response_format = c.ResponseFormat(type="json_schema", schema={}, strict=False)
    out = tiny.encode_request(req, other)
    assert out["output"] == {"format": {"type": "json_schema", "schema": {}}}
    assert [x.path for x in other.losses] == ["response_format.strict"]


def reasoning_run(
    codec: ModuleType, wire: dict[str, Any], source: str, target: str
) -> tuple[Any, dict[str, Any], Ctx]:
    """The compiled rows both ways (the compiled pipeline calls them: transform row compiled)."""
    req = canonical_of(codec).Request()
    codec.decode_reasoning_config(wire, req, Ctx(source, target))
    out: dict[str, Any] = {}
    ctx = Ctx(source, target)
    codec.encode_reasoning_config(req, out, ctx)
    return req, out, ctx


def test_generated_reasoning_rows_drive_the_helper(tiny: ModuleType) -> None:
    assert "think" in tiny.REQUEST_ROW_KEYS
    wire = {"think": {"type": "on", "tokens": 100, "level": "LOW", "depth": 2}}
    req, out, ctx = reasoning_run(tiny, wire, "tiny_v2", "tiny_v2")
    assert req.reasoning == canonical_of(tiny).ReasoningConfig(
        mode="enabled", budget_tokens=100, effort="low", ext={"think": {"depth": 2}}
    )
    assert out == wire and ctx.losses == []  # its spelling and its extra key go back
    with pytest.raises(InvalidInput, match="unknown think type 'maybe'") as e:
        reasoning_run(tiny, {"think": {"type": "maybe"}}, "tiny_v2", "tiny_v2")
    assert e.value.path == "think.type"


def test_generated_reasoning_rows_toward_another_protocol(tiny: ModuleType) -> None:
    """An effort it lacks goes through effort_map (reported); an effort it does not know at
    all becomes its budget; the source's extra keys are reported; off is a mode."""
    cases = [
        (ReasoningConfig(effort="medium"), {"think": {"type": "on", "level": "high"}}),
        (
            ReasoningConfig(mode="adaptive", effort="minimal"),
            {"think": {"type": "on", "tokens": 1024}},
        ),
        (
            ReasoningConfig(mode="disabled", ext={"thinking": {"display": "x"}}),
            {"think": {"type": "off"}},
        ),
    ]
    lost = [["reasoning.effort"], ["reasoning.effort"], ["thinking.display"]]
    for (r, want), paths in zip(cases, lost, strict=True):
        out: dict[str, Any] = {}
        ctx = Ctx("anthropic_messages", "tiny_v2")
        tiny.encode_reasoning_config(Request(reasoning=r), out, ctx)
        assert out == want
        assert [x.path for x in ctx.losses] == paths


def test_budget_min_needs_budget_below(tmp_path: Path) -> None:
    edited = TINY.replace("  budget_below: cap\n", "")
    spec = write_spec(tmp_path, CANON, edited)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = edited[: edited.index("budget_min: 300")].count("\n") + 1
    assert str(info.value) == (
        f"{spec / 'protocols/tiny_v2.yaml'}:{line}: reasoning.budget_min: "
        "budget_min needs budget_below (the limit it bounds)"
    )


def test_generated_budget_stays_below_its_limit_and_not_under_its_minimum(
    tiny: ModuleType,
) -> None:
    """Half of the limit, but not under budget_min; no budget fits under the limit: no
    thinking. Each lowering is reported."""
    for limit, want in (
        (4000, {"type": "on", "tokens": 2000}),
        (500, {"type": "on", "tokens": 300}),
        (250, None),
    ):
        out: dict[str, Any] = {"cap": limit}
        ctx = Ctx("gemini", "tiny_v2")
        r = ReasoningConfig(mode="enabled", budget_tokens=8000)
        tiny.encode_reasoning_config(Request(reasoning=r), out, ctx)
        assert out.get("think") == want
        assert [x.path for x in ctx.losses] == ["reasoning.budget_tokens"]


def test_the_registry_holds_the_reasoning_flags_the_envelope_reads(tmp_path: Path) -> None:
    """flags.foreign_reasoning is compiled into each codec's CARRIER and the enveloped_reasoning
    owners are generated into generated/registry.py (runtime/transforms/envelopes.py
    reads them; test_codegen_reasoning_items: CARRIER across protocols)."""
    flags = "  sse_event_names: true\n"
    rows = TINY.replace(
        flags, flags + "  foreign_reasoning: signature\n  enveloped_reasoning: true\n"
    )
    codec = generate(tmp_path, rows, CANON)
    registry = importlib.import_module(codec.__name__.rsplit(".", 1)[0] + ".registry")
    assert codec.CARRIER == {"tiny_v2": "own"}  # its own state, never enveloped
    assert set(registry.ENVELOPED_REASONING) == {"tiny_v2"}


def test_one_amount_needs_a_budget_path_and_an_effort_path(tmp_path: Path) -> None:
    efforts = "  effort: think.level\n  efforts: [low, high]\n  effort_map: {medium: high}\n"
    msg, at = refused(tmp_path, efforts, "  one_amount: true\n")
    assert msg == f"{at} reasoning.one_amount: one_amount needs a budget path and an effort path"


def test_generated_one_amount_sends_the_budget_and_reports_the_effort(tmp_path: Path) -> None:
    """Given a budget and an effort, a protocol whose row says they exclude each other gets
    the budget (the effort reported); without the row it gets both."""
    r = ReasoningConfig(mode="enabled", budget_tokens=500, effort="high")
    for rows, want, paths in (
        (TINY, {"think": {"type": "on", "tokens": 500, "level": "high"}}, []),
        (
            TINY.replace(
                "  efforts: [low, high]\n", "  efforts: [low, high]\n  one_amount: true\n"
            ),
            {"think": {"type": "on", "tokens": 500}},
            ["reasoning.effort"],
        ),
    ):
        codec = generate(tmp_path / str(len(paths)), rows, CANON)
        out: dict[str, Any] = {"cap": 4000}
        ctx = Ctx("anthropic_messages", "tiny_v2")
        codec.encode_reasoning_config(Request(reasoning=r), out, ctx)
        assert {k: v for k, v in out.items() if k != "cap"} == want
        assert [x.path for x in ctx.losses] == paths


def test_a_mode_path_without_an_adaptive_value_is_refused(tmp_path: Path) -> None:
    """The compiled rows write an adaptive mode by its wire value: without one they cannot
    be compiled."""
    msg, at = refused(
        tmp_path,
        'modes: {enabled: "on", disabled: "off", adaptive: "on"}',
        'modes: {enabled: "on", disabled: "off"}',
    )
    assert msg == f"{at} reasoning.modes: no wire value for the mode 'adaptive'"


EFFORTS_ONLY = TINY.replace(
    ROWS.split("response_format:")[0],
    "reasoning:\n  effort: level\n  effort_map: {max: high}\n",
)


def test_generated_efforts_only_rows(tmp_path: Path) -> None:
    """A protocol with one top-level effort (Chat's reasoning_effort): a budget becomes the
    smallest effort covering it, a bare mode the default effort, an effort it lacks the one its
    effort_map names, off the effort none; each reported in the runtime's words."""
    codec = generate(tmp_path, EFFORTS_ONLY, CANON)
    cases = [
        (
            ReasoningConfig(mode="enabled", budget_tokens=3000),
            "medium",
            "budget 3000 sent as level 'medium'",
        ),
        (ReasoningConfig(mode="enabled"), "medium", "thinking 'enabled' sent as level 'medium'"),
        (ReasoningConfig(effort="max"), "high", "effort 'max' sent as 'high'"),
        (ReasoningConfig(mode="disabled", effort="none"), "none", None),
    ]
    for r, effort, lost in cases:
        out: dict[str, Any] = {}
        ctx = Ctx("anthropic_messages", "tiny_v2")
        codec.encode_reasoning_config(Request(reasoning=r), out, ctx)
        assert out == {"level": effort}
        assert [x.what for x in ctx.losses] == ([lost] if lost else [])
    req, out, ctx = reasoning_run(codec, {"level": "low", "max_tokens": 9}, "tiny_v2", "tiny_v2")
    assert req.reasoning == canonical_of(codec).ReasoningConfig(effort="low")
    assert out == {"level": "low"} and ctx.losses == []
