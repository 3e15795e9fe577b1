"""Seed and penalties are canonical fields carried by rows alone (spec: request_fields with
features `seed` and `penalties`): Chat, Cohere and Gemini carry them to one another; Anthropic
and Responses have no such field and each value is reported by its path."""

from __future__ import annotations

import interlingua

CHAT = {
    "model": "m",
    "messages": [{"role": "user", "content": "Roll a die."}],
    "max_completion_tokens": 100,
    "seed": 7,
    "presence_penalty": 0.5,
    "frequency_penalty": -0.25,
}


def test_chat_to_gemini_and_cohere_carries_them() -> None:
    g = interlingua.translate_request(CHAT, source="openai_chat", target="gemini")
    assert g.losses == []
    assert g.body["generationConfig"] == {
        "maxOutputTokens": 100,
        "seed": 7,
        "presencePenalty": 0.5,
        "frequencyPenalty": -0.25,
    }
    k = interlingua.translate_request(g.body, source="gemini", target="cohere_v2")
    assert (k.body["seed"], k.body["presence_penalty"], k.body["frequency_penalty"]) == (
        7,
        0.5,
        -0.25,
    )
    back = interlingua.translate_request(k.body, source="cohere_v2", target="openai_chat")
    assert {key: back.body[key] for key in ("seed", "presence_penalty", "frequency_penalty")} == {
        "seed": 7,
        "presence_penalty": 0.5,
        "frequency_penalty": -0.25,
    }


def test_targets_without_them_report_each() -> None:
    for target in ("anthropic_messages", "openai_responses"):
        t = interlingua.translate_request(CHAT, source="openai_chat", target=target)
        assert sorted(loss.path for loss in t.losses) == [
            "frequency_penalty",
            "presence_penalty",
            "seed",
        ]
        assert not {"seed", "presence_penalty", "frequency_penalty"} & t.body.keys()


def test_a_fractional_gemini_seed_is_refused_with_its_path() -> None:
    body = {"contents": [{"parts": [{"text": "hi"}]}], "generationConfig": {"seed": 1.5}}
    try:
        interlingua.translate_request(body, source="gemini", target="openai_chat")
    except interlingua.InvalidInput as e:
        assert e.path == "generationConfig.seed"
    else:
        raise AssertionError("a fractional seed was accepted")
