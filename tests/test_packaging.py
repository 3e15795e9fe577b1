"""The import name is `interlingua` from both an editable install and a built wheel."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import interlingua

from tests.conftest import ROOT


def test_editable_install_maps_runtime_and_generated() -> None:
    assert Path(interlingua.__file__).parent == ROOT / "runtime"
    import interlingua.generated.canonical as canonical

    assert Path(canonical.__file__).parent == ROOT / "generated"


def test_wheel_contains_the_package_and_generated_code(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("interlingua-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "interlingua/__init__.py",
        "interlingua/_api.py",
        "interlingua/transforms/messages_flat.py",
        "interlingua/streams/machine.py",
        "interlingua/generated/openai_chat_stream.py",
        "interlingua/generated/canonical.py",
        "interlingua/generated/anthropic_messages_codec.py",
        "interlingua/py.typed",
    ):
        assert expected in names, expected
    assert not any(n.startswith(("runtime/", "generated/")) for n in names)
    # the wheel imports on its own, outside the source tree
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import interlingua, sys; print(interlingua.__file__); print(interlingua.available())",
        ],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert str(target) in out.stdout and "openai_chat" in out.stdout
