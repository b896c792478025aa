"""The held-out report: pass rate per class with Wilson 95% intervals, junk side effects,
and, across two runs, run-to-run agreement and the McNemar test.

Why Wilson: a class holds 18-36 requests, where the normal approximation gives
intervals past 0 or 100%; Wilson's stays inside and is close to exact at these sizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import sqrt
from pathlib import Path
from statistics import median
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from botpsy.evals.heldout.cases import CaseClass
from botpsy.evals.heldout.grade import CaseGrade
from botpsy.evals.markdown import markdown_table
from botpsy.evals.significance import P_NOTE, PairedTest, format_p

if TYPE_CHECKING:
    from botpsy.evals.heldout.runner import HeldoutRun

Z95 = 1.959964


class Interval(BaseModel):
    low: float
    high: float


def wilson(passed: int, total: int, z: float = Z95) -> Interval:
    """Wilson score interval of a proportion (95% by default); [0, 1] for no cases."""
    if total <= 0:
        return Interval(low=0.0, high=1.0)
    p = passed / total
    denom = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denom
    half = z * sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denom
    return Interval(low=max(0.0, centre - half), high=min(1.0, centre + half))


class ClassSummary(BaseModel):
    """One class's figures; the failure counts overlap (a case can miss a change and
    make a junk one)."""

    cases: int
    passed: int
    rate: float
    ci95: Interval
    missing_change: int = 0
    junk: int = 0  # cases with at least one change nobody asked for
    missing_fact: int = 0
    errors: int = 0


class HeldoutReport(BaseModel):
    model: str
    call_mode: str | None = None
    overall: ClassSummary
    classes: dict[str, ClassSummary] = Field(default_factory=dict)
    junk_changes: int = 0  # store changes nobody asked for, over all cases
    junk_cases: int = 0
    median_wall_s: float | None = None


def summarize(grades: Sequence[CaseGrade]) -> ClassSummary:
    passed = sum(g.passed for g in grades)
    total = len(grades)
    return ClassSummary(
        cases=total, passed=passed, rate=passed / total if total else 0.0,
        ci95=wilson(passed, total), missing_change=sum(bool(g.missing_changes) for g in grades),
        junk=sum(bool(g.junk_changes) for g in grades),
        missing_fact=sum(bool(g.missing_facts) for g in grades),
        errors=sum(g.error is not None for g in grades))


def build_report(grades: Sequence[CaseGrade], runs: Sequence[HeldoutRun]) -> HeldoutReport:
    classes = {c.value: summarize([g for g in grades if g.case_class == c.value])
               for c in CaseClass if any(g.case_class == c.value for g in grades)}
    models = sorted({r.model for r in runs if r.model})
    walls = [r.wall_s for r in runs if r.error is None]
    return HeldoutReport(
        model=", ".join(models) or "?", overall=summarize(grades), classes=classes,
        junk_changes=sum(len(g.junk_changes) for g in grades),
        junk_cases=sum(bool(g.junk_changes) for g in grades),
        median_wall_s=round(median(walls), 2) if walls else None)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _row(name: str, s: ClassSummary) -> list[object]:
    return [name, f"{s.passed}/{s.cases}", _pct(s.rate), f"{_pct(s.ci95.low)}-{_pct(s.ci95.high)}",
            s.missing_change, s.junk, s.missing_fact, s.errors]


def report_markdown(report: HeldoutReport) -> str:
    headers = ["class", "passed", "rate", "95% CI (Wilson)", "missed a change", "junk change",
               "missed a fact", "errors"]
    rows = [_row(n, s) for n, s in report.classes.items()] + [_row("all", report.overall)]
    return "\n".join([
        f"# Held-out requests: {report.model}", "",
        markdown_table(headers, rows), "",
        (f"Junk side effects: {report.junk_changes} store changes nobody asked for, in "
        f"{report.junk_cases} of {report.overall.cases} cases."),
        f"Median time per request: {report.median_wall_s} s.", ""])


def write_report(report: HeldoutReport, scores_dir: Path) -> None:
    scores_dir.mkdir(parents=True, exist_ok=True)
    (scores_dir / "report.json").write_text(report.model_dump_json(indent=2), encoding="utf-8")
    (scores_dir / "report.md").write_text(report_markdown(report), encoding="utf-8")


class RunComparison(BaseModel):
    """Two runs on the cases both have: do they make the same calls, and which is better."""

    cases: int
    same_calls: int
    agreement: float  # share of cases with the same calls in the same order
    same_verdict: int
    paired: PairedTest  # A -> B: fixed (failed in A, passed in B) against broken
    passed_a: int
    passed_b: int
    by_class: dict[str, PairedTest] = Field(default_factory=dict)


def compare_runs(runs_a: Sequence[HeldoutRun], grades_a: Sequence[CaseGrade],
                 runs_b: Sequence[HeldoutRun], grades_b: Sequence[CaseGrade]) -> RunComparison:
    calls_a = {r.case_id: r.call_signature() for r in runs_a}
    calls_b = {r.case_id: r.call_signature() for r in runs_b}
    pass_a = {g.case_id: g for g in grades_a}
    pass_b = {g.case_id: g for g in grades_b}
    shared = [c for c in calls_a if c in calls_b and c in pass_a and c in pass_b]
    same = sum(calls_a[c] == calls_b[c] for c in shared)
    by_class: dict[str, PairedTest] = {}
    for case in shared:
        name = pass_a[case].case_class
        test = by_class.setdefault(name, PairedTest(fixed=0, broken=0))
        test.fixed += int(pass_b[case].passed and not pass_a[case].passed)
        test.broken += int(pass_a[case].passed and not pass_b[case].passed)
    return RunComparison(
        cases=len(shared), same_calls=same, agreement=same / len(shared) if shared else 0.0,
        same_verdict=sum(pass_a[c].passed == pass_b[c].passed for c in shared),
        paired=PairedTest(fixed=sum(t.fixed for t in by_class.values()),
                          broken=sum(t.broken for t in by_class.values())),
        passed_a=sum(pass_a[c].passed for c in shared),
        passed_b=sum(pass_b[c].passed for c in shared), by_class=by_class)


def comparison_markdown(result: RunComparison, label_a: str, label_b: str) -> str:
    rows = [[name, t.fixed, t.broken, format_p(t.p_value)] for name, t in result.by_class.items()]
    rows.append(["all", result.paired.fixed, result.paired.broken, format_p(result.paired.p_value)])
    return "\n".join([
        f"# Held-out: {label_a} against {label_b}", "",
        f"Cases in both: {result.cases}. Passed: {result.passed_a} in A, {result.passed_b} in B.",
        (f"Same calls in both runs: {result.same_calls} of {result.cases} "
        f"({_pct(result.agreement)}); same verdict: {result.same_verdict}."), "",
        markdown_table(["class", "fixed (B only)", "broken (A only)", "p"], rows), "",
        P_NOTE, ""])
