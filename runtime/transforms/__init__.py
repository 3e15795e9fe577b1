"""Named transforms: the structural regroupings a YAML row cannot express.

Rows reference them by name (``transforms:`` in spec/protocols/*.yaml). Each one declares the
top-level wire keys it consumes that no row says (so everything else can ride in ``ext``; those
of the compiled code it calls are the codec's rows') and the canonical fields it handles. Each is tested on its own in tests/test_transforms.py.
"""

from __future__ import annotations

from importlib import import_module

from ..generated.transforms import TRANSFORMS
from ._base import Transform

# name -> transform, from the table codegen compiles out of spec/canonical.yaml `transforms`
REGISTRY: dict[str, Transform] = {
    name: getattr(import_module(f"{__name__}.{module}"), obj)
    for name, (module, obj) in TRANSFORMS.items()
}

__all__ = ["REGISTRY", "Transform"]
