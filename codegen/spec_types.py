"""generated/spec_types.py: the runtime's flag and HTTP types, written from the pydantic spec
models (one declaration of each field), and the Python source of their per-protocol values.

A spec model field becomes a frozen dataclass field: lists become tuples, dicts read-only
Mappings, nested models their generated type; computed fields become plain fields and the methods
a model names in ``runtime_methods`` are copied. The fields it names ``codegen_only`` (facts the
compiled code holds as literals, read by no runtime code) are left out."""

from __future__ import annotations

import inspect
import textwrap
import types
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from .spec_http import CountTokens, HttpAuth, HttpSpec, ImageTokens, ModelListing, TokenEstimate
from .spec_model import Flags
from .spec_turns import ResultWrap, Turns

# spec model -> the runtime type's name, in dependency order
RUNTIME_TYPES: dict[type[BaseModel], str] = {
    ResultWrap: "ResultWrap",
    Turns: "Turns",
    Flags: "ProtocolFlags",
    HttpAuth: "HttpAuth",
    CountTokens: "CountTokens",
    ModelListing: "ModelListing",
    ImageTokens: "ImageTokens",
    TokenEstimate: "TokenEstimate",
    HttpSpec: "HttpSpec",
}


def annotation(tp: Any) -> str:
    """The runtime annotation of a spec model field type."""
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return "Literal[" + ", ".join(repr(a) for a in args) + "]"
    if origin in (Union, types.UnionType):
        return " | ".join(annotation(a) for a in args)
    if origin is list:
        return f"tuple[{annotation(args[0])}, ...]"
    if origin is frozenset:
        return f"frozenset[{annotation(args[0])}]"
    if origin is dict:
        return f"Mapping[{annotation(args[0])}, {annotation(args[1])}]"
    if tp is type(None):
        return "None"
    if tp is Any:
        return "Any"
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return RUNTIME_TYPES[tp]
    if isinstance(tp, type):
        return tp.__name__
    raise TypeError(f"no runtime annotation for {tp!r}")


def _fields(model: type[BaseModel]) -> list[tuple[str, str, str]]:
    """(name, annotation, description) of every runtime field, computed fields last."""
    skip: frozenset[str] = getattr(model, "codegen_only", frozenset())
    out = [
        (name, annotation(f.annotation), f.description or "")
        for name, f in model.model_fields.items()
    ]
    for name, cf in model.model_computed_fields.items():
        out.append((name, annotation(cf.return_type), cf.description or ""))
    return [f for f in out if f[0] not in skip]


def _methods(model: type[BaseModel]) -> list[str]:
    names: tuple[str, ...] = getattr(model, "runtime_methods", ())
    return [textwrap.dedent(inspect.getsource(getattr(model, n))) for n in names]


def render_spec_types(header: str) -> str:
    out = [
        header,
        '"""The runtime types of protocol flags and HTTP calls, from the spec models in',
        'codegen/spec_model.py and codegen/spec_http.py (one declaration of each field)."""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from dataclasses import dataclass",
        "from typing import Any, Literal",
        "",
    ]
    for model, name in RUNTIME_TYPES.items():
        doc = inspect.cleandoc(model.__doc__ or name)
        out += ["", "@dataclass(frozen=True, slots=True, kw_only=True)", f"class {name}:"]
        out += [f'    """{doc}"""', ""]
        for fname, ann, desc in _fields(model):
            if desc:
                out += [f"    # {line}" for line in textwrap.wrap(desc, 94)]
            out.append(f"    {fname}: {ann}")
        for src in _methods(model):
            out += ["", textwrap.indent(src.rstrip(), "    ")]
        out.append("")
    out.append("__all__ = " + repr(list(RUNTIME_TYPES.values())))
    return "\n".join(out) + "\n"


def pysrc(v: Any) -> str:
    """A spec model value as the Python expression building its runtime type."""
    if isinstance(v, BaseModel):
        args = ", ".join(f"{n}={pysrc(getattr(v, n))}" for n, _, _ in _fields(type(v)))
        return f"{RUNTIME_TYPES[type(v)]}({args})"
    if isinstance(v, list | tuple):
        return "(" + "".join(pysrc(x) + ", " for x in v) + ")"
    if isinstance(v, frozenset | set):
        return "frozenset((" + "".join(repr(x) + ", " for x in sorted(v)) + "))"
    return repr(v)
