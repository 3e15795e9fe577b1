"""Structure-aware mutations of recorded bodies and streams, and the run of one fuzz case.

The mutators draw every choice from a ``Chooser``: hypothesis's ``data.draw`` in the tests (so a
failure shrinks), ``random.Random`` in the long run (``python -m tests.fuzz_run``, which tallies
every exception instead of stopping at the first). Mutations: a field deleted, retyped, replaced
by random JSON or by a lone surrogate, a value nested 200 to 1030 levels deep (the parser's limit
is 1024), invalid UTF-8 bytes, and for streams events dropped, doubled, swapped, cut, plus the
bytes split anywhere.

``run_case`` translates the case toward every protocol the library has; the only exceptions
that may escape are the library's typed errors (``InterlinguaError``), and ``translate_error``
raises nothing at all."""

from __future__ import annotations

import random
import reprlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import interlingua
import orjson
from interlingua._sse import SSEDecoder

from tests.fuzz_corpus import Sample, targets

__all__ = ["Case", "Chooser", "RandomChooser", "DrawChooser", "make_case", "run_case"]

T = TypeVar("T")

WRONG: tuple[Any, ...] = (None, 0, -1, 1.5, True, "", "x", [], {}, 2**70, 1e308, "\u2028")
KEYS = ("type", "text", "content", "role", "id", "name", "delta", "index", "choices", "x")
STATUSES = (200, 400, 401, 403, 404, 413, 422, 429, 500, 502, 503, 529, 599, 0, 99, 1000)


def _wrong(c: Chooser) -> Any:
    """A value of a wrong type (a fresh one: the empty containers are mutated later)."""
    v = c.pick(WRONG)
    return type(v)() if type(v) in (list, dict) else v


class Chooser(Protocol):
    def int(self, lo: int, hi: int) -> int: ...
    def pick(self, seq: Sequence[T]) -> T: ...


