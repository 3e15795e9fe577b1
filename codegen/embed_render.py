"""spec/embeddings -> generated/embeddings_canonical.py and generated/<id>_codec.py.

Each field row becomes straight-line reads and writes; the input form and the vector forms a row
names pick the helper of ``interlingua._embed_support`` the code calls; a canonical field with a
``feature`` that no row of the protocol maps becomes a ``ctx.loss`` line; the facts (batch limit,
HTTP paths, encodings, task types, support) become constants the runtime and the gateway read.
"""

from __future__ import annotations

from .embed_model import EmbedField, EmbedProtocol, EmbedSpec
from .render import env, header

__all__ = ["render_embed_canonical", "render_embed_codec", "render_embed_compat"]

VECTOR_IN = {"float_list": "vector_from_floats", "base64_float32": "vector_from_base64"}
VECTOR_OUT = {"float_list": "floats_from_vector", "base64_float32": "base64_from_vector"}
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


def _dec_field(r: EmbedField, obj: str, target: str, path: str, check: bool) -> list[str]:
    """Read one row of ``obj`` into ``target``; ``check``: a later request object must agree."""
    p = f'"{r.w}"' if path == '""' else f'{path} + "{r.w}"'
    out = [f'    v = {obj}.get("{r.w}")', "    if v is not None:"]
    if r.type == "int":
        out.append(f"        v = expect_int(v, {p})")
    else:
        out.append(f"        v = expect_str(v, {p})")
    if r.prefix:
        out.append(f'        v = v.removeprefix("{r.prefix}")')
    if r.type == "encoding":
        out += [
            "        if v not in ENCODINGS:",
            f'            raise InvalidInput(f"expected one of {{", ".join(ENCODINGS)}}, '
            f'got {{v!r:.40}}", path={p})',
        ]
    if r.type == "task_type":
        out.append("        v = TASK_DECODE.get(v, v)  # an unknown raw value is kept raw")
    if check:
        out += [
            f"        if k and {target}.{r.c} is not None and v != {target}.{r.c}:",
            f'            raise InvalidInput(f"differs from the first request '
            f'({{{target}.{r.c}!r}}): one value per call", path={p})',
        ]
    out.append(f"        {target}.{r.c} = v")
    return out


def _enc_field(r: EmbedField, src: str, out: str) -> list[str]:
    v = f"{src}.{r.c}"
    if r.prefix:
        v = f'"{r.prefix}" + {v}.removeprefix("{r.prefix}")'
    if r.type == "task_type":
        v = f"TASK_ENCODE.get({v}, {v})"
    return [f"    if {src}.{r.c} is not None:", f'        {out}["{r.w}"] = {v}']


def _loss(src: str, field: str, path: str, indent: str = "    ") -> list[str]:
    """A canonical field no row of the protocol maps: reported (its feature is its name)."""
    where = f'{path} + ".{field}"' if path != '""' else f'"{field}"'
    return [
        f"{indent}if {src}.{field} is not None:",
        f'{indent}    ctx.loss({where}, "{field} dropped", _why("{field}"), "{field}")',
    ]


