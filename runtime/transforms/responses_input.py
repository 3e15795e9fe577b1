"""responses_items: a request's ``instructions`` and ``input`` (a string, or a list of items:
see responses_item_list) <-> canonical messages; the leading system message is ``instructions``.
The keys of the ``items.state`` row (``previous_response_id``, ``conversation``; the codec's
STATE_KEYS) name state held by the server that made them: toward any other protocol they raise
UnsupportedFeature (send the full history instead); back to Responses they ride in the
request's ext like any field with no canonical home (an explicit null names no state: a null,
written back only)."""

from __future__ import annotations

from typing import Any

from .._errors import UnsupportedFeature
from .._losses import Ctx
from .._wire import expect_list, expect_str
from ..generated.canonical import Message, Request, TextPart
from ._base import Codec, Transform
from .responses_item_list import decode_items, encode_items


def _decode_request(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    state = {k: w[k] for k in codec.STATE_KEYS if w.get(k) is not None}
    if state:
        req.ext = {**(req.ext or {}), **state}
    if state and not ctx.same:
        k = next(iter(state))
        raise UnsupportedFeature(
            f"{k} refers to conversation state stored by the OpenAI Responses server "
            f"that made it; {ctx.target} cannot resolve it. Send the full history in "
            "`input` instead (store: false, replaying every previous item, reasoning "
            "items with their encrypted_content included), or send this request to an "
            "OpenAI Responses upstream.",
            path=k,
        )
    hints: dict[str, Any] = {}
    msgs: list[Message] = []
    instructions = w.get("instructions")
    if instructions is not None:
        msgs.append(
            Message(
                role="system",
                parts=[TextPart(text=expect_str(instructions, "instructions"))],
                hints={"instructions": True, "string": True},
            )
        )
    inp = w.get("input")
    if "input" not in w:
        hints["no_input"] = True
    if type(inp) is str:
        msgs.append(Message(role="user", parts=[TextPart(text=inp)]))
        hints["input_string"] = True
    elif inp is not None:
        msgs.extend(decode_items(expect_list(inp, "input"), "input", codec, ctx))
    req.messages = msgs
    # the top-level keys the rows and the transforms read, sent as null: written back on identity
    nulls = [k for k, v in w.items() if v is None and k in codec.REQUEST_KEYS]
    if nulls:
        hints["nulls"] = nulls
    req.hints = {**(req.hints or {}), **hints} if hints else req.hints


def _instructions(m: Message, codec: Codec, ctx: Ctx) -> str | None:
    """The leading system message as `instructions` text (None when it cannot be one); what its
    parts held but their text (a cache hint) is reported as the compiled part rows report it."""
    if m.role != "system" or not m.parts or any(type(p) is not TextPart for p in m.parts):
        return None
    if ctx.same and not (m.hints or {}).get("instructions"):
        return None
    codec.encode_parts(m.parts, None, "messages[0].content", ctx)  # for its losses
    return "\n\n".join(p.text for p in m.parts)  # type: ignore[union-attr]


def _encode_request(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    msgs = req.messages
    hints = (req.hints or {}) if ctx.same else {}
    text = _instructions(msgs[0], codec, ctx) if msgs else None
    if text is not None:
        out["instructions"] = text
        msgs = msgs[1:]
    if (
        hints.get("input_string")
        and len(msgs) == 1
        and msgs[0].role == "user"
        and len(msgs[0].parts) == 1
        and type(msgs[0].parts[0]) is TextPart
    ):
        out["input"] = msgs[0].parts[0].text
    elif msgs or not (hints.get("no_input") or "input" in hints.get("nulls", ())):
        out["input"] = encode_items(msgs, "messages", codec, ctx, len(req.messages) - len(msgs))
    for k in hints.get("nulls") or ():
        out.setdefault(k, None)


RESPONSES_ITEMS = Transform(
    request_keys=frozenset({"instructions", "input"}),
    decode_request=_decode_request,
    encode_request=_encode_request,
)
