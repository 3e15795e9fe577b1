"""No key in any log line, at any level: query strings are redacted from every log record.

A client may send its key in the query (Gemini's ``?key=``), and at ``--log-level trace``
uvicorn logs each request's ASGI scope, query string included; an HTTP client logs the URLs it
calls. The gateway installs a log record factory (process-wide, once) that rewrites a record's
message, and its traceback, before any handler sees it: ``'query_string': b'...'`` and the
query of anything that looks like a path or URL (``/path?a=b``) become ``<redacted>``.
"""

from __future__ import annotations

import logging
import re
import traceback
from typing import Any

__all__ = ["install_redaction", "redact"]

_SCOPE_QUERY = re.compile(r"""(['"]?query_string['"]?\s*:\s*b?)(['"])(?:(?!\2).)+\2""")
_URL_QUERY = re.compile(r"""(/[^\s'"?]*)\?[^\s'"<>)]+""")
_HINTS = ("?", "query_string")


def redact(text: str) -> str:
    """``text`` with query strings replaced by ``<redacted>``."""
    if not any(h in text for h in _HINTS):
        return text
    text = _SCOPE_QUERY.sub(r"\1\2<redacted>\2", text)
    return _URL_QUERY.sub(r"\1?<redacted>", text)


def install_redaction() -> None:
    """Wrap the log record factory (idempotent)."""
    current = logging.getLogRecordFactory()
    if getattr(current, "interlingua_redacts", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = current(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: left to the handler to report
            return record
        clean = redact(message)
        if clean is not message:
            record.msg, record.args = clean, None
        if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
            record.exc_text = redact("".join(traceback.format_exception(*record.exc_info)))
        return record

    factory.interlingua_redacts = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)
