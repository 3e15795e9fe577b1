"""Helpers shared by the transforms."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._errors import InvalidInput, brief
from .._losses import Ctx
from ..generated.canonical import Message, Part, TextPart


def role_of(m: dict[str, Any], path: str, table: dict[str, str], default: str | None) -> str:
    """The canonical role (by the roles ``table``, raw -> unified) of a wire message or turn (one
    sent without a role has the protocol's default one, flags.turns.role_default, if any)."""
    raw = m.get("role")
    if raw is None:
        raw = default
    role = table.get(raw) if type(raw) is str else None
    if role is None:
        allowed = ", ".join(sorted(table))
        raise InvalidInput(
            f"unknown role {brief(raw)} (expected one of {allowed})", path=path + ".role"
        )
    return role


def content_parts(
    content: Any, path: str, decode_parts: Callable[..., list[Part]], ctx: Ctx
) -> tuple[list[Part], dict[str, Any] | None]:
    """Wire content (present) -> parts, and the hint that restores its form: a string, or a
    list with nothing in it."""
    if type(content) is str:
        return [TextPart(text=content)], {"string": True}
    parts = decode_parts(content, path, ctx)
    return parts, None if parts else {"empty_list": True}


def text_content(
    m: Message, encode_parts: Callable[..., Any], plain: frozenset[str], path: str, ctx: Ctx
) -> Any:
    """Content as a string when the source had one (or, across protocols, it is one plain
    text part: its block holds only the ``plain`` keys, the codec's TEXT_BLOCK_KEYS), else a
    list of encoded parts."""
    parts = m.parts
    if len(parts) == 1 and parts[0].PART == "text":  # of any canonical model (the tiny spec's)
        p = parts[0]
        if m.hints and m.hints.get("string"):
            return p.text
        if not ctx.same:
            # one plain text block (whatever the target could not carry is reported) -> string
            blocks = encode_parts(parts, None, path, ctx)
            if len(blocks) == 1 and blocks[0].keys() <= plain:
                return p.text
            return blocks
    return encode_parts(parts, None, path, ctx)
