"""Reading BFCL reports back: comparisons of two runs, summaries of repeated runs, and
overall scores combined from several.

The scoring step writes each run's ``report.json``, Markdown summary and chart
(``botpsy.evals.bfcl.run_report``) next to its score files, so a run can be read,
compared or combined later without the model (``compare(run_a, run_b)`` reads two
``report.json`` files and the per-case score lines behind them).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError, computed_field

from botpsy.evals.bfcl import upstream
from botpsy.evals.bfcl.categories import category
from botpsy.evals.bfcl.dataset import load_cases
from botpsy.evals.bfcl.overall import (
    NON_LIVE,
    Accuracy,
    MeanStd,
    OverallScore,
    leaves,
    mean_std,
    overall_score,
)
from botpsy.evals.bfcl.run_report import ran_line
from botpsy.evals.bfcl.scored import BfclReport, CategoryScore, read_score_file
from botpsy.evals.markdown import markdown_table, pct
from botpsy.evals.significance import P_NOTE, PairedTest, format_p, mcnemar_p


def load_report(path: str | Path) -> BfclReport:
    """A report from its ``report.json`` or the folder holding it."""
    path = Path(path)
    if path.is_dir():
        path = path / "report.json"
    if not path.exists():
        raise FileNotFoundError(f"no report.json at {path} (score the run first)")
    try:
        return BfclReport.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        raise ValueError(f"{path} is not a BFCL report: {exc.errors()[0]['msg']}") from None


class CategoryDelta(BaseModel):
    """One category of two runs, scored on the cases both answered (``cases`` of them)."""

    category: str
    a: float | None
    b: float | None
    delta: float | None
    cases: int = 0  # cases compared: answered in both runs, past the skipped first ones
    fixed: list[str] = Field(default_factory=list)  # ids wrong in A, right in B
    broken: list[str] = Field(default_factory=list)  # ids right in A, wrong in B
    per_case: bool = False  # compared case by case (else from the reports' figures alone)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def p_value(self) -> float | None:
        """Exact McNemar p on the flipped cases; None without per-case scores or flips."""
        return mcnemar_p(len(self.fixed), len(self.broken)) if self.per_case else None


class Comparison(BaseModel):
    """Two runs on the same cases. Runs of different sizes (a ``--limit 40`` run against a
    full one) are compared on the cases both have: each run's own accuracies would
    compare different questions. The BFCL groups (non-live AST, overall) are formed from
    the categories both runs have, with BFCL's weighting."""

    a: str
    b: str
    overall_a: float
    overall_b: float
    categories: list[CategoryDelta]
    non_live_a: float | None = None  # BFCL non-live AST over the compared cases
    non_live_b: float | None = None
    # the flips of all non-live AST categories pooled (BFCL's mean weighs them differently)
    non_live_test: PairedTest | None = None
    skip_first: int = 0  # the first N cases of each category left out (e.g. tuned on)


def _validity(scores_dir: Path, category: CategoryScore) -> dict[str, bool]:
    path = scores_dir / category.group / f"{upstream.VERSION_PREFIX}_{category.category}_score.json"
    if not path.exists():
        return {}
    return {s.id: s.valid for s in read_score_file(path)[1]}


def _first_ids(name: str, n: int) -> set[str]:
    """The ids of a category's first ``n`` cases, as BFCL orders them (what ``--limit`` runs)."""
    return {case.id for case in load_cases(category(name), limit=n)} if n else set()


