"""What runs around a protocol's compiled decode rows, as its rows say: the start an event makes
and a data line that holds a list of events. Compiled into the generated ``dispatch`` (lines of
``stream_render._dispatch`` in, lines out), so the decoder asks no row at run time.

The start a row reads (``stream_steps``: the local ``start``) goes first in the event's output,
once. Where the start is an event of its own (the stream's ``recognise`` path is set: Anthropic,
Cohere, Responses) it starts the stream where it is read. Where it is read from every chunk
(Chat, Gemini) it waits for the event's other rows and starts only with a chunk that says
something (an id, or an event out): Azure opens with an anonymous filter chunk; so the compiled
code starts it before each return that follows the start row. Both are said by structure, not
read back from the text: the step that reads a start says so (``Start.made``), and every return
of ``dispatch`` is written by ``Start.ret``, which knows whether a start was read before it. A
protocol with no start row gets none of it.

Where the stream ``batches`` (Gemini: an event is a whole response, and a data line may hold a
list of them) a list runs each of its objects as an event of its own (its own start; an object
no row matched, or no object, is counted as ignored) until the stream ends; any other data that
is no object matches nothing."""

from __future__ import annotations

from .stream_model import StreamSpec

__all__ = ["Start", "entry"]

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


class Start:
    """Where one protocol's compiled ``dispatch`` places its start, as its steps are written
    (in the order of its lines): ``made`` right after the statement that reads a start,
    ``ret`` for each return."""

    def __init__(self, s: StreamSpec) -> None:
        self.waits = s.recognise is None
        self.read = False  # a start row's statement is written: the returns after it place it

    def made(self) -> list[str]:
        """What follows the statement that reads a start: it starts the stream there, unless
        it waits."""
        self.read = True
        return [] if self.waits else list(_BEGIN)

    def ret(self, value: str, ind: str = "") -> list[str]:
        """``return value``, the waiting start placed first if one was read before it."""
        lines = [f"return {value}"]
        if self.waits and self.read:
            lines = ["if start is not None and (start.id or out):", *(f"    {x}" for x in _BEGIN),
                     *lines]  # fmt: skip
        return [f"{ind}{x}" for x in lines]


def entry(s: StreamSpec, lines: list[str]) -> list[str]:
    """``dispatch``'s lines (its ``def`` first, then its body, the start placed by ``Start``)
    with the local start and the data that is no object handled, as ``s`` says."""
    guard = (
        ["    if type(d) is not dict:", "        return type(d) is list and _batch(m, d, out)"]
        if s.batches
        else ["    if type(d) is not dict:", "        return False"]
    )
    starts = [row for row in s.decode if row.start is not None]
    # read where no row may have made it: before the returns that place it, by a usage on a
    # start row that may start nothing
    unset = starts and (
        s.recognise is None or any(row.restart == "ignore" and row.usage for row in starts)
    )
    local = ["    start = None  # the start this event reads"] if unset else []
    return [lines[0], *guard, *local, *lines[1:], *([_BATCH] if s.batches else [])]
