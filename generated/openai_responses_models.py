# Generated from spec/protocols/openai_responses.yaml by `make generate` (python -m codegen). Do not edit by hand.
"""Pydantic wire models of OpenAI Responses (opt-in validation)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class TextInputText0(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["input_text"]
    text: str


class TextOutputText1(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["output_text"]
    text: str


class ImageInputImage2(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["input_image"]
    image_url: str | None = None
    file_id: str | None = None
    detail: str | None = None


class FileInputFile3(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["input_file"]
    file_data: str | None = None
    file_id: str | None = None
    filename: str | None = None


class RefusalRefusal4(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["refusal"]
    refusal: str


class ToolCallFunctionCall5(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["function_call"]
    call_id: str
    name: str
    arguments: str | None


class ToolResultFunctionCallOutput6(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["function_call_output"]
    call_id: str
    output: str | list[dict[str, Any]] | None = None


class ReasoningReasoning7(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: Literal["reasoning"]
    id: str | None = None
    encrypted_content: str | None = None


class Tool(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: str
    name: str
    description: str | None = None
    parameters: dict[str, Any] | None = None
    strict: bool | None = None


class InputTokensDetails(BaseModel):
    cached_tokens: int | None = None
    cache_write_tokens: int | None = None


class OutputTokensDetails(BaseModel):
    reasoning_tokens: int | None = None


class Usage(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    input_tokens: int | None = None
    input_tokens_details: InputTokensDetails | None = None
    output_tokens: int | None = None
    output_tokens_details: OutputTokensDetails | None = None
    total_tokens: int | None = None


class RequestFields(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    model: str | None = None
    max_output_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    stream: bool | None = None
    user: str | None = None
    metadata: dict[str, Any] | None = None


class ResponseFields(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str | None = None
    model: str | None = None
    created_at: int | None = None


class OpenaiResponsesWire(BaseModel):
    TextInputText0_1: TextInputText0 | None = Field(None, alias="TextInputText0")
    TextOutputText1_1: TextOutputText1 | None = Field(None, alias="TextOutputText1")
    ImageInputImage2_1: ImageInputImage2 | None = Field(None, alias="ImageInputImage2")
    FileInputFile3_1: FileInputFile3 | None = Field(None, alias="FileInputFile3")
    RefusalRefusal4_1: RefusalRefusal4 | None = Field(None, alias="RefusalRefusal4")
    ToolCallFunctionCall5_1: ToolCallFunctionCall5 | None = Field(
        None, alias="ToolCallFunctionCall5"
    )
    ToolResultFunctionCallOutput6_1: ToolResultFunctionCallOutput6 | None = Field(
        None, alias="ToolResultFunctionCallOutput6"
    )
    ReasoningReasoning7_1: ReasoningReasoning7 | None = Field(None, alias="ReasoningReasoning7")
    Tool_1: Tool | None = Field(None, alias="Tool")
    Usage_1: Usage | None = Field(None, alias="Usage")
    RequestFields_1: RequestFields | None = Field(None, alias="RequestFields")
    ResponseFields_1: ResponseFields | None = Field(None, alias="ResponseFields")