def _delta(
    name: str,
    sa: CategoryScore,
    sb: CategoryScore,
    va: dict[str, bool],
    vb: dict[str, bool],
    skip: int,
) -> CategoryDelta:
    """The category on the cases both runs scored, or on the reports' figures when a run has
    no per-case scores (then nothing can be skipped)."""
    if not (va and vb):
        if skip:
            raise ValueError(f"{name}: --skip-first needs per-case score files in both runs")
        return CategoryDelta(
            category=name,
            a=sa.accuracy,
            b=sb.accuracy,
            delta=sb.accuracy - sa.accuracy,
            cases=min(sa.total, sb.total),
        )
    skipped = _first_ids(name, skip)
    shared = [i for i in va if i in vb and i not in skipped]
    if not shared:
        return CategoryDelta(category=name, a=None, b=None, delta=None)
    a = sum(va[i] for i in shared) / len(shared)
    b = sum(vb[i] for i in shared) / len(shared)
    return CategoryDelta(
        category=name,
        a=a,
        b=b,
        delta=b - a,
        cases=len(shared),
        fixed=[i for i in shared if vb[i] and not va[i]],
        broken=[i for i in shared if va[i] and not vb[i]],
        per_case=True,
    )


def _groups(rows: list[CategoryDelta], side: str) -> OverallScore:
    return overall_score(
        {
            r.category: Accuracy(accuracy=getattr(r, side), total_count=r.cases)
            for r in rows
            if r.delta is not None
        }
    )


def _non_live(groups: OverallScore) -> float | None:
    """Non-live AST, when every one of its categories was compared."""
    group = groups.groups["non_live"]
    return group.accuracy if group.complete else None


def _pooled_test(rows: list[CategoryDelta], names: tuple[str, ...]) -> PairedTest | None:
    """The flips of ``names`` pooled, when every one of them was compared case by case."""
    chosen = [r for r in rows if r.category in names and r.per_case]
    if len(chosen) < len(names):
        return None
    return PairedTest(
        fixed=sum(len(r.fixed) for r in chosen), broken=sum(len(r.broken) for r in chosen)
    )


def compare(run_a: str | Path, run_b: str | Path, skip_first: int = 0) -> Comparison:
    """Per-category accuracy deltas and per-case flips between two scored runs, on the cases
    both answered, leaving out each category's first ``skip_first`` cases."""
    if skip_first < 0:
        raise ValueError(f"skip_first must be >= 0, got {skip_first}")
    for run in (run_a, run_b):
        if not Path(run).exists():  # a typo must not fall back to the current folder
            raise FileNotFoundError(f"no run at {run}")
    dir_a, dir_b = (Path(r) if Path(r).is_dir() else Path(r).parent for r in (run_a, run_b))
    report_a, report_b = load_report(dir_a), load_report(dir_b)
    rows = []
    for name in dict.fromkeys([*report_a.categories, *report_b.categories]):
        sa, sb = report_a.categories.get(name), report_b.categories.get(name)
        if sa and sb:
            va, vb = _validity(dir_a, sa), _validity(dir_b, sb)
            rows.append(_delta(name, sa, sb, va, vb, skip_first))
        else:
            rows.append(
                CategoryDelta(
                    category=name,
                    a=sa.accuracy if sa else None,
                    b=sb.accuracy if sb else None,
                    delta=None,
                )
            )
    groups_a, groups_b = _groups(rows, "a"), _groups(rows, "b")
    return Comparison(
        a=str(dir_a),
        b=str(dir_b),
        overall_a=groups_a.overall,
        overall_b=groups_b.overall,
        categories=rows,
        non_live_a=_non_live(groups_a),
        non_live_b=_non_live(groups_b),
        non_live_test=_pooled_test(rows, leaves(NON_LIVE)),
        skip_first=skip_first,
    )


def comparison_markdown(c: Comparison) -> str:
    rows = [
        [
            r.category,
            pct(r.a),
            pct(r.b),
            "n/a" if r.delta is None else f"{100 * r.delta:+.1f}",
            r.cases,
            len(r.fixed),
            len(r.broken),
            format_p(r.p_value),
        ]
        for r in c.categories
    ]
    if c.non_live_a is not None and c.non_live_b is not None:
        delta = f"{100 * (c.non_live_b - c.non_live_a):+.1f}"
        test = c.non_live_test
        flips = ["", test.fixed, test.broken, format_p(test.p_value)] if test else [""] * 4
        rows.append(["non-live AST", pct(c.non_live_a), pct(c.non_live_b), delta, *flips])
    delta = f"{100 * (c.overall_b - c.overall_a):+.1f}"
    rows.append(["overall", pct(c.overall_a), pct(c.overall_b), delta, "", "", "", ""])
    skipped = f" (each category's first {c.skip_first} cases left out)" if c.skip_first else ""
    headers = ["category", "A %", "B %", "Δ points", "cases", "fixed", "broken", "p"]
    note = f"Scored on the cases both runs answered{skipped}; groups from the shared categories."
    pooled = " Non-live AST's flips are pooled over its categories." if c.non_live_test else ""
    table = markdown_table(headers, rows)
    return f"# {c.a} → {c.b}\n\n{note}\n\n{table}\n\n{P_NOTE}{pooled}\n"


