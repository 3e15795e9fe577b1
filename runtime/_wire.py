"""Small checked accessors used by generated codecs: each failure names the JSON path."""

from __future__ import annotations

import json
from typing import Any

import orjson

from ._errors import InvalidInput

__all__ = [
    "expect_dict",
    "expect_list",
    "expect_str",
    "expect_int",
    "expect_number",
    "expect_bool",
    "expect_str_list",
    "json_text_from_object",
    "object_from_json_text",
    "parse_data_url",
    "format_data_url",
]


def _kind(v: Any) -> str:
    return "null" if v is None else type(v).__name__


def expect_dict(v: Any, path: str) -> dict[str, Any]:
    if type(v) is not dict:
        raise InvalidInput(f"expected an object, got {_kind(v)}", path=path)
    return v


def expect_list(v: Any, path: str) -> list[Any]:
    if type(v) is not list:
        raise InvalidInput(f"expected an array, got {_kind(v)}", path=path)
    return v


def expect_str(v: Any, path: str) -> str:
    if type(v) is not str:
        raise InvalidInput(f"expected a string, got {_kind(v)}", path=path)
    return v


def expect_int(v: Any, path: str) -> int:
    if type(v) is not int:
        raise InvalidInput(f"expected an integer, got {_kind(v)}", path=path)
    return v


def expect_number(v: Any, path: str) -> float:
    if type(v) is bool or not isinstance(v, int | float):
        raise InvalidInput(f"expected a number, got {_kind(v)}", path=path)
    return v


def expect_bool(v: Any, path: str) -> bool:
    if type(v) is not bool:
        raise InvalidInput(f"expected a boolean, got {_kind(v)}", path=path)
    return v


def expect_str_list(v: Any, path: str) -> list[str]:
    if type(v) is str:
        return [v]
    for i, s in enumerate(expect_list(v, path)):
        expect_str(s, f"{path}[{i}]")
    return v


def json_text_from_object(v: Any, path: str) -> str:
    """Wire JSON value (Anthropic ``input``) -> canonical raw JSON text."""
    if type(v) is not dict:
        raise InvalidInput(f"expected an object, got {_kind(v)}", path=path)
    try:
        return orjson.dumps(v).decode()
    except TypeError:  # integers past 64 bits (a dict built in Python): the slow, exact path
        try:
            return json.dumps(v, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise InvalidInput(f"not JSON-serialisable: {e}", path=path) from None


def object_from_json_text(text: str) -> tuple[Any, str | None]:
    """Canonical raw JSON text -> (object, error). Invalid JSON is surfaced, not crashed on."""
    if not text:
        return {}, None
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError as e:
        return None, f"arguments are not valid JSON: {e}"
    if type(obj) is not dict:
        return None, f"arguments are JSON {_kind(obj)}, not an object"
    return obj, None


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
