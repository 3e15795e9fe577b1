"""The named transforms' rows (spec/canonical.yaml ``transforms``), checked both ways: a row's
object must be one runtime/transforms defines and what it needs must be flags and protocol rows
that exist; a protocol naming a transform must have the flags and give the rows it needs (the
compiled code the transform calls is emitted for them alone: the turn walk for tool results in
user turns, the message functions for a ``messages`` section, ...), and a protocol giving rows
a request transform reads must name it (no compiled code walks the request with them otherwise).
Each problem is a (key path, message) pair for codegen/checks.py, which adds the file, the line
and the row."""

from __future__ import annotations

import ast
import types
import typing
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import BaseModel, TypeAdapter, ValidationError

from .canonical_model import CanonicalSpec, TransformRow
from .source import Loc
from .spec_model import Flags, ProtocolSpec

__all__ = [
    "canonical_transform_problems",
    "dialect_transform_problems",
    "protocol_transform_problems",
]

# where the named transforms live (a row's object is module.OBJECT in this package)
TRANSFORMS_DIR = Path(__file__).resolve().parent.parent / "runtime" / "transforms"


class Compiled(NamedTuple):
    """What a transform row ``compiled: <name>`` must need for every protocol naming it to have
    the codec's decode_<name> / encode_<name>: the flags and the rows they are emitted for."""

    flags: dict[str, str | bool]
    rows: tuple[str, ...]
    side: str = "request"  # the body they walk (the row's side)

    def says(self) -> str:
        need = [f"flags.{k}: {v}" for k, v in self.flags.items()]
        need += [f"rows: [{', '.join(self.rows)}]"] if self.rows else []
        need += [f"side: {self.side}"] * (self.side != "request")
        return ", ".join(need) or "no flags, no rows"


# the codec's functions compiled from rows, by the name a transform row calls them with
COMPILED = {
    "response_format": Compiled({}, ("response_format",)),  # codegen/settings_format.py
    "reasoning_config": Compiled({}, ("reasoning",)),  # codegen/settings_reasoning.py
    "messages": Compiled({}, ("messages",)),  # codegen/messages_flat.py
    "turns": Compiled({"tool_results": "user_turn_blocks"}, ()),  # codegen/turns_code.py
    "tools": Compiled({}, ()),  # templates/_codec_tools.j2 (tool_type, tool_entries)
    # templates/_codec_message_response.j2
    "message_response": Compiled(
        {}, ("response_envelope.message", "response_envelope.content"), "response"
    ),
}


@cache
def _module_names(module: str) -> set[str] | None:
    """The top-level names runtime/transforms/<module>.py assigns or defines (None: no file)."""
    path = TRANSFORMS_DIR / f"{module}.py"
    if not module.isidentifier() or not path.is_file():
        return None
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def transform_problem(target: str) -> str | None:
    """Why ``module.OBJECT`` names no object runtime/transforms defines (None: it does)."""
    module, _, obj = target.rpartition(".")
    names = _module_names(module) if module else None
    if names is None:
        return f"no module runtime/transforms/{module or target}.py (expected module.OBJECT)"
    if obj not in names:
        return f"runtime/transforms/{module}.py defines no {obj}"
    return None


def _row_path_problem(path: str) -> str | None:
    """Why the key path ``path`` names no row of a protocol file (None: it does)."""
    model: Any = ProtocolSpec
    for seg in path.split("."):
        if model is None:
            return f"{path.partition('.' + seg)[0]} holds no keys ({seg!r})"
        field = model.model_fields.get(seg)
        if field is None:
            known = ", ".join(sorted(model.model_fields))
            return f"{seg!r} is no key of {model.__name__} (expected one of {known})"
        ann = field.annotation  # a nested section, or one that may be absent (X | None)
        args = typing.get_args(ann) if isinstance(ann, types.UnionType) else (ann,)
        model = next((a for a in args if isinstance(a, type) and issubclass(a, BaseModel)), None)
    return None


