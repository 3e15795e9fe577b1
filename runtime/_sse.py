"""Incremental server-sent events (SSE) decoding (the stream encoders' generated templates frame
their own events: codegen/stream_encode.py).

Implements the WHATWG HTML "interpreting an event stream" rules. The decoder keeps
undispatched bytes and only decodes text up to the last blank line, so chunks may be split
anywhere (inside a CRLF pair or a multi-byte UTF-8 character). Line endings are normalised to
LF per chunk (CRLF, then lone CR), which lets one bytes-level fast path serve every stream.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["SSEEvent", "SSEDecoder"]

_BOM = b"\xef\xbb\xbf"


class SSEEvent(NamedTuple):
    event: str | None
    """Value of the last ``event:`` field of the event, None when absent."""
    data: str
    """The ``data:`` lines joined with "\\n"."""
    id: str | None
    """Last event id seen so far on the stream (persists across events, per spec)."""
    retry: int | None
    """Last valid ``retry:`` value seen so far on the stream (the reconnection time)."""


_new: Any = tuple.__new__  # bypasses NamedTuple.__new__'s extra Python frame


class SSEDecoder:
    """Incremental WHATWG server-sent-events parser.

    Between ``feed`` calls the state is always "just after a blank line": only the bytes after
    the last blank line are kept, so event name and data never straddle calls. There is no
    ``close``: an event the stream ends before its blank line is never dispatched (WHATWG); the
    stream decoder fed the events sees the stream end without it.
    """

    __slots__ = ("_pending", "_skip_lf", "_head", "_last_id", "_retry")

    def __init__(self) -> None:
        self._pending: list[bytes] = []  # bytes after the last blank line, LF-normalised
        self._skip_lf = False  # previous chunk ended with CR: drop a leading LF
        self._head: bytes | None = b""  # stream start (BOM detection); None once past it
        self._last_id: str | None = None
        self._retry: int | None = None

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        if not chunk:
            return []
        if self._skip_lf:
            self._skip_lf = False
            if chunk[:1] == b"\n":
                chunk = chunk[1:]
        if self._head is not None:
            chunk = self._head + chunk
            if len(chunk) < 3 and _BOM.startswith(chunk):
                self._head = chunk
                return []
            self._head = None
            if chunk[:3] == _BOM:
                chunk = chunk[3:]
        if not chunk:  # the chunk was only the LF of a split CRLF, or the BOM
            return []
        # ``13 in chunk``, not ``b"\r" in chunk``: bytes.__contains__ first tries its argument
        # as an int, and for a bytes one raises (and formats) a TypeError it then swallows
        if 13 in chunk:
            chunk = chunk.replace(b"\r\n", b"\n")
            if chunk[-1] == 13:
                self._skip_lf = True
            chunk = chunk.replace(b"\r", b"\n")
        pending = self._pending
        if len(chunk) <= 512 and not pending:  # a read of one event (or a few): split it
            # (bytes.split scans every byte; find, rfind and startswith parse an argument
            # tuple, a few hundred instructions a call on 3.11: for a short read split wins)
            blocks = chunk.split(b"\n\n")
            rest = blocks.pop()  # after the last blank line (all of it when there is none)
            if rest:
                pending.append(rest)
            if not blocks:
                return []
            if len(blocks) == 1:  # (a comprehension is a call of its own on 3.11)
                return self._parse([blocks[0].decode("utf-8", "replace")])
            return self._parse([b.decode("utf-8", "replace") for b in blocks])
        end = chunk.rfind(b"\n\n")  # a long read: the last blank line, found from the end
        # (no blank line in it, nor one its first byte ends: the pending bytes, never empty
        # pieces, end with a LF)
        if end < 0 and not (chunk[0] == 10 and pending and pending[-1][-1] == 10):
            pending.append(chunk)
            return []
        if pending:
            pending.append(chunk)
            chunk = b"".join(pending)
            pending.clear()
            end = chunk.rfind(b"\n\n")
        if end + 2 < len(chunk):
            pending.append(chunk[end + 2 :])
        return self._parse(chunk[:end].decode("utf-8", "replace").split("\n\n"))

    def _parse(self, blocks: list[str]) -> list[SSEEvent]:
        out: list[SSEEvent] = []
        append = out.append
        last_id = self._last_id
        retry = self._retry
        for block in blocks:
            if block[:6] == "data: ":
                if "\n" not in block:  # OpenAI / Gemini shape
                    append(_new(SSEEvent, (None, block[6:], last_id, retry)))
                    continue
            elif block[:7] == "event: ":  # Anthropic / Responses / Cohere shape
                head, _, body = block.partition("\n")
                if body[:6] == "data: " and "\n" not in body:
                    append(_new(SSEEvent, (head[7:], body[6:], last_id, retry)))
                    continue
            event: str | None = None
            data: list[str] = []
            for line in block.split("\n"):
                if line[:6] == "data: ":
                    data.append(line[6:])
                elif line[:7] == "event: ":
                    event = line[7:]
                elif line:  # empty lines here only border a dispatch: no-ops
                    name, colon, value = line.partition(":")
                    if colon and value[:1] == " ":
                        value = value[1:]
                    if name == "data":
                        data.append(value)
                    elif name == "event":
                        event = value
                    elif name == "id":
                        if "\0" not in value:
                            last_id = value
                    elif name == "retry" and value.isascii() and value.isdigit():
                        retry = int(value)
                    # name == "" is a comment; unknown fields are ignored
            if data:
                append(_new(SSEEvent, (event, "\n".join(data), last_id, retry)))
        self._last_id = last_id
        self._retry = retry
        return out
