"""The ``stream:`` section of a dialect overlay: decode rows added to the base protocol's rows
(placed ``after:`` a base row or ``replaces:`` one, the base row named by some of its keys, e.g.
``replaces: {key_const: reasoning}``; otherwise appended), and encode templates replaced or added
(``events:``, keyed by canonical event as in the base's ``stream.encode.events``). Every row is
compiled on its own first, so a bad one is refused at its own line."""

from __future__ import annotations

import ast
import copy
from typing import Any

from pydantic import Field, ValidationError, model_validator

from .envelope import stream_defaults
from .source import SourceFile
from .spec_http import Strict
from .spec_model import ProtocolSpec
from .stream_encode import template as _template
from .stream_known import PATH_FIELDS, row_paths
from .stream_model import TEMPLATE_EVENTS, DecodeRow, StreamSpec
from .stream_render import StreamSpecError, _Readers

__all__ = ["StreamOverlay", "link_stream", "merge_stream"]

_PLACE = ("after", "replaces")


class OverlayDecodeRow(DecodeRow):
    after: dict[str, Any] | None = Field(None, description="keys naming the base row it follows")
    replaces: dict[str, Any] | None = Field(
        None, description="keys naming the base row it replaces"
    )

    @model_validator(mode="after")
    def _one_place(self) -> OverlayDecodeRow:
        if self.after is not None and self.replaces is not None:
            raise ValueError("a row is placed `after:` a base row or `replaces:` one, not both")
        return self


class StreamOverlay(Strict):
    decode: list[OverlayDecodeRow] = Field(default_factory=list)
    events: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="encode templates replaced or added, by canonical event"
    )
    quiet_fields: dict[str, list[str]] = Field(
        default_factory=dict, description="keys added to the base's quiet_fields, by `at` path"
    )


def _find(base: list[dict[str, Any]], sel: dict[str, Any]) -> list[int]:
    return [i for i, row in enumerate(base) if all(row.get(k) == v for k, v in sel.items())]


def merge_stream(
    base: ProtocolSpec,
    base_src: SourceFile,
    ov: StreamOverlay,
    src: SourceFile,
) -> StreamSpec | None:
    """The base stream with the overlay applied; problems go on ``src`` (the overlay)."""
    raw = stream_defaults(base_src.data or {}).get("stream")  # with the envelope's defs
    if base.stream is None or not isinstance(raw, dict):
        src.error(("stream",), f"{base.id} has no stream rows to add to")
        return None
    merged = copy.deepcopy(raw)
    rows: list[dict[str, Any]] = merged.setdefault("decode", [])
    where = str(src.path)
    owned = False
    placed: list[tuple[int, dict[str, Any], str]] = []  # (base position, row, how)
    appended: list[dict[str, Any]] = []
    for i, row in enumerate(ov.decode):
        loc = ("stream", "decode", i)
        try:  # each of its paths compiles
            r = _Readers()
            for name in (*PATH_FIELDS, "owner"):
                for path in row_paths(row, name):
                    r(path, f"{where}: stream.decode[{i}]")
        except StreamSpecError as e:
            src.error(loc, str(e).split(": ", 1)[-1])
            continue
        if row.owner is not None:
            owned = True
            if row.signature is None and row.redacted is None:
                src.error(
                    (*loc, "owner"),
                    "`owner` names who made opaque state: the row needs `signature` or `redacted`",
                )
        body = row.model_dump(exclude_unset=True, by_alias=True, exclude=set(_PLACE))
        how = next((k for k in _PLACE if getattr(row, k) is not None), None)
        if how is None:
            appended.append(body)
            continue
        sel = getattr(row, how)
        found = _find(raw.get("decode") or [], sel)
        if len(found) != 1:
            src.error(
                (*loc, how),
                f"{'no' if not found else len(found)} base row{'s' if len(found) > 1 else ''} "
                f"of {base.id} stream.decode match {sel} (name exactly one by its keys)",
            )
            continue
        placed.append((found[0], body, how))
    if owned and base.reasoning_details is None and "reasoning_details" not in (src.data or {}):
        src.error(
            ("stream", "decode"),
            "a row with `owner` needs a reasoning_details section "
            "(its owners map the wire value to a protocol)",
        )
    for pos, body, how in sorted(placed, key=lambda pl: -pl[0]):
        if how == "replaces":
            rows[pos] = body
        else:
            rows.insert(pos + 1, body)
    rows.extend(appended)
    quiet = merged.setdefault("quiet_fields", {})
    for at, keys in ov.quiet_fields.items():
        quiet[at] = [*quiet.get(at, []), *keys]
    enc = merged.get("encode")
    for ev, body in ov.events.items():
        eloc: tuple[str, ...] = ("stream", "events", ev)
        if ev not in TEMPLATE_EVENTS:
            src.error(
                eloc, f"unknown template event (expected one of {', '.join(TEMPLATE_EVENTS)})"
            )
            continue
        try:
            _template(body, where)
        except StreamSpecError as e:
            src.error(eloc, str(e).split(": ", 1)[-1])
            continue
        if isinstance(enc, dict):
            enc.setdefault("events", {})[ev] = body
    try:
        return StreamSpec.model_validate(merged)
    except ValidationError as e:
        for err in e.errors():
            src.error(("stream",), f"the merged stream is invalid at {err['loc']}: {err['msg']}")
        return None


