"""The turn walk, compiled: a protocol whose tool results sit in user turns (flags.tool_results
``user_turn_blocks``: Anthropic Messages, Gemini) gets in its codec (templates/_codec_turns.j2)
``decode_turns``, ``encode_turns`` and ``_user_turn``, written from ``flags.turns`` (the list's,
a turn's parts' and the system prompt's keys as literals; results first or in place; one turn
object for the list) and ``flags.system_messages_in_turns`` (later system messages hoisted, or
no such step), and how a system prompt and a turn's parts are said: ``system_form`` (content
blocks, a string or a list, or a content ``{role?, parts}``), ``keep_turn_keys`` (a turn's role
and keys as they came), the parts walk's call ids (``part_walk.call_ids``: ids read, names
written).

Refused (file, line, row) by ``check_turns``: a canonical model with no tool result part, a
turn's parts key that is its role key, a system prompt key that is the turn list's, turn keys
kept with no default role or in content blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .canonical_model import CanonicalSpec
    from .source import SourceFile
    from .spec_model import ProtocolSpec

__all__ = ["check_turns", "turns_view"]


def turns_view(p: ProtocolSpec) -> dict[str, Any] | None:
    """What _codec_turns.j2 is written from (None: the protocol's turns are not walked so)."""
    if p.flags.tool_results != "user_turn_blocks":
        return None
    t = p.flags.turns
    return {
        "key": t.key,
        "role_default": t.role_default,
        "parts_key": t.parts_key,
        "system_key": t.system_key,
        "first": t.results_order == "first",
        "one_object": t.one_object,
        "hoist": not p.flags.system_messages_in_turns,
        "content": t.system_form == "content",
        "keep_keys": t.keep_turn_keys,
        "ids": p.part_walk is not None and p.part_walk.call_ids is not None,
    }


def check_turns(c: CanonicalSpec, p: ProtocolSpec, src: SourceFile) -> None:
    """The rows the walk cannot be compiled from (codegen/checks.py)."""
    t = turns_view(p)
    if t is None:
        return
    if not any(x.part == "tool_result" for x in c.types):
        src.error(("flags", "tool_results"), "user_turn_blocks needs a canonical tool_result part")
    if t["parts_key"] == "role":
        src.error(("flags", "turns", "parts_key"), "'role' is a turn's role key: not its parts'")
    if t["system_key"] == t["key"]:
        src.error(("flags", "turns", "system_key"), f"{t['key']!r} is the turn list's key (key)")
    if t["keep_keys"] and t["role_default"] is None:  # a role left out is the default's again
        src.error(("flags", "turns", "keep_turn_keys"), "needs flags.turns.role_default")
    if t["keep_keys"] and not t["content"]:  # a string of blocks has no keys to keep
        src.error(("flags", "turns", "keep_turn_keys"), "needs flags.turns.system_form: content")
