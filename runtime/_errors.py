"""Typed errors. Every failure the library raises is one of these, never a bare KeyError."""

from __future__ import annotations

__all__ = ["InterlinguaError", "InvalidInput", "LossError", "UnsupportedFeature"]


class InterlinguaError(Exception):
    """Base class. ``status`` and ``error_type`` say how it reaches a caller (canonical ErrorType)."""

    status = 400
    error_type = "invalid_request"

    def __init__(self, message: str, *, path: str = "") -> None:
        if path.startswith("."):  # a top-level key joined onto the empty root path
            path = path[1:]
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
