"""flags.call_id_signatures on the tiny spec: the one protocol whose tool-call signatures ride in
call ids is a row (generated registry.CALL_ID_SIGNATURES, read by the runtime's envelope rules
instead of a protocol name); the call-id envelope names no owner, so a second protocol or a
dialect setting the flag is refused with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.load import SpecError, load_spec
from codegen.outputs import render_registry
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

FLAG = "  call_id_signatures: true\n"
WITH_FLAG = PROTOCOL.replace("flags:\n", "flags:\n" + FLAG, 1)


def _line(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def _registry(spec: Path) -> dict[str, object]:
    names: dict[str, object] = {}
    exec(render_registry(load_spec(spec)), names)  # noqa: S102 - our own generated module
    return names


def test_the_flag_names_the_owner_in_the_registry(tmp_path: Path) -> None:
    assert _registry(write_spec(tmp_path / "on", CANONICAL, WITH_FLAG))["CALL_ID_SIGNATURES"] == (
        "tiny_v2"
    )
    assert _registry(write_spec(tmp_path / "off"))["CALL_ID_SIGNATURES"] is None


def test_a_second_protocol_with_the_flag_is_refused(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, CANONICAL, WITH_FLAG)
    second = WITH_FLAG.replace("id: tiny_v2", "id: tiny_v3", 1)
    (spec / "protocols" / "tiny_v3.yaml").write_text(second, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    where = f"{spec / 'protocols' / 'tiny_v3.yaml'}:{_line(second, FLAG.strip())}:"
    assert str(info.value) == (
        f"{where} flags.call_id_signatures: a second protocol with call ids carrying "
        "signatures (first: tiny_v2); the envelope names no owner"
    )


def test_a_dialect_setting_the_flag_is_refused(tmp_path: Path) -> None:
    spec = write_spec(tmp_path)
    dialect = "name: acme\nprotocol: tiny_v2\ntitle: Acme\nflags:\n" + FLAG
    (spec / "dialects").mkdir()
    (spec / "dialects" / "acme.yaml").write_text(dialect, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    where = f"{spec / 'dialects' / 'acme.yaml'}:{_line(dialect, FLAG.strip())}:"
    assert (
        str(info.value) == f"{where} flags.call_id_signatures: a protocol's flag, not a dialect's"
    )
