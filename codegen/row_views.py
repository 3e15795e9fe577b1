"""What the codec templates need to write code for one row: a field row's paths and
expressions (``FieldView``), the canonical fields a row leaves unmapped, the known keys of
nested wire objects, and the whole view of one part row (recognised by ``present`` / ``match``
/ ``media``, read and written field by field)."""

from __future__ import annotations

import json
from typing import Any

from .canonical_model import CanonicalType
from .spec_model import FieldRow, PartRow, ProtocolSpec
from .wire_shape import shape_reader, shape_writer

PART_GENERIC = {"ext", "hints", "owner", "id"}


class FieldView:
    """A FieldRow plus what the templates need to write code for it."""

    def __init__(self, row: FieldRow, target: str | None = None) -> None:
        self.row = row
        self.segs = row.w.split(".")
        self.leaf = self.segs[-1]
        self.parent_expr = "".join(f".setdefault({json.dumps(s)}, {{}})" for s in self.segs[:-1])
        self.target = target or row.c
        self.encode_expr = ""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.row, name)


def _ctype_fields(ctype: CanonicalType) -> dict[str, Any]:
    return {f.name: f for f in ctype.fields}


def dropped_fields(
    ctype: CanonicalType, mapped: set[str], extra_handled: set[str]
) -> list[dict[str, str]]:
    out = []
    for f in ctype.fields:
        if f.name in mapped or f.name in extra_handled or f.feature is None:
            continue
        cond = "" if f.type.startswith("bool") else " is not None"
        out.append({"name": f.name, "feature": f.feature, "cond": cond})
    return out


def nested_known(paths: list[str]) -> dict[str, set[str]]:
    """Known keys of each known sub-object (one level deep), from dotted wire paths."""
    out: dict[str, set[str]] = {}
    for path in paths:
        segs = path.split(".")
        if len(segs) > 1:
            out.setdefault(segs[0], set()).add(segs[1])
    return out


def split_ext_expr(w: str, known: str, nested_name: str, nested: dict[str, Any]) -> str:
    """``split_ext`` with its common case (every key known) tested inline, when nothing is nested."""
    if nested:
        return f"split_ext({w}, {known}, {nested_name})"
    return f"None if {known}.issuperset({w}) else split_ext({w}, {known})"


def _missing_expr(segs: tuple[str, ...]) -> str:
    """True when the wire path ``segs`` (one or two keys) is absent or null in ``w``."""
    first = json.dumps(segs[0])
    if len(segs) == 1:
        return f"w.get({first}) is None"
    return f"type(w.get({first})) is not dict or w[{first}].get({json.dumps(segs[1])}) is None"


