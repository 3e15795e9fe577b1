"""A protocol's ``transforms`` row compiled: each codec's ``decode_request``, ``encode_request``,
``decode_response`` and ``encode_response`` (codegen/templates/_codec_pipeline.j2), straight-line
calls of its rows' code and of its transforms' hooks on their side (their canonical.yaml row's
``side``), or of the codec's own functions where the row says ``compiled``, in row order, with the top-level keys they read
as one set. The runtime (runtime/_pipeline.py) only finds the codec and calls these."""

from __future__ import annotations

from typing import Any

from .canonical_model import CanonicalSpec, TransformRow


def pipeline_view(c: CanonicalSpec, p: Any) -> dict[str, Any]:
    """``p``'s transforms (its request side, its response side, in row order) as the rows
    that name them, and the imports of their objects: a ``compiled`` row is the codec's own
    functions, which the pipeline calls in its place."""
    rows = [c.transform_rows()[n] for n in p.transforms]
    where = [r.object.rsplit(".", 1) for r in rows if r.object is not None]
    return {
        "imports": [f"from interlingua.transforms.{m} import {o}" for m, o in where],
        "request": [_named(r) for r in rows if r.side == "request"],
        "response": [_named(r) for r in rows if r.side == "response"],
    }


def _named(row: TransformRow) -> TransformRow:
    """The row with its object's name alone (module.OBJECT -> OBJECT)."""
    if row.object is None:
        return row
    return row.model_copy(update={"object": row.object.rsplit(".", 1)[-1]})
