"""Score a recipe run after the fact: the base and every finished stage, one evaluator.

A run trained without an evaluator (or scored with a smaller case budget) gets
its external scores here: each model is scored once, stage k's ``external_before``
is the score of the model it started from (the base, or stage k-1's output),
each ``stage_result.json`` is rewritten with the scores, and
``recipe_report.{json,md,png}`` is written again with them.

Run: ``botpsy train score-run --run runs/smol --limit 20`` (BFCL through
``botpsy.train.bfcl_eval``); any ``ModelEvaluator`` works from Python.
"""

from __future__ import annotations

from pathlib import Path

from botpsy.train.adapter_rl import LOWRANK_STAGE
from botpsy.train.common import RESULT_FILE, StageResult
from botpsy.train.data import DataStats
from botpsy.train.evaluate import ModelEvaluator
from botpsy.train.report import RecipeReport, write

REPORT_FILE = "recipe_report.json"
# The folders the presets chain (``<out>/<stage>``), in training order.
STAGE_ORDER = ("sft", "distill", "balance", "dapo1", "dapo2")


class RunFolderError(FileNotFoundError):
    """A folder that is not a recipe run with finished stages."""


def record_scores(
    stage_dir: str | Path, before: dict[str, float], after: dict[str, float]
) -> StageResult:
    """Write external scores into a finished stage's ``stage_result.json``; the updated result."""
    path = Path(stage_dir) / RESULT_FILE
    stage = StageResult.model_validate_json(path.read_text(encoding="utf-8"))
    stage = stage.model_copy(update={"external_before": before, "external_after": after})
    path.write_text(stage.model_dump_json(indent=2), encoding="utf-8")
    return stage


def read_report(run_dir: Path) -> RecipeReport | None:
    path = run_dir / REPORT_FILE
    if not path.is_file():
        return None
    return RecipeReport.model_validate_json(path.read_text(encoding="utf-8"))


def stage_dirs(run_dir: Path, report: RecipeReport | None = None) -> list[Path]:
    """Folders of the finished stages (those with a ``stage_result.json``), in chain order:
    the report's order if there is one, then the presets' order, then by name."""
    if not run_dir.is_dir():
        raise RunFolderError(f"run folder not found: {run_dir}")
    found = {p.parent.name: p.parent for p in run_dir.glob(f"*/{RESULT_FILE}")}
    if not found:
        raise RunFolderError(
            f"{run_dir} has no finished stage (no */{RESULT_FILE}); "
            "run `botpsy train recipe --out` on it first"
        )
    known = [Path(s.output_dir).name for s in report.stages] if report else []
    order = {name: i for i, name in enumerate(dict.fromkeys([*known, *STAGE_ORDER]))}
    names = sorted(found, key=lambda n: (order.get(n, len(order)), n))
    missing = [n for n in names if not (found[n] / "model" / "config.json").is_file()]
    if missing:
        raise RunFolderError(f"{run_dir}: finished stages without a model folder: {missing}")
    return [found[name] for name in names]


def base_model_dir(run_dir: Path, report: RecipeReport | None) -> Path:
    """``<run>/base`` (where the recipe puts it), else the base model the report names."""
    for candidate in (run_dir / "base", Path(report.base_model) if report else None):
        if candidate is not None and (candidate / "config.json").is_file():
            return candidate
    raise RunFolderError(
        f"no base model for {run_dir}: neither {run_dir / 'base'} nor the report's base_model "
        "is an HF model folder"
    )


def _empty_report(run_dir: Path, base: Path) -> RecipeReport:
    """A report for a run that stopped before writing one (stages finished, report not)."""
    stats = run_dir / "data" / "stats.json"
    data = (
        DataStats.model_validate_json(stats.read_text(encoding="utf-8"))
        if stats.is_file()
        else None
    )
    return RecipeReport(preset="unknown", out_dir=str(run_dir), base_model=str(base), data=data)


def _with_note(notes: list[str], note: str | None) -> list[str]:
    """The notes with ``note`` replacing an earlier one of the same kind (text before ':')."""
    if not note:
        return notes
    kind = note.split(":", 1)[0] + ":"
    return [n for n in notes if not n.startswith(kind)] + [note]


def _truncated_start(run_dir: Path, folder: Path) -> Path | None:
    """The rank truncation that adapter-aware RL's first DAPO round started from (None when
    the stage started from the previous stage's model)."""
    truncated = run_dir / LOWRANK_STAGE / "model"
    if folder.name == "dapo1" and (truncated / "config.json").is_file():
        return truncated
    return None


def score_run(
    run_dir: str | Path, evaluator: ModelEvaluator, note: str | None = None
) -> RecipeReport:
    """Score the base and each finished stage's model; rewrite stage results and the report."""
    run_dir = Path(run_dir)
    report = read_report(run_dir)
    dirs = stage_dirs(run_dir, report)
    base = base_model_dir(run_dir, report)
    report = report or _empty_report(run_dir, base)
    # Score everything before writing anything: a failure leaves the run as it was.
    scores = [evaluator(str(base)), *(evaluator(str(folder / "model")) for folder in dirs)]
    starts = [
        evaluator(str(truncated)) if (truncated := _truncated_start(run_dir, folder)) else before
        for folder, before in zip(dirs, scores)
    ]
    report.base_scores = scores[0]
    report.stages = [
        record_scores(folder, before, after)
        for folder, before, after in zip(dirs, starts, scores[1:])
    ]
    report.notes = _with_note(report.notes, note)
    write(report, run_dir)
    return report
