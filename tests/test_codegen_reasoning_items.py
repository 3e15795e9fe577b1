"""reasoning_details rows compiled into the codec (codegen/reasoning_items.py,
templates/_codec_reasoning_items.j2) on the tiny inline spec: the generated decode_ and
encode_reasoning_items run; rows the compiled code could not honour are refused with the file,
the line and the row."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from interlingua._losses import Ctx
from interlingua.transforms.envelopes import state_lost

from codegen.__main__ import main
from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

REASONING_PART = """\
  - name: ReasoningPart
    part: reasoning
    feature: text
    fields:
      - {name: text, type: "str", default: "''"}
      - {name: signature, type: "str | None"}
      - {name: redacted, type: "str | None"}
      - {name: owner, type: "str | None"}
      - {name: id, type: "str | None"}
      - {name: ext, type: "dict[str, Any] | None"}
"""
CANON = CANONICAL.replace("  - name: NativePart\n", REASONING_PART + "  - name: NativePart\n")

# the owner's signature is the data of an encrypted item that follows its text (summary) item
ROWS = """\
reasoning_details:
  field: thoughts
  owner_key: origin
  unknown_owner: elsewhere
  id_key: id
  index_key: n
  owners:
    - {format: tiny-1, owner: tiny_v2, signature_in: encrypted, text_item: reasoning.summary}
  items:
    - {type: reasoning.text, text: text, signature: sig}
    - {type: reasoning.summary, text: summary}
    - {type: reasoning.encrypted, encrypted: data}
"""


def with_rows(rows: str) -> str:
    return PROTOCOL.replace("support:\n", rows + "support:\n")


def test_generated_items_read_and_write_the_rows(tmp_path: Path) -> None:
    """An owner's encrypted item is the state of its text before it; an encrypted item of no
    known owner is redacted reasoning; an item type with no row is left to the hint. Written
    back, the owner's text is its text_item and its state an encrypted item; state of an
    owner with no row is reported and not written."""
    codec = generate(tmp_path, with_rows(ROWS), CANON)
    rp = canonical_of(codec).ReasoningPart
    items: list[Any] = [
        {"type": "reasoning.summary", "summary": "think", "origin": "tiny-1"},
        {"type": "reasoning.encrypted", "data": "ENC", "origin": "tiny-1", "id": "rs_1"},
        {"type": "reasoning.encrypted", "data": "RED", "origin": "other"},
        {"type": "reasoning.text", "text": "hm", "sig": "S"},
        {"type": "reasoning.unknown", "text": "skipped"},
    ]
    parts = codec.decode_reasoning_items(items, "m.thoughts")
    assert parts == [
        rp(text="think", signature="ENC", owner="tiny_v2", id="rs_1"),
        rp(text="", redacted="RED"),
        rp(text="hm", signature="S"),
    ]
    ctx = Ctx("tiny_v2", "tiny_v2")
    assert codec.encode_reasoning_items(parts, "m.thoughts", ctx) == [
        {"type": "reasoning.summary", "summary": "think", "origin": "tiny-1", "n": 0},
        {"type": "reasoning.encrypted", "data": "ENC", "origin": "tiny-1", "n": 0, "id": "rs_1"},
        {"type": "reasoning.text", "text": "hm", "origin": "elsewhere", "n": 2},
    ]
    assert [(x.path, x.feature) for x in ctx.losses] == [
        ("m.thoughts[1]", "reasoning_replay"),
        ("m.thoughts[2]", "reasoning_replay"),
    ]
    with pytest.raises(Exception, match=r"m\.thoughts\[0\]"):
        codec.decode_reasoning_items(["not an item"], "m.thoughts")


def refused(tmp_path: Path, rows: str, at: str) -> tuple[str, str]:
    protocol = with_rows(rows)
    spec = write_spec(tmp_path, CANON, protocol)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = protocol[: protocol.index(at)].count("\n") + 1
    return str(info.value), f"{spec / 'protocols' / 'tiny_v2.yaml'}:{line}:"


def test_a_signature_in_a_text_item_without_a_signature_key_is_refused(tmp_path: Path) -> None:
    rows = ROWS.replace("signature_in: encrypted, ", "")
    msg, at = refused(tmp_path, rows, "    - {format: tiny-1")
    assert msg.startswith(f"{at} reasoning_details.owners[0] ")
    assert msg.endswith(
        "the signature of tiny_v2 rides in its text item, but item 'reasoning.summary' has no "
        "`signature` key"
    )


def test_items_without_text_are_refused(tmp_path: Path) -> None:
    rows = ROWS.replace(", text_item: reasoning.summary", "").replace(
        "    - {type: reasoning.text, text: text, signature: sig}\n"
        "    - {type: reasoning.summary, text: summary}\n",
        "",
    )
    msg, at = refused(tmp_path, rows, "  items:")
    assert msg == (
        f"{at} reasoning_details.items: no item row has `text`: reasoning text could not be written"
    )


def test_each_codec_carries_the_opaque_state_its_flags_and_rows_say(tmp_path: Path) -> None:
    """CARRIER, compiled per codec from the flags of every protocol and its own
    reasoning_details owners: whose state reaches its clients (an owner absent: none) and how.
    envelopes.state_lost reads only that table."""
    flags = "  sse_event_names: true\n"
    spec = write_spec(
        tmp_path, CANON, with_rows(ROWS).replace(flags, flags + "  foreign_reasoning: parts\n")
    )
    for pid, extra in (
        ("tiny_v3", "  enveloped_reasoning: true\n"),
        ("tiny_v4", "  call_id_signatures: true\n"),
    ):
        text = PROTOCOL.replace("id: tiny_v2", f"id: {pid}").replace(flags, flags + extra)
        (spec / "protocols" / f"{pid}.yaml").write_text(text, encoding="utf-8")
    assert main(["--spec", str(spec), "--out", str(tmp_path / "out")]) == 0
    codecs = {}
    for pid in ("tiny_v2", "tiny_v3", "tiny_v4"):
        src = (tmp_path / "out" / "generated" / f"{pid}_codec.py").read_text(encoding="utf-8")
        line = next(x for x in src.splitlines() if x.startswith("CARRIER"))
        codecs[pid] = SimpleNamespace(CARRIER=eval(line.partition(" = ")[2]))  # noqa: S307
    assert codecs["tiny_v2"].CARRIER == {"tiny_v3": "parts", "tiny_v4": "ids", "tiny_v2": "own"}
    assert codecs["tiny_v3"].CARRIER == {"tiny_v4": "ids", "tiny_v3": "own"}
    assert codecs["tiny_v4"].CARRIER == {"tiny_v4": "own"}
    v2, v3, v4 = codecs.values()
    # a call's signature rides in its id; any other of its state is lost outside its protocol
    assert state_lost("tiny_v4", "S", None, v3) and not state_lost("tiny_v4", "S", None, v4)
    assert not state_lost("tiny_v3", None, "R", v2) and state_lost("tiny_v3", None, "R", v4)
    assert not state_lost("other", None, None, v2)
