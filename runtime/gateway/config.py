"""Gateway configuration: a TOML file, overridden by environment variables, overridden by flags.

```toml
host = "127.0.0.1"            # INTERLINGUA_HOST
port = 8080                   # INTERLINGUA_PORT
max_body_bytes = 33554432     # larger request bodies get 413
inbound_keys_env = "INTERLINGUA_KEYS"   # optional: comma-separated keys callers must send
state = "sqlite:///path/state.db"  # INTERLINGUA_STATE: sqlite:///PATH | redis://HOST:PORT/DB | memory | off
state_ttl_days = 30           # every stored entry expires after this
responses_state = "auto"      # "gateway": keep Responses state even for a Responses upstream

[model_map]                   # requested model -> upstream model; exact names win over globs
"claude-*" = "qwen3-coder"

[[upstreams]]                 # the first whose `models` globs match the model takes the request
name = "local"
protocol = "openai_chat"
dialect = "openrouter"        # optional: a spec/dialects overlay of the protocol (interlingua dialects)
base_url = "http://127.0.0.1:11434/v1"
api_key_env = "OLLAMA_API_KEY"  # the key is read from this variable, never from the file
models = ["*"]
timeout = 600                 # seconds between bytes from the upstream
connect_timeout = 10
headers = { "x-team" = "ml" }
retries = 2                   # more attempts on a connect error, 429, 500, 502-504, 529
backoff = 0.5                 # seconds before the first retry, doubled each time (+ jitter)
backoff_max = 8
retry_after_max = 30          # a longer Retry-After is not waited for: the next upstream is tried
fallback = ["cloud"]          # upstreams tried next (default: every later one whose models match)
```

Keys are only ever named by environment variable: the file and the logs never hold one. The
start stops (naming the key) on a variable that is unset, a base_url that is not an http(s) URL,
an unknown protocol or fallback name; a keyless upstream off this machine must say so
(``api_key_env = ""``).
"""

from __future__ import annotations

import fnmatch
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .._errors import InterlinguaError
from .._protocols import PROTOCOLS, dialects

__all__ = ["ConfigError", "Config", "Upstream", "load_config", "parse_model_map"]

DEFAULT_MAX_BODY = 32 * 1024 * 1024
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})


class ConfigError(InterlinguaError):
    """The configuration is invalid: the message names the key."""


def _is_glob(pattern: str) -> bool:
    return any(c in pattern for c in "*?[")


@dataclass(slots=True)
class Upstream:
    name: str
    protocol: str
    base_url: str
    dialect: str | None = None  # spec/dialects overlay of `protocol` spoken by this upstream
    api_key_env: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    models: list[str] = field(default_factory=lambda: ["*"])
    timeout: float = 600.0
    connect_timeout: float = 10.0
    retries: int = 2
    backoff: float = 0.5
    backoff_max: float = 8.0
    retry_after_max: float = 30.0
    fallback: list[str] | None = None  # None: every later upstream whose models match

    def api_key(self, environ: Mapping[str, str] | None = None) -> str | None:
        if not self.api_key_env:
            return None
        return (os.environ if environ is None else environ).get(self.api_key_env) or None

    def serves(self, *names: str) -> bool:
        return any(fnmatch.fnmatchcase(n, g) for g in self.models for n in names)


@dataclass(slots=True)
class Config:
    upstreams: list[Upstream] = field(default_factory=list)
    model_map: dict[str, str] = field(default_factory=dict)
    host: str = "127.0.0.1"
    port: int = 8080
    max_body_bytes: int = DEFAULT_MAX_BODY
    inbound_keys_env: str | None = None
    inbound_keys: frozenset[str] = frozenset()  # filled from inbound_keys_env at load time
    state: str | None = None  # None: the default SQLite file (state/store.py)
    state_ttl_days: float = 30.0
    responses_state: str = "auto"

    def map_model(self, model: str) -> str:
        """Exact names first, then globs in file order; no match leaves the name unchanged."""
        exact = self.model_map.get(model)
        if exact is not None:
            return exact
        for pattern, target in self.model_map.items():
            if _is_glob(pattern) and fnmatch.fnmatchcase(model, pattern):
                return target
        return model

    def route(self, requested: str, mapped: str) -> Upstream | None:
        for up in self.upstreams:
            if up.serves(requested, mapped):
                return up
        return None

    def candidates(self, requested: str, mapped: str) -> list[Upstream]:
        """The upstream that takes the call, then its fallbacks that serve the model, in order."""
        first = self.route(requested, mapped)
        if first is None:
            return []
        if first.fallback is None:
            rest = self.upstreams[self.upstreams.index(first) + 1 :]
        else:
            by_name = {u.name: u for u in self.upstreams}
            rest = [by_name[n] for n in first.fallback]
        return [first, *(u for u in rest if u is not first and u.serves(requested, mapped))]

    def listed_models(self) -> list[str]:
        """Names worth listing in GET /v1/models: exact map keys and exact upstream models."""
        names = [k for k in self.model_map if not _is_glob(k)]
        names += [m for up in self.upstreams for m in up.models if not _is_glob(m)]
        names += [v for v in self.model_map.values()]
        return list(dict.fromkeys(names))


