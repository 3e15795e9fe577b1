"""The shape of a named transform: the hooks a codec's compiled pipeline calls, and the top-level
wire keys they read that no row says (its name is its spec/canonical.yaml row's, its doc its
module's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._losses import Ctx

Codec = Any  # a generated interlingua.generated.<protocol>_codec module
Dec = Callable[[dict[str, Any], Any, Codec, Ctx], None]
Enc = Callable[[Any, dict[str, Any], Codec, Ctx], None]


def _noop(*_: Any) -> None:
    return None


@dataclass(frozen=True)
class Transform:
    request_keys: frozenset[str] = frozenset()
    response_keys: frozenset[str] = frozenset()
    decode_request: Dec = _noop
    encode_request: Enc = _noop
    decode_response: Dec = _noop
    encode_response: Enc = _noop
