# Generated from spec/embeddings/canonical.yaml by `make generate` (python -m codegen). Do not edit by hand.

"""The canonical embeddings model (spec/embeddings/canonical.yaml): slotted dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FEATURES: dict[str, str] = {
    "text_input": "Text inputs (one string or a list)",
    "token_input": "Token-array inputs",
    "multipart_input": "An input made of several parts (Gemini content parts)",
    "dimensions": "Output dimensions (shortened vectors)",
    "vector_encoding": "base64 vectors (little-endian float32)",
    "task_type": "Task type (retrieval query / document, similarity ...)",
    "title": "Document title",
    "user": "End-user id",
    "usage": "Token usage",
    "batch": "Several inputs in one call (at most max_inputs; larger batches are split)",
    "extensions": "Fields of the source protocol with no canonical home",
}
TASKTYPE: tuple[str, ...] = (
    "retrieval_query",
    "retrieval_document",
    "semantic_similarity",
    "classification",
    "clustering",
    "question_answering",
    "fact_verification",
    "code_retrieval_query",
    "unspecified",
)


@dataclass(slots=True, kw_only=True)
class EmbeddingsRequest:
    model: str | None = None
    inputs: list[EmbedInput] = field(default_factory=list)
    dimensions: int | None = None
    encoding_format: str | None = None  # float | base64: the form of the vectors the caller wants
    user: str | None = None
    source: str = ""  # protocol id the request was decoded from
    ext: dict[str, Any] | None = None  # source-protocol fields with no canonical home
    hints: dict[str, Any] | None = None  # source wire form hints (never a loss)

    def __copy__(self) -> EmbeddingsRequest:
        return EmbeddingsRequest(
            model=self.model,
            inputs=self.inputs,
            dimensions=self.dimensions,
            encoding_format=self.encoding_format,
            user=self.user,
            source=self.source,
            ext=self.ext,
            hints=self.hints,
        )


@dataclass(slots=True, kw_only=True)
class EmbedInput:
    text: str | None = None
    tokens: list[int] | None = None
    task_type: str | None = None
    title: str | None = None
    ext: dict[str, Any] | None = None
    hints: dict[str, Any] | None = None

    def __copy__(self) -> EmbedInput:
        return EmbedInput(
            text=self.text,
            tokens=self.tokens,
            task_type=self.task_type,
            title=self.title,
            ext=self.ext,
            hints=self.hints,
        )


@dataclass(slots=True, kw_only=True)
class EmbeddingsResponse:
    id: str | None = None
    model: str | None = None
    embeddings: list[Embedding] = field(default_factory=list)  # in index order (0 .. n-1)
    usage: EmbedUsage | None = None
    source: str = ""
    ext: dict[str, Any] | None = None
    hints: dict[str, Any] | None = None

    def __copy__(self) -> EmbeddingsResponse:
        return EmbeddingsResponse(
            id=self.id,
            model=self.model,
            embeddings=self.embeddings,
            usage=self.usage,
            source=self.source,
            ext=self.ext,
            hints=self.hints,
        )


@dataclass(slots=True, kw_only=True)
class Embedding:
    index: int
    vector: list[float]  # float32 values as Python floats (exact for base64)
    ext: dict[str, Any] | None = None

    def __copy__(self) -> Embedding:
        return Embedding(index=self.index, vector=self.vector, ext=self.ext)


@dataclass(slots=True, kw_only=True)
class EmbedUsage:
    input_tokens: int | None = None
    total_tokens: int | None = None

    def __copy__(self) -> EmbedUsage:
        return EmbedUsage(input_tokens=self.input_tokens, total_tokens=self.total_tokens)
