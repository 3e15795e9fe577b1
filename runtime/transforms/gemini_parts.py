"""gemini_parts: the parts of a Gemini content (``{role, parts}``). Parts have no type field;
the generated rows read thought parts (``thought: true``), ``functionCall``, text, inlineData
and fileData, this module the rest:

- a ``functionCall``'s id: synthesised (``ilg_<n>``) when Gemini sent none, left out again;
- ``functionResponse`` -> ToolResultPart, matched to its call by id, else by name and order
  (call_ids); its ``response`` read and written by the codec's ``decode_result`` /
  ``encode_result``, compiled from flags.turns.result_wrap (``{output: text}`` ...);
- ``thoughtSignature`` on any other part -> an attached ReasoningPart before it
  (gemini_envelope, docs/gemini.md).

A request's snake_case part keys (``function_call``, ``inline_data`` ...) are recased before
(the snake_case_keys row of ``contents``).
"""

from __future__ import annotations

import base64
from typing import Any

from .._codec_support import drop_ext, split_ext
from .._losses import Ctx
from .._wire import expect_dict, expect_list, expect_str
from ..generated.canonical import FilePart, Part, TextPart, ToolCallPart, ToolResultPart
from ._base import Codec
from .call_ids import CallIds
from .gemini_envelope import attach_part, bare_id, is_attach, unwrap_id

__all__ = ["decode_parts", "encode_parts"]

_RESULT_KEYS = frozenset({"id", "name", "response"})


def _decode_result(w: dict[str, Any], path: str, ids: CallIds, codec: Codec) -> ToolResultPart:
    fr = expect_dict(w["functionResponse"], path + ".functionResponse")
    name = expect_str(fr.get("name"), path + ".functionResponse.name")
    given = fr.get("id")
    call_id = ids.result(name, expect_str(given, path + ".functionResponse.id") if given else None)
    text, is_error, hints = codec.decode_result(
        fr.get("response"), path + ".functionResponse.response"
    )
    if given is None:
        hints["no_id"] = True
    return ToolResultPart(
        call_id=call_id,
        content=[TextPart(text=text)],
        is_error=is_error,
        name=name,
        ext=split_ext(w, frozenset({"functionResponse"}), {"functionResponse": _RESULT_KEYS}),
        hints=hints,
    )


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
        if "functionResponse" in rest:
            out.append(_decode_result(rest, p, ids, codec))
            continue
        part = codec.decode_part(rest, p, ctx)  # thought, functionCall, text, data: the rows
        if type(part) is ToolCallPart:  # its id: given, else synthesised
            part.id = ids.call(part.name, part.id or None)
        out.append(part)
    return out


def _encode_result(
    p: ToolResultPart, path: str, names: dict[str, str], codec: Codec, ctx: Ctx
) -> dict[str, Any]:
    cid = unwrap_id(p.call_id)[0]
    name = p.name or names.get(cid)
    if name is None:
        name = "unknown"
        ctx.loss(
            path + ".name",
            "function name of the result unknown; sent as 'unknown'",
            "Gemini names each functionResponse and no call with this id precedes it",
            "tool_result",
        )
    hints = p.hints or {}
    content = p.content or []  # None: the source sent no content (Anthropic allows it)
    texts = [q.text for q in content if type(q) is TextPart]
    for k, q in enumerate(content):
        if type(q) is not TextPart:
            ctx.loss(
                f"{path}.content[{k}]",
                f"{type(q).__name__} in a tool result dropped",
                "functionResponse carries a JSON object here",
                "tool_result",
            )
    response = codec.encode_result("".join(texts), p.is_error, hints, ctx.same)
    fr: dict[str, Any] = {"name": name}
    if response is not None:
        fr["response"] = response
    if (bare := bare_id(cid)) is not None and not (ctx.same and hints.get("no_id")):
        fr["id"] = bare
    out: dict[str, Any] = {"functionResponse": fr}
    if p.ext:
        drop_ext(p.ext, out, path, ctx)
    return out


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
            if (bare := bare_id(p.id)) is None:  # type: ignore[union-attr]
                del d["functionCall"]["id"]  # synthesised: Gemini sent none
            else:
                d["functionCall"]["id"] = bare  # the signature it carried goes on the part
            sig = unwrap_id(p.id)[1] or sig  # type: ignore[union-attr]
        elif t is ToolResultPart:
            d = _encode_result(p, pp, names, codec, ctx)  # type: ignore[arg-type]
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
