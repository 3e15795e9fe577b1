# Generated from spec/canonical.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""The canonical model (spec/canonical.yaml): slotted dataclasses, cheap to build on the hot path."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

_new = object.__new__

FEATURES: dict[str, str] = {
    "system": "System prompt (leading system/developer messages)",
    "system_position": "System/developer message after the first turn, keeps its position",
    "roles": "Roles user / assistant / tool",
    "text": "Text parts",
    "image": "Image input (base64 and URL)",
    "file": "Document / file input",
    "audio": "Audio input",
    "tool_call": "Assistant tool calls (id, name, arguments)",
    "tool_result": "Tool results correlated by call id",
    "tool_result_error": "Tool result error flag (is_error)",
    "reasoning_text": "Reasoning text in responses and streams",
    "reasoning_replay": "Reasoning replay with opaque state (signatures / encrypted content)",
    "tool_spec": "Function tool definitions with JSON Schema and strict",
    "hosted_tools": "Provider-hosted / non-function tools",
    "tool_choice": "tool_choice auto / none / required / named",
    "parallel_tool_calls": "Parallel tool call switch",
    "max_tokens": "Output token limit",
    "sampling": "temperature / top_p / stop sequences",
    "top_k": "top_k sampling",
    "seed": "Sampling seed",
    "penalties": "Presence / frequency penalties",
    "user": "End-user id",
    "reasoning_config": "Reasoning configuration (budget / effort)",
    "structured_output": "Structured output (JSON schema)",
    "caching": "Prompt cache hints",
    "usage": "Token usage with cache and reasoning counts",
    "finish_reason": "Finish reasons (unified and raw)",
    "errors": "Error bodies and HTTP statuses",
    "stream_text": "Streamed text deltas",
    "stream_reasoning": "Streamed reasoning deltas and signature",
    "stream_tool_calls": "Streamed tool calls (start, argument deltas)",
    "stream_usage": "Streamed usage",
    "stream_error": "Mid-stream error event",
    "extensions": "Fields of the source protocol with no canonical home",
    "native_parts": "Protocol-specific content blocks (server tool blocks, compaction, dialect parts), carried only to their own protocol",
}

ROLE: tuple[str, ...] = (
    "system",
    "developer",
    "user",
    "assistant",
    "tool",
)
FINISH_REASON: tuple[str, ...] = (
    "stop",
    "length",
    "tool_calls",
    "content_filter",
    "stop_sequence",
    "refusal",
    "pause",
    "error",
    "other",
)
TOOL_CHOICE_MODE: tuple[str, ...] = (
    "auto",
    "none",
    "required",
    "tool",
)
ERROR_TYPE: tuple[str, ...] = (
    "invalid_request",
    "authentication",
    "permission",
    "not_found",
    "request_too_large",
    "rate_limit",
    "api_error",
    "overloaded",
    "timeout",
    "bad_gateway",
)
STREAM_ENDING: tuple[str, ...] = (
    "completed",
    "failed",
    "disconnected",
)
EFFORT_BUDGETS: dict[str, int] = {
    "minimal": 1024,
    "low": 2048,
    "medium": 8192,
    "high": 24576,
    "max": 32000,
}
DEFAULT_EFFORT = "medium"  # a thinking mode asking no amount
UNKNOWN_EFFORT = "high"  # an effort EFFORT_BUDGETS lacks


@dataclass(slots=True, kw_only=True)
class Request:
    model: str | None = None
    messages: list[Message] = field(default_factory=list)
    tools: list[Tool] = field(default_factory=list)
    tool_choice: ToolChoice | None = None
    parallel_tool_calls: bool | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    stop: list[str] | None = None
    seed: int | None = None
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    stream: bool | None = None
    include_usage: bool | None = None
    user: str | None = None
    metadata: dict[str, Any] | None = None
    reasoning: ReasoningConfig | None = None
    response_format: ResponseFormat | None = None
    source: str = ""  # protocol id the request was decoded from
    ext: dict[str, Any] | None = None  # source-protocol fields with no canonical home
    hints: dict[str, Any] | None = None  # source wire form hints (never a loss)

    def __copy__(self) -> Request:  # copy.copy without the generic __reduce_ex__ walk
        return Request(
            model=self.model,
            messages=self.messages,
            tools=self.tools,
            tool_choice=self.tool_choice,
            parallel_tool_calls=self.parallel_tool_calls,
            max_tokens=self.max_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            top_k=self.top_k,
            stop=self.stop,
            seed=self.seed,
            presence_penalty=self.presence_penalty,
            frequency_penalty=self.frequency_penalty,
            stream=self.stream,
            include_usage=self.include_usage,
            user=self.user,
            metadata=self.metadata,
            reasoning=self.reasoning,
            response_format=self.response_format,
            source=self.source,
            ext=self.ext,
            hints=self.hints,
        )


