"""Codegen refuses a bad thinking-budget rule (spec/canonical.yaml effort_budgets,
effort_default, effort_unknown) with file, line and row, on the tiny inline spec; the rows it
accepts become the generated constants the runtime's one rule reads."""

from __future__ import annotations

from pathlib import Path

from tests.test_codegen_checks import refused
from tests.test_codegen_generate import canonical_of, generate


def test_the_rows_become_the_generated_constants(tmp_path: Path) -> None:
    mod = canonical_of(generate(tmp_path))
    assert (mod.EFFORT_BUDGETS, mod.DEFAULT_EFFORT, mod.UNKNOWN_EFFORT) == (
        {"low": 1024, "high": 8192},
        "low",
        "high",
    )


def test_an_unknown_efforts_effort_must_be_in_the_table(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, "effort_unknown: high", "effort_unknown: xhigh", canonical=True)
    assert msg == (
        f"{at} effort_unknown: 'xhigh' is not an effort of effort_budgets "
        "(expected one of low, high)"
    )


def test_the_default_effort_must_be_in_the_table(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, "effort_default: low", "effort_default: medium", canonical=True)
    assert msg == (
        f"{at} effort_default: 'medium' is not an effort of effort_budgets "
        "(expected one of low, high)"
    )


def test_budgets_must_ascend(tmp_path: Path) -> None:
    msg, at = refused(
        tmp_path,
        "effort_budgets: {low: 1024, high: 8192}",
        "effort_budgets: {low: 8192, high: 8192}",
        canonical=True,
    )
    assert msg == f"{at} effort_budgets.high: 8192 is not above low's 8192 (budgets ascend)"


def test_the_rule_must_be_stated(tmp_path: Path) -> None:
    msg, at = refused(tmp_path, "effort_default: low\n", "", canonical=True, at="effort_unknown")
    assert msg.startswith(f"{at.rsplit(':', 2)[0]}:")
    assert "effort_default: Field required" in msg
