"""Placeholder demo; replaced by the tool-loop demo."""

import interlingua

print("interlingua protocols available:", ", ".join(interlingua.available()))
