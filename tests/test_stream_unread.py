"""A stream field or event that no row reads is reported as lost, once per stream with its count,
in the same words the response path uses for a field with no canonical home: recorded Groq,
OpenRouter and Cohere traffic."""

from __future__ import annotations

from pathlib import Path

import orjson
from interlingua import StreamTranslator, translate_response

from tests.conftest import need_fixtures

A, C = "anthropic_messages", "openai_chat"
CASSETTES = Path("recorded/openai-chat/pydantic-ai-cassettes")
OPENROUTER = CASSETTES / "compatible-openrouter.ai/test_openrouter"
GROQ = CASSETTES / "compatible-api.groq.com/test_groq"


def _losses(rel: Path, dialect: str | None = None, target: str = A) -> dict[str, str]:
    t = StreamTranslator(C, target, dialect)
    t.feed((need_fixtures() / rel).read_bytes())
    t.close()
    return {x.path: x.what for x in t.losses if x.feature == "extensions"}


def test_openrouter_reasoning_details_without_the_dialect_are_reported_not_dropped() -> None:
    rel = OPENROUTER / "test_openrouter_streaming_reasoning/00.response.sse"
    plain = _losses(rel)
    path = "stream.choices[index=0].delta.reasoning_details"
    assert path in plain
    assert plain[path].startswith("field 'reasoning_details' of openai_chat has no equivalent")
    # the provider's own finish word is reported too: plain Chat has no row for it
    assert "stream.choices[index=0].native_finish_reason" in plain
    # the dialect reads both: nothing with no home
    assert _losses(rel, "openrouter") == {}


def test_the_response_path_names_the_same_field_in_the_same_words() -> None:
    rel = OPENROUTER / "test_openrouter_map_messages_reasoning/00.response.json"
    out = translate_response((need_fixtures() / rel).read_bytes(), source=C, target=A)
    (loss,) = [x for x in out.losses if x.path.endswith("reasoning_details")]
    stream = _losses(OPENROUTER / "test_openrouter_streaming_reasoning/00.response.sse")
    assert stream["stream.choices[index=0].delta.reasoning_details"].startswith(loss.what)


def test_annotations_and_groq_fields_are_counted_per_stream() -> None:
    rel = OPENROUTER / "test_openrouter_web_search_annotations_stream/00.response.sse"
    ann = _losses(rel, "openrouter")
    assert list(ann) == ["stream.choices[index=0].delta.annotations"]
    assert ann["stream.choices[index=0].delta.annotations"].endswith("(in 5 events)")
    groq = [p for p in (need_fixtures() / GROQ).glob("test_tool_use_failed*/*.sse")]
    assert groq
    for rel in groq:
        assert "stream.choices[index=0].delta.channel" in _losses(rel, "groq")


def test_an_empty_or_null_unknown_field_is_not_a_loss() -> None:
    chunks = [
        b'data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"role":"assistant",'
        b'"content":"hi","reasoning":null,"audio":null,"annotations":[]}}]}\n\n',
        b'data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop",'
        b'"logprobs":null}]}\n\n',
        b"data: [DONE]\n\n",
    ]
    t = StreamTranslator(C, A)
    for c in chunks:
        t.feed(c)
    t.close()
    assert t.losses == []
    t = StreamTranslator(C, C)  # the same protocol drops it too: the rows have no home for it
    t.feed(chunks[0].replace(b'"audio":null', b'"audio":{"id":"a1"}'))
    t.close()
    assert [x.path for x in t.losses] == ["stream.choices[index=0].delta.audio"]


def test_anthropic_server_tool_blocks_are_reported_by_their_type() -> None:
    rel = Path(
        "recorded/anthropic/pydantic-ai-cassettes/test_anthropic/"
        "test_anthropic_text_editor_code_execution_tool_stream/00.response.sse"
    )
    t = StreamTranslator(A, C)
    t.feed((need_fixtures() / rel).read_bytes())
    t.close()
    dropped = {x.path: x.what for x in t.losses if x.feature == "extensions"}
    assert dropped == {
        "stream.content_block_start[server_tool_use]": "event 'content_block_start[server_tool_use]'"
        " of anthropic_messages has no equivalent (3 times)",
        "stream.content_block_start[text_editor_code_execution_tool_result]": "event "
        "'content_block_start[text_editor_code_execution_tool_result]' of anthropic_messages has"
        " no equivalent (3 times)",
    }


def test_a_choice_field_with_no_home_is_reported_by_the_response_path_too() -> None:
    """OpenRouter's ``native_finish_reason`` (and Chat ``logprobs``) sit on the choice: the
    stream reported them, the response path had kept them for Chat only and dropped them
    silently anywhere else."""
    rel = OPENROUTER / "test_openrouter_map_messages_reasoning/00.response.json"
    raw = (need_fixtures() / rel).read_bytes()
    out = translate_response(raw, source=C, target=A)
    lost = {x.path: x.what for x in out.losses if x.feature == "extensions"}
    assert lost["choices[0].native_finish_reason"].startswith(
        "field 'native_finish_reason' of openai_chat has no equivalent"
    )
    assert "choices[0].logprobs" not in lost  # null: nothing to lose
    stream = _losses(OPENROUTER / "test_openrouter_streaming_reasoning/00.response.sse")
    assert "stream.choices[index=0].native_finish_reason" in stream

    logprobs = {"content": [{"token": "Hi", "logprob": -0.1, "bytes": [72, 105]}]}
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Hi"},
                "logprobs": logprobs,
                "finish_reason": "stop",
            }
        ],
    }
    to_a = translate_response(body, source=C, target=A)
    assert [x.path for x in to_a.losses if x.feature == "extensions"] == ["choices[0].logprobs"]
    back = translate_response(body, source=C, target=C)
    assert back.body["choices"][0]["logprobs"] == logprobs and back.losses == []


def test_the_response_and_stream_paths_agree_on_what_says_something() -> None:
    """One rule (``_codec_support.said``) on both paths: an unknown message or choice key
    holding null, "", [] or {} carries nothing; one holding a value is reported."""
    empty = {"x_mood": "", "x_tags": [], "x_meta": {}, "x_none": None}
    msg = {"role": "assistant", "content": "hi", **empty, "x_note": "kept"}
    choice = {"index": 0, "finish_reason": "stop", **empty, "x_seen": 1}
    body = {"id": "c1", "model": "m", "choices": [{**choice, "message": msg}]}
    out = translate_response(body, source=C, target=A)
    reported = sorted(x.path for x in out.losses if x.feature == "extensions")
    assert reported == ["choices[0].message.x_note", "choices[0].x_seen"]
    delta = {"role": "assistant", "content": "hi", **empty, "x_note": "kept"}
    chunk = {"id": "c1", "model": "m", "choices": [{**choice, "delta": delta}]}
    t = StreamTranslator(C, A)
    t.feed(b"data: " + orjson.dumps(chunk) + b"\n\ndata: [DONE]\n\n")
    t.close()
    streamed = sorted(x.path for x in t.losses if x.feature == "extensions")
    assert streamed == ["stream.choices[index=0].delta.x_note", "stream.choices[index=0].x_seen"]
