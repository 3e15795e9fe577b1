"""A decode row's block step, compiled: one function per row that touches a block
(``_block<i>(m, w, pos, out)`` in generated/<id>_stream.py), holding only the statements the row's
contents call for. What a row reads (text, arguments, a call id, opaque state, an owner), how its
wire key is made (constant, path, prefix, a position under the key), whether it opens a block of
which kind, ends one, carries whole values or a separator, joins argument pieces through a named
transform: all of it is known when codegen runs, so nothing at run time asks the row what it
holds. The machine (``runtime/streams/machine.py``) keeps what varies at run time: the blocks
open at each wire key, their kind, their canonical key, the state gathered for their end.

In order: the values are read (text: the first non-empty string of its paths); a row whose
protocol has implicit blocks and whose values are all absent does nothing; the wire key is made;
an opening row ends the call at its key when a new call id comes, and opens a block when none is
open there (with implicit blocks: only when a value, or opaque state where the row says whose it
is, is there, and the open blocks end first, a call's other than calls); a closing row ends the blocks under its key first; a value for no open block is
counted as ignored; whole values are used only when no delta came (since the last separator);
text goes to an open text or reasoning block (counted as ignored on a tool call or an ignored
block), arguments to a call, opaque state and its owner to a reasoning block; a closing row ends
the block."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .stream_model import DecodeRow, StreamSpec

_START = {"text": "TextStart", "reasoning": "ReasoningStart"}
_END = {"text": "TextEnd", "tool_call": "ToolCallEnd", "reasoning": "ReasoningEnd"}


def _paths(v: str | list[str] | None) -> list[str]:
    if v is None:
        return []
    return [v] if isinstance(v, str) else list(v)


@dataclass(frozen=True)
class Facts:
    """What the protocol's stream section says to every row's block step."""

    implicit: bool  # blocks: implicit
    parts: bool  # some row has sub, whole or separator (blocks know if a delta came)
    subs: bool  # some row has sub (a closing row ends the blocks under its key)
    random_ids: bool  # missing_call_id: random


def parts(s: StreamSpec) -> bool:
    """Some row has sub, whole or separator: blocks know if a delta came (``b.fresh``)."""
    return any(row.sub or row.whole or row.separator is not None for row in s.decode)


def quiet(row: DecodeRow) -> bool:
    """Without text, arguments or a call id the row does nothing to its block."""
    return not (
        row.close
        or row.signature
        or row.redacted
        or row.arguments_object
        or row.ends
        or row.separator is not None
        or row.sure
    )


def what_expr(row: DecodeRow, base: str, r: Any, where: str) -> str:
    """The name of a counted event or an ignored block in the loss report: the row's event
    names, with the name read at ``label`` when it has one."""
    what = "/".join(_paths(row.event)) or "event"
    if row.label is None:
        return repr(what)
    named = "f" + repr(what.replace("{", "{{").replace("}", "}}") + "[{n}]")
    return f"({named} if type(n := {r(row.label, where)}({base})) is str and n else {what!r})"


def block_step(row: DecodeRow, i: int, where: str, r: Any, facts: Facts, imports: set[str]) -> str:
    """The source of ``_block<i>``; ``imports``: the canonical names it uses (added to)."""
    body: list[str] = []

    def add(line: str, depth: int = 1) -> None:
        body.append("    " * depth + line)

    has = {
        "text": bool(row.text),
        "args": row.arguments is not None,
        "cid": row.call_id is not None,
        "sig": row.signature is not None,
        "red": row.redacted is not None,
    }
    # the values
    texts = [r(p, where) for p in _paths(row.text)]
    if texts:
        expr = "None"
        for fn in reversed(texts):
            expr = f"(t if (t := {fn}(w)) and type(t) is str else {expr})"
        add(f"text = {expr}")
    if has["args"]:
        add(f"args = a if type(a := {r(row.arguments, where)}(w)) is str else None")
    if has["cid"]:
        add(f"cid = {r.first(row.call_id, where)}(w)")
    for var, path in (("sig", row.signature), ("red", row.redacted)):
        if path is not None:
            add(f"{var} = x if (x := {r.first(path, where)}(w)) and type(x) is str else None")
    values = [v for v in ("text", "args", "cid") if has[v]]
    if facts.implicit and quiet(row):
        if not values:
            return _fn(i, where, ["    return"])
        add(f"if not ({' or '.join(values)}):  # most chunks lack them")
        add("return", 2)
    # the wire key
    if row.key_const is not None:
        add(f"wkey = {row.key_const!r}")
    else:
        k = f"k if (k := {r.first(row.key or '', where)}(w)) is not None else pos"
        add(f"wkey = {row.key_prefix!r} + str({k})" if row.key_prefix else f"wkey = str({k})")
    if row.sub is not None:
        add("parent = wkey")
        add(f'wkey = f"{{parent}}:{{s if (s := {r(row.sub, where)}(w)) is not None else 0}}"')
    add("b = m.blocks.get(wkey)")
    sure = False  # the row always leaves an open block at its key
    if row.open is not None:
        opening, sure = _opening(row, where, r, facts, has, imports)
        body.extend(opening)
    if row.close and facts.subs:  # the blocks under this key end first
        add("for o in [o for o in m.open if o.parent == wkey]:")
        add("m._close(o, out)", 2)
    vals = [v for v in ("text", "args") if has[v]]
    tail = (_part(row, vals, imports) if facts.parts else []) + _values(row, where, r, has, imports)
    if row.close:
        tail.append("    m._close(b, out)")
    if not sure and (tail or (vals and not row.whole)):
        add("if b is None or not b.open:")
        if vals and not row.whole:
            add(f"if {' or '.join(vals)}:", 2)
            add("m.ignored += 1", 3)
        add("return", 2)
    return _fn(i, where, body + tail)


def _fn(i: int, where: str, body: list[str]) -> str:
    head = f"def _block{i}(m: Any, w: Any, pos: Any, out: list[Any]) -> None:"
    return "\n".join([head, f"    # {where}", *_collapse(body)])


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _cond(line: str) -> str:
    c = line.strip().split(" ", 1)[1][:-1]
    return f"({c})" if " or " in c else c


def _collapse(lines: list[str]) -> list[str]:
    """``if a:`` (or ``elif a:``) holding only ``if b:`` (neither with an else) becomes
    ``if a and b:``."""
    i = 0
    while i < len(lines):
        line, n = lines[i], _indent(lines[i])
        end = i + 1
        while end < len(lines) and _indent(lines[end]) > n:
            end += 1
        inner = lines[i + 1 : end]
        after = lines[end].strip() if end < len(lines) else ""
        if (
            line.strip().startswith(("if ", "elif "))
            and line.endswith(":")
            and inner
            and inner[0].strip().startswith("if ")
            and inner[0].endswith(":")
            and all(_indent(x) > n + 4 for x in inner[1:])
            and not after.startswith(("elif ", "else"))
        ):
            word = line.split()[0]
            merged = " " * n + f"{word} {_cond(line)} and {_cond(inner[0])}:"
            lines[i:end] = [merged, *(x[4:] for x in inner[1:])]
            continue
        i += 1
    return lines


def _opening(
    row: DecodeRow, where: str, r: Any, facts: Facts, has: dict[str, bool], imports: set[str]
) -> tuple[list[str], bool]:
    """A new call id at a known key ends the call there; a block opens where none is open
    (True: always)."""
    out: list[str] = []
    if has["cid"]:
        out += [
            "    if b is not None and b.open and cid and b.call_id is not None and "
            "str(cid) != b.call_id:",
            "        m._close(b, out)  # a new call id at a known key: a new call",
        ]
    cond = "b is None or not b.open"
    if facts.implicit and not (row.sure and row.open == "tool_call"):
        terms = [v for v in ("text", "args", "cid") if has[v]]
        if row.owner or row.sure:  # opaque state whose owner is known opens it
            terms += [v for v in ("sig", "red") if has[v]]
        if not terms:
            return out, False
        got = " or ".join(terms)
        cond = f"({cond}) and ({got})" if len(terms) > 1 else f"({cond}) and {got}"
    always = cond == "b is None or not b.open"
    out.append(f"    if {cond}:")
    kind = row.open
    if facts.implicit and kind == "tool_call":  # another kind starting ends the open blocks
        out += [
            '        for o in [o for o in m.open if o.kind != "tool_call"]:',
            "            m._close(o, out)",
        ]
    elif facts.implicit:
        out.append("        out += m._close_all()")
    out.append(f"        b = m._new({kind!r}, wkey)")
    if kind in _START:
        imports.add(_START[kind])
        out.append(f"        out.append(_{_START[kind]}(key=b.key))")
    elif kind == "tool_call":
        missing = "_synth_id()" if facts.random_ids else 'f"call_interlingua_{m.calls}"'
        if facts.random_ids:
            imports.add("synth_id")
        cid = f"str(cid) if cid else {missing}" if has["cid"] else missing
        name = f"{r(row.name, where)}(w)" if row.name is not None else '""'
        if has["sig"]:  # opaque state on the call rides in its id (the signature envelope)
            imports.add("wrap_id")
            out.append(f"        call_id = {cid}")
            cid = "_wrap_id(call_id, sig) if sig else call_id"
        if row.name is not None:
            name = f'n if type(n := {name}) is str else ""'
        imports.add("ToolCallStart")
        out += [
            f"        b.call_id = {cid}",
            "        m.calls += 1",
            f"        out.append(_ToolCallStart(key=b.key, id=b.call_id, name={name}))",
        ]
    else:  # an ignored block: reported once per block, its deltas ignored
        out += [
            "        m.ignored += 1",
            f'        m.drop({what_expr(row, "w", r, where)}, "event")',
        ]
    if row.sub is not None:
        out.append("        b.parent = parent  # it ends with the block of its key")
    return out, always


def _part(row: DecodeRow, vals: list[str], imports: set[str]) -> list[str]:
    """Whole values and separators: a block knows whether a delta came."""
    if row.separator is not None:
        imports.add("DELTA")
        return [
            "    if not b.fresh and (new := _DELTA.get(b.kind)) is not None:",
            f"        out.append(new(key=b.key, text={row.separator!r}))",
            "    b.fresh = True",
        ]
    if not vals:
        return []
    got = " or ".join(vals)
    if row.whole:  # deltas said it already
        return [
            "    if not b.fresh:",
            f"        {' = '.join(vals)} = None",
            f"    elif {got}:",
            "        b.fresh = False",
        ]
    return [f"    if {got}:", "        b.fresh = False"]


def _values(
    row: DecodeRow, where: str, r: Any, has: dict[str, bool], imports: set[str]
) -> list[str]:
    """The row's values go to the block by its kind."""
    uses = (row.assemble, row.arguments_object, row.owner)
    if not (any(has[v] for v in ("text", "args", "sig", "red")) or any(uses)):
        return []
    out = ["    kind = b.kind"]
    if has["text"] or has["args"] or has["sig"]:
        ign = 'kind == "ignored"' + (' or (text and kind == "tool_call")' if has["text"] else "")
        if has["text"]:
            out.append("    # (text at the key of a tool call is not the call's)")
        out.append(f"    if {ign}:")
        vals = [v for v in ("text", "args") if has[v]]
        if vals and not has["sig"]:
            out += [f"        if {' or '.join(vals)}:", "            m.ignored += 1"]
        else:
            out.append("        m.ignored += 1")
        if has["text"]:
            imports.add("DELTA")
            out += ["    elif text:", "        out.append(_DELTA[kind](key=b.key, text=text))"]
    call = []
    if row.assemble is not None:  # argument pieces joined by the named transform, at the end
        t = f"_t_{row.assemble}"
        seed = f"{r(row.arguments_object, where)}(w)" if row.arguments_object else "None"
        call += ["        if b.acc is None:", f"            b.acc = ({t}, {t}.start({seed}))"]
        if row.pieces is not None:
            call.append(f"        m.ignored += {t}.feed(b.acc[1], {r(row.pieces, where)}(w))")
    else:
        if has["args"]:
            imports.add("new_ToolCallDelta")
            call += [
                "        if args:",
                "            out.append(_new_ToolCallDelta(key=b.key, arguments=args))",
            ]
        if row.arguments_object is not None:
            imports.add("ToolCallDelta")
            call += [
                f"        if (obj := {r(row.arguments_object, where)}(w)) and type(obj) is dict:",
                "            args = _dumps(obj).decode()",
                "            out.append(_ToolCallDelta(key=b.key, arguments=args))",
            ]
    if call:
        out += ['    if kind == "tool_call":', *call]
    state = []
    if has["sig"]:
        state += ["        if sig:", "            b.sig += sig"]
    if row.owner is not None:
        state += [
            f"        if (own := {r.owner(row.owner, where)}(w)) is not None:",
            "            b.owner = own[0]",
        ]
        if has["red"]:  # this owner's signature is encrypted data
            state += [
                '            if own[1] == "encrypted" and red:',
                "                b.sig += red",
                "                red = None",
            ]
    if has["red"]:
        state += ["        if red:", "            b.redacted = red"]
    if state:
        out += [f'    {"elif" if call else "if"} kind == "reasoning":', *state]
    return out


