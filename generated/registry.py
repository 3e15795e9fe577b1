# Generated from spec/ by `make generate` (python -m codegen). Do not edit by hand.
"""The ids spec/ defines: protocols, dialects, embeddings protocols."""

PROTOCOLS = ("anthropic_messages", "cohere_v2", "gemini", "openai_chat", "openai_responses")
# dialect name -> (base protocol, module stem, title)
DIALECTS: dict[str, tuple[str, str, str]] = {
    "deepseek": ("openai_chat", "openai_chat__deepseek", "DeepSeek"),
    "groq": ("openai_chat", "openai_chat__groq", "Groq"),
    "openrouter": ("openai_chat", "openai_chat__openrouter", "OpenRouter"),
}
EMBEDDINGS_PROTOCOLS = ("cohere_embeddings", "gemini_embeddings", "openai_embeddings")
# chat protocol -> the embeddings protocol its upstreams serve (row `upstreams`)
EMBEDDINGS_OF: dict[str, str] = {
    "cohere_v2": "cohere_embeddings",
    "gemini": "gemini_embeddings",
    "openai_chat": "openai_embeddings",
    "openai_responses": "openai_embeddings",
}
# the protocols whose reasoning state the envelope carries (flags.enveloped_reasoning)
ENVELOPED_REASONING = frozenset(("anthropic_messages",))
# the protocol whose call signatures ride in call ids (flags.call_id_signatures)
CALL_ID_SIGNATURES: str | None = "gemini"
# the protocol whose server-side conversation state the gateway keeps (flags.server_state)
SERVER_STATE: str | None = "openai_responses"
