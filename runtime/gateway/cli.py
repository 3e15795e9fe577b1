"""``interlingua serve``: the gateway's command line (the subcommand of runtime/_cli.py).

Needs the ``[gateway]`` extra (starlette, uvicorn), imported only when the gateway runs."""

from __future__ import annotations

import argparse
import sys

from .._errors import InterlinguaError
from .._protocols import PROTOCOLS
from .config import Config, ConfigError, load_config, parse_model_map
from .log import configure_access_log

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


def config_from_args(args: argparse.Namespace) -> Config:
    """The flags over the environment over ``--config`` (raises ConfigError naming the key)."""
    upstream = None
    if args.upstream_base_url:
        upstream = {
            "name": "cli",
            "protocol": args.upstream_protocol or "openai_chat",
            "base_url": args.upstream_base_url,
        }
        if args.upstream_api_key_env:
            upstream["api_key_env"] = args.upstream_api_key_env
        if args.upstream_timeout:
            upstream["timeout"] = args.upstream_timeout
    elif args.upstream_protocol or args.upstream_api_key_env or args.upstream_timeout:
        raise ConfigError("the --upstream-* flags need --upstream-base-url")
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
    configure_access_log()
    # the gateway writes its own JSON access log (interlingua.gateway.access): uvicorn's is off
    uvicorn.run(
        create_app(cfg),
        host=cfg.host,
        port=cfg.port,
        log_level=args.log_level,
        access_log=False,
    )
    return 0
