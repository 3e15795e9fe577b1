from __future__ import annotations

import interlingua

from tests.conftest import client_body


def test_claude_code_request_to_chat_and_back_to_itself() -> None:
    body = client_body("claude-code/tool_loop_thinking_signature/002_POST_v1_messages.json")
    chat = interlingua.translate_request(body, source="anthropic_messages", target="openai_chat")
    msgs = chat.body["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "system", "assistant", "tool"]
    call = msgs[3]["tool_calls"][0]
    assert msgs[4]["tool_call_id"] == call["id"] == "toolu_stub_33e5d7a7fabd464b"
    assert {loss.feature for loss in chat.losses} >= {"caching", "reasoning_replay", "extensions"}
    same = interlingua.translate_request(
        body, source="anthropic_messages", target="anthropic_messages"
    )
    assert same.body == body and same.losses == []
