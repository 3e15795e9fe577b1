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
the state goes back to its owner, and every other encoder drops it (reported)."""

from __future__ import annotations

from ..generated.canonical import Part, ReasoningPart, Request, ToolCallPart
from . import gemini_envelope as gem
from . import reasoning_envelope as rsn

__all__ = ["unwrap_request", "fold_for_client", "carried"]


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
            out.extend(rsn.unwrap_part(p))
        else:
            gem.unwrap_into(p, out)
    return out


def fold_for_client(parts: list[Part], target: str) -> list[Part]:
    """Parts for a client of ``target``: foreign reasoning state moved into the envelope that
    client echoes back (a tool call id, a Responses ``encrypted_content``)."""
    if ReasoningPart not in map(type, parts):
        return parts  # the common case, tested without a Python call per part
    if not any(gem.folds(p, target) or rsn.wants(p, target) for p in parts):
        return parts
    out: list[Part] = []
    i = 0
    while i < len(parts):
        p = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        if gem.folds(p, target) and isinstance(nxt, ToolCallPart):
            out.append(gem.fold_call(p, nxt))  # type: ignore[arg-type]
            i += 2
            continue
        if rsn.wants(p, target):
            j = i
            while j < len(parts) and rsn.wants(parts[j], target) and parts[j].owner == p.owner:  # type: ignore[union-attr]
                j += 1
            out.extend(rsn.fold_run(parts[i:j], target))  # type: ignore[arg-type]
            i = j
            continue
        out.append(p)
        i += 1
    return out


def carried(owner: str | None, client: str) -> bool:
    """Does opaque state made by ``owner`` reach a ``client`` of that protocol (itself, or
    inside an envelope the client echoes)?"""
    if owner is None or owner == client:
        return owner is not None
    if owner == gem.OWNER:  # rides in tool call ids, which every client echoes
        return True
    return owner in rsn.OWNERS and client in rsn.CLIENTS
