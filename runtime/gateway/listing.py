"""Model lists: the configured names merged with each upstream's own list, in the caller's shape.

**Names.** The configured ones first (exact ``model_map`` keys, exact upstream ``models``, the
map's targets), then the models each upstream lists (spec: ``http.models.upstream_path``; the
ones its ``models`` globs let through), in upstream order. An upstream's list is fetched on
first use and kept ``CACHE_TTL`` seconds; an upstream that fails (down, 4xx/5xx, no list) is
logged and left out for ``FAILURE_TTL`` seconds, and the others still answer.

**Shape.** The protocols sharing a GET path (spec: ``http.models.paths``) answer in one body that
each of their SDKs reads; a request presenting one protocol's credentials or constant headers
(``http.auth`` header or query, ``http.extra_headers``) gets only the shape of the protocols it
presents, so google-genai's ``GET /v1/models`` with ``x-goog-api-key`` gets Gemini's list.
``GET <path>/{model}`` answers one model in the same shapes, or 404 in the caller's error shape
when no upstream has it (listed, or served by an upstream whose list could not be read).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import anyio
import httpx
import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..generated.spec_types import ModelListing
from .config import Config, Upstream
from .errors import GatewayError, error_response
from .upstream import UpstreamPool, http_spec

if TYPE_CHECKING:
    from .app import Gateway

__all__ = ["CACHE_TTL", "FAILURE_TTL", "ModelCatalog", "answer", "model_listing"]

_log = logging.getLogger("interlingua.gateway")

CACHE_TTL = 600.0  # seconds an upstream's model list is kept
FAILURE_TTL = 30.0  # seconds an upstream whose list failed is left out before the next try
LIST_TIMEOUT = 10.0  # seconds at most for an upstream's list


def _fill(template: Any, values: dict[str, Any]) -> Any:
    """A listing template with its ``{name}`` placeholders replaced; a string that is exactly
    one placeholder takes the value as it is (``None`` included)."""
    if isinstance(template, str):
        if template[:1] == "{" and template[-1:] == "}" and template[1:-1] in values:
            return values[template[1:-1]]
        return template.format(**values) if "{" in template else template
    if isinstance(template, dict):
        return {k: _fill(v, values) for k, v in template.items()}
    if isinstance(template, list):
        return [_fill(v, values) for v in template]
    return template


def model_listing(listings: list[ModelListing], names: list[str]) -> dict[str, Any]:
    """One model-list body merged from the listings of protocols that share its path."""
    ends = {
        "first_id": names[0] if names else None,
        "last_id": names[-1] if names else None,
    }
    out: dict[str, Any] = {}
    items: dict[str, list[dict[str, Any]]] = {}
    for m in listings:
        out.update(_fill(dict(m.envelope), ends))
        rows = items.setdefault(m.items_key, [{} for _ in names])
        for row, n in zip(rows, names, strict=True):
            row.update(_fill(dict(m.item), {"id": n}))
    out.update(items)
    return out


def model_item(listings: list[ModelListing], name: str) -> dict[str, Any]:
    """One model, as ``GET <path>/{model}`` answers it (merged like the list)."""
    out: dict[str, Any] = {}
    for m in listings:
        out.update(_fill(dict(m.item), {"id": name}))
    return out


def item_name(listing: ModelListing, item: Any) -> str | None:
    """The model name in an item of an upstream's list: the item template's first ``{id}``
    field, its literal prefix and suffix stripped (``models/{id}``)."""
    if type(item) is not dict:
        return None
    for key, tpl in listing.item.items():
        if isinstance(tpl, str) and "{id}" in tpl:
            prefix, _, suffix = tpl.partition("{id}")
            v = item.get(key)
            if type(v) is not str or not v.startswith(prefix) or not v.endswith(suffix):
                return None
            return v[len(prefix) : len(v) - len(suffix)] or None
    return None


def _key(up: Upstream) -> tuple[str, str, str | None]:
    return (up.protocol, up.base_url, up.api_key_env)


class ModelCatalog:
    """The model names the gateway serves, with each upstream's own list cached."""

    def __init__(self, cfg: Config, pool: UpstreamPool) -> None:
        self.cfg = cfg
        self.pool = pool
        # upstream key -> (expiry, its names or None when its list could not be read)
        self.cache: dict[tuple[str, str, str | None], tuple[float, list[str] | None]] = {}
        self._lock: anyio.Lock | None = None

    async def _fetch(self, up: Upstream) -> list[str] | None:
        listing = http_spec(up.protocol).models
        if listing is None or listing.upstream_path is None:
            return None
        headers = self.pool.headers(up, False, {}, False)
        headers.pop("content-type", None)
        req = self.pool.client.build_request(
            "GET",
            up.base_url + listing.upstream_path,
            params=dict(listing.upstream_query),
            headers=headers,
            timeout=httpx.Timeout(min(up.timeout, LIST_TIMEOUT), connect=up.connect_timeout),
        )
        try:
            resp, body = await self.pool.fetch(req)
            if resp.status_code >= 400:
                raise ValueError(f"HTTP {resp.status_code}")
            items = orjson.loads(body).get(listing.items_key)
            if type(items) is not list:
                raise ValueError(f"no {listing.items_key!r} list")
        except (httpx.HTTPError, ValueError, AttributeError) as e:
            _log.warning("model list of upstream %s left out: %s", up.name, str(e) or repr(e))
            return None
        return [n for it in items if (n := item_name(listing, it)) is not None]

    async def refresh(self) -> None:
        """Fetch the lists that are missing or expired, all at once."""
        now = time.monotonic()
        if all(self.cache.get(_key(u), (0.0, None))[0] > now for u in self.cfg.upstreams):
            return
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:  # one fetch per upstream, whoever asks at the same time
            now = time.monotonic()
            todo = {
                _key(u): u
                for u in self.cfg.upstreams
                if self.cache.get(_key(u), (0.0, None))[0] <= now
            }

            async def one(key: tuple[str, str, str | None], up: Upstream) -> None:
                names = await self._fetch(up)
                ttl = CACHE_TTL if names is not None else FAILURE_TTL
                self.cache[key] = (time.monotonic() + ttl, names)

            async with anyio.create_task_group() as tg:
                for key, up in todo.items():
                    tg.start_soon(one, key, up)

    async def names(self) -> list[str]:
        await self.refresh()
        names = self.cfg.listed_models()
        for up in self.cfg.upstreams:
            listed = self.cache.get(_key(up), (0.0, None))[1] or []
            names += [n for n in listed if up.serves(n)]
        return list(dict.fromkeys(names))

    async def known(self, name: str) -> bool:
        """Listed, or served by an upstream whose list could not be read."""
        if name in await self.names():
            return True
        mapped = self.cfg.map_model(name)
        return any(
            up.serves(name, mapped) and self.cache.get(_key(up), (0.0, None))[1] is None
            for up in self.cfg.upstreams
        )


