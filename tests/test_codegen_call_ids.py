"""Flags one protocol at most may set, on the tiny spec: ``call_id_signatures`` (whose tool-call
signatures ride in call ids; the envelope names no owner) and ``server_state`` (whose stored
conversations the gateway emulates). Each becomes a registry name the runtime reads instead of a
protocol id (registry.CALL_ID_SIGNATURES, registry.SERVER_STATE); a second protocol or a dialect
setting one is refused with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.load import SpecError, load_spec
from codegen.outputs import render_registry
from tests.test_codegen_generate import generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

FLAGS = {
    "call_id_signatures": ("CALL_ID_SIGNATURES", "call ids carrying signatures"),
    "server_state": ("SERVER_STATE", "server-side conversation state"),
}


def _with(flag: str) -> str:
    return PROTOCOL.replace("flags:\n", f"flags:\n  {flag}: true\n", 1)


def _line(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def _registry(spec: Path) -> dict[str, object]:
    names: dict[str, object] = {}
    exec(render_registry(load_spec(spec)), names)  # noqa: S102 - our own generated module
    return names


@pytest.mark.parametrize("flag", FLAGS)
def test_the_flag_names_its_protocol_in_the_registry(tmp_path: Path, flag: str) -> None:
    name = FLAGS[flag][0]
    assert _registry(write_spec(tmp_path / "on", CANONICAL, _with(flag)))[name] == "tiny_v2"
    # read only through the registry: the codec's FLAGS do not carry it (codegen_only)
    codec = generate(tmp_path / "gen", _with(flag))
    assert not hasattr(codec.FLAGS, flag)
    assert _registry(write_spec(tmp_path / "off"))[name] is None


@pytest.mark.parametrize("flag", FLAGS)
def test_a_second_protocol_with_the_flag_is_refused(tmp_path: Path, flag: str) -> None:
    spec = write_spec(tmp_path, CANONICAL, _with(flag))
    second = _with(flag).replace("id: tiny_v2", "id: tiny_v3", 1)
    (spec / "protocols" / "tiny_v3.yaml").write_text(second, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    where = f"{spec / 'protocols' / 'tiny_v3.yaml'}:{_line(second, flag)}:"
    assert str(info.value).startswith(
        f"{where} flags.{flag}: a second protocol with {FLAGS[flag][1]} ("
    )
    assert str(info.value).endswith("); first: tiny_v2")


@pytest.mark.parametrize("flag", FLAGS)
def test_a_dialect_setting_the_flag_is_refused(tmp_path: Path, flag: str) -> None:
    spec = write_spec(tmp_path)
    dialect = f"name: acme\nprotocol: tiny_v2\ntitle: Acme\nflags:\n  {flag}: true\n"
    (spec / "dialects").mkdir()
    (spec / "dialects" / "acme.yaml").write_text(dialect, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    where = f"{spec / 'dialects' / 'acme.yaml'}:{_line(dialect, flag)}:"
    assert str(info.value) == f"{where} flags.{flag}: a protocol's flag, not a dialect's"
