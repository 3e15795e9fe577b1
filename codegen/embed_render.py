"""spec/embeddings -> generated/embeddings_canonical.py and generated/<id>_codec.py.

Each field row becomes straight-line reads and writes; the list form's reader and writer, the task
table's steps and the vector form an encoding row asks for are compiled (codegen/embed_inputs.py,
embed_response.py), calling only the row-free helpers of ``interlingua._embed_support``; a
canonical field with a ``feature`` that no row of the protocol maps becomes a ``ctx.loss`` line
with its reason as a literal; the facts (batch limit, HTTP paths, encodings, task types, support)
become constants the runtime and the gateway read.
"""

from __future__ import annotations

from .embed_fields import dec_field, enc_field, loss_lines
from .embed_inputs import (
    read_content,
    read_list,
    refuse_tokens,
    why,
    write_content,
    write_list,
    write_list_value,
)
from .embed_model import EmbedProtocol, EmbedSpec
from .embed_response import response_lines
from .render import env, header

__all__ = ["render_embed_canonical", "render_embed_codec", "render_embed_compat"]

# canonical fields whose loss the codec reports from rows (the rest: forms, helpers)
REQUEST_REPORTED = ("dimensions", "user")
INPUT_REPORTED = ("task_type", "title")


def render_embed_canonical(spec: EmbedSpec, source: str) -> str:
    c = spec.canonical
    feats = "".join(f"    {f.id!r}: {f.title!r},\n" for f in c.features)
    enums = "".join(
        f"{e.name.upper()}: tuple[str, ...] = {tuple(v.value for v in e.items())!r}\n"
        for e in c.enums
    )
    tpl = env().from_string(
        "{% for t in types %}\n\n@dataclass(slots=True, kw_only=True)\nclass {{ t.name }}:\n"
        "{%- for f in t.fields %}\n    {{ f.name }}: {{ f.type }}"
        "{% if f.factory %} = field(default_factory={{ f.factory }})"
        "{% elif f.default is not none %} = {{ f.default }}"
        '{% elif "None" in f.type %} = None{% endif %}'
        "{% if f.doc %}  # {{ f.doc }}{% endif %}{% endfor %}\n\n"
        "    def __copy__(self) -> {{ t.name }}:\n        return {{ t.name }}("
        "{% for f in t.fields %}{{ f.name }}=self.{{ f.name }}"
        "{% if not loop.last %}, {% endif %}{% endfor %})\n{% endfor %}"
    )
    return (
        f'{header(source)}\n"""The canonical embeddings model ({source}): slotted dataclasses."""\n\n'
        "from __future__ import annotations\n\nfrom dataclasses import dataclass, field\n"
        "from typing import Any\n\n"
        f"FEATURES: dict[str, str] = {{\n{feats}}}\n{enums}" + tpl.render(types=c.types)
    )


