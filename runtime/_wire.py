"""Small checked accessors used by generated codecs: each failure names the JSON path."""

from __future__ import annotations

import json
from collections.abc import Callable
from gc import get_referents
from typing import Any

import orjson

from ._errors import InvalidInput

__all__ = [
    "MAX_DEPTH",
    "check_depth",
    "check_parsed",
    "check_writable",
    "parse_json",
    "expect_dict",
    "expect_list",
    "expect_str",
    "expect_int",
    "expect_number",
    "expect_bool",
    "expect_str_list",
    "json_text",
    "parse_data_url",
    "format_data_url",
]


# The deepest nesting of arrays and objects a body may have. orjson parses 1024 levels but
# serialises only 254: a body it could read but never write back (the translated request, a
# stream event) is refused when it is read, with a typed error, rather than failing later.
# 14 levels are left for the envelopes a target adds around a value (Gemini puts tool
# arguments 6 levels down, Anthropic 3; a JSON text of arguments becomes an object).
MAX_DEPTH = 240
_WRITABLE = 254  # what orjson writes


def _first(v: Any, left: int, bad: Callable[[str], bool] | None = None) -> list[Any] | None:
    """The keys (innermost first) down to the first string in ``v``, key or value, that is
    ``bad`` (a key: down to its object), looking ``left`` levels down; without ``bad``, down to
    a container nested ``left`` more levels. None when there is none."""
    if bad is None and left == 0:
        return []
    for k, x in v.items() if type(v) is dict else enumerate(v):
        if bad is not None and type(k) is str and bad(k):
            return []
        t = type(x)
        if t is str and bad is not None and bad(x):
            return [k]
        if (t is dict or t is list) and left:
            p = _first(x, left - 1, bad)
            if p is not None:
                p.append(k)
                return p
    return None


def _path(keys: list[Any]) -> str:
    """Keys as ``_first`` gives them (innermost first) -> ``a.b[0]``."""
    path = ""
    for k in reversed(keys):
        path += f"[{k}]" if type(k) is int else (f".{k}" if path else str(k))
    return path


def check_depth(v: Any, limit: int = MAX_DEPTH) -> None:
    """InvalidInput naming the path when ``v`` nests arrays and objects deeper than ``limit``."""
    t = type(v)
    if t is not dict and t is not list:
        return
    p = _first(v, limit)
    if p is None:
        return
    path = _path(p[1:])  # the container that is one level too deep
    if len(path) > 80:
        path = path[:80] + "..."
    raise InvalidInput(f"nested deeper than {limit} levels", path=path)


def parse_json(data: bytes | str, what: str = "body") -> Any:
    """JSON text -> value; InvalidInput when it is not JSON or nests deeper than MAX_DEPTH."""
    try:
        v = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise InvalidInput(f"{what} is not valid JSON: {e}") from None
    if len(data) > 2 * MAX_DEPTH:  # a shorter text cannot nest that deep
        check_parsed(v)
    return v


def check_parsed(v: Any) -> None:
    """``check_writable`` for a value orjson parsed (its strings are valid Unicode, its numbers
    fit): only the nesting can be too deep.

    The probe takes one level a call: ``gc.get_referents`` of every object of a level gives
    the next one (a dict's values, a list's items; a string or a number has none), in C, at
    ~100 instructions an object and none per byte of a string. When a level past MAX_DEPTH is
    reached (something lies that deep, perhaps only a string) the exact walk decides."""
    level = [v]
    for _ in range(MAX_DEPTH):
        level = get_referents(*level)
        if not level:
            return
    check_depth(v)


def check_writable(v: Any) -> None:
    """Refuse a value nested too deep to be written back (InvalidInput naming the path).

    Serialising is the cheap probe (about a quarter of the cost of parsing, far less than a walk
    in Python): ``v`` inside ``_WRITABLE - MAX_DEPTH`` arrays fails exactly when ``v`` is too
    deep. Only a value it refuses is walked, to find the path."""
    t = type(v)
    if t is dict or t is list:
        probe = v
        for _ in range(_WRITABLE - MAX_DEPTH):  # orjson fails on it iff v is too deep
            probe = [probe]
        try:
            orjson.dumps(probe)
        except TypeError as e:  # too deep, or (a dict built in Python) a lone surrogate, a huge int
            check_depth(v)
            if "surrogates" in str(e):
                p = _first(v, MAX_DEPTH, _not_utf8)
                raise InvalidInput(
                    "a string holds a lone surrogate (not valid Unicode)",
                    path="" if p is None else _path(p) if p else "(a key)",
                ) from None


def _not_utf8(s: str) -> bool:
    try:
        s.encode()
    except UnicodeEncodeError:
        return True
    return False


def _kind(v: Any) -> str:
    return "null" if v is None else type(v).__name__


def _expect(t: type, what: str) -> Any:
    """The checked accessor for values of exactly type ``t`` (a bool is no int here)."""

    def expect(v: Any, path: str) -> Any:
        if type(v) is not t:
            raise InvalidInput(f"expected {what}, got {_kind(v)}", path=path)
        return v

    expect.__name__ = expect.__qualname__ = f"expect_{t.__name__}"
    return expect


expect_dict: Callable[[Any, str], dict[str, Any]] = _expect(dict, "an object")
expect_list: Callable[[Any, str], list[Any]] = _expect(list, "an array")
expect_str: Callable[[Any, str], str] = _expect(str, "a string")
expect_int: Callable[[Any, str], int] = _expect(int, "an integer")
expect_bool: Callable[[Any, str], bool] = _expect(bool, "a boolean")


def expect_number(v: Any, path: str) -> float:
    if type(v) is bool or not isinstance(v, int | float):
        raise InvalidInput(f"expected a number, got {_kind(v)}", path=path)
    return v


def expect_str_list(v: Any, path: str) -> list[str]:
    if type(v) is str:
        return [v]
    for i, s in enumerate(expect_list(v, path)):
        expect_str(s, f"{path}[{i}]")
    return v


def json_text(v: Any, path: str) -> str:
    """Any JSON value -> its text (integers past 64 bits too); InvalidInput when not JSON."""
    try:
        return orjson.dumps(v).decode()
    except TypeError:  # integers past 64 bits (a dict built in Python): the slow, exact path
        try:
            return json.dumps(v, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise InvalidInput(f"not JSON-serialisable: {e}", path=path) from None


def parse_data_url(url: str) -> tuple[str | None, str | None]:
    """``data:<mt>;base64,<data>`` -> (media_type, data); (None, None) for a plain URL."""
    if not url.startswith("data:"):
        return None, None
    head, sep, data = url.partition(",")
    if not sep or not head.endswith(";base64"):
        return None, None
    return head[5:-7] or None, data


def format_data_url(media_type: str | None, data: str) -> str:
    return f"data:{media_type or 'application/octet-stream'};base64,{data}"
