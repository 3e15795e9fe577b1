"""The response envelope rows (``response_envelope`` in spec/protocols/*.yaml): where a response
keeps its message, finish reason and usage, and the top-level fields every response carries.

codegen/envelope_code.py compiles them into every protocol's codec (defaults, keys the source
left out, the first choice, the finish); message_response reads the message-shaped keys (Chat,
Cohere). The
stream encoder reuses ``defaults`` as the def ``response_envelope`` (Responses: the response
object of response.created / .completed; Anthropic: message_start's message), so the defaults
are written once for both paths."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .source import Loc
from .spec_http import Strict

# canonical response fields a stream template names by a variable of its own
STREAM_VARS = {"id": "$id", "model": "$model", "created": "$created"}
ENVELOPE_DEF = "response_envelope"


class FinishDetail(Strict):
    """A finish said as a value with its reason in an object beside it."""

    value: str = Field(description="the finish key's value for these reasons (`incomplete`)")
    reason: str = Field(description="path of the reason beside the finish key")
    reasons: list[str] = Field(description="the raw reasons said this way")


class Blocked(Strict):
    """A response with no choices whose prompt was refused (compiled: read_blocked)."""

    reason: str = Field(
        description="path of the raw block reason (Gemini promptFeedback.blockReason)"
    )
    finish: str = Field(description="the canonical finish reason it means")


class ResponseEnvelope(Strict):
    """Where a response keeps its parts, finish and constant fields (rows, no per-protocol
    code: compiled by codegen/envelope_code.py; message_response reads the message keys)."""

    choices: str | None = Field(
        None,
        description="list key whose first item holds message and finish (Chat `choices`); the "
        "other items go back only to the same protocol. None: both sit at the top level",
    )
    message: str | None = Field(
        None,
        description="key of the assistant message (transform message_response) or content "
        "(gemini_response)",
    )
    finish: str = Field(description="key of the finish reason (beside the message)")
    parts: str | None = Field(
        None,
        description="key of the response's parts at the top level, beside the finish, read and "
        "written by the part rows (Anthropic `content`): the response needs no transform",
    )
    part_defaults: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="per wire part type, keys written (when absent) into such a part of a "
        "response from another protocol (Anthropic: a thinking block's signature, a string in "
        "its API)",
    )
    content: Literal["string", "parts"] | None = Field(
        None,
        description="message content written for another protocol's text: one string, or a "
        "list of text parts (transform message_response)",
    )
    content_parts: list[str] | None = Field(
        None,
        description="the part kinds a response message may hold beside tool calls (Cohere: "
        "text, reasoning); others are dropped and reported. None: any",
    )
    finish_detail: FinishDetail | None = Field(
        None,
        description="reasons written as one finish value with the reason beside it (Responses: "
        "status incomplete + incomplete_details.reason)",
    )
    finish_required: bool = Field(
        False,
        description="a response without a finish reason still writes one (tool calls or a stop)",
    )
    defaults: dict[str, Any] = Field(
        default_factory=dict,
        description="top-level keys always written, with this value when the response has none "
        "(in this order); a key the source left out is left out again for the same protocol. "
        "The stream templates use them as the def `response_envelope`",
    )
    blocked: Blocked | None = Field(
        None, description="where a response with no choices says its prompt was refused"
    )
    echo: list[str] = Field(
        default_factory=list,
        description="top-level keys that echo the request or are bookkeeping (Responses; "
        "Gemini's promptFeedback): kept (with the raw finish when it sits at the top level) and "
        "written back to the same protocol by the compiled envelope, never reported as lost "
        "elsewhere",
    )
    choice_constants: dict[str, Any] = Field(
        default_factory=dict, description="keys of the choice item always written"
    )
    choice_defaults: dict[str, Any] = Field(
        default_factory=dict,
        description="keys of the choice item written for a response from another protocol",
    )
    choice_quiet: list[str] = Field(
        default_factory=list,
        description="keys of the choice item that tell another protocol's client nothing: kept "
        "for the same protocol, never reported (any other key with a value is reported as "
        "lost, as the stream's quiet_fields say for the stream)",
    )


def stream_defaults(data: Any) -> Any:
    """Before a protocol file is validated: its stream's encode section gets the def
    ``response_envelope`` (the envelope's defaults, the response_fields' wire keys of id, model
    and created as $id, $model and $created) and, unless it names one, its ``id_default``
    (the envelope's default id)."""
    if not isinstance(data, dict):
        return data
    env, stream = data.get("response_envelope"), data.get("stream")
    if not isinstance(env, dict) or not isinstance(stream, dict):
        return data
    enc = stream.get("encode")
    if not isinstance(enc, dict):
        return data
    defaults = env.get("defaults")
    if not isinstance(defaults, dict):
        return data
    rows = data.get("response_fields")
    wire: dict[Any, str] = {
        r.get("w"): STREAM_VARS[str(r.get("c"))]
        for r in (rows if isinstance(rows, list) else [])
        if isinstance(r, dict) and r.get("c") in STREAM_VARS
    }
    body = {k: wire.get(k, v) for k, v in defaults.items()}
    defs = enc.get("defs")
    enc = {**enc, "defs": {ENVELOPE_DEF: body, **(defs if isinstance(defs, dict) else {})}}
    id_key = next((w for w, var in wire.items() if var == "$id"), None)
    if "id_default" not in enc and isinstance(defaults.get(id_key), str):
        enc["id_default"] = defaults[id_key]
    return {**data, "stream": {**stream, "encode": enc}}


def envelope_problems(env: ResponseEnvelope | None, finish_raws: set[str]) -> list[tuple[Loc, str]]:
    """What the envelope rows say twice, or name without a finish row (``finish_raws``: the raw
    values of the finish_reasons rows). The rows a transform reads are its canonical.yaml row's
    (codegen/transform_rows.py)."""
    if env is None:
        return []
    out: list[tuple[Loc, str]] = []
    if env.parts is not None and (env.choices or env.message):
        key = "choices" if env.choices else "message"
        out.append((("response_envelope", "parts"), f"parts sit at the top level: no `{key}`"))
    if env.part_defaults and env.parts is None:
        out.append((("response_envelope", "part_defaults"), "no `parts` key to write them in"))
    for name in ("echo", "choice_quiet"):
        first: dict[str, int] = {}
        for i, k in enumerate(getattr(env, name)):
            if k in first:
                out.append(
                    (("response_envelope", name, i), f"key {k!r} again ({name}[{first[k]}])")
                )
            first.setdefault(k, i)
    d = env.finish_detail
    for i, raw in enumerate(d.reasons if d is not None else ()):
        if raw not in finish_raws and d is not None and raw != d.value:
            known = ", ".join(sorted(finish_raws | {d.value}))
            out.append(
                (
                    ("response_envelope", "finish_detail", "reasons", i),
                    f"{raw!r} is not the raw value of a finish_reasons row (expected one of {known})",
                )
            )
    return out