@dataclass(slots=True, kw_only=True)
class Message:
    role: str
    parts: list[Part] = field(default_factory=list)
    name: str | None = None
    ext: dict[str, Any] | None = None
    hints: dict[str, Any] | None = None

    def __copy__(self) -> Message:  # copy.copy without the generic __reduce_ex__ walk
        return Message(
            role=self.role, parts=self.parts, name=self.name, ext=self.ext, hints=self.hints
        )


@dataclass(slots=True, kw_only=True)
class Tool:
    name: str
    description: str | None = None
    parameters: dict[str, Any] | None = None
    strict: bool | None = None
    kind: str = "function"  # 'function' or a hosted tool type
    cache: dict[str, Any] | None = None
    ext: dict[str, Any] | None = None  # unknown keys; 'a.b' is key b of the known object a
    hints: dict[str, Any] | None = None  # source wire form hints (never a loss)

    def __copy__(self) -> Tool:  # copy.copy without the generic __reduce_ex__ walk
        return Tool(
            name=self.name,
            description=self.description,
            parameters=self.parameters,
            strict=self.strict,
            kind=self.kind,
            cache=self.cache,
            ext=self.ext,
            hints=self.hints,
        )


def new_Tool(
    *,
    name: str,
    description: str | None = None,
    parameters: dict[str, Any] | None = None,
    strict: bool | None = None,
    kind: str = "function",
    cache: dict[str, Any] | None = None,
    ext: dict[str, Any] | None = None,
    hints: dict[str, Any] | None = None,
) -> Tool:
    """``Tool(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(Tool)
    o.name = name
    o.description = description
    o.parameters = parameters
    o.strict = strict
    o.kind = kind
    o.cache = cache
    o.ext = ext
    o.hints = hints
    return o


@dataclass(slots=True, kw_only=True)
class ToolChoice:
    mode: str
    name: str | None = None

    def __copy__(self) -> ToolChoice:  # copy.copy without the generic __reduce_ex__ walk
        return ToolChoice(mode=self.mode, name=self.name)


def new_ToolChoice(*, mode: str, name: str | None = None) -> ToolChoice:
    """``ToolChoice(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ToolChoice)
    o.mode = mode
    o.name = name
    return o


@dataclass(slots=True, kw_only=True)
class ReasoningConfig:
    mode: str | None = None  # enabled | adaptive | disabled
    budget_tokens: int | None = None
    effort: str | None = None  # minimal | low | medium | high | max
    summary: str | None = None
    ext: dict[str, dict[str, Any]] | None = None  # wire object -> its fields with no canonical home

    def __copy__(self) -> ReasoningConfig:  # copy.copy without the generic __reduce_ex__ walk
        return ReasoningConfig(
            mode=self.mode,
            budget_tokens=self.budget_tokens,
            effort=self.effort,
            summary=self.summary,
            ext=self.ext,
        )


def new_ReasoningConfig(
    *,
    mode: str | None = None,
    budget_tokens: int | None = None,
    effort: str | None = None,
    summary: str | None = None,
    ext: dict[str, dict[str, Any]] | None = None,
) -> ReasoningConfig:
    """``ReasoningConfig(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ReasoningConfig)
    o.mode = mode
    o.budget_tokens = budget_tokens
    o.effort = effort
    o.summary = summary
    o.ext = ext
    return o


@dataclass(slots=True, kw_only=True)
class ResponseFormat:
    type: str  # text | json_object | json_schema
    name: str | None = None
    schema: dict[str, Any] | None = None
    strict: bool | None = None
    description: str | None = None

    def __copy__(self) -> ResponseFormat:  # copy.copy without the generic __reduce_ex__ walk
        return ResponseFormat(
            type=self.type,
            name=self.name,
            schema=self.schema,
            strict=self.strict,
            description=self.description,
        )


def new_ResponseFormat(
    *,
    type: str,
    name: str | None = None,
    schema: dict[str, Any] | None = None,
    strict: bool | None = None,
    description: str | None = None,
) -> ResponseFormat:
    """``ResponseFormat(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ResponseFormat)
    o.type = type
    o.name = name
    o.schema = schema
    o.strict = strict
    o.description = description
    return o


