"""Command line: ``interlingua translate --from P --to Q [--kind K] [FILE|-]`` (K: request,
response, stream, error, embeddings-request, embeddings-response) and
``interlingua serve`` (the gateway, see docs/gateway.md).

The result goes to stdout, the losses to stderr (one per line, a stream's too); invalid input
exits 2 with a one-line reason."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from ._api import Translation, translate_error, translate_request, translate_response
from ._embeddings import (
    EMBEDDINGS_PROTOCOLS,
    translate_embeddings_request,
    translate_embeddings_response,
)
from ._errors import InterlinguaError
from ._losses import Loss
from ._protocols import PROTOCOLS, dialects
from ._stream_api import StreamTranslator
from .gateway.cli import add_serve_parser, serve


def _read(src: str) -> BinaryIO:
    return sys.stdin.buffer if src == "-" else open(src, "rb")  # noqa: SIM115


def _translate(args: argparse.Namespace) -> int:
    out = sys.stdout.buffer
    with _read(args.file) as f:
        if args.kind == "stream":
            t = StreamTranslator(args.source, args.target, args.dialect)
            for chunk in iter(lambda: f.read(65536), b""):
                out.write(t.feed(chunk))
            out.write(t.close())
            return _report(t.losses)
        data = f.read()
    common: dict[str, Any] = {"source": args.source, "target": args.target, "strict": args.strict}
    if args.kind == "error":
        status, body = translate_error(args.status, data, source=args.source, target=args.target)
        print(f"status: {status}", file=sys.stderr)
        result = Translation(body)
    elif args.kind == "embeddings-request":
        result = translate_embeddings_request(data, **common, model=args.model)
    elif args.kind == "embeddings-response":
        request = None if args.request is None else Path(args.request).read_bytes()
        result = translate_embeddings_response(data, **common, request=request)
    elif args.kind == "request":
        result = translate_request(
            data, **common, model=args.model, stream=args.stream, dialect=args.dialect
        )
    else:
        result = translate_response(data, **common, dialect=args.dialect)
    if result.path is not None:  # the endpoint, when the target keeps the model in the URL
        print(f"path: {result.path}", file=sys.stderr)
    out.write(orjson.dumps(result.body, option=orjson.OPT_INDENT_2) + b"\n")
    return _report(result.losses)


def _report(losses: list[Loss]) -> int:
    for loss in losses:
        print(f"loss: {loss}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="interlingua", description="Translate LLM API wire protocols."
    )
    sub = ap.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("translate", help="translate a request, response, stream or error body")
    pids = (*PROTOCOLS, *EMBEDDINGS_PROTOCOLS)
    tr.add_argument("--from", dest="source", required=True, choices=pids)
    tr.add_argument("--to", dest="target", required=True, choices=pids)
    kinds = ("request", "response", "stream", "error", "embeddings-request", "embeddings-response")
    tr.add_argument("--kind", choices=kinds, default="request")
    tr.add_argument(
        "--request",
        help="embeddings-response: the client's request body (vectors' form, single or batch)",
    )
    tr.add_argument(
        "--dialect",
        choices=sorted(dialects()),
        help="dialect of the side(s) speaking its base protocol (spec/dialects), e.g. openrouter",
    )
    tr.add_argument("--status", type=int, default=400, help="HTTP status of an error body")
    tr.add_argument("--strict", action="store_true", help="fail instead of reporting losses")
    tr.add_argument("--model", help="model, for protocols that keep it in the URL (Gemini)")
    tr.add_argument(
        "--stream",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="stream mode, for protocols that keep it in the URL (Gemini)",
    )
    tr.add_argument("file", nargs="?", default="-", help="input file, or - for stdin")
    add_serve_parser(sub)
    args = ap.parse_args(argv)
    if args.command == "serve":
        return serve(args)
    try:
        return _translate(args)
    except (InterlinguaError, OSError) as e:
        print(f"interlingua: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
