"""Dialect overlays (spec/dialects/*.yaml) on the tiny inline spec: a good overlay generates a
variant codec that runs with the overlay's rows; a bad one is refused with the overlay's file, line
and row, and nothing is written."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from interlingua._losses import Ctx

from codegen.__main__ import main
from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import generate
from tests.test_codegen_items import ITEM_CANONICAL, ITEM_PROTOCOL
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

# the tiny protocol with stream rows, so an overlay has rows to add to
STREAM = """\
stream:
  recognise: type
  decode:
    - {event: message-start, start: {id: id}}
    - {event: content-delta, key: index, open: text, text: delta.text}
    - {event: message-end, finish: delta.finish_reason, usage: usage, end: true}
  encode:
    blocks: sequential
    index: shared
    id_default: msg_tiny
    events:
      start: {type: message-start, id: $id}
      text_delta: {type: content-delta, index: $index, delta: {text: $text}}
    end:
      - body: {type: message-end, delta: {finish_reason: $finish}}
"""
WITH_STREAM = PROTOCOL + STREAM

DIALECT = """\
name: acme
protocol: tiny_v2
title: Acme
flags:
  parallel_flag: parallel_tool_calls
request_fields:
  - {c: temperature, w: temp, type: number, feature: sampling}
  - {c: user, w: end_user, type: str, feature: sampling}
stream:
  decode:
    - {replaces: {event: content-delta}, event: content-delta, key: index, open: text,
       text: [delta.text, delta.message]}
support:
  sampling: {level: full, note: "Acme keeps user"}
"""


def write(tmp_path: Path, dialect: str, protocol: str = WITH_STREAM) -> Path:
    spec = write_spec(tmp_path, CANONICAL, protocol)
    (spec / "dialects").mkdir(exist_ok=True)
    (spec / "dialects" / "acme.yaml").write_text(dialect, encoding="utf-8")
    return spec


def refused(tmp_path: Path, old: str, new: str, at: str | None = None) -> tuple[str, str]:
    """Edit one line of the overlay: (the error, "file:line:" of the line holding ``at``)."""
    assert DIALECT.count(old) == 1, old
    edited = DIALECT.replace(old, new)
    spec = write(tmp_path, edited)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = edited[: edited.index(at or new.strip())].count("\n") + 1
    return str(info.value), f"{spec / 'dialects' / 'acme.yaml'}:{line}:"


def test_an_overlay_generates_a_variant_that_runs_its_rows(tmp_path: Path) -> None:
    spec = write(tmp_path, DIALECT)
    loaded = load_spec(spec)
    assert [d.module for d in loaded.dialects] == ["tiny_v2__acme"]
    base = generate(tmp_path, WITH_STREAM)
    (tmp_path / "spec" / "dialects").mkdir(exist_ok=True)
    (tmp_path / "spec" / "dialects" / "acme.yaml").write_text(DIALECT, encoding="utf-8")
    assert main(["--spec", str(tmp_path / "spec"), "--out", str(tmp_path / "out")]) == 0
    pkg = base.__name__.rsplit(".", 1)[0]
    acme = importlib.import_module(f"{pkg}.tiny_v2__acme_codec")
    index = importlib.import_module(f"{pkg}.registry")
    assert index.DIALECTS == {"acme": ("tiny_v2", "tiny_v2__acme", "Acme")}
    assert (acme.PROTOCOL, acme.DIALECT, base.DIALECT) == ("tiny_v2", "acme", None)
    assert acme.FLAGS.parallel_flag == "parallel_tool_calls" and base.FLAGS.parallel_flag == "none"
    canonical = importlib.import_module(f"{pkg}.canonical")
    req = canonical.Request()
    acme.decode_request_fields({"model": "m", "temp": 0.5, "end_user": "u1"}, req, Ctx("t", "t"))
    assert (req.temperature, req.user) == (0.5, "u1")
    out: dict[str, object] = {}
    acme.encode_request_fields(req, out, Ctx("t", "t"))
    assert out == {"model": "m", "temp": 0.5, "end_user": "u1"}
    assert acme.SUPPORT["sampling"] == ("full", "Acme keeps user")
    # the overlay's codec is linked to the base's: what its rows leave as it is is imported
    # (the same object), what they change is its own, and the whole interface is on it
    assert acme.decode_part is base.decode_part and acme.decode_tool is base.decode_tool
    assert acme.decode_request_fields is not base.decode_request_fields
    assert set(base.__all__) <= set(acme.__all__)
    assert all(hasattr(acme, n) for n in acme.__all__)
    stream = (tmp_path / "out" / "generated" / "tiny_v2__acme_stream.py").read_text()
    assert (
        "# delta.message" in stream
        and "# delta.message"
        not in (tmp_path / "out" / "generated" / "tiny_v2_stream.py").read_text()
    )


def test_a_support_note_changes_only_the_code_that_reports_its_feature(tmp_path: Path) -> None:
    """A loss's reason is one constant per feature (``_WHY_<FEATURE>``): an overlay changing the
    support row of a feature shares every function that reports none of it with its base, and
    the functions that do report it give the overlay's words."""
    notes = "support:\n  sampling: {level: unsupported, note: Acme has none}\n"
    overlay = "name: acme\nprotocol: tiny_v2\ntitle: Acme\n" + notes
    base = generate(tmp_path, PROTOCOL)
    write(tmp_path, overlay, PROTOCOL)
    assert main(["--spec", str(tmp_path / "spec"), "--out", str(tmp_path / "out")]) == 0
    pkg = base.__name__.rsplit(".", 1)[0]
    acme = importlib.import_module(f"{pkg}.tiny_v2__acme_codec")
    assert acme.encode_part is base.encode_part and acme.encode_tool is base.encode_tool
    assert acme.encode_request_fields is not base.encode_request_fields  # it reports `user`
    req = importlib.import_module(f"{pkg}.canonical").Request(model="m", user="u1")
    for codec, why in (
        (base, "tiny_v2 lossy: no top_p; user is dropped"),
        (acme, "tiny_v2 unsupported: Acme has none"),
    ):
        ctx = Ctx("t", "tiny_v2")
        codec.encode_request_fields(req, {}, ctx)
        assert [(x.path, x.why) for x in ctx.losses] == [("user", why)]


