"""gemini_parts: the parts of a Gemini content (``{role, parts}``). Parts have no type field;
the generated rows read thought parts (``thought: true``), ``functionCall``,
``functionResponse`` (its ``response`` through flags.turns.result_wrap: ``{output: text}`` ...),
text, inlineData and fileData, this module the rest:

- a ``functionCall``'s id: synthesised (``ilg_<n>``) when Gemini sent none, left out again;
  a ``functionResponse``'s: given, else its call's by name and order (call_ids), left out again;
  its function name, when another protocol's result has none: its call's (``unknown``, reported);
- ``thoughtSignature`` on any other part -> an attached ReasoningPart before it
  (call_id_envelope, docs/gemini.md).

A request's snake_case part keys (``function_call``, ``inline_data`` ...) are recased before
(the snake_case_keys row of ``contents``).
"""

from __future__ import annotations

import base64
from typing import Any

from .._losses import Ctx
from .._wire import expect_dict, expect_list, expect_str
from ..generated.canonical import FilePart, Part, ToolCallPart, ToolResultPart
from ._base import Codec
from .call_id_envelope import attach_part, bare_id, is_attach, unwrap_id
from .call_ids import CallIds

__all__ = ["decode_parts", "encode_parts"]


def decode_parts(raw: Any, path: str, codec: Codec, ctx: Ctx, ids: CallIds) -> list[Part]:
    """Wire parts -> canonical parts."""
    out: list[Part] = []
    for k, w in enumerate(expect_list(raw, path)):
        p = f"{path}[{k}]"
        w = expect_dict(w, p)
        sig = w.get("thoughtSignature")
        if sig is not None and w.get("thought") is not True:  # a thought part's own: its row
            sig = expect_str(sig, p + ".thoughtSignature")
            rest = {key: v for key, v in w.items() if key != "thoughtSignature"}
            out.append(attach_part(sig))
            if not rest:  # a part holding the signature alone: so again toward Gemini
                out[-1].ext = {"attach": "next", "alone": True}
                continue
        else:
            rest = w
        part = codec.decode_part(rest, p, ctx)  # thought, functionCall/Response, text, data: rows
        if type(part) is ToolCallPart:  # its id: given, else synthesised
            part.id = ids.call(part.name, part.id or None)
        elif type(part) is ToolResultPart:  # its id: given, else its call's by name
            if not part.call_id:
                part.hints = {**(part.hints or {}), "no_id": True}  # left out again
            part.call_id = ids.result(part.name or "", part.call_id or None)
        out.append(part)
    return out


def _name(p: ToolResultPart, names: dict[str, str], path: str, ctx: Ctx) -> str:
    """The function name Gemini needs on a result: its own, else its call's (``names``)."""
    name = p.name or names.get(unwrap_id(p.call_id)[0])
    if name is None:
        name = "unknown"
        ctx.loss(
            path + ".name",
            "function name of the result unknown; sent as 'unknown'",
            "Gemini names each functionResponse and no call with this id precedes it",
            "tool_result",
        )
    return name


def _wire_id(obj: dict[str, Any], call_id: str, keep: bool = True) -> None:
    """The id of a functionCall / functionResponse as Gemini gets it (bare_id: the envelope
    taken off); left out when synthesised, when Gemini sent none (``keep`` false) or none."""
    bare = bare_id(call_id)
    if bare is None or not keep:
        obj.pop("id", None)
    else:
        obj["id"] = bare


def _text_document(p: FilePart) -> dict[str, Any] | None:
    """A plain-text document (neither data nor URL) inline, else None (an image or document
    with neither and no text, another provider's file id: the rows drop it, reported)."""
    if p.text is None or p.data is not None or p.url is not None:
        return None
    data = base64.b64encode(p.text.encode("utf-8")).decode("ascii")
    return {"inlineData": {"mimeType": p.media_type or "text/plain", "data": data}}


def encode_parts(
    parts: list[Part], path: str, codec: Codec, ctx: Ctx, names: dict[str, str]
) -> list[dict[str, Any]]:
    """Canonical parts -> wire parts (``names``: function names by call id, for results)."""
    out: list[dict[str, Any]] = []
    sig: str | None = None
    for k, p in enumerate(parts):
        pp = f"{path}[{k}]"
        t = type(p)
        d: dict[str, Any] | None
        if is_attach(p) and p.owner == codec.PROTOCOL:  # type: ignore[union-attr]
            if p.ext and p.ext.get("alone"):  # type: ignore[union-attr]
                out.append({"thoughtSignature": p.signature})  # type: ignore[union-attr]
            else:
                sig = p.signature  # type: ignore[union-attr]
            continue
        if t is ToolCallPart:
            d = codec.encode_tool_call(p, pp, ctx)
            _wire_id(d["functionCall"], p.id)  # type: ignore[union-attr]
            sig = unwrap_id(p.id)[1] or sig  # type: ignore[union-attr]  # it goes on the part
        elif t is ToolResultPart:
            d = codec.encode_tool_result(p, pp, ctx)
            fr = d["functionResponse"]
            fr["name"] = _name(p, names, pp, ctx)  # type: ignore[arg-type]  # (in its place)
            no_id = ctx.same and (p.hints or {}).get("no_id")
            _wire_id(fr, p.call_id, not no_id)  # type: ignore[union-attr]
        elif t is FilePart and (doc := _text_document(p)) is not None:  # type: ignore[arg-type]
            d = doc
        else:
            d = codec.encode_part(p, pp, ctx)  # an image / file with neither data nor URL: dropped
        if d is None:
            continue
        if sig is not None:
            d["thoughtSignature"] = sig
            sig = None
        out.append(d)
    if sig is not None:
        out.append({"text": "", "thoughtSignature": sig})
    return out
