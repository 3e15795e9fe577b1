"""Code for one embeddings field row (decode, encode, a reported loss), shared by the request
and response renderers of spec/embeddings."""

from __future__ import annotations

from .embed_inputs import task_out
from .embed_model import EmbedField

__all__ = ["dec_field", "enc_field", "loss_lines"]


def dec_field(r: EmbedField, obj: str, target: str, path: str, check: bool) -> list[str]:
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


def enc_field(r: EmbedField, src: str, out: str, path: str = '""') -> list[str]:
    """Write one row of ``src`` into ``out``; a task type with no row is its default (reported)."""
    v = f"{src}.{r.c}"
    if r.prefix:
        v = f'"{r.prefix}" + {v}.removeprefix("{r.prefix}")'
    lines = [f"    if {src}.{r.c} is not None:", f'        {out}["{r.w}"] = {v}']
    if r.type == "task_type":
        at = f'"{r.c}"' if path == '""' else f'{path} + ".{r.c}"'
        lines[1:] = task_out(r, v, out, at)
    if r.default is not None:
        lines += ["    else:", f'        {out}["{r.w}"] = {r.default!r}']
    return lines


def loss_lines(src: str, field: str, path: str, why: str, indent: str = "    ") -> list[str]:
    """A canonical field no row of the protocol maps: reported (its feature is its name), with
    the ``why`` of the protocol's support row."""
    where = f'{path} + ".{field}"' if path != '""' else f'"{field}"'
    return [
        f"{indent}if {src}.{field} is not None:",
        f'{indent}    ctx.loss({where}, "{field} dropped", {why!r}, "{field}")',
    ]
