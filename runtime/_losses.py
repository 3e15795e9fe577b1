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
    attribute computed once: ``source`` and ``target`` stay as they were made for the whole
    translation (the gateway routes a request before decoding it, toward its upstream's
    protocol: ``Ctx(inbound, upstream)``)."""

    __slots__ = ("source", "target", "same", "losses")

    def __init__(self, source: str, target: str, losses: list[Loss] | None = None) -> None:
        self.source = source
        self.target = target
        self.same = source == target
        self.losses: list[Loss] = [] if losses is None else losses

    def loss(self, path: str, what: str, why: str, feature: str) -> None:
        self.losses.append(Loss(path, what, why, feature))

    def __repr__(self) -> str:
        return f"Ctx(source={self.source!r}, target={self.target!r}, losses={self.losses!r})"