def _request(p: EmbedProtocol) -> list[str]:
    rq = p.request
    mapped = {r.c for r in rq.fields}
    in_mapped = {r.c for r in rq.input_fields}
    form_in = "read_input_list" if rq.input.form == "input_list" else "read_content"
    L: list[str] = []
    # ---- decode: the request-level rows (of the body, or of each request object)
    L += ["def _dec_fields(w: dict[str, Any], path: str, req: EmbeddingsRequest, k: int) -> None:"]
    for r in rq.fields:
        L += _dec_field(r, "w", "req", "path", rq.batch is not None)
    L += ["    return None", "", ""]
    L += ["def decode_request(w: Any, ctx: Ctx) -> EmbeddingsRequest:"]
    L += ['    w = expect_dict(w, "")', "    req = EmbeddingsRequest(source=PROTOCOL)"]
    if rq.batch is None:
        L += [
            f'    req.inputs, single = read_input_list(w.get("{rq.input.w}"), "{rq.input.w}", '
            "EmbedInput)",
            '    _dec_fields(w, "", req, 0)',
            "    req.ext = split_ext(w, _REQUEST_KEYS)",
        ]
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
            f'        inp = {form_in}(o.get("{rq.input.w}"), path + "{rq.input.w}", EmbedInput)',
            "        _dec_input(o, path, inp)",
            "        _dec_fields(o, path, req, k)",
            "        req.inputs.append(inp)",
        ]
    L += ['    req.hints = {"single": single}', "    return req", "", ""]
    if rq.batch is not None:
        L += ["def _dec_input(o: dict[str, Any], path: str, inp: EmbedInput) -> None:"]
        for r in rq.input_fields:
            L += _dec_field(r, "o", "inp", "path", False)
        L += ["    inp.ext = split_ext(o, _REQUEST_KEYS)", "", ""]
    # ---- encode
    L += ["def encode_request(req: EmbeddingsRequest, ctx: Ctx) -> dict[str, Any]:"]
    L += [
        "    out: dict[str, Any] = {}",
        '    single = bool(req.hints and req.hints.get("single"))',
    ]
    L += ['    off = req.hints.get("offset", 0) if req.hints else 0  # a part of a split batch']
    for name in REQUEST_REPORTED:
        if name not in mapped:
            L += _loss("req", name, '""')
    if rq.batch is None:
        reported = [n for n in INPUT_REPORTED if n not in in_mapped]
        L += ["    for k, inp in enumerate(req.inputs):", '        path = f"inputs[{k + off}]"']
        for name in reported:
            L += _loss("inp", name, "path", "        ")
        L += [
            '        report_joined(inp, path, ctx, _why("multipart_input"))',
            "        if inp.ext:",
            "            report_ext(inp.ext, path, ctx)",
        ]
        first = True
        for r in rq.fields:
            L += _enc_field(r, "req", "out")
            if first:
                L += [
                    f'    out["{rq.input.w}"] = write_input_list(req.inputs, single, '
                    f'"{rq.input.w}")'
                ]
                first = False
        if first:
            L += [f'    out["{rq.input.w}"] = write_input_list(req.inputs, single, "{rq.input.w}")']
        L += [
            "    if req.ext:",
            '        drop_ext(req.ext, out, "", ctx)',
            "    return out",
            "",
            "",
        ]
        return L
    reported = [n for n in INPUT_REPORTED if n not in in_mapped]
    L += ["    objs: list[dict[str, Any]] = []", "    for k, inp in enumerate(req.inputs):"]
    L += ['        path = f"inputs[{k + off}]"', "        o: dict[str, Any] = {}"]
    first = True
    for r in rq.fields:
        L += ["    " + x for x in _enc_field(r, "req", "o")]
        if first:
            L += [f'        o["{rq.input.w}"] = write_content(inp, path, ctx)']
            first = False
    for r in rq.input_fields:
        L += ["    " + x for x in _enc_field(r, "inp", "o")]
    for name in reported:
        L += _loss("inp", name, "path", "        ")
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


def _response(p: EmbedProtocol) -> list[str]:
    rs = p.response
    forms = {e.vector for e in p.encodings}
    L = ["def decode_response(w: Any, ctx: Ctx) -> EmbeddingsResponse:"]
    L += ['    w = expect_dict(w, "")', "    resp = EmbeddingsResponse(source=PROTOCOL)"]
    L += [f'    items: Any = w.get("{rs.items}")', f'    base = "{rs.items}"']
    if rs.single:
        L += [
            f'    if items is None and "{rs.single}" in w:',
            f'        items, base = [w["{rs.single}"]], "{rs.single}"',
            '        resp.hints = {"single": True}',
        ]
    L += ["    for k, it in enumerate(expect_list(items, base)):"]
    if rs.single:
        L += [f'        p = f"{{base}}[{{k}}]" if base != "{rs.single}" else base']
    else:
        L += ['        p = f"{base}[{k}]"']
    L += ["        it = expect_dict(it, p)", f'        v = it.get("{rs.vector}")']
    if "base64_float32" in forms:  # a string is base64 (noted, for the same protocol)
        L += [
            "        if type(v) is str:",
            f'            vec = vector_from_base64(v, p + ".{rs.vector}")',
            '            resp.hints = {**(resp.hints or {}), "encoding": "base64"}',
            "        else:",
            f'            vec = vector_from_floats(v, p + ".{rs.vector}")',
        ]
    else:
        L += [f'        vec = vector_from_floats(v, p + ".{rs.vector}")']
    if rs.index:
        L += [
            f'        i = it.get("{rs.index}")',
            f'        i = k if i is None else expect_int(i, p + ".{rs.index}")',
        ]
    else:
        L += ["        i = k"]
    L += ["        ext = split_ext(it, _ITEM_KEYS)"]
    L += ["        resp.embeddings.append(Embedding(index=i, vector=vec, ext=ext))"]
    L += ["    in_index_order(resp.embeddings, base)"]
    for r in rs.fields:
        L += _dec_field(r, "w", "resp", '""', False)
    if rs.usage_path:
        L += [f'    u = w.get("{rs.usage_path}")', "    if u is not None:"]
        L += [f'        u = expect_dict(u, "{rs.usage_path}")', "        resp.usage = EmbedUsage("]
        for f in rs.usage_fields:
            L += [f'            {f.c}=_count(u.get("{f.w}"), "{rs.usage_path}.{f.w}"),']
        L += ["        )"]
    L += ["    resp.ext = split_ext(w, _RESPONSE_KEYS)", "    return resp", "", ""]
    # ---- encode
    L += [
        "def encode_response(",
        "    resp: EmbeddingsResponse, ctx: Ctx, req: EmbeddingsRequest | None = None",
    ]
    L += [") -> dict[str, Any]:", f"    out: dict[str, Any] = {dict(rs.constants)!r}"]
    L += ["    fmt = req.encoding_format if req is not None else None"]
    L += [
        "    if fmt is None and ctx.same and resp.hints:",
        '        fmt = resp.hints.get("encoding")',
    ]
    L += ['    vector_out = _VECTOR_OUT.get(fmt or "float")']
    L += ["    if vector_out is None:", "        vector_out = floats_from_vector"]
    L += ["    items: list[dict[str, Any]] = []"]
    L += ["    for k, e in enumerate(sorted(resp.embeddings, key=_index)):"]
    L += [f"        it: dict[str, Any] = {dict(rs.item_constants)!r}"]
    if rs.index:
        L += [f'        it["{rs.index}"] = e.index']
    L += [f'        it["{rs.vector}"] = vector_out(e.vector, f"{rs.items}[{{k}}].{rs.vector}")']
    L += ["        if e.ext:", '            drop_ext(e.ext, it, f"' + rs.items + '[{k}]", ctx)']
    L += ["        items.append(it)"]
    if rs.single:
        L += [
            '    if req is not None and (req.hints or {}).get("single") and len(items) == 1:',
            f'        out["{rs.single}"] = items[0]',
            "    else:",
            f'        out["{rs.items}"] = items',
        ]
    else:
        L += [f'    out["{rs.items}"] = items']
    for r in rs.fields:
        L += [
            f"    v = resp.{r.c} if resp.{r.c} is not None else "
            f"(req.{r.c} if req is not None else None)",
            "    if v is not None:",
            f'        out["{r.w}"] = v',
        ]
    if rs.usage_path:
        L += ["    u = resp.usage"]
        if rs.usage_required:
            L += [
                "    if u is None or None in (u.input_tokens, u.total_tokens):",
                '        ctx.loss("usage", "usage unknown: written as 0", '
                'f"{ctx.source} reported none", "usage")',
                "        u = EmbedUsage(input_tokens=(u.input_tokens if u else None) or 0, "
                "total_tokens=(u.total_tokens if u else None) or 0)",
            ]
        L += ["    if u is not None:", f'        out["{rs.usage_path}"] = {{']
        L += [f'            "{f.w}": u.{f.c},' for f in rs.usage_fields] + ["        }"]
        if not rs.usage_required:
            L += [
                "        for key in [k for k, v in out[" + repr(rs.usage_path) + "].items() "
                "if v is None]:",
                f'            del out["{rs.usage_path}"][key]',
            ]
    else:
        L += _loss("resp", "usage", '""')
    L += ["    if resp.ext:", '        drop_ext(resp.ext, out, "", ctx)', "    return out", ""]
    return L


