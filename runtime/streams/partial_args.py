"""Named stream transform ``partial_args`` (``assemble: partial_args`` in a stream row): Gemini 3
sends a call's arguments in pieces, ``functionCall.partialArgs`` items of a JSON path and one
value (``stringValue``, ``numberValue``, ``boolValue``, ``structValue``, ``listValue``). A string
whose piece says ``willContinue`` goes on in the next piece for the same path. The machine keeps
the state per call (``start``, seeded with the call's own ``args``), passes each part's pieces
(``feed``, which returns how many it could not place) and writes the object once, when the call
ends (``text``)."""

from __future__ import annotations

import re
from typing import Any

import orjson

__all__ = ["start", "feed", "text"]

_TOKEN = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]|\['([^']*)'\]")
_VALUES = ("stringValue", "numberValue", "boolValue", "structValue", "listValue")


def start(seed: Any) -> dict[str, Any]:
    return {"args": dict(seed) if type(seed) is dict else {}, "cont": None}


def feed(state: dict[str, Any], pieces: Any) -> int:
    bad = 0
    for piece in pieces if type(pieces) is list else ():
        path = piece.get("jsonPath") if type(piece) is dict else None
        if type(path) is not str:
            bad += 1
            continue
        value = next((piece[k] for k in _VALUES if k in piece), None)
        try:
            _set(state["args"], path, value, append=path == state["cont"])
        except (TypeError, AttributeError, IndexError, KeyError):
            bad += 1  # a path that contradicts the pieces before it
        state["cont"] = path if piece.get("willContinue") else None
    return bad


def text(state: dict[str, Any]) -> str | None:
    return orjson.dumps(state["args"]).decode() if state["args"] else None


def _set(root: dict[str, Any], json_path: str, value: Any, append: bool) -> None:
    """Set ``$.a.b[0].c`` in ``root`` (creating objects / arrays); ``append`` joins strings."""
    tokens: list[str | int] = []
    for m in _TOKEN.finditer(json_path.removeprefix("$")):
        key, idx, quoted = m.groups()
        tokens.append(int(idx) if idx is not None else (key if key is not None else quoted))
    if not tokens:
        return
    cur: Any = root
    for tok, nxt in zip(tokens, tokens[1:], strict=False):
        empty: Any = [] if type(nxt) is int else {}
        if type(tok) is int:
            while len(cur) <= tok:
                cur.append(None)
            if cur[tok] is None:
                cur[tok] = empty
            cur = cur[tok]
        else:
            cur = cur.setdefault(tok, empty)
    last = tokens[-1]
    if type(last) is int:
        while len(cur) <= last:
            cur.append(None)
    old = cur[last] if type(last) is int else cur.get(last)
    cur[last] = old + value if append and type(old) is str and type(value) is str else value
