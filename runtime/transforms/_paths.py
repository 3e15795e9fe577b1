"""Dotted wire paths of the settings rows (compiled into each codec), read and written on plain
dicts."""

from __future__ import annotations

from typing import Any

from .._wire import expect_dict

Segs = tuple[str, ...]


def dig(w: dict[str, Any], segs: Segs) -> Any:
    """The value at ``segs`` (None when any object on the way is absent); a non-object on the way
    is refused with its path."""
    cur: Any = w
    for i, seg in enumerate(segs):
        if i:
            if cur is None:
                return None
            cur = expect_dict(cur, ".".join(segs[:i]))
        cur = cur.get(seg)
    return cur


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
