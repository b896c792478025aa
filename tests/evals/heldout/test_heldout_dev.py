"""The dev requests (``evals/data/heldout_dev``) are the agent's design data: each file loads
as held-out cases, ids are distinct across the files, and no dev request is a request of
the scored blind held-out set (which would let a dev look tune on a measured case; a
blind case found so is left out of scoring, ``cases.EXCLUDED``). Ids and counts
only: the blind requests stay out of test output."""

from __future__ import annotations

from pathlib import Path

from tests.evals.heldout.test_heldout_not_trained import normal

from botpsy.evals.heldout.cases import default_path, load_cases

DEV_DIR = default_path().parent.parent / "heldout_dev"


def _dev_files() -> list[Path]:
    return sorted(DEV_DIR.glob("dev_requests*.jsonl"))


def test_every_dev_file_loads_with_distinct_ids() -> None:
    files = _dev_files()
    assert len(files) >= 3
    ids = [case.id for path in files for case in load_cases(path)]
    assert len(ids) >= 200 and len(ids) == len(set(ids))


def test_no_dev_request_is_a_blind_request() -> None:
    dev = {normal(case.request) for path in _dev_files() for case in load_cases(path)}
    shared = [c.id for c in load_cases() if normal(c.request) in dev]
    assert shared == []
