"""Shared test helpers: the ../shared folder (real traffic) is optional."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
FIXTURES = SHARED / "fixtures"
SEEDS = SHARED / "seeds"


def need_fixtures() -> Path:
    if not FIXTURES.is_dir():
        pytest.skip("../shared/fixtures is absent")
    return FIXTURES


def client_body(rel: str) -> dict[str, Any]:
    """The JSON body of a request captured from a real client (clients/<rel>)."""
    data = json.loads((need_fixtures() / "clients" / rel).read_text())
    return data["body"]  # type: ignore[no-any-return]