class RandomChooser:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def int(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def pick(self, seq: Sequence[T]) -> T:
        return seq[self.rng.randrange(len(seq))]


class DrawChooser:
    """Choices drawn through hypothesis (``st.data()``)."""

    def __init__(self, draw: Callable[[Any], Any]) -> None:
        from hypothesis import strategies as st

        self.draw = draw
        self.st = st

    def int(self, lo: int, hi: int) -> int:
        return int(self.draw(self.st.integers(lo, hi)))

    def pick(self, seq: Sequence[T]) -> T:
        return seq[self.int(0, len(seq) - 1)]


@dataclass(slots=True)
class Case:
    kind: str
    pid: str
    body: Any  # bytes or a dict (requests, responses, errors); SSE chunks (streams)
    mutation: str
    status: int = 400
    name: str = ""

    def __repr__(self) -> str:
        body = self.body if type(self.body) is not list else b"|".join(self.body)
        return f"Case({self.kind} {self.pid} {self.mutation} {self.name!r}: {_short(body)})"


def _short(v: Any) -> str:
    r = reprlib.Repr()
    r.maxlevel, r.maxstring, r.maxother, r.maxdict, r.maxlist = 5, 300, 300, 12, 8
    return r.repr(v)


# ------------------------------------------------------------------ JSON value mutations


def _paths(v: Any, prefix: tuple[Any, ...] = (), depth: int = 0) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if depth > 12:
        return out
    if type(v) is dict:
        for k, x in v.items():
            out += _paths(x, (*prefix, k), depth + 1)
    elif type(v) is list:
        for i, x in enumerate(v[:8]):
            out += _paths(x, (*prefix, i), depth + 1)
    return out


def _random_json(c: Chooser, depth: int = 0) -> Any:
    n = c.int(0, 7 if depth < 3 else 4)
    if n <= 4:
        return _wrong(c)
    if n == 5:
        return [_random_json(c, depth + 1) for _ in range(c.int(0, 3))]
    if n == 6:
        return {c.pick(KEYS): _random_json(c, depth + 1) for _ in range(c.int(0, 3))}
    return "".join(c.pick('a"\\\n\x00é😀\u2028{}') for _ in range(c.int(0, 6)))


class _Deep:
    """A marker: the value nested ``n`` levels deep (written into the bytes after dumping)."""

    def __init__(self, n: int, obj: bool, inner: Any) -> None:
        self.n, self.obj, self.inner = n, obj, inner

    def as_bytes(self) -> bytes:
        inner = dump(self.inner)
        if self.obj:
            return b'{"a":' * self.n + inner + b"}" * self.n
        return b"[" * self.n + inner + b"]" * self.n

    def as_python(self) -> Any:
        v = self.inner
        for _ in range(self.n):
            v = {"a": v} if self.obj else [v]
        return v


def _depth(c: Chooser) -> int:
    return c.pick((c.int(200, 1030), c.int(250, 258), c.int(1020, 1026), 254, 255, 1024, 1025))


def mutate_value(v: Any, c: Chooser, form: str) -> tuple[Any, str]:
    """One mutation of the JSON value ``v`` (changed in place where possible) -> (new, name)."""
    paths = _paths(v)
    action = c.pick(
        ("delete", "retype", "retype", "replace", "deep", "surrogate", "wrap", "deep-text")
    )
    if not paths:
        return _wrong(c), "retype-root"
    path = c.pick(paths)
    parent = v
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    old = parent[key]
    if action == "delete":
        del parent[key]
    elif action == "retype":
        parent[key] = _wrong(c)
    elif action == "replace":
        parent[key] = _random_json(c)
    elif action == "wrap":
        parent[key] = c.pick(([old], {"v": old}, [old, old]))
    elif action == "deep-text":  # a JSON text nested deep where text is read (arguments)
        parent[key] = _Deep(_depth(c), bool(c.int(0, 1)), {}).as_bytes().decode()
    elif action == "deep":
        deep = _Deep(_depth(c), bool(c.int(0, 1)), old if c.int(0, 1) else 1)
        parent[key] = deep.as_python() if form == "dict" else deep
    else:  # a lone surrogate in a string (a dict can hold one; bytes carry the escape)
        s = old if type(old) is str else "x"
        i = c.int(0, len(s))
        parent[key] = s[:i] + c.pick(("\ud800", "\udfff", "\ud83d")) + s[i:]
    return v, action


def dump(v: Any) -> bytes:
    """A mutated value -> JSON bytes (deep markers written out; surrogates as escapes)."""
    marks: list[_Deep] = []

    def default(o: Any) -> Any:
        if isinstance(o, _Deep):
            marks.append(o)
            return f"\x00deep{len(marks) - 1}\x00"
        raise TypeError

    try:
        data = orjson.dumps(v, default=default)
    except TypeError:  # lone surrogates: orjson refuses them, the stdlib writes the escapes
        import json

        marks.clear()
        data = json.dumps(v, default=default, ensure_ascii=True).encode()
    for i, m in enumerate(marks):
        data = data.replace(f'"\\u0000deep{i}\\u0000"'.encode(), m.as_bytes())
    return data


def mutate_bytes(data: bytes, c: Chooser) -> tuple[bytes, str]:
    """Bytes-level damage: invalid UTF-8 inserted, or the body cut."""
    i = c.int(0, len(data))
    if c.int(0, 3) == 0:
        return data[:i], "cut"
    bad = c.pick((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80\x80", b"\x00"))
    return data[:i] + bad + data[i:], "utf8"


def mutate_body(data: bytes, c: Chooser, dicts: bool = True) -> tuple[Any, str]:
    """A recorded JSON body -> a mutated body (bytes, or a dict as the library also takes)."""
    if c.int(0, 5) == 0:
        return mutate_bytes(data, c)
    form = "dict" if dicts and c.int(0, 3) == 0 else "bytes"
    v = orjson.loads(data)
    names = []
    for _ in range(c.int(1, 3)):
        v, name = mutate_value(v, c, form)
        names.append(name)
    if form == "dict" and type(v) is dict:
        return v, "+".join(names) + "/dict"
    return dump(v), "+".join(names)


# ------------------------------------------------------------------ stream mutations


def sse_events(data: bytes) -> list[tuple[str | None, str]]:
    dec = SSEDecoder()
    return [(e.event, e.data) for e in dec.feed(data)]


def sse_bytes(events: list[tuple[str | None, bytes]]) -> bytes:
    out = []
    for name, payload in events:
        head = b"event: " + name.encode() + b"\n" if name is not None else b""
        out.append(head + b"data: " + payload.replace(b"\n", b"\ndata: ") + b"\n\n")
    return b"".join(out)


def mutate_stream(data: bytes, c: Chooser) -> tuple[list[bytes], str]:
    events: list[tuple[str | None, bytes]] = [(n, d.encode()) for n, d in sse_events(data)]
    names = []
    for _ in range(c.int(0, 3)):
        if not events:
            break
        i = c.int(0, len(events) - 1)
        action = c.pick(("event", "event", "event", "drop", "double", "swap", "name"))
        name, payload = events[i]
        if action == "event":
            try:
                body, how = mutate_body(payload, c, dicts=False)
            except (orjson.JSONDecodeError, RecursionError):  # not JSON, or deep already
                body, how = mutate_bytes(payload, c)
            events[i] = (name, body)
            action = f"event({how})"
        elif action == "drop":
            del events[i]
        elif action == "double":
            events.insert(i, events[i])
        elif action == "swap":
            j = c.int(0, len(events) - 1)
            events[i], events[j] = events[j], events[i]
        else:
            events[i] = (c.pick((None, "error", "x", "message_stop", "ping")), payload)
        names.append(action)
    raw = sse_bytes(events)
    if c.int(0, 4) == 0:
        raw, how = mutate_bytes(raw, c)
        names.append(how)
    cuts = sorted({c.int(0, len(raw)) for _ in range(c.int(0, 6))})
    chunks = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
    return chunks, "+".join(names) or "split"


def make_case(sample: Sample, c: Chooser) -> Case:
    if sample.kind == "stream":
        chunks, how = mutate_stream(sample.data, c)
        return Case("stream", sample.pid, chunks, how, name=sample.name)
    body, how = mutate_body(sample.data, c)
    return Case(sample.kind, sample.pid, body, how, c.pick(STATUSES), sample.name)


# ------------------------------------------------------------------ running a case


def run_case(case: Case) -> None:
    """Translate the case toward every protocol; raise whatever is not a typed error."""
    for target in targets():
        if case.kind == "error":
            status, body = interlingua.translate_error(
                case.status, case.body, source=case.pid, target=target
            )
            orjson.dumps(body)  # the caller can always be sent it
            assert type(status) is int
        elif case.kind == "stream":
            _run_stream(case, target)
        else:
            fn = (
                interlingua.translate_request
                if case.kind == "request"
                else interlingua.translate_response
            )
            try:
                fn(case.body, source=case.pid, target=target).to_bytes()
            except interlingua.InterlinguaError:
                continue


def _run_stream(case: Case, target: str) -> None:
    """A stream never raises: whatever the upstream sent ends in band (completed, failed or
    disconnected), and the translation is SSE the target's decoder reads."""
    t = interlingua.StreamTranslator(case.pid, target)
    out = b"".join([t.feed(chunk) for chunk in case.body] + [t.close()])
    back = interlingua.StreamTranslator(target, target)
    back.feed(out)
    back.close()