def canonical_transform_problems(c: CanonicalSpec) -> list[tuple[Loc, str]]:
    out: list[tuple[Loc, str]] = []
    for name, row in c.transform_rows().items():
        at: Loc = ("transforms", name)
        if (row.object is None) == (row.compiled is None):
            out.append((at, "expected one of object (module.OBJECT) and compiled"))
        elif row.object is not None and (problem := transform_problem(row.object)):
            out.append((at, f"{row.object}: {problem}"))
        elif row.compiled is not None and (problem := _compiled_problem(row)):
            out.append(((*at, "compiled"), problem))
        elif row.compiled is not None and row.side != (side := COMPILED[row.compiled].side):
            out.append(((*at, "side"), f"the compiled functions walk the {side}"))
        for flag, value in row.flags.items():
            field = Flags.model_fields.get(flag)
            if field is None or field.annotation is None:
                out.append(
                    ((*at, "flags", flag), f"no flag {flag!r} (a key of a protocol's flags)")
                )
                continue
            try:
                TypeAdapter(field.annotation).validate_python(value, strict=True)
            except ValidationError:
                out.append(((*at, "flags", flag), f"{value!r} is no value of flags.{flag}"))
        for i, path in enumerate(row.rows):
            if problem := _row_path_problem(path):
                out.append(((*at, "rows", i), problem))
    return out


def _compiled_problem(row: TransformRow) -> str | None:
    """Why ``row.compiled`` names no functions every protocol naming the row has (None: it
    does)."""
    need = COMPILED.get(row.compiled or "")
    if need is None or not (
        need.flags.items() <= row.flags.items() and set(need.rows) <= set(row.rows)
    ):
        known = "; ".join(f"{k} ({v.says()})" for k, v in COMPILED.items())
        got = Compiled(row.flags, tuple(row.rows)).says()
        return f"{row.compiled!r} with {got} names no compiled functions (expected one of {known})"
    return None


def _given(p: ProtocolSpec, path: str) -> bool:
    v: Any = p
    for seg in path.split("."):
        v = getattr(v, seg, None)
    return v is not None and v != [] and v != {}


def _unmet_flags(row: TransformRow, flags: Flags) -> list[tuple[str, Any, Any]]:
    """(flag, the value the transform needs, the protocol's) for each flag it needs otherwise."""
    got = {flag: getattr(flags, flag, None) for flag in row.flags}
    return [(flag, want, got[flag]) for flag, want in row.flags.items() if got[flag] != want]


def dialect_transform_problems(
    c: CanonicalSpec, base: ProtocolSpec, flags: Flags
) -> list[tuple[Loc, str]]:
    """The flags a dialect (spec/dialects) sets that a transform of its base protocol needs
    otherwise, at the dialect's own flag."""
    rows = c.transform_rows()
    return [
        (("flags", flag), f"{base.id}'s transform {name} needs flags.{flag}: {want} (got {got})")
        for name in base.transforms
        if name in rows
        for flag, want, got in _unmet_flags(rows[name], flags)
    ]


def protocol_transform_problems(c: CanonicalSpec, p: ProtocolSpec) -> list[tuple[Loc, str]]:
    """The protocol's transforms that canonical.yaml lacks, or whose needs it does not meet."""
    rows = c.transform_rows()
    out: list[tuple[Loc, str]] = []
    for i, name in enumerate(p.transforms):
        row = rows.get(name)
        if row is None:
            out.append(
                (
                    ("transforms", i),
                    f"unknown transform {name!r} (expected one of canonical.yaml transforms: "
                    f"{', '.join(rows)})",
                )
            )
            continue
        for flag, want, got in _unmet_flags(row, p.flags):
            out.append(
                (("transforms", i), f"transform {name} needs flags.{flag}: {want} (got {got})")
            )
        for path in row.rows:
            if not _given(p, path):
                out.append((("transforms", i), f"transform {name} needs `{path}`"))
    return out + _unread_row_problems(rows, p)


def _unread_row_problems(rows: dict[str, TransformRow], p: ProtocolSpec) -> list[tuple[Loc, str]]:
    """The rows the protocol gives that request transforms read, none of them named by it: no
    compiled code walks the request with them (the rows a transform needs, the other way round)."""
    readers: dict[str, list[str]] = {}
    for name, row in rows.items():
        for path in row.rows if row.side == "request" else ():
            readers.setdefault(path, []).append(name)
    return [
        (
            tuple(path.split(".")),
            f"{path} rows are read by the {' or '.join(names)} transform alone",
        )
        for path, names in readers.items()
        if _given(p, path) and not set(names) & set(p.transforms)
    ]
