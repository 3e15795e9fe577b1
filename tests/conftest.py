"""Shared test helpers: the ../shared folder (real traffic) is optional."""

from __future__ import annotations

import json
import os
import tempfile
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
FIXTURES = SHARED / "fixtures"
SEEDS = SHARED / "seeds"

# Property tests judge behaviour, never speed: on a loaded 2-core machine a slow example is not
# a failure (tests that set their own settings keep them).
settings.register_profile(
    "interlingua", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("interlingua")

# the gateway's default state file lives in the user's state directory: not the tests'
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="interlingua-state-")


def transform_objects() -> dict[str, Any]:
    """The named transforms' objects (spec/canonical.yaml ``transforms`` rows with one: the
    others are the codecs' own compiled functions), as each codec's compiled pipeline imports
    them."""
    rows = yaml.safe_load((ROOT / "spec" / "canonical.yaml").read_text("utf-8"))["transforms"]
    out = {}
    for name, row in rows.items():
        target = row if type(row) is str else row.get("object")
        if target is not None:
            module, obj = target.rsplit(".", 1)
            out[name] = getattr(import_module(f"interlingua.transforms.{module}"), obj)
    return out


def need_fixtures() -> Path:
    if not FIXTURES.is_dir():
        pytest.skip("../shared/fixtures is absent")
    return FIXTURES


def client_body(rel: str) -> dict[str, Any]:
    """The JSON body of a request captured from a real client (clients/<rel>)."""
    data = json.loads((need_fixtures() / "clients" / rel).read_text())
    return data["body"]  # type: ignore[no-any-return]


def need_seeds() -> Path:
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is absent")
    return SEEDS


def losses_by_feature(losses: list[Any]) -> dict[str, list[str]]:
    """{feature: [path, ...]} of a translation's losses."""
    out: dict[str, list[str]] = {}
    for loss in losses:
        out.setdefault(loss.feature, []).append(loss.path)
    return out