def link_stream(
    base: str, text: str, base_module: str, keep: frozenset[str] = frozenset({"ROWS"})
) -> str:
    """A dialect's stream module that imports from its base protocol's module every top-level
    function, class and constant its rows leave as they are (the same code, under its own name or the
    base's), and keeps only what they change: a definition is shared when its code is the
    base's and every module-level name it uses is shared too, or imported alike (never one
    named in ``keep``)."""
    mine, theirs = ast.parse(text), ast.parse(base)
    imports = _imports(mine)
    same_imports = {n for n, what in imports.items() if _imports(theirs).get(n) == what}
    defs, olds = _defs(mine), _defs(theirs)
    by_code = {code: name for name, (code, _, _) in olds.items()}
    shared = {  # name -> the base's name for the same code (its own name first)
        n: n if n in olds and olds[n][0] == c else by_code[c]
        for n, (c, _, _) in defs.items()
        if c in by_code and n not in keep
    }
    changed = True
    while changed:  # a definition using one that is not shared is not shared
        changed = False
        for n in list(shared):
            if any(
                g in defs and shared.get(g) != g or g in imports and g not in same_imports
                for g in defs[n][1]
            ):
                del shared[n]
                changed = True
    if not shared:
        return text
    lines = text.splitlines(keepends=True)
    drop: set[int] = set()
    for n in shared:
        first, last = defs[n][2]
        while first > 0 and lines[first - 1].startswith("#"):  # its comment goes with it
            first -= 1
        drop.update(range(first, last))
    names = ", ".join(
        n if b == n else f"{b} as {n}" for n, b in sorted(shared.items(), key=lambda x: x[1])
    )
    at = max(node.end_lineno or 0 for node in mine.body if isinstance(node, ast.ImportFrom))
    head = f"from .{base_module} import {names}\n"
    kept = [line for i, line in enumerate(lines) if i not in drop]
    return "".join([*kept[:at], head, *kept[at:]])


def _imports(mod: ast.Module) -> dict[str, tuple[str, str]]:
    """Name bound by a top-level ``from ... import`` -> (module, imported name)."""
    return {
        a.asname or a.name: (node.module or "", a.name)
        for node in mod.body
        if isinstance(node, ast.ImportFrom)
        for a in node.names
    }


def _defs(mod: ast.Module) -> dict[str, tuple[str, set[str], tuple[int, int]]]:
    """Top-level function, class or constant name -> (its code without its name and comments, the
    names it reads, its lines)."""
    out: dict[str, tuple[str, set[str], tuple[int, int]]] = {}
    for node in mod.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            name, node.name = node.name, "_"
            code = ast.dump(node)
            node.name = name
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if not isinstance(target, ast.Name):
                continue
            name, code = target.id, ast.dump(node)
        else:
            continue
        reads = {x.id for x in ast.walk(node) if isinstance(x, ast.Name) and x.id != name}
        out[name] = (code, reads, (node.lineno - 1, node.end_lineno or node.lineno))
    return out
