"""Protocol registry: protocol id (and dialect) -> generated codec module.

A dialect (spec/dialects/<name>.yaml) is its base protocol with an overlay merged in by codegen:
``protocol("openai_chat", "openrouter")`` loads generated/openai_chat__openrouter_codec.py. The
protocol id stays the base id (a dialect speaks its protocol); only the rows differ."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from types import ModuleType

from ._errors import InterlinguaError
from .generated import registry

PROTOCOLS: tuple[str, ...] = registry.PROTOCOLS  # spec/protocols/*.yaml
_DIALECTS: dict[str, tuple[str, str, str]] = registry.DIALECTS


class UnknownProtocol(InterlinguaError):
    pass


class UnknownDialect(InterlinguaError):
    """``dialect=`` names no spec/dialects overlay, or one for another protocol."""


def dialects() -> dict[str, str]:
    """Every dialect name -> its base protocol id."""
    return {name: row[0] for name, row in _DIALECTS.items()}


def sides(dialect: str | None, source: str, target: str) -> tuple[str | None, str | None]:
    """The dialect of the source side and of the target side: ``dialect`` applies to the
    side(s) speaking its base protocol (checked)."""
    base = check_dialect(dialect, source, target)
    return (dialect if base == source else None), (dialect if base == target else None)


def check_dialect(dialect: str | None, *pids: str) -> str | None:
    """The base protocol of ``dialect`` (None for none). An unknown dialect, or one that none
    of ``pids`` speaks, raises UnknownDialect (a clear error, never ignored)."""
    if dialect is None:
        return None
    row = _DIALECTS.get(dialect)
    if row is None:
        known = ", ".join(f"{n} ({r[0]})" for n, r in sorted(_DIALECTS.items()))
        raise UnknownDialect(f"unknown dialect {dialect!r} (expected one of {known})")
    if row[0] not in pids:
        raise UnknownDialect(
            f"dialect {dialect!r} is a dialect of {row[0]}, "
            f"not of {' or '.join(dict.fromkeys(pids))}"
        )
    return row[0]


def generated(pid: str, dialect: str | None, part: str) -> ModuleType:
    """The generated module ``part`` (``codec``, ``stream``) of ``pid`` in ``dialect``
    (checked): the one loader of generated protocol modules."""
    stem = pid
    if dialect is not None:
        check_dialect(dialect, pid)
        stem = _DIALECTS[dialect][1]
    return import_module(f"interlingua.generated.{stem}_{part}")


@cache
def protocol(pid: str, dialect: str | None = None) -> ModuleType:
    """The generated codec of ``pid`` in ``dialect`` (rows, error tables, the compiled
    pipeline); UnknownProtocol when the spec has no such protocol."""
    if pid not in PROTOCOLS:
        raise UnknownProtocol(f"unknown protocol {pid!r} (expected one of {', '.join(PROTOCOLS)})")
    return generated(pid, dialect, "codec")


def available() -> list[str]:
    """Every protocol id: each protocol of the spec has its generated codec."""
    return list(PROTOCOLS)