@dataclass(slots=True, kw_only=True)
class TextPart:
    PART: ClassVar[str] = "text"
    FEATURE: ClassVar[str] = "text"
    text: str
    cache: dict[str, Any] | None = None
    annotations: list[Any] | None = None
    ext: dict[str, Any] | None = None

    def __copy__(self) -> TextPart:  # copy.copy without the generic __reduce_ex__ walk
        return TextPart(
            text=self.text, cache=self.cache, annotations=self.annotations, ext=self.ext
        )


def new_TextPart(
    *,
    text: str,
    cache: dict[str, Any] | None = None,
    annotations: list[Any] | None = None,
    ext: dict[str, Any] | None = None,
) -> TextPart:
    """``TextPart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(TextPart)
    o.text = text
    o.cache = cache
    o.annotations = annotations
    o.ext = ext
    return o


@dataclass(slots=True, kw_only=True)
class ImagePart:
    PART: ClassVar[str] = "image"
    FEATURE: ClassVar[str] = "image"
    media_type: str | None = None
    data: str | None = None  # base64 payload
    url: str | None = None
    file_id: str | None = None
    detail: str | None = None
    cache: dict[str, Any] | None = None
    ext: dict[str, Any] | None = None

    def __copy__(self) -> ImagePart:  # copy.copy without the generic __reduce_ex__ walk
        return ImagePart(
            media_type=self.media_type,
            data=self.data,
            url=self.url,
            file_id=self.file_id,
            detail=self.detail,
            cache=self.cache,
            ext=self.ext,
        )


def new_ImagePart(
    *,
    media_type: str | None = None,
    data: str | None = None,
    url: str | None = None,
    file_id: str | None = None,
    detail: str | None = None,
    cache: dict[str, Any] | None = None,
    ext: dict[str, Any] | None = None,
) -> ImagePart:
    """``ImagePart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ImagePart)
    o.media_type = media_type
    o.data = data
    o.url = url
    o.file_id = file_id
    o.detail = detail
    o.cache = cache
    o.ext = ext
    return o


@dataclass(slots=True, kw_only=True)
class FilePart:
    PART: ClassVar[str] = "file"
    FEATURE: ClassVar[str] = "file"
    media_type: str | None = None
    data: str | None = None
    url: str | None = None
    file_id: str | None = None
    text: str | None = None  # an inline plain-text document
    filename: str | None = None
    cache: dict[str, Any] | None = None
    ext: dict[str, Any] | None = None

    def __copy__(self) -> FilePart:  # copy.copy without the generic __reduce_ex__ walk
        return FilePart(
            media_type=self.media_type,
            data=self.data,
            url=self.url,
            file_id=self.file_id,
            text=self.text,
            filename=self.filename,
            cache=self.cache,
            ext=self.ext,
        )


