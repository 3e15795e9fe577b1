"""What codegen refuses in a stream section (``checks.py`` reports each with its file, line and
row): a stream transform with no module, rows with `event` but no `recognise` path, bad path
segments, unknown template variables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .stream_model import StreamSpec
from .stream_render import _SEG, _VAR_EXPR, _paths

STREAMS = Path(__file__).resolve().parent.parent / "runtime" / "streams"


def stream_problems(s: StreamSpec) -> list[tuple[tuple[str | int, ...], str]]:
    """What codegen cannot make sense of in a stream section, as (key path, message)."""
    out: list[tuple[tuple[str | int, ...], str]] = []
    if s.transform is not None and not (STREAMS / f"{s.transform}.py").is_file():
        out.append(
            (("stream", "transform"), f"no stream transform runtime/streams/{s.transform}.py")
        )
    for i, row in enumerate(s.decode):
        loc: tuple[str | int, ...] = ("stream", "decode", i)
        if row.event is not None and s.recognise is None:
            out.append(((*loc, "event"), "a row with `event` needs the stream's `recognise` path"))
        paths = [p for name in _PATH_FIELDS for p in _paths(getattr(row, name))]
        paths += list(row.when) + list((row.start or {}).values())
        for path in paths:
            bad = [seg for seg in path.split(".") if not seg.isdigit() and not _SEG.match(seg)]
            if bad:
                out.append((loc, f"bad path segment {bad[0]!r} in {path!r}"))
    if s.encode is not None:
        bodies: list[tuple[tuple[str | int, ...], Any]] = [
            (("stream", "encode", "events", ev), body) for ev, body in s.encode.events.items()
        ]
        bodies += [(("stream", "encode", "end", j), t.body) for j, t in enumerate(s.encode.end)]
        for loc, body in bodies:
            for var in _vars(body):
                if var not in _VAR_EXPR:
                    out.append((loc, f"unknown variable {var!r} (known: {', '.join(_VAR_EXPR)})"))
    return out


_PATH_FIELDS = (
    "at", "each", "key", "call_id", "name", "arguments", "arguments_object", "signature",
    "redacted", "finish", "stop_sequence", "error", "text", "usage",
)  # fmt: skip


def _vars(body: Any) -> list[str]:
    if isinstance(body, str):
        return [body] if body.startswith("$") else []
    if isinstance(body, dict):
        return [v for x in body.values() for v in _vars(x)]
    if isinstance(body, list):
        return [v for x in body for v in _vars(x)]
    return []
