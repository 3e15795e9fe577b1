"""Named transforms: the structural regroupings a YAML row cannot express.

Rows reference them by name (``transforms:`` in spec/protocols/*.yaml). Each one declares the
top-level wire keys it consumes (so everything else can ride in ``ext``) and the canonical fields
it handles. Each is tested on its own in tests/test_transforms.py.
"""

from __future__ import annotations

from ._base import Transform
from .content_blocks import CONTENT_BLOCKS_RESPONSE
from .gemini_config import GEMINI_CONFIG
from .gemini_contents import GEMINI_CONTENTS
from .gemini_response import GEMINI_RESPONSE
from .message_response import MESSAGE_RESPONSE
from .messages_blocks import MESSAGES_BLOCKS
from .messages_flat import MESSAGES_FLAT
from .reasoning import REASONING
from .responses_input import RESPONSES_ITEMS
from .responses_output import RESPONSES_OUTPUT
from .structured import RESPONSE_FORMAT
from .tools import TOOLS

REGISTRY: dict[str, Transform] = {
    t.name: t
    for t in (
        MESSAGES_BLOCKS,
        MESSAGES_FLAT,
        TOOLS,
        REASONING,
        RESPONSE_FORMAT,
        CONTENT_BLOCKS_RESPONSE,
        MESSAGE_RESPONSE,
        RESPONSES_ITEMS,
        RESPONSES_OUTPUT,
        GEMINI_CONTENTS,
        GEMINI_CONFIG,
        GEMINI_RESPONSE,
    )
}

__all__ = ["REGISTRY", "Transform"]
