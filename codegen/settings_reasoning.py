"""The ``reasoning:`` rows (codegen/settings.py ReasoningRows), compiled: ``decode_reasoning_config``
and ``encode_reasoning_config`` in generated/<id>_codec.py hold only the steps the protocol's rows
call for, with its paths and value tables as literals. Which of mode, budget, effort and summary
have a path, whether budgets say modes (Gemini 0 and -1), which efforts it knows and what it writes
for others, whether an effort needs a mode beside it, whether budget and effort exclude each other,
whether the summary is a switch, which objects' other keys ride in ReasoningConfig.ext: all of it
is known when codegen runs (keys an API also takes in snake_case are recased before, by the
snake_case_keys row). What every protocol
shares stays in runtime/transforms/reasoning.py: the one thinking-budget rule (``thinking_budget``,
``effort_for_budget``) and the loss words."""

from __future__ import annotations

from .settings import ReasoningRows, known_keys
from .settings_format import keys_literal, read

_KEYS = ("mode", "budget", "effort", "summary")  # the order written


def _segs(path: str) -> tuple[str, ...]:
    return tuple(path.split("."))


class _Facts:
    """The rows, as what the compiled steps test."""

    def __init__(self, rows: ReasoningRows, fmt_paths: list[str]) -> None:
        self.rows = rows
        self.ext = known_keys(rows.ext, rows.paths() + fmt_paths)  # output_config.format
        self.objs = {segs: f"o{i}" for i, (segs, _) in enumerate(self.ext.values())}
        self.keys = [k for k in _KEYS if getattr(rows, k) is not None]
        # the encode for the same protocol reads hints (an effort's spelling, includeThoughts:
        # false, empty objects)
        self.same_hints = bool(rows.ext) or rows.efforts is not None or rows.summary_bool
        self.effort_fn = bool(rows.effort_map) or rows.efforts is not None

    def path(self, key: str) -> tuple[str, ...]:
        p = getattr(self.rows, key)
        assert p is not None
        return _segs(p)

    def parent(self, key: str) -> str:
        """The variable holding the key's object (the body, or an ext object)."""
        segs = self.path(key)
        return self.objs[segs[:-1]] if len(segs) > 1 else "w"

    def put(self, key: str, value: str) -> str:
        segs = self.path(key)
        if len(segs) == 1:
            return f"out[{segs[0]!r}] = {value}"
        return f"put(out, {segs!r}, {value})"


def compile_reasoning(rows: ReasoningRows, fmt_paths: list[str]) -> str:
    f = _Facts(rows, fmt_paths)
    return "\n\n\n".join([_tables(f), _decode(f), _encode(f), *_effort(f)]) + "\n"


def _tables(f: _Facts) -> str:
    rows = f.rows
    out = []
    if rows.modes:
        decode: dict[str, str] = {}
        for c, w in rows.modes.items():
            decode.setdefault(w, c)
        out.append(f"_REASONING_MODES: dict[str, str] = {dict(rows.modes)!r}")
        out.append(f"_REASONING_MODE_DECODE: dict[str, str] = {decode!r}")
    if rows.budget_modes:
        out.append(f"_REASONING_BUDGET_MODES: dict[str, int] = {dict(rows.budget_modes)!r}")
        decode_b = {v: m for m, v in rows.budget_modes.items()}
        out.append(f"_REASONING_BUDGET_DECODE: dict[int, str] = {decode_b!r}")
    if rows.effort_map:
        out.append(f"_REASONING_EFFORT_MAP: dict[str, str] = {dict(rows.effort_map)!r}")
    if rows.efforts is not None:
        out.append(f"_REASONING_EFFORTS = {keys_literal(rows.efforts)}")
    for i, (_, known) in enumerate(f.ext.values()):
        out.append(f"_REASONING_EXT{i} = {keys_literal(known)}")
    return "\n".join(out) or "# (no tables)"


