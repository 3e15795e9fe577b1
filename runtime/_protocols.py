"""Protocol registry: protocol id -> generated codec module and its transforms."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import Any

from ._errors import InterlinguaError
from .transforms import REGISTRY, Transform
from .transforms._base import Dec, Enc, _noop
from .transforms.message_response import envelope_keys

PROTOCOLS = ("anthropic_messages", "openai_chat", "openai_responses", "gemini", "cohere_v2")


class UnknownProtocol(InterlinguaError):
    pass


@dataclass(frozen=True)
class Protocol:
    id: str
    codec: Any
    transforms: tuple[Transform, ...]
    request_known: frozenset[str]
    response_known: frozenset[str]
    request_nested: dict[str, frozenset[str]] | None = None
    # the transforms' hooks per direction, in row order, without the no-op defaults
    request_decoders: tuple[Dec, ...] = field(init=False)
    request_encoders: tuple[Enc, ...] = field(init=False)
    response_decoders: tuple[Dec, ...] = field(init=False)
    response_encoders: tuple[Enc, ...] = field(init=False)

    def __post_init__(self) -> None:
        def real(hooks: list[Any]) -> tuple[Any, ...]:
            return tuple(h for h in hooks if h is not _noop)

        ts = self.transforms
        object.__setattr__(self, "request_decoders", real([t.decode_request for t in ts]))
        object.__setattr__(self, "request_encoders", real([t.encode_request for t in ts]))
        object.__setattr__(self, "response_decoders", real([t.decode_response for t in ts]))
        object.__setattr__(self, "response_encoders", real([t.encode_response for t in ts]))


@cache
def protocol(pid: str) -> Protocol:
    if pid not in PROTOCOLS:
        raise UnknownProtocol(f"unknown protocol {pid!r} (expected one of {', '.join(PROTOCOLS)})")
    try:
        codec = import_module(f"interlingua.generated.{pid}_codec")
    except ModuleNotFoundError:
        raise UnknownProtocol(f"protocol {pid!r} is not implemented yet") from None
    transforms = tuple(REGISTRY[name] for name in codec.TRANSFORMS)
    rule_keys = {codec.TOOL_CHOICE_RULE["strict_path"]} - {None}
    req_known = frozenset(codec.REQUEST_ROW_KEYS).union(
        rule_keys, *(t.request_keys for t in transforms)
    )
    resp_known = frozenset(codec.RESPONSE_ROW_KEYS).union(
        envelope_keys(codec), *(t.response_keys for t in transforms)
    )
    nested: dict[str, frozenset[str]] = dict(getattr(codec, "REQUEST_NESTED", {}))
    for t in transforms:
        for k, keys in t.request_nested.items():
            nested[k] = nested.get(k, frozenset()) | keys
    return Protocol(pid, codec, transforms, req_known, resp_known, nested)


def available() -> list[str]:
    out = []
    for pid in PROTOCOLS:
        try:
            protocol(pid)
        except UnknownProtocol:
            continue
        out.append(pid)
    return out
