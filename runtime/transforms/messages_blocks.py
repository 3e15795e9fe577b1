"""messages_blocks: a top-level ``system`` plus ``messages`` of content blocks, where tool calls
are assistant blocks and tool results are blocks at the start of the next user turn
(Anthropic Messages). Canonical keeps one ``tool`` message per result, in order; the walk and
its hooks are the shared ones of ``turns`` (the system prompt and a turn's content: a string or
a list of blocks)."""

from __future__ import annotations

from .turns import TurnWalk

MESSAGES_BLOCKS = TurnWalk.transform("messages_blocks", __doc__ or "")