def test_unknown_key_in_an_overlay(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, "title: Acme", "title: Acme\ntittle: Acme", at="tittle")
    assert msg.startswith(f"{at} tittle: Extra inputs are not permitted")


def test_unknown_flag(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, "  parallel_flag: parallel_tool_calls", "  paralel: true")
    assert msg.startswith(f"{at} flags.paralel: unknown flag (expected one of ")


def test_a_flag_value_the_base_model_refuses(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path, "  parallel_flag: parallel_tool_calls", "  parallel_flag: sometimes"
    )
    assert msg.startswith(f"{at} flags.parallel_flag: Input should be ")


def test_a_field_row_naming_no_canonical_field(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        "  - {c: user, w: end_user, type: str, feature: sampling}",
        "  - {c: usr, w: end_user, type: str, feature: sampling}",
    )
    assert msg.startswith(
        f"{at} request_fields[1] {{c: usr, w: end_user, type: str, feature: sampling}}: c: "
        "Request has no field 'usr'"
    )


def test_a_stream_row_replacing_no_base_row(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        "    - {replaces: {event: content-delta}, event: content-delta, key: index, open: text,",
        "    - {replaces: {event: content-deltas}, event: content-delta, key: index, open: text,",
    )
    assert at + " stream.decode[0] {" in msg
    assert msg.endswith(
        "replaces: no base row of tiny_v2 stream.decode match {'event': 'content-deltas'} "
        "(name exactly one by its keys)"
    )


