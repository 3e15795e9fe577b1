"""Tool call ids of one request or response, for a protocol whose calls may come without an id
(the part_walk row's ``call_ids``: Gemini), used by its compiled parts walk (``decode_parts`` /
``encode_parts``): a missing id is synthesised (``ilg_<n>``, call_id_envelope), a result finds
its call by id, else by name in call order (two parallel calls to one function pair up
first-come first-served); toward that protocol an id goes without its envelope and is left out
when synthesised, and a result without a function name gets its call's."""

from __future__ import annotations

from typing import Any

from .._losses import Ctx
from .call_id_envelope import bare_id, synth_id, unwrap_id

__all__ = ["CallIds", "result_name", "wire_id"]


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


def wire_id(obj: dict[str, Any], key: str, call_id: str, keep: bool = True) -> None:
    """The id of a call / result as the protocol gets it (bare_id: the envelope taken off);
    left out when synthesised, when the source sent none (``keep`` false) or none."""
    bare = bare_id(call_id)
    if bare is None or not keep:
        obj.pop(key, None)
    else:
        obj[key] = bare


def result_name(
    call_id: str, names: dict[str, str] | None, path: str, ctx: Ctx, feature: str
) -> str:
    """The function name of a result that has none: its call's (``names``: by call id), else
    ``unknown``, reported as a loss of ``feature`` (the result row's)."""
    name = (names or {}).get(unwrap_id(call_id)[0])
    if name is None:
        name = "unknown"
        ctx.loss(
            path + ".name",
            "function name of the result unknown; sent as 'unknown'",
            f"{ctx.target} names each tool result and no call with this id precedes it",
            feature,
        )
    return name
