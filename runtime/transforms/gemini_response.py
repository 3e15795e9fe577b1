"""gemini_response: {candidates: [{content: {role: model, parts}, finishReason, index, ...}],
usageMetadata, promptFeedback, modelVersion, responseId} (Google Gemini).

The first candidate is the response (the walk message_response shares: other candidates and
candidate keys go back to Gemini only, reported elsewhere unless ``choice_quiet``).
``finishReason`` goes through the finish rows (where it sits: the response_envelope row; STOP with
functionCall parts is tool_calls, an unknown reason is other, the raw reason kept, a number
written back as one: finish_rule.numeric, in streams alike). A prompt
blocked by ``promptFeedback.blockReason`` (no candidates) is the row response_envelope.blocked
(content_filter, the block reason kept raw); ``promptFeedback`` itself goes back to Gemini as it
came (its echo row), as do ``usageMetadata`` and the defaults (the compiled envelope). The
parts are the codec's (its parts walk; a call's id: given, else synthesised as streams do).
"""

from __future__ import annotations

from typing import Any

from .._codec_support import report_ext, said
from .._errors import InvalidInput
from .._losses import Ctx
from .._wire import expect_dict
from ..generated.canonical import Response, ToolCallPart
from ._base import Codec, Transform

__all__ = ["GEMINI_RESPONSE"]

_CONTENT_KEYS = frozenset({"role", "parts"})  # a content's keys with a canonical home


def _decode(w: dict[str, Any], resp: Response, codec: Codec, ctx: Ctx) -> None:
    hints: dict[str, Any] = {}
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
        resp.parts = codec.decode_parts(raw, "candidates[0].content.parts", ctx)  # its own ids
        hints["content"] = {k: v for k, v in content.items() if k != "parts"}
        if not _CONTENT_KEYS.issuperset(content):  # keys with no home: reported, as streams do
            report_ext(said(content, _CONTENT_KEYS), "candidates[0].content", ctx)
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


GEMINI_RESPONSE = Transform(decode_response=_decode, encode_response=_encode)
