"""Reasoning as a list of typed items on a message (``codec.REASONING_DETAILS``, from a
protocol's or dialect's ``reasoning_details`` rows; OpenRouter's ``reasoning_details``), for
messages_flat: items -> ReasoningParts and back.

The item's owner key (``format``) names the protocol that made its opaque state, through the
``owners`` rows; such state goes back only to that protocol or to this one. An owner's signature
rides in its text item (``signature_in: text``: Anthropic, Gemini) or is the data of an
encrypted item that follows the text (``encrypted``: OpenAI Responses encrypted_content, merged
into the part before it). An encrypted item of a ``text`` owner is redacted reasoning. State of an
owner with no row is reported, never written."""

from __future__ import annotations

from typing import Any

from .._losses import Ctx
from .._wire import expect_dict, expect_list
from ..generated.canonical import ReasoningPart
from .envelopes import replay_loss

__all__ = ["decode_items", "encode_items"]


def _str(v: Any) -> str | None:
    return v if type(v) is str and v else None


def decode_items(items: Any, rd: dict[str, Any], path: str) -> list[ReasoningPart]:
    out: list[ReasoningPart] = []
    for k, raw in enumerate(expect_list(items, path)):
        it = expect_dict(raw, f"{path}[{k}]")
        row = rd["items"].get(it.get(rd["type_key"]))
        if row is None:
            continue  # an item type with no row: the hint keeps it for the same protocol
        owner, sig_in = rd["owners"].get(it.get(rd["owner_key"]), (None, "text"))
        text = _str(it.get(row["text"])) if row["text"] else None
        sig = _str(it.get(row["signature"])) if row["signature"] else None
        data = _str(it.get(row["encrypted"])) if row["encrypted"] else None
        rid = _str(it.get(rd["id_key"])) if rd["id_key"] else None
        prev = out[-1] if out else None
        if (
            data is not None
            and sig_in == "encrypted"
            and prev is not None
            and prev.owner == owner
            and prev.signature is None
            and prev.redacted is None
        ):
            prev.signature = data  # the encrypted state of the text before it
            prev.id = prev.id or rid
            continue
        part = ReasoningPart(text=text or "", owner=owner, id=rid)
        if data is not None:
            if sig_in == "encrypted":
                part.signature = data
            else:
                part.redacted = data
        elif sig is not None:
            part.signature = sig
        out.append(part)
    return out


def encode_items(
    parts: list[ReasoningPart], rd: dict[str, Any], path: str, ctx: Ctx
) -> list[dict[str, Any]]:
    """One or two items per part (text, then encrypted state); unknown owners' state reported."""
    out: list[dict[str, Any]] = []
    tk, ok, enc = rd["type_key"], rd["owner_key"], rd["encrypted_item"]
    for n, p in enumerate(parts):
        fmt, sig_in = rd["formats"].get(p.owner, (None, "text"))
        state = fmt is not None
        if (p.signature or p.redacted) and not state:
            ctx.losses.append(replay_loss(f"{path}[{n}]", p.owner))
        common: dict[str, Any] = {ok: fmt or rd["unknown_owner"]}
        if rd["index_key"]:
            common[rd["index_key"]] = n
        sig_in_text = state and sig_in == "text" and p.signature
        t = rd["text_items"][p.owner] if state else rd["text_item"]
        if (p.text or sig_in_text) and t is not None:
            row = rd["items"][t]
            it: dict[str, Any] = {tk: t, row["text"]: p.text}
            if sig_in_text and row["signature"]:
                it[row["signature"]] = p.signature
            out.append({**it, **common})
        data = p.redacted or (p.signature if sig_in == "encrypted" else None)
        if state and data and enc is not None:
            it = {tk: enc[0], enc[1]: data, **common}
            if rd["id_key"] and p.id:
                it[rd["id_key"]] = p.id
            out.append(it)
    return out
