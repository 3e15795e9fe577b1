"""Envelopes: a protocol's opaque reasoning state carried through a client of another protocol,
in a field that client echoes verbatim, and back; the pipeline's two hooks that run them.

- the call id envelope (call_id_envelope): a Gemini thoughtSignature attached to a functionCall
  rides in the tool call id (``<id>__ilgsig1__<base64url>``, any client; docs/gemini.md);
- the reasoning envelope, version 1 (here; docs/openai_responses.md, docs/gemini.md). Anthropic
  extended thinking with tool use requires the assistant turn's thinking block (text and
  signature, unchanged; or a redacted_thinking block's data) back on the next request. That
  state rides, in a response or a stream going to a client of OpenAI Responses (Codex:
  ``store: false``, ``include: ["reasoning.encrypted_content"]``), in a reasoning item's
  ``encrypted_content``, one item per block, its thinking text as the summary; to a Gemini
  client, in the ``thoughtSignature`` of the part that follows the blocks (usually the
  functionCall), consecutive blocks in one envelope written as the standard base64 of its text
  (Gemini SDKs type the signature as base64 bytes), the thinking text shown before it as
  thought parts (copies the envelope makes redundant when the client echoes them). Its text::

      ilgenv1:<owner>:<base64url(compact JSON), no padding>

  with the JSON ``{"t": thinking, "s": signature}`` or ``{"r": redacted data}`` for one block,
  a list of those for several.

Which owner's state reaches a client, and how, is a fact compiled into each codec from the rows
(``codec.CARRIER``, codegen/reasoning_items.py: flags foreign_reasoning, enveloped_reasoning,
call_id_signatures, and a dialect's reasoning_details owners): ``own`` (the client's own state,
as it is, or an owner its dialect's items name), ``signature`` (enveloped in the client's own
reasoning signature), ``parts`` (thought parts, then one signature), ``ids`` (a signature on a
call, in its id); an owner absent is carried by nothing. Responses, streams and the gateway read
that one table.

``fold_for_client`` runs on every response going to a client (each codec's compiled
``encode_response``, templates/_codec_pipeline.j2; streams fold in their decoder / encoder,
which have no other slot, with ``signature_for`` and ``parts_signature``), ``unwrap_request``
on every decoded request (the compiled ``decode_request``), so a canonical request never holds
an envelope: the owner gets its state back exactly, and every other encoder (a Responses or
Gemini upstream included) drops it and reports ``reasoning_replay``. A malformed envelope, or
one naming an owner that is not enveloped, becomes reasoning with no opaque state (dropped
everywhere, reported). A signature without the prefix is the client protocol's own state and is
never touched.

The same hook is the one rule for reasoning in a response: its text reaches every client that
can show it (Anthropic thinking, a Responses summary, a Gemini thought part, Chat's reasoning
field), as the stream encoders show it; opaque state that no envelope carries to that client is
dropped and reported (``state_lost`` / ``replay_loss``, which ``StreamTranslator`` uses for
streams, so both paths report the same)."""

from __future__ import annotations

import base64
import binascii
import dataclasses
from typing import Any, TypeGuard

import orjson

from .._losses import Ctx, Loss
from ..generated.canonical import Part, ReasoningPart, Request
from ..generated.registry import ENVELOPED_REASONING
from . import call_id_envelope as signed_ids

__all__ = [
    "PREFIX",
    "B64_MARK",
    "wrap",
    "unwrap",
    "parts_signature",
    "signature_for",
    "opaque",
    "state_lost",
    "replay_loss",
    "unwrap_request",
    "drop_echoes",
    "fold_for_client",
]

PREFIX = "ilgenv1:"
# Gemini SDKs type thoughtSignature as bytes (base64): there the envelope is the standard
# base64 (padded) of its text, which they decode and encode back unchanged.
B64_MARK = base64.b64encode(b"ilgenv").decode("ascii")  # every such envelope starts with it


# ---------------------------------------------------------------- the reasoning envelope's text


def _block(text: str, signature: str | None, redacted: str | None) -> dict[str, str]:
    if redacted is not None:
        return {"r": redacted}
    return {"t": text, "s": signature} if signature is not None else {"t": text}


