"""Routing by a table for the paths with no parameter (``/v1/messages``, ``/v1/chat/completions``,
...), in front of Starlette: its router tries each route's regular expression in turn, twenty
and more for a call, and its middleware (server errors, exception handlers) wraps every
request in several more layers.

The table is made on the first request, from the routes as they are then: a (method, path) goes
in only when the first route that fully matches it there is the one the table names, so every
request is handled by the route Starlette would have picked. A route whose endpoint is an async
function taking the request (every gateway call, ``/healthz``) is called directly: the request
made, the endpoint awaited, its response sent; its errors are its own (the gateway's handler
answers every failure in the caller's protocol). Any other request (parameters, unknown paths,
a ``root_path``, websockets, lifespan) goes through Starlette as before.
"""

from __future__ import annotations

import inspect
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.routing import BaseRoute, Match, Route

__all__ = ["TableApp", "post"]


def post(path: str, endpoint: Any) -> Route:
    """A POST route for a spec's inbound path. A model named in the path (``{target}`` =
    ``<model>:<action>``, ``{model}``) may hold slashes, plain or quoted as ``%2F``
    (``/v1beta/models/anthropic/claude-sonnet-4:generateContent``): it is one parameter."""
    path = path.replace("{target}", "{target:path}").replace("{model}", "{model:path}")
    return Route(path, endpoint, methods=["POST"])


def _table(routes: list[BaseRoute]) -> dict[tuple[str, str], Any]:
    table: dict[tuple[str, str], Any] = {}
    for route in routes:
        if not isinstance(route, Route) or route.param_convertors or not route.methods:
            continue
        if not inspect.iscoroutinefunction(route.endpoint):
            continue
        for method in route.methods:
            scope = {"type": "http", "path": route.path, "method": method, "root_path": "",
                     "headers": []}  # fmt: skip
            first = next((r for r in routes if r.matches(scope)[0] is Match.FULL), None)
            if first is route:
                table[(method, route.path)] = route.endpoint
    return table


class TableApp(Starlette):
    """Starlette, with the table's routes called directly."""

    table: dict[tuple[str, str], Any] | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not scope.get("root_path"):
            table = self.table
            if table is None:
                table = self.table = _table(self.router.routes)
            endpoint = table.get((scope["method"], scope["path"]))
            if endpoint is not None:
                scope["app"] = self
                scope["path_params"] = {}
                response = await endpoint(Request(scope, receive, send))
                await response(scope, receive, send)
                return
        await super().__call__(scope, receive, send)
