"""The usage rule responses and streams share: the counts a target's usage object has no field
for are reported. The rest of the response envelope (usage, the keys every response carries, the
keys a source left out, the first of a ``choices`` list, the finish) is compiled from the
protocol's ``response_envelope`` and ``usage_path`` rows into its generated codec
(codegen/envelope_code.py: ``decode_response_envelope``, ``encode_response_envelope``,
``first_choice``, ``write_choices``, ``read_finish``, ``write_finish``, ``RESPONSE_KNOWN``)."""

from __future__ import annotations

from collections.abc import Collection

from .._losses import Loss
from ..generated.canonical import Usage

__all__ = ["usage_losses"]


def usage_losses(u: Usage, carried: Collection[str], target: str, path: str) -> list[Loss]:
    """The counts of ``u`` the target's usage has no field for (``carried``: the codec's
    ``USAGE_CARRIED``)."""
    return [
        Loss(
            f"{path}.{name}",
            f"{name} count {n} dropped (still included in the totals)",
            f"{target} usage has no such count",
            "usage",
        )
        for name in ("input_cache_read", "input_cache_write", "output_reasoning")
        if (n := getattr(u, name)) and name not in carried
    ]
