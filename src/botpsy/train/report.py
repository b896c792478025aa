"""The recipe report: JSON (machine), Markdown (people), PNG (loss, reward and BFCL at a glance)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from botpsy.train.common import StageResult
from botpsy.train.data import DataStats
from botpsy.train.export import ExportResult


class RecipeReport(BaseModel):
    preset: str
    out_dir: str
    base_model: str
    data: DataStats | None = None
    base_scores: dict[str, float] = {}
    stages: list[StageResult] = []
    export: ExportResult | None = None
    launch_script: str | None = None  # multi-GPU presets: the script that runs the stages
    notes: list[str] = []
    seconds: float = 0.0


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _stage_row(stage: StageResult) -> str:
    before, after = stage.val_before, stage.val_after
    return (
        f"| {stage.stage} | {stage.steps} | {_num(stage.loss_first)} -> {_num(stage.loss_last)} "
        f"| {stage.param_change:.4f} | {_num(before.reward if before else None)} -> "
        f"{_num(after.reward if after else None)} | {_num(after.exact if after else None)} "
        f"| {stage.seconds:.0f}{' (resumed)' if stage.skipped else ''} |"
    )


class ScoreRow(BaseModel):
    """One model's external scores (the base, or a stage's output) and the stage's gain."""

    model: str
    scores: dict[str, float]
    before: dict[str, float] | None = None  # the scores of the model the stage started from

    def gain(self, key: str) -> float | None:
        if self.before is None or key not in self.before or key not in self.scores:
            return None
        return self.scores[key] - self.before[key]


def score_rows(report: RecipeReport) -> list[ScoreRow]:
    """Base, then each scored stage: what the external evaluator (BFCL) said of each model.

    A stage that did not start from the previous stage's output (adapter-aware RL starts
    DAPO from a rank truncation) gets a row ``before STAGE`` for the model it started from,
    so what happened between the stages is a gain of its own, not hidden in the next one's.
    When the previous stage is unscored there is nothing to compare, and no such row."""
    base = report.base_scores or (report.stages[0].external_before if report.stages else {})
    rows = [ScoreRow(model="base", scores=base)] if base else []
    previous = base
    for stage in report.stages:
        start = stage.external_before or None
        if stage.external_after:
            if start and previous and start != previous:
                rows.append(ScoreRow(model=f"before {stage.stage}", scores=start, before=previous))
            rows.append(ScoreRow(model=stage.stage, scores=stage.external_after, before=start))
        previous = stage.external_after
    return rows


def score_keys(rows: list[ScoreRow]) -> list[str]:
    """Every score name, in the evaluator's order (headline scores first)."""
    return list(dict.fromkeys(k for row in rows for k in row.scores))


def _score_cell(row: ScoreRow, key: str) -> str:
    if key not in row.scores:
        return "-"
    gain = row.gain(key)
    return f"{row.scores[key]:.3f}" + ("" if gain is None else f" ({gain:+.3f})")


def scores_markdown(report: RecipeReport) -> list[str]:
    """The external-score table: one row per model, gains over the stage's input in brackets."""
    rows = score_rows(report)
    if not rows:
        return []
    keys = score_keys(rows)
    title = "BFCL" if "non_live_ast" in keys else "External scores"
    return [
        f"## {title} before and after each stage",
        "",
        "Each stage's row: its output's score (gain over the model it started from).",
        "",
        "| model | " + " | ".join(keys) + " |",
        "|---|" + "---|" * len(keys),
        *(f"| {r.model} | " + " | ".join(_score_cell(r, k) for k in keys) + " |" for r in rows),
        "",
    ]


