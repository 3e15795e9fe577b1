"""turns: the layout decisions every conversation transform makes, one helper each, driven by
the protocol's flags (``system_messages_in_turns``, ``tool_results``, ``turns``) instead of
written out per transform (messages_blocks, gemini_contents; messages_flat and the Responses
items need none of them: their tool results are messages or items of their own).

- ``leading_system`` / ``hoist``: the system messages before the first turn, and one after it
  hoisted into the system prompt (reported) where the protocol's turns hold no system role;
- ``drop_name``: a message's name, where turns have none (reported);
- ``user_turn``: a user turn -> one canonical ``tool`` message per tool result (results first,
  or in place: ``turns.results_order``) and user messages for the rest;
- ``Joiner``: back to the wire, tool messages (and the user message after them) join one user
  turn, or the turns the source protocol had.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._errors import brief
from .._losses import Ctx
from ..generated.canonical import Message, Part, ToolResultPart
from ._base import Codec

__all__ = ["SYSTEM_ROLES", "Joiner", "drop_name", "hoist", "leading_system", "user_turn"]

SYSTEM_ROLES = ("system", "developer")


def leading_system(msgs: list[Message]) -> int:
    """How many system / developer messages come before the first turn."""
    return next((i for i, m in enumerate(msgs) if m.role not in SYSTEM_ROLES), len(msgs))


def hoist(
    m: Message, path: str, codec: Codec, ctx: Ctx, into: str, encode: Callable[..., list[Any]]
) -> list[Any] | None:
    """A system / developer message after the first turn, where the protocol's turns hold no
    system role (flags.system_messages_in_turns false): its encoded parts for ``into`` (the
    system prompt), its position reported lost. None: it keeps its place."""
    if m.role not in SYSTEM_ROLES or codec.FLAGS.system_messages_in_turns:
        return None
    parts = encode(m.parts, path + ".content")
    ctx.loss(
        path,
        f"{m.role} message hoisted into {into}",
        f"{ctx.target} has no system role in its turns: position lost",
        "system_position",
    )
    return parts


def drop_name(m: Message, path: str, ctx: Ctx) -> None:
    """A message name (Chat ``name``) where the protocol's turns have none: reported."""
    if m.name is not None:
        ctx.loss(
            path + ".name",
            f"message name {brief(m.name)} dropped",
            f"{ctx.target} messages have no name",
            "roles",
        )


def user_turn(
    parts: list[Part], codec: Codec, hints: dict[str, Any] | None, ext: dict[str, Any] | None
) -> list[Message]:
    """A user turn's parts -> one ``tool`` message per tool result and ``user`` messages for
    the other parts, results first (flags.turns.results_order ``first``) or in place, each with
    ``hints``. The turn's own unknown fields (``ext``) ride on its first message (with results
    first: on its user message, when it has one)."""
    first = codec.FLAGS.turns.results_order == "first"
    if first:
        results = [p for p in parts if type(p) is ToolResultPart]
        parts = results + [p for p in parts if type(p) is not ToolResultPart]
    out: list[Message] = []
    for p in parts:
        if type(p) is ToolResultPart:
            out.append(Message(role="tool", parts=[p], hints=hints))
        elif out and out[-1].role == "user":
            out[-1].parts.append(p)
        else:
            out.append(Message(role="user", parts=[p], hints=hints))
    if not out:
        out.append(Message(role="user", parts=[], hints=hints))
    owner = next((m for m in out if m.role == "user"), out[0]) if first else out[0]
    owner.ext = ext
    return out


class Joiner:
    """Canonical messages -> wire turns, for a protocol whose tool results are parts of a user
    turn (flags.tool_results ``user_turn_blocks``): a tool message joins the open user turn
    when that turn holds only results so far or, with results in place
    (flags.turns.results_order), any user turn; a user message joins a turn of results only.
    Between endpoints of one protocol the source's own turns are kept: ``starts`` True (a new
    turn), False (the open one), None (not known: the rule above)."""

    def __init__(self, codec: Codec) -> None:
        self.in_place = codec.FLAGS.turns.results_order == "in_place"
        self.turns: list[dict[str, Any]] = []
        self.cur: dict[str, Any] | None = None  # the open user turn
        self.results = False  # it holds tool results alone so far
        self.tag: Any = None  # the source's id of the open turn (Gemini: its index)

    def join(self, m: Message, starts: bool | None) -> dict[str, Any] | None:
        """The open turn ``m`` joins, or None: ``m`` opens a new turn (``open``)."""
        if self.cur is None or m.role not in ("user", "tool") or starts:
            return None
        tool = m.role == "tool"
        if starts is None and not (self.results or (tool and self.in_place)):
            return None
        self.results = self.results and tool
        return self.cur

    def open(self, turn: dict[str, Any], m: Message, tag: Any = None) -> None:
        self.turns.append(turn)
        self.cur = turn if m.role in ("user", "tool") else None
        self.results = m.role == "tool"
        self.tag = tag
