"""Graceful shutdown has a bound: ``interlingua serve --shutdown-timeout 2`` in front of an
upstream that goes silent in the middle of a stream; after SIGTERM the caller's stream ends with
its in-band error ending (not a cut) and the process exits, well before the upstream would."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator

import httpx
import orjson
import pytest

pytest.importorskip("uvicorn")

from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import StreamingResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from tests.gateway_upstream import ServerThread, free_closed_port  # noqa: E402

CHUNK = {"id": "c1", "object": "chat.completion.chunk", "model": "m", "created": 1}


def silent_upstream() -> Starlette:
    """A Chat upstream that sends one text delta, then nothing for a minute."""

    async def chat(request: Request) -> StreamingResponse:
        async def body() -> AsyncIterator[bytes]:
            first = {**CHUNK, "choices": [{"index": 0, "delta": {"content": "Hel"}}]}
            yield b"data: " + orjson.dumps(first) + b"\n\n"
            await asyncio.sleep(60)

        return StreamingResponse(body(), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])


def wait_listening(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the gateway exited: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError("the gateway did not start")


def test_sigterm_ends_open_streams_in_band_within_the_bound() -> None:
    upstream = ServerThread(silent_upstream())
    upstream.start()
    port = free_closed_port()
    cmd = [sys.executable, "-m", "interlingua", "serve", "--port", str(port), "--state", "memory"]
    cmd += ["--upstream-protocol", "openai_chat", "--upstream-base-url", upstream.url + "/v1"]
    cmd += ["--upstream-api-key-env", "", "--shutdown-timeout", "2", "--log-level", "warning"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_listening(port, proc)
        body = {"model": "m", "max_tokens": 50, "stream": True}
        body["messages"] = [{"role": "user", "content": "hi"}]
        received = b""
        with httpx.stream(
            "POST", f"http://127.0.0.1:{port}/v1/messages", json=body, timeout=30
        ) as r:
            assert r.status_code == 200
            chunks = r.iter_raw()
            while b"Hel" not in received:
                received += next(chunks)
            proc.send_signal(signal.SIGTERM)
            for chunk in chunks:
                received += chunk
        # the bound is 2 s, the upstream would hold 60; uvicorn re-raises the signal once done
        assert proc.wait(timeout=30) in (0, -signal.SIGTERM)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        upstream.stop()
    text = received.decode()
    assert "event: error" in text and "shutting down" in text
    assert "message_stop" not in text