def markdown(report: RecipeReport) -> str:
    lines = [
        f"# botpsy recipe `{report.preset}`",
        "",
        (
            f"Base model: `{report.base_model}`; output: `{report.out_dir}`; "
            f"stages {sum(stage.seconds for stage in report.stages):.0f} s of training "
            f"(over every sitting), this run {report.seconds:.0f} s."
        ),
        "",
    ]
    if report.data:
        d = report.data
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(d.by_kind.items()))
        restyled = f" ({d.restyled} samples under another naming style)" if d.restyled else ""
        if d.source_text:
            restyled += f" ({d.source_text} as source-text bindings)"
        lines += [
            (
                f"Data: {d.train} train / {d.validation} validation samples, "
                f"{d.tools} tool names{restyled}, "
                f"{d.duplicates_dropped} duplicates dropped; kinds: {kinds}."
            ),
            "",
        ]
    lines += [
        (
            "| stage | steps | train loss (first -> last) | weight change "
            "| val reward (before -> after) "
            "| val exact | seconds |"
        ),
        "|---|---|---|---|---|---|---|",
        *(_stage_row(s) for s in report.stages),
        "",
    ]
    lines += scores_markdown(report)
    for stage in report.stages:
        if stage.metrics:
            lines.append(
                f"- {stage.stage}: "
                + ", ".join(f"{k} {v:.3f}" for k, v in sorted(stage.metrics.items()))
            )
    if report.launch_script:
        lines += ["", f"Launch bundle written: run `{report.launch_script}` on the GPU machine."]
    lines += [f"- note: {note}" for note in report.notes]
    if report.export:
        lines += ["", "| GGUF | size (MB) | llama.cpp sample |", "|---|---|---|"]
        lines += [
            f"| `{Path(c.path).name}` | {c.size_bytes / 1e6:.1f} | {c.sample!r} |"
            for c in report.export.checks
        ]
    return "\n".join(lines) + "\n"


def _plot_loss(ax: Any, report: RecipeReport) -> None:
    offset = 0
    for stage in report.stages:
        if stage.train_loss:
            ax.plot(
                [offset + p.step for p in stage.train_loss],
                [p.loss for p in stage.train_loss],
                label=stage.stage,
            )
            offset += stage.train_loss[-1].step
    ax.set(title="training loss", xlabel="step (stages chained)", ylabel="loss")
    ax.legend()


def _plot_reward(ax: Any, report: RecipeReport) -> None:
    names = [s.stage for s in report.stages]
    before = [s.val_before.reward if s.val_before else 0.0 for s in report.stages]
    after = [s.val_after.reward if s.val_after else 0.0 for s in report.stages]
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], before, width=0.4, label="before")
    ax.bar([x + 0.2 for x in xs], after, width=0.4, label="after")
    ax.set_xticks(list(xs), names)
    ax.set(title="validation tool-call reward", ylim=(0, 1))
    ax.legend()


def _plot_scores(ax: Any, rows: list[ScoreRow]) -> None:
    """One line per score across base -> stages; the first two (headline) drawn bold."""
    xs = list(range(len(rows)))
    for index, key in enumerate(score_keys(rows)):
        points = [(x, r.scores[key]) for x, r in zip(xs, rows) if key in r.scores]
        bold = index < 2
        ax.plot(
            [x for x, _ in points],
            [y for _, y in points],
            marker="o",
            linewidth=2.5 if bold else 1.0,
            linestyle="-" if bold else "--",
            alpha=1.0 if bold else 0.6,
            label=key,
        )
    ax.set_xticks(xs, [r.model for r in rows])
    title = "BFCL" if "non_live_ast" in score_keys(rows) else "external scores"
    ax.set(title=f"{title} by model", ylim=(-0.02, 1.02))
    ax.legend(fontsize="x-small")


def plot(report: RecipeReport, path: Path) -> Path:
    """Training loss per stage, validation reward before/after each stage and, when the
    run was scored, the external (BFCL) scores of the base and each stage's output."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = score_rows(report)
    panels = 3 if rows else 2
    fig, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 4))
    _plot_loss(axes[0], report)
    _plot_reward(axes[1], report)
    if rows:
        _plot_scores(axes[2], rows)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def write(report: RecipeReport, out_dir: Path) -> dict[str, Path]:
    """``recipe_report.json``, ``recipe_report.md`` and ``recipe_report.png`` in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out_dir / "recipe_report.json",
        "md": out_dir / "recipe_report.md",
        "png": out_dir / "recipe_report.png",
    }
    paths["json"].write_text(report.model_dump_json(indent=2), encoding="utf-8")
    paths["md"].write_text(markdown(report), encoding="utf-8")
    plot(report, paths["png"])
    return paths
