"""The configuration is checked at start: a missing key variable, a bad URL, an unknown protocol
or fallback name stop ``interlingua serve`` with exit 2 and the key named; a keyless upstream
off this machine must say so."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")

from interlingua._cli import main  # noqa: E402
from interlingua.gateway.cli import describe  # noqa: E402
from interlingua.gateway.config import ConfigError, load_config  # noqa: E402


def up(**kw: Any) -> dict[str, Any]:
    return {"protocol": "openai_chat", "base_url": "http://127.0.0.1:1/v1", **kw}


@pytest.mark.parametrize(
    ("upstreams", "environ", "named"),
    [
        (
            [up(api_key_env="NO_SUCH_KEY_VAR")],
            {},
            r"upstreams\[0\]\.api_key_env: \$NO_SUCH_KEY_VAR",
        ),
        ([up(api_key_env="EMPTY_KEY")], {"EMPTY_KEY": ""}, r"upstreams\[0\]\.api_key_env"),
        ([up(base_url="api.openai.com/v1")], {}, r"upstreams\[0\]\.base_url: expected an http"),
        ([up(base_url="ftp://host/v1")], {}, r"upstreams\[0\]\.base_url"),
        ([up(protocol="cohere_v9")], {}, r"upstreams\[0\]\.protocol: expected one of"),
        (
            [up(), up(base_url="https://api.openai.com/v1")],
            {},
            r"upstreams\[1\]\.api_key_env: required for an upstream off this machine",
        ),
        ([up(name="a"), up(name="a")], {}, r"upstreams\[1\]\.name: 'a' is used twice"),
        ([up(fallback=["nope"])], {}, r"upstreams\[0\]\.fallback: no other upstream is named"),
        ([up(retries=-1)], {}, r"upstreams\[0\]\.retries"),
        ([up(backoff=0)], {}, r"upstreams\[0\]\.backoff"),
    ],
)
def test_bad_config_names_the_key(
    upstreams: list[Any], environ: dict[str, str], named: str
) -> None:
    with pytest.raises(ConfigError, match=named):
        load_config(data={"upstreams": upstreams}, environ=environ)


def test_keyless_upstreams_say_so() -> None:
    remote = up(name="cloud", base_url="https://llm.example/v1", api_key_env="")
    cfg = load_config(
        data={"upstreams": [up(name="local"), remote, up(name="k", api_key_env="K")]},
        environ={"K": "sk-secret-value"},
    )
    lines = describe(cfg)
    assert "'local'" in lines[0] and "no key" in lines[0]
    assert "'cloud'" in lines[1] and "no key" in lines[1]
    assert "key from $K" in lines[2]
    assert not any("sk-secret-value" in line for line in lines)


def test_serve_exits_2_naming_the_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("IL_UNSET_KEY", raising=False)
    argv = ["serve", "--upstream-base-url", "http://127.0.0.1:9/v1"]
    assert main([*argv, "--upstream-api-key-env", "IL_UNSET_KEY"]) == 2
    assert "--upstream-api-key-env: $IL_UNSET_KEY is unset" in capsys.readouterr().err
    assert main(["serve", "--upstream-base-url", "localhost:11434/v1"]) == 2
    assert "--upstream-base-url: expected an http" in capsys.readouterr().err
    assert main(["serve", "--upstream-base-url", "https://api.example/v1"]) == 2
    assert "--upstream-api-key-env: required" in capsys.readouterr().err
    f = tmp_path / "gw.toml"
    f.write_text('[[upstreams]]\nprotocol = "openai_chat"\nbase_url = "http://h/v1"\n')
    assert main(["serve", "--config", str(f)]) == 2
    assert "upstreams[0].api_key_env: required" in capsys.readouterr().err


def test_candidates_default_to_later_matching_upstreams() -> None:
    cfg = load_config(
        data={
            "upstreams": [
                up(name="a", models=["claude-*"]),
                up(name="b", models=["gpt-*"]),
                up(name="c"),
            ]
        }
    )
    assert [u.name for u in cfg.candidates("claude-x", "claude-x")] == ["a", "c"]
    assert [u.name for u in cfg.candidates("gpt-5", "gpt-5")] == ["b", "c"]
    assert [u.name for u in cfg.candidates("llama", "llama")] == ["c"]
