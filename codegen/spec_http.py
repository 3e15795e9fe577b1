"""The spec language, protocols/*.yaml `http:` section: how a protocol is called over HTTP.
The runtime types of the same names in generated/spec_types.py are generated from these."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HttpAuth(Strict):
    """How a caller presents its API key: read inbound by the gateway, sent upstream."""

    header: str = Field(pattern=r"^[a-z0-9-]+$", description="request header (lower case)")
    scheme: str | None = Field(
        None, description="word before the key in the header value (`Bearer`), or none"
    )
    query: str | None = Field(
        None, description="URL query parameter also accepted inbound for the key (`key`)"
    )
    # methods copied into the generated runtime type (generated/spec_types.py)
    runtime_methods: ClassVar[tuple[str, ...]] = ("value", "key_in")

    def value(self, key: str) -> str:
        """The header value carrying ``key``."""
        return f"{self.scheme} {key}" if self.scheme else key

    def key_in(self, value: str) -> str | None:
        """The key in a header value, or None when the value lacks the scheme."""
        if not self.scheme:
            return value
        n = len(self.scheme) + 1
        return value[n:] if value[:n].lower() == self.scheme.lower() + " " else None


class CountTokens(Strict):
    """The protocol's token-count call, as the gateway answers it."""

    mode: Literal["native", "estimate"] = Field(
        description="native: an upstream whose protocol has a count endpoint (upstream_path) "
        "answers, the request translated toward it (the estimate when it has none, or it says "
        "404/405/501); estimate: always the gateway's estimate (token_estimate)"
    )
    inbound_paths: list[str] = Field(
        default_factory=list,
        description="paths clients POST a count to (a protocol that names the call in the URL "
        "uses a `count_tokens` url_action instead)",
    )
    upstream_path: str | None = Field(
        None,
        description="the upstream's count endpoint below base_url (native); `{model}`: the "
        "model lives in the URL",
    )
    fields: frozenset[str] = Field(
        default_factory=frozenset,
        description="top-level request fields that are counted and forwarded; empty: the whole body",
    )
    result_field: str = Field(description="key of the count in the answer")
    envelope: dict[str, Any] = Field(
        default_factory=dict,
        description="constant fields of the answer beside the count (`object`)",
    )
    wrap: str | None = Field(
        None,
        description="key a whole generate request is nested under in a count request "
        "(Gemini: generateContentRequest); read inbound when present, written upstream",
    )
    wrap_model: str | None = Field(
        None,
        description="the model field of the nested request, `{model}` replaced (`models/{model}`)",
    )

    @model_validator(mode="after")
    def _native_has_path(self) -> CountTokens:
        if self.mode == "native" and self.upstream_path is None:
            raise ValueError("mode native needs an upstream_path")
        return self


class ModelListing(Strict):
    """The protocol's model list (GET). Protocols sharing a path get one merged answer, so one
    body is readable by each of their SDKs."""

    paths: list[str] = Field(min_length=1, description="GET paths of the list")
    items_key: str = Field(description="key of the list of models in the answer")
    item: dict[str, Any] = Field(
        description="one listed model; a string `{id}` in it is replaced by the model name"
    )
    envelope: dict[str, Any] = Field(
        default_factory=dict,
        description="fields beside the list; a string that is exactly `{first_id}` / `{last_id}` "
        "is the first / last model name (null for an empty list)",
    )
    upstream_path: str | None = Field(
        None,
        pattern=r"^/",
        description="GET below base_url listing an upstream's own models, read back through "
        "items_key and the item's first `{id}` field (prefix stripped: `models/{id}`)",
    )
    upstream_query: dict[str, str] = Field(
        default_factory=dict, description="query of that GET (the largest page: limit, pageSize)"
    )

    @model_validator(mode="after")
    def _known_placeholders(self) -> ModelListing:
        for where, allowed in (("item", {"id"}), ("envelope", {"first_id", "last_id"})):
            unknown = set(_placeholders(getattr(self, where))) - allowed
            if unknown:
                raise ValueError(f"{where}: unknown placeholder(s) {sorted(unknown)}")
        return self


def _placeholders(v: Any) -> list[str]:
    """The ``{name}`` placeholders in the strings of a template."""
    if isinstance(v, str):
        return re.findall(r"\{(\w*)\}", v)
    if isinstance(v, dict):
        return [n for x in v.values() for n in _placeholders(x)]
    if isinstance(v, list):
        return [n for x in v for n in _placeholders(x)]
    return []


