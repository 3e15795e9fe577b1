# Generated from spec/protocols/openai_responses.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""OpenAI Responses stream: run by the named stream transform in runtime/streams/openai_responses.py."""

ROWS = None
TRANSFORM = "openai_responses"
