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
    takes it straight away (``pass_on``), as the row's block step would."""
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


def pass_on(
    args: bool,
    block: str,
    base: str,
    wkey: str,
    value: str,
    ind: str,
    truthy: bool = False,
    fresh: bool = True,
) -> list[str]:
    """A delta-only row's short path, compiled: the open block at ``wkey`` takes the value at
    once (``args``: argument text, for a tool call only; else text, for a text or reasoning
    block); with no open block, or one of another kind, the row's block step runs
    (``truthy``: the value was found non-empty already; ``fresh``: some row reads whether a
    delta came, ``Facts.parts``)."""
    v = value if value.isidentifier() else "v"
    if args:
        kind, made = 'b.kind != "tool_call"', f"_new_ToolCallDelta(key=b.key, arguments={v})"
    else:
        kind, made = "(new := _DELTA.get(b.kind)) is None", f"new(key=b.key, text={v})"
    return [
        f"{ind}{x}"
        for x in [
            *([] if v == value else [f"v = {value}"]),
            f"if (b := m.blocks.get({wkey})) is None or not b.open:",
            f"    {block}(m, {base}, None, out)",
            f"elif {'' if truthy else f'{v} and '}type({v}) is str:",
            f"    if {kind}:",
            f"        {block}(m, {base}, None, out)",
            "    else:",
            f"        out.append({made})",
            *(["        b.fresh = False"] if fresh else []),
        ]
    ]


def fast_action(
    row: DecodeRow,
    block: str,
    base: str,
    r: Any,
    where: str,
    ind: str,
    implicit: bool,
    op: str,
    fresh: bool,
) -> list[str] | None:
    """The statements of a row that has a short path, else None (``block``: the row's block
    step, which the short path falls back to)."""
    if op == "block" and implicit and const_delta(row):
        value = (_paths(row.text) or [row.arguments or ""])[0]
        return [
            f"{ind}v = {r.on(value, base, where, base == 'd')}",
            f"{ind}if v:  # most chunks lack it",
            *pass_on(
                row.text is None, block, base, repr(row.key_const), "v", ind + "    ", True, fresh
            ),
        ]
    return None
