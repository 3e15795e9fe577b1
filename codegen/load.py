"""Load and validate the spec. A bad spec fails with the file, the key path and what was expected."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError

from .spec_model import CanonicalSpec, ProtocolSpec

M = TypeVar("M", bound=BaseModel)


class SpecError(Exception):
    """A spec file is invalid. The message names the file, the key path and the expectation."""


@dataclass(frozen=True)
class Spec:
    canonical: CanonicalSpec
    protocols: list[ProtocolSpec]
    sources: dict[str, Path]


def _load_file(path: Path, model: type[M]) -> M:
    try:
        raw: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise SpecError(f"{path}: not valid YAML: {e}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        lines = []
        for err in e.errors():
            where = ".".join(str(p) for p in err["loc"]) or "<top>"
            msg = err["msg"]
            if err["type"] == "extra_forbidden":
                allowed = _allowed_keys(model, err["loc"][:-1])
                if allowed:
                    msg = f"unknown key (expected one of {', '.join(allowed)})"
            lines.append(f"{path}: {where}: {msg} (got {err.get('input')!r:.80})")
        raise SpecError("\n".join(lines)) from None


def _allowed_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys the spec model accepts at ``loc`` (for the message on an unknown key)."""
    cur: Any = model
    for seg in loc:
        if isinstance(seg, str):
            found = _model_in(cur)
            field = found.model_fields.get(seg) if found is not None else None
            if field is None:
                return []
            cur = field.annotation
        else:  # a list index: the item type
            args = get_args(cur)
            cur = args[0] if args else None
    found = _model_in(cur)
    return sorted(found.model_fields) if found is not None else []


def _model_in(tp: Any) -> Any:
    """The pydantic model class inside ``tp`` (itself, list[M], M | None, ...), if any."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp
    for arg in get_args(tp):
        found = _model_in(arg)
        if found is not None:
            return found
    if get_origin(tp) in (list, dict) and get_args(tp):
        return _model_in(get_args(tp)[-1])
    return None


def _check_refs(canonical: CanonicalSpec, proto: ProtocolSpec, path: Path) -> None:
    """Cross-file checks pydantic cannot do: features and part kinds must exist."""
    features = {f.id for f in canonical.features}
    parts = {t.part: t for t in canonical.types if t.part}
    errors: list[str] = []

    def feature(where: str, fid: str | None) -> None:
        if fid is not None and fid not in features:
            errors.append(
                f"{path}: {where}: unknown feature {fid!r} (expected one of spec/canonical.yaml features)"
            )

    for i, row in enumerate(proto.parts):
        where = f"parts.{i}"
        feature(where + ".feature", row.feature)
        ctype = parts.get(row.part)
        if ctype is None:
            errors.append(
                f"{path}: {where}.part: unknown part kind {row.part!r} (expected one of {sorted(parts)})"
            )
            continue
        names = {f.name for f in ctype.fields}
        for j, f in enumerate(row.fields):
            feature(f"{where}.fields.{j}.feature", f.feature)
            if f.type != "data_url" and f.c not in names:
                errors.append(
                    f"{path}: {where}.fields.{j}.c: {ctype.name} has no field {f.c!r} (expected one of {sorted(names)})"
                )
        if row.when is not None and row.when not in names:
            errors.append(f"{path}: {where}.when: {ctype.name} has no field {row.when!r}")
    for group in ("request_fields", "response_fields", "tool_fields", "usage_fields"):
        for j, f in enumerate(getattr(proto, group)):
            feature(f"{group}.{j}.feature", f.feature)
    events = {t.event for t in canonical.types if t.event}
    for i, ev in enumerate(proto.stream_events):
        feature(f"stream_events.{i}.feature", ev.feature)
        for j, kind in enumerate(ev.emits):
            if kind not in events:
                errors.append(
                    f"{path}: stream_events.{i}.emits.{j}: unknown canonical event {kind!r} (expected one of {sorted(events)})"
                )
    errors += _check_enum_tables(canonical, proto, path)
    for fid in proto.support:
        feature(f"support.{fid}", fid)
    missing = features - set(proto.support)
    if missing:
        errors.append(f"{path}: support: no entry for features {sorted(missing)}")
    if errors:
        raise SpecError("\n".join(errors))


# protocol enum table -> canonical enum it maps to
ENUM_TABLES = {
    "finish_reasons": "FinishReason",
    "tool_choice": "ToolChoiceMode",
    "roles": "Role",
    "errors": "ErrorType",
}


def _structural_roles(proto: ProtocolSpec) -> set[str]:
    """Roles the flags route without a wire role (tool results in user turns or items, system
    text in a top-level field), so they need no encode row."""
    out = set()
    if proto.flags.tool_results != "tool_messages":
        out.add("tool")
    if proto.flags.system_placement != "in_messages":
        out |= {"system", "developer"}
    return out


def _check_enum_tables(canonical: CanonicalSpec, proto: ProtocolSpec, path: Path) -> list[str]:
    """Every canonical value encodes (a row or a declared default); defaults are real values."""
    values = {e.name: [v.value for v in e.items()] for e in canonical.enums}
    errors = []
    for table, enum_name in ENUM_TABLES.items():
        rows = getattr(proto, table)
        default = getattr(proto.enum_defaults, table)
        allowed = values[enum_name]
        raws = {r.raw for r in rows if r.only != "encode"}
        if default is not None and default.decode is not None and default.decode not in allowed:
            errors.append(
                f"{path}: enum_defaults.{table}.decode: {default.decode!r} is not a {enum_name} "
                f"(expected one of {', '.join(allowed)})"
            )
        if default is not None and default.encode is not None and default.encode not in raws:
            errors.append(
                f"{path}: enum_defaults.{table}.encode: {default.encode!r} is not a raw value of "
                f"a {table} decode row (expected one of {', '.join(sorted(raws))})"
            )
        if default is not None and default.encode is not None:
            continue
        encoded = {r.unified for r in rows if r.only != "decode"}
        exempt = _structural_roles(proto) if table == "roles" else set()
        missing = [v for v in allowed if v not in encoded and v not in exempt]
        if missing:
            errors.append(
                f"{path}: {table}: no encode row for {enum_name} {', '.join(missing)} and no "
                f"enum_defaults.{table}.encode"
            )
    return errors


def load_spec(root: Path) -> Spec:
    canonical_path = root / "canonical.yaml"
    canonical = _load_file(canonical_path, CanonicalSpec)
    protocols: list[ProtocolSpec] = []
    sources = {"canonical": canonical_path}
    for path in sorted((root / "protocols").glob("*.yaml")):
        proto = _load_file(path, ProtocolSpec)
        if proto.id != path.stem:
            raise SpecError(f"{path}: id: expected {path.stem!r} (the file name), got {proto.id!r}")
        _check_refs(canonical, proto, path)
        protocols.append(proto)
        sources[proto.id] = path
    return Spec(canonical, protocols, sources)