def end_steps(decode: list[DecodeRow], imports: set[str]) -> dict[str, str]:
    """The bodies of ``_close_<kind>(m, b, out)``, one per kind some row opens: how a decoded
    block ends, holding only what the rows gather for it (the machine calls it once per block,
    ``ROWS.close``): a call's argument pieces joined by its named transform (rows with
    ``assemble``), passed on as one delta; a reasoning block's opaque state (rows with
    ``signature`` / ``redacted``), owned by the protocol unless a row read its owner (``owner``).
    An ignored block ends with nothing (it was reported when it opened)."""
    bodies: dict[str, list[str]] = {}
    for kind in dict.fromkeys(row.open for row in decode if row.open is not None):
        if kind == "text":
            bodies[kind] = ["    out.append(_TextEnd(key=b.key))"]
        elif kind == "tool_call":
            bodies[kind] = ["    out.append(_ToolCallEnd(key=b.key))"]
            if any(row.assemble for row in decode):
                imports.add("new_ToolCallDelta")
                bodies[kind][:0] = [
                    "    if b.acc is not None and (text := b.acc[0].text(b.acc[1])):",
                    "        out.append(_new_ToolCallDelta(key=b.key, arguments=text))",
                ]
        elif kind == "reasoning":
            sig, red = (any(getattr(row, f) for row in decode) for f in ("signature", "redacted"))
            state = [x for x, on in (("b.sig", sig or red), ("b.redacted", red)) if on]
            if not state:
                bodies[kind] = ["    out.append(_ReasoningEnd(key=b.key))"]
                continue
            owner = "(b.owner or m.pid)" if any(row.owner for row in decode) else "m.pid"
            red_arg = "redacted=b.redacted, " if red else ""
            bodies[kind] = [
                f"    owner = {owner} if {' or '.join(state)} else None",
                f"    out.append(_ReasoningEnd(key=b.key, signature=b.sig or None, {red_arg}"
                "owner=owner))",
            ]
        else:
            bodies[kind] = ["    pass  # (reported when it opened)"]
    imports.update(_END[k] for k in bodies if k in _END)
    return {k: "\n".join(v) for k, v in bodies.items()}


def block_problems(row: DecodeRow) -> list[tuple[str, str]]:
    """Row contents the block step could only ignore, as (key, message)."""
    out = []
    if row.name is not None and row.open != "tool_call":
        out.append(("name", "`name` is read when the row opens a tool call (`open: tool_call`)"))
    if row.separator is not None and row.whole:
        out.append(("separator", "a row with `separator` begins a new part: it has no `whole`"))
    if row.label is not None and not (row.count or row.open == "ignored"):
        what = "names a counted event (`count`) or an ignored block (`open: ignored`)"
        out.append(("label", f"`label` {what}"))
    if row.owner is not None and row.signature is None and row.redacted is None:
        what = "names who made opaque state: the row needs `signature` or `redacted`"
        out.append(("owner", f"`owner` {what}"))
    return out
