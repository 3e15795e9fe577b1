"""Routing by a table for the paths with no parameter (``/v1/messages``, ``/v1/chat/completions``,
...): Starlette's router tries each route's regular expression in turn, twenty and more for a
call, on every request.

The table is made on the first request, from the routes as they are then: a (method, path) goes
in only when the first route that fully matches it there is the one the table names, so every
request is handled by the route Starlette would have picked; any other request (parameters,
unknown paths, a ``root_path``, websockets, lifespan) goes through Starlette's router as before.
"""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute, Match, Route, Router

__all__ = ["route_by_table"]


def _table(routes: list[BaseRoute]) -> dict[tuple[str, str], Route]:
    table: dict[tuple[str, str], Route] = {}
    for route in routes:
        if not isinstance(route, Route) or route.param_convertors or not route.methods:
            continue
        for method in route.methods:
            scope = {"type": "http", "path": route.path, "method": method, "root_path": "",
                     "headers": []}  # fmt: skip
            first = next((r for r in routes if r.matches(scope)[0] is Match.FULL), None)
            if first is route:
                table[(method, route.path)] = route
    return table


def route_by_table(router: Router) -> None:
    """Put the table in front of ``router`` (its ``middleware_stack``)."""
    routed = router.middleware_stack
    table: dict[tuple[str, str], Route] | None = None

    async def app(scope: Any, receive: Any, send: Any) -> None:
        nonlocal table
        if scope["type"] == "http" and not scope.get("root_path"):
            if table is None:
                table = _table(router.routes)
            route = table.get((scope["method"], scope["path"]))
            if route is not None:
                scope.setdefault("router", router)
                scope["endpoint"] = route.endpoint
                scope["path_params"] = {}
                await route.handle(scope, receive, send)
                return
        await routed(scope, receive, send)

    router.middleware_stack = app
