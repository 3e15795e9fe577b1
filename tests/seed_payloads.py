"""The tool-loop payloads of seed 004 (an article), extracted from its text.

The article shows each protocol's loop as four JSON documents in order: the first request (a
``curl -d '{...}'`` body), the tool-call response, the second request carrying the tool result,
and the final response. ``tool_loop(protocol)`` returns them parsed, in that order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.conftest import SEEDS

# Section headings of the article (it is in Portuguese) -> protocol id.
_SECTIONS = {
    "openai_chat": ("Chat Completions: ciclo completo", "Responses: ciclo completo"),
    "anthropic_messages": ("Anthropic Messages: ciclo completo", "O que pode ser mapeado"),
}


_PAYLOAD_KEYS = {"model", "messages", "choices", "content", "output"}


class ToolLoop(NamedTuple):
    first_request: dict[str, Any]
    tool_call_response: dict[str, Any]
    second_request: dict[str, Any]
    final_response: dict[str, Any]


def json_documents(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in ``text`` that starts a line or a ``curl -d '`` body."""
    decoder = json.JSONDecoder()
    out: list[dict[str, Any]] = []
    i = 0
    while True:
        i = text.find("{", i)
        if i < 0:
            return out
        line_start = text.rfind("\n", 0, i) + 1
        prefix = text[line_start:i].strip()
        if prefix in ("", "-d '"):
            try:
                obj, end = decoder.raw_decode(text, i)
            except json.JSONDecodeError:
                i += 1
                continue
            if type(obj) is dict:
                out.append(obj)
            i = end
        else:
            i += 1


def seed_004() -> Path:
    found = sorted(SEEDS.glob("004_*.txt")) if SEEDS.is_dir() else []
    if not found:
        pytest.skip("../shared/seeds/004_*.txt is absent")
    return found[0]


def tool_loop(protocol: str) -> ToolLoop:
    text = seed_004().read_text(encoding="utf-8")
    start, end = _SECTIONS[protocol]
    section = text[text.index(start) : text.index(end)]
    # skip the tool's own argument objects the article shows in code ({"plan_code": "team"})
    docs = [d for d in json_documents(section) if d.keys() & _PAYLOAD_KEYS]
    if len(docs) != 4:
        raise AssertionError(f"expected 4 JSON documents in the {protocol} loop, found {len(docs)}")
    return ToolLoop(*docs)
