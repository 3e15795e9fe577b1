"""What a translation could not carry: each loss names the path, what happened and why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._errors import brief

__all__ = ["Loss", "Ctx", "extension_loss", "keys_lost"]


@dataclass(frozen=True, slots=True)
class Loss:
    path: str
    what: str
    why: str
    feature: str

    def __str__(self) -> str:
        return f"{self.path}: {self.what} ({self.why})"


def extension_loss(
    path: str,
    key: str,
    source: str,
    target: str,
    times: int = 1,
    kind: str = "field",
    feature: str = "extensions",
) -> Loss:
    """A source field (or stream event) with no canonical equivalent: the response path, the
    stream path and the settings rows (``keys_lost``) report it in the same words."""
    what = f"{kind} {brief(key)} of {source} has no equivalent"
    if times > 1:
        what += f" (in {times} events)" if kind == "field" else f" ({times} times)"
    return Loss(path, what, f"{target} cannot carry it", feature)


def keys_lost(fields: dict[str, Any], at: str, ctx: Ctx, feature: str) -> None:
    """The other keys of a source object ``at`` (a reasoning or format object) toward another
    protocol: each one said (not None) is reported under ``feature``."""
    for k, v in fields.items():
        if v is not None:
            ctx.losses.append(
                extension_loss(f"{at}.{k}", k, ctx.source, ctx.target, 1, "field", feature)
            )


class Ctx:
    """Per-translation context handed to every decoder and encoder.

    ``same`` (source == target) is read on almost every encoded object, so it is a plain
    attribute, recomputed whenever ``source`` or ``target`` is reassigned (the gateway decodes
    with ``Ctx(inbound, inbound)`` and sets the target once the upstream is known)."""

    __slots__ = ("_source", "_target", "same", "losses")

    def __init__(self, source: str, target: str, losses: list[Loss] | None = None) -> None:
        self._source = source
        self._target = target
        self.same = source == target
        self.losses: list[Loss] = [] if losses is None else losses

    @property
    def source(self) -> str:
        return self._source

    @source.setter
    def source(self, value: str) -> None:
        self._source = value
        self.same = value == self._target

    @property
    def target(self) -> str:
        return self._target

    @target.setter
    def target(self, value: str) -> None:
        self._target = value
        self.same = self._source == value

    def loss(self, path: str, what: str, why: str, feature: str) -> None:
        self.losses.append(Loss(path, what, why, feature))

    def __repr__(self) -> str:
        return f"Ctx(source={self._source!r}, target={self._target!r}, losses={self.losses!r})"
