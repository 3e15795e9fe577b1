"""The ``part_walk`` row (spec/protocols/*.yaml): what a protocol's list of parts carries beside
the parts themselves (Gemini), compiled into the codec's ``decode_parts`` / ``encode_parts``
(templates/_codec_parts.j2) with the runtime helpers of runtime/transforms/call_ids.py and
call_id_envelope.py. A row the walk cannot follow is refused here with its file, line and row."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .source import Loc
from .spec_http import Strict


class PartWalk(Strict):
    """State a list of parts carries beside its parts."""

    signature: str | None = Field(
        None,
        description="wire key of opaque state any part may carry (Gemini thoughtSignature): on a "
        "part that is not a reasoning part it reads as an attached ReasoningPart right before "
        "it (call_id_envelope; a part holding it alone stays alone); this protocol's attached "
        "state is written on the next part, a call's own (flags.call_id_signatures) on its "
        "part, one left over on an empty text part",
    )
    call_ids: Literal["by_name"] | None = Field(
        None,
        description="calls may come without ids: one is synthesised (stream.missing_call_id "
        "says which), a result without one gets its call's by name in call order, and each is "
        "left out again toward this protocol (call_ids.CallIds); a result without a name gets "
        "its call's",
    )


def _field(p: Any, kind: str, c: str) -> Any:
    """The field row ``c`` of the first part row of ``kind`` (None: no such row or field)."""
    row = next((r for r in p.parts if r.part == kind), None)
    return next((f for f in row.fields if f.c == c), None) if row else None


def part_walk_problems(p: Any) -> list[tuple[Loc, str]]:
    """What the ProtocolSpec ``p``'s part_walk row says that the walk cannot follow."""
    w = p.part_walk
    if w is None:
        return []
    out: list[tuple[Loc, str]] = []
    if w.signature is not None:
        if "." in w.signature:
            out.append((("part_walk", "signature"), "one key of a part, not a path"))
        if sum(r.part == "reasoning" for r in p.parts) > 1:  # its test tells its own apart
            out.append((("part_walk", "signature"), "needs one reasoning row, not several"))
        if _field(p, "reasoning", "signature") is None or _field(p, "text", "text") is None:
            out.append(
                (
                    ("part_walk", "signature"),
                    "needs a reasoning row with a signature and a text row",
                )
            )
    if w.call_ids is not None:
        for kind in ("tool_call", "tool_result"):  # the walk writes their ids in what they write
            rows = [r for r in p.parts if r.part == kind and not r.decode_only]
            if len(rows) != 1 or rows[0].when is not None:
                out.append((("part_walk", "call_ids"), f"needs one {kind} row, for every part"))
        for kind, c in (("tool_call", "id"), ("tool_call", "name"), ("tool_result", "call_id")):
            f = _field(p, kind, c)
            if f is None or f.w.count(".") != 1:
                out.append(
                    (("part_walk", "call_ids"), f"needs a {kind} row with {c} at <key>.<id>")
                )
        f, r = _field(p, "tool_result", "name"), _field(p, "tool_result", "call_id")
        if f is None or r is None or f.w.split(".")[0] != r.w.split(".")[0]:
            out.append((("part_walk", "call_ids"), "needs a tool_result name beside its call_id"))
    return out


def part_walk_view(p: Any) -> dict[str, Any] | None:
    """What the template needs: the signature key, the reasoning row's own and the empty text
    part's key; the wire objects holding a call's and a result's id and the result's name."""
    w = p.part_walk
    if w is None:
        return None
    view: dict[str, Any] = {"signature": w.signature, "call_ids": w.call_ids}
    if w.signature is not None:
        view["text_key"] = _field(p, "text", "text").w
    if w.call_ids is not None:
        call_id, result_id = _field(p, "tool_call", "id"), _field(p, "tool_result", "call_id")
        view["call"] = call_id.w.split(".")
        view["result"] = result_id.w.split(".")
        view["result_name"] = _field(p, "tool_result", "name").w.split(".")[1]
        view["result_feature"] = next(r.feature for r in p.parts if r.part == "tool_result")
    return view