def new_FilePart(
    *,
    media_type: str | None = None,
    data: str | None = None,
    url: str | None = None,
    file_id: str | None = None,
    text: str | None = None,
    filename: str | None = None,
    cache: dict[str, Any] | None = None,
    ext: dict[str, Any] | None = None,
) -> FilePart:
    """``FilePart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(FilePart)
    o.media_type = media_type
    o.data = data
    o.url = url
    o.file_id = file_id
    o.text = text
    o.filename = filename
    o.cache = cache
    o.ext = ext
    return o


@dataclass(slots=True, kw_only=True)
class ToolCallPart:
    PART: ClassVar[str] = "tool_call"
    FEATURE: ClassVar[str] = "tool_call"
    id: str
    name: str
    arguments: str  # the raw JSON text of the arguments, parsed on demand
    cache: dict[str, Any] | None = None
    ext: dict[str, Any] | None = None
    hints: dict[str, Any] | None = None

    def __copy__(self) -> ToolCallPart:  # copy.copy without the generic __reduce_ex__ walk
        return ToolCallPart(
            id=self.id,
            name=self.name,
            arguments=self.arguments,
            cache=self.cache,
            ext=self.ext,
            hints=self.hints,
        )


def new_ToolCallPart(
    *,
    id: str,
    name: str,
    arguments: str,
    cache: dict[str, Any] | None = None,
    ext: dict[str, Any] | None = None,
    hints: dict[str, Any] | None = None,
) -> ToolCallPart:
    """``ToolCallPart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ToolCallPart)
    o.id = id
    o.name = name
    o.arguments = arguments
    o.cache = cache
    o.ext = ext
    o.hints = hints
    return o


@dataclass(slots=True, kw_only=True)
class ToolResultPart:
    PART: ClassVar[str] = "tool_result"
    FEATURE: ClassVar[str] = "tool_result"
    call_id: str
    content: list[Part] | None = field(default_factory=list)  # None: absent on the wire
    is_error: bool | None = None
    name: str | None = None
    cache: dict[str, Any] | None = None
    ext: dict[str, Any] | None = None
    hints: dict[str, Any] | None = None

    def __copy__(self) -> ToolResultPart:  # copy.copy without the generic __reduce_ex__ walk
        return ToolResultPart(
            call_id=self.call_id,
            content=self.content,
            is_error=self.is_error,
            name=self.name,
            cache=self.cache,
            ext=self.ext,
            hints=self.hints,
        )


@dataclass(slots=True, kw_only=True)
class ReasoningPart:
    PART: ClassVar[str] = "reasoning"
    FEATURE: ClassVar[str] = "reasoning_replay"
    text: str = ""
    signature: str | None = None  # opaque state of the owner protocol
    redacted: str | None = None  # redacted/encrypted reasoning payload
    owner: str | None = None  # protocol id that made the opaque state
    id: str | None = None
    cache: dict[str, Any] | None = None
    ext: dict[str, Any] | None = None

    def __copy__(self) -> ReasoningPart:  # copy.copy without the generic __reduce_ex__ walk
        return ReasoningPart(
            text=self.text,
            signature=self.signature,
            redacted=self.redacted,
            owner=self.owner,
            id=self.id,
            cache=self.cache,
            ext=self.ext,
        )


def new_ReasoningPart(
    *,
    text: str = "",
    signature: str | None = None,
    redacted: str | None = None,
    owner: str | None = None,
    id: str | None = None,
    cache: dict[str, Any] | None = None,
    ext: dict[str, Any] | None = None,
) -> ReasoningPart:
    """``ReasoningPart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ReasoningPart)
    o.text = text
    o.signature = signature
    o.redacted = redacted
    o.owner = owner
    o.id = id
    o.cache = cache
    o.ext = ext
    return o


@dataclass(slots=True, kw_only=True)
class AudioPart:
    PART: ClassVar[str] = "audio"
    FEATURE: ClassVar[str] = "audio"
    data: str  # base64 payload
    format: str | None = None  # wav, mp3 ...
    ext: dict[str, Any] | None = None

    def __copy__(self) -> AudioPart:  # copy.copy without the generic __reduce_ex__ walk
        return AudioPart(data=self.data, format=self.format, ext=self.ext)


def new_AudioPart(
    *, data: str, format: str | None = None, ext: dict[str, Any] | None = None
) -> AudioPart:
    """``AudioPart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(AudioPart)
    o.data = data
    o.format = format
    o.ext = ext
    return o


@dataclass(slots=True, kw_only=True)
class NativePart:
    PART: ClassVar[str] = "native"
    FEATURE: ClassVar[str] = "native_parts"
    type: str  # the block's wire type
    data: dict[str, Any]  # the whole wire block
    owner: str  # protocol id the block belongs to

    def __copy__(self) -> NativePart:  # copy.copy without the generic __reduce_ex__ walk
        return NativePart(type=self.type, data=self.data, owner=self.owner)


