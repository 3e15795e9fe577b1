"""The docs stay true of the code.

- A fenced code block in docs/architecture.md whose first line is a comment naming a repository
  file (``# generated/anthropic_messages_codec.py``) is a quote of that file: its lines, split
  into runs at ``...`` lines, appear in the file in that order, each run as consecutive lines
  (blank lines ignored), equal up to one constant shift of leading indentation per run.
- Every repository path in backticks in docs/*.md and README.md exists (``runtime/_api.py``,
  ``spec/canonical.yaml``, ``generated/``); a bare ``name.py`` is a file somewhere in the sources.
- The named-transforms table of docs/architecture.md lists exactly the transforms of
  spec/canonical.yaml (the objects and the ``compiled`` rows), each with the protocols whose
  spec rows name it.
- Every make target the README and docs mention exists in the Makefile.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

ARCH = ROOT / "docs" / "architecture.md"
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
SOURCE_DIRS = ("spec", "codegen", "generated", "runtime", "tests", "docs", "examples", "bench")
PROTOCOL_NAMES = {
    "Anthropic": "anthropic_messages",
    "Chat": "openai_chat",
    "Responses": "openai_responses",
    "Gemini": "gemini",
    "Cohere": "cohere_v2",
}

_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
_MARK = re.compile(r"^\s*#\s*((?:" + "|".join(SOURCE_DIRS) + r")/[\w./-]+\.\w+)\s*$")


def fenced_blocks(text: str) -> list[str]:
    return [m.group(1) for m in _FENCE.finditer(text)]


def prose(text: str) -> str:
    """The text outside fenced code blocks."""
    return _FENCE.sub("", text)


def quoted_blocks(text: str) -> list[tuple[str, list[str]]]:
    """(repository path, the block's lines after the marker) for every quoting block."""
    out = []
    for block in fenced_blocks(text):
        lines = block.splitlines()
        m = _MARK.match(lines[0]) if lines else None
        if m:
            out.append((m.group(1), lines[1:]))
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def runs(lines: list[str]) -> list[list[str]]:
    """The quote's runs of non-blank lines, split at ``...`` lines."""
    out: list[list[str]] = [[]]
    for line in lines:
        if line.strip() == "...":
            out.append([])
        elif line.strip():
            out[-1].append(line.rstrip())
    return [r for r in out if r]


def find_run(run: list[str], source: list[str], start: int) -> int | None:
    """Index just past the first match of ``run`` in ``source`` at or after ``start``."""
    stripped = [line.strip() for line in run]
    n = len(run)
    for i in range(start, len(source) - n + 1):
        window = source[i : i + n]
        if [line.strip() for line in window] != stripped:
            continue
        shift = _indent(window[0]) - _indent(run[0])
        if all(_indent(w) - _indent(r) == shift for w, r in zip(window, run, strict=True)):
            return i + n
    return None


def quote_mismatch(path: str, lines: list[str]) -> str | None:
    """None when the quote matches ``path``, else what does not."""
    target = ROOT / path
    if not target.is_file():
        return f"{path} does not exist"
    source = [line.rstrip() for line in target.read_text(encoding="utf-8").splitlines()]
    source = [line for line in source if line.strip()]
    pos = 0
    for run in runs(lines):
        end = find_run(run, source, pos)
        if end is None:
            return f"not in {path} (in this order, after the previous run):\n" + "\n".join(run)
        pos = end
    return None


# ---------------------------------------------------------------- quotes


QUOTES = quoted_blocks(ARCH.read_text(encoding="utf-8"))


def test_architecture_quotes_generated_code() -> None:
    quoted = {path for path, _ in QUOTES}
    assert {
        "generated/anthropic_messages_codec.py",
        "generated/openai_chat_codec.py",
    } <= quoted, "the walk-through lost its quotes of the generated codecs"


@pytest.mark.parametrize(
    ("path", "lines"), QUOTES, ids=[f"{i}:{p}" for i, (p, _) in enumerate(QUOTES)]
)
def test_quoted_block_is_verbatim(path: str, lines: list[str]) -> None:
    assert runs(lines), f"empty quote of {path}"
    problem = quote_mismatch(path, lines)
    assert problem is None, problem


def test_the_quote_check_can_fail() -> None:
    path, lines = next(q for q in QUOTES if q[0].startswith("generated/"))
    broken = [line.replace("v_arguments", "v_args") for line in lines]
    assert broken != lines
    assert quote_mismatch(path, broken) is not None
    assert quote_mismatch(path, [lines[-1], "...", lines[0]]) is not None  # order matters
    k = next(
        i for i in range(1, len(lines)) if "..." not in (lines[i - 1].strip(), lines[i].strip())
    )
    shifted = [*lines[:k], "    " + lines[k], *lines[k + 1 :]]
    assert quote_mismatch(path, shifted) is not None  # so does relative indentation


# ---------------------------------------------------------------- paths


def _code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", prose(text))


def mentioned_paths(text: str) -> set[str]:
    """Repository paths in backticks: under a source folder, or bare ``*.py`` names."""
    out = set()
    for span in _code_spans(text):
        if any(c in span for c in " <>*{}$:"):
            continue  # placeholders, globs, commands, messages
        first = span.split("/", 1)[0]
        if ("/" in span and first in SOURCE_DIRS) or re.fullmatch(r"[\w.-]+\.py", span):
            out.add(span)
    return out


def _exists(path: str) -> bool:
    if "/" in path:
        return (ROOT / path.rstrip("/")).exists()
    return any(any((ROOT / d).rglob(path)) for d in SOURCE_DIRS)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_paths_in_backticks_exist(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    missing = sorted(p for p in mentioned_paths(text) if not _exists(p))
    assert not missing, f"{doc.relative_to(ROOT)} names files that do not exist: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_relative_links_resolve(doc: Path) -> None:
    text = prose(doc.read_text(encoding="utf-8"))
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    missing = [
        link for link in links if "://" not in link and not (doc.parent / link).resolve().exists()
    ]
    assert not missing, f"{doc.relative_to(ROOT)} links to missing files: {missing}"


def test_architecture_names_py_paths() -> None:
    paths = mentioned_paths(ARCH.read_text(encoding="utf-8"))
    assert {"runtime/_protocols.py", "runtime/_wire.py", "runtime/__init__.py"} <= paths
    assert not _exists("runtime/no_such_module.py")


# ---------------------------------------------------------------- transforms table


def transforms_table(text: str) -> dict[str, set[str]]:
    """Transform name -> protocol names, from the table headed ``| transform | protocol |``."""
    rows: dict[str, set[str]] = {}
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| transform | protocol |"))
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        name = cells[0].strip("`")
        assert name not in rows, f"{name} listed twice"
        rows[name] = {p.strip() for p in cells[1].split(",")}
    return rows


def _spec_transforms() -> dict[str, list[str]]:
    out = {}
    for path in sorted((ROOT / "spec" / "protocols").glob("*.yaml")):
        row = yaml.safe_load(path.read_text(encoding="utf-8"))
        out[row["id"]] = list(row["transforms"])
    return out


def test_transforms_table_lists_exactly_the_canonical_transforms() -> None:
    table = transforms_table(ARCH.read_text(encoding="utf-8"))
    rows = yaml.safe_load((ROOT / "spec" / "canonical.yaml").read_text("utf-8"))["transforms"]
    unknown = sorted(set(table) - set(rows))
    assert not unknown, f"docs/architecture.md lists transforms canonical.yaml lacks: {unknown}"
    absent = sorted(set(rows) - set(table))
    assert not absent, f"canonical.yaml transforms missing from docs/architecture.md: {absent}"


def test_transforms_table_names_the_protocols_that_use_each() -> None:
    table = transforms_table(ARCH.read_text(encoding="utf-8"))
    used: dict[str, set[str]] = {}
    for pid, names in _spec_transforms().items():
        for name in names:
            used.setdefault(name, set()).add(pid)
    for name, protocols in table.items():
        assert protocols <= set(PROTOCOL_NAMES), f"{name}: unknown protocol names {protocols}"
        assert {PROTOCOL_NAMES[p] for p in protocols} == used.get(name, set()), name


# ---------------------------------------------------------------- make targets


def makefile_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z0-9][a-z0-9-]*):(?!=)", text, re.M))


def mentioned_targets(text: str) -> set[str]:
    """``make X`` in code spans and shell blocks, plus the README's "Make targets" list."""
    found = set()
    for span in _code_spans(text):
        found |= set(re.findall(r"^make ([a-z][a-z0-9-]*)", span))
    for block in fenced_blocks(text):
        found |= set(re.findall(r"^\s*make ([a-z][a-z0-9-]*)", block, re.M))
    section = re.search(r"^## Make targets\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if section:
        found |= set(re.findall(r"`([a-z][a-z0-9-]*)`", section.group(1)))
    return found


def test_readme_lists_make_targets() -> None:
    assert len(mentioned_targets((ROOT / "README.md").read_text(encoding="utf-8"))) >= 5


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_make_targets_exist(doc: Path) -> None:
    missing = sorted(mentioned_targets(doc.read_text(encoding="utf-8")) - makefile_targets())
    assert not missing, (
        f"{doc.relative_to(ROOT)} mentions make targets not in the Makefile: {missing}"
    )
