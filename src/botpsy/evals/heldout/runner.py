"""Generate and score the held-out eval; the two steps are apart on disk.

Each case runs in a fresh demo store seeded around 2026-12-07 with the clock at 09:00
Berlin (``botpsy init --demo --today 2026-12-07``), through the assistant as it ships
(``open_assistant``: its tool selector, checks and safety layer) with the confirmer
``botpsy ask --yes`` uses when nobody is at the terminal: side effects that no untrusted
data preceded are approved, every other one is denied. The store is diffed before and
after, and the run (calls, reply, changes) goes to ``out/results/heldout.jsonl`` as it
finishes; ``score_heldout(out)`` grades the saved runs into ``out/scores/`` without the
model. ``--resume`` keeps the finished cases of an earlier run.

    from botpsy.evals.heldout.runner import run_heldout
    report = run_heldout("botpsy-smol", "runs/heldout", parallel=4)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from pydantic import BaseModel, Field

from botpsy.assistant.runtime import open_assistant
from botpsy.evals.heldout.cases import EXCLUDED, HELDOUT_NOW, HELDOUT_TODAY, HeldoutCase, load_cases
from botpsy.evals.heldout.grade import CaseGrade, RowChange, grade_case, row_changes
from botpsy.evals.heldout.report import (
    HeldoutReport,
    RunComparison,
    build_report,
    compare_runs,
    write_report,
)
from botpsy.evals.scenarios.harness import ModelFactory, ModelSource, model_factory
from botpsy.evals.scenarios.runner import play_isolated, write_lines, write_runs
from botpsy.evals.scenarios.score import RunErrorKind
from botpsy.evals.scenarios.trace import Episode, RecordingChatModel
from botpsy.evals.scenarios.world import diff, open_world, snapshot
from botpsy.safety.confirm import ApproveUntainted, DenyAll
from botpsy.types import GenerationParams

RESULTS_FILE = Path("results") / "heldout.jsonl"
SCORES_DIR = Path("scores")
SCORES_FILE = SCORES_DIR / "heldout.jsonl"
DEFAULT_MAX_TOKENS = 256


class HeldoutRun(BaseModel):
    """What one case's run left: the trace, the reply and the store's changes."""

    case_id: str
    model: str = ""
    episode: Episode = Field(default_factory=Episode)
    changes: list[RowChange] = Field(default_factory=list)
    wall_s: float = 0.0
    error: str | None = None
    error_kind: RunErrorKind | None = None

    def call_signature(self) -> list[str]:
        """The calls the model proposed, in order, as comparable text (run-to-run agreement)."""
        return [f"{c.name}{sorted(c.arguments.items())!r}" for c in self.episode.calls]


def generate_case(case: HeldoutCase, factory: ModelFactory, params: GenerationParams
                  ) -> HeldoutRun:
    """Run one request in a fresh store; a failure is recorded, not raised."""
    run = HeldoutRun(case_id=case.id)
    return play_isolated(run, case.id, partial(_play, case, factory, run, params=params))


def _play(case: HeldoutCase, factory: ModelFactory, run: HeldoutRun, tmp: Path,
          params: GenerationParams) -> None:
    store = open_world(tmp / "store", now=HELDOUT_NOW, today=HELDOUT_TODAY)
    try:
        recorder = RecordingChatModel(factory(case, {}))
        run.model = recorder.name
        assistant = open_assistant(recorder, store=store, params=params,
                                   confirmer=ApproveUntainted(DenyAll()))
        before = snapshot(store)
        result = assistant.agent.run(case.request)
        run.episode.add_turn(0, case.request, result)
        run.episode.completions = recorder.completions
        run.episode.audit = assistant.audit.entries(limit=None)
        after = snapshot(store)
        keyed = {t: {r["path" if t == "files" else "id"]: r for r in rows}
                 for t, rows in before.tables.items()}
        run.changes = row_changes(diff(before, after), keyed)
    finally:
        store.close()


def read_runs(path: Path) -> list[HeldoutRun]:
    if not path.is_file():
        raise FileNotFoundError(f"no held-out results at {path}; generate them first")
    lines = path.read_text(encoding="utf-8").splitlines()
    return [HeldoutRun.model_validate_json(line) for line in lines if line.strip()]


def grade_run(case: HeldoutCase, run: HeldoutRun) -> CaseGrade:
    return grade_case(case, run.changes, run.episode.final_text, run.error)


def score_heldout(out_dir: str | Path, cases: list[HeldoutCase] | None = None,
                  only: set[str] | None = None) -> HeldoutReport:
    """Grade saved results (no model needed); write per-case grades and the report.
    ``only``: grade just these case ids (a --limit run in a folder that holds more)."""
    out = Path(out_dir)
    runs = [r for r in read_runs(out / RESULTS_FILE)
            if (only is None or r.case_id in only) and r.case_id not in EXCLUDED]
    known = {c.id: c for c in (cases if cases is not None else load_cases())}
    unknown = [r.case_id for r in runs if r.case_id not in known]
    if unknown:
        raise ValueError(f"results name cases that are not in the set: {unknown}")
    grades = [grade_run(known[r.case_id], r) for r in runs]
    write_lines(out / SCORES_FILE, grades)
    report = build_report(grades, runs)
    write_report(report, out / SCORES_DIR)
    return report


def run_heldout(model: ModelSource, out_dir: str | Path, *, limit: int | None = None,
                classes: list[str] | None = None, every: int = 1, max_tokens: int = DEFAULT_MAX_TOKENS,
                parallel: int = 1, resume: bool = True, progress: bool = True,
                cases: list[HeldoutCase] | None = None) -> HeldoutReport:
    """Generate the (selected) cases with ``model``, then score every saved one.

    ``resume`` keeps the cases already in ``out/results`` (from a run that stopped) and
    runs only the rest; a case that ended in a runner error is run again."""
    chosen = (cases if cases is not None
              else load_cases(limit=limit, classes=classes, every=every))
    out = Path(out_dir)
    path = out / RESULTS_FILE
    kept = _finished(path) if resume else {}
    todo = [c for c in chosen if c.id not in kept]
    if todo:
        factory = model_factory(model, parallel=parallel)
        generate: Callable[[HeldoutCase], HeldoutRun] = partial(
            generate_case, factory=factory, params=GenerationParams(max_tokens=max_tokens))
        partial_path = path.with_suffix(".new.jsonl")
        write_runs(partial_path, "held-out", todo, generate, progress, parallel)
        kept.update({r.case_id: r for r in read_runs(partial_path)})
        order = {c.id: i for i, c in enumerate(chosen)}
        ordered = sorted(kept.values(), key=lambda r: order.get(r.case_id, len(order)))
        write_lines(path, ordered)
        partial_path.unlink()
    return score_heldout(out, cases, only={c.id for c in chosen})


def _finished(path: Path) -> dict[str, HeldoutRun]:
    """The runs of an earlier (possibly cut) run worth keeping, by case id: the results
    file and the lines a crashed run left in its partial file."""
    kept: dict[str, HeldoutRun] = {}
    for source in (path, path.with_suffix(".new.jsonl")):
        if source.is_file():
            for run in read_runs(source):
                if run.error_kind != RunErrorKind.runner_error:
                    kept[run.case_id] = run
    return kept


def graded(out_dir: str | Path, cases: list[HeldoutCase]
           ) -> tuple[list[HeldoutRun], list[CaseGrade]]:
    """A run folder's saved runs of ``cases`` and their grades (graded again from the results)."""
    known = {c.id: c for c in cases}
    runs = [r for r in read_runs(Path(out_dir) / RESULTS_FILE) if r.case_id in known]
    return runs, [grade_run(known[r.case_id], r) for r in runs]


def compare_run_dirs(dir_a: str | Path, dir_b: str | Path,
                     cases: list[HeldoutCase] | None = None) -> RunComparison:
    """Run-to-run agreement and the McNemar test of two run folders on their shared cases
    (of ``cases``, default the held-out set)."""
    chosen = cases if cases is not None else load_cases()
    runs_a, grades_a = graded(dir_a, chosen)
    runs_b, grades_b = graded(dir_b, chosen)
    return compare_runs(runs_a, grades_a, runs_b, grades_b)
