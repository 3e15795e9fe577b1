"""The gateway's state keeper: what one call does with the store, and the stored-response routes.

``StateKeeper.begin`` is called with the caller's wire request before it is decoded; the
``StateCall`` it returns expands a Responses request's stored state (``wire``), restores kept
reasoning in the decoded request (``restore``), and saves what the answer leaves behind
(``finish_body`` for a body, ``translator`` + ``finish_stream`` for a stream).

The Responses state is emulated (kept here) when a Responses client's upstream speaks another
protocol, or every time with ``responses_state = "gateway"``; otherwise a Responses upstream
keeps its own. A store failure is a 503 in the caller's protocol before the upstream is called
(reads), or instead of the answer (a body whose state could not be saved: the caller would lose
its context); a stream's end is held until its state is saved, and replaced by the caller's
in-band error when it could not be (logged as ``state_unavailable``).
"""

from __future__ import annotations

import logging
from typing import Any

import orjson

from ..._losses import Ctx
from ..._sse import SSEDecoder
from ...generated.canonical import ErrorEvent, ErrorInfo, Request, Response, StreamEnd, StreamStart
from ...generated.registry import SERVER_STATE as STATEFUL
from ...streams.accumulate import accumulate
from ..config import Config
from ..errors import GatewayError
from ..log import AccessRecord
from ..streaming import ObservedTranslator
from .reasoning import keeps_state, reasoning_puts, restore_reasoning
from .responses import ResponsesState, Turn, has_references
from .store import StateUnavailable, Store, default_state_url, open_store

__all__ = ["StateCall", "StateKeeper", "StatefulTranslator"]

_log = logging.getLogger("interlingua.gateway")

REASONING_HEADER = "x-interlingua-reasoning"  # set when thinking was turned off for a turn


def unavailable(e: StateUnavailable, what: str = "") -> GatewayError:
    return GatewayError(
        "api_error", f"gateway state unavailable{f' ({what})' if what else ''}: {e}", 503
    )


class StateKeeper:
    def __init__(self, store: Store | None, ttl: float, responses_state: str = "auto") -> None:
        self.store = store
        self.ttl = ttl
        self.responses_state = responses_state
        self.responses = ResponsesState(store, ttl) if store is not None else None

    @classmethod
    def from_config(cls, cfg: Config) -> StateKeeper:
        store = open_store(cfg.state or default_state_url())
        return cls(store, cfg.state_ttl_days * 86400, cfg.responses_state)

    async def begin(self, wire: Any, inbound: str, cfg: Config, url_model: str | None) -> StateCall:
        """The state of a call, from its wire request (``url_model``: the model in its URL)."""
        model = url_model or (wire.get("model") if type(wire) is dict else None)
        up = cfg.route(model, cfg.map_model(model)) if type(model) is str else None
        if up is None:
            return await self.begin_for(wire, inbound, None)
        return await self.begin_for(wire, inbound, up.protocol, up.dialect)

    async def begin_for(
        self, wire: Any, inbound: str, upstream: str | None, dialect: str | None = None
    ) -> StateCall:
        """The state of a call going to an upstream of the protocol ``upstream`` (``dialect``:
        the upstream's)."""
        call = StateCall(self, wire, inbound, upstream, dialect)
        emulate = upstream is not None and (
            upstream != STATEFUL or self.responses_state == "gateway"
        )
        if inbound != STATEFUL or not emulate or type(wire) is not dict:
            return call
        if self.responses is None:
            if wire.get("previous_response_id") is not None or has_references(wire):
                raise GatewayError(
                    "invalid_request",
                    "previous_response_id and item_reference need the gateway's state, which is "
                    f"off, to reach a {upstream} upstream: send the whole conversation in `input`"
                    " (or run the gateway with a state store)",
                    400,
                )
            return call
        try:
            call.wire, call.turn = await self.responses.open(wire, upstream != STATEFUL)
        except StateUnavailable as e:
            raise unavailable(e) from None
        return call

    async def aclose(self) -> None:
        if self.store is not None:
            await self.store.aclose()


