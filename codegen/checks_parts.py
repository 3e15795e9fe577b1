"""Checks of the part rows' encode-only forms (spec/protocols/*.yaml ``parts``) that the part
checks of codegen/checks.py leave: a ``base64_text`` field is written only (its decoder would
take the base64 data for the text), and ``encode_only: true`` says another row of the kind reads
the part back, so there must be one. Refused with file, line and row."""

from __future__ import annotations

from typing import Any

from .source import Loc


def part_row_problems(p: Any) -> list[tuple[Loc, str]]:
    """What the ProtocolSpec ``p``'s part rows say that their compiled code cannot do."""
    out: list[tuple[Loc, str]] = []
    for i, row in enumerate(p.parts):
        if row.encode_only is not None and row.decode_only:
            out.append((("parts", i, "encode_only"), "a row cannot only encode and only decode"))
        for j, f in enumerate(row.fields):
            if f.type == "base64_text" and row.encode_only is None:
                out.append(
                    (
                        ("parts", i, "fields", j, "type"),
                        "base64_text is only written (read, the base64 data would be the text): "
                        "its row needs encode_only",
                    )
                )
        readers = [r for r in p.parts if r.part == row.part and r.encode_only is not True]
        if row.encode_only is True and not readers:
            out.append(
                (
                    ("parts", i, "encode_only"),
                    f"true says another {row.part} row reads the part back: there is none",
                )
            )
    return out
