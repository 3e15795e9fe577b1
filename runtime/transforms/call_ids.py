"""Tool call ids of one request or response, for a protocol whose calls may come without an id
(Gemini): a missing id is synthesised (``ilg_<n>``, call_id_envelope), and a result finds its
call by id, else by name in call order (two parallel calls to one function pair up first-come
first-served)."""

from __future__ import annotations

from .call_id_envelope import synth_id

__all__ = ["CallIds"]


class CallIds:
    """Tool call ids of one request or response: given, or synthesised; results find their call
    by id, else by name in call order."""

    def __init__(self, stable: bool = True) -> None:
        self.stable = stable
        self.n = 0
        self.pending: dict[str, list[str]] = {}

    def new(self) -> str:
        i = self.n
        self.n += 1
        return synth_id(i if self.stable else None)

    def call(self, name: str, given: str | None) -> str:
        cid = given if given is not None else self.new()
        self.pending.setdefault(name, []).append(cid)
        return cid

    def result(self, name: str, given: str | None) -> str:
        queue = self.pending.get(name) or []
        if given is not None:
            if given in queue:
                queue.remove(given)
            return given
        if queue:
            return queue.pop(0)
        return self.new()
