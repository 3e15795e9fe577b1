"""The spec language of embeddings: spec/embeddings/canonical.yaml and spec/embeddings/<id>.yaml.

An embeddings protocol is rows, like a chat protocol: the request fields (canonical attribute <->
wire path), where the inputs are and in which form, the encoding_format values and the vector
form each asks for, the task type table, the answer's list, index, vector and usage paths, the
batch limit (``max_inputs``), the HTTP facts the gateway serves and calls, and a ``support`` level
per feature. ``load_embeddings`` checks every name a row uses and reports each problem with the
file, the line and the row, like the chat spec.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from .canonical_model import CanonicalEnum, CanonicalType, Feature
from .source import SourceFile
from .spec_http import Strict
from .spec_model import Support

__all__ = ["EmbedCanonical", "EmbedProtocol", "EmbedSpec", "load_embeddings"]


class EmbedCanonical(Strict):
    version: Literal[1]
    features: list[Feature]
    enums: list[CanonicalEnum]
    types: list[CanonicalType]


EmbedWireType = Literal[
    "str",
    "int",
    "encoding",  # one of the protocol's `encodings` values
    "task_type",  # a raw value of the protocol's `task_types` table <-> the unified one
]
# the canonical types each wire type carries
WIRE_CTYPES = {"str": "str", "int": "int", "encoding": "str", "task_type": "str"}


class EmbedField(Strict):
    """One field: canonical attribute <-> wire key (of the body, or of each request object)."""

    c: str = Field(description="canonical attribute (EmbeddingsRequest, EmbedInput, ...)")
    w: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="wire key")
    type: EmbedWireType = "str"
    prefix: str = Field("", description="written before the value on the wire (`models/`)")
    feature: str | None = Field(None, description="feature this field carries")
    default: str | None = Field(
        None, description="raw value written when there is none (the protocol requires one)"
    )


class InputRow(Strict):
    w: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="wire key of the input(s)")
    form: Literal["list", "content"] = Field(
        description="list: all inputs of the call in one list of strings; content: one "
        "object per request object, its `parts` a list of `{text}` parts"
    )
    tokens: bool = Field(
        False, description="list form: token arrays (integer lists) are inputs too"
    )
    unlisted: bool = Field(
        False,
        description="list form: one input may come as it is, a string (or a token array), not "
        "in a list; it goes back to its own protocol so",
    )
    parts: str | None = Field(
        None,
        pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
        description="content form: key of the content object's list of parts",
    )
    text: str | None = Field(
        None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="content form: key of a text part"
    )


class EmbedRequestRows(Strict):
    input: InputRow
    batch: str | None = Field(
        None,
        description="key of the list of request objects, one per input (the batch form); the "
        "`fields` repeat in each; the single form is one request object as the whole body",
    )
    fields: list[EmbedField] = Field(default_factory=list, description="EmbeddingsRequest rows")
    input_fields: list[EmbedField] = Field(
        default_factory=list, description="EmbedInput rows, in each request object (batch form)"
    )
    shared_input_fields: list[EmbedField] = Field(
        default_factory=list,
        description="EmbedInput rows written once for the whole call (every input shares them)",
    )
    constants: dict[str, Any] = Field(
        default_factory=dict, description="written on every request (unless the caller's own)"
    )


class EncodingRow(Strict):
    value: str = Field(description="an encoding_format value")
    vector: Literal["float_list", "base64_float32"]


class TaskTypeRow(Strict):
    unified: str
    raw: str


class UsageField(Strict):
    c: Literal["input_tokens", "total_tokens"]
    w: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")


class EmbedResponseRows(Strict):
    items: str = Field(
        pattern=r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$",
        description="key (or key.key) of the vectors' list (the batch form)",
    )
    single: str | None = Field(None, description="key of the one vector (the single form)")
    index: str | None = Field(None, description="key of each item's index (else: its position)")
    vector: str = Field(description="key of the vector in each item; empty: the item is it")
    echo_inputs: str | None = Field(None, description="key the input texts are echoed under")
    constants: dict[str, str] = Field(default_factory=dict, description="written on the body")
    item_constants: dict[str, str] = Field(default_factory=dict, description="on each item")
    fields: list[EmbedField] = Field(default_factory=list, description="EmbeddingsResponse rows")
    usage_path: str | None = Field(None, pattern=r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$")
    usage_fields: list[UsageField] = Field(default_factory=list)
    usage_required: bool = Field(
        False,
        description="the answer always carries usage: unknown counts are written as 0 (reported)",
    )


class EmbedHttp(Strict):
    inbound_paths: list[str] = Field(
        default_factory=list, description="paths served as they are (`/v1/embeddings`)"
    )
    model_prefixes: list[str] = Field(
        default_factory=list,
        description="paths followed by `{model}:<action>` (the model in the URL)",
    )
    actions: dict[str, Literal["single", "batch"]] = Field(
        default_factory=dict, description="URL action -> the request form it takes"
    )
    upstream_path: str = Field(description="called on an upstream, after its base_url")

    @property
    def model_in_path(self) -> bool:
        return "{model}" in self.upstream_path


class EmbedProtocol(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str
    endpoint: str
    upstreams: list[str] = Field(
        description="chat protocols whose upstreams answer this one at their base_url, with "
        "their key (spec/protocols/<id>.yaml http.auth)"
    )
    errors: str = Field(description="the chat protocol whose error shape its clients read")
    max_inputs: int = Field(gt=0, description="inputs per call; a larger batch is split")
    http: EmbedHttp
    request: EmbedRequestRows
    encodings: list[EncodingRow] = Field(
        default_factory=lambda: [EncodingRow(value="float", vector="float_list")]
    )
    task_types: list[TaskTypeRow] = Field(default_factory=list)
    response: EmbedResponseRows
    support: dict[str, Support]


@dataclass(frozen=True)
class EmbedSpec:
    canonical: EmbedCanonical
    protocols: list[EmbedProtocol]
    sources: dict[str, Path]


def _fields_of(c: EmbedCanonical, name: str) -> dict[str, str]:
    t = next((t for t in c.types if t.name == name), None)
    return {} if t is None else {f.name: f.type.removesuffix(" | None") for f in t.fields}


def _check(c: EmbedCanonical, p: EmbedProtocol, src: SourceFile, chat: set[str]) -> None:
    features = {f.id for f in c.features}
    task_enum = next((e for e in c.enums if e.name == "TaskType"), None)
    tasks = {v.value for v in task_enum.items()} if task_enum else set()
    if src.path.stem != p.id:
        src.error(("id",), f"{p.id!r} is not the file name {src.path.stem!r}")
    for i, u in enumerate(p.upstreams):
        if u not in chat:
            src.error(("upstreams", i), f"{u!r} is not a protocol of spec/protocols")
    if p.errors not in chat:
        src.error(("errors",), f"{p.errors!r} is not a protocol of spec/protocols")
    lists = (
        (("request", "fields"), p.request.fields, "EmbeddingsRequest"),
        (("request", "input_fields"), p.request.input_fields, "EmbedInput"),
        (("request", "shared_input_fields"), p.request.shared_input_fields, "EmbedInput"),
        (("response", "fields"), p.response.fields, "EmbeddingsResponse"),
    )
    for loc, rows, tname in lists:
        have = _fields_of(c, tname)
        seen: dict[str, int] = {}
        for i, r in enumerate(rows):
            if r.c not in have:
                src.error(
                    (*loc, i, "c"),
                    f"{r.c!r} is not a field of {tname} "
                    f"(expected one of {', '.join(sorted(have))})",
                )
            elif have[r.c] != WIRE_CTYPES[r.type]:
                src.error(
                    (*loc, i, "type"),
                    f"{r.type} carries {WIRE_CTYPES[r.type]}, {tname}.{r.c} is {have[r.c]}",
                )
            if r.c in seen:
                src.error((*loc, i), f"{r.c!r} again (first at {loc[-1]}[{seen[r.c]}])")
            seen.setdefault(r.c, i)
            if r.feature is not None and r.feature not in features:
                src.error((*loc, i, "feature"), f"unknown feature {r.feature!r}")
            if r.type == "task_type" and not p.task_types:
                src.error((*loc, i, "type"), "task_type needs a task_types table")
            raws = {t.raw for t in p.task_types}
            if r.type == "task_type" and r.default is not None and r.default not in raws:
                src.error(  # the compiled codec would send a value the protocol does not define
                    (*loc, i, "default"),
                    f"{r.default!r} is not a raw value of task_types "
                    f"(expected one of {', '.join(sorted(raws))})",
                )
    if p.request.input_fields and p.request.batch is None:
        src.error(("request", "input_fields"), "per-input fields need request objects (batch:)")
    form = p.request.input
    if form.form == "content" and (form.tokens or form.unlisted):
        src.error(("request", "input"), "tokens and unlisted are facts of the list form")
    if (form.form == "content") != (form.parts is not None and form.text is not None):
        src.error(("request", "input"), "parts and text (both) are facts of the content form")
    if (p.request.input.form == "content") != (p.request.batch is not None):
        src.error(
            ("request", "input"),
            "the content form, and only it, is one input per request object (batch:)",
        )
    if p.request.shared_input_fields and p.request.batch is not None:
        src.error(("request", "shared_input_fields"), "request objects carry per-input fields")
    for i, t in enumerate(p.task_types):
        if t.unified not in tasks:
            src.error(
                ("task_types", i, "unified"),
                f"{t.unified!r} is not a TaskType (expected one of {', '.join(sorted(tasks))})",
            )
    values = [e.value for e in p.encodings]
    if len(set(values)) != len(values):
        src.error(("encodings",), "an encoding_format value twice")
    if "float" not in values:
        src.error(("encodings",), "no `float` row (the default encoding)")
    for k in p.support:
        if k not in features:
            src.error(("support", k), f"unknown feature {k!r}")
    missing = sorted(features - set(p.support))
    if missing:
        src.error(("support",), f"missing features {', '.join(missing)}")
    if p.http.actions and not p.http.model_prefixes:
        src.error(("http", "actions"), "actions need model_prefixes")


def load_embeddings(root: Path, chat: set[str]) -> tuple[EmbedSpec | None, list[SourceFile]]:
    """spec/embeddings (``root``) -> the spec and its files (their errors recorded); None when
    the folder does not exist or its canonical file is invalid."""
    from .load import _validate  # the chat spec's validator (load.py imports this module)

    folder = root / "embeddings"
    if not (folder / "canonical.yaml").is_file():
        return None, []
    csrc = SourceFile.load(folder / "canonical.yaml")
    canonical = _validate(csrc, EmbedCanonical)
    files = [csrc]
    if not isinstance(canonical, EmbedCanonical):
        return None, files
    protocols: list[EmbedProtocol] = []
    sources = {"canonical": csrc.path}
    served: dict[str, str] = {}  # chat protocol -> the embeddings protocol its upstreams serve
    for path in sorted(folder.glob("*.yaml")):
        if path.name == "canonical.yaml":
            continue
        src = SourceFile.load(path)
        files.append(src)
        p = _validate(src, EmbedProtocol)
        if isinstance(p, EmbedProtocol):
            _check(canonical, p, src, chat)
            for i, u in enumerate(p.upstreams):
                if u in served:
                    src.error(("upstreams", i), f"{u!r} is served by {served[u]} already")
                served.setdefault(u, p.id)
            protocols.append(p)
            sources[p.id] = path
    return EmbedSpec(canonical, protocols, sources), files