def test_a_stream_row_with_an_owner_but_no_opaque_state(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        "       text: [delta.text, delta.message]}",
        "       text: [delta.text, delta.message], owner: delta.format}",
    )
    assert f"{at} stream.decode[0]" in msg and "owner: `owner` names who made opaque state" in msg
    assert "needs a reasoning_details section" in msg


def test_reasoning_details_naming_an_unknown_owner(tmp_path: Path) -> None:
    rows = (
        "reasoning_details:\n  field: reasoning_details\n  owner_key: format\n"
        "  unknown_owner: unknown\n  owners:\n"
        "    - {format: acme-v1, owner: acme_messages}\n"
        "  items:\n    - {type: reasoning.text, text: text, signature: signature}\n"
    )
    msg, at = refused(tmp_path, "support:\n", rows + "support:\n", at="    - {format: acme-v1")
    assert msg == (
        f"{at} reasoning_details.owners[0] {{format: acme-v1, owner: acme_messages}}: owner: "
        "unknown protocol 'acme_messages' (expected one of tiny_v2)"
    )


def test_an_overlay_for_an_unknown_protocol_or_named_unlike_its_file(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, "protocol: tiny_v2", "protocol: tiny_v3")
    assert msg == f"{at} protocol: unknown protocol 'tiny_v3' (expected one of tiny_v2)"
    msg, at = refused(tmp_path / "b", "name: acme", "name: acne")
    assert msg == f"{at} name: expected 'acme' (the file name), got 'acne'"


def test_a_refused_overlay_writes_nothing(tmp_path: Path) -> None:
    spec = write(tmp_path, DIALECT.replace("c: user,", "c: usr,"))
    out = tmp_path / "out"
    assert main(["--spec", str(spec), "--out", str(out)]) == 2
    assert not (out / "generated").exists()


# a transform needing tool results as messages (flat messages: none in items)
NEEDS = "{compiled: tools, flags: {tool_results: tool_messages}}"


@pytest.mark.parametrize(
    ("canonical", "protocol", "flag", "line", "expected"),
    [
        (
            CANONICAL.replace("{tiny_messages: {compiled: tools}}", f"{{tiny_messages: {NEEDS}}}"),
            PROTOCOL,
            "tool_results: items",
            5,
            "flags.tool_results: tiny_v2's transform tiny_messages needs flags.tool_results: "
            "tool_messages (got items)",
        ),
        (  # the user-turn walk's rows, on a protocol whose tool results are tool messages
            CANONICAL,
            PROTOCOL,
            "turns: {key: contents}",
            5,
            "flags.turns.key: only for tool results in user turns (flags.tool_results is "
            "tool_messages)",
        ),
        (  # the overlay holds no item rows: shown at its flags
            ITEM_CANONICAL,
            ITEM_PROTOCOL,
            "tool_calls: message_field",
            4,
            "items: item rows need flags tool_calls: items and tool_results: items",
        ),
    ],
)
def test_a_flag_the_base_rows_contradict_is_refused(
    tmp_path: Path, canonical: str, protocol: str, flag: str, line: int, expected: str
) -> None:
    """A dialect's flags meet its base protocol's rows like the base's own flags do: what its
    transforms need (canonical.yaml), its turn rows and its item rows."""
    spec = write(
        tmp_path, f"name: acme\nprotocol: tiny_v2\ntitle: Acme\nflags:\n  {flag}\n", protocol
    )
    (spec / "canonical.yaml").write_text(canonical, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    assert str(info.value) == f"{spec / 'dialects' / 'acme.yaml'}:{line}: {expected}"


def test_an_overlay_on_an_item_protocol_loads(tmp_path: Path) -> None:
    overlay = (
        "name: acme\nprotocol: tiny_v2\ntitle: Acme\nflags:\n  parallel_flag: parallel_tool_calls\n"
    )
    spec = write(tmp_path, overlay, ITEM_PROTOCOL)
    (spec / "canonical.yaml").write_text(ITEM_CANONICAL, encoding="utf-8")
    assert "acme" in {d.name for d in load_spec(spec).dialects}
