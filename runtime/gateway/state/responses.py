"""OpenAI Responses conversation state, kept by the gateway for upstreams that do not keep it.

A stored response is one record, ``resp:<id>``: the response object as the client got it, the
input items of its request (``item_reference`` items resolved, an id given to each item that had
none), the id of the response it continued and the ids of all the earlier ones (``chain``), so
that a conversation is read back in two round trips whatever its length. Every input and output
item is also kept under ``item:<id>`` for ``item_reference``.

``previous_response_id`` expands to the items of every response of the chain (each one's input,
then its output), followed by the request's own input; ``instructions`` are not carried over
(as OpenAI does). An unknown id is a 404 ``previous_response_not_found``; ``store: false``
writes nothing (it may still continue a stored response). The entries a turn reads have their
TTL renewed: referenced items every time, the records of the whole chain and their items when
the conversation was last renewed more than ``RENEW_AFTER`` of the TTL ago (renewing a long
conversation on every turn would cost a write per item; each record keeps when its conversation
was last renewed). A conversation thus lives at least 0.9 TTL after its last use, never just
a TTL after its first turn.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from ...generated.canonical import ErrorInfo
from ..errors import GatewayError
from .store import Store

__all__ = ["ResponsesState", "Turn", "has_references", "not_found"]

# item type -> the id prefix OpenAI gives it
ID_PREFIX = {
    "message": "msg_",
    "function_call": "fc_",
    "function_call_output": "fco_",
    "reasoning": "rs_",
}
MAX_LIST = 100
RENEW_AFTER = 0.1  # of the TTL: a conversation lives at least 0.9 TTL after its last turn


def new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(24)


def not_found(what: str, ident: str, code: str | None, param: str | None) -> GatewayError:
    """The 404 OpenAI sends for an unknown response or item, in the Responses error shape."""
    e = GatewayError("not_found", f"{what} with id '{ident}' not found.", 404)
    e.info = ErrorInfo(
        type="not_found", message=str(e), status=404, code=code, param=param, raw_type=None
    )
    return e


def _is_reference(item: Any) -> bool:
    if type(item) is not dict:
        return False
    t = item.get("type")
    return t == "item_reference" or (t is None and set(item) == {"id"})


def has_references(wire: dict[str, Any]) -> bool:
    inp = wire.get("input")
    return type(inp) is list and any(map(_is_reference, inp))


@dataclass(slots=True)
class Turn:
    """One Responses call whose state the gateway keeps."""

    response_id: str
    previous: str | None
    chain: list[str]  # ids of every earlier response of the conversation, oldest first
    new_input: list[dict[str, Any]]  # this request's items, references resolved, ids given
    store: bool
    gateway_ids: bool  # the gateway made the item ids (unique ones are given on save)
    echo: dict[str, Any] = field(default_factory=dict)  # request fields the response repeats
    renew: list[str] = field(default_factory=list)  # keys read for this turn, renewed on save
    renewed: float = 0.0  # wall-clock time the conversation's entries were last renewed

    def echo_fields(self) -> dict[str, Any]:
        return {"previous_response_id": self.previous, "store": self.store, **self.echo}


class ResponsesState:
    def __init__(self, store: Store, ttl: float) -> None:
        self.store = store
        self.ttl = ttl
        self.clock = time.time  # wall-clock: every process of a shared store agrees

    async def _records(self, ids: list[str]) -> list[dict[str, Any] | None]:
        got = await self.store.get_many(["resp:" + i for i in ids])
        return [None if g is None else orjson.loads(g) for g in got]

    async def open(self, wire: dict[str, Any], gateway_ids: bool) -> tuple[dict[str, Any], Turn]:
        """The request with its stored state expanded (a new dict), and the turn to save."""
        prev = wire.get("previous_response_id")
        if prev is not None and type(prev) is not str:
            raise GatewayError("invalid_request", "previous_response_id: expected a string", 400)
        inp = wire.get("input")
        items: list[Any]
        if type(inp) is str:
            items = [{"type": "message", "role": "user", "content": inp}]
        elif type(inp) is list:
            items = inp
        else:
            items = []  # a bad `input` is the decoder's to report
        refs = [i for i, it in enumerate(items) if _is_reference(it)]
        keys = ["resp:" + prev] if prev else []
        keys += ["item:" + str(items[i].get("id")) for i in refs]
        rid = new_id("resp_")
        store = wire.get("store") is not False
        if store and not keys:  # a first turn still reads once: a store that is down fails
            await self.store.get_many(["resp:" + rid])  # the call before the upstream is called
        got = await self.store.get_many(keys) if keys else []
        history: list[Any] = []
        chain: list[str] = []
        rec: dict[str, Any] = {}
        if prev:
            if got[0] is None:
                raise not_found(
                    "Previous response", prev, "previous_response_not_found", "previous_response_id"
                )
            rec = orjson.loads(got[0])
            chain = [*rec["chain"], prev]
            earlier = await self._records(rec["chain"]) if rec["chain"] else []
            for gone, r in zip(rec["chain"], earlier, strict=True):
                if r is None:  # an earlier turn expired or was deleted: the context is gone
                    raise not_found(
                        "Previous response",
                        gone,
                        "previous_response_not_found",
                        "previous_response_id",
                    )
                history += r["input"] + r["output"]
            history += rec["input"] + rec["output"]
            got = got[1:]
        new_input = list(items)
        for i, hit in zip(refs, got, strict=True):
            if hit is None:
                raise not_found("Item", str(items[i].get("id")), None, f"input[{i}]")
            new_input[i] = orjson.loads(hit)
        # what this turn read lives on: the referenced items now, the whole conversation when
        # its last renewal is more than RENEW_AFTER of the TTL ago (so not on every turn)
        now = self.clock()
        renewed = now if prev is None else rec.get("renewed", 0.0)
        renew = [k for k in keys if k.startswith("item:")]
        if now - renewed >= self.ttl * RENEW_AFTER:
            renew += ["resp:" + r for r in chain] + item_keys(history)
            renewed = now
        renew = list(dict.fromkeys(renew))
        if renew and not store:  # else renewed with the turn's own write (one round trip)
            await self.store.touch_many(renew, self.ttl)
        out = dict(wire)
        out.pop("previous_response_id", None)
        if prev or refs:
            out["input"] = history + new_input
        turn = Turn(
            response_id=rid,
            previous=prev,
            chain=chain,
            new_input=[_with_id(it) for it in new_input],
            store=store,
            gateway_ids=gateway_ids,
            renew=renew if store else [],
            renewed=renewed,
            echo={k: wire[k] for k in ("instructions", "metadata", "user") if wire.get(k)},
        )
        return out, turn

    def stamp(self, turn: Turn, body: dict[str, Any]) -> None:
        """The response as the client gets it: the turn's id, unique item ids, the echo."""
        body["id"] = turn.response_id
        body.update(turn.echo_fields())
        if turn.gateway_ids:
            tag = turn.response_id.removeprefix("resp_")[:24]
            for n, item in enumerate(body.get("output") or ()):
                prefix = _prefix(item.get("type"))
                if item.get("type") != "function_call":  # fc_<call id> is unique already
                    item["id"] = f"{prefix}{tag}_{n}"

    async def save(self, turn: Turn, body: dict[str, Any]) -> None:
        if not turn.store:
            return
        output = [it for it in body.get("output") or () if type(it) is dict]
        record = {
            "response": {k: v for k, v in body.items() if k != "output"},  # output: once
            "input": turn.new_input,
            "output": output,
            "chain": turn.chain,
            "renewed": turn.renewed,
        }
        puts = [("resp:" + turn.response_id, orjson.dumps(record))]
        puts += [
            ("item:" + str(it["id"]), orjson.dumps(it))
            for it in turn.new_input + output
            if type(it.get("id")) is str
        ]
        await self.store.put_many(puts, self.ttl, turn.renew)

    async def get(self, rid: str, renew: bool = False) -> dict[str, Any] | None:
        """The record of ``rid``; ``renew``: it was read for a client (its TTL starts again)."""
        rec = (await self._records([rid]))[0]
        if rec is not None and renew:
            keys = ["resp:" + rid, *item_keys(rec["input"] + rec["output"])]
            await self.store.touch_many(keys, self.ttl)
        return rec

    @staticmethod
    def response_of(rec: dict[str, Any]) -> dict[str, Any]:
        """The response object as the client got it."""
        return {**rec["response"], "output": rec["output"]}

    async def delete(self, rid: str) -> bool:
        rec = await self.get(rid)
        if rec is None:
            return False
        keys = ["resp:" + rid, *item_keys(rec["input"] + rec["output"])]
        return await self.store.delete_many(keys) > 0

    def input_items(
        self, rec: dict[str, Any], order: str, after: str | None, limit: int
    ) -> dict[str, Any]:
        """The page ``GET /v1/responses/{id}/input_items`` answers (newest first by default)."""
        items = list(rec["input"])
        if order != "asc":
            items.reverse()
        if after is not None:
            ids = [it.get("id") for it in items]
            items = items[ids.index(after) + 1 :] if after in ids else []
        page = items[: max(1, min(limit, MAX_LIST))]
        return {
            "object": "list",
            "data": page,
            "first_id": page[0].get("id") if page else None,
            "last_id": page[-1].get("id") if page else None,
            "has_more": len(items) > len(page),
        }


def item_keys(items: list[Any]) -> list[str]:
    """The ``item:<id>`` keys of the items that have an id."""
    return ["item:" + i for it in items if type(it) is dict and type(i := it.get("id")) is str]


def _with_id(item: Any) -> Any:
    if type(item) is not dict or "id" in item:
        return item
    return {"id": new_id(_prefix(item.get("type") or "message")), **item}


def _prefix(item_type: Any) -> str:
    """The id prefix of an item type; any other value (even a list, which the request's
    translation refuses later with its path) gets ``item_``."""
    return ID_PREFIX.get(item_type, "item_") if type(item_type) is str else "item_"