def _decode(f: _Facts) -> str:
    rows = f.rows
    tops = sorted({p.split(".")[0] for p in rows.paths()})
    test = f"{tops[0]!r} not in w" if len(tops) == 1 else f"w.keys().isdisjoint({tuple(tops)!r})"
    out = [
        "def decode_reasoning_config(w: dict[str, Any], req: Request, ctx: Ctx) -> None:",
        '    """reasoning rows: the wire configuration -> req.reasoning."""',
        f"    if {test}:",
        "        return",
        "    r = ReasoningConfig()",
    ]
    add = out.append
    if f.same_hints:
        add("    hints: dict[str, Any] = {}")
    for i, (name, (segs, _)) in enumerate(f.ext.items()):
        o = f"o{i}"
        add(f"    {o} = {read(segs)}")
        add(f"    if {o} is not None:")
        add(f"        {o} = expect_dict({o}, {name!r})")
        add(f"        if rest := kept_keys({o}, _REASONING_EXT{i}):")
        merged = "" if i == 0 else "**(r.ext or {}), "
        add(f"            r.ext = {{{merged}{segs[-1]!r}: rest}}")
        add(f"        if not {o}:")
        add(f'            hints.setdefault("reasoning_empty", []).append({name!r})')
    for key in f.keys:
        segs, parent, path = f.path(key), f.parent(key), getattr(rows, key)
        there = "" if parent == "w" else f"{parent} is not None and "
        if key == "mode":  # its object is there: the mode must be
            add(f"    if {parent} is not None:")
            add(f"        mode = expect_str({parent}.get({segs[-1]!r}), {path!r})")
            add("        r.mode = _REASONING_MODE_DECODE.get(mode)")
            add("        if r.mode is None:")
            what = segs[-2]
            add(
                f'            raise InvalidInput(f"unknown {what} type {{brief(mode)}}", path={path!r})'
            )
            continue
        add(f"    if {there}(v := {parent}.get({segs[-1]!r})) is not None:")
        if key == "budget":
            if rows.budget_modes:  # a budget saying a mode (Gemini)
                add(f"        budget = expect_int(v, {path!r})")
                neg = '"adaptive" if budget < 0 else ' if "adaptive" in rows.budget_modes else ""
                add(f'        r.mode = _REASONING_BUDGET_DECODE.get(budget) or ({neg}"enabled")')
                add('        r.budget_tokens = budget if r.mode == "enabled" else None')
            else:
                add(f"        r.budget_tokens = expect_int(v, {path!r})")
        elif key == "effort":
            add(f"        r.effort = expect_str(v, {path!r})")
            if rows.efforts is not None:  # its wire spelling (LOW)
                add("        if r.effort.lower() != r.effort:")
                add('            hints["effort_wire"] = r.effort')
                add("            r.effort = r.effort.lower()")
        elif rows.summary_bool:
            add(f"        if expect_bool(v, {path!r}):")
            add('            r.summary = "auto"')
            add("        else:  # the default, spelled out: nothing to carry")
            add('            hints["summary_false"] = True')
        else:
            add(f"        r.summary = expect_str(v, {path!r})")
    said = {
        "mode": "r.mode",
        "budget": "r.budget_tokens is not None",
        "effort": "r.effort",
        "summary": "r.summary",
    }
    conds = [said[k] for k in f.keys]
    if rows.budget_modes and "mode" not in f.keys:
        conds.insert(0, "r.mode")
    if rows.ext:
        conds.append("r.ext")
    add(f"    if {' or '.join(conds)}:")
    add("        req.reasoning = r")
    if f.same_hints:
        add("    add_hints(req, hints)")
    return "\n".join(out)


