"""No training sample shares a request with the held-out set.

The held-out requests are for measuring only. This checks every source of training or
tuning text the project has: the request templates of the tool recipes (a request that a
template could produce counts, whatever its slots hold), the synthetic data the smol
recipe generates from its fixed seeds (SFT and balance), the everyday request sets and the
scenario turns."""

from __future__ import annotations

import re
from pathlib import Path

from botpsy.evals.heldout.cases import EXCLUDED, load_cases
from botpsy.evals.safety_set import everyday_requests
from botpsy.evals.scenarios.catalog import load_scenarios
from botpsy.train.catalog_builtin import builtin_recipes
from botpsy.train.data import generate
from botpsy.train.presets import smol
from botpsy.train.templates import SLOT

ROOT = Path(__file__).resolve().parents[3]


def normal(text: str) -> str:
    """Lower case, words only: "Remind me, please!" and "remind me please" are one request."""
    return " ".join(re.findall(r"[a-z0-9@.:'-]+", text.lower())).strip(" .")


def fixed_templates() -> set[str]:
    """The recipe templates that are whole requests: every slot sets a value without text
    (``{unread_only=true}``); templates with free slots are covered by the samples drawn
    from them below."""
    return {normal(SLOT.sub("", t)) for r in builtin_recipes() for t in r.requests
            if all(m.group(2) is not None for m in SLOT.finditer(t))}


def shared_ids(texts: set[str]) -> list[str]:
    """The held-out case ids whose request is among ``texts`` (ids only: the requests
    themselves stay out of test output). Cases excluded from the set (``EXCLUDED``, for
    sharing a request with training data) are left out of scoring and of this check."""
    return [c.id for c in load_cases() if normal(c.request) in texts]


def test_excluded_cases_are_out_of_the_scored_set() -> None:
    scored = {c.id for c in load_cases()}
    everything = {c.id for c in load_cases(include_excluded=True)}
    assert EXCLUDED and set(EXCLUDED) <= everything and not set(EXCLUDED) & scored


def test_no_template_is_a_heldout_request() -> None:
    fixed = fixed_templates()
    assert len(fixed) > 5
    assert shared_ids(fixed) == []


def _user_texts(samples) -> set[str]:
    return {normal(m.content) for s in samples for m in s.messages
            if m.role == "user" and isinstance(m.content, str)}


def test_no_synthetic_training_sample_is_a_heldout_request(tmp_path: Path) -> None:
    plan = smol(str(tmp_path))
    texts: set[str] = set()
    for config in (plan.data, plan.balance_data):
        data = generate(config)
        texts |= _user_texts(data.train + data.validation)
    assert len(texts) > 500
    assert shared_ids(texts) == []


def test_no_everyday_or_scenario_request_is_a_heldout_request() -> None:
    everyday = {normal(r) for r in everyday_requests(ROOT / "benchmarks" / "everyday_requests.py")}
    turns = {normal(t) for s in load_scenarios() for t in s.turns}
    assert everyday and turns
    assert shared_ids(everyday | turns) == []
