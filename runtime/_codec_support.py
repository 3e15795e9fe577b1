"""Helpers the generated codecs call: nested reads, extensions, tool-argument objects."""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Container, Sequence
from typing import Any

from ._errors import InvalidInput, brief
from ._losses import Ctx, extension_loss
from ._wire import _kind, expect_dict, parse_json

__all__ = [
    "dig",
    "expect_whole_number",
    "split_ext",
    "drop_ext",
    "said",
    "arguments_object",
    "deep_merge",
    "camel",
    "recase_keys",
    "camel_key",
    "snake_key",
    "text_of",
]


def expect_whole_number(v: Any, path: str) -> int:
    """A wire number with a whole value (a float-typed SDK sends 40.0 for 40), as an int."""
    if type(v) is float and v.is_integer():
        return int(v)
    if type(v) is not int:
        raise InvalidInput(f"expected a whole number, got {brief(v)}", path=path)
    return v


def dig(w: dict[str, Any], segs: Sequence[str], path: str = "") -> Any:
    """The value at the wire path ``segs`` below ``path`` (None when an object on the way is
    absent); a non-object on the way is refused with its path."""
    cur: Any = w
    for i, s in enumerate(segs):
        if cur is None:
            return None
        if i:
            cur = expect_dict(cur, ".".join((path, *segs[:i]) if path else segs[:i]))
        cur = cur.get(s)
    return cur


def split_ext(
    w: dict[str, Any],
    known: frozenset[str],
    nested: dict[str, frozenset[str]] | None = None,
) -> dict[str, Any] | None:
    """Fields of ``w`` with no canonical home, kept so a same-protocol encode is the identity.

    ``nested`` names known sub-objects and their known keys: an unknown key ``b`` inside the
    known object ``a`` is kept as ``"a.b"`` (never dropped in silence)."""
    out: dict[str, Any] | None = None
    if not known.issuperset(w):  # the common case (every key known) allocates nothing
        out = {k: v for k, v in w.items() if k not in known}
    if nested:
        for parent, keys in nested.items():
            sub = w.get(parent)
            if type(sub) is dict and not keys.issuperset(sub):
                out = out or {}
                for k, v in sub.items():
                    if k not in keys:
                        out[f"{parent}.{k}"] = v
    return out


def drop_ext(ext: dict[str, Any], out: dict[str, Any], path: str, ctx: Ctx) -> None:
    """Write source-protocol extensions back when source == target, else report each one.

    A key ``"a.b"`` is key ``b`` of the object ``a`` (see ``split_ext``)."""
    if ctx.same:
        for k, v in ext.items():
            parent, dot, leaf = k.partition(".")
            if dot and type(out.get(parent, {})) is dict:
                out.setdefault(parent, {}).setdefault(leaf, v)
            else:
                out.setdefault(k, v)
        return
    report_ext(ext, path, ctx)


_EMPTY: tuple[Any, ...] = (None, "", [], {})


def said(obj: dict[str, Any], skip: Container[str] = ()) -> dict[str, Any]:
    """The keys of ``obj`` outside ``skip`` whose value says something, to report: an empty one
    (null, "", [], {}: OpenAI's ``annotations: []``, ``logprobs: null``) carries nothing. The
    response path (message_response, a compiled first choice) and the stream machine's fields
    with no canonical home alike."""
    return {k: v for k, v in obj.items() if k not in skip and v not in _EMPTY}


def report_ext(ext: dict[str, Any], path: str, ctx: Ctx) -> None:
    """Report each source-protocol extension as lost (nothing to report when source == target:
    the extensions go back as they came)."""
    if ctx.same:
        return
    for k in ext:
        p = f"{path}.{k}" if path else k
        ctx.losses.append(extension_loss(p, k, ctx.source, ctx.target))


def arguments_object(text: str, path: str, ctx: Ctx) -> dict[str, Any]:
    """Canonical raw JSON text -> object for protocols whose arguments are objects (the response
    rows and the stream encoders alike). Text that is not a JSON object is reported and sent as
    ``{}``, never crashed on."""
    if not text:
        return {}
    try:
        obj = parse_json(text, "arguments")
    except InvalidInput as e:
        err = f"arguments: {e}" if e.path else e.message
    else:
        if type(obj) is dict:
            return obj
        err = f"arguments are JSON {_kind(obj)}, not an object"
    ctx.loss(path, f"{err}; sent as {{}}", "the target needs a JSON object", "tool_call")
    return {}


def deep_merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``top`` written over it, recursively for nested objects."""
    out = dict(base)
    for k, v in top.items():
        b = out.get(k)
        out[k] = deep_merge(b, v) if type(b) is dict and type(v) is dict else v
    return out


def camel(k: str) -> str:
    return re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), k)


def recase_keys(v: Any, depth: int, seen: set[str], names: dict[str, str] | None = None) -> Any:
    """``v`` with the keys of its objects ``depth`` levels deep in camelCase (an API that also
    takes snake_case: Gemini; a list is walked through, no level), ``v`` itself if none changed;
    the snake_case keys go in ``seen``. With ``names`` (a camelCase key -> the snake_case key it
    came as) the way back: those keys renamed. Copies only what changes: a body in camelCase,
    the common case, costs one pass over its keys and no new object."""
    t = type(v)
    if not depth or (t is not dict and t is not list):
        return v
    if t is list:
        items: list[Any] | None = None
        for i, x in enumerate(v):
            tx = type(x)
            if (tx is dict or tx is list) and (y := recase_keys(x, depth, seen, names)) is not x:
                if items is None:
                    items = list(v)
                items[i] = y
        return v if items is None else items
    out: dict[str, Any] | None = None
    for i, (k, x) in enumerate(v.items()):
        tx = type(x)
        y = (
            recase_keys(x, depth - 1, seen, names)
            if depth > 1 and (tx is dict or tx is list)
            else x
        )
        if "_" in k and names is None:
            seen.add(k)
            k = camel(k)
        elif names is not None and k in names:
            k = names[k]
        elif y is x and out is None:
            continue
        if out is None:  # the first change: the keys before it as they were
            out = dict(itertools.islice(v.items(), i))
        out[k] = y
    return v if out is None else out


def camel_key(w: dict[str, Any], key: str, alias: str, depth: int, seen: set[str]) -> Any:
    """``w`` with ``key`` (or its snake_case spelling ``alias``) and its keys ``depth`` levels
    deep in camelCase (``recase_keys``); ``key`` wins when both are there."""
    at = key if key in w or alias not in w else alias
    one = {at: w[at]} if at in w else None
    if one is None or (y := recase_keys(one, depth + 1, seen)) is one:
        return w
    return {**{k: x for k, x in w.items() if k != at}, **y}


def snake_key(out: dict[str, Any], key: str, depth: int, seen: Collection[str]) -> None:
    """Undo ``camel_key`` on a same-protocol encode for the keys that came snake_case (``seen``)."""
    if key in out:
        names = {camel(s): s for s in seen}
        out.update(recase_keys({key: out.pop(key)}, depth + 1, set(), names))


def text_of(v: Any) -> str | None:
    """A wire value that is a non-empty string (reasoning text, state, an id), else None."""
    return v if type(v) is str and v else None
