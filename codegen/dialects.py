"""Dialects: ``spec/dialects/<name>.yaml``, a rows-only overlay on one protocol (OpenRouter,
DeepSeek, Groq on OpenAI Chat). The overlay names its base protocol and holds only the sections it
changes; codegen checks every row against the base and canonical.yaml (file and line, like the
rest of the spec), merges, and renders the variant as ``generated/<protocol>__<name>_codec.py``
(and ``_stream.py``). The runtime picks the variant by ``dialect=``; it never names one.

Merge rules, one per section:

- ``flags``: keys of the base's flags, replaced one by one;
- ``request_fields`` / ``response_fields`` / ``usage_fields``: a row for a canonical field the
  base has replaces the base row, any other row is added;
- ``native_parts``: added; ``support``: entries replaced (a dialect's own notes);
- ``reasoning_details``: the typed reasoning item list (a section the base may not have);
- ``stream``: decode rows added (``after:`` / ``replaces:`` a base row, given by some of its
  keys), encode templates replaced (see ``codegen.dialect_stream``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from .canonical_model import CanonicalSpec
from .checks import USAGE_VIRTUAL, _ProtocolChecks, _unique, check_flag_rows
from .dialect_stream import StreamOverlay, merge_stream
from .messages_flat import key_problems
from .reasoning_items import check_reasoning_items
from .source import SourceFile
from .spec_http import Strict
from .spec_model import (
    FieldRow,
    Flags,
    ProtocolSpec,
    ReasoningDetails,
    Support,
)
from .transform_rows import dialect_transform_problems

__all__ = ["Dialect", "DialectSpec", "load_dialect"]

FIELD_GROUPS = {"request_fields": "Request", "response_fields": "Response", "usage_fields": "Usage"}


class DialectSpec(Strict):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="the file name; dialect= value")
    protocol: str = Field(description="id of the base protocol")
    title: str
    note: str = ""
    flags: dict[str, Any] = Field(default_factory=dict, description="base flags replaced")
    request_fields: list[FieldRow] = Field(default_factory=list)
    response_fields: list[FieldRow] = Field(default_factory=list)
    usage_fields: list[FieldRow] = Field(default_factory=list)
    native_parts: list[str] = Field(default_factory=list)
    reasoning_details: ReasoningDetails | None = None
    stream: StreamOverlay | None = None
    support: dict[str, Support] = Field(default_factory=dict)


@dataclass(frozen=True)
class Dialect:
    spec: DialectSpec
    protocol: ProtocolSpec  # the base with the overlay merged in
    path: Path

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def module(self) -> str:
        """Stem of the generated modules: ``openai_chat__openrouter``."""
        return f"{self.protocol.id}__{self.spec.name}"


def _flags(d: DialectSpec, base: ProtocolSpec, src: SourceFile) -> Flags | None:
    known = Flags.model_fields
    bad = False
    for k in d.flags:
        if k not in known:
            src.error(("flags", k), f"unknown flag (expected one of {', '.join(sorted(known))})")
            bad = True
    if bad:
        return None
    try:
        return Flags.model_validate({**base.flags.model_dump(exclude_unset=True), **d.flags})
    except ValidationError as e:
        for err in e.errors():
            src.error(("flags", *err["loc"]), f"{err['msg']} (got {err.get('input')!r:.80})")
        return None


def _rows(base: list[FieldRow], top: list[FieldRow]) -> list[FieldRow]:
    mine = {r.c: r for r in top}
    out = [mine.pop(r.c, r) for r in base]
    return out + list(mine.values())


def _check_reasoning(rd: ReasoningDetails, protocols: dict[str, Any], src: SourceFile) -> None:
    loc = ("reasoning_details",)
    for i, o in enumerate(rd.owners):
        if o.owner not in protocols:
            src.error(
                (*loc, "owners", i, "owner"),
                f"unknown protocol {o.owner!r} (expected one of {', '.join(sorted(protocols))})",
            )
    _unique(src, (*loc, "owners"), rd.owners, lambda o: o.format, "an owner row for {k!r}")
    _unique(src, (*loc, "owners"), rd.owners, lambda o: o.owner, "a row for owner {k!r}")
    _unique(src, (*loc, "items"), rd.items, lambda r: r.type, "an item row for type {k!r}")
    for i, r in enumerate(rd.items):
        if r.text is None and r.encrypted is None:
            src.error((*loc, "items", i), "an item row needs `text` or `encrypted`")
    texts = {r.type for r in rd.items if r.text is not None}
    for i, o in enumerate(rd.owners):
        if o.text_item is not None and o.text_item not in texts:
            src.error(
                (*loc, "owners", i, "text_item"),
                f"no item row with `text` has type {o.text_item!r} "
                f"(expected one of {', '.join(sorted(texts))})",
            )
    if not any(r.encrypted for r in rd.items) and any(
        o.signature_in == "encrypted" for o in rd.owners
    ):
        src.error(
            (*loc, "items"),
            "an owner keeps its signature in an encrypted item: an item row needs `encrypted`",
        )


def load_dialect(
    path: Path,
    canonical: CanonicalSpec,
    protocols: dict[str, tuple[ProtocolSpec, SourceFile]],
) -> tuple[SourceFile, Dialect | None]:
    """Read one overlay; problems are recorded on the returned SourceFile."""
    src = SourceFile.load(path)
    try:
        d = DialectSpec.model_validate(src.data)
    except ValidationError as e:
        for err in e.errors():
            src.error(tuple(err["loc"]), f"{err['msg']} (got {err.get('input')!r:.80})")
        return src, None
    if d.name != path.stem:
        src.error(("name",), f"expected {path.stem!r} (the file name), got {d.name!r}")
    got = protocols.get(d.protocol)
    if got is None:
        src.error(
            ("protocol",),
            f"unknown protocol {d.protocol!r} (expected one of {', '.join(sorted(protocols))})",
        )
        return src, None
    base, base_src = got
    changed = set(d.model_fields_set) - {"name", "protocol", "title", "note"}
    if not changed:
        src.error(("name",), "the dialect changes nothing (give the sections it changes)")
    flags = _flags(d, base, src)
    for loc, msg in dialect_transform_problems(canonical, base, flags) if flags else ():
        src.error(loc, msg)
    update: dict[str, Any] = {"flags": flags or base.flags}
    checks = _ProtocolChecks(canonical, base, src)
    for group, tname in FIELD_GROUPS.items():
        rows: list[FieldRow] = getattr(d, group)
        virtual = USAGE_VIRTUAL if group == "usage_fields" else {}
        checks.fields((group,), rows, tname, virtual)
        update[group] = _rows(getattr(base, group), rows)
    for i, n in enumerate(d.native_parts):
        if n in base.native_parts:
            src.error(("native_parts", i), f"{base.id} already keeps native part {n!r}")
    _unique(src, ("native_parts",), d.native_parts, lambda n: n, "native part {k!r}")
    update["native_parts"] = base.native_parts + d.native_parts
    for fid in d.support:
        checks.feature(("support", fid), fid)
    update["support"] = {**base.support, **d.support}
    if d.reasoning_details is not None:
        _check_reasoning(d.reasoning_details, protocols, src)
        check_reasoning_items(d.reasoning_details, src)
        update["reasoning_details"] = d.reasoning_details
    if d.stream is not None:
        merged = merge_stream(base, base_src, d.stream, src)
        if merged is not None:
            update["stream"] = merged
    proto = base.model_copy(update=update)
    for loc, msg in key_problems(proto, frozenset(d.flags)):  # its flags against the base's rows
        src.error(loc, msg)
    if d.flags:  # the base's turn and item rows, read as its flags say (shown at its flags)
        src.fallback = ("flags",)
        check_flag_rows(canonical, proto, src)
    if src.errors:
        return src, None
    return src, Dialect(d, proto, path)
