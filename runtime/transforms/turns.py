"""turns: a conversation whose tool results are parts of a user turn (flags.tool_results
``user_turn_blocks``: Anthropic Messages, Gemini). The walk is compiled from the protocol's
``flags.turns`` rows into its codec (``decode_turns``, ``encode_turns``; codegen/turns_code.py):
a user turn's tool results become ``tool`` messages (results first or in place), later system
messages are hoisted (reported) where the turns hold no system role, a message's name is
reported, and tool messages join user turns back on the way out.

What stays here are the walk's hooks, which read and write the system prompt and a turn's parts
as content blocks do (Anthropic: a string or a list of the codec's parts), given the values at the
rows' keys by the compiled walk; a protocol whose wire says them otherwise overrides them
(gemini_contents). The transform rows name the class (spec/canonical.yaml ``walk``:
messages_blocks is this one, Anthropic's top-level ``system`` plus ``messages`` of content
blocks); the compiled pipeline makes one per request. messages_flat and the Responses items need
none of it: their tool results are messages or items of their own.
"""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput
from .._losses import Ctx
from ..generated.canonical import Message, Part, Request
from ._base import Codec
from ._util import content_parts, text_content

__all__ = ["TurnWalk"]


class TurnWalk:
    """One request's turns both ways: the codec's compiled walk, with these hooks (given the
    values at the rows' keys, and the keys, by the walk)."""

    __slots__ = ("codec", "ctx")

    def __init__(self, codec: Codec, ctx: Ctx) -> None:
        self.codec, self.ctx = codec, ctx

    def decode_system(self, raw: Any, path: str, req: Request) -> Message | None:
        """The system prompt ``raw`` (None: absent), at ``path``."""
        if raw is None:
            return None
        parts, hints = content_parts(raw, path, self.codec.decode_parts, self.ctx)
        return Message(role="system", parts=parts, hints=hints)

    def decode_turn(
        self, t: dict[str, Any], content: Any, path: str, role: str
    ) -> tuple[list[Part], Any]:
        """A wire turn's parts (``content``, at ``path``) and the hints that restore their form."""
        if content is None:
            raise InvalidInput("missing required field", path=path)
        return content_parts(content, path, self.codec.decode_parts, self.ctx)

    def encode_parts(self, m: Message, path: str, as_list: bool) -> Any:
        """A message's parts for a turn (``as_list``: a list of parts, never a string)."""
        if as_list:
            return self.codec.encode_parts(m.parts, None, path, self.ctx)
        return text_content(m, self.codec.encode_parts, self.codec.TEXT_BLOCK_KEYS, path, self.ctx)

    def new_turn(self, m: Message, key: str, content: Any) -> dict[str, Any]:
        """A turn of ``m``'s role holding ``content`` at ``key``."""
        return {"role": self.codec.ROLE_ENCODE[m.role], key: content}

    def encode_system(self, req: Request, n: int, parts: list[Any], hoisted: bool) -> Any:
        """The system prompt (None: none): the ``n`` leading system messages' ``parts``, and
        those of any ``hoisted`` later ones (one source string stays a string)."""
        first = req.messages[0] if n == 1 and not hoisted else None
        if first and first.hints and first.hints.get("string") and len(first.parts) == 1:
            return first.parts[0].text  # type: ignore[union-attr]
        return parts or None

    def decode(self, w: dict[str, Any], req: Request) -> None:
        self.codec.decode_turns(self, w, req, self.ctx)

    def encode(self, req: Request, out: dict[str, Any]) -> None:
        self.codec.encode_turns(self, req, out, self.ctx)
