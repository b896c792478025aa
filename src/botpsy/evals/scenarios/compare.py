"""Two scored scenario runs side by side: what a model change fixed, broke and made unsafe.

A new adapter ships on the assistant's scenarios, and totals hide trades: 24 solved
against 26 can be five lost and three won, and one of the lost may be a new minefield
hit (a wrong event deleted). This names each flip, with the first miss that explains it,
on the scenarios both runs played.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from botpsy.evals.scenarios.report import (
    GroupSummary,
    first_miss,
    markdown_table,
    summarize_group,
)
from botpsy.evals.scenarios.score import ScenarioScore

SCORES_NAME = "scenarios.jsonl"


class ScenarioFlip(BaseModel):
    """A scenario whose result differs between the runs."""

    scenario_id: str
    split: str
    outcome_a: str
    outcome_b: str
    why: str = ""  # the first miss of the run that failed it (B's when broken, A's when fixed)


class GroupDelta(BaseModel):
    """One split (or all) of both runs, over the scenarios both played."""

    name: str
    a: GroupSummary
    b: GroupSummary


class ScenarioComparison(BaseModel):
    a: str
    b: str
    groups: list[GroupDelta]
    fixed: list[ScenarioFlip] = Field(default_factory=list)  # failed in A, solved in B
    broken: list[ScenarioFlip] = Field(default_factory=list)  # solved in A, failed in B
    # A minefield hit in B where A had none: a safety regression even when A failed too.
    new_minefield: list[ScenarioFlip] = Field(default_factory=list)
    only_a: list[str] = Field(default_factory=list)  # played in one run only: not compared
    only_b: list[str] = Field(default_factory=list)


def scores_path(path: str | Path) -> Path:
    """The per-scenario score file of a run: given itself, its ``scores`` folder, or the
    run's output folder (``botpsy eval scenarios --out``)."""
    path = Path(path)
    for candidate in (path, path / SCORES_NAME, path / "scores" / SCORES_NAME):
        if candidate.is_file() and candidate.name == SCORES_NAME:
            return candidate
    raise FileNotFoundError(f"no scored scenario run at {path} (expected {SCORES_NAME})")


def is_scenario_run(path: str | Path) -> bool:
    try:
        scores_path(path)
    except FileNotFoundError:
        return False
    return True


def read_scores(path: str | Path) -> dict[str, ScenarioScore]:
    """A run's scores by scenario id; a bad line names the file and line."""
    file = scores_path(path)
    scores: dict[str, ScenarioScore] = {}
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            score = ScenarioScore.model_validate_json(line)
        except ValueError as exc:
            raise ValueError(f"{file}:{number}: not a scenario score ({exc})") from exc
        scores[score.scenario_id] = score
    if not scores:
        raise ValueError(f"{file}: no scenario scores in it")
    return scores


def _flip(a: ScenarioScore, b: ScenarioScore, why_from: ScenarioScore) -> ScenarioFlip:
    return ScenarioFlip(
        scenario_id=a.scenario_id,
        split=a.split.value,
        outcome_a=a.outcome.value,
        outcome_b=b.outcome.value,
        why=first_miss(why_from),
    )


def _groups(a: list[ScenarioScore], b: list[ScenarioScore]) -> list[GroupDelta]:
    splits = sorted({s.split.value for s in a})
    rows = [
        GroupDelta(
            name=name,
            a=summarize_group([s for s in a if s.split.value == name]),
            b=summarize_group([s for s in b if s.split.value == name]),
        )
        for name in splits
    ]
    return [*rows, GroupDelta(name="all", a=summarize_group(a), b=summarize_group(b))]


def compare_scenarios(run_a: str | Path, run_b: str | Path) -> ScenarioComparison:
    """Run A against run B on the scenarios both played."""
    scores_a, scores_b = read_scores(run_a), read_scores(run_b)
    shared = [i for i in scores_a if i in scores_b]
    if not shared:
        raise ValueError(f"{run_a} and {run_b} played no scenario in common")
    pairs = [(scores_a[i], scores_b[i]) for i in shared]
    return ScenarioComparison(
        a=str(run_a),
        b=str(run_b),
        groups=_groups([a for a, _ in pairs], [b for _, b in pairs]),
        fixed=[_flip(a, b, a) for a, b in pairs if b.success and not a.success],
        broken=[_flip(a, b, b) for a, b in pairs if a.success and not b.success],
        new_minefield=[_flip(a, b, b) for a, b in pairs if b.violations and not a.violations],
        only_a=[i for i in scores_a if i not in scores_b],
        only_b=[i for i in scores_b if i not in scores_a],
    )


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def _hits(group: GroupSummary) -> int:
    """Scenarios with at least one minefield violation."""
    return round(group.minefield_rate * group.scenarios)


def _flip_lines(title: str, flips: list[ScenarioFlip]) -> list[str]:
    if not flips:
        return []
    lines = [f"**{title}** ({len(flips)}):", ""]
    lines += [
        f"- `{f.scenario_id}` ({f.split}): {f.outcome_a} → {f.outcome_b}"
        + (f"; {f.why}" if f.why else "")
        for f in flips
    ]
    return [*lines, ""]


def scenario_comparison_markdown(c: ScenarioComparison) -> str:
    headers = [
        "split",
        "scenarios",
        "solved A",
        "solved B",
        "credit A %",
        "credit B %",
        "minefield A",
        "minefield B",
    ]
    rows = [
        [
            g.name,
            g.a.scenarios,
            round(g.a.success_rate * g.a.scenarios),
            round(g.b.success_rate * g.b.scenarios),
            _pct(g.a.milestone_credit),
            _pct(g.b.milestone_credit),
            _hits(g.a),
            _hits(g.b),
        ]
        for g in c.groups
    ]
    lines = [
        f"# {c.a} → {c.b}",
        "",
        "Scored on the scenarios both runs played.",
        "",
        markdown_table(headers, rows),
        "",
    ]
    lines += _flip_lines("Fixed", c.fixed) + _flip_lines("Broken", c.broken)
    lines += _flip_lines("New minefield hits", c.new_minefield)
    if c.only_a or c.only_b:
        lines.append(
            f"Not compared (played in one run only): {len(c.only_a)} in A, {len(c.only_b)} in B."
        )
    return "\n".join(lines).rstrip() + "\n"
