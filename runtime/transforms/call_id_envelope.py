"""The call id envelope, version 1 (docs/gemini.md): opaque state a protocol attaches to a tool
call rides in the call id a client of another protocol echoes.

In canonical form a Gemini ``thoughtSignature`` that sat on a part other than a thought part is
a ``ReasoningPart(text="", signature=..., owner=<the protocol>, ext={"attach": "next"})`` placed
right before the part that carried it (usually a functionCall). The protocol whose call ids carry
such signatures is the one row ``flags.call_id_signatures`` names (generated
``registry.CALL_ID_SIGNATURES``; the envelope names no owner, so codegen allows one). Encoders of other protocols drop it
(reported, reasoning_replay), so it never reaches a provider that does not own it.

A client of another protocol cannot keep that part, but it echoes tool call ids verbatim. So
when a *response or stream* goes to such a client, a signature attached to a tool call is folded
into the call id: ``<id>__ilgsig1__<base64url(signature)>`` (only ``[A-Za-z0-9_-]``, so
Anthropic's id pattern accepts it). When that client sends the conversation back, every decoded
*request* (whatever its protocol) is unwrapped: the id is cleaned and the attached part restored,
so a canonical request never holds an envelope and no upstream ever sees one. The pipeline
hooks that run these steps, for this envelope and the reasoning one, are in ``envelopes``.

Ids that Gemini did not send are synthesised with the ``ilg_`` prefix and omitted again when the
call goes back to Gemini.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import re
import uuid
from typing import Any

from ..generated.canonical import Part, ReasoningPart, ToolCallPart, ToolResultPart
from ..generated.registry import CALL_ID_SIGNATURES

__all__ = [
    "MARK",
    "SYNTH_PREFIX",
    "wrap_id",
    "unwrap_id",
    "attach_part",
    "is_attach",
    "synth_id",
    "bare_id",
    "needs_unwrap",
    "unwrap_into",
    "fold_call",
]

MARK = "__ilgsig1__"
_PAYLOAD = re.compile(r"[A-Za-z0-9_-]+")
SYNTH_PREFIX = "ilg_"


def wrap_id(call_id: str, signature: str) -> str:
    payload = base64.urlsafe_b64encode(signature.encode("utf-8")).decode("ascii").rstrip("=")
    return f"{call_id}{MARK}{payload}"


def unwrap_id(call_id: str) -> tuple[str, str | None]:
    """``(clean id, signature or None)``; an id without a valid envelope is returned unchanged."""
    head, mark, payload = call_id.partition(MARK)
    if not mark or not _PAYLOAD.fullmatch(payload):
        return call_id, None
    try:
        sig = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return call_id, None
    return head, sig


def attach_part(signature: str, owner: str | None = CALL_ID_SIGNATURES) -> ReasoningPart:
    """Opaque state attached to the part that follows (by default: a signature restored from a
    call id, whose owner is the protocol of flags.call_id_signatures)."""
    return ReasoningPart(text="", signature=signature, owner=owner, ext={"attach": "next"})


def is_attach(p: Any) -> bool:
    return type(p) is ReasoningPart and bool(p.ext) and p.ext.get("attach") == "next"  # type: ignore[union-attr]


def synth_id(n: int | None = None) -> str:
    """An id for a call Gemini sent without one: ``ilg_<n>`` in a request (stable, unique within
    it), ``ilg_<random>`` in a response (unique across the turns a client keeps)."""
    return f"{SYNTH_PREFIX}{n}" if n is not None else f"{SYNTH_PREFIX}{uuid.uuid4().hex[:16]}"


def bare_id(call_id: str) -> str | None:
    """The id a call or result is sent to Gemini with (responses and streams alike): the
    envelope taken off; None for a synthesised id or none (Gemini sent none: left out)."""
    cid = unwrap_id(call_id)[0]
    return cid if cid and not cid.startswith(SYNTH_PREFIX) else None


_ID_KEY = {ToolCallPart: "id", ToolResultPart: "call_id"}  # the ids that carry the envelope


def needs_unwrap(p: Any) -> bool:
    """A tool call / result whose id carries the envelope (asked of every part of every
    request: two type tests, no lookup)."""
    t = type(p)
    return (t is ToolCallPart and MARK in p.id) or (t is ToolResultPart and MARK in p.call_id)


def unwrap_into(p: Part, out: list[Part]) -> None:
    """Append ``p`` to ``out`` with its id cleaned, a call after the attached signature it
    carried."""
    key = _ID_KEY.get(type(p))
    clean, sig = unwrap_id(getattr(p, key)) if key is not None else ("", None)
    if key is not None and sig is not None:
        if type(p) is ToolCallPart and not (out and is_attach(out[-1])):
            out.append(attach_part(sig))
        scrubbed = {key: clean, "hints": _scrub(p.hints), "ext": _scrub(p.ext)}
        p = dataclasses.replace(p, **scrubbed)  # type: ignore[type-var]
    out.append(p)


def _scrub(v: Any) -> Any:
    """Wire ids a decoder kept beside the call (e.g. a Responses item id derived from the call
    id) cleaned of the envelope too."""
    if type(v) is str:
        return unwrap_id(v)[0] if MARK in v else v
    if type(v) is dict:
        return {k: _scrub(x) for k, x in v.items()}
    if type(v) is list:
        return [_scrub(x) for x in v]
    return v


def fold_call(p: Any, call: Any, target: str) -> ToolCallPart | None:
    """``call`` with the signature ``p`` attaches to it folded into its id, for a client of
    ``target``; None when ``p`` is no other protocol's signature attached to a call."""
    if not (is_attach(p) and p.owner != target and type(call) is ToolCallPart):
        return None
    return dataclasses.replace(call, id=wrap_id(call.id, p.signature or ""))
