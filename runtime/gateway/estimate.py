"""The gateway's estimate of a request's input tokens, when no upstream can count them.

Text (messages, system, tool calls and results, reasoning, tool names, descriptions and schemas)
counts ``len / chars_per_token``; media count by the provider's documented formulas, from the
protocol's ``http.token_estimate`` row: an image by its width and height, read from the first
bytes of the file (PNG, JPEG, GIF, WebP); a PDF by its pages; other media a fixed amount each.
A base64 payload's length is never counted: a 300 KB screenshot is a few hundred to a few
thousand tokens, not 100,000.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import struct
from typing import Any

import orjson

from ..generated.canonical import (
    AudioPart,
    FilePart,
    ImagePart,
    ReasoningPart,
    Request,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)
from ..generated.spec_types import ImageTokens, TokenEstimate

__all__ = ["estimate_request", "image_size", "image_tokens", "pdf_pages"]

_HEAD = 87_384  # base64 characters read for an image header (64 KiB: JPEG's SOF after EXIF)
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_PAGE = re.compile(rb"/Type\s*/Page(?![A-Za-z])")
_DATA_URL = re.compile(r"^data:[^;,]*;base64,")


def _decode(data: str, limit: int | None = None) -> bytes:
    data = _DATA_URL.sub("", data, count=1)
    if limit is not None:
        data = data[: limit - limit % 4]
    try:
        return base64.b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        return b""


def image_size(data: str) -> tuple[int, int] | None:
    """(width, height) of a base64 PNG, JPEG, GIF or WebP image, from its header."""
    b = _decode(data, _HEAD)
    if b[:8] == b"\x89PNG\r\n\x1a\n" and len(b) >= 24:
        w, h = struct.unpack(">II", b[16:24])
        return int(w), int(h)
    if b[:6] in (b"GIF87a", b"GIF89a") and len(b) >= 10:
        w, h = struct.unpack("<HH", b[6:10])
        return int(w), int(h)
    if b[:4] == b"RIFF" and b[8:12] == b"WEBP" and len(b) >= 30:
        kind = b[12:16]
        if kind == b"VP8X":
            return 1 + int.from_bytes(b[24:27], "little"), 1 + int.from_bytes(b[27:30], "little")
        if kind == b"VP8 ":
            w, h = struct.unpack("<HH", b[26:30])
            return int(w) & 0x3FFF, int(h) & 0x3FFF
        if kind == b"VP8L":
            x = b[21:25]
            w = 1 + (((x[1] & 0x3F) << 8) | x[0])
            h = 1 + (((x[3] & 0xF) << 10) | (x[2] << 2) | ((x[1] & 0xC0) >> 6))
            return w, h
    if b[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(b):
            if b[i] != 0xFF:
                i += 1
                continue
            marker = b[i + 1]
            if marker in _SOF:
                h, w = struct.unpack(">HH", b[i + 5 : i + 9])
                return int(w), int(h)
            if marker == 0xFF or marker == 0x01 or 0xD0 <= marker <= 0xD9:
                i += 1 if marker == 0xFF else 2
                continue
            i += 2 + struct.unpack(">H", b[i + 2 : i + 4])[0]
    return None


def _scale(w: float, h: float, factor: float) -> tuple[float, float]:
    return (w * factor, h * factor) if factor < 1 else (w, h)


def image_tokens(rule: ImageTokens, size: tuple[int, int] | None, detail: str | None) -> int:
    """One image's tokens by the row's formula (``size`` None: unknown)."""
    if detail == "low" and rule.low_detail is not None:
        return rule.low_detail
    if size is None or size[0] <= 0 or size[1] <= 0:
        return rule.unknown
    w, h = float(size[0]), float(size[1])
    if rule.rule == "area":
        if rule.max_edge:
            w, h = _scale(w, h, rule.max_edge / max(w, h))
        if rule.max_pixels:
            w, h = _scale(w, h, math.sqrt(rule.max_pixels / (w * h)))
        return max(1, math.ceil(w * h / rule.divisor))
    if rule.small is not None and rule.small_tokens is not None and max(w, h) <= rule.small:
        return rule.small_tokens
    if rule.fit:
        w, h = _scale(w, h, rule.fit / max(w, h))
    if rule.short_side:
        w, h = _scale(w, h, rule.short_side / min(w, h))
    tiles = math.ceil(w / rule.tile) * math.ceil(h / rule.tile)
    return rule.base + rule.per_tile * tiles


def pdf_pages(data: str) -> int:
    """Pages of a base64 PDF (its page objects; 1 when they are compressed out of sight)."""
    return max(1, len(_PAGE.findall(_decode(data))))


class _Count:
    __slots__ = ("row", "chars", "media")

    def __init__(self, row: TokenEstimate | None) -> None:
        self.row = row
        self.chars = 0
        self.media = 0

    def part(self, p: Any) -> None:
        t = type(p)
        if t is TextPart or t is ReasoningPart:
            self.chars += len(p.text)
        elif t is ToolCallPart:
            self.chars += len(p.name) + len(p.arguments)
        elif t is ToolResultPart:
            for c in p.content or ():
                self.part(c)
        elif self.row is None:
            return
        elif t is ImagePart:
            src = p.data or (p.url if p.url and p.url.startswith("data:") else None)
            size = image_size(src) if src else None
            self.media += image_tokens(self.row.image, size, p.detail)
        elif t is FilePart:
            if p.text is not None:
                self.chars += len(p.text)
            elif p.data and (p.media_type == "application/pdf" or p.data.startswith("JVBER")):
                self.media += self.row.document_page * pdf_pages(p.data)
            else:
                self.media += self.row.media
        elif t is AudioPart:
            self.media += self.row.media


def estimate_request(req: Request, row: TokenEstimate | None) -> int:
    """The estimated input tokens of ``req`` (``row``: the provider's formulas; None: text
    only, media not counted)."""
    c = _Count(row)
    for m in req.messages:
        for p in m.parts:
            c.part(p)
    for tool in req.tools:
        c.chars += len(tool.name) + len(tool.description or "")
        if tool.parameters:
            c.chars += len(orjson.dumps(tool.parameters))
    per = row.chars_per_token if row is not None else 4.0
    return max(1, math.ceil(c.chars / per) + c.media)
