# Generated from spec/protocols/gemini.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""Google Gemini generateContent stream: run by the named stream transform in runtime/streams/gemini.py."""

ROWS = None
TRANSFORM = "gemini"
