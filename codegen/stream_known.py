"""Which keys of the objects a protocol's stream rows read from (their ``at`` paths) have a
canonical home: the keys the rows read there, the keys leading to a deeper ``at``, the field of a
``[field=value]`` selector, and the stream's ``quiet_fields`` (keys that carry nothing a target
needs, such as Chat's ``role``). The decoder reports every other key that has a value, once per
stream, as lost: a field added by a provider or a dialect is never dropped in silence."""

from __future__ import annotations

import re

from .stream_model import DecodeRow, StreamSpec

__all__ = ["known_fields", "row_paths"]

_SELECTOR = re.compile(r"^([A-Za-z_][\w-]*)(?:\[([A-Za-z_][\w-]*)=[^\]]*\])?$")

# the row fields that hold wire paths (read relative to the row's `at`)
PATH_FIELDS = (
    "at", "each", "key", "call_id", "name", "arguments", "arguments_object", "signature",
    "redacted", "finish", "stop_sequence", "error", "text", "usage", "label", "sub",
    "lone_signature", "pieces", "present",
)  # fmt: skip


def row_paths(row: DecodeRow, name: str) -> list[str]:
    v = getattr(row, name)
    if v is None:
        return []
    return [v] if isinstance(v, str) else list(v)


def _head(path: str) -> str:
    seg = path.split(".", 1)[0]
    m = _SELECTOR.match(seg)
    return m.group(1) if m else seg


def known_fields(s: StreamSpec) -> dict[str, list[str]]:
    """``at`` path -> the keys of that object with a canonical home (sorted)."""
    known: dict[str, set[str]] = {}
    for row in s.decode:
        if row.at is None:
            continue
        keys = known.setdefault(row.at, set())
        if row.each is not None:  # the other paths are read from each item
            keys.add(_head(row.each))
            continue
        for name in PATH_FIELDS[1:]:
            keys.update(_head(p) for p in row_paths(row, name))
        keys.update(_head(p) for p in (row.start or {}).values())
    for at, keys in known.items():
        m = _SELECTOR.match(at.rsplit(".", 1)[-1])
        if m and m.group(2):
            keys.add(m.group(2))
        for other in known:
            if other.startswith(at + "."):
                keys.add(_head(other[len(at) + 1 :]))
        keys.update(s.quiet_fields.get(at, ()))
    return {at: sorted(keys) for at, keys in sorted(known.items())}
