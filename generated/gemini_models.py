# Generated from spec/protocols/gemini.yaml by `make generate` (python -m codegen). Do not edit by hand.
"""Pydantic wire models of Google Gemini generateContent (opt-in validation)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ReasoningTrue0(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    thought: Literal[True]
    text: str | None = None
    thoughtSignature: str | None = None


class FunctionCall(BaseModel):
    id: str | None = None
    name: str
    args: dict[str, Any] | None = None


class ToolCall1(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    functionCall: FunctionCall | None = None


class FunctionResponse(BaseModel):
    id: str | None = None
    name: str
    response: Any | None = None


class ToolResult2(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    functionResponse: FunctionResponse | None = None


class Text3(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    text: str


class InlineData(BaseModel):
    mimeType: str
    data: str


class Image4(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    inlineData: InlineData | None = None


class FileData(BaseModel):
    mimeType: str | None = None
    fileUri: str


class Image5(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    fileData: FileData | None = None


class InlineData1(BaseModel):
    mimeType: str
    data: str
    displayName: str | None = None


class File6(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    inlineData: InlineData1 | None = None


class FileData1(BaseModel):
    mimeType: str | None = None
    fileUri: str
    displayName: str | None = None


class File7(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    fileData: FileData1 | None = None


class InlineData2(BaseModel):
    mimeType: str | None = None
    data: str


class File8(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    inlineData: InlineData2 | None = None


class Tool(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    name: str
    description: str | None = None
    parametersJsonSchema: dict[str, Any] | None = None


class Usage(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    promptTokenCount: int | None = None
    cachedContentTokenCount: int | None = None
    candidatesTokenCount: int | None = None
    thoughtsTokenCount: int | None = None
    totalTokenCount: int | None = None


class GenerationConfig(BaseModel):
    maxOutputTokens: int | None = None
    temperature: float | None = None
    topP: float | None = None
    topK: float | None = None
    stopSequences: str | list[str] | None = None
    seed: float | None = None
    presencePenalty: float | None = None
    frequencyPenalty: float | None = None


class RequestFields(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    model: str | None = None
    generationConfig: GenerationConfig | None = None


class ResponseFields(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    responseId: str | None = None
    modelVersion: str | None = None


class GeminiWire(BaseModel):
    ReasoningTrue0_1: ReasoningTrue0 | None = Field(None, alias="ReasoningTrue0")
    ToolCall1_1: ToolCall1 | None = Field(None, alias="ToolCall1")
    ToolResult2_1: ToolResult2 | None = Field(None, alias="ToolResult2")
    Text3_1: Text3 | None = Field(None, alias="Text3")
    Image4_1: Image4 | None = Field(None, alias="Image4")
    Image5_1: Image5 | None = Field(None, alias="Image5")
    File6_1: File6 | None = Field(None, alias="File6")
    File7_1: File7 | None = Field(None, alias="File7")
    File8_1: File8 | None = Field(None, alias="File8")
    Tool_1: Tool | None = Field(None, alias="Tool")
    Usage_1: Usage | None = Field(None, alias="Usage")
    RequestFields_1: RequestFields | None = Field(None, alias="RequestFields")
    ResponseFields_1: ResponseFields | None = Field(None, alias="ResponseFields")
