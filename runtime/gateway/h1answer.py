"""An upstream's answer over the lean HTTP/1.1 client (h1.py): its head parsed, its body read
whole or as it arrives (Content-Length, chunked, or until the upstream closes), gzip and deflate
decoded."""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from .h1 import H1Pool, _Conn

__all__ = ["H1Answer", "Headers", "parse_head"]


class Headers(dict[str, str]):
    """An answer's headers: names lowercase (repeated ones joined with ", "), looked up in any
    case."""

    __slots__ = ()

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        v = dict.get(self, key)
        if v is None and not key.islower():
            v = dict.get(self, key.lower())
        return default if v is None else v

    def __getitem__(self, key: str) -> str:
        try:
            return dict.__getitem__(self, key)
        except KeyError:
            return dict.__getitem__(self, key.lower())

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or (
            isinstance(key, str) and dict.__contains__(self, key.lower())
        )


class H1Answer:
    """An upstream's answer, open: status and headers in, the body read (``aread``) or relayed
    (``aiter_bytes``) by the caller, who closes it (``aclose``)."""

    __slots__ = (
        "status_code", "headers", "_conn", "_pool", "_left", "_mode", "_dec", "_body", "_timeout",
        "_keep",
    )  # fmt: skip

    closes_at_once = True  # aclose never waits (upstream.close_answer)

    def __init__(
        self,
        pool: H1Pool,
        conn: _Conn,
        status: int,
        headers: Headers,
        head: bool,  # the answer to a HEAD request: no body
        timeout: float | None,  # the longest wait for the next byte
        keep: bool,  # the connection may be used again after this answer
    ) -> None:
        self.status_code = status
        self.headers = headers
        self._pool = pool
        self._timeout = timeout
        self._keep = keep
        self._conn: _Conn | None = conn
        self._body: bytes | None = None
        self._dec: Any = None
        self._mode = 0  # 0 Content-Length (``_left`` bytes), 1 chunked, 2 until closed
        get = dict.get  # the names are lowercase: no look-up in other cases
        te = get(headers, "transfer-encoding")
        length = get(headers, "content-length")
        self._left = 0
        if head or status in (204, 304):
            pass
        elif te is not None and "chunked" in te.lower():
            self._mode, self._left = 1, -1  # -1: a size line is next
        elif length is not None and length.isdigit():
            self._left = int(length)
        elif length is not None:
            raise httpx.RemoteProtocolError(f"bad Content-Length {length!r} from the upstream")
        else:
            self._mode = 2
        enc = get(headers, "content-encoding")
        if enc is not None:
            enc = enc.strip().lower()
            if enc == "gzip":
                self._dec = zlib.decompressobj(16 + zlib.MAX_WBITS)
            elif enc == "deflate":
                self._dec = _Deflate()
        if self._mode == 0 and self._left == 0:
            self._done()

    def _done(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            if self._mode == 2 or conn.buf or not self._keep:
                conn.close()
            else:
                self._pool.put(conn)

    def _take(self) -> bytes | None:
        """The body bytes that can be taken now (b"" for none yet), None once at the end."""
        conn = self._conn
        if conn is None:
            return None
        buf = conn.buf
        if self._mode == 0:
            n = self._left
            if len(buf) <= n:
                data = bytes(buf)
                buf.clear()
            else:
                data = bytes(buf[:n])
                del buf[:n]
            self._left = n - len(data)
            if not self._left:
                self._done()
            return data
        if self._mode == 2:
            data = bytes(buf)
            buf.clear()
            if conn.ended and not data:
                self._done()
                return None
            return data
        return self._dechunk(conn, buf)

    def _dechunk(self, conn: _Conn, buf: bytearray) -> bytes:
        out: list[bytes] = []
        while True:
            left = self._left
            if left > 0:  # inside a chunk: what is there of it
                data = bytes(buf[:left])
                del buf[:left]
                out.append(data)
                left -= len(data)
                self._left = left if left else -2
                if left:
                    break
                continue
            i = buf.find(b"\r\n")
            if i < 0:
                break
            line = bytes(buf[:i])
            del buf[: i + 2]
            if left == -2:  # the CRLF after a chunk's data
                if line:
                    raise httpx.RemoteProtocolError(
                        "malformed chunked body from the upstream"
                    ) from None
                self._left = -1
            elif left == -1:  # a size line
                size = line.split(b";", 1)[0].strip()
                try:
                    n = int(size, 16)
                except ValueError:
                    raise httpx.RemoteProtocolError(
                        "malformed chunked body from the upstream"
                    ) from None
                self._left = n if n else -3
            elif not line:  # -3: the trailers, up to an empty line
                self._done()
                break
        return b"".join(out)

    def _decoded(self, data: bytes, last: bool) -> bytes:
        dec = self._dec
        if dec is None:
            return data
        try:
            out: bytes = dec.decompress(data)
            return out + dec.flush() if last else out
        except zlib.error as e:
            raise httpx.DecodingError(f"the upstream's compressed body is invalid: {e}") from e

    async def _next(self, timeout: float | None) -> bytes | None:
        """The next bytes of the body (decoded), None at its end."""
        while True:
            conn = self._conn
            data = self._take()
            if data is None:
                return None
            if data or self._conn is None:
                return self._decoded(data, self._conn is None)
            assert conn is not None
            if conn.ended:
                raise conn.broken("before the end of the answer")
            await conn.wait(timeout)

    @property
    def complete(self) -> bool:
        """The body has been taken to its end (a relay's last read: nothing more comes)."""
        return self._conn is None

    async def aread(self) -> bytes:
        """The whole body (kept: read again after ``aclose``)."""
        if self._body is None:
            timeout = self._timeout
            parts = []
            while (data := await self._next(timeout)) is not None:
                parts.append(data)
            self._body = parts[0] if len(parts) == 1 else b"".join(parts)
        return self._body

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        timeout = self._timeout
        while (data := await self._next(timeout)) is not None:
            if data:
                yield data

    async def aclose(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:  # not read to its end: the connection cannot be used again
            conn.close()


class _Deflate:
    """``deflate`` as servers send it: zlib-wrapped, or raw (as httpx decodes it)."""

    def __init__(self) -> None:
        self.d = zlib.decompressobj()
        self.first = True

    def decompress(self, data: bytes) -> bytes:
        if self.first:
            self.first = False
            try:
                return self.d.decompress(data)
            except zlib.error:
                self.d = zlib.decompressobj(-zlib.MAX_WBITS)
        return self.d.decompress(data)

    def flush(self) -> bytes:
        return self.d.flush()


def parse_head(text: str) -> tuple[int, Headers, bool]:
    """(status, headers, whether the upstream closes the connection after this answer)."""
    lines = text.split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise httpx.RemoteProtocolError(f"not an HTTP/1.1 answer: {lines[0][:80]!r}")
    found: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep:
            raise httpx.RemoteProtocolError("malformed header line in the upstream's answer")
        name = name.lower()
        if name in found:  # repeated: one value, as httpx and aiohttp join them
            found[name] += ", " + value.strip()
        else:
            found[name] = value.strip()
    connection = found.get("connection", "").lower()
    close = "close" in connection or (parts[0] == "HTTP/1.0" and "keep-alive" not in connection)
    return int(parts[1]), Headers(found), close