def new_NativePart(*, type: str, data: dict[str, Any], owner: str) -> NativePart:
    """``NativePart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(NativePart)
    o.type = type
    o.data = data
    o.owner = owner
    return o


@dataclass(slots=True, kw_only=True)
class RefusalPart:
    PART: ClassVar[str] = "refusal"
    FEATURE: ClassVar[str] = "text"
    text: str
    ext: dict[str, Any] | None = None

    def __copy__(self) -> RefusalPart:  # copy.copy without the generic __reduce_ex__ walk
        return RefusalPart(text=self.text, ext=self.ext)


def new_RefusalPart(*, text: str, ext: dict[str, Any] | None = None) -> RefusalPart:
    """``RefusalPart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(RefusalPart)
    o.text = text
    o.ext = ext
    return o


@dataclass(slots=True, kw_only=True)
class Usage:
    input_total: int = 0  # all input tokens, cached ones included
    input_cache_read: int = 0
    input_cache_write: int = 0
    output_total: int = 0  # all output tokens, reasoning included
    output_reasoning: int = 0
    raw: dict[str, Any] | None = None

    def __copy__(self) -> Usage:  # copy.copy without the generic __reduce_ex__ walk
        return Usage(
            input_total=self.input_total,
            input_cache_read=self.input_cache_read,
            input_cache_write=self.input_cache_write,
            output_total=self.output_total,
            output_reasoning=self.output_reasoning,
            raw=self.raw,
        )


