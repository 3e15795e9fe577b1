# Generated from spec/canonical.yaml by `make generate` (python -m codegen). Do not edit by hand.
"""The named transforms: name -> (module in runtime/transforms, object)."""

TRANSFORMS: dict[str, tuple[str, str]] = {
    "tools": ("tools", "TOOLS"),
    "message_response": ("message_response", "MESSAGE_RESPONSE"),
    "responses_items": ("responses_input", "RESPONSES_ITEMS"),
    "responses_output": ("responses_output", "RESPONSES_OUTPUT"),
    "gemini_response": ("gemini_response", "GEMINI_RESPONSE"),
}
