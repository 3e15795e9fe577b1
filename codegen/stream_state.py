"""The state a block keeps, compiled per protocol: generated/<id>_stream.py defines the class of
its decoded blocks (``_Block``, ``ROWS.block``, made by ``Decoder._new``) and of its encoded ones
(``_ItemBlock``, made by the compiled feed) with the slots every block has and, of the others,
exactly those its compiled code reads or writes (a block variable's attribute in the generated
source). A protocol whose rows carry
no opaque state has no slot for it; only grouped blocks have a group."""

from __future__ import annotations

import re

__all__ = ["DECODED", "ENCODED", "block_class"]

# slot -> (initial value, type, what it holds); the slots every block has come first
DECODED: dict[str, tuple[str, str, str]] = {
    "kind": ("kind", "str", "text, reasoning, tool_call or ignored"),
    "key": ("key", "str", "its canonical key"),
    "open": ("True", "bool", ""),
    "call_id": ("None", "str | None", "a call's id, opaque state wrapped in"),
    "sig": ('""', "str", "opaque state, joined as it comes"),
    "redacted": ("None", "str | None", ""),
    "owner": ("None", "str | None", "read from the wire (a row's owner); None: the protocol"),
    "parent": ("None", "str | None", "the wire key it ends with (a row's sub)"),
    "fresh": ("True", "bool", "no delta since it opened (or since its last separator)"),
    "acc": ("None", "Any", "(assemble transform, its state): arguments joined at the end"),
}
_DECODED_ALWAYS = 3

ENCODED: dict[str, tuple[str, str, str]] = {
    "kind": ("kind", "str", "text, reasoning, tool_call or group"),
    "ev": ("ev", "Any", "the start event (tool calls: id and name)"),
    "key": ("key", "str", "canonical key"),
    "index": ("-1", "int", ""),
    "started": ("False", "bool", "its start event went out"),
    "ended": ("False", "bool", ""),
    "args": ("False", "bool", "argument text went out"),
    "queued": ("None", "list[str] | None", "argument pieces of a call waiting (sequential)"),
    "wid": ('""', "str", "wire item id (codec.ITEM_ID_PREFIXES)"),
    "group": ("None", "Any", "the group it is in"),
    "part": ("0", "int", "position in its group"),
    "pieces": ("[]", "list[str]", "its text / arguments (kinds the templates read)"),
    "deltas": ("0", "int", "deltas sent (kinds the templates read)"),
    "parts": ("{}", "dict[int, Any]", "a group: finished parts by position"),
    "children": ("[]", "list[Any]", "a group: its blocks"),
}
_ENCODED_ALWAYS = 6
# variables of the generated code that are no block
_NOT_BLOCKS = frozenset({"s", "m", "ev", "d", "w", "_v", "self", "out", "item", "u"})


def block_class(name: str, code: str, decoded: bool) -> str:
    """The source of class ``name``, with the slots ``code`` uses."""
    table, always = (DECODED, _DECODED_ALWAYS) if decoded else (ENCODED, _ENCODED_ALWAYS)
    used = {a for v, a in re.findall(r"\b(\w+)\.(\w+)\b", code) if v not in _NOT_BLOCKS}
    slots = [s for i, s in enumerate(table) if i < always or s in used]
    params = [s for s in slots if table[s][0] == s]
    what = "A decoded block" if decoded else "A block (or a group of blocks) on the wire"
    lines = [
        f"class {name}:",
        f'    """{what}: the state this protocol\'s compiled code keeps."""',
        "",
        f"    __slots__ = {tuple(slots)!r}",
        "",
        f"    def __init__(self, {', '.join(f'{p}: {table[p][1]}' for p in params)}) -> None:",
    ]
    for s in slots:
        value, typ, note = table[s]
        lines.append(f"        self.{s}: {typ} = {value}" + (f"  # {note}" if note else ""))
    return "\n".join(lines)
