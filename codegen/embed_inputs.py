"""The input form of an embeddings protocol (spec/embeddings/<id>.yaml ``request.input``),
compiled: the list form's reader and writer hold only the branches its row's facts ask for
(``tokens``: token arrays are inputs too; ``unlisted``: one input may come as it is), the content
form's hold its object's keys (``parts``, ``text``), and a row's ``why`` texts and task table
steps are literals, decided here rather than looked up at run time.
"""

from __future__ import annotations

from .embed_model import EmbedField, EmbedProtocol, InputRow

__all__ = [
    "read_content",
    "read_list",
    "task_out",
    "why",
    "write_content",
    "write_list_value",
    "write_list",
]


def why(p: EmbedProtocol, feature: str) -> str:
    """The reason a loss gives: the protocol's support level and note for ``feature``."""
    s = p.support[feature]
    return f"{p.id} {s.level}{': ' + s.note if s.note else ''}"


def read_list(form: InputRow) -> list[str]:
    """``_read_inputs(v)``: the inputs of a call in one list -> (inputs, one came unlisted)."""
    w = form.w
    L = [
        "def _read_inputs(v: Any) -> tuple[list[EmbedInput], bool]:",
        f'    """The inputs of the call (``{w}``), and whether one came unlisted."""',
    ]
    if form.unlisted:
        L += ["    if type(v) is str:", "        return [EmbedInput(text=v)], True"]
    L += [
        f'    items = expect_list(v, "{w}")',
        "    if not items:",
        f'        raise InvalidInput("expected at least one input", path="{w}")',
    ]
    if form.unlisted and form.tokens:  # one token array, unlisted
        L += [
            "    if type(items[0]) is int:",
            f'        return [EmbedInput(tokens=token_ids(items, "{w}"))], True',
        ]
    L += [
        "    out: list[EmbedInput] = []",
        "    for i, x in enumerate(items):",
        "        if type(x) is str:",
        "            out.append(EmbedInput(text=x))",
    ]
    if form.tokens:
        L += [
            "        elif type(x) is list:",
            f'            out.append(EmbedInput(tokens=token_ids(x, f"{w}[{{i}}]")))',
        ]
    what = "a string or a token array" if form.tokens else "a string"
    return L + [
        "        else:",
        f'            raise InvalidInput(f"expected {what}, got {{_kind(x)}}", path=f"{w}[{{i}}]")',
        "    return out, False",
        "",
        "",
    ]


def read_content(form: InputRow) -> list[str]:
    """``_read_content(v, path)``: one content object -> one input. Its text parts are one input
    (joined when sent elsewhere); parts other than text, and the object's other keys, are kept
    (hints: ``wire`` the object, ``other_parts``, ``text_parts`` their count, ``fields`` the other
    keys said) for the same protocol only and said toward another (``input_text``)."""
    parts, text = form.parts, form.text
    return [
        "def _read_content(v: Any, path: str) -> EmbedInput:",
        f'    """A content object (``{{{parts}: [{{{text}}}, ...]}}``) -> one input."""',
        "    c = expect_dict(v, path)",
        f'    parts = expect_list(c.get("{parts}"), path + ".{parts}")',
        "    texts: list[str] = []",
        "    for k, p in enumerate(parts):",
        f'        p = expect_dict(p, f"{{path}}.{parts}[{{k}}]")',
        f'        t = p.get("{text}")',
        "        if t is not None and len(p) == 1:",
        f'            texts.append(expect_str(t, f"{{path}}.{parts}[{{k}}].{text}"))',
        "    inp = EmbedInput(text=PART_JOINER.join(texts))",
        "    if len(texts) != len(parts) or len(texts) != 1 or len(c) != 1:",
        f'        said = [k for k, x in c.items() if k != "{parts}" and x is not None]',
        "        other = len(texts) != len(parts)  # a part that is not one text",
        '        inp.hints = {"wire": c, "other_parts": other, "text_parts": len(texts), "fields": said}',
        "    return inp",
        "",
        "",
    ]


def refuse_tokens(p: EmbedProtocol) -> list[str]:
    """At the head of the per-input loop of ``encode_request``, in a protocol whose input row
    has no ``tokens``: it takes text only, so a token array is refused (no tokenizer here)."""
    if p.request.input.tokens:
        return []
    return [
        "        if inp.tokens is not None:",
        "            raise UnsupportedFeature(",
        f'                "{p.id} takes text only: token arrays cannot be sent (no tokenizer)",',
        "                path=path,",
        "            )",
    ]


def write_content(form: InputRow) -> list[str]:
    """In the per-input loop of ``encode_request``: the content object the input came as
    between endpoints of its protocol, else one text part (``input_text``)."""
    return [
        '        if ctx.same and inp.hints is not None and "wire" in inp.hints:  # as it came',
        f'            o["{form.w}"] = dict(inp.hints["wire"])',
        "        else:",
        f'            o["{form.w}"] = {{"{form.parts}": [{{"{form.text}": input_text(inp, path, ctx)}}]}}',
    ]


def write_list(p: EmbedProtocol) -> list[str]:
    """In the per-input loop of ``encode_request``: the input's wire value onto ``values``."""
    text = f"values.append(input_text(inp, path, ctx, {why(p, 'multipart_input')!r}))"
    if not p.request.input.tokens:
        return ["        " + text]
    return [
        "        if tokens:",
        "            values.append(inp.tokens)",
        "        elif inp.tokens is not None:  # token arrays mixed with text: no such list",
        "            raise UnsupportedFeature(",
        '                "token arrays and text cannot be mixed in one call", '
        f'path=f"{p.request.input.w}[{{k}}]"',
        "            )",
        "        else:",
        "            " + text,
    ]


def write_list_value(form: InputRow) -> str:
    """The list's line in ``encode_request`` (the caller's one unlisted input goes back so)."""
    value = "values[0] if single and len(values) == 1 else values" if form.unlisted else "values"
    return f'    out["{form.w}"] = {value}'


def task_out(r: EmbedField, v: str, out: str, at: str) -> list[str]:
    """Write the task type ``v`` by the table (``TASK_ENCODE``, a literal); one without a row is
    reported and becomes the row's ``default`` (or is left out); the same protocol gets its own
    raw value back."""
    sent = f": sent as {r.default!r}" if r.default is not None else ""
    L = [
        f"        raw = TASK_ENCODE.get({v}, {v} if ctx.same else None)",
        "        if raw is None:",
        f'            ctx.loss({at}, f"task type {{{v}!r}} has no {{ctx.target}} equivalent{sent}", '
        '"no row", "task_type")',
    ]
    if r.default is not None:
        return L + [f"            raw = {r.default!r}", f'        {out}["{r.w}"] = raw']
    return L + ["        else:", f'            {out}["{r.w}"] = raw']
