"""Protocol registry: protocol id (and dialect) -> generated codec module and its transforms.

A dialect (spec/dialects/<name>.yaml) is its base protocol with an overlay merged in by codegen:
``protocol("openai_chat", "openrouter")`` loads generated/openai_chat__openrouter_codec.py. The
protocol id stays the base id (a dialect speaks its protocol); only the rows differ."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import Any

from ._errors import InterlinguaError
from .generated import registry
from .transforms import REGISTRY, Transform
from .transforms._base import Dec, Enc, _noop

PROTOCOLS: tuple[str, ...] = registry.PROTOCOLS  # spec/protocols/*.yaml
_DIALECTS: dict[str, tuple[str, str, str]] = registry.DIALECTS


class UnknownProtocol(InterlinguaError):
    pass


class UnknownDialect(InterlinguaError):
    """``dialect=`` names no spec/dialects overlay, or one for another protocol."""


def dialects() -> dict[str, str]:
    """Every dialect name -> its base protocol id."""
    return {name: row[0] for name, row in _DIALECTS.items()}


def dialect_base(dialect: str) -> str:
    """The base protocol of ``dialect``; UnknownDialect when there is no such dialect."""
    row = _DIALECTS.get(dialect)
    if row is None:
        known = ", ".join(f"{n} ({r[0]})" for n, r in sorted(_DIALECTS.items()))
        raise UnknownDialect(f"unknown dialect {dialect!r} (expected one of {known})")
    return row[0]


def sides(dialect: str | None, source: str, target: str) -> tuple[str | None, str | None]:
    """The dialect of the source side and of the target side: ``dialect`` applies to the
    side(s) speaking its base protocol; an unknown one, or one neither side speaks, raises
    UnknownDialect."""
    if dialect is None:
        return None, None
    check_dialect(dialect, source, target)
    base = dialect_base(dialect)
    return (dialect if base == source else None), (dialect if base == target else None)


def check_dialect(dialect: str | None, *pids: str) -> None:
    """Refuse a dialect that none of ``pids`` speaks (a clear error, never ignored)."""
    if dialect is not None and dialect_base(dialect) not in pids:
        raise UnknownDialect(
            f"dialect {dialect!r} is a dialect of {dialect_base(dialect)}, "
            f"not of {' or '.join(dict.fromkeys(pids))}"
        )


@dataclass(frozen=True)
class Protocol:
    id: str
    codec: Any
    transforms: tuple[Transform, ...]
    request_known: frozenset[str]
    response_known: frozenset[str]
    request_nested: dict[str, frozenset[str]] | None = None
    # the transforms' hooks per direction, in row order, without the no-op defaults
    request_decoders: tuple[Dec, ...] = field(init=False)
    request_encoders: tuple[Enc, ...] = field(init=False)
    response_decoders: tuple[Dec, ...] = field(init=False)
    response_encoders: tuple[Enc, ...] = field(init=False)

    def __post_init__(self) -> None:
        for hook in ("decode_request", "encode_request", "decode_response", "encode_response"):
            real = tuple(h for t in self.transforms if (h := getattr(t, hook)) is not _noop)
            verb, side = hook.split("_")  # t.decode_request -> self.request_decoders
            object.__setattr__(self, f"{side}_{verb}rs", real)


def dialect_module(pid: str, dialect: str | None) -> str:
    """Stem of the generated modules of ``pid`` in ``dialect`` (checked)."""
    if dialect is None:
        return pid
    check_dialect(dialect, pid)
    return str(_DIALECTS[dialect][1])


@cache
def protocol(pid: str, dialect: str | None = None) -> Protocol:
    if pid not in PROTOCOLS:
        raise UnknownProtocol(f"unknown protocol {pid!r} (expected one of {', '.join(PROTOCOLS)})")
    codec = import_module(f"interlingua.generated.{dialect_module(pid, dialect)}_codec")
    transforms = tuple(REGISTRY[name] for name in codec.TRANSFORMS)
    req_known = frozenset(codec.REQUEST_ROW_KEYS).union(
        codec.TOOL_CHOICE_KEYS, *(t.request_keys for t in transforms)
    )
    resp_known = frozenset(codec.RESPONSE_ROW_KEYS).union(
        codec.RESPONSE_KNOWN, *(t.response_keys for t in transforms)
    )
    return Protocol(pid, codec, transforms, req_known, resp_known, codec.REQUEST_NESTED)


def available() -> list[str]:
    """Every protocol id: each protocol of the spec has its generated codec."""
    return list(PROTOCOLS)
