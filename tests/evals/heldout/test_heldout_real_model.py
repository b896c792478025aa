"""The held-out eval with the shipped assistant model (slow: a real model on a sample).

Asserts what must hold whatever the model's skill: every sampled case ran and was graded
and the report adds up. The pass rate and the junk side effects are measured, not asserted
(the target of 0 junk side effects is not met yet: docs/baselines/heldout-botpsy-smol)."""

from __future__ import annotations

from pathlib import Path

import pytest

from botpsy.defaults import ASSISTANT_MODEL
from botpsy.evals.heldout.cases import load_cases
from botpsy.evals.heldout.runner import run_heldout


@pytest.mark.slow
def test_a_sample_of_the_heldout_set_with_the_shipped_model(default_gguf, tmp_path: Path) -> None:
    cases = load_cases(every=12)
    report = run_heldout(ASSISTANT_MODEL, tmp_path, cases=cases, progress=False)
    assert report.overall.cases == len(cases) and report.overall.errors == 0
    assert sum(group.cases for group in report.classes.values()) == len(cases)
    assert report.junk_cases <= report.overall.cases - report.overall.passed
