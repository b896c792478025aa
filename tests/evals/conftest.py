"""Shared eval fixtures: one ground-truth BFCL run (generated and scored once per session)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from botpsy.evals.bfcl import BfclReport, category, generate, score
from botpsy.evals.bfcl.results import Mode

from .chat_models import OracleChatModel

NON_LIVE_AST = [
    "simple_python",
    "simple_java",
    "simple_javascript",
    "multiple",
    "parallel",
    "parallel_multiple",
]
# Small subsets keep the default suite fast; the full pass is a `slow` test.
SUBSET = {
    **{name: 25 for name in NON_LIVE_AST},
    "irrelevance": 25,
    "live_simple": 15,
    "live_relevance": 5,
    "multi_turn_base": 3,
    "multi_turn_miss_func": 3,
    "multi_turn_miss_param": 3,
}


@dataclass
class OracleRun:
    out: Path
    model_dir: Path
    report: BfclReport
    model_calls: int


def run_oracle(out: Path, limits: dict[str, int | None], mode: Mode = "fc") -> OracleRun:
    """Feed BFCL's ground truth back through generate and score."""
    calls = 0
    model_dir = out
    for name, limit in limits.items():
        model = OracleChatModel([category(name)], mode=mode)
        summary = generate(model, [name], out, mode=mode, limit=limit, progress=False)
        model_dir = summary.model_dir
        calls += model.calls
    return OracleRun(out, model_dir, score(model_dir, out, progress=False), calls)


@pytest.fixture(scope="session")
def oracle_run(tmp_path_factory) -> OracleRun:
    return run_oracle(tmp_path_factory.mktemp("bfcl_oracle"), SUBSET)
