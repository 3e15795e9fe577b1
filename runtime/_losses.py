"""What a translation could not carry: each loss names the path, what happened and why."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Loss", "Ctx"]


@dataclass(frozen=True, slots=True)
class Loss:
    path: str
    what: str
    why: str
    feature: str

    def __str__(self) -> str:
        return f"{self.path}: {self.what} ({self.why})"


@dataclass(slots=True)
class Ctx:
    """Per-translation context handed to every decoder and encoder."""

    source: str
    target: str
    losses: list[Loss] = field(default_factory=list)
    hints_ok: bool = True

    def loss(self, path: str, what: str, why: str, feature: str) -> None:
        self.losses.append(Loss(path, what, why, feature))

    @property
    def same(self) -> bool:
        return self.source == self.target
