"""What scoring a BFCL run produces: per-case and per-category scores, the run's report,
and the score files BFCL lays out (a header line, then one line per case).

The data the scoring step writes and every reader (the report writer, comparisons,
the training's BFCL check) reads, kept apart from the scoring itself so that they
need not import one another.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from botpsy.evals.bfcl.overall import OverallScore


class SampleScore(BaseModel):
    """One case: the checker's verdict and, where there are reference calls, the grader's."""

    id: str
    valid: bool
    error_type: str = "ok"  # BFCL's error type, e.g. "value_error:string"
    error: str = ""
    reward: float | None = None
    exact: bool | None = None
    grader_error: str | None = None  # botpsy.rewards.CallErrorType

    @property
    def disagrees(self) -> bool:
        return self.exact is not None and self.exact != self.valid


class Disagreement(BaseModel):
    """A case where ``rewards.score_calls(...).exact`` differs from the checker's ``valid``."""

    id: str
    checker_valid: bool
    checker_error_type: str
    exact: bool
    grader_error: str | None
    detail: str


class CategoryScore(BaseModel):
    category: str
    kind: str
    group: str
    accuracy: float
    correct: int
    total: int
    dataset_size: int
    error_types: dict[str, int] = Field(default_factory=dict)
    inference_errors: int = 0
    reward_mean: float | None = None
    exact_rate: float | None = None
    disagreements: list[Disagreement] = Field(default_factory=list)
    latency_mean_s: float | None = None
    output_tokens_mean: float | None = None
    stopped_early: dict[str, int] = Field(default_factory=dict)  # early_stop.StopReason -> cases

    @property
    def partial(self) -> bool:
        return self.total < self.dataset_size


class BfclReport(BaseModel):
    """Everything the scoring step found for one result directory."""

    model: str
    mode: str
    tool_choice: str = "auto"
    result_dir: str
    created: str
    categories: dict[str, CategoryScore]
    not_run: dict[str, str] = Field(default_factory=dict)
    overall: OverallScore
    max_tokens: int | None = None
    early_stop: dict[str, Any] | None = None
    generated: int = 0  # cases asked by the generation step
    decoding: str = "botpsy"  # "bfcl-hermes": FC answers decoded as BFCL's handler does
    generation_s: float | None = None  # its wall time (None: no run.json)


def write_score_file(path: Path, summary: CategoryScore, samples: list[SampleScore]) -> None:
    """BFCL's score layout: a header line with the accuracy, then one line per case."""
    path.parent.mkdir(parents=True, exist_ok=True)
    header = {
        "accuracy": summary.accuracy,
        "correct_count": summary.correct,
        "total_count": summary.total,
        **summary.model_dump(exclude={"accuracy", "correct", "total"}),
    }
    lines = [json.dumps(header)] + [s.model_dump_json() for s in samples]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_score_file(path: Path) -> tuple[dict[str, Any], list[SampleScore]]:
    """The header and the per-case lines of a score file written by ``write_score_file``."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not lines:
        raise ValueError(f"{path}: empty score file")
    return json.loads(lines[0]), [SampleScore.model_validate_json(line) for line in lines[1:]]
