"""The pipeline's two envelope hooks, one mechanism for every envelope kind.

An envelope carries a protocol's opaque reasoning state through a client of another protocol,
in a field that client echoes verbatim:

- ``gemini_envelope``: a Gemini thoughtSignature attached to a functionCall rides in the tool
  call id (``<id>__ilgsig1__<base64url>``, any client; docs/gemini.md);
- ``reasoning_envelope``: Anthropic thinking (text + signature, or redacted data) rides in a
  Responses reasoning item's ``encrypted_content``, or in the Gemini ``thoughtSignature`` of the
  part that follows it (``ilgenv1:<owner>:<base64url JSON>``; docs/openai_responses.md,
  docs/gemini.md).

``fold_for_client`` runs on every response going to a client (``_pipeline.encode_response``;
streams fold in their decoder / encoder, which have no other slot), ``unwrap_request`` on every
decoded request (``_pipeline.decode_request``), so a canonical request never holds an envelope:
the state goes back to its owner, and every other encoder drops it (reported).

The same hook is the one rule for reasoning in a response: its text reaches every client that
can show it (``shown``: Anthropic thinking, a Responses summary, a Gemini thought part, Chat's
reasoning field), as the stream encoders show it; opaque state that no envelope carries to that
client is dropped and reported (``state_lost`` / ``replay_loss``, which ``StreamTranslator``
uses for streams, so both paths report the same)."""

from __future__ import annotations

import dataclasses
from typing import Any

from .._losses import Ctx, Loss
from ..generated.canonical import Part, ReasoningPart, Request, ToolCallPart
from ..generated.registry import CALL_ID_SIGNATURES
from . import gemini_envelope as gem
from . import reasoning_envelope as rsn

__all__ = [
    "unwrap_request",
    "fold_for_client",
    "shown",
    "state_lost",
    "replay_loss",
    "carried",
    "text_of",
]


def _needs_unwrap(p: Part) -> bool:
    return gem.needs_unwrap(p) or (
        type(p) is ReasoningPart and rsn.is_envelope(p.signature)  # type: ignore[union-attr]
    )


def unwrap_request(req: Request) -> None:
    """Clean every envelope a client echoed in a decoded request; restore the state it held."""
    for m in req.messages:
        for p in m.parts:  # envelopes are rare: look for one before rebuilding anything
            if _needs_unwrap(p):
                m.parts = _unwrap_parts(m.parts)
                break


def _unwrap_parts(parts: list[Part]) -> list[Part]:
    out: list[Part] = []
    for p in parts:
        if type(p) is ReasoningPart and rsn.is_envelope(p.signature):
            blocks = rsn.unwrap_part(p)
            _drop_shown_copies(out, blocks)
            out.extend(blocks)
        else:
            gem.unwrap_into(p, out)
    return out


def _drop_shown_copies(out: list[Part], blocks: list[Part]) -> None:
    """A Gemini client echoes the thought parts that showed an envelope's text (one per block
    in a response, one per delta in a stream) before the part carrying the envelope, which
    restores that text: the copies go."""
    text = "".join(b.text for b in blocks if type(b) is ReasoningPart)
    k = len(out)
    while k and _stateless_reasoning(out[k - 1]):
        k -= 1
    if text and k < len(out) and "".join(q.text for q in out[k:]) == text:  # type: ignore[union-attr]
        del out[k:]


def _stateless_reasoning(p: Part) -> bool:
    return type(p) is ReasoningPart and p.signature is None and p.redacted is None  # type: ignore[union-attr]


def fold_for_client(parts: list[Part], target: str, ctx: Ctx, codec: Any = None) -> list[Part]:
    """Parts for a client of ``target`` (every response; streams make the same choices event by
    event): reasoning of ``target`` as it is, and of an owner the client's dialect writes by
    name (``codec``'s reasoning_details owners, as the dialect's stream encoder does);
    foreign reasoning state moved into the envelope that client echoes back (a tool call id, a
    Responses ``encrypted_content``, a Gemini ``thoughtSignature``) and its text shown; any
    other reasoning shown as ``target``'s own reasoning text, its opaque state dropped and
    reported (``state_lost``, ``replay_loss``)."""
    if ReasoningPart not in map(type, parts):
        return parts  # the common case, tested without a Python call per part
    if all(type(p) is not ReasoningPart or p.owner == target for p in parts):  # type: ignore[union-attr]
        return parts
    out: list[Part] = []
    i = 0
    while i < len(parts):
        p = parts[i]
        if type(p) is not ReasoningPart or p.owner == target:
            out.append(p)
            i += 1
            continue
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        if gem.folds(p, target) and isinstance(nxt, ToolCallPart):
            out.append(gem.fold_call(p, nxt))
            i += 2
            continue
        if codec is not None and rsn.carrier(p.owner, target, codec=codec) == "own":
            out.append(p)  # written by the dialect's reasoning items, which report the rest
            i += 1
            continue
        if rsn.wants(p, target):
            j = i
            while j < len(parts) and rsn.wants(parts[j], target) and parts[j].owner == p.owner:  # type: ignore[union-attr]
                j += 1
            out.extend(rsn.fold_run(parts[i:j], target))  # type: ignore[arg-type]
            i = j
            continue
        if state_lost(p.owner, p.signature, p.redacted, target):
            ctx.losses.append(replay_loss(f"parts[{i}]", p.owner))
        if p.text or (ctx.same and p.owner is None):
            out.append(shown(p, target))
        i += 1
    return out


def shown(p: ReasoningPart, client: str) -> ReasoningPart:
    """Reasoning text as a client of ``client`` shows it: that protocol's own reasoning, with
    no opaque state (Anthropic thinking, a Responses summary, a Gemini thought part, Chat's
    reasoning field). A part of another owner keeps its text only: its id and the wire fields
    of its block (``ext``: a Responses ``summary`` list, read as the text) are its owner's."""
    if p.owner is None:  # no state: the part is the client's as it is
        return dataclasses.replace(p, owner=client)
    return ReasoningPart(text=p.text, owner=client)


def state_lost(
    owner: str | None, signature: str | None, redacted: str | None, client: str, codec: Any = None
) -> bool:
    """Does a client of ``client`` (``codec``: its codec, a dialect's) lose this opaque
    reasoning state (``rsn.carrier``: neither its own, nor an owner its dialect names, nor
    enveloped)? The one rule of responses (``fold_for_client``) and streams
    (``StreamTranslator``). Asked of state that is not on a tool call: a Gemini signature on a
    call rides in the call id (folded before, in a response; by the Gemini stream decoder, in
    a stream); any other Gemini signature has no field to ride in outside Gemini."""
    return bool(signature or redacted) and rsn.carrier(owner, client, codec=codec) == "none"


def replay_loss(path: str, owner: str | None) -> Loss:
    return Loss(
        path,
        "reasoning signature dropped",
        f"its opaque state belongs to {owner}",
        "reasoning_replay",
    )


def text_of(v: Any) -> str | None:
    """A wire value that is a non-empty string (reasoning text, state, an id), else None."""
    return v if type(v) is str and v else None


def carried(owner: str | None, client: str) -> bool:
    """Does opaque state made by ``owner`` reach a ``client`` of that protocol (itself, or
    inside an envelope the client echoes)?"""
    # signatures of the protocol of flags.call_id_signatures are needed back on function calls,
    # and those ride in tool call ids, which every client echoes
    return owner == CALL_ID_SIGNATURES or rsn.carrier(owner, client) != "none"
