"""What the generic encoder adds for item-shaped streams (OpenAI Responses; see the template
variables in codegen/stream_model.py): wire item ids (``rows.ids``), blocks grouped into one
wire item (the encode section's ``group``: text parts in a message item), sequence numbers, the whole text of a
block, the finished items and parts kept for the final object (``$output``, ``$parts``), the
status of items a failure ends. Nothing here knows a protocol by name: the rows say what is used
(the raw error type and opaque reasoning state for the client are read in place by the compiled
templates: codegen/stream_pending.py)."""

from __future__ import annotations

from typing import Any

from ..transforms.responses_item_list import ItemIds

__all__ = ["ItemBlock", "ItemState"]


class ItemBlock:
    """A block (or a group of blocks) on the wire."""

    __slots__ = (
        "kind", "index", "started", "ended", "ev", "args", "queued", "key", "wid", "part",
        "group", "pieces", "deltas", "parts", "children",
    )  # fmt: skip

    def __init__(self, kind: str, ev: Any, key: str = "") -> None:
        self.kind = kind
        self.index = -1
        self.started = False  # its start event went out
        self.ended = False
        self.ev = ev  # the start event (tool calls: id and name)
        self.args = False  # argument text went out
        self.queued: list[str] | None = None  # waiting argument pieces (sequential)
        self.key = key  # canonical key
        self.wid = ""  # wire item id (rows.ids)
        self.part = 0  # position in its group
        self.group: ItemBlock | None = None
        self.pieces: list[str] = []  # its text / arguments (kinds the templates read)
        self.deltas = 0  # deltas sent (kinds the templates read)
        self.parts: dict[int, Any] = {}  # a group: finished parts by position
        self.children: list[ItemBlock] = []  # a group: its blocks

    def all(self) -> str:
        return "".join(self.pieces)

    def kept_parts(self) -> list[Any]:
        return [v for _, v in sorted(self.parts.items())]


class ItemState:
    """Mixed into the encoder: ``cur`` is the block (or group) a template is written for."""

    codec: Any
    pid: str
    id: str
    rows: Any
    counters: dict[str, int]

    def _init_items(self) -> None:
        self.cur: Any = None
        self.seq = 0
        self.status = "completed"  # "incomplete" once the stream fails
        self.kept: dict[int, Any] = {}
        self.ids: ItemIds | None = None
        self.group: ItemBlock | None = None  # the open group (the encode section's group)
        # fields a caller sets on the stream's object (every `$use` body of the templates): the
        # gateway's previous_response_id, store and echoed request fields
        self.envelope: dict[str, Any] = {}

    def next_seq(self) -> int:
        n = self.seq
        self.seq = n + 1
        return n

    def keep(self, item: Any) -> Any:
        """A finished wire item (an end template's ``item_key``), kept for ``$output``."""
        self.kept[self.cur.index] = item
        return item

    def keep_part(self, part: Any) -> Any:
        b = self.cur
        if b.group is not None:
            b.group.parts[b.part] = part
        return part

    def output(self) -> list[Any]:
        return [v for _, v in sorted(self.kept.items())]

    def wire_id(self, kind: str, key: str, index: int) -> str:
        """The block's wire item id (``ItemIds``, the rule responses share): a canonical key
        (a part's is "<item key>:<position>") is the source's own id."""
        if self.ids is None:  # the first item: the stream's id is known
            self.ids = ItemIds(self.rows.ids, self.id)
        return self.ids.take(kind, key.partition(":")[0], index)
