"""The request settings rows compiled into the codec (codegen/templates/_codec_settings.j2): the
source of the functions and the names they import."""

from __future__ import annotations

from dataclasses import dataclass

from .settings import FormatRows, ReasoningRows
from .settings_format import compile_format

_FORMAT_IMPORTS = (
    "from interlingua.transforms._paths import dig as dig_path, obj_at, put\n"
    "from interlingua.transforms.structured import (\n"
    "    add_hints,\n    format_dropped,\n    keep_keys,\n    kept_keys,\n"
    "    openapi_to_json_schema,\n    put_sent,\n    rest_lost,\n    schema_fields_lost,\n"
    "    sent_values,\n)"
)


@dataclass(frozen=True)
class Compiled:
    source: str  # the functions
    imports: str  # the runtime helpers they call
    types: tuple[str, ...]  # the canonical types they build


def compiled_settings(fmt: FormatRows | None, reasoning: ReasoningRows | None) -> Compiled:
    sources, imports, types = [], [], []
    if fmt is not None:
        sources.append(compile_format(fmt))
        imports.append(_FORMAT_IMPORTS)
        types.append("ResponseFormat")
    return Compiled("\n\n".join(sources), "\n".join(imports), tuple(types))