def _request(p: EmbedProtocol) -> list[str]:
    rq = p.request
    mapped = {r.c for r in rq.fields}
    in_mapped = {r.c for r in rq.input_fields} | {r.c for r in rq.shared_input_fields}
    form = rq.input  # the list form without request objects, the content form in each of them
    L: list[str] = read_list(form) if rq.batch is None else read_content(form)
    # ---- decode: the request-level rows (of the body, or of each request object)
    L += ["def _dec_fields(w: dict[str, Any], path: str, req: EmbeddingsRequest, k: int) -> None:"]
    for r in rq.fields:
        L += dec_field(r, "w", "req", "path", rq.batch is not None)
    L += ["    return None", "", ""]
    L += ["def decode_request(w: Any, ctx: Ctx) -> EmbeddingsRequest:"]
    L += ['    w = expect_dict(w, "")', "    req = EmbeddingsRequest(source=PROTOCOL)"]
    if rq.batch is None:
        L += [
            f'    req.inputs, single = _read_inputs(w.get("{form.w}"))',
            '    _dec_fields(w, "", req, 0)',
            "    req.ext = split_ext(w, _REQUEST_KEYS)",
        ]
        for r in rq.shared_input_fields:  # one value for every input
            L += dec_field(r, "w", "req.inputs[0]", '""', False)
            L += ["    for inp in req.inputs[1:]:", f"        inp.{r.c} = req.inputs[0].{r.c}"]
    else:
        L += [
            f'    objs: Any = w.get("{rq.batch}")',
            "    single = objs is None  # the single form: the body is one request object",
            "    if single:",
            '        objs, base = [w], ""',
            "    else:",
            f'        objs, base = expect_list(objs, "{rq.batch}"), "{rq.batch}"',
            "        if not objs:",
            '            raise InvalidInput("expected at least one request", path=base)',
            f'        req.ext = split_ext(w, frozenset({{"{rq.batch}"}}))',
            "    for k, o in enumerate(objs):",
            '        path = f"{base}[{k}]." if base else ""',
            '        o = expect_dict(o, path.rstrip("."))',
            f'        inp = _read_content(o.get("{form.w}"), path + "{form.w}")',
            "        _dec_input(o, path, inp)",
            "        _dec_fields(o, path, req, k)",
            "        req.inputs.append(inp)",
        ]
    L += ['    req.hints = {"single": single}', "    return req", "", ""]
    if rq.batch is not None:
        L += ["def _dec_input(o: dict[str, Any], path: str, inp: EmbedInput) -> None:"]
        for r in rq.input_fields:
            L += dec_field(r, "o", "inp", "path", False)
        L += ["    inp.ext = split_ext(o, _REQUEST_KEYS)", "", ""]
    # ---- encode
    L += ["def encode_request(req: EmbeddingsRequest, ctx: Ctx) -> dict[str, Any]:"]
    L += ["    out: dict[str, Any] = {}"]
    if rq.batch is not None or form.unlisted:  # the caller's single form can be written back
        L += ['    single = bool(req.hints and req.hints.get("single"))']
    L += ['    off = req.hints.get("offset", 0) if req.hints else 0  # a part of a split batch']
    for name in REQUEST_REPORTED:
        if name not in mapped:
            L += loss_lines("req", name, '""', why(p, name))
    if rq.batch is None:
        reported = [n for n in INPUT_REPORTED if n not in in_mapped]
        if form.tokens:  # token arrays go as a list of them, when every input is one
            L += ["    tokens = bool(req.inputs) and all(i.tokens is not None for i in req.inputs)"]
        L += ["    values: list[Any] = []", "    for k, inp in enumerate(req.inputs):"]
        L += ['        path = f"inputs[{k + off}]"', *refuse_tokens(p)]
        for name in reported:
            L += loss_lines("inp", name, "path", why(p, name), "        ")
        L += [*write_list(p), "        if inp.ext:", "            report_ext(inp.ext, path, ctx)"]
        write = write_list_value(form)
        first = True
        for r in rq.fields:
            L += enc_field(r, "req", "out")
            if first:
                L += [write]
                first = False
        if first:
            L += [write]
        for r in rq.shared_input_fields:  # written once: the first input's value
            L += [
                "    shared = req.inputs[0] if req.inputs else EmbedInput()",
                "    for k, inp in enumerate(req.inputs):",
                f"        if inp.{r.c} != shared.{r.c}:",
                f'            ctx.loss(f"inputs[{{k + off}}].{r.c}", f"differs from the first '
                f"input's ({{shared.{r.c}!r}}): one value per call\", {why(p, r.feature or r.c)!r}, "
                f'"{r.feature or r.c}")',
            ]
            L += enc_field(r, "shared", "out", '"inputs[0]"')
        L += [
            "    if req.ext:",
            '        drop_ext(req.ext, out, "", ctx)',
            *[f"    out.setdefault({k!r}, {v!r})" for k, v in rq.constants.items()],
            "    return out",
            "",
            "",
        ]
        return L
    reported = [n for n in INPUT_REPORTED if n not in in_mapped]
    L += ["    objs: list[dict[str, Any]] = []", "    for k, inp in enumerate(req.inputs):"]
    L += [
        '        path = f"inputs[{k + off}]"',
        *refuse_tokens(p),
        "        o: dict[str, Any] = {}",
    ]
    first = True
    for r in rq.fields:
        L += ["    " + x for x in enc_field(r, "req", "o")]
        if first:
            L += write_content(form)
            first = False
    for r in rq.input_fields:
        L += ["    " + x for x in enc_field(r, "inp", "o", "path")]
    for name in reported:
        L += loss_lines("inp", name, "path", why(p, name), "        ")
    L += [
        "        if inp.ext:",
        "            drop_ext(inp.ext, o, path, ctx)",
        "        objs.append(o)",
        "    if single and ctx.same and len(objs) == 1:",
        "        return objs[0]",
        f'    out["{rq.batch}"] = objs',
        "    if req.ext:",
        '        drop_ext(req.ext, out, "", ctx)',
        "    return out",
        "",
        "",
    ]
    return L


