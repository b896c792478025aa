"""One scored BFCL run written out: ``report.json``, ``report.md`` and ``accuracy.png``.

The scoring step (``botpsy.evals.bfcl.score``) writes these files next to the score
files; ``botpsy.evals.report`` reads them back to compare and combine runs.
"""

from __future__ import annotations

from pathlib import Path

from botpsy.evals.bfcl.overall import OverallScore
from botpsy.evals.bfcl.scored import BfclReport, CategoryScore
from botpsy.evals.markdown import markdown_table, pct


def _top_errors(score: CategoryScore, n: int = 3) -> str:
    return (
        ", ".join(f"{kind} ({count})" for kind, count in list(score.error_types.items())[:n]) or "-"
    )


def category_rows(scores: dict[str, CategoryScore]) -> list[list[object]]:
    rows = []
    for name, s in scores.items():
        cases = f"{s.total}/{s.dataset_size}" if s.partial else str(s.total)
        rows.append(
            [
                name,
                pct(s.accuracy),
                cases,
                pct(s.reward_mean),
                pct(s.exact_rate),
                len(s.disagreements),
                _top_errors(s),
            ]
        )
    return rows


CATEGORY_HEADERS = [
    "category",
    "accuracy %",
    "cases",
    "reward %",
    "exact %",
    "grader ≠ checker",
    "main errors",
]


def _generation_line(report: BfclReport) -> str:
    """How the answers were made: budget, early stop, wall time and speed."""
    parts = [f"max_tokens {report.max_tokens}" if report.max_tokens else ""]
    if report.early_stop:
        probes = "/".join(str(b) for b in report.early_stop.get("probes", []))
        parts.append(f"early stop (probes {probes} tokens)")
    elif report.max_tokens:
        parts.append("no early stop")
    if report.generation_s and report.generated:
        rate = report.generated / report.generation_s
        parts.append(
            f"{report.generated} cases in {report.generation_s:.0f} s ({rate:.2f} cases/s)"
        )
    text = ", ".join(p for p in parts if p)
    line = f"Generation: {text}." if text else ""
    if report.decoding == "bfcl-hermes":
        line += (" Answers decoded as BFCL's Hermes FC handler decodes them (complete "
                 "`<tool_call>` blocks of valid JSON only), not by botpsy's repairing parser.")
    return line.strip()


def _cost_rows(scores: dict[str, CategoryScore]) -> list[list[object]]:
    return [
        [
            name,
            "n/a" if s.latency_mean_s is None else f"{s.latency_mean_s:.2f}",
            "n/a" if s.output_tokens_mean is None else f"{s.output_tokens_mean:.0f}",
            ", ".join(f"{k} ({v})" for k, v in s.stopped_early.items()) or "-",
        ]
        for name, s in scores.items()
    ]


def _partial_line(report: BfclReport) -> str:
    """A warning when categories were scored on part of their cases: such a run's groups
    are not the full-set scores published for other models."""
    partial = {n: s for n, s in report.categories.items() if s.partial}
    if not partial:
        return ""
    shown = ", ".join(f"{n} {s.total}/{s.dataset_size}" for n, s in partial.items())
    return (f"**Partial run**: {shown} cases; its groups are marked incomplete and are not "
            "comparable to full-set scores.")


def ran_line(overall: OverallScore) -> str:
    """The overall over what ran, and what it leaves out."""
    if overall.overall_ran is None or not overall.missing:
        return ""
    return (f"Overall over what ran ({', '.join(overall.ran_groups)}; weights rescaled): "
            f"**{pct(overall.overall_ran)}**. Not run: {', '.join(overall.missing)}.")


def bfcl_markdown(report: BfclReport) -> str:
    """The Markdown summary of one scored run."""
    parts = [
        f"# BFCL v4: {report.model} ({report.mode} mode, tool choice {report.tool_choice})",
        _generation_line(report),
        _partial_line(report),
        f"Overall (BFCL weighting, not run = 0): **{pct(report.overall.overall)}**",
        ran_line(report.overall),
        markdown_table(
            ["group", "accuracy %", "cases", "complete"],
            [
                [name, pct(g.accuracy), g.total_count, "yes" if g.complete else "no"]
                for name, g in report.overall.groups.items()
            ],
        ),
        "## Categories",
        markdown_table(CATEGORY_HEADERS, category_rows(report.categories)),
        "## Cost",
        markdown_table(
            ["category", "s/case", "output tokens", "stopped early"],
            _cost_rows(report.categories),
        ),
    ]
    parts = [part for part in parts if part]
    if report.not_run:
        parts += ["## Not run", "\n".join(f"- {k}: {v}" for k, v in report.not_run.items())]
    disagreements = [(n, d) for n, s in report.categories.items() for d in s.disagreements]
    if disagreements:
        parts += [
            "## Grader and checker disagree",
            "\n".join(
                f"- {name} {d.id}: checker {'valid' if d.checker_valid else d.checker_error_type}, "
                f"grader {'exact' if d.exact else d.grader_error}; {d.detail}"
                for name, d in disagreements[:50]
            ),
        ]
    return "\n\n".join(parts) + "\n"


def bar_chart(values: dict[str, float], path: Path, title: str) -> None:
    """A horizontal bar chart of accuracies in percent (matplotlib, no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(values)
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(names) + 1.2))
    bars = ax.barh(names, [100 * values[n] for n in names], color="#4C72B0")
    ax.bar_label(bars, fmt="%.1f", padding=2, fontsize=8)
    ax.set_xlim(0, 105)
    ax.invert_yaxis()
    ax.set_xlabel("accuracy (%)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_report(report: BfclReport, scores_dir: Path) -> None:
    """report.json, report.md and accuracy.png in ``scores_dir``."""
    scores_dir.mkdir(parents=True, exist_ok=True)
    (scores_dir / "report.json").write_text(report.model_dump_json(indent=2), encoding="utf-8")
    (scores_dir / "report.md").write_text(bfcl_markdown(report), encoding="utf-8")
    if report.categories:
        bar_chart(
            {n: s.accuracy for n, s in report.categories.items()},
            scores_dir / "accuracy.png",
            f"BFCL v4 - {report.model}",
        )
