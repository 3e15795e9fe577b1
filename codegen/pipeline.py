"""A protocol's ``transforms`` row compiled: each codec's ``decode_request``, ``encode_request``,
``decode_response`` and ``encode_response`` (codegen/templates/_codec_pipeline.j2), straight-line
calls of its rows' code and of its transforms' hooks on their side (their canonical.yaml row's
``side``), in row order, with the top-level keys they read as one set. The runtime
(runtime/_pipeline.py) only finds the codec and calls these."""

from __future__ import annotations

from typing import Any

from .canonical_model import CanonicalSpec


def pipeline_view(c: CanonicalSpec, p: Any) -> dict[str, Any]:
    """The objects of ``p``'s transforms (its request side, its response side, in row order)
    and their imports."""
    rows = c.transform_rows()
    where = {n: rows[n].object.rsplit(".", 1) for n in p.transforms}
    response = {n for n in p.transforms if rows[n].side == "response"}
    return {
        "imports": [f"from interlingua.transforms.{m} import {o}" for m, o in where.values()],
        "request": [where[n][1] for n in p.transforms if n not in response],
        "response": [where[n][1] for n in p.transforms if n in response],
    }
