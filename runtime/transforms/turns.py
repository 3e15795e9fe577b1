"""turns: the one walk of a conversation whose tool results are parts of a user turn
(flags.tool_results ``user_turn_blocks``: Anthropic Messages, Gemini), driven by the protocol's
rows (``flags.turns``: the list's key, a turn's parts key, the system prompt's key, results
first or in place; ``system_messages_in_turns``). Its hooks read and write the system prompt
and a turn's parts as content blocks do (Anthropic: messages_blocks); a protocol whose wire says
them otherwise overrides them (gemini_contents). messages_flat and the Responses items need
none of it: their tool results are messages or items of their own.

- the system messages before the first turn go to the system prompt, one after it is hoisted
  there (reported) where the protocol's turns hold no system role;
- a message's name, where turns have none, is reported;
- ``user_turn``: a user turn -> one canonical ``tool`` message per tool result (results first,
  or in place: ``turns.results_order``) and user messages for the rest; the messages of a turn
  with results and of a user turn after one keep the turn's index (hint ``turn``);
- ``Joiner``: back to the wire, tool messages (and the user message after them) join one user
  turn, or, between endpoints of one protocol, the turns the source had.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._codec_support import drop_ext, split_ext
from .._errors import InvalidInput, brief
from .._losses import Ctx
from .._wire import expect_dict, expect_list
from ..generated.canonical import Message, Part, Request, ToolResultPart
from ._base import Codec, Transform
from ._util import content_parts, role_of, text_content

__all__ = ["SYSTEM_ROLES", "Joiner", "TurnWalk", "user_turn"]

SYSTEM_ROLES = ("system", "developer")
_KNOWN: dict[str, frozenset[str]] = {}  # a turn's keys the walk reads, by its parts key


def user_turn(
    parts: list[Part], codec: Codec, hints: dict[str, Any] | None, ext: dict[str, Any] | None
) -> list[Message]:
    """A user turn's parts -> one ``tool`` message per tool result and ``user`` messages for
    the other parts, results first (flags.turns.results_order ``first``) or in place, each with
    ``hints``. The turn's own unknown fields (``ext``) ride on its first message (with results
    first: on its user message, when it has one)."""
    first = codec.FLAGS.turns.results_order == "first"
    out: list[Message] = []
    user: Message | None = None  # the last user message (results first: the only one)
    for p in parts:
        if type(p) is ToolResultPart:
            out.append(Message(role="tool", parts=[p], hints=hints))
        elif user is not None and (first or out[-1] is user):
            user.parts.append(p)
        else:
            user = Message(role="user", parts=[p], hints=hints)
            if not first:
                out.append(user)
    if first and user is not None:
        out.append(user)
    if not out:
        out.append(Message(role="user", parts=[], hints=hints))
    (user if first and user is not None else out[0]).ext = ext
    return out


class Joiner:
    """Canonical messages -> wire turns: a tool message joins the open user turn when that turn
    holds only results so far or, with results in place (flags.turns.results_order), any user
    turn; a user message joins a turn of results only. Between endpoints of one protocol the
    source's own turns are kept: ``starts`` True (a new turn), False (the open one), None (not
    known: the rule above)."""

    def __init__(self, codec: Codec) -> None:
        self.in_place = codec.FLAGS.turns.results_order == "in_place"
        self.turns: list[dict[str, Any]] = []
        self.cur: dict[str, Any] | None = None  # the open user turn
        self.results = False  # it holds tool results alone so far
        self.tag: Any = None  # the source's index of the open turn

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


class TurnWalk:
    """One request's turns both ways, by the codec's rows. The hooks read and write the system
    prompt and a turn's parts as content blocks do (Anthropic: a string or a list of the
    codec's parts); a protocol whose wire says them otherwise overrides them (gemini_contents).
    ``transform`` makes the named transform."""

    __slots__ = ("codec", "ctx", "rows")

    def __init__(self, codec: Codec, ctx: Ctx) -> None:
        self.codec, self.ctx, self.rows = codec, ctx, codec.FLAGS.turns

    def decode_system(self, w: dict[str, Any], req: Request) -> Message | None:
        system = w.get(self.rows.system_key)
        if system is None:
            return None
        parts, hints = content_parts(
            system, self.rows.system_key, self.codec.decode_parts, self.ctx
        )
        return Message(role="system", parts=parts, hints=hints)

    # a wire turn's parts and the hints that restore their form, where they are no content
    # blocks (a string or a list of the codec's parts, required): gemini_contents
    decode_turn: Callable[[dict[str, Any], str, str], tuple[list[Part], Any]] | None = None

    def encode_parts(self, m: Message, path: str, as_list: bool) -> Any:
        """A message's parts for a turn (``as_list``: a list of parts, never a string)."""
        if as_list:
            return self.codec.encode_parts(m.parts, None, path, self.ctx)
        return text_content(m, self.codec.encode_parts, path, self.ctx)

    def new_turn(self, m: Message, content: Any) -> dict[str, Any]:
        return {"role": self.codec.ROLE_ENCODE[m.role], self.rows.parts_key: content}

    def encode_system(
        self, req: Request, n: int, parts: list[Any], hoisted: bool, out: dict[str, Any]
    ) -> None:
        """The system prompt: the ``n`` leading system messages' ``parts``, and those of any
        ``hoisted`` later ones (one source string stays a string)."""
        first = req.messages[0] if n == 1 and not hoisted else None
        if first and first.hints and first.hints.get("string") and len(first.parts) == 1:
            out[self.rows.system_key] = first.parts[0].text  # type: ignore[union-attr]
        elif parts:
            out[self.rows.system_key] = parts

    # -- the walk
    def decode(self, w: dict[str, Any], req: Request) -> None:
        codec, key = self.codec, self.rows.key
        out: list[Message] = []
        system = self.decode_system(w, req)
        if system is not None:
            out.append(system)
        raw = w.get(key)
        if raw is None:
            raise InvalidInput("missing required field", path=key)
        if type(raw) is dict and self.rows.one_object:
            raw = [raw]
            req.hints = {**(req.hints or {}), "one_object": True}
        pk, read = self.rows.parts_key, self.decode_turn
        known = _KNOWN.get(pk) or _KNOWN.setdefault(pk, frozenset(("role", pk)))
        after_results = False  # the previous turn held tool results
        for i, t in enumerate(raw if type(raw) is list else expect_list(raw, key)):
            path = f"{key}[{i}]"
            if type(t) is not dict:
                t = expect_dict(t, path)
            role = role_of(t, path, codec.ROLE_DECODE, self.rows.role_default)
            if read is not None:
                parts, hints = read(t, path, role)
            elif (content := t.get(pk)) is not None:
                parts, hints = content_parts(content, f"{path}.{pk}", codec.decode_parts, self.ctx)
            else:
                raise InvalidInput("missing required field", path=f"{path}.{pk}")
            ext = None if known.issuperset(t) else split_ext(t, known)
            user = role == "user" or role == "tool"
            results = user and ToolResultPart in map(type, parts)
            if results or (user and after_results):  # the turn it came in, for the same
                # protocol: turns the rule (Joiner) would join otherwise
                if hints is None:
                    hints = {"turn": i}
                else:
                    hints["turn"] = i
            after_results = results
            if results:
                out.extend(user_turn(parts, codec, hints, ext))
            else:
                out.append(
                    Message(role="user" if user else role, parts=parts, ext=ext, hints=hints)
                )
        req.messages = out

    def encode(self, req: Request, out: dict[str, Any]) -> None:
        codec, ctx, msgs = self.codec, self.ctx, req.messages
        n = next((i for i, m in enumerate(msgs) if m.role not in SYSTEM_ROLES), len(msgs))
        system: list[Any] = []
        for i in range(n):
            system += self.encode_parts(msgs[i], f"messages[{i}].content", True)
        hoist, hoisted = not codec.FLAGS.system_messages_in_turns, False
        turns = Joiner(codec)
        for j in range(n, len(msgs)):
            m = msgs[j]
            path = f"messages[{j}]"
            if m.name is not None:
                ctx.loss(
                    path + ".name",
                    f"message name {brief(m.name)} dropped",
                    f"{ctx.target} messages have no name",
                    "roles",
                )
            if hoist and m.role in SYSTEM_ROLES:
                system += self.encode_parts(m, path + ".content", True)
                ctx.loss(
                    path,
                    f"{m.role} message hoisted into {self.rows.system_key}",
                    f"{ctx.target} has no system role in its turns: position lost",
                    "system_position",
                )
                hoisted = True
                continue
            tag = m.hints.get("turn") if ctx.same and m.hints else None
            cur = turns.join(m, None if tag is None else tag != turns.tag)
            content = self.encode_parts(m, path + ".content", cur is not None or m.role == "tool")
            if cur is not None:
                cur.setdefault(self.rows.parts_key, []).extend(content)
            else:
                cur = self.new_turn(m, content)
                turns.open(cur, m, tag)
            if m.ext:
                drop_ext(m.ext, cur, path, ctx)
        self.encode_system(req, n, system, hoisted, out)
        one = ctx.same and (req.hints or {}).get("one_object")
        out[self.rows.key] = turns.turns[0] if one else turns.turns

    @classmethod
    def transform(cls, name: str, doc: str, keys: frozenset[str]) -> Transform:
        def decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
            cls(codec, ctx).decode(w, req)

        def encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
            cls(codec, ctx).encode(req, out)

        return Transform(
            name=name, doc=doc, request_keys=keys, decode_request=decode, encode_request=encode
        )