class ImageTokens(Strict):
    """Tokens of one image by the provider's documented formula, from its width and height
    (read from the image's header; never from its size in bytes)."""

    rule: Literal["area", "tiles"] = Field(
        description="area: ceil(width * height / divisor) after scaling to fit max_edge and "
        "max_pixels; tiles: base + per_tile * tiles (ceil(w / tile) * ceil(h / tile)) after "
        "scaling to fit fit x fit, then the short side to short_side; within small x small: "
        "small_tokens"
    )
    divisor: float = 750.0
    max_edge: int | None = None
    max_pixels: int | None = None
    tile: int = 512
    per_tile: int = 0
    base: int = 0
    fit: int | None = None
    short_side: int | None = None
    small: int | None = None
    small_tokens: int | None = None
    low_detail: int | None = Field(None, description='tokens of an image sent with detail "low"')
    unknown: int = Field(description="an image whose size cannot be read (a URL, a file id)")


class TokenEstimate(Strict):
    """The gateway's estimate of a request's input tokens when no upstream can count them:
    text by characters, media by the provider's documented formulas."""

    chars_per_token: float = Field(4.0, gt=0, description="text, tool calls and tool schemas")
    image: ImageTokens
    document_page: int = Field(description="one page of a PDF (pages read from the file)")
    media: int = Field(description="audio, video or another file: tokens per item (no length read)")


class HttpSpec(Strict):
    """How the protocol is called over HTTP: the paths its clients use (served by the gateway),
    the upstream endpoint below a base_url, auth and headers. Runtime code reads these, never
    per-protocol tables."""

    base_path: str = Field(
        pattern=r"^/",
        description="API version prefix a base_url ends with (`/v1`); base_path + upstream_path "
        "is the documented endpoint (Translation.path when the model lives in the URL)",
    )
    inbound_paths: list[str] = Field(
        min_length=1,
        description="paths clients POST a call to; `{target}` is `<model>:<action>` for "
        "protocols naming the model and the call in the URL (see url_actions)",
    )
    url_actions: dict[str, Literal["generate", "stream", "count_tokens"]] = Field(
        default_factory=dict,
        description="URL action (after `:` in `{target}`) -> the call it makes",
    )
    upstream_path: str = Field(
        pattern=r"^/",
        description="endpoint below base_url; `{model}` when the model lives in the URL, not "
        "in the body (then the body carries neither model nor stream)",
    )
    upstream_stream_path: str | None = Field(
        None,
        pattern=r"^/",
        description="endpoint of the streaming call when the stream mode lives in the URL",
    )
    model_prefix: str = Field(
        "",
        description="prefix the protocol's model names may carry (`models/`), left out where a "
        "model is put into a path (`{model}`)",
    )
    auth: HttpAuth
    extra_headers: dict[str, str] = Field(
        default_factory=dict, description="constant headers sent upstream (API version ...)"
    )
    forward_headers: list[str] = Field(
        default_factory=list,
        description="caller headers kept on a same-protocol pass-through (lower case)",
    )
    count_tokens: CountTokens | None = Field(None, description="the token-count call, if any")
    models: ModelListing | None = Field(None, description="the model list, if any")
    token_estimate: TokenEstimate | None = Field(
        None,
        description="the estimate of input tokens for this provider's models (the caller's row "
        "serves an upstream without one)",
    )
    otel_provider: str | None = Field(
        None,
        description="the GenAI semantic conventions' gen_ai.provider.name of the protocol's "
        "API (anthropic, openai, gcp.gemini): the gateway's trace spans name their upstream so",
    )
    request_id_header: str | None = Field(
        None,
        pattern=r"^[a-z0-9-]+$",
        description="response header with the call's id, the one the protocol's SDKs read "
        "(the gateway logs the upstream's and returns it to the caller in the caller's header)",
    )

    # methods copied into the generated runtime type (generated/spec_types.py)
    runtime_methods: ClassVar[tuple[str, ...]] = ("bare_model",)

    def bare_model(self, model: str) -> str:
        """``model`` without the protocol's name prefix (``models/x`` -> ``x``)."""
        return model.removeprefix(self.model_prefix)

    @computed_field(description="the model is named in the URL, not in the body")  # type: ignore[prop-decorator]
    @property
    def model_in_path(self) -> bool:
        return "{model}" in self.upstream_path

    @model_validator(mode="after")
    def _consistent(self) -> HttpSpec:
        in_url = any("{target}" in p for p in self.inbound_paths)
        if in_url != bool(self.url_actions):
            raise ValueError("url_actions are needed exactly when an inbound path has {target}")
        if in_url and "generate" not in self.url_actions.values():
            raise ValueError("url_actions need a `generate` action")
        counted = "count_tokens" in self.url_actions.values() or bool(
            self.count_tokens and self.count_tokens.inbound_paths
        )
        if counted != (self.count_tokens is not None):
            raise ValueError("count_tokens needs an inbound path or a count_tokens url_action")
        if self.upstream_stream_path and (
            ("{model}" in self.upstream_stream_path) != self.model_in_path
        ):
            raise ValueError("upstream_path and upstream_stream_path disagree on {model}")
        if self.model_prefix and not self.model_in_path:
            raise ValueError("model_prefix is left out of a path's {model}: upstream_path has none")
        return self
