"""Retries and fallback, before any byte reached the caller.

A call goes to the first upstream whose ``models`` match, then to its fallbacks (``fallback``
names, or every later upstream whose models match). On each upstream, a connect error (the
request never left) and the statuses in ``RETRY_STATUSES`` are retried up to ``retries`` times,
waiting ``backoff`` seconds doubled each time (at most ``backoff_max``, with jitter: a random
wait between half and all of it), or what the upstream asked for in ``retry-after-ms`` /
``Retry-After`` when it did. A wait longer than ``retry_after_max`` is not waited: the next
upstream is tried at once. When every attempt failed the caller gets the last failure.

The idempotency rule: everything here happens before the gateway answers, so a retry never
follows a byte sent to the caller (a stream that breaks later ends with an in-band error and is
never replayed: a tool call is never run twice because of the gateway). Each attempt that failed
is in the access log (``attempts``: upstream, outcome, wait, then: retry / fallback /
give_up).
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable, Mapping
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

import anyio
import httpx

from .config import Upstream
from .log import AccessRecord
from .upstream import UpstreamAnswer

__all__ = ["RETRY_STATUSES", "backoff_delay", "retry_after", "send_with_retries"]

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 529})
# the request never reached the upstream: always safe to send again
CONNECT_ERRORS = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)

T = TypeVar("T")
Req = TypeVar("Req")
Answer = TypeVar("Answer", bound=UpstreamAnswer)


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds the upstream asked to wait (``retry-after-ms``, then ``Retry-After`` as seconds
    or an HTTP date), or None."""
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    ra = headers.get("retry-after")
    if ra is None:
        return None
    try:
        return max(0.0, float(ra))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(ra).timestamp() - time.time())
    except (TypeError, ValueError, IndexError):
        return None


def backoff_delay(up: Upstream, attempt: int) -> float:
    """Exponential backoff with jitter: between half and all of backoff * 2**attempt (capped)."""
    d = min(up.backoff_max, up.backoff * 2**attempt)
    return random.uniform(d / 2, d)


async def send_with_retries(
    candidates: list[Upstream],
    build: Callable[[Upstream], Awaitable[tuple[Req, T]]],
    send: Callable[[Req], Awaitable[Answer]],
    rec: AccessRecord,
    sleep: Callable[[float], Awaitable[Any]] = anyio.sleep,
) -> tuple[Upstream, T, Answer]:
    """The upstream that answered, what ``build`` made for it, and its open response (an error
    response when every attempt failed, already read); raises the last connect error when no
    upstream could be reached."""
    failed: BaseException | None = None
    last: tuple[Upstream, T, Answer] | None = None
    for up in candidates:
        request, made = await build(up)
        for attempt in range(up.retries + 1):
            wait: float | None
            try:
                resp = await send(request)
            except CONNECT_ERRORS as e:
                failed, last = e, None
                wait = backoff_delay(up, attempt)
                outcome: str | int = type(e).__name__
            else:
                if resp.status_code not in RETRY_STATUSES:
                    return up, made, resp
                try:
                    await resp.aread()  # small; frees the connection for the retry
                finally:
                    await resp.aclose()
                failed, last = None, (up, made, resp)
                asked = retry_after(resp.headers)
                wait = asked if asked is not None else backoff_delay(up, attempt)
                if asked is not None and asked > up.retry_after_max:
                    wait = None  # longer than we wait: the next upstream, if any
                outcome = resp.status_code
            if wait is None or attempt == up.retries:
                then = "fallback" if up is not candidates[-1] else "give_up"
                rec.attempts.append(
                    {"upstream": up.name, "outcome": outcome, "wait_ms": None, "then": then}
                )
                break
            rec.attempts.append(
                {
                    "upstream": up.name,
                    "outcome": outcome,
                    "wait_ms": round(wait * 1000),
                    "then": "retry",
                }
            )
            await sleep(wait)
    if last is not None:
        return last
    assert failed is not None
    raise failed
