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

Which owner's state reaches a client, and how, is a fact compiled into each codec from the
rows (``codec.CARRIER``, codegen/reasoning_items.py: flags foreign_reasoning,
enveloped_reasoning, call_id_signatures, and a dialect's reasoning_details owners): ``own``
(the client's own state, as it is, or an owner its dialect's items name), ``signature``
(enveloped in the client's own reasoning signature), ``parts`` (thought parts, then one
signature), ``ids`` (a signature on a call, in its id); an owner absent is carried by nothing.
Responses, streams and the gateway read that one table.

The same hook is the one rule for reasoning in a response: its text reaches every client that
can show it (Anthropic thinking, a Responses summary, a Gemini thought part, Chat's reasoning
field), as the stream encoders show it; opaque state that no envelope carries to that client is
dropped and reported (``state_lost`` / ``replay_loss``, which ``StreamTranslator`` uses for
streams, so both paths report the same)."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeGuard

from .._losses import Ctx, Loss
from ..generated.canonical import Part, ReasoningPart, Request, ToolCallPart
from . import gemini_envelope as gem
from . import reasoning_envelope as rsn

__all__ = ["unwrap_request", "fold_for_client", "state_lost", "replay_loss", "carried"]


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
        if type(p) is not ReasoningPart or not rsn.is_envelope(p.signature):
            gem.unwrap_into(p, out)
            continue
        got = rsn.unwrap(p.signature or "")
        if got is None:  # ours but unreadable: no opaque state goes anywhere
            blocks: list[Part] = [
                dataclasses.replace(p, signature=None, redacted=None, owner=None, ext=None, id=None)
            ]
        else:
            blocks = [
                ReasoningPart(text=t, signature=s, redacted=r, owner=got[0]) for t, s, r in got[1]
            ]
        _drop_shown_copies(out, blocks)
        out.extend(blocks)
    return out


def _drop_shown_copies(out: list[Part], blocks: list[Part]) -> None:
    """A Gemini client echoes the thought parts that showed an envelope's text (one per block
    in a response, one per delta in a stream) before the part carrying the envelope, which
    restores that text: the copies go."""
    text = "".join(b.text for b in blocks if type(b) is ReasoningPart)
    k = len(out)
    while k and type(out[k - 1]) is ReasoningPart and not _opaque(out[k - 1]):
        k -= 1
    if text and k < len(out) and "".join(q.text for q in out[k:]) == text:  # type: ignore[union-attr]
        del out[k:]


def _opaque(p: Any) -> TypeGuard[ReasoningPart]:
    return type(p) is ReasoningPart and (p.signature is not None or p.redacted is not None)


def fold_for_client(parts: list[Part], codec: Any, ctx: Ctx) -> list[Part]:
    """Parts for a client of ``codec``'s protocol (every response; streams make the same
    choices event by event): reasoning it owns as it is; a signature attached to a tool call
    folded into the call id; foreign state its carrier takes as it is (a dialect's items,
    which report the rest) or folded, with its text shown, into the envelope that client
    echoes back (``_fold_run``); any other reasoning shown as the client's own reasoning text,
    its opaque state dropped and reported (``state_lost``, ``replay_loss``)."""
    if ReasoningPart not in map(type, parts):
        return parts  # the common case, tested without a Python call per part
    pid = codec.PROTOCOL
    if all(not isinstance(p, ReasoningPart) or p.owner == pid for p in parts):
        return parts
    out: list[Part] = []
    i = 0
    while i < len(parts):
        p, i = parts[i], i + 1
        if not isinstance(p, ReasoningPart) or p.owner == pid:
            out.append(p)
            continue
        how = codec.CARRIER.get(p.owner)
        if gem.folds(p, pid) and i < len(parts) and isinstance(nxt := parts[i], ToolCallPart):
            out.append(gem.fold_call(p, nxt))
            i += 1
        elif how == "own":
            out.append(p)
        elif how in ("signature", "parts") and _opaque(p):
            run = [p]
            while i < len(parts) and _opaque(q := parts[i]) and q.owner == p.owner:
                run.append(q)
                i += 1
            out += _fold_run(run, how, codec)
        else:
            if state_lost(p.owner, p.signature, p.redacted, codec):
                ctx.losses.append(replay_loss(f"parts[{i - 1}]", p.owner))
            # shown as the client's own reasoning, with no opaque state: a part of another
            # owner keeps its text only (its id and its block's wire fields, ``ext``: a
            # Responses ``summary`` list, read as the text, are its owner's)
            if p.owner is None and (p.text or ctx.same):
                out.append(dataclasses.replace(p, owner=pid))
            elif p.owner is not None and p.text:
                out.append(ReasoningPart(text=p.text, owner=pid))
    return out


def _fold_run(run: list[ReasoningPart], how: str, codec: Any) -> list[Part]:
    """What a client receives for consecutive foreign reasoning parts an envelope carries:
    each with its state in its own signature, the rule item streams use (``signature_for``);
    or the text as thought parts, then one signature on the part that follows
    (gemini_envelope), as the Gemini stream encoder sends them."""
    pid = codec.PROTOCOL
    if how == "parts":
        shown: list[Part] = [ReasoningPart(text=p.text, owner=pid) for p in run if p.text]
        return [*shown, gem.attach_part(rsn.parts_signature(run), pid)]
    return [
        ReasoningPart(
            text=p.text,
            signature=rsn.signature_for(p.owner, p.text, p.signature, p.redacted, codec),
            owner=pid,
        )
        for p in run
    ]


def state_lost(owner: str | None, signature: str | None, redacted: str | None, codec: Any) -> bool:
    """Does a client of ``codec`` (a dialect's too) lose this opaque reasoning state: does no
    carrier of its ``CARRIER`` take it? The one rule of responses (``fold_for_client``) and
    streams (``StreamTranslator``). Asked of state that is not on a tool call: a Gemini
    signature on a call rides in the call id (folded before, in a response; by the Gemini
    stream decoder, in a stream); any other Gemini signature has no field to ride in outside
    Gemini (``ids``)."""
    return bool(signature or redacted) and codec.CARRIER.get(owner, "ids") == "ids"


def replay_loss(path: str, owner: str | None) -> Loss:
    return Loss(
        path,
        "reasoning signature dropped",
        f"its opaque state belongs to {owner}",
        "reasoning_replay",
    )


def carried(owner: str | None, codec: Any) -> bool:
    """Does opaque state made by ``owner`` reach a client of ``codec`` (its own, inside an
    envelope the client echoes, or on a call in its id, which every client echoes)?"""
    return owner in codec.CARRIER
