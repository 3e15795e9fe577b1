"""A minimal HTTP/1.1 keep-alive client for the gateway benchmarks: one connection, one request
at a time, the answer read whole (``Content-Length`` or chunked).

Both contenders (direct and through the gateway) are called with it, so they get the same client
work; it costs a small fraction of a server's work per call, so the servers, not the client,
decide the calls per second (httpx's pool scans every connection for each request: with 32
concurrent callers on one ``AsyncClient`` it served a quarter of what it served one caller, and
the measurement then timed httpx).
"""

from __future__ import annotations

import asyncio

__all__ = ["Connection"]


class Connection:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        """POST ``body`` (JSON); the status and the whole answer (opens the connection first)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.reader, self.writer
        assert reader is not None
        head = (
            f"POST {path} HTTP/1.1\r\nhost: {self.host}:{self.port}\r\n"
            f"content-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
        )
        writer.write(head.encode() + body)
        lines = (await reader.readuntil(b"\r\n\r\n")).split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        length: int | None = None
        chunked = close = False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value
            elif name == b"connection":
                close = value == b"close"
        if chunked:
            parts = []
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                data = await reader.readexactly(size + 2)
                if not size:
                    break
                parts.append(data[:-2])
            out = b"".join(parts)
        elif length is not None:
            out = await reader.readexactly(length)
        else:
            out, close = await reader.read(), True
        if close:
            self.close()
        return status, out

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None
