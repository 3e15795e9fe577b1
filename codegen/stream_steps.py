"""A decode row's effect, compiled: the steps it takes, in the machine's order, as statements of
the generated ``dispatch``. What a row does is known when codegen runs (a count, an error path, a
start, constant keys that end first, a block, usage, a finish, the terminal event), so the
generated code calls only the machine's steps the row has, with the values read from the wire in
place: nothing at run time asks the row what it holds.

In order: a counted event is reported; a truthy error fails the stream (nothing else runs); the
start is read into the local ``start`` (placed in the output by ``stream_entry``; a second one
only where ``restart: fail``: it ends the stream or is ignored, and nothing else of the event
runs); the blocks of ``ends`` end; the row's block step runs
(``stream_block``); a terminal row with a usage or finish ends the open blocks first;
the usage merges; a finish is decoded through the finish rule, a blocked prompt read by the
codec's read_blocked (implicit blocks end first); the terminal row ends the stream."""

from __future__ import annotations

from typing import Any

from .stream_block import what_expr
from .stream_entry import Start
from .stream_model import DecodeRow


def _paths(v: str | list[str] | None) -> list[str]:
    if v is None:
        return []
    return [v] if isinstance(v, str) else list(v)


def steps(
    row: DecodeRow, i: int, base: str, pos: str, r: Any, where: str, implicit: bool, place: Start
) -> list[str]:
    """The statements of row ``i`` on the wire object ``base`` (``pos``: its position in an
    ``each`` list, or None); ``d`` is the event, ``out`` the canonical events; ``place`` writes
    the returns and is told where the start is read."""

    def read(path: str | list[str]) -> str:
        return str(r.on(path, base, where, base in ("d", "item")))

    lines: list[str] = []
    if row.count:
        lines += ["m.ignored += 1", f'm.drop({what_expr(row, base, r, where)}, "event")']
    if row.error is not None:  # read as an HTTP error body is: the codec's read_error
        # (error_shape compiled), then the error table (_pipeline.error_info). The raw type is
        # where error_shape says, else read by the row's error_type in the error object, or in
        # the event when the error is a bare message (Cohere's message-end delta.error,
        # Responses' flat error event), whose code, param and status are then the event's own
        raw = r(row.error_type, where) if row.error_type is not None else None
        lines += [
            f"err = {read(row.error)}",
            "if err:",
            "    if type(err) is dict:",
            f"        fields = m.codec.read_error(err{f', {raw}(err)' if raw else ''})",
            "    else:",
            f"        fields = ({f'{raw}(d)' if raw else 'None'}, err, *m.codec.read_error(d)[2:])",
            "    info = _error_info(m.codec, m.pid, None, d, fields)",
            '    out += m._end("failed", _ErrorEvent(error=info))',
            *place.ret("True", "    "),
        ]
    rest: list[str] = []
    for k in row.ends:
        rest += [f"if (b := m.blocks.get({k!r})) is not None:", "    m._close(b, out)"]
    if row.key is not None or row.key_const is not None:
        rest.append(f"_block{i}(m, {base}, {pos}, out)")
    if row.end and (row.usage or row.finish):  # a final summary event
        rest.append("out += m._close_all()")
    if row.usage:
        rest.append(f"if type(u := {read(row.usage)}) is dict:")
        usage = "out.append(_UsageEvent(usage=m.usage_of(u)))"
        if row.start is not None and row.restart == "fail":  # the start's own usage (Anthropic
            usage = "start.usage = m.usage_of(u)"  # message_start): the row always starts
        elif row.start is not None:  # (if this event started the stream)
            rest += [
                "    if start is not None:",
                "        start.usage = m.usage_of(u)",
                "    else:",
            ]
            usage = f"    {usage}"
        rest.append(f"    {usage}")
    if row.finish:
        seq = read(row.stop_sequence) if row.stop_sequence is not None else "None"
        rest += [f"raw = {read(row.finish)}", "if raw is not None:"]
        if implicit:
            rest.append("    out += m._close_all()")
        path = ".".join([*([row.at] if row.at else []), _paths(row.finish)[0]])
        rest += [  # the finish rule, the response path's
            f"    fin = m.codec.decode_finish(raw, m.calls > 0, {path!r})",
            "    m.finished = True",
            f"    out.append(_FinishEvent(finish=fin, stop_sequence={seq}))",
        ]
    if row.blocked:  # the response_envelope.blocked row, the response path's
        rest += ["if (fin := m.codec.read_blocked(d)) is not None:"]
        if implicit:
            rest.append("    out += m._close_all()")
        rest += ["    m.finished = True", "    out.append(_FinishEvent(finish=fin))"]
    if row.end:
        rest.append('out += m._end("completed")')
    if row.start is not None:  # read into the start only the fields the row has
        take = {
            "id": "str(_x) if (_x := {}) else None",
            "model": "_x if type(_x := {}) is str and _x else None",
            "created": "_x if type(_x := {}) is int else None",
        }
        got = {k: read(row.start[k]) for k in take if k in row.start}
        fields = ", ".join(f"{k}={take[k].format(v)}" for k, v in got.items())
        start = f"start = _StreamStart({fields})"  # placed by stream_entry
        if row.restart == "ignore":  # a second start changes nothing
            lines += ["if m.msg_id is None:", f"    {start}", *(f"    {x}" for x in place.made())]
        else:  # a spliced or repeated start: nothing else of the event runs
            # a start of another message ends the stream, the same message again says nothing
            lines += ["if m.msg_id is not None:"]
            if "id" in got:
                said = "upstream started message {_brief(mid)} inside message {_brief(m.msg_id)}"
                lines += [
                    f"    if (mid := str(_x) if (_x := {got['id']}) else None) and mid != m.msg_id:",
                    f'        error = _upstream_error(f"{said}")',
                    '        out += m._end("failed", _ErrorEvent(error=error))',
                    *place.ret("True", "        "),
                ]
            lines += ["    m.ignored += 1", *place.ret("True", "    "), start, *place.made()]
    return lines + rest
