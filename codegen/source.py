"""A spec file as loaded YAML plus the line of every key and row, for errors that name the file,
the line and the row: ``spec/protocols/x.yaml:112: finish_reasons[3] {unified: lenght, raw:
length}: 'lenght' is not a FinishReason (expected one of ...)``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

Loc = tuple[str | int, ...]


class SpecError(Exception):
    """A spec file is invalid. The message names the file, the line, the row and what was
    expected, one problem per line."""


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _brief(v: Any, depth: int = 0) -> str:
    """A row in YAML flow style, nested values abbreviated."""
    if isinstance(v, dict):
        if depth:
            return "{...}"
        return "{" + ", ".join(f"{k}: {_brief(x, depth + 1)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[...]" if depth and v else "[" + ", ".join(_brief(x, 1) for x in v) + "]"
    return "null" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def where(loc: Loc) -> str:
    """``finish_reasons[3].raw`` for ("finish_reasons", 3, "raw")."""
    out = ""
    for seg in loc:
        out += f"[{seg}]" if isinstance(seg, int) else (f".{seg}" if out else str(seg))
    return out


@dataclass
class SourceFile:
    path: Path
    data: Any = None
    lines: dict[Loc, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    fallback: Loc = ()  # where a problem at a key path the file does not hold is shown

    @classmethod
    def load(cls, path: Path) -> SourceFile:
        """Parse ``path``; a YAML error or a duplicate key raises SpecError at once."""
        src = cls(path)
        try:
            loader = yaml.SafeLoader(path.read_text(encoding="utf-8"))
            try:
                node = loader.get_single_node()
                if node is not None:
                    src.data = loader.construct_document(node)
                    src._walk(node, ())
            finally:
                loader.dispose()
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            line = f":{mark.line + 1}" if mark is not None else ""
            raise SpecError(f"{_shown(path)}{line}: not valid YAML: {e}") from None
        src.raise_if_any()
        return src

    def _walk(self, node: yaml.Node, loc: Loc) -> None:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for k, v in node.value:
                key = k.value if isinstance(k, yaml.ScalarNode) else str(k.start_mark)
                line = k.start_mark.line + 1
                if key in seen:
                    self.error(loc, f"duplicate key {key!r} (lines {seen[key]} and {line})", line)
                seen[key] = line
                self.lines[(*loc, key)] = line
                self._walk(v, (*loc, key))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self.lines[(*loc, i)] = item.start_mark.line + 1
                self._walk(item, (*loc, i))

    def _value(self, loc: Loc) -> Any:
        cur = self.data
        for seg in loc:
            try:
                cur = cur[seg]
            except (KeyError, IndexError, TypeError):
                return None
        return cur

    def message(self, loc: Loc, msg: str, line: int | None = None) -> str:
        """``file:line: row {row}: rest: msg``; the row is the innermost list item in ``loc``."""
        cut = max((i + 1 for i, s in enumerate(loc) if isinstance(s, int)), default=0)
        if line is None:
            line = next(
                (self.lines[loc[:n]] for n in range(len(loc), 0, -1) if loc[:n] in self.lines),
                self.lines.get(self.fallback, 1),
            )
        head = f"{_shown(self.path)}:{line}:"
        if cut:
            row = self._value(loc[:cut])
            head += f" {where(loc[:cut])} {_brief(row)}"[:160] + ":"
            rest = loc[cut:]
        else:
            rest = loc
        if rest:
            head += f" {where(rest)}:"
        return f"{head} {msg}"

    def error(self, loc: Loc, msg: str, line: int | None = None) -> None:
        self.errors.append(self.message(loc, msg, line))

    def raise_if_any(self) -> None:
        if self.errors:
            raise SpecError("\n".join(self.errors))
