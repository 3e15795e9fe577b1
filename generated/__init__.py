# Generated from spec/ by `make generate` (python -m codegen). Do not edit by hand.
"""Code generated from spec/."""
