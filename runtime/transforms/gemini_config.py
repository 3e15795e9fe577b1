"""gemini_config: what a Gemini request body keeps beside its rows, for Gemini alone.

- ``generationConfig``: the sampling, response_format and reasoning rows are generated; this
  keeps an empty one for Gemini; its other keys ride in ext;
- ``model``: not a body field (it is in the URL) but some clients send it; kept for Gemini.

``tools`` (the tool_entries row) and ``toolConfig`` (the tool_choice rule) are the tools
transform's.
"""

from __future__ import annotations

from typing import Any

from .._losses import Ctx
from .._wire import expect_dict, expect_str
from ..generated.canonical import Request
from ._base import Codec, Transform

__all__ = ["GEMINI_CONFIG"]


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    if "model" in w:
        req.model = expect_str(w["model"], "model")
        req.hints = {**(req.hints or {}), "model_in_body": True}
    gc = w.get("generationConfig")
    if gc is None:
        return
    gc = expect_dict(gc, "generationConfig")
    if not gc:
        req.hints = {**(req.hints or {}), "generation_config_empty": True}


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    hints = (req.hints or {}) if ctx.same else {}  # the model is in the URL (http rows)
    if hints.get("model_in_body") and req.model is not None:
        out["model"] = req.model
    if hints.get("generation_config_empty"):
        out.setdefault("generationConfig", {})


GEMINI_CONFIG = Transform(
    name="gemini_config",
    doc=__doc__ or "",
    request_keys=frozenset({"generationConfig", "model"}),
    decode_request=_decode,
    encode_request=_encode,
)
