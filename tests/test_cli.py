"""The command line: a stream's losses reach stderr as every other kind's do (recorded
OpenRouter traffic read as plain Chat: its reasoning_details have no canonical home)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from interlingua import StreamTranslator
from interlingua._cli import main

from tests.conftest import need_fixtures

C, A = "openai_chat", "anthropic_messages"
REL = Path(
    "recorded/openai-chat/pydantic-ai-cassettes/compatible-openrouter.ai/test_openrouter/"
    "test_openrouter_streaming_reasoning/00.response.sse"
)


def test_a_stream_goes_to_stdout_and_its_losses_to_stderr(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    wire = (need_fixtures() / REL).read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(wire)))
    assert main(["translate", "--kind", "stream", "--from", C, "--to", A, "-"]) == 0
    out, err = capsysbinary.readouterr()
    t = StreamTranslator(C, A)
    assert out == t.feed(wire) + t.close()  # the same bytes as the library's
    said = [line for line in err.decode().splitlines() if line.startswith("loss: ")]
    assert said == [f"loss: {x}" for x in t.losses]
    assert any("stream.choices[index=0].delta.reasoning_details" in line for line in said)
