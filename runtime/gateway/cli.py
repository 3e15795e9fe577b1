"""``interlingua serve``: the gateway's command line (the subcommand of runtime/_cli.py).

Needs the ``[gateway]`` extra (starlette, uvicorn), imported only when the gateway runs."""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import sys
from typing import Any

from .._errors import InterlinguaError
from .._protocols import PROTOCOLS
from .config import Config, ConfigError, load_config, parse_model_map
from .log import configure_access_log
from .shutdown import DEFAULT_SHUTDOWN_TIMEOUT

__all__ = ["add_serve_parser", "config_from_args", "serve"]


def add_serve_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    sv = sub.add_parser(
        "serve",
        help="run the gateway: any client protocol in front of any upstream protocol",
        description="Run the gateway. Flags override the environment, which overrides --config.",
    )
    sv.add_argument("--config", help="TOML configuration file (see docs/gateway.md)")
    sv.add_argument("--host", help="address to bind (default 127.0.0.1)")
    sv.add_argument("--port", type=int, help="port to listen on (default 8080)")
    sv.add_argument("--upstream-protocol", choices=PROTOCOLS, help="protocol of the upstream")
    sv.add_argument(
        "--upstream-dialect",
        help="dialect of the upstream protocol, e.g. openrouter, deepseek, groq",
    )
    sv.add_argument("--upstream-base-url", help="e.g. http://127.0.0.1:11434/v1")
    sv.add_argument("--upstream-api-key-env", help="environment variable holding the upstream key")
    sv.add_argument("--upstream-timeout", type=float, help="seconds between upstream bytes")
    sv.add_argument(
        "--model-map",
        action="append",
        default=[],
        metavar="PATTERN=MODEL",
        help="map a model name or glob to an upstream model (repeatable), e.g. 'claude-*=qwen3'",
    )
    sv.add_argument("--inbound-keys-env", help="environment variable with accepted caller keys")
    sv.add_argument("--max-body-bytes", type=int, help="larger request bodies get 413")
    sv.add_argument(
        "--state",
        help="where conversation and reasoning state is kept: sqlite:///PATH (default: a file "
        "in the user's state directory), redis://HOST:PORT/DB, memory or off",
    )
    sv.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    sv.add_argument(
        "--shutdown-timeout",
        type=float,
        default=DEFAULT_SHUTDOWN_TIMEOUT,
        help="seconds the calls in flight get after SIGTERM (default 30); streams still open "
        "end with an in-band error a second before",
    )
    sv.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes serving one port (default 1); they share the state of an sqlite or "
        "redis store (docs/deploying.md)",
    )


def config_from_args(args: argparse.Namespace) -> Config:
    """The flags over the environment over ``--config`` (raises ConfigError naming the key)."""
    upstream = None
    if args.upstream_base_url:
        upstream = {
            "name": "cli",
            "protocol": args.upstream_protocol or "openai_chat",
            "base_url": args.upstream_base_url,
        }
        if args.upstream_api_key_env is not None:  # "": an upstream that needs no key
            upstream["api_key_env"] = args.upstream_api_key_env
        if args.upstream_timeout:
            upstream["timeout"] = args.upstream_timeout
        if args.upstream_dialect:
            upstream["dialect"] = args.upstream_dialect
    elif (
        args.upstream_protocol
        or args.upstream_api_key_env
        or args.upstream_timeout
        or args.upstream_dialect
    ):
        raise ConfigError("the --upstream-* flags need --upstream-base-url")
    try:
        return load_config(
            args.config,
            overrides={
                "host": args.host,
                "port": args.port,
                "max_body_bytes": args.max_body_bytes,
                "inbound_keys_env": args.inbound_keys_env,
                "state": args.state,
                "model_map": parse_model_map(args.model_map),
                "upstream": upstream,
            },
        )
    except ConfigError as e:  # the flag-made upstream's keys are named as the flags
        flag = re.match(r"upstreams\[0\]\.([a-z_]+)", str(e))
        if upstream is None or flag is None:
            raise
        name = "--upstream-" + flag.group(1).replace("_", "-")
        raise ConfigError(name + str(e)[flag.end() :]) from None


def describe(cfg: Config) -> list[str]:
    """One line per upstream for the start: where it is and which key it gets (never the key)."""
    out = []
    for up in cfg.upstreams:
        key = f"key from ${up.api_key_env}" if up.api_key_env else "no key"
        out.append(
            f"interlingua: upstream {up.name!r}: {up.protocol} at {up.base_url}, "
            f"models {', '.join(up.models)}, {key}, {up.retries} retries"
        )
    return out


def serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .app import create_app
    except ImportError as e:
        print(f"interlingua: the gateway needs the [gateway] extra ({e.name})", file=sys.stderr)
        return 2
    try:
        cfg = config_from_args(args)
    except InterlinguaError as e:
        print(f"interlingua: {e}", file=sys.stderr)
        return 2
    workers = getattr(args, "workers", 1) or 1
    if workers < 1 or (workers > 1 and cfg.state == "memory"):
        why = "is per process: use sqlite (the default) or redis" if workers > 1 else "must be >= 1"
        print(
            f"interlingua: --workers {workers}: {'state = memory ' if workers > 1 else ''}{why}",
            file=sys.stderr,
        )
        return 2
    for line in describe(cfg):
        print(line, file=sys.stderr)
    configure_access_log()
    # the gateway writes its own JSON access log (interlingua.gateway.access): uvicorn's is off
    grace = shutdown_timeout(args)
    from .server import GatewayHttpProtocol

    run: dict[str, Any] = dict(
        http=GatewayHttpProtocol,  # uvicorn's, with disconnect callbacks and one-write answers
        host=cfg.host,
        port=cfg.port,
        log_level=args.log_level,
        access_log=False,
        proxy_headers=False,  # nothing reads the client's address: one middleware less per call
        timeout_graceful_shutdown=grace,
    )
    if workers == 1:
        uvicorn.run(settled(create_app(cfg, shutdown_timeout=grace)), **run)
        return 0
    # each worker process builds its app from the same flags (uvicorn imports the factory)
    flags = {k: v for k, v in vars(args).items() if type(v) in (str, int, float, bool, list)}
    os.environ[WORKER_ARGS] = json.dumps(flags)
    uvicorn.run(f"{__name__}:worker_app", factory=True, workers=workers, **run)
    return 0


WORKER_ARGS = "INTERLINGUA_SERVE_ARGS"


def worker_app() -> Any:
    """The app of one ``--workers`` process: the parent's flags, passed in the environment."""
    from .app import create_app

    names = ("config", "host", "port", "upstream_protocol", "upstream_base_url",
             "upstream_api_key_env", "upstream_timeout", "upstream_dialect", "inbound_keys_env",
             "max_body_bytes", "state")  # fmt: skip
    flags = {n: None for n in names} | {"model_map": []} | json.loads(os.environ[WORKER_ARGS])
    configure_access_log()
    args = argparse.Namespace(**flags)
    return settled(create_app(config_from_args(args), shutdown_timeout=shutdown_timeout(args)))


def settled(app: Any) -> Any:
    """``app``, the objects made so far (modules, the app, its tables) frozen out of the
    garbage collector's reach: a full collection would otherwise walk them all again (~20 M
    instructions, a pause of several ms in the middle of some call)."""
    gc.collect()
    gc.freeze()
    return app


def shutdown_timeout(args: argparse.Namespace) -> float:
    value = getattr(args, "shutdown_timeout", None)
    return DEFAULT_SHUTDOWN_TIMEOUT if value is None or value < 0 else float(value)
