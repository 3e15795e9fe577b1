"""The tool_entries row on the tiny spec: items of ``tools`` grouping the function declarations
under one key, every other key of an item a hosted tool (Gemini ``functionDeclarations`` beside
``googleSearch``), ``tools`` maybe one item object. The tools walk compiled from the row into the
codec (``decode_tools`` / ``encode_tools``, executed here) takes them through ``decode_tool`` /
``encode_tool``: the items
come back as they came to the same protocol, the declarations go elsewhere as a flat list, and a
row codegen cannot compile is refused with file, line and row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from interlingua._losses import Ctx

from tests.test_codegen_generate import canonical_of, generate
from tests.test_codegen_tool_choice import CANON, CHAT
from tests.tiny_spec import refusal

CANONICAL = CANON.replace(
    "transforms: {tiny_messages: {compiled: tools}}",
    "transforms: {tools: {compiled: tools}}",
)
ROW = "tool_entries: {group: decls, one_object: true}\n"
BASE = CHAT.replace("transforms: [tiny_messages]\n", "transforms: [tools]\n")
GROUPED = BASE.replace("tool_fields:\n", ROW + "tool_fields:\n")
F = {"name": "forecast", "description": "Weather by city", "parameters": {"type": "object"}}
G = {"name": "lookup", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}


@pytest.fixture(scope="module")
def codecs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    """(the grouped tiny codec, the same spec with one tool per item)"""
    grouped = generate(tmp_path_factory.mktemp("tiny_grouped"), GROUPED, CANONICAL)
    flat = generate(tmp_path_factory.mktemp("tiny_flat"), BASE, CANONICAL)
    return grouped, flat


def walk(codec: Any, body: dict[str, Any], target: Any) -> tuple[dict[str, Any], Ctx]:
    """``body``'s tools decoded by ``codec`` and encoded by ``target``: (the body, the context)."""
    req = canonical_of(codec).Request()
    ctx = Ctx("tiny_v2", "tiny_v2" if target is codec else "other")
    codec.decode_tools(body, req, ctx)  # the walk compiled from the rows
    out: dict[str, Any] = {}
    target.encode_tools(req, out, ctx)
    return out, ctx


def test_grouped_items_come_back_as_they_came(codecs: tuple[Any, Any]) -> None:
    grouped, _ = codecs
    body = {"tools": [{"decls": [F]}, {"search": {}}, {"decls": [G], "run_code": {"v": 1}}]}
    out, ctx = walk(grouped, body, grouped)
    assert (out, ctx.losses) == (body, [])
    one = {"tools": {"decls": [F, G], "search": {}}}  # one item object instead of the list
    assert walk(grouped, one, grouped)[0] == one
    assert walk(grouped, {"tools": []}, grouped)[0] == {"tools": []}  # the empty list too


def test_grouped_declarations_go_elsewhere_flat_and_back_grouped(codecs: tuple[Any, Any]) -> None:
    grouped, flat = codecs
    body = {"tools": [{"decls": [F]}, {"search": {}, "decls": [G]}]}
    out, ctx = walk(grouped, body, flat)
    assert out == {"tools": [F, G]}
    assert [(loss.path, loss.feature) for loss in ctx.losses] == [("tools[1]", "hosted_tools")]
    assert walk(flat, out, grouped)[0] == {"tools": [{"decls": [F, G]}]}
    assert walk(flat, {"tools": []}, grouped)[0] == {}  # the empty list: the source's form only


@pytest.mark.parametrize(
    ("row", "protocol", "words"),
    [
        ("tool_entries: {group: a.b}", GROUPED.replace(ROW, "tool_entries: {group: a.b}\n"),
         "one key of a tools item, not a path"),
        (ROW, GROUPED.replace("tool_fields:\n", "tool_type: function\ntool_fields:\n"),
         "no tool_type or tool_wrapper of their own"),
        (ROW, GROUPED.replace("transforms: [tools]", "transforms: []"),
         "read by the tools transform alone"),
    ],
)  # fmt: skip
def test_rows_that_cannot_compile_are_refused(
    tmp_path: Path, row: str, protocol: str, words: str
) -> None:
    assert words in refusal(tmp_path, CANONICAL, protocol, row)