def parse_model_map(items: list[str]) -> dict[str, str]:
    """``['claude-*=qwen3', 'gpt-4o=llama3']`` -> dict, for --model-map flags."""
    out: dict[str, str] = {}
    for item in items:
        src, sep, dst = item.partition("=")
        if not sep or not src.strip() or not dst.strip():
            raise ConfigError(f"--model-map {item!r}: expected PATTERN=MODEL")
        out[src.strip()] = dst.strip()
    return out


def _str(d: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str | None:
    v = d.get(key, default)
    if v is not None and type(v) is not str:
        raise ConfigError(f"{where}.{key}: expected a string, got {type(v).__name__}")
    return v


def _num(d: Mapping[str, Any], key: str, where: str, default: float) -> float:
    v = d.get(key, default)
    if type(v) not in (int, float) or v <= 0:
        raise ConfigError(f"{where}.{key}: expected a positive number, got {v!r}")
    return float(v)


def _upstream(d: Any, i: int) -> Upstream:
    where = f"upstreams[{i}]"
    if type(d) is not dict:
        raise ConfigError(f"{where}: expected a table")
    unknown = set(d) - {
        "name",
        "protocol",
        "dialect",
        "base_url",
        "api_key_env",
        "headers",
        "models",
        "timeout",
        "connect_timeout",
        "retries",
        "backoff",
        "backoff_max",
        "retry_after_max",
        "fallback",
    }
    if unknown:
        raise ConfigError(f"{where}: unknown keys {sorted(unknown)}")
    protocol = _str(d, "protocol", where)
    if protocol not in PROTOCOLS:
        raise ConfigError(f"{where}.protocol: expected one of {', '.join(PROTOCOLS)}")
    dialect = _str(d, "dialect", where)
    if dialect is not None and dialects().get(dialect) != protocol:
        known = [n for n, base in sorted(dialects().items()) if base == protocol]
        raise ConfigError(
            f"{where}.dialect: {dialect!r} is not a dialect of {protocol} "
            f"(expected one of {', '.join(known) or 'none'})"
        )
    base_url = _str(d, "base_url", where)
    if not base_url:
        raise ConfigError(f"{where}.base_url: required")
    url = urlsplit(base_url)
    if url.scheme not in ("http", "https") or not url.hostname:
        raise ConfigError(
            f"{where}.base_url: expected an http:// or https:// URL, got {base_url!r}"
        )
    key_env = _str(d, "api_key_env", where)
    if key_env is None and url.hostname not in LOCAL_HOSTS:
        raise ConfigError(
            f"{where}.api_key_env: required for an upstream off this machine "
            '(api_key_env = "" for one that needs no key)'
        )
    retries = d.get("retries", 2)
    if type(retries) is not int or retries < 0:
        raise ConfigError(f"{where}.retries: expected a whole number >= 0, got {retries!r}")
    fallback = d.get("fallback")
    if fallback is not None and (
        type(fallback) is not list or any(type(n) is not str for n in fallback)
    ):
        raise ConfigError(f"{where}.fallback: expected a list of upstream names")
    headers = d.get("headers", {})
    if type(headers) is not dict or any(type(v) is not str for v in headers.values()):
        raise ConfigError(f"{where}.headers: expected a table of strings")
    models = d.get("models", ["*"])
    if type(models) is str:
        models = [models]
    if type(models) is not list or any(type(m) is not str for m in models):
        raise ConfigError(f"{where}.models: expected a list of model names or globs")
    return Upstream(
        name=_str(d, "name", where) or f"upstream{i}",
        protocol=protocol,
        dialect=dialect,
        base_url=base_url.rstrip("/"),
        api_key_env=key_env,
        headers=dict(headers),
        models=list(models),
        timeout=_num(d, "timeout", where, 600.0),
        connect_timeout=_num(d, "connect_timeout", where, 10.0),
        retries=retries,
        backoff=_num(d, "backoff", where, 0.5),
        backoff_max=_num(d, "backoff_max", where, 8.0),
        retry_after_max=_num(d, "retry_after_max", where, 30.0),
        fallback=None if fallback is None else list(fallback),
    )


def _check_upstreams(ups: list[Upstream], env: Mapping[str, str]) -> None:
    """What can only be checked with every upstream and the environment at hand."""
    names = [u.name for u in ups]
    for i, up in enumerate(ups):
        where = f"upstreams[{i}]"
        if up.name in names[:i]:
            raise ConfigError(f"{where}.name: {up.name!r} is used twice")
        if up.api_key_env and not env.get(up.api_key_env):
            raise ConfigError(f"{where}.api_key_env: ${up.api_key_env} is unset or empty")
        for n in up.fallback or ():
            if n not in names or n == up.name:
                raise ConfigError(f"{where}.fallback: no other upstream is named {n!r}")


def _from_mapping(d: Mapping[str, Any]) -> Config:
    known = {
        "host",
        "port",
        "max_body_bytes",
        "inbound_keys_env",
        "model_map",
        "upstreams",
        *STATE_KEYS,
    }
    unknown = set(d) - known
    if unknown:
        raise ConfigError(f"unknown top-level keys {sorted(unknown)}")
    mm = d.get("model_map", {})
    if type(mm) is not dict or any(type(v) is not str for v in mm.values()):
        raise ConfigError("model_map: expected a table of model name (or glob) = model name")
    ups = d.get("upstreams", [])
    if type(ups) is not list:
        raise ConfigError("upstreams: expected an array of tables ([[upstreams]])")
    port = d.get("port", 8080)
    if type(port) is not int:
        raise ConfigError("port: expected an integer")
    max_body = d.get("max_body_bytes", DEFAULT_MAX_BODY)
    if type(max_body) is not int or max_body <= 0:
        raise ConfigError("max_body_bytes: expected a positive integer")
    return Config(
        upstreams=[_upstream(u, i) for i, u in enumerate(ups)],
        model_map=dict(mm),
        host=_str(d, "host", "", "127.0.0.1") or "127.0.0.1",
        port=port,
        max_body_bytes=max_body,
        inbound_keys_env=_str(d, "inbound_keys_env", ""),
        **_state_keys(d),
    )


STATE_KEYS = ("state", "state_ttl_days", "responses_state")


def _state_keys(d: Mapping[str, Any]) -> dict[str, Any]:
    """The state settings (docs/gateway.md, "State"), checked."""
    state = _str(d, "state", "")
    if state is not None and not (
        state in ("off", "memory") or state.startswith(("sqlite:///", "redis://", "rediss://"))
    ):
        raise ConfigError(
            "state: expected sqlite:///PATH, redis://HOST:PORT/DB, memory or off, "
            f"got a {state.partition(':')[0]!r} value"
        )
    rs = _str(d, "responses_state", "", "auto")
    if rs not in ("auto", "gateway"):
        raise ConfigError("responses_state: expected auto or gateway")
    return {
        "state": state,
        "state_ttl_days": _num(d, "state_ttl_days", "", 30.0),
        "responses_state": rs,
    }


def load_config(
    path: str | Path | None = None,
    *,
    data: Mapping[str, Any] | None = None,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Config:
    """File (or ``data``) < environment (INTERLINGUA_HOST / _PORT / _MAX_BODY_BYTES) < flags.

    ``overrides`` holds the flags: host, port, max_body_bytes, inbound_keys_env, model_map
    (merged over the file's, flags first), and ``upstream`` (a dict like a [[upstreams]] table,
    put in front of the file's upstreams)."""
    env = os.environ if environ is None else environ
    raw: dict[str, Any] = {}
    if path is not None:
        try:
            with open(path, "rb") as f:
                raw = tomllib.load(f)
        except OSError as e:
            raise ConfigError(f"{path}: {e.strerror or e}") from None
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: {e}") from None
    elif data is not None:
        raw = dict(data)
    for key in ("HOST", "STATE"):
        if env.get(f"INTERLINGUA_{key}"):
            raw[key.lower()] = env[f"INTERLINGUA_{key}"]
    for key in ("PORT", "MAX_BODY_BYTES"):
        v = env.get(f"INTERLINGUA_{key}")
        if v:
            try:
                raw[key.lower()] = int(v)
            except ValueError:
                raise ConfigError(f"INTERLINGUA_{key}: expected an integer, got {v!r}") from None
    ov = dict(overrides or {})
    for key in ("host", "port", "max_body_bytes", "inbound_keys_env", "state"):
        if ov.get(key) is not None:
            raw[key] = ov[key]
    if ov.get("model_map"):
        # flags win: their entries come first (globs are tried in order) and replace the file's
        file_map = raw.get("model_map", {})
        flags_map = dict(ov["model_map"])
        rest = {k: v for k, v in file_map.items() if k not in flags_map}
        raw["model_map"] = {**flags_map, **rest}
    if ov.get("upstream"):
        raw["upstreams"] = [ov["upstream"], *raw.get("upstreams", [])]
    cfg = _from_mapping(raw)
    if not cfg.upstreams:
        raise ConfigError("no upstream configured (give --config FILE or --upstream-base-url)")
    _check_upstreams(cfg.upstreams, env)
    if cfg.inbound_keys_env:
        keys = env.get(cfg.inbound_keys_env, "")
        cfg.inbound_keys = frozenset(k.strip() for k in keys.split(",") if k.strip())
        if not cfg.inbound_keys:
            raise ConfigError(f"inbound_keys_env: ${cfg.inbound_keys_env} is empty or unset")
    return cfg
