"""interlingua: translate LLM API wire protocols through one canonical model.

Protocols: ``anthropic_messages``, ``openai_chat``, ``openai_responses``, ``gemini``,
``cohere_v2``; dialects (``dialect=``): ``openrouter``, ``deepseek``, ``groq``; embeddings:
``openai_embeddings``, ``gemini_embeddings``, ``cohere_embeddings``.
"""

from ._api import Translation, translate_error, translate_request, translate_response
from ._embeddings import (
    EMBEDDINGS_PROTOCOLS,
    join_embeddings_responses,
    split_embeddings_request,
    translate_embeddings_request,
    translate_embeddings_response,
)
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
from ._protocols import PROTOCOLS, UnknownDialect, available
from ._stream_api import StreamTranslator, atranslate_stream, translate_stream
from .streams import stream_decoder, stream_encoder

__all__ = [
    "EMBEDDINGS_PROTOCOLS",
    "join_embeddings_responses",
    "split_embeddings_request",
    "translate_embeddings_request",
    "translate_embeddings_response",
    "PROTOCOLS",
    "StreamTranslator",
    "atranslate_stream",
    "stream_decoder",
    "stream_encoder",
    "translate_stream",
    "Ctx",
    "InterlinguaError",
    "InvalidInput",
    "Loss",
    "LossError",
    "Translation",
    "UnknownDialect",
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
