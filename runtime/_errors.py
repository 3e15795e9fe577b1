"""Typed errors. Every failure the library raises is one of these, never a bare KeyError."""

from __future__ import annotations

from typing import Any

__all__ = ["InterlinguaError", "InvalidInput", "LossError", "UnsupportedFeature", "brief"]


def brief(v: Any, limit: int = 200) -> str:
    """A user value for an error message: bounded and never recursive (no ``repr()`` of a whole
    object, which may be megabytes long or nested past the interpreter's recursion limit)."""
    t = type(v)
    if t is str:
        return repr(v[:limit]) + ("..." if len(v) > limit else "")
    if v is None or t is bool or t is float:
        return repr(v)
    if t is int:
        return repr(v) if -(10**limit) < v < 10**limit else "a very large integer"
    if t is dict:
        return "an object"
    if t is list:
        return "an array"
    return f"a {t.__name__}"


class InterlinguaError(Exception):
    """Base class. ``status`` and ``error_type`` say how it reaches a caller (canonical ErrorType)."""

    status = 400
    error_type = "invalid_request"

    def __init__(self, message: str, *, path: str = "") -> None:
        if path.startswith("."):  # a top-level key joined onto the empty root path
            path = path[1:]
        if len(path) > 200:  # a path through user keys (a body's own objects) stays short
            path = path[:197] + "..."
        super().__init__(f"{path}: {message}" if path else message)
        self.message = message
        self.path = path


class InvalidInput(InterlinguaError):
    """The payload is not valid for its protocol (not JSON, wrong type, missing field ...)."""


class UnsupportedFeature(InterlinguaError):
    """The source asks for something the target cannot do at all (e.g. server-side state)."""


class LossError(InterlinguaError):
    """Raised in strict mode: the translation would lose the listed paths."""

    def __init__(self, losses: list) -> None:  # list[Loss]
        self.losses = losses
        paths = ", ".join(loss.path for loss in losses)
        super().__init__(f"translation would lose: {paths}")
