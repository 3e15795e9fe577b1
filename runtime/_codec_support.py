"""Helpers the generated codecs call: nested reads, extensions, tool-argument objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._losses import Ctx
from ._wire import expect_dict, object_from_json_text

__all__ = ["ProtocolFlags", "dig", "split_ext", "drop_ext", "arguments_object", "deep_merge"]


@dataclass(frozen=True, slots=True)
class ProtocolFlags:
    """Typed quirks of a protocol (spec: flags). Runtime code branches on these, never on names."""

    system_placement: str
    system_messages_in_turns: bool
    developer_role: bool
    tool_results: str
    tool_calls: str
    reasoning_fields: tuple[str, ...]
    tool_choice_shape: str
    parallel_flag: str
    max_tokens_required: bool
    max_tokens_default: int | None
    usage_input_includes_cache: bool
    sse_event_names: bool
    stream_done_sentinel: str | None
    stream_usage_opt_in: str | None


def dig(w: dict[str, Any], segs: list[str], path: str) -> Any:
    """Read a dotted wire path; intermediate values must be objects (or absent)."""
    cur: Any = w
    for i, s in enumerate(segs):
        if cur is None:
            return None
        if i:
            cur = expect_dict(cur, path + "." + ".".join(segs[:i]))
        cur = cur.get(s)
    return cur


def split_ext(w: dict[str, Any], known: frozenset[str]) -> dict[str, Any] | None:
    """Fields of ``w`` with no canonical home, kept so a same-protocol encode is the identity."""
    extra = w.keys() - known
    if not extra:
        return None
    return {k: w[k] for k in w if k in extra}


def drop_ext(ext: dict[str, Any], out: dict[str, Any], path: str, ctx: Ctx) -> None:
    """Write source-protocol extensions back when source == target, else report each one."""
    if ctx.same:
        for k, v in ext.items():
            out.setdefault(k, v)
        return
    for k in ext:
        ctx.loss(
            f"{path}.{k}" if path else k,
            f"field {k!r} of {ctx.source} has no equivalent",
            f"{ctx.target} cannot carry it",
            "extensions",
        )


def arguments_object(text: str, path: str, ctx: Ctx) -> dict[str, Any]:
    """Canonical raw JSON text -> object for protocols whose arguments are objects."""
    obj, err = object_from_json_text(text)
    if err is not None:
        ctx.loss(path, f"{err}; sent as {{}}", "the target needs a JSON object", "tool_call")
        return {}
    return obj  # type: ignore[no-any-return]


def deep_merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``top`` written over it, recursively for nested objects."""
    out = dict(base)
    for k, v in top.items():
        b = out.get(k)
        out[k] = deep_merge(b, v) if type(b) is dict and type(v) is dict else v
    return out
