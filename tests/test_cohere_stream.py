"""Cohere v2 streams, run by the generic machines from the rows in spec/protocols/cohere_v2.yaml.

The official ``cohere`` SDK judges what we emit: recorded Anthropic and Chat streams translated to
cohere_v2 are answered to ``client.chat_stream(...)`` through an httpx mock transport, and every
event must parse into the SDK's typed events (it logs and skips what it cannot read), with the
text and tool calls of the source stream. Cohere's own stream shape round-trips through the
canonical events, and a cut or failed upstream ends in Cohere's in-band error."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import interlingua
import pytest

from tests.stream_util import (
    RecordedStream,
    accumulate_stream,
    args_of,
    decode_stream,
    recorded_streams,
    view,
)

cohere = pytest.importorskip("cohere")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # the SDK on pydantic 2

K = "cohere_v2"

# a Cohere v2 stream as the API sends it (tool plan, two tool calls, usage on message-end)
NATIVE = b"".join(
    f"event: {t}\ndata: {d}\n\n".encode()
    for t, d in (
        ("message-start", '{"type":"message-start","id":"c-1","delta":{"message":{"role":"assistant"}}}'),
        ("tool-plan-delta", '{"type":"tool-plan-delta","delta":{"message":{"tool_plan":"I will look"}}}'),
        ("tool-plan-delta", '{"type":"tool-plan-delta","delta":{"message":{"tool_plan":" both up."}}}'),
        ("tool-call-start", '{"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":"w_1","type":"function","function":{"name":"weather","arguments":""}}}}}'),
        ("tool-call-delta", '{"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"arguments":"{\\"city\\": "}}}}}'),
        ("tool-call-delta", '{"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"arguments":"\\"Paris\\"}"}}}}}'),
        ("tool-call-end", '{"type":"tool-call-end","index":0}'),
        ("tool-call-start", '{"type":"tool-call-start","index":1,"delta":{"message":{"tool_calls":{"id":"w_2","type":"function","function":{"name":"weather","arguments":"{\\"city\\": \\"Oslo\\"}"}}}}}'),
        ("tool-call-end", '{"type":"tool-call-end","index":1}'),
        ("message-end", '{"type":"message-end","delta":{"finish_reason":"TOOL_CALL","usage":{"billed_units":{"input_tokens":20,"output_tokens":9},"tokens":{"input_tokens":30,"output_tokens":9}}}}'),
    )
)  # fmt: skip


def sdk_events(sse: bytes, caplog: pytest.LogCaptureFixture) -> list[Any]:
    """The SDK's typed events for ``sse``; fails when it skipped any event it could not read."""

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v2/chat"
        return httpx.Response(200, content=sse, headers={"content-type": "text/event-stream"})

    http = httpx.Client(transport=httpx.MockTransport(handler))
    client = cohere.ClientV2(api_key="test", base_url="http://test", httpx_client=http)
    with caplog.at_level(logging.WARNING):
        events = list(
            client.chat_stream(model="command-a", messages=[{"role": "user", "content": "hi"}])
        )
    skipped = [r.getMessage() for r in caplog.records if "Skipping SSE event" in r.getMessage()]
    assert not skipped, skipped[:3]
    return events


def sdk_view(events: list[Any]) -> dict[str, Any]:
    """Text, plan and tool calls as a Cohere SDK user reads them off the typed events."""
    text, calls, finish = "", {}, None
    for ev in events:
        if ev.type in ("content-start", "content-delta"):
            content = ev.delta.message.content
            text += (content.text or "") if content is not None else ""
        elif ev.type == "tool-plan-delta":
            text += ev.delta.message.tool_plan or ""
        elif ev.type == "tool-call-start":
            tc = ev.delta.message.tool_calls
            calls[ev.index] = [tc.id, tc.function.name, tc.function.arguments or ""]
        elif ev.type == "tool-call-delta":
            calls[ev.index][2] += ev.delta.message.tool_calls.function.arguments or ""
        elif ev.type == "message-end":
            finish = ev.delta.finish_reason
    return {
        "text": text,
        "calls": [(i, n, args_of(a)) for i, n, a in calls.values()],
        "finish": finish,
    }


def test_native_cohere_stream_decodes_to_canonical_events() -> None:
    resp = accumulate_stream(NATIVE, K)
    v = view(resp)
    assert v["text"] == "I will look both up."
    assert v["calls"] == [
        ("w_1", "weather", {"city": "Paris"}),
        ("w_2", "weather", {"city": "Oslo"}),
    ]
    assert resp.finish is not None and resp.finish.unified == "tool_calls"
    assert resp.usage is not None and resp.usage.input_total == 30


@pytest.mark.parametrize(
    "target", ["anthropic_messages", "openai_chat", "openai_responses", "gemini"]
)
def test_native_cohere_stream_reaches_every_client(target: str) -> None:
    out = b"".join(interlingua.translate_stream([NATIVE], source=K, target=target))
    assert view(accumulate_stream(out, target)) == view(accumulate_stream(NATIVE, K))


def test_native_cohere_stream_round_trips_as_the_sdk_reads_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    out = b"".join(interlingua.translate_stream([NATIVE], source=K, target=K))
    assert sdk_view(sdk_events(out, caplog)) == sdk_view(sdk_events(NATIVE, caplog))


STREAMS = recorded_streams()


@pytest.mark.parametrize("rs", STREAMS, ids=[s.name[-60:] for s in STREAMS])
def test_cohere_sdk_reads_translated_recorded_streams(
    rs: RecordedStream, caplog: pytest.LogCaptureFixture
) -> None:
    src = rs.sse()
    events = decode_stream(src, rs.pid)
    if events[-1].ending != "completed":
        pytest.skip("the recorded stream does not complete")
    out = b"".join(interlingua.translate_stream([src], source=rs.pid, target=K))
    got = sdk_view(sdk_events(out, caplog))
    want = view(accumulate_stream(src, rs.pid))
    assert got["text"] == want["text"]
    assert [(n, a) for _, n, a in got["calls"]] == [(n, a) for _, n, a in want["calls"]]
    assert got["finish"] in ("COMPLETE", "STOP_SEQUENCE", "MAX_TOKENS", "TOOL_CALL", "ERROR")


def test_cut_upstream_ends_in_cohere_in_band_error(caplog: pytest.LogCaptureFixture) -> None:
    cut = NATIVE[: NATIVE.index(b"event: tool-call-end")]
    out = b"".join(interlingua.translate_stream([cut], source=K, target=K))
    events = sdk_events(out, caplog)
    assert events[-1].type == "message-end"
    assert events[-1].delta.finish_reason == "ERROR"
    assert "terminal event" in (events[-1].delta.error or "")
    assert decode_stream(out, K)[-1].ending == "failed"
