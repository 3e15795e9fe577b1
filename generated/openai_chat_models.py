# Generated from spec/protocols/openai_chat.yaml by `make generate` (python -m codegen). Do not edit by hand.
"""Pydantic wire models of OpenAI Chat Completions (opt-in validation)."""

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


class File(BaseModel):
    file_data: str | None = None
    file_id: str | None = None
    filename: str | None = None


class FileFile2(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["file"]
    file: File | None = None


class InputAudio(BaseModel):
    data: str
    format: str | None = None


class AudioInputAudio3(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["input_audio"]
    input_audio: InputAudio | None = None


class RefusalRefusal4(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["refusal"]
    refusal: str


class Function(BaseModel):
    name: str
    arguments: str | None


class ToolCallFunction5(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["function"]
    id: str
    function: Function | None = None


class ToolResultTool6(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    role: Literal["tool"]
    tool_call_id: str
    content: str | list[dict[str, Any]]


class Tool(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    name: str
    description: str | None = None
    parameters: dict[str, Any] | None = None
    strict: bool | None = None


class PromptTokensDetails(BaseModel):
    cached_tokens: int | None = None


class CompletionTokensDetails(BaseModel):
    reasoning_tokens: int | None = None


class Usage(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    prompt_tokens: int | None = None
    prompt_tokens_details: PromptTokensDetails | None = None
    completion_tokens: int | None = None
    completion_tokens_details: CompletionTokensDetails | None = None
    total_tokens: int | None = None


class StreamOptions(BaseModel):
    include_usage: bool | None = None


class RequestFields(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    model: str | None = None
    max_completion_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    stop: str | list[str] | None = None
    seed: int | None = None
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    stream: bool | None = None
    stream_options: StreamOptions | None = None
    user: str | None = None
    metadata: dict[str, Any] | None = None


class ResponseFields(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str | None = None
    model: str | None = None
    created: int | None = None


class OpenaiChatWire(BaseModel):
    TextText0_1: TextText0 | None = Field(None, alias="TextText0")
    ImageImageUrl1_1: ImageImageUrl1 | None = Field(None, alias="ImageImageUrl1")
    FileFile2_1: FileFile2 | None = Field(None, alias="FileFile2")
    AudioInputAudio3_1: AudioInputAudio3 | None = Field(None, alias="AudioInputAudio3")
    RefusalRefusal4_1: RefusalRefusal4 | None = Field(None, alias="RefusalRefusal4")
    ToolCallFunction5_1: ToolCallFunction5 | None = Field(None, alias="ToolCallFunction5")
    ToolResultTool6_1: ToolResultTool6 | None = Field(None, alias="ToolResultTool6")
    Tool_1: Tool | None = Field(None, alias="Tool")
    Usage_1: Usage | None = Field(None, alias="Usage")
    RequestFields_1: RequestFields | None = Field(None, alias="RequestFields")
    ResponseFields_1: ResponseFields | None = Field(None, alias="ResponseFields")
