"""Item-list rows: ``items:`` in spec/protocols/*.yaml, for a protocol whose messages, tool
calls, tool results and reasoning are typed items of one list (OpenAI Responses ``input`` and
``output``; flags ``tool_calls: items``). Compiled into the protocol's codec
(templates/_codec_items.j2: decode_item, decode_message, encode_message, encode_item) with the
rows' keys as literals; the responses_items transform walks the list with them (grouping,
item ids) and holds no wire name of its own but the request keys it owns.

The item types other than messages are the part rows' own (the row of a tool call, a tool result
or reasoning): codegen derives them (item type -> item kind), with the tool result's content
key and the reasoning row's keys, so a row says each fact once (the item id prefixes are the
stream's encode rows', the codec's ``ITEM_ID_PREFIXES``, read by responses and streams alike). ``hints`` (an item kind's bookkeeping keys) and ``new`` (what an
item made here gets) become steps of the kind's compiled functions. Checked here against the part
rows and canonical.yaml; every problem names the file, the line and the row."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from .spec_http import Strict

if TYPE_CHECKING:
    from .canonical_model import CanonicalSpec
    from .source import SourceFile
    from .spec_model import ProtocolSpec

__all__ = ["ItemsSpec", "check_items", "items_code"]

ITEM_PARTS = ("tool_call", "tool_result", "reasoning")  # part kinds that are items of their own
ItemKind = Literal["message", "tool_call", "tool_result", "reasoning"]


class FileUrl(Strict):
    """A file part that keeps data URLs in one key and plain URLs in another."""

    type: str = Field(description="type of the file part (a `file` part row's)")
    data: str = Field(description="key of data URLs (the row's data_url field)")
    url: str = Field(description="key of plain URLs")


class ItemsSpec(Strict):
    message: str = Field(description="type of a message item (an item with no type is one too)")
    hints: dict[ItemKind, list[str]] = Field(
        default_factory=dict,
        description="by item kind, the item's keys that are bookkeeping (id, status; a "
        "message's type): hints, written back only to this protocol, never reported as lost",
    )
    text_types: dict[str, str] = Field(
        description="a message's text part type by role (`other`: every other role), each a "
        "text part row's type; `other` is the type the text row encodes"
    )
    text_lists: dict[str, Literal["always", "output"]] = Field(
        default_factory=dict,
        description="list keys of a text part whose type is not `other`'s, written empty: "
        "`always`, or only in a response (`output`); the source's own form is kept as a hint",
    )
    new: dict[Literal["input", "output"], dict[ItemKind, dict[str, Any]]] = Field(
        default_factory=dict,
        description="by side (a request's `input`, a response's `output`) and item kind, the "
        "keys an item made here (not given back from hints) gets when it has none",
    )
    reasoning_text: list[str] = Field(
        min_length=1,
        description="keys of a reasoning item's text part lists: the texts of the first "
        "non-empty one are its text; the first is the one written",
    )
    summary_type: str = Field(description="type of a reasoning text part written here")
    separator: str = Field("\n\n", description="joins a reasoning item's texts")
    file_url: FileUrl | None = None
    state: list[str] = Field(
        default_factory=list,
        description="request keys naming conversation state stored by the server that made "
        "them (`previous_response_id`): back to this protocol they ride in ext (a null one is "
        "written back); toward another the request is refused (UnsupportedFeature)",
    )


def _row_types(p: ProtocolSpec, kind: str, encoding: bool = False) -> list[str]:
    return [
        t
        for r in p.parts
        if r.part == kind and not (encoding and r.decode_only)
        for t in [r.match.get("type")]
        if type(t) is str
    ]


def check_items(c: CanonicalSpec, p: ProtocolSpec, src: SourceFile) -> None:
    """The items rows against the flags, the part rows and the canonical roles."""
    it = p.items
    if it is None:  # a transform that reads the rows needs them (codegen/transform_rows.py)
        return
    if p.flags.tool_calls != "items" or p.flags.tool_results != "items":
        src.error(("items",), "item rows need flags tool_calls: items and tool_results: items")
    part_types = {t for r in p.parts for t in [r.match.get("type")] if t is not None}
    if it.message in part_types:
        src.error(("items", "message"), f"{it.message!r} is a part row's type, not a message's")
    roles = next((e for e in c.enums if e.name == "Role"), None)
    allowed = {v.value for v in roles.items()} if roles is not None else set()
    texts, encoded = set(_row_types(p, "text")), _row_types(p, "text", encoding=True)
    if "other" not in it.text_types:
        src.error(("items", "text_types"), "needs `other` (the type of every other role)")
    elif it.text_types["other"] not in encoded:
        src.error(
            ("items", "text_types", "other"),
            f"{it.text_types['other']!r} is not the type a text row encodes "
            f"(expected one of {', '.join(encoded)})",
        )
    for role, t in it.text_types.items():
        if role != "other" and role not in allowed:
            src.error(
                ("items", "text_types", role),
                f"{role!r} is not a Role (expected one of {', '.join(sorted(allowed))})",
            )
        if t not in texts:
            src.error(
                ("items", "text_types", role),
                f"{t!r} is not a text part row's type (expected one of {', '.join(sorted(texts))})",
            )
    _check_kinds(c, p, src)
    rows = {f.w.partition(".")[0] for f in p.request_fields}
    for k in it.state:
        if "." in k or k in rows or it.state.count(k) > 1:
            why = "a path" if "." in k else "read by a request row" if k in rows else "named twice"
            src.error(
                ("items", "state"), f"{k!r} is {why}: a state key is a top-level key of its own"
            )
    fu = it.file_url
    if fu is not None and not any(
        r.part == "file"
        and r.match.get("type") == fu.type
        and any(f.w == fu.data and f.type == "data_url" for f in r.fields)
        for r in p.parts
    ):
        src.error(
            ("items", "file_url"),
            f"no `file` part row of type {fu.type!r} has a data_url field {fu.data!r}",
        )


def _check_kinds(c: CanonicalSpec, p: ProtocolSpec, src: SourceFile) -> None:
    """``hints`` and ``new`` name kinds whose items exist; a hint is no key a row reads, of a
    part whose canonical type can hold hints."""
    holds = {t.part for t in c.types if t.part and any(f.name == "hints" for f in t.fields)}
    it = p.items
    assert it is not None
    read: dict[str, set[str]] = {"message": {"role", "content"}}
    for r in p.parts:
        if r.part in ITEM_PARTS:
            read.setdefault(r.part, set(r.match)).update(f.w.partition(".")[0] for f in r.fields)
    at: list[tuple[tuple[str, ...], str]] = [(("items", "hints", k), k) for k in it.hints]
    at += [(("items", "new", side, k), k) for side, kinds in it.new.items() for k in kinds]
    for loc, kind in at:
        if kind not in read:
            src.error(loc, f"no `{kind}` part row: there is no such item")
    for i, r in enumerate(p.parts):  # the compiled decode_item knows an item by its type
        if r.part in ITEM_PARTS and type(r.match.get("type")) is not str:
            src.error(("parts", i, "match"), f"a {r.part} item needs a `type` match (items)")
        for j, f in enumerate(r.fields):
            if r.part == "tool_result" and f.c == "content" and "." in f.w:
                src.error(
                    ("parts", i, "fields", j),
                    f"{f.w!r} is a path: a tool result item's content is a key of the item",
                )
    for kind, kept in it.hints.items():
        for k in kept:
            if "." in k:
                src.error(("items", "hints", kind), f"{k!r} is a path, not a key of the item")
        if kind in read and kind != "message" and kind not in holds:
            src.error(("items", "hints", kind), f"the canonical {kind} part has no `hints` field")
        for k in dict.fromkeys(kept):
            if kept.count(k) > 1:
                src.error(("items", "hints", kind), f"{k!r} is named twice")
            elif k in read.get(kind, ()):
                src.error(
                    ("items", "hints", kind),
                    f"{k!r} is read by the {kind} row (content, not bookkeeping)",
                )


def items_code(p: ProtocolSpec) -> dict[str, Any] | None:
    """What the compiled item functions (templates/_codec_items.j2) are written from: per item
    kind its wire types, hint keys and new-item keys by side, the message's text types and
    lists, the tool result's content key, the reasoning row's keys. Only the steps the rows ask
    for are emitted; nothing reads a row at run time."""
    it = p.items
    if it is None:
        return None
    new_in, new_out = it.new.get("input", {}), it.new.get("output", {})
    kinds = []
    for kind in ITEM_PARTS:
        types = _row_types(p, kind)
        if types:
            hints = tuple(it.hints.get(kind, ()))  # type: ignore[call-overload]
            kinds.append({"kind": kind, "types": tuple(dict.fromkeys(types)), "hints": hints})
    result = next((r for r in p.parts if r.part == "tool_result"), None)
    content = [f.w for f in result.fields if f.c == "content"] if result else []
    other = it.text_types["other"]
    return {
        "message": it.message,
        "kinds": kinds,
        "item_parts": frozenset([*(k["kind"] for k in kinds), "native"]),
        "new": {k: (new_in.get(k, {}), new_out.get(k, {})) for k in {*new_in, *new_out}},  # type: ignore[misc]
        "message_hints": tuple(it.hints.get("message", ())),
        "message_read": frozenset({"type", "role", "content", *it.hints.get("message", ())}),
        "text_types": {r: t for r, t in it.text_types.items() if r != "other"},
        "other": other,
        "always": [k for k, when in it.text_lists.items() if when == "always"],
        "output_lists": [k for k, when in it.text_lists.items() if when == "output"],
        "result_content": content[0] if content else None,
        "reasoning_text": tuple(it.reasoning_text),
        "summary_type": it.summary_type,
        "separator": it.separator,
        "reasoning_nulls": [
            f.w for r in p.parts if r.part == "reasoning" for f in r.fields if "." not in f.w
        ],
        "file_url": it.file_url,
        "state": tuple(it.state),
    }
