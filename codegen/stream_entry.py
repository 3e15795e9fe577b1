"""What runs around a protocol's compiled decode rows, as its rows say: the start an event makes
and a data line that holds a list of events. Compiled into the generated ``dispatch`` (lines of
``stream_render._dispatch`` in, lines out), so the decoder asks no row at run time.

The start a row reads (``stream_steps``: the local ``start``) goes first in the event's output,
once. Where the start is an event of its own (the stream's ``recognise`` path is set: Anthropic,
Cohere, Responses) it starts the stream where it is read. Where it is read from every chunk
(Chat, Gemini) it waits for the event's other rows and starts only with a chunk that says
something (an id, or an event out): Azure opens with an anonymous filter chunk; so the compiled
code starts it before each return that follows the start row. A protocol with no start row gets
none of it.

Where the stream ``batches`` (Gemini: an event is a whole response, and a data line may hold a
list of them) a list runs each of its objects as an event of its own (its own start; an object
no row matched, or no object, is counted as ignored) until the stream ends; any other data that
is no object matches nothing."""

from __future__ import annotations

from .stream_model import StreamSpec

__all__ = ["entry"]

_BEGIN = ('m.msg_id = start.id or ""', "out.insert(0, start)")
_BATCH = '''

def _batch(m: Any, d: list[Any], out: list[Any]) -> bool:
    """A data line holding a list of events: each runs as one, until the stream ends."""
    for x in d:
        if m.ended is not None:
            break
        o: list[Any] = []
        if not (type(x) is dict and dispatch(m, x, o)):
            m.ignored += 1
        out += o
    return True'''


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def entry(s: StreamSpec, lines: list[str]) -> list[str]:
    """``dispatch``'s lines (its ``def`` first, then its body) with the start placed and the
    data that is no object handled, as ``s`` says."""
    guard = (
        ["    if type(d) is not dict:", "        return type(d) is list and _batch(m, d, out)"]
        if s.batches
        else ["    if type(d) is not dict:", "        return False"]
    )
    body = lines[1:]
    starts = [row for row in s.decode if row.start is not None]
    if starts:
        waits = s.recognise is None
        # read where no row may have made it: before the returns that place it, by a usage on
        # a start row that may start nothing
        unset = waits or any(row.restart == "ignore" and row.usage for row in starts)
        body = [*(["    start = None  # the start this event reads"] if unset else []),
                *_place(body, waits)]  # fmt: skip
    return [lines[0], *guard, *body, *([_BATCH] if s.batches else [])]


def _place(body: list[str], waits: bool) -> list[str]:
    """The start made where it is read, or (``waits``) before each return that follows the
    first start row, if the event said something."""
    out: list[str] = []
    made = False
    for line in body:
        ind = _indent(line)
        if waits and made and line.lstrip().startswith("return "):
            out += [
                f"{ind}if start is not None and (start.id or out):",
                *(f"{ind}    {x}" for x in _BEGIN),
            ]
        out.append(line)
        if line.lstrip().startswith("start = _StreamStart("):
            made = True
            if not waits:
                out += [f"{ind}{x}" for x in _BEGIN]
    return out
