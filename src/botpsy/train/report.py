"""The recipe report: JSON (machine), Markdown (people), PNG (loss and reward at a glance)."""

from __future__ import annotations

from pathlib import Path

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
    ext = ", ".join(f"{k} {v:.3f}" for k, v in stage.external_after.items()) or "-"
    return (
        f"| {stage.stage} | {stage.steps} | {_num(stage.loss_first)} -> {_num(stage.loss_last)} "
        f"| {stage.param_change:.4f} | {_num(before.reward if before else None)} -> "
        f"{_num(after.reward if after else None)} | {_num(after.exact if after else None)} | {ext} "
        f"| {stage.seconds:.0f}{' (resumed)' if stage.skipped else ''} |"
    )


def markdown(report: RecipeReport) -> str:
    lines = [
        f"# botpsy recipe `{report.preset}`",
        "",
        (
            f"Base model: `{report.base_model}`; output: `{report.out_dir}`; "
            f"total {report.seconds:.0f} s."
        ),
        "",
    ]
    if report.data:
        d = report.data
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(d.by_kind.items()))
        lines += [
            (
                f"Data: {d.train} train / {d.validation} validation samples, {d.tools} tools, "
                f"{d.duplicates_dropped} duplicates dropped; kinds: {kinds}."
            ),
            "",
        ]
    if report.base_scores:
        lines += [
            "Base model scores: "
            + ", ".join(f"{k} {v:.3f}" for k, v in report.base_scores.items()),
            "",
        ]
    lines += [
        (
            "| stage | steps | train loss (first -> last) | weight change "
            "| val reward (before -> after) "
            "| val exact | external | seconds |"
        ),
        "|---|---|---|---|---|---|---|---|",
        *(_stage_row(s) for s in report.stages),
        "",
    ]
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


def plot(report: RecipeReport, path: Path) -> Path:
    """Training loss per stage and validation reward before/after each stage."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_loss, ax_reward) = plt.subplots(1, 2, figsize=(11, 4))
    offset = 0
    for stage in report.stages:
        if stage.train_loss:
            ax_loss.plot(
                [offset + p.step for p in stage.train_loss],
                [p.loss for p in stage.train_loss],
                label=stage.stage,
            )
            offset += stage.train_loss[-1].step
    ax_loss.set(title="training loss", xlabel="step (stages chained)", ylabel="loss")
    ax_loss.legend()
    names = [s.stage for s in report.stages]
    before = [s.val_before.reward if s.val_before else 0.0 for s in report.stages]
    after = [s.val_after.reward if s.val_after else 0.0 for s in report.stages]
    xs = range(len(names))
    ax_reward.bar([x - 0.2 for x in xs], before, width=0.4, label="before")
    ax_reward.bar([x + 0.2 for x in xs], after, width=0.4, label="after")
    ax_reward.set_xticks(list(xs), names)
    ax_reward.set(title="validation tool-call reward", ylim=(0, 1))
    ax_reward.legend()
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
