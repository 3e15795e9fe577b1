"""The contenders: each workload gets callables that take the raw input and return bytes.

1. ``floor``: orjson.loads + orjson.dumps of the same input (for a stream, per event: parse the
   ``data:`` JSON, dump it, frame it as SSE). Nothing can translate faster than this.
2. ``interlingua``: the public API, bytes in, bytes out.
3. ``litellm``: LiteLLM's own adapters, where it has the direction (optional dependency group
   ``bench``). It is given the same bytes and parses/dumps with orjson, which flatters it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import interlingua
import orjson
from interlingua._sse import SSEDecoder

Fn = Callable[[], bytes]

ANTHROPIC = "anthropic_messages"
CHAT = "openai_chat"

# -- floor ------------------------------------------------------------------------------------


def floor_body(raw: bytes) -> Fn:
    loads, dumps = orjson.loads, orjson.dumps
    return lambda: dumps(loads(raw))


def floor_stream_translate(chunks: Iterable[bytes]) -> bytes:
    """Per event: find the ``data:`` payload, parse it, dump it, frame it as SSE."""
    loads, dumps = orjson.loads, orjson.dumps
    out: list[bytes] = []
    for block in _blocks(chunks):
        i = block.find(b"data: ")
        if i < 0:
            continue
        payload = block[i + 6 :]
        if payload == b"[DONE]":
            continue
        out.append(b"data: " + dumps(loads(payload)) + b"\n\n")
    return b"".join(out)


def _blocks(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """Network reads -> the blocks between blank lines (LF line ends only)."""
    pending: list[bytes] = []
    for chunk in chunks:
        if b"\n\n" not in chunk and not (pending and chunk[:1] == b"\n"):
            pending.append(chunk)
            continue
        if pending:
            pending.append(chunk)
            chunk = b"".join(pending)
            pending.clear()
        *blocks, rest = chunk.split(b"\n\n")
        if rest:
            pending.append(rest)
        yield from blocks


def floor_stream(chunks: list[bytes]) -> Fn:
    return lambda: floor_stream_translate(iter(chunks))


def floor_sse_split(chunks: list[bytes]) -> Callable[[], list[bytes]]:
    """The floor of SSE decoding: split events on blank lines and cut out the data, no JSON.
    Only right for streams without CR line ends, one ``data:`` line per event."""

    def run() -> list[bytes]:
        out: list[bytes] = []
        for block in _blocks(chunks):
            i = block.find(b"data:")
            if i >= 0:
                out.append(block[i + 5 :].lstrip(b" "))
        return out

    return run


# -- interlingua ------------------------------------------------------------------------------


def interlingua_request(raw: bytes, source: str, target: str) -> Fn:
    translate = interlingua.translate_request
    return lambda: translate(raw, source=source, target=target).to_bytes()


def interlingua_response(raw: bytes, source: str, target: str) -> Fn:
    translate = interlingua.translate_response
    return lambda: translate(raw, source=source, target=target).to_bytes()


def has_translate_stream() -> bool:
    return callable(getattr(interlingua, "translate_stream", None))


def interlingua_stream(chunks: list[bytes], source: str, target: str) -> Fn:
    translate = interlingua.translate_stream  # type: ignore[attr-defined]
    return lambda: b"".join(translate(iter(chunks), source=source, target=target))


def interlingua_sse(chunks: list[bytes]) -> Callable[[], list[str]]:
    def run() -> list[str]:
        dec = SSEDecoder()
        out: list[str] = []
        for chunk in chunks:
            out += [e.data for e in dec.feed(chunk)]
        return out

    return run


# -- LiteLLM ----------------------------------------------------------------------------------


class LiteLLM:
    """LiteLLM's adapters, imported once. ``LiteLLM.load()`` returns None when not installed."""

    version: str

    @classmethod
    def load(cls) -> LiteLLM | str:
        """The adapters, or why they are unavailable."""
        # Without this LiteLLM fetches its model price map over the network at import.
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        try:
            self = cls()
        except ImportError as e:
            return f"LiteLLM not installed ({e.name}): pip install -e '.[bench]'"
        return self

    def __init__(self) -> None:
        from importlib.metadata import version

        from litellm.litellm_core_utils.llm_response_utils.convert_dict_to_response import (
            convert_to_model_response_object,
        )
        from litellm.llms.anthropic.messages.adapters.transformation import (
            AnthropicAdapter,
            LiteLLMAnthropicMessagesAdapter,
        )
        from litellm.llms.openai.chat.gpt_transformation import OpenAIGPTConfig
        from litellm.types.utils import ModelResponse

        for name in ("LiteLLM", "LiteLLM Proxy", "LiteLLM Router", "litellm"):
            logging.getLogger(name).setLevel(logging.ERROR)
        self.version = version("litellm")
        self._convert = convert_to_model_response_object
        self._adapter = AnthropicAdapter
        self._messages_adapter = LiteLLMAnthropicMessagesAdapter
        self._chat_config = OpenAIGPTConfig
        self._model_response = ModelResponse

    @staticmethod
    def directions() -> dict[str, tuple[str, str]]:
        """The one direction LiteLLM has per kind (its Anthropic /v1/messages bridge)."""
        return {
            "request": (ANTHROPIC, CHAT),
            "response": (CHAT, ANTHROPIC),
            "stream": (CHAT, ANTHROPIC),
        }

    def request(self, raw: bytes) -> Fn:
        adapter_cls = self._messages_adapter

        def run() -> bytes:
            out, _names = adapter_cls().translate_anthropic_to_openai(
                anthropic_message_request=orjson.loads(raw)
            )
            return orjson.dumps(out, default=_pydantic)

        return run

    def response(self, raw: bytes) -> Fn:
        convert, adapter_cls, model_response = self._convert, self._adapter, self._model_response

        def run() -> bytes:
            resp = convert(
                response_object=orjson.loads(raw), model_response_object=model_response()
            )
            return orjson.dumps(
                adapter_cls().translate_completion_output_params(resp), default=_pydantic
            )

        return run

    def stream(self, chunks: list[bytes]) -> Fn:
        """Raw Chat SSE -> OpenAIGPTConfig's chunk iterator -> AnthropicAdapter's SSE stream."""
        config_cls, adapter_cls = self._chat_config, self._adapter

        def run() -> bytes:
            parsed = config_cls().get_model_response_iterator(
                streaming_response=_lines(iter(chunks)), sync_stream=True, json_mode=False
            )
            out = adapter_cls().translate_completion_output_params_streaming(
                parsed, model="gpt-4o", is_async=False
            )
            return b"".join(out)  # type: ignore[arg-type]

        return run


def _pydantic(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump(exclude_none=True)
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def _lines(chunks: Iterator[bytes]) -> Iterator[str]:
    """Network reads -> text lines, as httpx's ``iter_lines`` hands them to LiteLLM."""
    pending = ""
    for chunk in chunks:
        lines = (pending + chunk.decode()).split("\n")
        pending = lines.pop()
        yield from lines
    if pending:
        yield pending
