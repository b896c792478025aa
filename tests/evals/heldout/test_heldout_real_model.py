"""The held-out eval with the shipped assistant model (slow: a real model on a sample).

Asserts what must hold whatever the model's skill: every sampled case ran and was graded,
the report adds up, and no case left a junk side effect (the intent checks refuse writes
the request did not ask for before they run). The pass rate is measured, not asserted."""

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
    assert report.junk_changes == 0