def render_embed_codec(p: EmbedProtocol, source: str) -> str:
    rq, rs = p.request, p.response
    req_keys = {r.w for r in rq.fields} | {r.w for r in rq.input_fields} | {rq.input.w}
    resp_keys = {rs.items, *(rs.single and [rs.single] or []), *rs.constants}
    resp_keys |= {r.w for r in rs.fields} | ({rs.usage_path} if rs.usage_path else set())
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
        "_VECTOR_OUT: dict[str, Any] = {"
        + ", ".join(f"{e.value!r}: {VECTOR_OUT[e.vector]}" for e in p.encodings)
        + "}",
        f"TASK_DECODE: dict[str, str] = { ({t.raw: t.unified for t in p.task_types})!r}",
        f"TASK_ENCODE: dict[str, str] = { ({t.unified: t.raw for t in p.task_types})!r}",
        f"_REQUEST_KEYS = frozenset({sorted(req_keys)!r})",
        f"_RESPONSE_KEYS = frozenset({sorted(resp_keys)!r})",
        f"_ITEM_KEYS = frozenset({sorted(item_keys)!r})",
        f"SUPPORT: dict[str, tuple[str, str]] = {{\n{support}}}",
    ]
    body = [
        "",
        "",
        "def _why(feature: str) -> str:",
        "    level, note = SUPPORT[feature]",
        "    return f\"{PROTOCOL} {level}{': ' + note if note else ''}\"",
        "",
        "",
        "def _index(e: Embedding) -> int:",
        "    return e.index",
        "",
        "",
        "def _count(v: Any, path: str) -> int | None:",
        "    return None if v is None else expect_int(v, path)",
        "",
        "",
        *_request(p),
        *_response(p),
    ]
    imports = (
        "from __future__ import annotations\n\nfrom typing import Any\n\n"
        "from interlingua._codec_support import drop_ext, report_ext, split_ext\n"
        "from interlingua._embed_support import (\n    base64_from_vector,\n"
        "    floats_from_vector,\n    in_index_order,\n    read_content,\n"
        "    read_input_list,\n    report_joined,\n    vector_from_base64,\n"
        "    vector_from_floats,\n    write_content,\n    write_input_list,\n)\n"
        "from interlingua._errors import InvalidInput\nfrom interlingua._losses import Ctx\n"
        "from interlingua._wire import expect_dict, expect_int, expect_list, expect_str\n\n"
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
