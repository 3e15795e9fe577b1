"""The request settings rows compiled into the codec (codegen/templates/_codec_settings.j2): the
source of the functions (codegen/settings_format.py, settings_reasoning.py) and the names they
import."""

from __future__ import annotations

from dataclasses import dataclass

from .settings import FormatRows, ReasoningRows
from .settings_format import compile_format, format_paths
from .settings_reasoning import compile_reasoning

_PATHS = "from interlingua._codec_support import dig\nfrom interlingua._losses import keys_lost\nfrom interlingua.transforms._paths import obj_at, put"
_FORMAT = (
    "from interlingua.transforms.structured import (\n"
    "    add_hints,\n    format_dropped,\n    keep_keys,\n    kept_keys,\n"
    "    openapi_to_json_schema,\n    schema_fields_lost,\n)"
)
_REASONING = (
    "from interlingua.transforms.reasoning import (\n"
    "    DEFAULT_EFFORT,\n    EFFORT_BUDGETS,\n    effort_for_budget,\n    lost,\n    lowered_budget,\n"
    "    thinking_budget,\n    thinking_off,\n)\n"
    "from interlingua.transforms.structured import add_hints, keep_keys, kept_keys"
)


@dataclass(frozen=True)
class Compiled:
    source: str  # the functions
    imports: str  # the runtime helpers they call (the unused ones are dropped by ruff --fix)
    types: tuple[str, ...]  # the canonical types they build


def compiled_settings(fmt: FormatRows | None, reasoning: ReasoningRows | None) -> Compiled:
    sources, imports, types = [], [_PATHS], []
    if fmt is not None:
        sources.append(compile_format(fmt))
        imports.append(_FORMAT)
        types.append("ResponseFormat")
    if reasoning is not None:
        sources.append(compile_reasoning(reasoning, format_paths(fmt) if fmt else []))
        imports.append(_REASONING)
        types.append("ReasoningConfig")
    if len(imports) == 1:
        return Compiled("", "", ())
    return Compiled("\n\n".join(sources), "\n".join(imports), tuple(types))
