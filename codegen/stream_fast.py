"""Short paths codegen takes for decode rows whose whole effect it can see: a row that passes
one value on to the block of a constant key (Chat content) is read in the generated dispatch
first, and the machine is called only when the event carries the value."""

from __future__ import annotations

from typing import Any

from .stream_model import DecodeRow


def _paths(v: str | list[str] | None) -> list[str]:
    if v is None:
        return []
    return [v] if isinstance(v, str) else list(v)


def delta_only(row: DecodeRow) -> bool:
    """A row that only passes one text or argument path on to the block of a wire key."""
    one = len(_paths(row.text)) + (row.arguments is not None) == 1
    others = (
        row.key_const, row.call_id, row.name, row.arguments_object, row.signature, row.redacted,
        row.owner, row.separator, row.each,
    )  # fmt: skip
    return (
        one
        and row.key is not None
        and not row.close
        and not row.whole
        and others == ((None,) * len(others))
    )


def const_delta(row: DecodeRow) -> bool:
    """One text or argument path under a constant key, nothing else: an open block of the key
    takes it straight away (``Decoder._delta``), as the row's block step would."""
    one = len(_paths(row.text)) + (row.arguments is not None) == 1
    others = (
        row.key, row.call_id, row.name, row.arguments_object, row.signature, row.redacted,
        row.owner, row.separator, row.each, row.sub, row.lone_signature, row.assemble,
        row.pieces,
    )  # fmt: skip
    return (
        one
        and row.key_const is not None
        and not row.key_prefix
        and not (row.close or row.whole or row.ends)
        and others == ((None,) * len(others))
    )


def fast_action(
    row: DecodeRow,
    block: str,
    delta: str,
    base: str,
    r: Any,
    where: str,
    ind: str,
    implicit: bool,
    op: str,
) -> list[str] | None:
    """The statements of a row that has a short path, else None (``block``: the row's block
    step, which the machine's ``delta`` method falls back to)."""
    if op == "block" and implicit and const_delta(row):
        value = (_paths(row.text) or [row.arguments or ""])[0]
        return [
            f"{ind}v = {r.on(value, base, where, base == 'd')}",
            f"{ind}if v:  # most chunks lack it",
            f"{ind}    {delta}({block}, {base}, {row.key_const!r}, v, out)",
        ]
    return None