def _encode(owner: str, body: Any) -> str:
    payload = base64.urlsafe_b64encode(orjson.dumps(body)).decode("ascii").rstrip("=")
    return f"{PREFIX}{owner}:{payload}"


def wrap(owner: str, text: str, signature: str | None, redacted: str | None) -> str:
    """One block's envelope (the ``signature`` carrier's form)."""
    return _encode(owner, _block(text, signature, redacted))


def parts_signature(run: list[ReasoningPart]) -> str:
    """The signature a client taking foreign reasoning as ``parts`` gets for consecutive parts
    of one owner, in responses (``fold_for_client``) and streams alike: one envelope (a list when
    there are several blocks) as the standard base64 of its text."""
    blocks = [_block(p.text, p.signature, p.redacted) for p in run]
    env = _encode(run[0].owner or "", blocks[0] if len(blocks) == 1 else blocks)
    return base64.b64encode(env.encode("utf-8")).decode("ascii")


def _text(v: Any) -> str | None:
    """The envelope text of ``v`` (in either form), None when ``v`` is not an envelope."""
    if type(v) is not str:
        return None
    if v.startswith(PREFIX):
        return v
    if v.startswith(B64_MARK):
        try:
            t = base64.b64decode(v, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return None
        return t if t.startswith(PREFIX) else None
    return None


def unwrap(v: str) -> list[ReasoningPart] | None:
    """The reasoning parts an envelope holds (their owner's, state restored), or None for a
    malformed envelope / an owner that is not enveloped."""
    v = _text(v) or ""
    owner, sep, payload = v[len(PREFIX) :].partition(":")
    if not sep or owner not in ENVELOPED_REASONING:  # flags.enveloped_reasoning
        return None
    try:
        body = orjson.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (binascii.Error, ValueError, orjson.JSONDecodeError):
        return None
    out: list[ReasoningPart] = []
    for b in body if type(body) is list else [body]:
        if type(b) is not dict:
            return None
        t, s, r = b.get("t"), b.get("s"), b.get("r")
        if type(r) is str:
            out.append(ReasoningPart(text="", redacted=r, owner=owner))
        elif type(t) is str and type(s) is str:  # Anthropic needs the signature
            out.append(ReasoningPart(text=t, signature=s, owner=owner))
        else:
            return None
    return out or None


# ---------------------------------------------------------------- which client carries what


def signature_for(
    owner: str | None, text: str, signature: str | None, redacted: str | None, codec: Any
) -> str | None:
    """The opaque state a client of ``codec`` receives in its own reasoning signature field
    (item streams and responses, ``fold_for_client``): its own state as it is; another owner's
    wrapped with the block's text where the envelope rides there (``codec.CARRIER``); else
    None."""
    how = codec.CARRIER.get(owner)
    if how == "own":
        return signature or None
    if how == "signature" and (signature or redacted):
        return wrap(owner or "", text, signature, redacted)
    return None


def state_lost(owner: str | None, signature: str | None, redacted: str | None, codec: Any) -> bool:
    """Does a client of ``codec`` (a dialect's too) lose this opaque reasoning state: does no
    carrier of its ``CARRIER`` take it? The one rule of responses (``fold_for_client``) and
    streams (``StreamTranslator``). Asked of state that is not on a tool call: a Gemini
    signature on a call rides in the call id (folded before, in a response; by the Gemini
    stream decoder, in a stream); any other Gemini signature has no field to ride in outside
    Gemini (``ids``)."""
    return bool(signature or redacted) and codec.CARRIER.get(owner, "ids") == "ids"


def opaque(p: Any) -> TypeGuard[ReasoningPart]:
    """A reasoning part holding opaque state (a signature, redacted data): what a carrier
    carries (``fold_for_client``), ``state_lost`` asks about, the gateway keeps."""
    return type(p) is ReasoningPart and bool(p.signature or p.redacted)


def replay_loss(path: str, owner: str | None) -> Loss:
    return Loss(
        path,
        "reasoning signature dropped",
        f"its opaque state belongs to {owner}",
        "reasoning_replay",
    )


# ---------------------------------------------------------------- the hooks


def _echoed(p: Part) -> TypeGuard[ReasoningPart]:
    """A reasoning part whose signature is a reasoning envelope a client echoed."""
    return type(p) is ReasoningPart and _text(p.signature) is not None


def unwrap_request(req: Request) -> None:
    """Clean every envelope a client echoed in a decoded request; restore the state it held."""
    for m in req.messages:
        for p in m.parts:  # envelopes are rare: look for one before rebuilding anything
            if signed_ids.needs_unwrap(p) or _echoed(p):
                m.parts = _unwrap_parts(m.parts)
                break


def _unwrap_parts(parts: list[Part]) -> list[Part]:
    out: list[Part] = []
    for p in parts:
        if not _echoed(p):
            signed_ids.unwrap_into(p, out)
            continue
        blocks = unwrap(p.signature or "")
        if blocks is None:  # ours but unreadable: no opaque state goes anywhere
            blocks = [
                dataclasses.replace(p, signature=None, redacted=None, owner=None, ext=None, id=None)
            ]
        drop_echoes(out, blocks)
        out.extend(blocks)
    return out


def drop_echoes(parts: list[Any], restored: list[ReasoningPart]) -> None:
    """Delete from ``parts`` the copy of ``restored``'s text (reasoning put back with its state:
    an envelope's, or what the gateway kept) a client echoed as reasoning with no state: the
    first run of such parts whose texts, joined, are that text. A Gemini client echoes the
    thought parts that showed an envelope's text (one per block in a response, one per delta in
    a stream) before the part carrying it; a Chat client, one ``reasoning_content``."""
    text = "".join(p.text for p in restored)
    i = 0
    while text and i < len(parts):
        j = i
        while j < len(parts) and type(parts[j]) is ReasoningPart and not opaque(parts[j]):
            j += 1
        if j > i and "".join(q.text for q in parts[i:j]) == text:
            del parts[i:j]
            return
        i = j + 1


def fold_for_client(parts: list[Part], codec: Any, ctx: Ctx) -> list[Part]:
    """Parts for a client of ``codec``'s protocol (every response; streams make the same
    choices event by event): reasoning it owns as it is; a signature attached to a tool call
    folded into the call id; foreign state its carrier takes as it is (a dialect's items,
    which report the rest), or with its text shown and its state in an envelope the client
    echoes back: in each part's own signature (``signature_for``, as item streams write it),
    or as thought parts then one signature on the part that follows (``parts_signature``,
    call_id_envelope; as the Gemini stream encoder sends them); any other reasoning shown as the
    client's own reasoning text, its opaque state dropped and reported (``state_lost``,
    ``replay_loss``)."""
    if ReasoningPart not in map(type, parts):
        return parts  # the common case, tested without a Python call per part
    pid = codec.PROTOCOL
    if all(not isinstance(p, ReasoningPart) or p.owner == pid for p in parts):
        return parts
    out: list[Part] = []
    i = 0
    while i < len(parts):
        p, i = parts[i], i + 1
        if not isinstance(p, ReasoningPart):
            out.append(p)
            continue
        how = codec.CARRIER.get(p.owner)
        if i < len(parts) and (call := signed_ids.fold_call(p, parts[i], pid)) is not None:
            out.append(call)
            i += 1
        elif how == "own":  # the client's own, or an owner its dialect's items name
            out.append(p)
        elif how == "signature" and opaque(p):
            sig = signature_for(p.owner, p.text, p.signature, p.redacted, codec)
            out.append(ReasoningPart(text=p.text, signature=sig, owner=pid))
        elif how == "parts" and opaque(p):  # consecutive parts of one owner: one envelope
            run = [p]
            while i < len(parts) and opaque(q := parts[i]) and q.owner == p.owner:
                run.append(q)
                i += 1
            out += [ReasoningPart(text=q.text, owner=pid) for q in run if q.text]
            out.append(signed_ids.attach_part(parts_signature(run), pid))
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
