"""The ``response_format:`` rows (codegen/settings.py FormatRows), compiled: ``decode_format`` and
``encode_format`` in generated/<id>_codec.py hold only the steps the protocol's rows call for, with
its paths and value tables as literals. Whether an unknown wire type is refused or decodes as a
type, whether a schema comes in the OpenAPI subset, which ResponseFormat fields have a path and
which a json_schema format needs, which objects' other keys ride in hints, whether the wire values
go back as they came: all of it is known when codegen runs. What every protocol shares (the
OpenAPI conversion, the loss words) stays in runtime/transforms/structured.py."""

from __future__ import annotations

from .settings import FormatRows, known_keys

# the ResponseFormat fields read and written for json_schema, their wire check
_EXPECT = {"schema": "expect_dict", "strict": "expect_bool"}  # the others are strings
# the fields whose absence on the target is reported (strict true: always enforced)
_REPORTED = ("strict", "name", "description")


def _segs(path: str) -> tuple[str, ...]:
    return tuple(path.split("."))


def _top_test(paths: list[str], body: str) -> str:
    """``not in`` test of a body holding none of the rows' top-level keys."""
    tops = sorted({p.split(".")[0] for p in paths})
    if len(tops) == 1:
        return f"{tops[0]!r} not in {body}"
    return f"{body}.keys().isdisjoint({tuple(tops)!r})"


def read(segs: tuple[str, ...], base: str = "w") -> str:
    """The expression reading ``segs`` from ``base`` (objects on the way checked)."""
    return f"{base}.get({segs[0]!r})" if len(segs) == 1 else f"dig({base}, {segs!r})"


def keys_literal(keys: tuple[str, ...] | list[str]) -> str:
    return "frozenset({" + ", ".join(repr(k) for k in sorted(keys)) + "})"


def _sent(rows: FormatRows) -> dict[tuple[str, ...], tuple[str, ...]]:
    """The rows' paths by the object holding them (the keys a raw_same client sent)."""
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    for segs in map(_segs, format_paths(rows)):
        out[segs[:-1]] = (*out.get(segs[:-1], ()), segs[-1])
    return out


def format_paths(rows: FormatRows) -> list[str]:
    return [
        rows.type,
        *rows.fields.values(),
        *([rows.schema_openapi] if rows.schema_openapi else []),
    ]


def compile_format(rows: FormatRows) -> str:
    """The source of ``decode_response_format`` and ``encode_response_format`` for these rows, after their
    tables."""
    decode: dict[str, str] = {}
    for c, w in rows.types.items():
        decode.setdefault(w, c)
    tables = [f"_FORMAT_DECODE: dict[str, str] = {decode!r}"]
    tables.append(f"_FORMAT_ENCODE: dict[str, str] = {dict(rows.types)!r}")
    for i, (_, known) in enumerate(known_keys(rows.keep, format_paths(rows)).values()):
        tables.append(f"_FORMAT_KEEP{i} = {keys_literal(known)}")
    return "\n".join(tables) + "\n\n\n" + "\n\n\n".join((_decode(rows), _encode(rows))) + "\n"


