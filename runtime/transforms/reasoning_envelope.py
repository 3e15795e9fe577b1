"""The reasoning envelope, version 1 (docs/openai_responses.md, docs/gemini.md): another
protocol's reasoning state carried through a client in a field that client echoes verbatim.

Anthropic extended thinking with tool use requires the assistant turn's thinking block (text and
signature, unchanged; or a redacted_thinking block's data) back on the next request. The state
rides, when a *response or stream* goes to a client of

- OpenAI Responses (Codex: ``store: false``, ``include: ["reasoning.encrypted_content"]``): in a
  reasoning item's ``encrypted_content``, one item per block, its thinking text as the summary;
- Gemini: in the ``thoughtSignature`` of the part that follows the blocks (usually the
  functionCall), consecutive blocks in one envelope, written as the standard base64 of its text
  (Gemini SDKs type the signature as base64 bytes); the thinking text is shown before it as
  thought parts, which the envelope makes redundant when the client echoes them
  (``envelopes.unwrap_request`` drops those copies);

as::

    ilgenv1:<owner>:<base64url(compact JSON), no padding>

with the JSON ``{"t": thinking, "s": signature}`` or ``{"r": redacted data}`` for one block, a
list of those for several. When any request is decoded, a reasoning part whose signature starts
with ``ilgenv1:`` is unwrapped back into ``ReasoningPart(owner=<owner>, text=..., signature=...)``
(or ``redacted=...``), one per block, so a canonical request never holds an envelope: the owner
gets its state back exactly, and every other encoder (a Responses or Gemini upstream included)
drops it and reports ``reasoning_replay``. A malformed envelope, or one naming an owner that is
not carried, becomes reasoning with no opaque state (dropped everywhere, reported). A signature
without the prefix is the client protocol's own state and is never touched."""

from __future__ import annotations

import base64
import binascii
from typing import Any

import orjson

from ..generated.canonical import ReasoningPart
from ..generated.registry import ENVELOPED_REASONING

__all__ = [
    "PREFIX",
    "enveloped",
    "signature_for",
    "wrap",
    "parts_signature",
    "unwrap",
    "is_envelope",
]

PREFIX = "ilgenv1:"


def signature_for(
    owner: str | None, text: str, signature: str | None, redacted: str | None, codec: Any
) -> str | None:
    """The opaque state a client of ``codec`` receives in its own reasoning signature field
    (item streams and responses, ``envelopes._fold_run``): its own
    state as it is; another owner's wrapped with the block's text where the envelope rides
    there (``codec.CARRIER``); else None."""
    how = codec.CARRIER.get(owner)
    if how == "own":
        return signature or None
    if how == "signature" and (signature is not None or redacted is not None):
        return wrap(owner or "", text, signature, redacted)
    return None


def enveloped(owner: str | None) -> bool:
    """Does the envelope carry reasoning state of ``owner`` (flag enveloped_reasoning)?"""
    return owner in ENVELOPED_REASONING


def _block(text: str, signature: str | None, redacted: str | None) -> dict[str, str]:
    if redacted is not None:
        return {"r": redacted}
    return {"t": text, "s": signature} if signature is not None else {"t": text}


def wrap(owner: str, text: str, signature: str | None, redacted: str | None) -> str:
    return _encode(owner, _block(text, signature, redacted))


def _encode(owner: str, body: Any) -> str:
    payload = base64.urlsafe_b64encode(orjson.dumps(body)).decode("ascii").rstrip("=")
    return f"{PREFIX}{owner}:{payload}"


# Gemini SDKs type thoughtSignature as bytes (base64): there the envelope is the standard
# base64 (padded) of its text, which they decode and encode back unchanged.
B64_MARK = base64.b64encode(b"ilgenv").decode("ascii")  # every such envelope starts with it


def parts_signature(run: list[ReasoningPart]) -> str:
    """The signature a client taking foreign reasoning as ``parts`` gets for consecutive parts
    of one owner, in responses (``fold_run``) and streams alike: one envelope (a list when there
    are several blocks) as the standard base64 of its text."""
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


def is_envelope(v: Any) -> bool:
    return _text(v) is not None


Block = tuple[str, str | None, str | None]  # (text, signature, redacted)


def unwrap(v: str) -> tuple[str, list[Block]] | None:
    """``(owner, blocks)``, or None for a malformed envelope / an owner that is not carried."""
    v = _text(v) or ""
    owner, sep, payload = v[len(PREFIX) :].partition(":")
    if not sep or not enveloped(owner):
        return None
    try:
        body = orjson.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (binascii.Error, ValueError, orjson.JSONDecodeError):
        return None
    out: list[Block] = []
    for b in body if type(body) is list else [body]:
        if type(b) is not dict:
            return None
        t, s, r = b.get("t"), b.get("s"), b.get("r")
        if type(r) is str:
            out.append(("", None, r))
        elif type(t) is str and type(s) is str:  # Anthropic needs the signature
            out.append((t, s, None))
        else:
            return None
    return (owner, out) if out else None
