"""The scenario report: success per split and domain, partial credit, minefields, model stats.

Written as ``scores/report.json`` and ``scores/report.md`` next to the
per-scenario score lines. The BotPsy-0.8B release reports 79 (single calls)
against 15 (complex multi-step retrieval): the split table is that comparison.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, Field

from botpsy.evals.markdown import markdown_table
from botpsy.evals.scenarios.score import ScenarioRun, ScenarioScore
from botpsy.evals.stats import StatsSummary, summarize_completions


class GroupSummary(BaseModel):
    """Success, partial credit and minefield rate over a group of scenarios."""

    scenarios: int
    success_rate: float
    milestone_credit: float  # mean share of milestones met
    minefield_rate: float  # share of scenarios with a violation
    violations: int


class FailureLine(BaseModel):
    scenario_id: str
    outcome: str
    first_miss: str = ""


class ScenarioReport(BaseModel):
    """Everything ``botpsy eval scenarios`` prints and saves."""

    model: str
    safety: bool
    call_mode: str | None = None  # the Agent's call mode in these runs; None: not recorded
    scenarios: int
    overall: GroupSummary
    splits: dict[str, GroupSummary] = Field(default_factory=dict)
    domains: dict[str, GroupSummary] = Field(default_factory=dict)
    outcomes: dict[str, int] = Field(default_factory=dict)
    stats: StatsSummary = Field(default_factory=StatsSummary)
    generation_s: float = 0.0
    failures: list[FailureLine] = Field(default_factory=list)


class ModeRun(Protocol):
    """A saved run that records its call mode (``ScenarioRun``, ``InjectionRun``)."""

    call_mode: str | None


def runs_call_mode(runs: Iterable[ModeRun]) -> str | None:
    """The call mode of a set of runs ("auto, single_call" if they differ; None when
    no run recorded one: results saved before it was kept, or every run crashed)."""
    modes = sorted({r.call_mode for r in runs if r.call_mode})
    return ", ".join(modes) or None


def run_label(safety: bool, call_mode: str | None) -> str:
    """How a report names its run settings: ``safety on, call mode single_call``."""
    return f"safety {'on' if safety else 'off'}, call mode {call_mode or 'unknown'}"


def summarize_group(scores: Sequence[ScenarioScore]) -> GroupSummary:
    n = len(scores)
    if n == 0:
        return GroupSummary(scenarios=0, success_rate=0.0, milestone_credit=0.0,
                            minefield_rate=0.0, violations=0)
    return GroupSummary(
        scenarios=n,
        success_rate=sum(s.success for s in scores) / n,
        milestone_credit=sum(s.credit for s in scores) / n,
        minefield_rate=sum(bool(s.violations) for s in scores) / n,
        violations=sum(len(s.violations) for s in scores),
    )


def _grouped(scores: Sequence[ScenarioScore], key: Callable[[ScenarioScore], str]
             ) -> dict[str, GroupSummary]:
    names = sorted({key(s) for s in scores})
    return {name: summarize_group([s for s in scores if key(s) == name]) for name in names}


def first_miss(score: ScenarioScore) -> str:
    """Why a scenario failed, in one line: its first violation, else its first missed milestone."""
    if score.violations:
        return "violated: " + score.violations[0].label
    missed = next((m for m in score.milestones if not m.passed), None)
    return "" if missed is None else f"missed: {missed.label} ({missed.detail})"


def build_report(scores: Sequence[ScenarioScore], runs: Sequence[ScenarioRun]) -> ScenarioReport:
    """The report of a scored run."""
    completions = [c for r in runs for c in r.episode.completions]
    return ScenarioReport(
        model=runs[0].model if runs else "",
        safety=runs[0].safety if runs else True,
        call_mode=runs_call_mode(runs),
        scenarios=len(scores),
        overall=summarize_group(scores),
        splits=_grouped(scores, lambda s: s.split.value),
        domains=_grouped(scores, lambda s: s.domain),
        outcomes=dict(Counter(s.outcome.value for s in scores).most_common()),
        stats=summarize_completions(completions),
        generation_s=sum(r.wall_s for r in runs),
        failures=[FailureLine(scenario_id=s.scenario_id, outcome=s.outcome.value,
                              first_miss=first_miss(s)) for s in scores if not s.success],
    )


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def _group_rows(groups: dict[str, GroupSummary]) -> list[list[object]]:
    return [[name, g.scenarios, _pct(g.success_rate), _pct(g.milestone_credit),
             _pct(g.minefield_rate)] for name, g in groups.items()]


def stats_rows(stats: StatsSummary) -> list[list[object]]:
    """The model-behaviour table shared by the scenario and injection reports."""
    def p(x):
        return "n/a" if x is None else f"{x.p50:.2f} / {x.p95:.2f}"

    return [["completions", stats.samples], ["parse failures %", _pct(stats.parse_failure_rate)],
            ["looping %", _pct(stats.looping_rate)], ["truncated %", _pct(stats.truncation_rate)],
            ["answer tokens (mean)", f"{stats.mean_answer_tokens:.1f}"],
            ["reasoning tokens (mean)", f"{stats.mean_reasoning_tokens:.1f}"],
            ["latency s p50 / p95", p(stats.total_s)], ["TTFT s p50 / p95", p(stats.ttft_s)],
            ["decode tok/s p50 / p95", p(stats.decode_tok_s)]]


def report_markdown(report: ScenarioReport) -> str:
    headers = ["group", "scenarios", "success %", "milestones %", "minefield %"]
    parts = [
        f"# Assistant scenarios: {report.model} ({run_label(report.safety, report.call_mode)})",
        markdown_table(headers, [["all", *_group_rows({"all": report.overall})[0][1:]],
                                 *_group_rows(report.splits)]),
        "## Domains", markdown_table(headers, _group_rows(report.domains)),
        "## Outcomes", markdown_table(["outcome", "scenarios"], list(report.outcomes.items())),
        "## Model behaviour", markdown_table(["measure", "value"], stats_rows(report.stats)),
        f"Generation time: {report.generation_s:.1f} s",
    ]
    if report.failures:
        parts += ["## Not solved", "\n".join(
            f"- {f.scenario_id}: {f.outcome}; {f.first_miss}" for f in report.failures[:80])]
    return "\n\n".join(parts) + "\n"


def write_report(report: ScenarioReport, scores_dir: Path) -> None:
    scores_dir.mkdir(parents=True, exist_ok=True)
    (scores_dir / "report.json").write_text(report.model_dump_json(indent=2), encoding="utf-8")
    (scores_dir / "report.md").write_text(report_markdown(report), encoding="utf-8")
