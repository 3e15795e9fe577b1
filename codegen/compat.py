"""docs/compatibility.md: the feature x protocol matrix, derived from the support rows."""

from __future__ import annotations

from .load import Spec
from .stream_model import DecodeRow

_MARK = {"full": "full", "lossy": "lossy", "unsupported": "unsupported"}


def render_compat(spec: Spec) -> str:
    protos = spec.protocols
    lines = [
        "<!-- Generated from spec/ by `make generate`. Do not edit by hand. -->",
        "# Compatibility matrix",
        "",
        "One row per canonical feature, one column per protocol. A cell is **full**, **lossy** "
        "(what is lost) or **unsupported**. A translation *into* a protocol reports a loss "
        "(path, what, why) whenever the request, response or stream uses a feature that the "
        "target marks lossy or unsupported; `strict=True` raises instead.",
        "",
        "| feature | " + " | ".join(f"`{p.id}`" for p in protos) + " |",
        "|---|" + "---|" * len(protos),
    ]
    for f in spec.canonical.features:
        cells = []
        for p in protos:
            s = p.support[f.id]
            cell = f"**{_MARK[s.level]}**"
            if s.note:
                cell += f": {s.note}"
            cells.append(cell)
        lines.append(f"| {f.title} (`{f.id}`) | " + " | ".join(cells) + " |")
    lines += ["", "## Losses per direction", ""]
    for src in protos:
        for dst in protos:
            if src.id == dst.id:
                continue
            lost = [
                f.id
                for f in spec.canonical.features
                if src.support[f.id].level != "unsupported" and dst.support[f.id].level != "full"
            ]
            lines.append(
                f"- `{src.id}` → `{dst.id}`: "
                + (", ".join(f"`{x}`" for x in lost) if lost else "nothing")
            )
    lines += ["", "## Stream events", ""]
    for p in protos:
        lines += [
            f"### `{p.id}`",
            "",
            "| wire event | canonical events | keyed by | note |",
            "|---|---|---|---|",
        ]
        if p.stream is not None and p.stream.decode:
            for row in p.stream.decode:
                wire, emits, key = row_summary(row)
                lines.append(f"| `{wire}` | {emits or '(ignored)'} | {key} | {row.note} |")
        for ev in p.stream_events:
            emits = ", ".join(ev.emits) or "(ignored)"
            lines.append(f"| `{ev.wire}` | {emits} | {ev.key or ''} | {ev.note} |")
        lines.append("")
    lines += _dialects(spec)
    lines += [
        "",
        "Same-protocol translation is the identity: fields with no canonical home ride in "
        "`ext` and are written back unchanged.",
        "",
    ]
    return "\n".join(lines)


def _dialects(spec: Spec) -> list[str]:
    """One table per dialect: the features whose support differs from its base protocol."""
    if not spec.dialects:
        return []
    lines = [
        "## Dialects",
        "",
        "A dialect (`dialect=` in the library, `dialect = ...` per gateway upstream) is a "
        "rows-only overlay on its base protocol (spec/dialects/*.yaml). Features not listed are "
        "as in the base column above.",
        "",
    ]
    base = {p.id: p for p in spec.protocols}
    for d in spec.dialects:
        lines += [
            f"### `{d.name}`: {d.spec.title} (base `{d.protocol.id}`)",
            "",
            "| feature | base | dialect |",
            "|---|---|---|",
        ]
        for f in spec.canonical.features:
            mine, theirs = d.protocol.support[f.id], base[d.protocol.id].support[f.id]
            if mine != theirs:
                cells = [
                    f"**{x.level}**" + (f": {x.note}" if x.note else "") for x in (theirs, mine)
                ]
                lines.append(f"| {f.title} (`{f.id}`) | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def row_summary(row: DecodeRow) -> tuple[str, str, str]:
    """A decode row as (wire event, canonical events it yields, key) for the docs."""
    ev = row.event if isinstance(row.event, str) else "/".join(row.event or [])
    when = ",".join(
        [
            f"{k}={' or '.join(map(str, v)) if isinstance(v, list) else v}"
            for k, v in row.when.items()
        ]
        + [
            f"{p} present"
            for p in ([row.present] if isinstance(row.present, str) else row.present or [])
        ]
    )
    where = row.each and f"{row.at}.{row.each}[]" if row.each else row.at
    wire = "/".join(x for x in (ev or "chunk", when, where or "") if x)
    emits: list[str] = ["reasoning_end (a signature alone)"] if row.lone_signature else []
    if row.error:
        emits += ["error", "end"]
    if row.start:
        emits.append("start")
    kind = {"tool_call": "tool_call", "text": "text", "reasoning": "reasoning"}.get(row.open or "")
    if kind:
        emits.append(f"{kind}_start")
    whole = " (whole, when no delta came)" if row.whole else ""
    if row.text:
        emits.append((f"{kind}_delta" if kind else "text_delta / reasoning_delta") + whole)
    if row.arguments or row.arguments_object or row.pieces:
        emits.append(
            "tool_call_delta" + whole + (" (pieces joined at the end)" if row.assemble else "")
        )
    if row.separator is not None:
        emits.append("text_delta / reasoning_delta (separator)")
    if row.close:
        emits.append("text_end / reasoning_end / tool_call_end")
    if row.usage:
        emits.append("usage")
    if row.finish:
        emits.append("finish")
    if row.blocked:
        emits.append("finish (response_envelope.blocked)")
    if row.end:
        emits.append("end")
    paths = [row.key] if isinstance(row.key, str) else row.key or []
    key = " or ".join(f"`{p}`" for p in paths)  # the first present
    if row.sub is not None:
        key += f" : `{row.sub}`"
    key = row.key_const and f"`{row.key_const}`" or key
    return wire, ", ".join(emits), key
