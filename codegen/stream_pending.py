"""Opaque reasoning state on the encoder's side, compiled per protocol into
generated/<id>_stream.py from its templates and its ``flags.foreign_reasoning``: nothing at run
time asks which variables the templates write or how the protocol's clients take another
protocol's reasoning.

Where a template writes ``$pending_signature`` (whole parts, Gemini), opaque state waits on the
encoder (``s.sig``) for the next part written: a signature that came with no reasoning block
(``_lone_end``, called by the compiled ``_on_ReasoningEnd``) and a call's envelope signature. Where
the flag is ``parts`` as well, another protocol's reasoning (text and state, when the codec's
CARRIER says its owner reaches this protocol's clients in ``parts``, the response path's rule) is
kept (``_keep_foreign``) and folded into one envelope by the first template that writes
``$pending_signature`` and is no reasoning part (``_take_folded``; clients may drop reasoning
parts). ``$encrypted`` (a reasoning end's opaque state for the client: its own, or another's in an
envelope, ``envelopes.signature_for`` through the codec's compiled CARRIER), ``$error_type`` and
``$bare_call_id`` are read in place (no encoder method asks at run time whether the event is a
reasoning end: codegen allows ``$encrypted`` only there)."""

from __future__ import annotations

__all__ = ["IMPORTS", "pending_funcs", "var_exprs"]

# a name the compiled code uses -> its import
IMPORTS = {
    "_parts_signature": "from interlingua.transforms.envelopes import parts_signature "
    "as _parts_signature",
    "_signature_for": "from interlingua.transforms.envelopes import signature_for "
    "as _signature_for",
    "_raw_error_type": "from interlingua._pipeline import raw_error_type as _raw_error_type",
    "_bare_id": "from interlingua.transforms.call_id_envelope import bare_id as _bare_id",
    "_unwrap_id": "from interlingua.transforms.call_id_envelope import unwrap_id as _unwrap_id",
    "_ReasoningPart": "from interlingua.generated.canonical import ReasoningPart as _ReasoningPart",
}


def var_exprs(ev: str, foreign: str) -> dict[str, str]:
    """The expressions of the variables whose meaning the template's event (``ev``) and the
    protocol's ``foreign_reasoning`` flag decide."""
    fold = foreign == "parts" and ev != "reasoning_delta"
    return {
        "$pending_signature": "(_take_folded(s) if s.sig is not None or s.foreign else None)"
        if fold
        else "(s.take_signature() if s.sig is not None else None)",
        "$encrypted": (
            '_signature_for(ev.owner, "".join(s.cur.pieces), ev.signature, ev.redacted, s.codec)'
        ),
        "$error_type": "_raw_error_type(ev.error, s.pid, s.codec)",
        "$bare_call_id": "_bare_id(s.cur.ev.id)",
    }


def pending_funcs(pending: bool, foreign: str) -> dict[str, str]:
    """name -> source of the functions a protocol whose templates write ``$pending_signature``
    needs (none for the others: a reasoning end with no block says nothing to them)."""
    if not pending:
        return {}
    fold = foreign == "parts"
    lone = [
        "def _lone_end(s: Any, ev: Any) -> None:",
        '    """A reasoning end with no block: its state waits for the next part."""',
        "    if ev.owner in MINE:",
        "        if ev.signature:",
        "            s.sig = ev.signature",
    ]
    if not fold:
        return {"_lone_end": "\n".join(lone)}
    keep = [
        "def _keep_foreign(s: Any, text: str, ev: Any) -> None:",
        '    """Another protocol\'s reasoning state, for the envelope of the next part."""',
        '    if s.codec.CARRIER.get(ev.owner) == "parts" and (ev.signature or ev.redacted):',
        "        part = _ReasoningPart(",
        "            text=text, signature=ev.signature, redacted=ev.redacted, owner=ev.owner",
        "        )",
        "        s.foreign.append(part)",
    ]
    take = [
        "def _take_folded(s: Any) -> Any:",
        '    """$pending_signature on a part that is no reasoning: other protocols\' reasoning',
        '    folded into one envelope with the waiting state, taken."""',
        "    if s.foreign:",
        "        s.sig = s.sig or _parts_signature(s.foreign)",
        "        s.foreign = []",
        "    return s.take_signature()",
    ]
    lone += ["    else:", '        _keep_foreign(s, "", ev)']
    return {
        "_lone_end": "\n".join(lone),
        "_keep_foreign": "\n".join(keep),
        "_take_folded": "\n".join(take),
    }
