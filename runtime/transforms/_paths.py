"""Dotted wire paths of the settings rows (compiled into each codec), written on plain dicts
(read with ``_codec_support.dig``)."""

from __future__ import annotations

from typing import Any

Segs = tuple[str, ...]


def obj_at(out: dict[str, Any], segs: Segs) -> dict[str, Any]:
    """The object at ``segs``, created (empty) when absent, as are the objects on the way."""
    for seg in segs:
        nxt = out.get(seg)
        if type(nxt) is not dict:
            nxt = out[seg] = {}
        out = nxt
    return out


def put(out: dict[str, Any], segs: Segs, value: Any) -> None:
    """Write ``value`` at ``segs``, creating (or extending) the objects on the way."""
    obj_at(out, segs[:-1])[segs[-1]] = value
