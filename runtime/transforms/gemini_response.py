"""gemini_response: {candidates: [{content: {role: model, parts}, finishReason, index, ...}],
usageMetadata, promptFeedback, modelVersion, responseId} (Google Gemini).

The first candidate is the response (the walk message_response shares: other candidates and
candidate keys go back to Gemini only, reported elsewhere unless ``choice_quiet``).
``finishReason`` goes through the finish rows (where it sits: the response_envelope row; STOP with
functionCall parts is tool_calls, an unknown reason is other, the raw reason kept, a number
written back as one: finish_rule.numeric, in streams alike). A prompt
blocked by ``promptFeedback.blockReason`` (no candidates) is the row response_envelope.blocked
(content_filter, the block reason kept raw).
"""

from __future__ import annotations

from typing import Any

from .._errors import InvalidInput
from .._losses import Ctx
from .._wire import expect_dict
from ..generated.canonical import Response, ToolCallPart
from ._base import Codec, Transform
from .call_ids import CallIds

__all__ = ["GEMINI_RESPONSE"]


def _decode(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    hints: dict[str, Any] = {}
    pf = w.get("promptFeedback")
    if pf is not None:
        hints["prompt_feedback"] = expect_dict(pf, "promptFeedback")
    c0 = codec.first_choice(w, resp, hints, ctx)  # other candidates and keys: kept, reported
    if c0 is None:
        hints["no_candidates"] = "candidates" in w
        resp.finish = codec.read_blocked(w)  # the response_envelope.blocked row
        if resp.finish is None:  # neither an answer nor a refusal: not a response (an error body?)
            raise InvalidInput(
                "missing required field (a response has candidates, or a blocked prompt "
                "promptFeedback.blockReason)",
                path="candidates",
            )
        resp.hints = hints
        return
    content = c0.get("content")
    if content is not None:
        content = expect_dict(content, "candidates[0].content")
        raw = content.get("parts") or []
        ids = CallIds(not codec.RANDOM_CALL_IDS)  # the stream row's missing_call_id, as streams
        resp.parts = codec.decode_parts(raw, "candidates[0].content.parts", ctx, ids)
        hints["content"] = {k: v for k, v in content.items() if k != "parts"}
        hints["content_parts"] = "parts" in content
    elif c0.get("finishReason") is None:  # no content and no reason: not a candidate
        raise InvalidInput("missing required field", path="candidates[0].content")
    else:
        hints["no_content"] = True
    has_calls = any(type(p) is ToolCallPart for p in resp.parts)
    resp.finish = codec.read_finish(c0, has_calls)
    resp.hints = hints


def _encode(resp: Response, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    h = (resp.hints or {}) if ctx.same else {}  # another protocol's: one candidate, finished
    if h.get("no_candidates") is not None:  # back to Gemini as it came
        if h["no_candidates"]:
            out["candidates"] = []
    else:
        cand: dict[str, Any] = {}
        if not h.get("no_content"):
            parts = codec.encode_parts(resp.parts, None, "content", ctx)
            kept = {"parts": parts} if h.get("content_parts", True) else {}
            role = {"role": codec.ROLE_ENCODE["assistant"]}  # another protocol's content
            cand["content"] = {**kept, **h.get("content", role)}  # the source's keys
        if resp.finish is not None or not ctx.same:  # finish_required
            codec.write_finish(resp.finish, cand, ctx)
        codec.write_choices(cand, resp, out, ctx)
    if "prompt_feedback" in h:
        out["promptFeedback"] = h["prompt_feedback"]


GEMINI_RESPONSE = Transform(
    response_keys=frozenset({"promptFeedback"}),
    decode_response=_decode,
    encode_response=_encode,
)
