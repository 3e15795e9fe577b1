# Generated from spec/protocols/cohere_v2.yaml by `make generate` (python -m codegen). Do not edit by hand.
"""Pydantic wire models of Cohere v2 Chat (opt-in validation)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class TextText0(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["text"]
    text: str


class ImageUrl(BaseModel):
    url: str
    detail: str | None = None


class ImageImageUrl1(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["image_url"]
    image_url: ImageUrl | None = None


class RefusalText2(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["text"]
    text: str


class ReasoningThinking3(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["thinking"]
    thinking: str


class Function(BaseModel):
    name: str
    arguments: str | None


class ToolCallFunction4(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["function"]
    id: str
    function: Function | None = None


class ToolResultTool5(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    role: Literal["tool"]
    tool_call_id: str
    content: str | list[dict[str, Any]] | None = None


class Tool(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    name: str
    description: str | None = None
    parameters: dict[str, Any] | None = None


class Tokens(BaseModel):
    input_tokens: int | None = None
    output_tokens: int | None = None


class Usage(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    tokens: Tokens | None = None
    cached_tokens: int | None = None


class RequestFields(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    model: str | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    p: float | None = None
    k: int | None = None
    stop_sequences: str | list[str] | None = None
    seed: int | None = None
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    stream: bool | None = None


class ResponseFields(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str | None = None


class CohereV2Wire(BaseModel):
    TextText0_1: TextText0 | None = Field(None, alias="TextText0")
    ImageImageUrl1_1: ImageImageUrl1 | None = Field(None, alias="ImageImageUrl1")
    RefusalText2_1: RefusalText2 | None = Field(None, alias="RefusalText2")
    ReasoningThinking3_1: ReasoningThinking3 | None = Field(None, alias="ReasoningThinking3")
    ToolCallFunction4_1: ToolCallFunction4 | None = Field(None, alias="ToolCallFunction4")
    ToolResultTool5_1: ToolResultTool5 | None = Field(None, alias="ToolResultTool5")
    Tool_1: Tool | None = Field(None, alias="Tool")
    Usage_1: Usage | None = Field(None, alias="Usage")
    RequestFields_1: RequestFields | None = Field(None, alias="RequestFields")
    ResponseFields_1: ResponseFields | None = Field(None, alias="ResponseFields")
