"""The response envelope and the finish rule, compiled (template: _codec_envelope.j2).

Every choice the rows make is made here, once, at generation time: where the finish sits (a
key of the response, or of the first item of a ``choices`` list, with or without a detail
object beside it), whether wire numbers are reasons (``finish_rule.numeric``), whether a stop
with tool calls is tool_calls (``finish_rule.stop_with_calls``), which wire value each
canonical reason is written as and whether it reads back as itself (``_FINISH_OUT``), which
keys the envelope always writes and which it knows. The generated ``decode_finish`` /
``encode_finish`` are the one finish rule: the response path (``read_finish`` /
``write_finish``) and both stream machines call them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .source import Loc
from .spec_model import ProtocolSpec

if TYPE_CHECKING:
    from .load import Spec


def _finish_view(
    p: ProtocolSpec, reasons: list[str], dec: dict[str, str], enc: dict[str, str]
) -> dict[str, Any]:
    d, swc = p.enum_defaults.finish_reasons, p.finish_rule.stop_with_calls

    def means(raw: str, unified: str) -> bool:  # does ``raw`` read back as ``unified`` here?
        back = dec.get(raw)
        return back == unified or (swc and unified == "tool_calls" and back == "stop")

    def out(unified: str) -> tuple[str, bool]:  # (wire value, lossy)
        raw = enc.get(unified) or d.encode
        return raw, not means(raw, unified)

    return {
        "decode": dec,
        "decode_default": d.decode,
        "encode_default": d.encode,
        "out": {u: out(u) for u in reasons},
        "none": out("stop"),  # no finish: how the output ended
        "none_calls": out("tool_calls"),
        "calls": {r: "tool_calls" if u == "stop" else u for r, u in dec.items()} if swc else None,
        "numeric": p.finish_rule.numeric,
    }


def _nested(path: list[str], leaf: str) -> str:
    """The literal of ``{a: {b: leaf}}`` for the path ``[a, b]``."""
    expr = leaf
    for seg in reversed(path):
        expr = "{" + repr(seg) + ": " + expr + "}"
    return expr


def finish_reasons(spec: Spec) -> list[str]:
    """The canonical FinishReason values."""
    return [v.value for e in spec.canonical.enums if e.name == "FinishReason" for v in e.items()]


def envelope_view(spec: Spec, p: ProtocolSpec, finish: dict[str, Any]) -> dict[str, Any]:
    """What _codec_envelope.j2 writes for the protocol (``finish``: the finish_reasons tables,
    raw -> unified as ``decode``, unified -> raw as ``encode``)."""
    reasons = finish_reasons(spec)
    view: dict[str, Any] = {
        "finish": _finish_view(p, reasons, finish["decode"], finish["encode"]),
        "env": None,
    }
    env = p.response_envelope
    if env is None:
        return view
    prefix = f"{env.choices}[0]." if env.choices else ""
    names = {t.part: t.name for t in spec.canonical.types if t.part}  # part kind -> class
    rows = {r.part for r in p.parts}  # the kinds the codec imports the classes of
    calls = ["ToolCallPart"] if "tool_call" in rows else []  # a message's calls beside its parts
    d = env.finish_detail
    top = env.choices or env.message  # the list or message holding the finish, or none
    known = {*env.defaults, *env.echo, p.usage_path}
    known |= ({top} if top else set()) | (set() if env.choices else {env.finish})
    known |= {env.parts} if env.parts else set()
    view["env"] = {
        "row": env,
        "finish_path": prefix + env.finish,
        "detail": None
        if d is None
        else {
            "value": d.value,
            "path": d.reason,
            "top": d.reason.split(".")[0],
            "literal": _nested(d.reason.split(".")[1:], "raw"),
            "reasons": set(d.reasons),
        },
        "always": [*env.defaults, p.usage_path],
        "known": known,
        "choice_read": {m for m in (env.message, env.finish) if m} | set(env.choice_constants),
        "message_path": prefix + (env.message or ""),
        "carried": [*(names[k] for k in env.content_parts or () if k in rows), *calls],
        # the echo, and the finish with its detail when they sit at the top level
        "kept": [
            *env.echo,
            *([] if top else [env.finish]),
            *([d.reason.split(".")[0]] if d else []),
        ],
        "default_id": next((env.defaults.get(f.w) for f in p.response_fields if f.c == "id"), None),
        # the parts' wire type key (the first part row's match key), for part_defaults
        "part_key": next(iter(p.parts[0].match), "type") if p.parts else "type",
        # read_finish needs to know of tool calls
        "part_calls": p.finish_rule.stop_with_calls and any(r.part == "tool_call" for r in p.parts),
    }
    return view


def compile_problems(p: ProtocolSpec, reasons: list[str]) -> list[tuple[Loc, str]]:
    """Finish and envelope rows the compiled code could not honour (``reasons``: the canonical
    FinishReason values)."""
    out: list[tuple[Loc, str]] = []
    if p.finish_rule.stop_with_calls:
        lack = [r for r in ("stop", "tool_calls") if r not in reasons]
        if lack:
            out.append(
                (
                    ("finish_rule", "stop_with_calls"),
                    f"needs the FinishReason {' and '.join(lack)} (canonical has "
                    f"{', '.join(reasons)})",
                )
            )
    env = p.response_envelope
    d = env.finish_detail if env is not None else None
    if d is not None and (not d.reason or "" in d.reason.split(".")):
        out.append(
            (("response_envelope", "finish_detail", "reason"), f"{d.reason!r} is not a dotted path")
        )
    b = env.blocked if env is not None else None
    if b is not None and b.finish not in reasons:
        out.append(
            (
                ("response_envelope", "blocked", "finish"),
                f"{b.finish!r} is not a FinishReason {_one_of(set(reasons))}",
            )
        )
    if b is not None and "" in b.reason.split("."):
        out.append(
            (("response_envelope", "blocked", "reason"), f"{b.reason!r} is not a dotted path")
        )
    rows = {r.part for r in p.parts}  # the part kinds the codec has rows (and classes) for
    for i, kind in enumerate(env.content_parts or () if env is not None else ()):
        if kind not in rows:
            where = ("response_envelope", "content_parts", i)
            out.append((where, f"no part row for {kind!r} {_one_of(rows)}"))
    if env is not None and env.content == "parts" and "text" not in rows:
        out.append((("response_envelope", "content"), "parts: no part row for 'text'"))
    return out


def _one_of(names: set[str]) -> str:
    return f"(expected one of {', '.join(sorted(names))})"