class RunsSummary(BaseModel):
    """Mean and spread of repeated runs (the BotPsy release reports BFCL over three)."""

    runs: int
    overall: MeanStd
    categories: dict[str, MeanStd]


def summarize_runs(reports: Sequence[BfclReport]) -> RunsSummary:
    """Mean and sample std per category (over the runs that have it) and overall."""
    if not reports:
        raise ValueError("no runs to summarize")
    names = dict.fromkeys(n for r in reports for n in r.categories)
    return RunsSummary(
        runs=len(reports),
        overall=mean_std([r.overall.overall for r in reports]),
        categories={
            n: mean_std([r.categories[n].accuracy for r in reports if n in r.categories])
            for n in names
        },
    )


def runs_markdown(summary: RunsSummary) -> str:
    rows = [
        [n, f"{100 * m.mean:.1f} ± {100 * m.std:.1f}", len(m.values)]
        for n, m in summary.categories.items()
    ]
    rows.append(
        [
            "overall",
            f"{100 * summary.overall.mean:.1f} ± {100 * summary.overall.std:.1f}",
            summary.runs,
        ]
    )
    return (
        f"# BFCL v4 over {summary.runs} runs\n\n"
        + markdown_table(["category", "accuracy % (mean ± std)", "runs"], rows)
        + "\n"
    )


class CombinedOverall(BaseModel):
    """BFCL's overall from categories scored in several runs of one model (a full
    non-live run and a partial live + multi-turn one, say): each category from the
    run that has it, its accuracy and case count as scored there."""

    model: str
    sources: dict[str, str]  # category -> the report it came from
    partial: dict[str, str]  # category -> "scored/dataset" when scored on part of its cases
    overall: OverallScore


def combine_overall(paths: list[Path]) -> CombinedOverall:
    """Combine scored runs (``report.json`` or their folders); one model, no category twice."""
    reports = [(str(p), load_report(p)) for p in paths]
    models = sorted({r.model for _, r in reports})
    if len(models) != 1:
        raise ValueError(f"combine runs of one model; these are of {', '.join(models)}")
    sources: dict[str, str] = {}
    accuracies: dict[str, Accuracy] = {}
    partial: dict[str, str] = {}
    for path, report in reports:
        for name, s in report.categories.items():
            if name in sources:
                raise ValueError(f"{name} is scored in both {sources[name]} and {path}")
            sources[name] = path
            accuracies[name] = Accuracy(accuracy=s.accuracy, total_count=s.total,
                                        complete=not s.partial)
            if s.partial:
                partial[name] = f"{s.total}/{s.dataset_size}"
    return CombinedOverall(model=models[0], sources=sources, partial=partial,
                           overall=overall_score(accuracies))


def combined_markdown(combined: CombinedOverall) -> str:
    o = combined.overall
    parts = [
        f"# BFCL v4 overall: {combined.model}",
        f"Overall (BFCL weighting, not run = 0): **{pct(o.overall)}**",
        ran_line(o),
        markdown_table(["group", "accuracy %", "cases", "complete"],
                       [[n, pct(g.accuracy), g.total_count, "yes" if g.complete else "no"]
                        for n, g in o.groups.items()]),
    ]
    if combined.partial:
        parts.append("Scored on part of their cases (not comparable to full-set scores): "
                     + ", ".join(f"{n} {c}" for n, c in combined.partial.items()))
    return "\n\n".join(p for p in parts if p) + "\n"
