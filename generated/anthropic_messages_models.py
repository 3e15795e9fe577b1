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
    type: Literal["file"]
    file_id: str


class ImageImageFile2(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["image"]
    source: Source1 | None = None
    cache_control: dict[str, Any] | None = None


class Source2(BaseModel):
    type: Literal["url"]
    url: str


class ImageImageUrl3(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["image"]
    source: Source2 | None = None
    cache_control: dict[str, Any] | None = None


class Source3(BaseModel):
    type: Literal["base64"]
    media_type: str
    data: str


class FileDocumentBase644(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["document"]
    source: Source3 | None = None
    title: str | None = None
    cache_control: dict[str, Any] | None = None


class Source4(BaseModel):
    type: Literal["text"]
    media_type: str | None = None
    data: str


class FileDocumentText5(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["document"]
    source: Source4 | None = None
    title: str | None = None
    cache_control: dict[str, Any] | None = None


class Source5(BaseModel):
    type: Literal["file"]
    file_id: str


class FileDocumentFile6(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["document"]
    source: Source5 | None = None
    title: str | None = None
    cache_control: dict[str, Any] | None = None


class Source6(BaseModel):
    type: Literal["url"]
    url: str


class FileDocumentUrl7(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["document"]
    source: Source6 | None = None
    title: str | None = None
    cache_control: dict[str, Any] | None = None


class RefusalText8(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["text"]
    text: str


class ToolCallToolUse9(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]
    cache_control: dict[str, Any] | None = None


class ToolResultToolResult10(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["tool_result"]
    tool_use_id: str
    content: str | list[dict[str, Any]] | None = None
    is_error: bool | None = None
    cache_control: dict[str, Any] | None = None


class ReasoningRedactedThinking11(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["redacted_thinking"]
    data: str


class ReasoningThinking12(BaseModel):
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
    ImageImageFile2_1: ImageImageFile2 | None = Field(None, alias="ImageImageFile2")
    ImageImageUrl3_1: ImageImageUrl3 | None = Field(None, alias="ImageImageUrl3")
    FileDocumentBase644_1: FileDocumentBase644 | None = Field(None, alias="FileDocumentBase644")
    FileDocumentText5_1: FileDocumentText5 | None = Field(None, alias="FileDocumentText5")
    FileDocumentFile6_1: FileDocumentFile6 | None = Field(None, alias="FileDocumentFile6")
    FileDocumentUrl7_1: FileDocumentUrl7 | None = Field(None, alias="FileDocumentUrl7")
    RefusalText8_1: RefusalText8 | None = Field(None, alias="RefusalText8")
    ToolCallToolUse9_1: ToolCallToolUse9 | None = Field(None, alias="ToolCallToolUse9")
    ToolResultToolResult10_1: ToolResultToolResult10 | None = Field(
        None, alias="ToolResultToolResult10"
    )
    ReasoningRedactedThinking11_1: ReasoningRedactedThinking11 | None = Field(
        None, alias="ReasoningRedactedThinking11"
    )
    ReasoningThinking12_1: ReasoningThinking12 | None = Field(None, alias="ReasoningThinking12")
    Tool_1: Tool | None = Field(None, alias="Tool")
    Usage_1: Usage | None = Field(None, alias="Usage")
    RequestFields_1: RequestFields | None = Field(None, alias="RequestFields")
    ResponseFields_1: ResponseFields | None = Field(None, alias="ResponseFields")
