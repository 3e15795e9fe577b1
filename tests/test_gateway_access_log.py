"""The access log's line is the same whichever way it is written: straight to the stream of its
own handler (the fast path of ``interlingua serve``), or through logging when another handler
or a filter is on the logger."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")

from interlingua.gateway.log import ACCESS_LOGGER, AccessRecord, configure_access_log  # noqa: E402


@pytest.fixture
def own_handler() -> Iterator[io.StringIO]:
    saved = (ACCESS_LOGGER.handlers[:], ACCESS_LOGGER.level, ACCESS_LOGGER.propagate)
    ACCESS_LOGGER.handlers.clear()
    configure_access_log()
    stream = io.StringIO()
    ACCESS_LOGGER.handlers[0].stream = stream  # type: ignore[attr-defined]
    yield stream
    ACCESS_LOGGER.handlers[:] = saved[0]
    ACCESS_LOGGER.setLevel(saved[1])
    ACCESS_LOGGER.propagate = saved[2]


def record() -> AccessRecord:
    rec = AccessRecord("POST", "/v1/messages", "anthropic_messages")
    rec.upstream, rec.status, rec.model = "openai_chat", 200, "claude-x"
    return rec


def test_one_json_line_per_call(own_handler: io.StringIO) -> None:
    rec = record()
    rec.emit()
    rec.emit()  # logged once
    lines = own_handler.getvalue().splitlines()
    assert len(lines) == 1
    logged = json.loads(lines[0])
    assert logged["request_id"] == rec.request_id and logged["status"] == 200
    assert logged["model"] == "claude-x" and logged["upstream"] == "openai_chat"


def test_filters_and_other_handlers_still_see_every_record(own_handler: io.StringIO) -> None:
    seen: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, r: logging.LogRecord) -> None:
            seen.append(r)

    ACCESS_LOGGER.addHandler(Keep())
    record().emit()
    assert len(seen) == 1 and json.loads(seen[0].getMessage())["status"] == 200
    assert len(own_handler.getvalue().splitlines()) == 1  # the same line, through logging
    ACCESS_LOGGER.handlers.pop()
    ACCESS_LOGGER.addFilter(lambda r: False)
    record().emit()  # filtered out: nothing written
    assert len(own_handler.getvalue().splitlines()) == 1
    ACCESS_LOGGER.filters.clear()
    logging.disable(logging.INFO)
    try:
        record().emit()
    finally:
        logging.disable(logging.NOTSET)
    assert len(own_handler.getvalue().splitlines()) == 1