def _encode(f: _Facts) -> str:
    rows = f.rows
    out = [
        "def encode_reasoning_config(req: Request, out: dict[str, Any], ctx: Ctx) -> None:",
        '    """reasoning rows: req.reasoning -> the wire configuration."""',
        "    r = req.reasoning",
    ]
    add = out.append
    types = {"mode": "str", "budget": "int", "effort": "str", "summary": "str"}
    if rows.summary_bool:
        types["summary"] = "str | bool"
    for k in f.keys:
        add(f"    {k}: {types[k]} | None = None")
    if f.same_hints:
        add("    if ctx.same:  # as the client sent them (also a spelled-out default alone)")
        add("        if r is None and not req.hints:")
        add("            return")
        add("        r = r or ReasoningConfig()")
        add("        hints = req.hints or {}")
    else:
        add("    if r is None:")
        add("        return")
        add("    if ctx.same:  # as the client sent them")
    out += _same(f)
    if f.same_hints:
        add("    elif r is None:")
        add("        return")
    add("    elif thinking_off(r):")
    out += _off(f)
    add("    else:  # what another protocol's configuration becomes in this one")
    asked = "r.mode is not None or r.effort is not None or r.budget_tokens is not None"
    if rows.summary is None and rows.budget is not None:  # thinking is off unless asked for:
        asked += " or r.summary is not None"  # a summary asked for turns it on (thinking_budget)
    add(f"        if {asked}:")
    out += _amount(f)
    if rows.summary is None:
        add("        if r.summary is not None:")
        why = "has no reasoning summary setting (what it returns is its own)"
        add(f'            lost("summary", f"summary {{brief(r.summary)}} dropped", {why!r}, ctx)')
    else:
        zero = " and budget != 0" if rows.budget is not None else ""
        add(f"        if r.summary is not None{zero}:")
        add(f"            summary = {'True' if rows.summary_bool else 'r.summary'}")
    if rows.budget_below is not None:
        add("    if budget is not None and not ctx.same:")
        below = f"out.get({rows.budget_below!r}), {rows.budget_min}, {rows.budget_below!r}"
        add(f"        budget = lowered_budget(budget, {below}, ctx)")
        if rows.mode is not None:
            add("        if budget is None:  # no budget fits: no thinking")
            add("            mode = None")
    for k in f.keys:
        add(f"    if {k} is not None:")
        add(f"        {f.put(k, k)}")
    if not rows.ext:
        add("    if not ctx.same and r.ext:  # the source's: nowhere to go")
        add("        for obj, keys in r.ext.items():")
        add("            keys_lost(keys, obj, ctx, 'reasoning_config')")
        return "\n".join(out)
    add("    if not ctx.same:")
    add("        for obj, keys in (r.ext or {}).items():  # the source's: nowhere to go")
    add("            keys_lost(keys, obj, ctx, 'reasoning_config')")
    add("        return")
    add("    ext = r.ext or {}")
    for name, (segs, _) in f.ext.items():
        add(f"    if rest := ext.get({segs[-1]!r}):")
        add(f"        keep_keys(obj_at(out, {segs!r}), rest)")
        add(f'    if {name!r} in hints.get("reasoning_empty", ()):')
        add(f"        obj_at(out, {segs!r})")
    return "\n".join(out)


def _same(f: _Facts) -> list[str]:
    """The values as the client sent them (a mode only where it had one, its effort spelling)."""
    rows = f.rows
    out = []
    if rows.modes:
        out.append("        mode = _REASONING_MODES.get(r.mode) if r.mode is not None else None")
    if rows.budget_modes:
        guard = "mode is None and " if rows.modes else ""
        out.append(f"        if {guard}r.mode is not None:")
        out.append("            budget = _REASONING_BUDGET_MODES.get(r.mode)")
    if rows.budget is not None:
        out.append("        if r.budget_tokens is not None:")
        out.append("            budget = r.budget_tokens")
    if rows.effort is not None:
        if rows.efforts is not None:
            out.append("        if r.effort is not None:")
            out.append('            effort = hints.get("effort_wire", r.effort)')
        else:
            out.append("        effort = r.effort")
    if rows.summary_bool:
        out.append('        if r.summary is not None or hints.get("summary_false"):')
        out.append("            summary = r.summary is not None")
    elif rows.summary is not None:
        out.append("        summary = r.summary")
    return out or ["        pass"]


def _off(f: _Facts) -> list[str]:
    """Thinking off: a disabled mode, the budget saying it, or the effort none."""
    rows = f.rows
    if "disabled" in rows.modes:
        return [f"        mode = {rows.modes['disabled']!r}"]
    if "disabled" in rows.budget_modes:
        return [f"        budget = {rows.budget_modes['disabled']!r}"]
    if rows.effort is not None:
        return ['        if r.effort == "none":', '            effort = "none"']
    return ["        pass"]