def new_Usage(
    *,
    input_total: int = 0,
    input_cache_read: int = 0,
    input_cache_write: int = 0,
    output_total: int = 0,
    output_reasoning: int = 0,
    raw: dict[str, Any] | None = None,
) -> Usage:
    """``Usage(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(Usage)
    o.input_total = input_total
    o.input_cache_read = input_cache_read
    o.input_cache_write = input_cache_write
    o.output_total = output_total
    o.output_reasoning = output_reasoning
    o.raw = raw
    return o


@dataclass(slots=True, kw_only=True)
class Finish:
    unified: str
    raw: str | None = None
    hints: dict[str, Any] | None = (
        None  # source wire form hints (never a loss): numeric, the number a reason came as (finish_rule.numeric)
    )

    def __copy__(self) -> Finish:  # copy.copy without the generic __reduce_ex__ walk
        return Finish(unified=self.unified, raw=self.raw, hints=self.hints)


def new_Finish(
    *, unified: str, raw: str | None = None, hints: dict[str, Any] | None = None
) -> Finish:
    """``Finish(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(Finish)
    o.unified = unified
    o.raw = raw
    o.hints = hints
    return o


@dataclass(slots=True, kw_only=True)
class Response:
    id: str | None = None
    model: str | None = None
    parts: list[Part] = field(default_factory=list)
    finish: Finish | None = None
    stop_sequence: str | None = None
    usage: Usage | None = None
    created: int | None = None  # creation time; not content, never reported
    source: str = ""
    ext: dict[str, Any] | None = None
    hints: dict[str, Any] | None = None

    def __copy__(self) -> Response:  # copy.copy without the generic __reduce_ex__ walk
        return Response(
            id=self.id,
            model=self.model,
            parts=self.parts,
            finish=self.finish,
            stop_sequence=self.stop_sequence,
            usage=self.usage,
            created=self.created,
            source=self.source,
            ext=self.ext,
            hints=self.hints,
        )


@dataclass(slots=True, kw_only=True)
class ErrorInfo:
    type: str  # unified ErrorType
    message: str
    status: int
    raw_type: str | None = None
    param: str | None = None
    code: str | None = None
    source: str = ""  # protocol id the error was decoded from

    def __copy__(self) -> ErrorInfo:  # copy.copy without the generic __reduce_ex__ walk
        return ErrorInfo(
            type=self.type,
            message=self.message,
            status=self.status,
            raw_type=self.raw_type,
            param=self.param,
            code=self.code,
            source=self.source,
        )


def new_ErrorInfo(
    *,
    type: str,
    message: str,
    status: int,
    raw_type: str | None = None,
    param: str | None = None,
    code: str | None = None,
    source: str = "",
) -> ErrorInfo:
    """``ErrorInfo(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ErrorInfo)
    o.type = type
    o.message = message
    o.status = status
    o.raw_type = raw_type
    o.param = param
    o.code = code
    o.source = source
    return o


@dataclass(slots=True, kw_only=True)
class StreamStart:
    EVENT: ClassVar[str] = "start"
    id: str | None = None
    model: str | None = None
    created: int | None = None
    usage: Usage | None = None

    def __copy__(self) -> StreamStart:  # copy.copy without the generic __reduce_ex__ walk
        return StreamStart(id=self.id, model=self.model, created=self.created, usage=self.usage)


def new_StreamStart(
    *,
    id: str | None = None,
    model: str | None = None,
    created: int | None = None,
    usage: Usage | None = None,
) -> StreamStart:
    """``StreamStart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(StreamStart)
    o.id = id
    o.model = model
    o.created = created
    o.usage = usage
    return o


@dataclass(slots=True, kw_only=True)
class TextStart:
    EVENT: ClassVar[str] = "text_start"
    key: str

    def __copy__(self) -> TextStart:  # copy.copy without the generic __reduce_ex__ walk
        return TextStart(key=self.key)


def new_TextStart(*, key: str) -> TextStart:
    """``TextStart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(TextStart)
    o.key = key
    return o


@dataclass(slots=True, kw_only=True)
class TextDelta:
    EVENT: ClassVar[str] = "text_delta"
    key: str
    text: str

    def __copy__(self) -> TextDelta:  # copy.copy without the generic __reduce_ex__ walk
        return TextDelta(key=self.key, text=self.text)


def new_TextDelta(*, key: str, text: str) -> TextDelta:
    """``TextDelta(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(TextDelta)
    o.key = key
    o.text = text
    return o


@dataclass(slots=True, kw_only=True)
class TextEnd:
    EVENT: ClassVar[str] = "text_end"
    key: str

    def __copy__(self) -> TextEnd:  # copy.copy without the generic __reduce_ex__ walk
        return TextEnd(key=self.key)


def new_TextEnd(*, key: str) -> TextEnd:
    """``TextEnd(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(TextEnd)
    o.key = key
    return o


@dataclass(slots=True, kw_only=True)
class ReasoningStart:
    EVENT: ClassVar[str] = "reasoning_start"
    key: str

    def __copy__(self) -> ReasoningStart:  # copy.copy without the generic __reduce_ex__ walk
        return ReasoningStart(key=self.key)


def new_ReasoningStart(*, key: str) -> ReasoningStart:
    """``ReasoningStart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ReasoningStart)
    o.key = key
    return o


@dataclass(slots=True, kw_only=True)
class ReasoningDelta:
    EVENT: ClassVar[str] = "reasoning_delta"
    key: str
    text: str

    def __copy__(self) -> ReasoningDelta:  # copy.copy without the generic __reduce_ex__ walk
        return ReasoningDelta(key=self.key, text=self.text)


def new_ReasoningDelta(*, key: str, text: str) -> ReasoningDelta:
    """``ReasoningDelta(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ReasoningDelta)
    o.key = key
    o.text = text
    return o


@dataclass(slots=True, kw_only=True)
class ReasoningEnd:
    EVENT: ClassVar[str] = "reasoning_end"
    key: str
    signature: str | None = None
    redacted: str | None = None
    owner: str | None = None

    def __copy__(self) -> ReasoningEnd:  # copy.copy without the generic __reduce_ex__ walk
        return ReasoningEnd(
            key=self.key, signature=self.signature, redacted=self.redacted, owner=self.owner
        )


def new_ReasoningEnd(
    *, key: str, signature: str | None = None, redacted: str | None = None, owner: str | None = None
) -> ReasoningEnd:
    """``ReasoningEnd(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ReasoningEnd)
    o.key = key
    o.signature = signature
    o.redacted = redacted
    o.owner = owner
    return o


@dataclass(slots=True, kw_only=True)
class ToolCallStart:
    EVENT: ClassVar[str] = "tool_call_start"
    key: str
    id: str
    name: str

    def __copy__(self) -> ToolCallStart:  # copy.copy without the generic __reduce_ex__ walk
        return ToolCallStart(key=self.key, id=self.id, name=self.name)


def new_ToolCallStart(*, key: str, id: str, name: str) -> ToolCallStart:
    """``ToolCallStart(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ToolCallStart)
    o.key = key
    o.id = id
    o.name = name
    return o


@dataclass(slots=True, kw_only=True)
class ToolCallDelta:
    EVENT: ClassVar[str] = "tool_call_delta"
    key: str
    arguments: str

    def __copy__(self) -> ToolCallDelta:  # copy.copy without the generic __reduce_ex__ walk
        return ToolCallDelta(key=self.key, arguments=self.arguments)


def new_ToolCallDelta(*, key: str, arguments: str) -> ToolCallDelta:
    """``ToolCallDelta(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ToolCallDelta)
    o.key = key
    o.arguments = arguments
    return o


@dataclass(slots=True, kw_only=True)
class ToolCallEnd:
    EVENT: ClassVar[str] = "tool_call_end"
    key: str

    def __copy__(self) -> ToolCallEnd:  # copy.copy without the generic __reduce_ex__ walk
        return ToolCallEnd(key=self.key)


def new_ToolCallEnd(*, key: str) -> ToolCallEnd:
    """``ToolCallEnd(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ToolCallEnd)
    o.key = key
    return o


@dataclass(slots=True, kw_only=True)
class UsageEvent:
    EVENT: ClassVar[str] = "usage"
    usage: Usage

    def __copy__(self) -> UsageEvent:  # copy.copy without the generic __reduce_ex__ walk
        return UsageEvent(usage=self.usage)


def new_UsageEvent(*, usage: Usage) -> UsageEvent:
    """``UsageEvent(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(UsageEvent)
    o.usage = usage
    return o


@dataclass(slots=True, kw_only=True)
class FinishEvent:
    EVENT: ClassVar[str] = "finish"
    finish: Finish
    stop_sequence: str | None = None

    def __copy__(self) -> FinishEvent:  # copy.copy without the generic __reduce_ex__ walk
        return FinishEvent(finish=self.finish, stop_sequence=self.stop_sequence)


def new_FinishEvent(*, finish: Finish, stop_sequence: str | None = None) -> FinishEvent:
    """``FinishEvent(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(FinishEvent)
    o.finish = finish
    o.stop_sequence = stop_sequence
    return o


@dataclass(slots=True, kw_only=True)
class ErrorEvent:
    EVENT: ClassVar[str] = "error"
    error: ErrorInfo

    def __copy__(self) -> ErrorEvent:  # copy.copy without the generic __reduce_ex__ walk
        return ErrorEvent(error=self.error)


def new_ErrorEvent(*, error: ErrorInfo) -> ErrorEvent:
    """``ErrorEvent(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(ErrorEvent)
    o.error = error
    return o


@dataclass(slots=True, kw_only=True)
class StreamEnd:
    EVENT: ClassVar[str] = "end"
    ending: str  # completed | failed | disconnected

    def __copy__(self) -> StreamEnd:  # copy.copy without the generic __reduce_ex__ walk
        return StreamEnd(ending=self.ending)


def new_StreamEnd(*, ending: str) -> StreamEnd:
    """``StreamEnd(...)`` without the class call (which builds its keywords into a dict for
    ``__init__`` and back): the same object at half the cost, for the hot paths."""
    o = _new(StreamEnd)
    o.ending = ending
    return o


Part = (
    TextPart
    | ImagePart
    | FilePart
    | ToolCallPart
    | ToolResultPart
    | ReasoningPart
    | AudioPart
    | NativePart
    | RefusalPart
)
StreamEvent = (
    StreamStart
    | TextStart
    | TextDelta
    | TextEnd
    | ReasoningStart
    | ReasoningDelta
    | ReasoningEnd
    | ToolCallStart
    | ToolCallDelta
    | ToolCallEnd
    | UsageEvent
    | FinishEvent
    | ErrorEvent
    | StreamEnd
)
PART_TYPES: dict[str, type] = {
    "text": TextPart,
    "image": ImagePart,
    "file": FilePart,
    "tool_call": ToolCallPart,
    "tool_result": ToolResultPart,
    "reasoning": ReasoningPart,
    "audio": AudioPart,
    "native": NativePart,
    "refusal": RefusalPart,
}
