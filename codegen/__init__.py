"""The interlingua code generator: spec/ (YAML) -> generated/ (Python) and docs."""
