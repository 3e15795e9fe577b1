"""A Redis server for the tests that need one.

``INTERLINGUA_TEST_REDIS`` (a ``redis://`` URL, set by ``.ci/run``) names a running server;
otherwise a ``redis-server`` on the PATH is started on a free port of 127.0.0.1 (no disk
writes) for the session. Without either, the tests that need Redis skip on a developer's
machine and FAIL when ``CI=true``: CI must never skip them in silence."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest


def _missing(why: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{why}: CI must run the Redis tests (.ci/run installs redis-server)")
    pytest.skip(why)


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def redis_server() -> Iterator[str]:
    """Yields a redis:// URL; stops the server it started."""
    try:
        import redis  # noqa: F401
    except ImportError:
        _missing("the redis client is not installed (pip install -e '.[dev]')")
    url = os.environ.get("INTERLINGUA_TEST_REDIS")
    if url:
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        _missing("no Redis: set INTERLINGUA_TEST_REDIS or install redis-server")
        return
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not _ping(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not start on port {port}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
