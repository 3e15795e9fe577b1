"""The response half of an embeddings codec (spec/embeddings/<id>.yaml ``response:``): the
vectors' list, index and vector keys, the vector forms of ``encodings``, usage rows."""

from __future__ import annotations

from .embed_fields import dec_field, loss_lines
from .embed_inputs import why
from .embed_model import EmbedProtocol

__all__ = ["response_lines"]


def _get(obj: str, path: str) -> str:
    """The expression reading ``path`` (``key`` or ``key.key``) of ``obj``."""
    if "." not in path:
        return f'{obj}.get("{path}")'
    segs = path.split(".")
    return f"dig({obj}, {segs!r}, '')"


def _set(obj: str, path: str, value: str) -> str:
    head, _, leaf = path.partition(".")
    if not leaf:
        return f'{obj}["{head}"] = {value}'
    return f'{obj}.setdefault("{head}", {{}})["{leaf}"] = {value}'


def _base64_values(p: EmbedProtocol) -> list[str]:
    """The encoding_format values asking for base64 float32 vectors (none: floats only)."""
    return [e.value for e in p.encodings if e.vector == "base64_float32"]


def _decode(p: EmbedProtocol) -> list[str]:
    rs = p.response
    b64 = _base64_values(p)
    L = ["def decode_response(w: Any, ctx: Ctx) -> EmbeddingsResponse:"]
    L += ['    w = expect_dict(w, "")', "    resp = EmbeddingsResponse(source=PROTOCOL)"]
    L += [f"    items: Any = {_get('w', rs.items)}", f'    base = "{rs.items}"']
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
    if rs.vector:
        L += ["        it = expect_dict(it, p)", f'        v = it.get("{rs.vector}")']
        at = f'p + ".{rs.vector}"'
    else:  # the item is the vector
        L += ["        v = it"]
        at = "p"
    if b64:  # a string is base64 (noted, for the same protocol)
        L += [
            "        if type(v) is str:",
            f"            vec = vector_from_base64(v, {at})",
            f'            resp.hints = {{**(resp.hints or {{}}), "encoding": {b64[0]!r}}}',
            "        else:",
            f"            vec = vector_from_floats(v, {at})",
        ]
    else:
        L += [f"        vec = vector_from_floats(v, {at})"]
    if rs.index:
        L += [
            f'        i = it.get("{rs.index}")',
            f'        i = k if i is None else expect_int(i, p + ".{rs.index}")',
        ]
    ext = "split_ext(it, _ITEM_KEYS)" if rs.vector else "None"
    i = "i" if rs.index else "k"  # without an index row: the position
    L += [f"        resp.embeddings.append(Embedding(index={i}, vector=vec, ext={ext}))"]
    if rs.index:  # without an index row the vectors come in input order
        L += ["    in_index_order(resp.embeddings, base)"]
    for r in rs.fields:
        L += dec_field(r, "w", "resp", '""', False)
    if rs.usage_path:
        L += [f"    u = {_get('w', rs.usage_path)}", "    if u is not None:"]
        L += [f'        u = expect_dict(u, "{rs.usage_path}")', "        resp.usage = EmbedUsage("]
        for f in rs.usage_fields:
            L += [f'            {f.c}=_count(u.get("{f.w}"), "{rs.usage_path}.{f.w}"),']
        L += ["        )"]
    L += [
        "    resp.ext = split_ext(w, _RESPONSE_KEYS, _RESPONSE_NESTED)",
        "    return resp",
        "",
        "",
    ]
    return L


def _encode(p: EmbedProtocol) -> list[str]:
    rs = p.response
    L = [
        "def encode_response(",
        "    resp: EmbeddingsResponse, ctx: Ctx, req: EmbeddingsRequest | None = None",
    ]
    L += [") -> dict[str, Any]:", f"    out: dict[str, Any] = {dict(rs.constants)!r}"]
    for r in rs.fields:
        L += [
            f"    v = resp.{r.c} if resp.{r.c} is not None else "
            f"(getattr(req, {r.c!r}, None) if req is not None else None)",
            "    if v is not None:",
            f'        out["{r.w}"] = v',
        ]
    b64 = _base64_values(p)
    vector = "e.vector"  # floats, unless an encoding row asks for base64
    if b64:  # the client's encoding_format (else the form the same protocol's answer came in)
        L += [
            "    fmt = req.encoding_format if req is not None else None",
            "    if fmt is None and ctx.same and resp.hints:",
            '        fmt = resp.hints.get("encoding")',
            f"    b64 = fmt == {b64[0]!r}" if len(b64) == 1 else f"    b64 = fmt in {tuple(b64)!r}",
        ]
        vector = "base64_from_vector(e.vector, {}) if b64 else e.vector"
    ordered = "resp.embeddings"  # in index order (decode_response, join_responses)
    if rs.vector:
        L += ["    items: list[Any] = []", f"    for k, e in enumerate({ordered}):"]
        L += [f"        it: dict[str, Any] = {dict(rs.item_constants)!r}"]
        if rs.index:
            L += [f'        it["{rs.index}"] = e.index']
        at = f'f"{rs.items}[{{k}}].{rs.vector}"'
        L += [f'        it["{rs.vector}"] = {vector.format(at)}']
        L += ["        if e.ext:", '            drop_ext(e.ext, it, f"' + rs.items + '[{k}]", ctx)']
        L += ["        items.append(it)"]
    elif b64:  # each item is the vector
        at = f'f"{rs.items}[{{k}}]"'
        L += [f"    items: list[Any] = [{vector.format(at)} for k, e in enumerate({ordered})]"]
    else:
        L += [f"    items: list[Any] = [e.vector for e in {ordered}]"]
    if rs.single:
        L += [
            '    if req is not None and (req.hints or {}).get("single") and len(items) == 1:',
            f'        out["{rs.single}"] = items[0]',
            "    else:",
            f"        {_set('out', rs.items, 'items')}",
        ]
    else:
        L += [f"    {_set('out', rs.items, 'items')}"]
    if rs.echo_inputs:
        L += ["    if req is not None:"]
        echo = _set("out", rs.echo_inputs, '[i.text or "" for i in req.inputs]')
        L += [f"        {echo}"]
    if rs.usage_path:
        L += ["    u = resp.usage"]
        if rs.usage_required:
            L += [
                "    if u is None or u.input_tokens is None:",
                '        ctx.loss("usage", "usage unknown: written as 0", '
                'f"{ctx.source} reported none", "usage")',
                "        u = EmbedUsage(input_tokens=0, total_tokens=0)",
            ]
        L += ["    if u is not None:", "        usage = {"]
        for f in rs.usage_fields:
            v = f"u.{f.c}"
            if f.c == "total_tokens":  # an embedding has no output: total is the input
                v = "u.total_tokens if u.total_tokens is not None else u.input_tokens"
            L += [f'            "{f.w}": {v},']
        kept = _set("out", rs.usage_path, "{k: v for k, v in usage.items() if v is not None}")
        L += ["        }", f"        {kept}"]
    else:
        L += loss_lines("resp", "usage", '""', why(p, "usage"))
    L += ["    if resp.ext:", '        drop_ext(resp.ext, out, "", ctx)', "    return out", ""]
    return L


def response_lines(p: EmbedProtocol) -> list[str]:
    return _decode(p) + _encode(p)
