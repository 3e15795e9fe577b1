"""interlingua: translate LLM API wire protocols through one canonical model.

Protocols: ``anthropic_messages``, ``openai_chat``, ``openai_responses``, ``gemini``.
"""

from ._api import Translation, translate_error, translate_request, translate_response
from ._errors import InterlinguaError, InvalidInput, LossError, UnsupportedFeature
from ._losses import Ctx, Loss
from ._pipeline import (
    decode_error,
    decode_request,
    decode_response,
    encode_error,
    encode_request,
    encode_response,
)
from ._protocols import PROTOCOLS, available

__all__ = [
    "PROTOCOLS",
    "Ctx",
    "InterlinguaError",
    "InvalidInput",
    "Loss",
    "LossError",
    "Translation",
    "UnsupportedFeature",
    "available",
    "decode_error",
    "decode_request",
    "decode_response",
    "encode_error",
    "encode_request",
    "encode_response",
    "translate_error",
    "translate_request",
    "translate_response",
]
