"""The floor of a gateway on this design: a proxy with the gateway's server and upstream client and
nothing in between but the bare JSON work a translation cannot avoid.

``python -m bench.gateway_floor --port P --upstream-base-url URL [--mode answer|relay|json]``

The server is ``interlingua serve``'s (uvicorn on uvloop + httptools, with server.py's protocol:
disconnect callbacks, one write per answer, one keep-alive timer per connection), the app a bare
ASGI callable (no Starlette), the upstream client the gateway's own (transport.py over h1.py,
keep-alive). Per call:

- ``answer``: no upstream call, the fake upstream's answer (bench/gateway_overhead.py) sent
  back as a relay would send it: the server side alone;
- ``relay``: the request body is sent upstream as it came, the answer (a body, or each read of
  a stream) back as it came: what any Python gateway on this stack pays before it does anything;
- ``json``: as ``relay``, plus the floor of bench/ (docs/performance.md): the request body
  parsed and serialised again (``orjson.loads`` + ``orjson.dumps``); the answer's body the same;
  a stream cut into its events, each event's ``data:`` parsed, serialised and framed as SSE
  again. A translation cannot do less: it must read every byte and write every byte.

No routing, no model map, no access log, no metrics, no request ids, no retries, no
cancellation of the upstream call on a disconnect: everything the gateway does beyond this is
either translation or the gateway's own bookkeeping. bench/gateway_instructions.py and
bench/gateway_compare.py run it next to the gateway (``--floor relay --floor json``).
"""

from __future__ import annotations

import argparse
import gc
import ssl
import sys
from typing import Any

import orjson
from interlingua.gateway.transport import UpstreamRequest, UpstreamTransport
from yarl import URL

_HEADERS = {"content-type": "application/json", "accept": "application/json",
            "user-agent": "floor", "accept-encoding": "gzip, deflate"}  # fmt: skip
_SSE = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache")]


def sse_floor(buf: bytes) -> tuple[bytes, bytes]:
    """Each whole event of ``buf`` parsed, serialised and framed again; the unfinished rest."""
    *events, rest = buf.split(b"\n\n")
    out = []
    for event in events:
        i = event.find(b"data: ")
        if i < 0:
            continue
        data = event[i + 6 :]
        if data[:1] == b"{":  # not "[DONE]"
            data = orjson.dumps(orjson.loads(data))
        out.append(b"data: " + data + b"\n\n")
    return b"".join(out), rest


async def _answer(request: bytes, send: Any) -> None:
    """The fake upstream's answer, sent as the relay sends one (head, body; a stream's end)."""
    from .gateway_overhead import BODY, stream_body

    if b'"stream":true' in request:
        await send({"type": "http.response.start", "status": 200, "headers": _SSE})
        data = _STREAM.get(60) or _STREAM.setdefault(60, stream_body(60))
        await send({"type": "http.response.body", "body": data, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        return
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": head})
    await send({"type": "http.response.body", "body": BODY})


_STREAM: dict[int, bytes] = {}


def floor_app(base_url: str, mode: str) -> Any:
    transport = UpstreamTransport(ssl.create_default_context())
    url = URL(base_url.rstrip("/") + "/chat/completions", encoded=True)
    json = mode == "json"
    canned = mode == "answer"

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        chunks = []
        while True:
            m = await receive()
            chunks.append(m.get("body", b""))
            if not m.get("more_body"):
                break
        if scope["path"] == "/healthz":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        body = b"".join(chunks)
        if canned:
            await _answer(body, send)
            return
        if json:
            body = orjson.dumps(orjson.loads(body))
        answer = await transport.send(UpstreamRequest(url, dict(_HEADERS), body, (5.0, 60.0)))
        try:
            if "event-stream" in answer.headers.get("content-type", ""):
                await send({"type": "http.response.start", "status": 200, "headers": _SSE})
                rest = b""
                async for chunk in answer.aiter_bytes():
                    if json:
                        out, rest = sse_floor(rest + chunk)
                    else:
                        out = chunk
                    if out:
                        await send({"type": "http.response.body", "body": out, "more_body": True})
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            data = await answer.aread()
            if json:
                data = orjson.dumps(orjson.loads(data))
            head = [(b"content-type", b"application/json"),
                    (b"content-length", str(len(data)).encode())]  # fmt: skip
            await send({"type": "http.response.start", "status": 200, "headers": head})
            await send({"type": "http.response.body", "body": data})
        finally:
            await answer.aclose()

    return app


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.gateway_floor", description=__doc__)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--upstream-base-url", required=True)
    ap.add_argument("--mode", choices=("answer", "relay", "json"), default="json")
    args = ap.parse_args(argv)
    import uvicorn
    from interlingua.gateway.server import GatewayHttpProtocol

    app = floor_app(args.upstream_base_url, args.mode)
    gc.collect()
    gc.freeze()  # as interlingua serve (cli.settled)
    uvicorn.run(app, http=GatewayHttpProtocol, host="127.0.0.1", port=args.port,  # type: ignore[arg-type]
                log_level="warning", access_log=False, proxy_headers=False)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
