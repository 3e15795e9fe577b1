"""The ``tool_entries`` row (spec/protocols/*.yaml): items of ``tools`` that group the tools
instead of holding one each (Gemini ``functionDeclarations`` beside ``googleSearch``), compiled
into the codec's tools walk (``decode_tools`` / ``encode_tools``, templates/_codec_tools.j2; the
tools transform row is ``compiled: tools``). A row the walk cannot follow is refused here with
its file, line and row."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .source import Loc
from .spec_http import Strict


class ToolEntries(Strict):
    """How the items of ``tools`` hold the tools when an item is not one tool (Gemini): the
    function declarations grouped in a list under one key, every other key of an item a hosted
    tool named by that key. The compiled tools walk is written for this shape; the item a tool came in is
    kept for the same protocol (hint ``entry``)."""

    group: str = Field(description="an item's key holding a list of function declarations")
    one_object: bool = Field(
        False,
        description="``tools`` may be one item object instead of a list (seen in the wild); "
        "written back so to the same protocol",
    )


def tool_entries_problems(p: Any) -> list[tuple[Loc, str]]:
    """What the ProtocolSpec ``p``'s tool_entries row says that the tools walk cannot follow:
    a path for the group, a per-tool type or wrapper beside it, no tools transform to read it."""
    e = p.tool_entries
    if e is None:
        return []
    out: list[tuple[Loc, str]] = []
    if "." in e.group:
        out.append((("tool_entries", "group"), "one key of a tools item, not a path"))
    if p.tool_type or p.tool_wrapper:
        out.append(
            (("tool_entries",), "grouped tools have no tool_type or tool_wrapper of their own")
        )
    if "tools" not in p.transforms:
        out.append((("tool_entries",), "read by the tools transform alone, which transforms lacks"))
    return out
