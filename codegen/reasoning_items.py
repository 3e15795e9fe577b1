"""Reasoning as typed items on a message (``reasoning_details`` rows; OpenRouter), compiled into
the codec (templates/_codec_reasoning_items.j2): ``decode_reasoning_items`` holds one branch per
item row with the row's keys as literals, ``encode_reasoning_items`` reads a table made here
(owner -> its wire format, the item type and keys its text is written with, the key of a
signature riding in that item); the message key holding the list is a literal of the compiled
message code (codegen/messages_flat.py).
``carriers`` makes every codec's ``CARRIER``: whose opaque state reaches its clients, and how.

The rows' choices are made at generation time: the item an owner's text is written as (its
``text_item``, else the first row with a signature, else with a text), whether its signature
rides in that item or is an encrypted item's data, which row writes encrypted state. A row set
the compiled code could not honour is refused with the file, the line and the row."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .load import Spec
    from .source import SourceFile
    from .spec_model import ProtocolSpec, ReasoningDetails

__all__ = ["carriers", "check_reasoning_items", "reasoning_items_view"]


def carriers(spec: Spec, p: ProtocolSpec) -> dict[str, str]:
    """The codec's ``CARRIER``: owner -> how its opaque reasoning state reaches a client of
    ``p`` (runtime/transforms/envelopes.py): ``ids`` (flags.call_id_signatures: a signature on
    a call, in the call id), ``signature`` / ``parts`` (flags.enveloped_reasoning, as ``p``'s
    flags.foreign_reasoning takes it), ``own`` (``p`` itself, an owner its reasoning_details
    rows name); an owner absent reaches it in no envelope."""
    out: dict[str, str] = {}
    for q in spec.protocols:
        if q.flags.call_id_signatures:
            out[q.id] = "ids"
        if q.flags.enveloped_reasoning and p.flags.foreign_reasoning != "none":
            out[q.id] = p.flags.foreign_reasoning
    for o in p.reasoning_details.owners if p.reasoning_details else ():
        out[o.owner] = "own"
    out[p.id] = "own"
    return out


def _text_item(rd: ReasoningDetails) -> str | None:
    """The item a text is written as by default: the first with a signature, else with a text."""
    return next((r.type for r in rd.items if r.signature and r.text), None) or next(
        (r.type for r in rd.items if r.text), None
    )


def check_reasoning_items(rd: ReasoningDetails, src: SourceFile) -> None:
    """What the compiled code needs beyond the rows' own checks: a text item to write reasoning
    text as, and for an owner whose signature rides in its text item, a key for it there."""
    loc = ("reasoning_details",)
    default = _text_item(rd)
    if default is None:
        src.error((*loc, "items"), "no item row has `text`: reasoning text could not be written")
        return
    rows = {r.type: r for r in rd.items}
    for i, o in enumerate(rd.owners):
        row = rows.get(o.text_item or default)
        if o.signature_in == "text" and row is not None and row.signature is None:
            src.error(
                (*loc, "owners", i),
                f"the signature of {o.owner} rides in its text item, but item {row.type!r} "
                "has no `signature` key",
            )


def reasoning_items_view(p: ProtocolSpec) -> dict[str, Any] | None:
    """What the template needs: the rows, owners both ways, the unknown owner's text item."""
    rd = p.reasoning_details
    if rd is None:
        return None
    rows = {r.type: r for r in rd.items}
    default = rows[_text_item(rd) or ""]
    write = {}
    for o in rd.owners:
        row = rows[o.text_item or default.type]
        sig = row.signature if o.signature_in == "text" else None
        write[o.owner] = (o.format, row.type, row.text, sig)
    return {
        "rd": rd,
        "read": {o.format: (o.owner, o.signature_in == "encrypted") for o in rd.owners},
        "write": write,
        "unknown": (default.type, default.text),
        "encrypted": next((r for r in rd.items if r.encrypted), None),
    }
