# Generated from spec/dialects/ by `make generate` (python -m codegen). Do not edit by hand.
"""Dialects (spec/dialects/*.yaml): name -> (base protocol, module stem, title)."""

DIALECTS: dict[str, tuple[str, str, str]] = {
    "deepseek": ("openai_chat", "openai_chat__deepseek", "DeepSeek"),
    "groq": ("openai_chat", "openai_chat__groq", "Groq"),
    "openrouter": ("openai_chat", "openai_chat__openrouter", "OpenRouter"),
}