def _decode(rows: FormatRows) -> str:
    t = _segs(rows.type)
    parent = t[:-1]
    keep = known_keys(rows.keep, format_paths(rows))
    hints = bool(keep) or rows.raw_same
    out = [
        "def decode_response_format(w: dict[str, Any], req: Request, ctx: Ctx) -> None:",
        '    """response_format rows: the wire format -> req.response_format."""',
        f"    if {_top_test(format_paths(rows), 'w')}:",
        "        return",
        f"    raw = {read(t)}",
    ]
    add = out.append
    schema = rows.fields.get("schema")
    add(f"    schema = {read(_segs(schema))}" if schema else "    schema = None")
    if rows.schema_openapi:
        oa = _segs(rows.schema_openapi)
        add(f"    if schema is None and (oa := {read(oa)}) is not None:")
        add(f"        schema = openapi_to_json_schema(expect_dict(oa, {rows.schema_openapi!r}))")
    if hints:
        add("    hints: dict[str, Any] = {}")
    for i, (name, (segs, _)) in enumerate(keep.items()):
        add(f"    if (obj := {read(segs)}) is not None:")
        add(f"        rest = kept_keys(expect_dict(obj, {name!r}), _FORMAT_KEEP{i})")
        add(f"        hints[{'rest ' + name!r}] = rest")
        add("        if not ctx.same:")
        add(f"            keys_lost(rest, {name!r}, ctx, 'structured_output')")
    absent = "" if rows.unknown else f" and {read(parent)} is None"
    add(f"    if raw is None and schema is None{absent}:")
    if hints:
        add("        add_hints(req, hints)")
    add("        return  # no format (a present object without its type is refused below)")
    path = rows.type
    add(f"    ftype = _FORMAT_DECODE.get(expect_str(raw, {path!r})) if raw is not None else None")
    add("    if ftype is None:")
    if rows.unknown is None:
        what = t[-2] if len(t) > 1 else "format"
        add(f'        raise InvalidInput(f"unknown {what} type {{brief(raw)}}", path={path!r})')
    else:
        add(f"        ftype = {rows.unknown!r}")
    add('    rf = ResponseFormat(type="json_schema" if schema is not None else ftype)')
    add('    if rf.type == "json_schema":')
    checked: set[tuple[str, ...]] = {parent}
    for f, p in rows.fields.items():
        segs = _segs(p)
        if segs[:-1] not in checked:  # a sub-object of its own (Chat json_schema) is needed
            checked.add(segs[:-1])
            sub = ".".join(segs[:-1])
            add(f"        expect_dict({read(segs[:-1])}, {sub!r})")
        expect = _EXPECT.get(f, "expect_str")
        v = "schema" if f == "schema" else read(segs)
        if f in rows.required:
            add(f"        rf.{f} = {expect}({v}, {p!r})")
        elif f == "schema":
            add(f"        rf.schema = {expect}(schema, {p!r}) if schema is not None else None")
        else:
            add(f"        rf.{f} = {expect}(v, {p!r}) if (v := {v}) is not None else None")
    if rows.raw_same:  # which keys and values the client sent, by object, for the identity
        add("    sent: dict[str, Any] = {}")
        for at, keys in _sent(rows).items():
            add(f"    obj = {read(at) if at else 'w'} or {{}}")
            add(f"    sent[{'.'.join(at)!r}] = {{k: obj[k] for k in {keys!r} if k in obj}}")
        add('    hints["format_wire"] = sent')
    add("    req.response_format = rf")
    if hints:
        add("    add_hints(req, hints)")
    return "\n".join(out)


def _encode(rows: FormatRows) -> str:
    keep = known_keys(rows.keep, format_paths(rows))
    sig = "(req: Request, out: dict[str, Any], ctx: Ctx) -> None:"
    doc = '    """response_format rows: req.response_format -> the wire format."""'
    if not keep and not rows.raw_same:
        head = [f"def encode_response_format{sig}", doc, "    rf = req.response_format"]
        return "\n".join([*head, "    if rf is None:", "        return", *_write(rows)])
    out = [f"def encode_response_format{sig}", doc, "    rf = req.response_format"]
    add = out.append
    add("    if not ctx.same or not req.hints:  # no hints to read")
    add("        if rf is not None:")
    add("            _format_out(rf, out, ctx)")
    add("        return")
    add("    hints = req.hints")
    if rows.raw_same:
        add('    if "format_wire" in hints:  # the source\'s own keys and values')
        for at in _sent(rows):
            add(f'        if got := hints["format_wire"].get({".".join(at)!r}):')
            add(f"            obj_at(out, {at!r}).update(got)")
    add(f"    {'elif' if rows.raw_same else 'if'} rf is not None:")
    add("        _format_out(rf, out, ctx)")
    for name, (segs, _) in keep.items():
        add(f"    if (rest := hints.get({'rest ' + name!r})) is not None:")
        add(f"        keep_keys(obj_at(out, {segs!r}), rest)")
    sig = "(rf: ResponseFormat, out: dict[str, Any], ctx: Ctx) -> None:"
    return "\n".join([*out, "", "", f"def _format_out{sig}", *_write(rows)])


def _write(rows: FormatRows) -> list[str]:
    """The steps writing a ResponseFormat ``rf`` to ``out``."""
    out = ["    wire = _FORMAT_ENCODE.get(rf.type)"]
    add = out.append
    need = " or ".join(f"rf.{f} is None" for f in rows.required)
    if need:
        add(f'    if wire is None or (rf.type == "json_schema" and ({need})):')
        add("        format_dropped(rf.type, wire is None, ctx)")
    else:
        add("    if wire is None:")
        add("        format_dropped(rf.type, True, ctx)")
    add("        return")
    add(f"    put(out, {_segs(rows.type)!r}, wire)")
    add('    if rf.type != "json_schema":')
    add("        return")
    for f, p in rows.fields.items():
        if f == "name" and rows.default_name is not None:
            add(
                f"    put(out, {_segs(p)!r}, rf.name if rf.name is not None else {rows.default_name!r})"
            )
            continue
        add(f"    if rf.{f} is not None:")
        add(f"        put(out, {_segs(p)!r}, rf.{f})")
    lost = tuple(f for f in _REPORTED if f not in rows.fields)
    if lost:
        add(f"    schema_fields_lost(rf, {lost!r}, ctx)")
    return out