class StateCall:
    """The state of one translated call."""

    def __init__(
        self,
        keeper: StateKeeper,
        wire: Any,
        inbound: str,
        upstream: str | None,
        dialect: str | None = None,
    ) -> None:
        self.keeper = keeper
        self.wire = wire
        self.inbound = inbound
        self.upstream = upstream
        self.dialect = dialect  # the upstream's
        self.turn: Turn | None = None
        self.headers: dict[str, str] = {}  # for the caller: what the state changed
        self.keep_reasoning = upstream is not None and keeps_state(upstream, inbound, dialect)

    @property
    def active(self) -> bool:
        return self.keeper.store is not None and (
            (self.turn is not None and self.turn.store) or self.keep_reasoning
        )

    async def restore(self, req: Request, ctx: Ctx) -> None:
        if self.upstream is None or not self.keep_reasoning:
            return
        try:
            n = len(ctx.losses)
            await restore_reasoning(
                req,
                self.inbound,
                self.upstream,
                self.keeper.store,
                ctx,
                self.keeper.ttl,
                self.dialect,
            )
        except StateUnavailable as e:
            raise unavailable(e) from None
        if any(loss.feature == "reasoning_replay" for loss in ctx.losses[n:]):
            self.headers[REASONING_HEADER] = "off: the state of earlier tool calls is missing"

    def _puts(self, resp: Response) -> list[tuple[str, bytes]]:
        return reasoning_puts(resp.parts, self.inbound) if self.keep_reasoning else []

    async def finish_body(self, resp: Response, out: dict[str, Any] | None) -> None:
        """A translated body: ``out`` gets the turn's ids; its state is saved (or 503)."""
        turn = self.turn
        try:
            if turn is not None and out is not None and self.keeper.responses is not None:
                self.keeper.responses.stamp(turn, out)
                await self.keeper.responses.save(turn, out)
            puts = self._puts(resp)
            if puts and self.keeper.store is not None:
                await self.keeper.store.put_many(puts, self.keeper.ttl)
        except StateUnavailable as e:
            raise unavailable(e) from None

    def translator(
        self, source: str, target: str, dialect: str | None = None, expect_usage: bool = False
    ) -> ObservedTranslator:
        """``dialect``: the upstream's (the source side's), never applied to the client;
        ``expect_usage``: the upstream was asked for usage at the end (StreamTranslator's)."""
        if not self.active:
            return ObservedTranslator(
                source, target, source_dialect=dialect, expect_usage=expect_usage
            )
        return StatefulTranslator(source, target, self, dialect, expect_usage)

    async def finish_stream(self, t: StatefulTranslator, rec: AccessRecord) -> bytes:
        """The end of a stream, sent only once its state is saved: the held terminal events;
        when the state cannot be saved, the caller's in-band error instead (the caller would
        otherwise go on from a response, or a tool loop, that the gateway never kept)."""
        if t.held is None:  # failed or cut off: the stream leaves nothing to keep
            return b""
        try:
            puts = []
            if self.keep_reasoning and self.keeper.store is not None:
                try:
                    puts = self._puts(accumulate(t.events + t.held))
                except Exception:  # a stream that did not complete leaves nothing to keep
                    puts = []
            end = b""
            if self.turn is not None and self.keeper.responses is not None:
                end = t.release()  # the final response object, with the ids the client saw
                final = t.final_response()
                if final is not None:
                    self.turn.gateway_ids = False  # the client saw the stream's own ids
                    self.keeper.responses.stamp(self.turn, final)
                    await self.keeper.responses.save(self.turn, final)
            if puts and self.keeper.store is not None:
                await self.keeper.store.put_many(puts, self.keeper.ttl)
        except StateUnavailable as e:
            _log.error("stream state not saved: %s", e)
            rec.error = "state_unavailable"
            what = "this response" if self.turn is not None and self.turn.store else "its state"
            return t.refuse(
                unavailable(e, f"the answer streamed but {what} could not be kept").info
            )
        return end or t.release()


_FINAL_TYPES = ("response.completed", "response.incomplete")
_FINAL = tuple(f'"{t}"' for t in _FINAL_TYPES)


class StatefulTranslator(ObservedTranslator):
    """An ObservedTranslator that gives a Responses stream the turn's id and keeps what the
    state needs: the canonical events (reasoning) or the final ``response`` object. The
    stream's completed end (``StreamEnd``) and what follows it are held back (``held``) until
    the state is saved: ``release`` sends them, ``refuse`` sends the caller's error instead."""

    __slots__ = ("call", "events", "out_sse", "final", "held", "unended")

    def __init__(
        self,
        source: str,
        target: str,
        call: StateCall,
        dialect: str | None = None,
        expect_usage: bool = False,
    ) -> None:
        super().__init__(source, target, source_dialect=dialect, expect_usage=expect_usage)
        self.call = call
        self.events: list[Any] = []
        self.out_sse = SSEDecoder() if call.turn is not None else None
        self.final: dict[str, Any] | None = None
        self.held: list[Any] | None = None
        self.unended = 0  # the losses before ``release`` ended the stream
        envelope = getattr(self.encoder, "envelope", None)  # the Responses object it streams
        if call.turn is not None and type(envelope) is dict:
            envelope.update(call.turn.echo_fields())

    def _pump(self, events: list[Any], out: list[bytes]) -> None:
        if self.held is not None:
            self.held += events
            return
        for i, ev in enumerate(events):
            if type(ev) is StreamEnd and ev.ending == "completed":
                self._send(events[:i], out)
                self.held = events[i:]
                return
        self._send(events, out)

    def close(self) -> bytes:
        out: list[bytes] = []
        self._pump(self._last_events(), out)  # a stream that ends on close: its end is held
        return b"".join(out) + (self._end() if self.held is None else b"")

    def release(self) -> bytes:
        """The held end of the stream, encoded."""
        held, self.held = self.held or [], None
        out: list[bytes] = []
        self._send(held, out)
        self.unended = len(self.losses)
        return b"".join(out) + self._end()

    def refuse(self, info: ErrorInfo) -> bytes:
        """The caller's in-band error instead of the end, ended as any stream (``_end``: its
        losses once). After ``release``, the encoder that wrote its terminal event takes the
        error in its place (the bytes were never sent) and that end's losses are taken back."""
        if self.held is None:
            self.encoder.closed = False
            del self.losses[self.unended :]
        self.held = None
        return b"".join(self.encoder.feed(ErrorEvent(error=info))) + self._end()

    def _send(self, events: list[Any], out: list[bytes]) -> None:
        turn = self.call.turn
        for ev in events:
            if turn is not None and type(ev) is StreamStart:
                ev.id = turn.response_id
        if self.call.keep_reasoning:
            self.events += events
        n = len(out)
        super()._pump(events, out)
        if self.out_sse is not None and len(out) > n:
            for sse in self.out_sse.feed(b"".join(out[n:])):
                if _FINAL[0] in sse.data or _FINAL[1] in sse.data:
                    obj = orjson.loads(sse.data)
                    if obj.get("type") in _FINAL_TYPES and type(obj.get("response")) is dict:
                        self.final = obj["response"]

    def final_response(self) -> dict[str, Any] | None:
        return self.final
