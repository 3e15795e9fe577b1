"""python -m codegen [--check] [--spec DIR] [--out DIR]: validate spec/, write generated/ (delete
then write), docs/compatibility.md and spec/.schema.json under the output root (default: the repo).

Everything is rendered into a temporary folder first: a bad spec exits 2 and writes nothing.
--check exits 1 with a short diff when the output root's generated files are stale.
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .load import SpecError, load_spec
from .outputs import render_all
from .stream_render import StreamSpecError

ROOT = Path(__file__).resolve().parent.parent


def _ruff_format(folder: Path) -> None:
    files = [str(p) for p in folder.rglob("*.py")]
    ruff = [sys.executable, "-m", "ruff"]
    subprocess.run(
        [*ruff, "check", "--fix-only", "--quiet", "--select", "I,F401", *files],
        check=True,
        cwd=ROOT,
    )
    subprocess.run([*ruff, "format", "--quiet", *files], check=True, cwd=ROOT)


def build(out_root: Path, spec_root: Path = ROOT / "spec") -> None:
    """Write every generated file under out_root (same relative layout as the repo)."""
    spec = load_spec(spec_root)
    for rel, text in render_all(spec, spec_root.parent).items():
        dest = out_root / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
    _ruff_format(out_root / "generated")


OUTPUTS = ("generated", "docs/compatibility.md", "spec/.schema.json")


def _files(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in OUTPUTS:
        p = root / name
        if p.is_file():
            out[name] = p.read_text(encoding="utf-8")
        elif p.is_dir():
            for f in sorted(p.rglob("*")):
                if f.is_file() and "__pycache__" not in f.parts:
                    out[str(f.relative_to(root))] = f.read_text(encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    ap.add_argument("--check", action="store_true", help="fail if generated/ is stale")
    ap.add_argument("--spec", type=Path, default=ROOT / "spec", help="spec folder (canonical.yaml)")
    ap.add_argument("--out", type=Path, default=ROOT, help="root the outputs are written under")
    args = ap.parse_args(argv)
    out: Path = args.out
    with tempfile.TemporaryDirectory() as tmp:
        tmp_root = Path(tmp)
        try:
            build(tmp_root, args.spec)
        except (SpecError, StreamSpecError) as e:
            print(f"spec error:\n{e}", file=sys.stderr)
            return 2
        fresh = _files(tmp_root)
        if args.check:
            current = _files(out)
            stale = sorted(
                k for k in fresh.keys() | current.keys() if fresh.get(k) != current.get(k)
            )
            if not stale:
                print("generated/ is current")
                return 0
            print(f"stale generated files ({len(stale)}): run `make generate`", file=sys.stderr)
            for name in stale[:5]:
                diff = difflib.unified_diff(
                    current.get(name, "").splitlines(),
                    fresh.get(name, "").splitlines(),
                    f"a/{name}",
                    f"b/{name}",
                    lineterm="",
                    n=1,
                )
                for line in list(diff)[:20]:
                    print(line, file=sys.stderr)
            return 1
        shutil.rmtree(out / "generated", ignore_errors=True)
        for name, text in fresh.items():
            dest = out / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(text, encoding="utf-8")
        print(f"wrote {len(fresh)} files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
