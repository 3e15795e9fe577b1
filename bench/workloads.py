"""The workloads: one per (kind, size, direction), over every pair of available protocols.

Inputs of Anthropic Messages and OpenAI Chat are recorded traffic; a protocol with no recorded
input of the right shape gets interlingua's own translation of one (marked "derived"), so a
new protocol adds its rows by itself as the matrix lands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import interlingua
import orjson

from . import checks, contenders, data
from .contenders import ANTHROPIC, CHAT, LiteLLM

SHORT = {
    ANTHROPIC: "Anthropic",
    CHAT: "Chat",
    "openai_responses": "Responses",
    "gemini": "Gemini",
    "cohere_v2": "Cohere",
}
ABBR = {ANTHROPIC: "a", CHAT: "c", "openai_responses": "r", "gemini": "g", "cohere_v2": "k"}


@dataclass
class Workload:
    id: str
    title: str
    kind: str  # request | response | stream | sse
    input_bytes: int
    events: int | None  # stream and SSE workloads: input events (per-event figures)
    contenders: dict[str, Callable[[], Any]]
    check: Callable[[str, Any], None]  # (contender name, its output) -> raises CheckFailed
    target: str  # e.g. "<=1.5x" or ">=100 MB/s"
    notes: list[str] = field(default_factory=list)  # n/a and failed-check reasons
    derived: bool = False  # the input is interlingua's translation of a recorded one


@dataclass
class Skipped:
    id: str
    title: str
    reason: str


BROKEN: dict[str, str] = {}  # protocols whose codec fails to load (work in progress)


def _available() -> list[str]:
    """``interlingua.available()``, but a protocol that fails to load is noted, not fatal."""
    from interlingua._protocols import UnknownProtocol, protocol

    out = []
    for pid in interlingua.PROTOCOLS:
        try:
            protocol(pid)
        except UnknownProtocol:
            continue
        except Exception as e:  # noqa: BLE001 - a half-landed codec must not stop the suite
            BROKEN[pid] = f"{type(e).__name__}: {e}"
            continue
        out.append(pid)
    return out


def _pairs() -> list[tuple[str, str]]:
    protos = _available()
    pairs = [(s, t) for s in protos for t in protos if s != t]
    first = (ANTHROPIC, CHAT)
    return sorted(pairs, key=lambda p: (p != first, p != first[::-1], protos.index(p[0])))


def _direction(s: str, t: str) -> str:
    return f"{SHORT.get(s, s)} → {SHORT.get(t, t)}"


# -- inputs per protocol ----------------------------------------------------------------------


def _derive_request(raw: bytes, target: str) -> bytes:
    return interlingua.translate_request(raw, source=ANTHROPIC, target=target).to_bytes()


def _derive_response(raw: bytes, target: str) -> bytes:
    return interlingua.translate_response(raw, source=CHAT, target=target).to_bytes()


def request_input(size: str, proto: str) -> tuple[bytes, bool]:
    """(body, derived?) of the ``size`` ("claude-code" | "small") request in ``proto``."""
    base = data.claude_code_request() if size == "claude-code" else data.small_anthropic_request()
    if proto == ANTHROPIC:
        return base, False
    if proto == CHAT and size == "small":
        return data.small_chat_request(), False
    return _derive_request(base, proto), True


def response_input(proto: str) -> tuple[bytes, bool]:
    if proto == CHAT:
        return data.chat_parallel_response(), False
    if proto == ANTHROPIC:
        return data.anthropic_parallel_response(), False
    return _derive_response(data.chat_parallel_response(), proto), True


def stream_input(proto: str, n_events: int = data.STREAM_EVENTS) -> tuple[list[bytes], bool]:
    if proto == CHAT:
        return data.chat_stream(n_events), False
    if proto == ANTHROPIC:
        return data.anthropic_stream(n_events), False
    if not contenders.has_translate_stream():
        raise data.Missing("no interlingua.translate_stream to derive the input")
    chat = data.chat_stream(n_events)
    out = b"".join(interlingua.translate_stream(iter(chat), source=CHAT, target=proto))  # type: ignore[attr-defined]
    if b"\r" in out:
        raise data.Missing(f"derived {proto} stream uses CR line ends")
    return [block + b"\n\n" for block in out.split(b"\n\n") if block], True  # one event a read


# -- building the workloads -------------------------------------------------------------------

_TARGETS = {"claude-code": 1.5, "small": 5.0, "response": 5.0, "stream": 3.0}


def _body_check(kind: str, inp: bytes, s: str, t: str) -> Callable[[str, Any], None]:
    def check(name: str, out: Any) -> None:
        if name == "floor":
            if out != orjson.dumps(orjson.loads(inp)):
                raise checks.CheckFailed("floor output differs from its input")
            return
        if kind == "request":
            checks.check_request(inp, out, s, t)
        else:
            checks.check_response(inp, out, s, t)

    return check


def _stream_check(inp: bytes, s: str, t: str) -> Callable[[str, Any], None]:
    def check(name: str, out: Any) -> None:
        if name == "floor":
            checks.check_floor_stream(inp, out)
        else:
            checks.check_stream(inp, out, s, t)

    return check


def build(litellm: LiteLLM | str | None, only: list[str] | None = None) -> list[Workload | Skipped]:
    """Every workload, in table order; ``only``: keep ids containing one of these strings."""
    out: list[Workload | Skipped] = []
    lite = litellm if isinstance(litellm, LiteLLM) else None
    lite_dirs = LiteLLM.directions()

    def wanted(wid: str) -> bool:
        return not only or any(o in wid for o in only)

    def attempt(wid: str, title: str, make: Callable[[], Workload]) -> None:
        if not wanted(wid):
            return
        try:
            out.append(make())
        except data.Missing as e:
            out.append(Skipped(wid, title, str(e)))
        except Exception as e:  # noqa: BLE001 - e.g. a derived input of a half-landed protocol
            out.append(Skipped(wid, title, f"no input ({type(e).__name__}: {str(e)[:120]})"))

    pairs = _pairs()
    for size, label in (
        ("claude-code", "Claude Code request, 24 tools"),
        ("small", "small request"),
    ):
        for s, t in pairs:
            wid = f"request-{size}-{ABBR.get(s, s)}2{ABBR.get(t, t)}"
            title = f"{label}, {_direction(s, t)}"

            def make(
                size: str = size, s: str = s, t: str = t, wid: str = wid, title: str = title
            ) -> Workload:
                raw, derived = request_input(size, s)
                fns: dict[str, Callable[[], Any]] = {
                    "floor": contenders.floor_body(raw),
                    "interlingua": contenders.interlingua_request(raw, s, t),
                }
                if lite is not None and lite_dirs["request"] == (s, t):
                    fns["litellm"] = lite.request(raw)
                return Workload(
                    wid, title, "request", len(raw), None, fns,
                    _body_check("request", raw, s, t), f"<={_TARGETS[size]}x", [], derived,
                )  # fmt: skip

            attempt(wid, title, make)

    for s, t in pairs:
        wid = f"response-parallel-tools-{ABBR.get(s, s)}2{ABBR.get(t, t)}"
        title = f"response, parallel tool calls, {_direction(s, t)}"

        def make_resp(s: str = s, t: str = t, wid: str = wid, title: str = title) -> Workload:
            raw, derived = response_input(s)
            fns: dict[str, Callable[[], Any]] = {
                "floor": contenders.floor_body(raw),
                "interlingua": contenders.interlingua_response(raw, s, t),
            }
            if lite is not None and lite_dirs["response"] == (s, t):
                fns["litellm"] = lite.response(raw)
            return Workload(
                wid, title, "response", len(raw), None, fns,
                _body_check("response", raw, s, t), f"<={_TARGETS['response']}x", [], derived,
            )  # fmt: skip

        attempt(wid, title, make_resp)

    for s, t in pairs:
        wid = f"stream-{data.STREAM_EVENTS}-{ABBR.get(s, s)}2{ABBR.get(t, t)}"
        title = f"stream, {data.STREAM_EVENTS:,} events, {_direction(s, t)}"

        def make_stream(s: str = s, t: str = t, wid: str = wid, title: str = title) -> Workload:
            chunks, derived = stream_input(s)
            joined = b"".join(chunks)
            fns: dict[str, Callable[[], Any]] = {"floor": contenders.floor_stream(chunks)}
            notes = []
            if contenders.has_translate_stream():
                fns["interlingua"] = contenders.interlingua_stream(chunks, s, t)
            else:
                notes.append("interlingua.translate_stream does not exist yet")
            if lite is not None and lite_dirs["stream"] == (s, t):
                fns["litellm"] = lite.stream(chunks)
            return Workload(
                wid, title, "stream", len(joined), len(chunks), fns,
                _stream_check(joined, s, t), f"<={_TARGETS['stream']}x", notes, derived,
            )  # fmt: skip

        attempt(wid, title, make_stream)

    for proto, rel in ((CHAT, data.LARGE_CHAT_SSE), (ANTHROPIC, data.LARGE_ANTHROPIC_SSE)):
        wid = f"sse-decode-{ABBR[proto]}"
        title = f"SSE decoding alone, recorded {SHORT[proto]} stream, 4 KiB reads"

        def make_sse(rel: str = rel, wid: str = wid, title: str = title) -> Workload:
            chunks = data.raw_chunks(rel)
            ref = contenders.interlingua_sse(chunks)()
            split = contenders.floor_sse_split(chunks)

            def check(name: str, got: Any) -> None:
                got = [g.decode() if isinstance(g, bytes) else g for g in got]
                if got != ref or not ref:
                    raise checks.CheckFailed(f"{len(got)} events vs {len(ref)} from SSEDecoder")

            return Workload(
                wid, title, "sse", sum(map(len, chunks)), len(ref),
                {"floor": split, "interlingua": contenders.interlingua_sse(chunks)},
                check, ">=100 MB/s",
                [],
            )  # fmt: skip

        attempt(wid, title, make_sse)
    return out
