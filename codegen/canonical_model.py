"""The spec language for spec/canonical.yaml: features, enums, canonical types, the named
transforms. Strict models (``extra="forbid"``): a typo fails with file, key path and expectation."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .spec_http import Strict


class Feature(Strict):
    id: str = Field(pattern=r"^[a-z_]+$")
    title: str


class EnumValue(Strict):
    value: str
    status: int | None = None
    generic: bool = Field(
        default=False,
        description="ErrorType: a raw type of this type is refined by an HTTP status whose row "
        "names another type (OpenAI sends invalid_request_error with 401 for a bad key)",
    )


class CanonicalEnum(Strict):
    name: str
    doc: str = ""
    values: list[str | EnumValue]

    def items(self) -> list[EnumValue]:
        return [v if isinstance(v, EnumValue) else EnumValue(value=v) for v in self.values]


class CanonicalField(Strict):
    name: str
    type: str
    default: str | None = None
    factory: Literal["list", "dict"] | None = None
    feature: str | None = Field(None, description="feature reported when a target drops it")
    doc: str = ""


class CanonicalType(Strict):
    name: str
    part: str | None = Field(None, description="set on content parts: the part kind")
    event: str | None = Field(None, description="set on stream events: the event kind")
    feature: str | None = Field(None, description="feature reported when a target lacks the part")
    fields: list[CanonicalField]


class TransformRow(Strict):
    """A named transform: where it lives and what a protocol naming it must give (the compiled
    code it calls is emitted for these rows alone)."""

    object: str | None = Field(None, description="module.OBJECT in runtime/transforms (checked)")
    compiled: str | None = Field(
        default=None,
        description="no object: the codec's own decode_<compiled>(w, req, ctx) and "
        "encode_<compiled>(req, out, ctx) (on the response side: (w, resp, ctx), (resp, out, "
        "ctx)), compiled from the rows it names, are called in its place "
        "(codegen/transform_rows.py COMPILED)",
    )
    flags: dict[str, str | bool] = Field(
        default_factory=dict, description="flags a protocol naming it must have, with these values"
    )
    rows: list[str] = Field(
        default_factory=list,
        description="protocol rows it reads, as key paths that must be given "
        "(`response_envelope.message`)",
    )
    side: Literal["request", "response"] = Field(
        default="request",
        description="the body it walks: its decode_/encode_request hooks or its "
        "decode_/encode_response ones (each codec's compiled pipeline calls them on that side, "
        "codegen/pipeline.py)",
    )


class CanonicalSpec(Strict):
    version: Literal[1]
    effort_budgets: dict[str, int] = Field(
        description="reasoning effort <-> thinking budget (tokens), ascending"
    )
    effort_default: str = Field(
        description="the effort whose budget a thinking mode asking no amount gets"
    )
    effort_unknown: str = Field(
        description="the effort whose budget an effort the table lacks gets (reported)"
    )
    features: list[Feature]
    enums: list[CanonicalEnum]
    types: list[CanonicalType]
    transforms: dict[str, str | TransformRow] = Field(
        description="the named transforms: name -> module.OBJECT in runtime/transforms, or a row "
        "with what a protocol naming it needs (checked; each codec's compiled pipeline imports "
        "the objects its protocol names)"
    )

    def transform_rows(self) -> dict[str, TransformRow]:
        """Every transform as a row (a bare module.OBJECT needs nothing)."""
        return {
            n: TransformRow(object=t) if isinstance(t, str) else t
            for n, t in self.transforms.items()
        }