def render_embed_codec(p: EmbedProtocol, source: str) -> str:
    rq, rs = p.request, p.response
    req_keys = {r.w for r in rq.fields} | {r.w for r in rq.input_fields} | {rq.input.w}
    req_keys |= {r.w for r in rq.shared_input_fields}
    paths = [rs.items, *(rs.single and [rs.single] or []), *rs.constants]
    paths += [r.w for r in rs.fields] + [x for x in (rs.usage_path, rs.echo_inputs) if x]
    resp_keys = {x.split(".")[0] for x in paths}
    nested: dict[str, set[str]] = {}
    for x in paths:
        if "." in x:
            nested.setdefault(x.split(".")[0], set()).add(x.split(".")[1])
    item_keys = {rs.vector, *rs.item_constants} | ({rs.index} if rs.index else set())
    support = "".join(f"    {k!r}: ({v.level!r}, {v.note!r}),\n" for k, v in p.support.items())
    consts = [
        f"PROTOCOL = {p.id!r}",
        f"TITLE = {p.title!r}",
        f"UPSTREAMS: tuple[str, ...] = {tuple(p.upstreams)!r}",
        f"ERRORS = {p.errors!r}  # its clients read errors in this protocol's shape",
        f"MAX_INPUTS = {p.max_inputs}  # inputs per call; a larger batch is split",
        f"INBOUND_PATHS: tuple[str, ...] = {tuple(p.http.inbound_paths)!r}",
        f"MODEL_PREFIXES: tuple[str, ...] = {tuple(p.http.model_prefixes)!r}",
        f"ACTIONS: dict[str, str] = {dict(p.http.actions)!r}",
        f"UPSTREAM_PATH = {p.http.upstream_path!r}",
        f"BATCH_KEY = {rq.batch!r}  # the request objects' list (None: inputs in one field)",
        f"MODEL_IN_PATH = {p.http.model_in_path!r}",
        f"ENCODINGS: tuple[str, ...] = {tuple(e.value for e in p.encodings)!r}",
        f"TASK_DECODE: dict[str, str] = { ({t.raw: t.unified for t in p.task_types})!r}",
        f"TASK_ENCODE: dict[str, str] = { ({t.unified: t.raw for t in p.task_types})!r}",
        f"_REQUEST_KEYS = frozenset({sorted(req_keys)!r})",
        f"_RESPONSE_KEYS = frozenset({sorted(resp_keys)!r})",
        f"_ITEM_KEYS = frozenset({sorted(item_keys)!r})",
        "_RESPONSE_NESTED: dict[str, frozenset[str]] = {"
        + ", ".join(f"{k!r}: frozenset({sorted(v)!r})" for k, v in sorted(nested.items()))
        + "}",
        f"SUPPORT: dict[str, tuple[str, str]] = {{\n{support}}}",
    ]
    body = [
        "",
        "",
        "def _count(v: Any, path: str) -> int | None:",
        "    return None if v is None else expect_int(v, path)",
        "",
        "",
        *_request(p),
        *response_lines(p),
    ]
    imports = (
        "from __future__ import annotations\n\nfrom typing import Any\n\n"
        "from interlingua._codec_support import dig, drop_ext, report_ext, split_ext\n"
        "from interlingua._embed_support import (\n    PART_JOINER,\n    base64_from_vector,\n"
        "    in_index_order,\n    input_text,\n    token_ids,\n"
        "    vector_from_base64,\n    vector_from_floats,\n)\n"
        "from interlingua._errors import InvalidInput, UnsupportedFeature\n"
        "from interlingua._losses import Ctx\n"
        "from interlingua._wire import _kind, expect_dict, expect_int, expect_list, expect_str\n\n"
        "from .embeddings_canonical import (\n    Embedding,\n    EmbeddingsRequest,\n"
        "    EmbeddingsResponse,\n    EmbedInput,\n    EmbedUsage,\n)\n\n"
    )
    doc = f'"""{p.title} codec: rows of {source} as straight-line code."""\n\n'
    return header(source) + "\n" + doc + imports + "\n".join(consts) + "\n".join(body) + "\n"


def render_embed_compat(spec: EmbedSpec) -> str:
    """The embeddings section of docs/compatibility.md: feature x protocol, from `support`."""
    ps = spec.protocols
    lines = [
        "",
        "## Embeddings (spec/embeddings)",
        "",
        "| feature | " + " | ".join(f"{p.id} (max {p.max_inputs} inputs)" for p in ps) + " |",
        "|---|" + "---|" * len(ps),
    ]
    for f in spec.canonical.features:
        cells = []
        for p in ps:
            s = p.support[f.id]
            cells.append(s.level + (f": {s.note}" if s.note else ""))
        lines.append(f"| {f.title} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
