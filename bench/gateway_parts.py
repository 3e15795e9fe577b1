"""What each part of a gateway call costs, in instructions, measured alone in one process.

``python -m bench.gateway_parts``

The bodies of bench/gateway_overhead.py (the Anthropic request, the Chat answer, the 60-event
Chat stream in one read, as the upstream writes it). Each part runs ``n`` then ``2n`` times
under callgrind (only the loop counted, as bench/instructions.py), the difference over ``n`` is
its cost per call:

- the floor: ``orjson.loads`` + ``orjson.dumps`` of the request and of the answer; the stream
  cut into events, each ``data:`` parsed, serialised and framed (bench/gateway_floor.py);
- the translation, as the gateway makes it: request decoded and encoded toward Chat and dumped,
  the answer decoded and encoded back and dumped, the stream through the gateway's translator;
- the gateway's own steps around them: the access record and its log line, the metrics, the
  tracing check, the model's route, the upstream request built, the request ids, and the
  Starlette ``Request`` and ``Response`` of a call (made, read, sent to a no-op ``send``).

The HTTP server and the upstream client are not parts of one process's loop: the whole-process
figures of bench/gateway_instructions.py (``--floor relay``) give them.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import io
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import orjson

_MARK = "_CallPythonObject"
N = 20


def _now(coro: Any) -> Any:
    """Run a coroutine that never suspends (its awaits are no-op callables)."""
    try:
        coro.send(None)
    except StopIteration as e:
        return e.value
    raise RuntimeError("the coroutine suspended")


def parts() -> list[tuple[str, Callable[[], Any]]]:
    from interlingua._api import load_json
    from interlingua._losses import Ctx
    from interlingua._pipeline import (
        decode_request,
        decode_response,
        encode_request,
        encode_response,
    )
    from interlingua.gateway.app import Gateway
    from interlingua.gateway.config import Config, Upstream
    from interlingua.gateway.log import ACCESS_LOGGER, AccessRecord, JsonLines
    from interlingua.gateway.observe import Observers
    from interlingua.gateway.streaming import ObservedTranslator
    from interlingua.gateway.upstream import UpstreamPool
    from starlette.requests import Request
    from starlette.responses import Response

    from .gateway_floor import sse_floor
    from .gateway_overhead import BODY, stream_body

    messages = [{"role": "user", "content": "What is the answer?"}]
    request = orjson.dumps({"model": "m", "messages": messages, "stream": False, "max_tokens": 64})
    stream = stream_body(60)
    handler = JsonLines()
    handler.setStream(io.TextIOWrapper(open(os.devnull, "wb")))  # noqa: SIM115
    ACCESS_LOGGER.addHandler(handler)
    ACCESS_LOGGER.setLevel(logging.INFO)
    ACCESS_LOGGER.propagate = False
    up = Upstream("default", "openai_chat", "http://127.0.0.1:9/v1", api_key_env="")
    cfg = Config(upstreams=[up])
    gw = Gateway(cfg, UpstreamPool(), ["anthropic_messages", "openai_chat"])
    observers = Observers(cfg)
    caller = {"host": "127.0.0.1:8080", "content-type": "application/json",
              "content-length": str(len(request))}  # fmt: skip
    up_headers = {"content-type": "application/json", "content-length": "300",
                  "x-request-id": "req_up"}  # fmt: skip
    scope = {"type": "http", "method": "POST", "path": "/v1/messages", "root_path": "",
             "query_string": b"", "path_params": {}, "http_version": "1.1",
             "headers": [(k.encode(), v.encode()) for k, v in caller.items()]}  # fmt: skip

    async def receive() -> Any:
        return {"type": "http.request", "body": request, "more_body": False}

    async def send(message: Any) -> None:
        return None

    def floor_request() -> Any:
        return orjson.dumps(orjson.loads(request))

    def floor_answer() -> Any:
        return orjson.dumps(orjson.loads(BODY))

    def translate_request() -> Any:
        ctx = Ctx("anthropic_messages", "openai_chat")
        req = decode_request(load_json(request), "anthropic_messages", ctx)
        return orjson.dumps(encode_request(req, "openai_chat", ctx))

    def translate_answer() -> Any:
        ctx = Ctx("openai_chat", "anthropic_messages")
        resp = decode_response(load_json(BODY), "openai_chat", ctx)
        return orjson.dumps(encode_response(resp, "anthropic_messages", ctx))

    def translate_stream() -> Any:
        t = ObservedTranslator("openai_chat", "anthropic_messages")
        return t.feed(stream) + t.close()

    def record() -> Any:
        rec = AccessRecord("POST", "/v1/messages", "anthropic_messages")
        rec.model = rec.upstream_model = "m"
        rec.upstream, rec.upstream_name, rec.status = "openai_chat", "default", 200
        rec.first_byte()
        rec.emit()

    rec = AccessRecord("POST", "/v1/messages", "anthropic_messages")
    rec.upstream, rec.upstream_name, rec.status = "openai_chat", "default", 200
    rec.first_byte()
    metrics = observers.metrics

    def starlette() -> Any:
        r = Request(scope, receive, send)
        r.headers.get("content-length")
        resp = Response(BODY, headers={"x-interlingua-request-id": "req_1", "request-id": "r"},
                        media_type="application/json")  # fmt: skip
        _now(resp(scope, receive, send))

    wire_out = orjson.loads(orjson.dumps({"model": "m", "messages": messages}))
    return [
        ("floor: request JSON", floor_request),
        ("floor: answer JSON", floor_answer),
        ("floor: 60-event stream", lambda: sse_floor(stream)),
        ("translation: request", translate_request),
        ("translation: answer", translate_answer),
        ("translation: 60-event stream", translate_stream),
        ("access record + log line", record),
        ("metrics (observe)", lambda: metrics.observe(rec, 0.001)),  # type: ignore[union-attr]
        ("tracing check (Observers.begin)", lambda: observers.begin(rec, caller)),
        ("model route (Gateway.route)", lambda: gw.route("m")),
        ("upstream request built (pool.build)",
         lambda: gw.pool.build(up, dict(wire_out), "m", False, caller, False)),
        ("request ids (Gateway.ids)", lambda: gw.ids(rec, "anthropic_messages", up, up_headers)),
        ("Starlette Request + Response", starlette),
    ]  # fmt: skip


def _child(manifest: str) -> None:
    todo = parts()
    gc.collect()
    gc.freeze()
    callback = ctypes.CFUNCTYPE(None)
    labels = []
    for name, fn in todo:
        fn()
        for reps in (N, 2 * N):

            def loop(fn: Any = fn, reps: int = reps) -> None:
                for _ in range(reps):
                    fn()

            callback(loop)()
            labels.append(name)
    with open(manifest, "wb") as f:
        f.write(orjson.dumps(labels))


def measure() -> list[tuple[str, int]]:
    from .instructions import _totals

    with tempfile.TemporaryDirectory(prefix="ilg-parts-") as tmp:
        manifest = os.path.join(tmp, "manifest.json")
        cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", f"--toggle-collect={_MARK}",
               f"--dump-after={_MARK}", f"--callgrind-out-file={tmp}/cg.out",
               "--log-file=" + os.path.join(tmp, "vg.log"), sys.executable, "-m",
               "bench.gateway_parts", "--child", manifest]  # fmt: skip
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run(cmd, check=True, env=env, cwd=os.path.dirname(os.path.dirname(__file__)))
        with open(manifest, "rb") as f:
            labels = orjson.loads(f.read())
        dumps = sorted((p for p in os.listdir(tmp) if p.startswith("cg.out.")),
                       key=lambda p: int(p.rsplit(".", 1)[1]))  # fmt: skip
        counts = [_totals(os.path.join(tmp, p)) for p in dumps]
    return [(labels[i], round((counts[i + 1] - counts[i]) / N)) for i in range(0, len(labels), 2)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.gateway_parts", description=__doc__)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child)
        return 0
    if shutil.which("valgrind") is None:
        print("# gateway parts: n/a (valgrind is not installed)")
        return 0
    results = measure()
    for name, n in results:
        print(f"{name:<40} {n / 1e3:9,.1f} K")
    print(orjson.dumps({"gateway_parts": dict(results)}).decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