def part_row_view(p: ProtocolSpec, row: PartRow, ctype: CanonicalType, fn: str) -> dict[str, Any]:
    fields = [FieldView(f) for f in row.fields]
    literal: dict[str, Any] = {}
    for path, const in row.match.items():
        cur = literal
        segs = path.split(".")
        for s in segs[:-1]:
            cur = cur.setdefault(s, {})
        cur[segs[-1]] = const
    tests = []
    if row.present is not None:
        tests.append(f"{json.dumps(row.present)} in w")
    if row.media is not None:
        mf = next(f for f in row.fields if f.c == "media_type")
        tests.append(
            f"str(dig(w, {json.dumps(mf.w.split('.'))}, path) or '').startswith({json.dumps(row.media)})"
        )
    for path, const in row.match.items():
        segs = path.split(".")
        one = len(segs) == 1
        value = f"w.get({json.dumps(segs[0])})" if one else f"dig(w, {json.dumps(segs)}, path)"
        # a flag (Gemini's `thought: true`) is `True` itself, not a value equal to it (1)
        tests.append(
            f"{value} is {const}" if type(const) is bool else f"{value} == {json.dumps(const)}"
        )
    mapped = {f.c for f in row.fields}
    has_data_url = any(f.type == "data_url" for f in row.fields)
    if has_data_url:
        mapped |= {"url", "media_type", "data"}
    ctor: list[tuple[str, str]] = []
    names = _ctype_fields(ctype)
    for f in row.fields:
        if f.type == "data_url":
            ctor += [("url", "v_url"), ("media_type", "v_media_type"), ("data", "v_data")]
        elif f.type == "result_wrap":  # its text, is_error and hints (decode_result)
            mapped.add("is_error")
            ctor += [(f.c, f"[TextPart(text=v_{f.c})]"), ("is_error", "v_is_error")]
            ctor.append(("hints", "v_hints"))
        elif f.default is not None:  # absent on the wire: the row's default
            ctor.append((f.c, f"v_{f.c} if v_{f.c} is not None else {json.dumps(f.default)}"))
        else:
            ctor.append((f.c, f"v_{f.c}"))
        if f.type == "parts" and "hints" in names:
            ctor.append(("hints", f"{{'string': True}} if s_{f.c} else None"))
    if "owner" in names and row.feature == "reasoning_replay":
        ctor.append(("owner", "PROTOCOL"))
    has_ext = "ext" in names
    known = {path.split(".")[0] for path in row.match} | {f.segs[0] for f in fields}
    nested = nested_known([*row.match, *(f.w for f in row.fields)])
    if has_ext:
        ctor.append(
            ("ext", split_ext_expr("w", f"_KNOWN_{fn.upper()}", f"_NESTED_{fn.upper()}", nested))
        )
    # wire paths the encoder always writes although the source may omit them (or send null)
    shape = [tuple(path.split(".")) for path in row.match]
    shape += [tuple(f.segs) for f in fields if f.type == "json_string_text" and f.required]
    # optional arguments (Gemini functionCall.args): "{}" when absent, written back absent
    shape += [tuple(f.segs) for f in fields if f.type == "json_object_text" and not f.required]
    own_hints = any(f.type in ("parts", "result_wrap") for f in row.fields)
    if "hints" in names:
        if own_hints:
            shape = []  # hints carry the string-content flag (the result's form) instead
        else:
            call = f"_shape_{fn}(w)"
            if shape and all(len(segs) <= 2 for segs in shape):
                # inline test for the common case (every path present and not null)
                missing = " or ".join(_missing_expr(segs) for segs in shape)
                call = f"{call} if {missing} else None"
            elif not shape:
                call = "None"
            ctor.append(("hints", call))
    has_shape = "hints" in names and not own_hints
    dropped = dropped_fields(ctype, mapped, PART_GENERIC)
    return {
        "fn": fn,
        "row": row,
        "when": row.whens,
        "fields": fields,
        "literal": literal,
        "test": " and ".join(tests) or "True",
        "ctor": ctor,
        "known": known,
        "nested": nested,
        "shape_reader": shape_reader(f"_shape_{fn}", tuple(shape)) if has_shape else "",
        "shape_writer": shape_writer(tuple(shape)) if has_shape else "",
        "has_shape": has_shape,
        "dropped": dropped,
        "has_ext": has_ext,
        "has_data_url": has_data_url,
    }


def loss_reasons(
    p: ProtocolSpec,
    enc_by_kind: dict[str, list[dict[str, Any]]],
    dropped: list[dict[str, str]],
    unencoded: list[str],
) -> dict[str, str]:
    """The reason a loss of each feature the compiled encoders report gives, from the
    protocol's support row (``<id> <level>: <note>``): the features of the encoded part rows'
    ``encode_only`` and dropped fields, of a kind whose rows all need something (``when``), of
    the other ``dropped`` rows and of the part types with no encoder (``unencoded``). Each is one constant (``_WHY_<FEATURE>``), so a dialect whose
    support rows leave it as it is shares it, and every function using it, with its base
    (codegen/outputs.py link_codec)."""
    enc_views = [v for rows in enc_by_kind.values() for v in rows]
    features = {v["row"].feature for v in enc_views if type(v["row"].encode_only) is str}
    features |= {d["feature"] for v in enc_views for d in v["dropped"]}
    # a part in a tool result that holds text alone (result_wrap) is reported as the row's
    features |= {
        v["row"].feature for v in enc_views if any(f.type == "result_wrap" for f in v["fields"])
    }
    features |= {r[0]["row"].feature for r in enc_by_kind.values() if r and r[-1]["row"].when}
    features |= {d["feature"] for d in dropped} | set(unencoded)
    out = {}
    for f in sorted(features):
        s = p.support[f]
        out[f] = f"{p.id} {s.level}{': ' + s.note if s.note else ''}"
    return out
