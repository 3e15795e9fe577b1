# Generated from spec/protocols/anthropic_messages.yaml by `make generate` (python -m codegen). Do not edit by hand.
"""Pydantic wire models of Anthropic Messages (opt-in validation)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class TextText0(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["text"]
    text: str
    cache_control: dict[str, Any] | None = None
    citations: list[Any] | None = None


class Source(BaseModel):
    type: Literal["base64"]
    media_type: str
    data: str


class ImageImageBase641(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["image"]
    source: Source | None = None
    cache_control: dict[str, Any] | None = None


class Source1(BaseModel):
    type: Literal["url"]
    url: str


class ImageImageUrl2(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["image"]
    source: Source1 | None = None
    cache_control: dict[str, Any] | None = None


class Source2(BaseModel):
    type: Literal["base64"]
    media_type: str
    data: str


class FileDocumentBase643(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["document"]
    source: Source2 | None = None
    title: str | None = None
    cache_control: dict[str, Any] | None = None


class Source3(BaseModel):
    type: Literal["url"]
    url: str


class FileDocumentUrl4(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["document"]
    source: Source3 | None = None
    title: str | None = None
    cache_control: dict[str, Any] | None = None


class ToolCallToolUse5(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]
    cache_control: dict[str, Any] | None = None


class ToolResultToolResult6(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["tool_result"]
    tool_use_id: str
    content: str | list[dict[str, Any]] | None = None
    is_error: bool | None = None
    cache_control: dict[str, Any] | None = None


class ReasoningRedactedThinking7(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["redacted_thinking"]
    data: str


class ReasoningThinking8(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["thinking"]
    thinking: str
    signature: str | None = None


class Tool(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    name: str
    description: str | None = None
    input_schema: dict[str, Any] | None = None
    strict: bool | None = None
    cache_control: dict[str, Any] | None = None


class Usage(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    input_tokens: int | None = None
    cache_read_input_tokens: int | None = None
    cache_creation_input_tokens: int | None = None
    output_tokens: int | None = None


class Metadata(BaseModel):
    user_id: str | None = None


class RequestFields(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    model: str | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    stop_sequences: str | list[str] | None = None
    stream: bool | None = None
    metadata: Metadata | None = None


class ResponseFields(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str | None = None
    model: str | None = None
    stop_sequence: str | None = None


class AnthropicMessagesWire(BaseModel):
    TextText0_1: TextText0 | None = Field(None, alias="TextText0")
    ImageImageBase641_1: ImageImageBase641 | None = Field(None, alias="ImageImageBase641")
    ImageImageUrl2_1: ImageImageUrl2 | None = Field(None, alias="ImageImageUrl2")
    FileDocumentBase643_1: FileDocumentBase643 | None = Field(None, alias="FileDocumentBase643")
    FileDocumentUrl4_1: FileDocumentUrl4 | None = Field(None, alias="FileDocumentUrl4")
    ToolCallToolUse5_1: ToolCallToolUse5 | None = Field(None, alias="ToolCallToolUse5")
    ToolResultToolResult6_1: ToolResultToolResult6 | None = Field(
        None, alias="ToolResultToolResult6"
    )
    ReasoningRedactedThinking7_1: ReasoningRedactedThinking7 | None = Field(
        None, alias="ReasoningRedactedThinking7"
    )
    ReasoningThinking8_1: ReasoningThinking8 | None = Field(None, alias="ReasoningThinking8")
    Tool_1: Tool | None = Field(None, alias="Tool")
    Usage_1: Usage | None = Field(None, alias="Usage")
    RequestFields_1: RequestFields | None = Field(None, alias="RequestFields")
    ResponseFields_1: ResponseFields | None = Field(None, alias="ResponseFields")
