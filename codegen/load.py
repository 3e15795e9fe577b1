"""Load and validate the spec. A bad spec fails with the file, the line, the row and what was
expected (every problem found, one per line); nothing is written then."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, get_args, get_origin

from pydantic import BaseModel, ValidationError

from .canonical_model import CanonicalSpec
from .checks import check_canonical, check_protocol
from .dialects import Dialect, load_dialect
from .embed_model import EmbedSpec, load_embeddings
from .source import SourceFile, SpecError
from .spec_model import ProtocolSpec

__all__ = ["Spec", "SpecError", "load_spec"]

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Spec:
    canonical: CanonicalSpec
    protocols: list[ProtocolSpec]
    sources: dict[str, Path]
    dialects: list[Dialect] = field(default_factory=list)
    embeddings: EmbedSpec | None = None  # spec/embeddings, when the folder exists


def _validate(src: SourceFile, model: type[M]) -> M | None:
    try:
        return model.model_validate(src.data)
    except ValidationError as e:
        for err in e.errors():
            loc = tuple(err["loc"])
            msg = err["msg"]
            if err["type"] == "extra_forbidden":
                allowed = _allowed_keys(model, loc[:-1])
                if allowed:
                    msg = f"unknown key (expected one of {', '.join(allowed)})"
            src.error(loc, f"{msg} (got {err.get('input')!r:.80})")
        return None


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


# flags one protocol at most may set: what the runtime does for it speaks that one protocol
_ONLY_ONE = {
    "call_id_signatures": "call ids carrying signatures (the envelope names no owner)",
    "server_state": "server-side conversation state (the gateway emulates one API's)",
}


def _only_one(protocols: list[ProtocolSpec], files: list[SourceFile]) -> None:
    """The flags of ``_ONLY_ONE``: a second protocol setting one is refused (a dialect's, in the
    dialect loop)."""
    for flag, what in _ONLY_ONE.items():
        first = None
        for p, src in zip(protocols, files, strict=True):
            if getattr(p.flags, flag):
                if first is not None:
                    src.error(("flags", flag), f"a second protocol with {what}; first: {first}")
                first = first or p.id


def load_spec(root: Path) -> Spec:
    """Read ``root``/canonical.yaml, ``root``/protocols/*.yaml and the overlays in
    ``root``/dialects/*.yaml; SpecError lists every problem."""
    canonical_src = SourceFile.load(root / "canonical.yaml")
    canonical = _validate(canonical_src, CanonicalSpec)
    if canonical is not None:
        check_canonical(canonical, canonical_src)
    canonical_src.raise_if_any()  # protocols are checked against a sound canonical model only
    assert canonical is not None
    files = [canonical_src]
    protocols: list[ProtocolSpec] = []
    loaded: list[SourceFile] = []
    sources = {"canonical": canonical_src.path}
    for path in sorted((root / "protocols").glob("*.yaml")):
        src = SourceFile.load(path)
        files.append(src)
        proto = _validate(src, ProtocolSpec)
        if proto is None:
            continue
        check_protocol(canonical, proto, src)
        protocols.append(proto)
        loaded.append(src)
        sources[proto.id] = path
    by_id = {p.id: (p, f) for p, f in zip(protocols, loaded, strict=True)}
    dialects: list[Dialect] = []
    for path in sorted((root / "dialects").glob("*.yaml")):
        src, dialect = load_dialect(path, canonical, by_id)
        files.append(src)
        for flag in sorted(_ONLY_ONE.keys() & (dialect.spec.flags if dialect else {})):
            src.error(("flags", flag), "a protocol's flag, not a dialect's")
        if dialect is not None:
            dialects.append(dialect)
            sources[dialect.module] = path
    _only_one(protocols, loaded)
    embeddings, embed_files = load_embeddings(root, {p.id for p in protocols})
    files += embed_files
    errors = [e for f in files for e in f.errors]
    if errors:
        raise SpecError("\n".join(errors))
    return Spec(canonical, protocols, sources, dialects, embeddings)
