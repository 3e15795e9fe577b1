"""The response envelope, once for every protocol (rows: ``response_envelope``, in
codec.RESPONSE_ENVELOPE, and ``usage_path``): the top-level fields every response carries
(``defaults``: the pipeline starts every encoded response from the generated
``codec.response_defaults()``, in their order, before the response rows and the protocol's
transform fill id, model, message and finish), the usage object (and the usage rule streams
share: which counts a target cannot carry, the source's own usage object back to its
protocol), and the keys a source left out, left out again when it goes back to the same
protocol."""

from __future__ import annotations

from typing import Any

from .._codec_support import deep_merge, report_ext
from .._losses import Ctx, Loss
from .._wire import expect_dict, expect_list
from ..generated.canonical import Response, Usage
from ._base import Codec

__all__ = ["decode_envelope", "close_envelope", "envelope_keys", "usage_losses"]
__all__ += ["first_choice", "write_choices"]


def decode_envelope(w: dict[str, Any], resp: Response, codec: Codec) -> None:
    """The usage object (absent or null: None), and keys an encoder always writes that the
    source left out (a wire-form hint)."""
    u = w.get(codec.USAGE_PATH)
    resp.usage = codec.decode_usage(u, codec.USAGE_PATH) if u is not None else None
    env = codec.RESPONSE_ENVELOPE
    if env is None:
        return
    absent = [k for k in (*env["defaults"], codec.USAGE_PATH) if k not in w]
    if absent:
        resp.hints = {**(resp.hints or {}), "absent": absent}


def close_envelope(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    """The usage (a response from another protocol always has one), and, back to the source's
    protocol, the keys it left out left out again."""
    if resp.usage is not None or not ctx.same:
        out[codec.USAGE_PATH] = encode_usage(resp, codec, ctx)
    if ctx.same and resp.hints:
        for k in resp.hints.get("absent", ()):
            out.pop(k, None)


def first_choice(
    w: dict[str, Any], resp: Response, hints: dict[str, Any], env: dict[str, Any], ctx: Ctx
) -> dict[str, Any] | None:
    """The first item of the row's ``choices`` list (Chat ``choices``, Gemini ``candidates``), or
    None when the list is absent or empty. The other items go to ``resp.ext`` (back to the same
    protocol only); the item's keys no row reads to ``hints["choice_ext"]``, and toward another
    protocol those that say something (not empty, under a key not ``choice_quiet``) are reported,
    in the words the stream uses."""
    key = env["choices"]
    items = w.get(key)
    if not items:
        return None
    if type(items) is not list:
        items = expect_list(items, key)
    c0 = items[0]
    if type(c0) is not dict:
        c0 = expect_dict(c0, key + "[0]")
    if len(items) > 1:
        resp.ext = {**(resp.ext or {}), key: items[1:]}
    msg, fin, consts = env["message"], env["finish"], env["choice_constants"]
    extra = {k: v for k, v in c0.items() if k != msg and k != fin and k not in consts}
    if extra:
        hints["choice_ext"] = extra
        if not ctx.same:
            quiet = env["choice_quiet"]
            said = {k: v for k, v in extra.items() if k not in quiet and v not in (None, [], {})}
            if said:
                report_ext(said, key + "[0]", ctx)
    return c0


def write_choices(
    choice: dict[str, Any], resp: Response, out: dict[str, Any], env: dict[str, Any], ctx: Ctx
) -> None:
    """The encoded first choice completed (its own other keys back to the same protocol, else
    the row's ``choice_defaults``), after it the other choices the same protocol sent."""
    if not ctx.same:
        choice.update(env["choice_defaults"])
        out[env["choices"]] = [choice]
        return
    choice.update((resp.hints or {}).get("choice_ext") or {})
    more = (resp.ext or {}).get(env["choices"])
    out[env["choices"]] = [choice, *(more if type(more) is list else [])]


def envelope_keys(codec: Codec) -> frozenset[str]:
    """The top-level keys the envelope row names (known: never kept in ext)."""
    env = codec.RESPONSE_ENVELOPE
    if env is None:
        return frozenset()
    top = env["choices"] or env["message"]  # the list or message holding the finish, or none
    keys = {*env["defaults"], *env["echo"], codec.USAGE_PATH}
    return frozenset(
        keys | ({top} if top else set()) | (set() if env["choices"] else {env["finish"]})
    )


def usage_losses(u: Usage, codec: Codec, target: str, path: str) -> list[Loss]:
    """The counts of ``u`` the target's usage has no field for (responses and streams alike)."""
    return [
        Loss(
            f"{path}.{name}",
            f"{name} count {n} dropped (still included in the totals)",
            f"{target} usage has no such count",
            "usage",
        )
        for name in ("input_cache_read", "input_cache_write", "output_reasoning")
        if (n := getattr(u, name)) and name not in codec.USAGE_CARRIED
    ]


def encode_usage(resp: Response, codec: Codec, ctx: Ctx) -> dict[str, Any]:
    u = resp.usage
    if u is None:
        return codec.encode_usage(Usage())  # type: ignore[no-any-return]
    out: dict[str, Any] = codec.encode_usage(u)
    ctx.losses += usage_losses(u, codec, ctx.target, codec.USAGE_PATH)
    if ctx.same and u.raw is not None:
        if codec.decode_usage(u.raw, codec.USAGE_PATH) == u:  # the same counts (and raw)
            return u.raw  # unchanged since decoding: the source's own usage object, exactly
        return deep_merge(u.raw, out)
    return out