def _amount(f: _Facts) -> list[str]:
    """A mode, an effort or a budget: what this protocol can say of it."""
    rows = f.rows
    out: list[str] = ['            m = r.mode or "enabled"']
    add = out.append
    if rows.mode is not None:
        add("            mode = _REASONING_MODES[m]")
    wire = "_reasoning_effort({}, {})" if f.effort_fn else "{}"
    has_effort = rows.effort is not None
    if has_effort:
        says = " and r.mode is not None" if rows.effort_needs_mode else ""
        add(f"            if r.effort is not None{says}:")
        add(f"                effort = {wire.format('r.effort', 'ctx')}")
    if rows.budget is not None:
        unsaid = "r.effort is not None and effort is None" if has_effort else "r.effort is not None"
        if rows.budget_required:
            bare = 'm == "enabled"'
        elif rows.mode is not None:
            bare = ""
        else:
            bare = 'm == "enabled" and effort is None' if has_effort else 'm == "enabled"'
        add("            budget = r.budget_tokens")
        add("            if budget is None:  # an effort it cannot say (unsaid): its budget")
        add(f"                unsaid = {unsaid}")
        if " and " in bare:
            bare = f"({bare})"
        add(f"                if unsaid{' or ' + bare if bare else ''}:")
        add("                    budget = thinking_budget(r)")
        adaptive = rows.budget_modes.get("adaptive")
        if adaptive is not None:
            none = " and effort is None" if has_effort else ""
            add(f'                elif m == "adaptive"{none}:')
            add(f"                    budget = {adaptive!r}")
        known = "" if rows.efforts is not None else " and r.effort not in EFFORT_BUDGETS"
        add(f"                if unsaid{known}:")
        what = 'f"effort {brief(r.effort)} sent as budget {budget}"'
        add(f'                    lost("effort", {what}, "has no such effort", ctx)')
    elif has_effort:  # efforts only
        where = rows.effort
        add("            if effort is None and r.budget_tokens is not None:")
        fb = wire.format("effort_for_budget(r.budget_tokens)", "None")
        add(f"                effort = {fb}")
        what = f'f"budget {{r.budget_tokens}} sent as {where} {{effort!r}}"'
        add(f'                lost("budget_tokens", {what}, "has efforts, not budgets", ctx)')
        add("            elif effort is None:  # a mode with no amount: the default effort")
        add("                effort = DEFAULT_EFFORT")
        what = f'f"thinking {{m!r}} sent as {where} {{effort!r}}"'
        add(f'                lost("mode", {what}, "has efforts only", ctx)')
    if rows.one_amount:
        add("            if effort is not None and budget is not None:")
        add(
            "                effort = None  # the budget says the amount (the effort reported below)"
        )
    lose_budget = (
        'lost("budget_tokens", f"budget {r.budget_tokens} dropped", "takes the effort alone", ctx)'
    )
    lose_effort = (
        'lost("effort", f"effort {brief(r.effort)} dropped", "takes the budget alone", ctx)'
    )
    add("            if r.budget_tokens is not None and r.effort is not None:  # one is sent")
    if rows.budget is None:
        add(f"                {lose_budget}")
    else:
        add("                if budget is None:")
        add(f"                    {lose_budget}")
        add("                elif effort is None:" if has_effort else "                else:")
        add(f"                    {lose_effort}")
    return out


def _effort(f: _Facts) -> list[str]:
    """``_reasoning_effort``: the wire effort for an effort (None: the protocol has no such
    effort; its budget is sent)."""
    rows = f.rows
    if not f.effort_fn:
        return []
    out = ["def _reasoning_effort(effort: str, ctx: Ctx | None) -> str | None:"]
    if rows.effort_map:
        out.append("    wire = _REASONING_EFFORT_MAP.get(effort)")
        out.append("    if wire is not None:")
        out.append("        if ctx is not None:")
        what = 'f"effort {effort!r} sent as {wire!r}"'
        out.append(f'            lost("effort", {what}, f"has no {{effort!r}} effort", ctx)')
        out.append("        return wire")
    if rows.efforts is not None:
        out.append("    return effort if effort in _REASONING_EFFORTS else None")
    else:
        out.append("    return effort")
    return ["\n".join(out)]
