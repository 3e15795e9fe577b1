"""Wire paths an encoder always writes though a source may leave them out or send null: a part
row's ``match`` keys (a tool call's ``type``), its required JSON-text fields (Chat's
``function.arguments``), its optional JSON-object fields (Gemini's ``functionCall.args``: ``{}``
when absent), a tool wrapper's ``type``. Compiled for each row that has them: the decoder
records in the part's hints which came absent (``"absent"``) or null (``"null"``), as dotted
paths, and the encoder writes them back so to the same protocol, with the paths written out
(no walk over a table of paths per part)."""

from __future__ import annotations

import json

Shape = tuple[tuple[str, ...], ...]


def shape_reader(name: str, shape: Shape) -> str:
    """The function ``name(w)``: which paths of ``shape`` the wire object ``w`` had absent or
    null (a hints dict), None when none."""
    lines = [
        f"def {name}(w: dict[str, Any]) -> dict[str, Any] | None:",
        '    """Which of the paths the encoder always writes came absent or null."""',
        "    hints: dict[str, list[str]] = {}",
    ]
    for segs in shape:
        *head, leaf = (json.dumps(s) for s in segs)
        dotted = json.dumps(".".join(segs))
        at = "w"
        if head:
            lines.append(f"    o = w.get({head[0]})")
            lines += [f"    o = o.get({k}) if type(o) is dict else None" for k in head[1:]]
            at = "o"
        absent = f"{leaf} not in {at}" if at == "w" else f"type(o) is not dict or {leaf} not in o"
        lines += [
            f"    if {absent}:",
            f'        hints.setdefault("absent", []).append({dotted})',
            f"    elif {at}[{leaf}] is None:",
            f'        hints.setdefault("null", []).append({dotted})',
        ]
    lines.append("    return hints or None")
    return "\n".join(lines)


def shape_writer(shape: Shape, obj: str = "p") -> str:
    """Statements (indented for a function body) that undo ``shape_reader`` on ``out``, the
    encoded ``obj``, for the same protocol: an absent path removed, a null one nulled."""
    lines = [
        f"    if ctx.same and {obj}.hints:  # back to this protocol as they came",
        f'        absent, null = {obj}.hints.get("absent", ()), {obj}.hints.get("null", ())',
    ]
    for segs in shape:
        *head, leaf = (json.dumps(s) for s in segs)
        dotted = json.dumps(".".join(segs))
        at = "out" + "".join(f"[{k}]" for k in head)
        lines += [
            f"        if {dotted} in absent:",
            f"            {at}.pop({leaf}, None)",
            f"        elif {dotted} in null:",
            f"            {at}[{leaf}] = None",
        ]
    return "\n".join(lines)
