"""Flat message rows: ``messages:`` in spec/protocols/*.yaml, for a protocol whose request is one
list of role-tagged messages with system/developer messages in place, tool calls in an assistant
message key and one ``tool`` message per result (OpenAI Chat and its dialects, Cohere v2; flags
``tool_calls: message_field``, ``tool_results: tool_messages``). Compiled into the protocol's
codec (templates/_codec_messages.j2: decode_message, encode_message, decode_messages,
encode_messages) with this row's keys, the reasoning flags (reasoning_fields, plan_field,
reasoning_text_in_requests) and reasoning_details as literals: only the steps they ask for are
emitted. The messages_flat transform and message_response call the compiled functions; the
runtime keeps only the shared helpers (content forms, a tool result's media split).

Checked here against the flags, the part rows and the roles; every problem names the file, the
line and the row."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from .spec_http import Strict

if TYPE_CHECKING:
    from .canonical_model import CanonicalSpec
    from .source import Loc, SourceFile
    from .spec_model import ProtocolSpec

__all__ = [
    "FlatMessages",
    "check_flat_messages",
    "flat_messages_code",
    "key_problems",
    "text_block_keys",
]

LIST_KEY = "messages"  # the list's request key (one of the codec's REQUEST_ROW_KEYS)
READ = ("role", "content", "name")  # every message's keys
IMPORTS = (
    "from interlingua.transforms._util import content_parts, role_of, text_content\n"
    "from interlingua.transforms.messages_flat import foreign_result\n"
    "from .canonical import Message, ReasoningPart, RefusalPart, TextPart, ToolCallPart, "
    "ToolResultPart\n"
)
_REPLAY = "from interlingua.transforms.envelopes import replay_loss"


class FlatMessages(Strict):
    """How the messages of one flat list say what the flags do not (the messages_flat transform)."""

    calls: str = Field(description="assistant message key of its tool calls (a list)")
    refusal: str | None = Field(
        None,
        description="assistant message key of a refusal's text; none: a refusal is a content "
        "part (its part row, or reported)",
    )
    media_after_results: str | None = Field(
        None,
        description="canonical role of a message written after tool results, holding their "
        "media (images, files, audio) when a tool message takes text only; none: results keep "
        "their media",
    )


def text_block_keys(p: ProtocolSpec) -> list[str]:
    """The keys of a bare text part's block (its parts row: the match keys and the text's): a
    block holding no other key says no more than a string, so content that was one goes back as
    one (runtime/transforms/_util.text_content; none: no text row, content is always a list)."""
    row = next((r for r in p.parts if r.part == "text" and not r.decode_only), None)
    if row is None:
        return []
    keys = {k.split(".")[0] for k in row.match} | {
        f.w.split(".")[0] for f in row.fields if f.c == "text"
    }
    return sorted(keys)


def check_flat_messages(c: CanonicalSpec, p: ProtocolSpec, src: SourceFile) -> None:
    """The messages rows against the transforms, the part rows and the roles (the transform's
    flags and this section are its canonical.yaml row's needs: codegen/transform_rows.py)."""
    fm = p.messages
    if fm is None:
        return
    for kind in ("tool_call", "tool_result"):
        if not any(r.part == kind for r in p.parts):
            src.error(("messages",), f"no `{kind}` part row: flat messages hold {kind}s")
    roles = {r.unified for r in p.roles if r.only != "decode"}
    if fm.media_after_results is not None and fm.media_after_results not in roles:
        src.error(
            ("messages", "media_after_results"),
            f"{fm.media_after_results!r} is not the unified role of a roles encode row "
            f"(expected one of {', '.join(sorted(roles))})",
        )
    for loc, msg in key_problems(p):
        src.error(loc, msg)


def key_problems(p: ProtocolSpec, last: frozenset[str] = frozenset()) -> list[tuple[Loc, str]]:
    """A message key read twice (a flag's and a row's), at its later reader; the flags named
    in ``last`` read last (a dialect's own, whose file holds no messages rows)."""
    fm = p.messages
    if fm is None:
        return []
    keys: list[tuple[Loc, str | None]] = [
        (("flags", "plan_field"), p.flags.plan_field),
        *((("flags", "reasoning_fields", i), f) for i, f in enumerate(p.flags.reasoning_fields)),
        (("messages", "calls"), fm.calls),
        (("messages", "refusal"), fm.refusal),
    ]
    keys.sort(key=lambda k: k[0][0] == "flags" and k[0][1] in last)  # stable: else row order
    seen, out = set(READ), []
    for loc, key in keys:
        if key is not None and key in seen:
            out.append((loc, f"message key {key!r} is read twice"))
        elif key is not None:
            seen.add(key)
    return out


def flat_messages_code(p: ProtocolSpec) -> dict[str, Any] | None:
    """What the compiled message functions (templates/_codec_messages.j2) are written from."""
    fm = p.messages
    if fm is None:
        return None
    rd = p.reasoning_details
    media = fm.media_after_results
    return {
        "list_key": LIST_KEY,
        "calls": fm.calls,
        "refusal": fm.refusal,
        "plan": p.flags.plan_field,
        "fields": tuple(p.flags.reasoning_fields),
        "details": rd.field if rd is not None else None,
        "always_back": p.flags.reasoning_text_in_requests,
        "media_role": next(r.raw for r in p.roles if r.unified == media and r.only != "decode")
        if media is not None
        else None,
        "role_default": p.flags.turns.role_default,
        "read": frozenset(READ),
        "imports": IMPORTS
        + ("" if rd is not None else _REPLAY),  # else _codec_reasoning_items.j2 imports it
    }
