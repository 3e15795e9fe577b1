"""The ``snake_case_keys`` row (spec/protocols/*.yaml): top-level request keys an API also
takes in snake_case, with how many levels of the keys under them (lists walked through) it takes
so too (Gemini's ``generation_config`` and its ``thinking_config``'s keys, ``tool_config``,
``system_instruction``, ``contents``' parts and theirs: ``function_call``, ``inline_data``,
``tools``' ``function_declarations``), compiled: codegen/templates/_codec_snake_case.j2 emits
into each codec ``decode_snake_case`` (the body with those keys, and their keys as deep as the
row says, in camelCase, before any row or transform reads it) and ``encode_snake_case`` (back to
the same protocol, the keys that came snake_case written so again), one call of the shared
recasing helpers per row with its spellings worked out here: the one place a request is recased.
A row codegen cannot compile is refused with its file, line and row."""

from __future__ import annotations

import re
from typing import Any

from .source import Loc

MAX_DEPTH = 3


def snake(key: str) -> str:
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), key)


def snake_case_view(p: Any) -> list[tuple[str, str, int]]:
    """(camelCase key, its snake_case spelling, how many levels of its keys are recased)."""
    return [(k, snake(k), depth) for k, depth in p.snake_case_keys.items()]


def snake_case_problems(p: Any) -> list[tuple[Loc, str]]:
    """Keys with nothing to recase (no other spelling, depth 0), paths, depths out of range."""
    out: list[tuple[Loc, str]] = []
    for k, depth in p.snake_case_keys.items():
        at: Loc = ("snake_case_keys", k)
        if not re.fullmatch(r"[a-z][A-Za-z0-9]*", k):
            out.append((at, f"{k!r} is not a camelCase top-level key"))
        elif snake(k) == k and not depth:
            out.append((at, f"{k!r} has no other snake_case spelling and no keys recased"))
        if not 0 <= depth <= MAX_DEPTH:
            out.append((at, f"depth {depth} is not between 0 and {MAX_DEPTH}"))
    return out