def _presents(pid: str, request: Request) -> bool:
    """Does the request come from a client of ``pid`` (its key header or query, or one of the
    constant headers its SDK sends)?"""
    http = http_spec(pid)
    h = request.headers
    if http.auth.header in h or any(name in h for name in http.extra_headers):
        return True
    return bool(http.auth.query and http.auth.query in request.query_params)


def shapes(request: Request, path: str, pids: tuple[str, ...]) -> list[str]:
    """The protocols whose shape answers ``request`` at ``path`` (its route's path)."""
    chosen = [p for p in pids if _presents(p, request)]
    if chosen:
        return chosen
    rank = {p: list(m.paths).index(path) for p in pids if (m := http_spec(p).models) is not None}
    best = min(rank.values(), default=0)
    return [p for p in pids if rank.get(p) == best] or list(pids)


async def answer(gw: Gateway, request: Request, path: str, pids: tuple[str, ...]) -> Response:
    """``GET path`` (the list) or ``GET path/{model_id}`` (one model), in the caller's shape."""
    chosen = shapes(request, path, pids)
    try:
        gw.check_key(request)
        listings = [m for p in chosen if (m := http_spec(p).models) is not None]
        name = request.path_params.get("model_id")
        if name is None:
            return JSONResponse(model_listing(listings, await gw.catalog.names()))
        if not await gw.catalog.known(name):
            raise GatewayError("not_found", f"model {name!r} not found", 404)
        return JSONResponse(model_item(listings, name))
    except GatewayError as e:
        return error_response(e.info, chosen[0])
