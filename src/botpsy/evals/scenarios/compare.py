"""Two scored scenario runs side by side: what a model change fixed, broke and made unsafe.

A new adapter ships on the assistant's scenarios, and totals hide trades: two fewer
solved can be five lost and three won, and one of the lost may be a new minefield
hit (a wrong event deleted). This names each flip, with the first miss that explains it,
on the scenarios both runs played.

When both runs keep their traces (``results/scenarios.jsonl`` beside ``scores``), each
flip also says at which model reply the runs first differ: a flip with the same replies up
to a check's decision came from the agent's code, one whose first reply differs from the
model. Greedy decoding is the same at any ``--parallel`` and from run to run (see
``backends.llamacpp``); runs made before that could differ in a few first replies, and the share of first replies that differ between two runs of one model on one
code says whether that was so.
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
from botpsy.evals.scenarios.runner import RESULTS_FILE, SCORES_FILE, read_runs
from botpsy.evals.scenarios.score import ScenarioScore
from botpsy.evals.significance import P_NOTE, PairedTest, format_p


class ScenarioFlip(BaseModel):
    """A scenario whose result differs between the runs."""

    scenario_id: str
    split: str
    outcome_a: str
    outcome_b: str
    why: str = ""  # the first miss of the run that failed it (B's when broken, A's when fixed)
    # the first model reply (1-based) that differs between the runs; 0: the same replies
    # throughout; None: a run kept no trace
    diverged_at: int | None = None


class GroupDelta(BaseModel):
    """One split (or all) of both runs, over the scenarios both played, with the solved
    flips between them and how likely such a split is by chance."""

    name: str
    a: GroupSummary
    b: GroupSummary
    solved: PairedTest


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
    # of the scenarios compared with both traces kept: how many had a different first reply
    first_reply_differs: int | None = None
    traced: int = 0


def scores_path(path: str | Path) -> Path:
    """The per-scenario score file of a run: given itself, its ``scores`` folder, or the
    run's output folder (``botpsy eval scenarios --out``)."""
    path = Path(path)
    name = SCORES_FILE.name
    for candidate in (path, path / name, path / SCORES_FILE):
        if candidate.is_file() and candidate.name == name:
            return candidate
    raise FileNotFoundError(f"no scored scenario run at {path} (expected {name})")


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


def read_replies(path: str | Path) -> dict[str, list[str]]:
    """Each scenario's model replies (raw text) from the run's trace file beside its scores;
    empty when the run kept none (a bare score file)."""
    results = scores_path(path).parent.parent / RESULTS_FILE
    if not results.is_file():
        return {}
    return {r.scenario_id: [c.raw for c in r.episode.completions] for r in read_runs(results)}


def diverged_at(a: list[str], b: list[str]) -> int:
    """The first reply (1-based) that differs between two runs of a scenario; 0 if none."""
    for index, (reply_a, reply_b) in enumerate(zip(a, b, strict=False), 1):
        if reply_a != reply_b:
            return index
    return 0 if len(a) == len(b) else min(len(a), len(b)) + 1


class _Traces:
    """Both runs' replies, when both kept them."""

    def __init__(self, run_a: str | Path, run_b: str | Path) -> None:
        self.a, self.b = read_replies(run_a), read_replies(run_b)

    def diverged(self, sid: str) -> int | None:
        if sid in self.a and sid in self.b:
            return diverged_at(self.a[sid], self.b[sid])
        return None


def _flip(
    a: ScenarioScore, b: ScenarioScore, why_from: ScenarioScore, traces: _Traces
) -> ScenarioFlip:
    return ScenarioFlip(
        scenario_id=a.scenario_id,
        split=a.split.value,
        outcome_a=a.outcome.value,
        outcome_b=b.outcome.value,
        why=first_miss(why_from),
        diverged_at=traces.diverged(a.scenario_id),
    )


def _group(name: str, pairs: list[tuple[ScenarioScore, ScenarioScore]]) -> GroupDelta:
    return GroupDelta(
        name=name,
        a=summarize_group([a for a, _ in pairs]),
        b=summarize_group([b for _, b in pairs]),
        solved=PairedTest(
            fixed=sum(b.success and not a.success for a, b in pairs),
            broken=sum(a.success and not b.success for a, b in pairs),
        ),
    )


def _groups(pairs: list[tuple[ScenarioScore, ScenarioScore]]) -> list[GroupDelta]:
    splits = sorted({a.split.value for a, _ in pairs})
    rows = [_group(name, [p for p in pairs if p[0].split.value == name]) for name in splits]
    return [*rows, _group("all", pairs)]


def compare_scenarios(run_a: str | Path, run_b: str | Path) -> ScenarioComparison:
    """Run A against run B on the scenarios both played."""
    scores_a, scores_b = read_scores(run_a), read_scores(run_b)
    shared = [i for i in scores_a if i in scores_b]
    if not shared:
        raise ValueError(f"{run_a} and {run_b} played no scenario in common")
    pairs = [(scores_a[i], scores_b[i]) for i in shared]
    traces = _Traces(run_a, run_b)
    starts = [d for d in (traces.diverged(i) for i in shared) if d is not None]
    return ScenarioComparison(
        a=str(run_a),
        b=str(run_b),
        groups=_groups(pairs),
        fixed=[_flip(a, b, a, traces) for a, b in pairs if b.success and not a.success],
        broken=[_flip(a, b, b, traces) for a, b in pairs if a.success and not b.success],
        new_minefield=[
            _flip(a, b, b, traces) for a, b in pairs if b.violations and not a.violations
        ],
        only_a=[i for i in scores_a if i not in scores_b],
        only_b=[i for i in scores_b if i not in scores_a],
        first_reply_differs=sum(d == 1 for d in starts) if starts else None,
        traced=len(starts),
    )


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def _hits(group: GroupSummary) -> int:
    """Scenarios with at least one minefield violation."""
    return round(group.minefield_rate * group.scenarios)


def _divergence(index: int | None) -> str:
    if index is None:
        return ""
    return (
        " (the same replies throughout)"
        if index == 0
        else f" (replies differ from the {_nth(index)})"
    )


def _nth(index: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(index, f"{index}th")


def _flip_lines(title: str, flips: list[ScenarioFlip]) -> list[str]:
    if not flips:
        return []
    lines = [f"**{title}** ({len(flips)}):", ""]
    lines += [
        f"- `{f.scenario_id}` ({f.split}): {f.outcome_a} → {f.outcome_b}"
        + (f"; {f.why}" if f.why else "")
        + _divergence(f.diverged_at)
        for f in flips
    ]
    return [*lines, ""]


def scenario_comparison_markdown(c: ScenarioComparison) -> str:
    headers = ["split", "scenarios", "solved", "credit %", "minefield hits", "fixed", "broken", "p"]
    rows = [
        [
            g.name,
            g.a.scenarios,
            f"{round(g.a.success_rate * g.a.scenarios)} → {round(g.b.success_rate * g.b.scenarios)}",
            f"{_pct(g.a.milestone_credit)} → {_pct(g.b.milestone_credit)}",
            f"{_hits(g.a)} → {_hits(g.b)}",
            g.solved.fixed,
            g.solved.broken,
            format_p(g.solved.p_value),
        ]
        for g in c.groups
    ]
    lines = [
        f"# {c.a} → {c.b}",
        "",
        "Scored on the scenarios both runs played; solved, credit and minefield hits read A → B.",
        "",
        markdown_table(headers, rows),
        "",
        P_NOTE,
        "",
    ]
    lines += _flip_lines("Fixed", c.fixed) + _flip_lines("Broken", c.broken)
    lines += _flip_lines("New minefield hits", c.new_minefield)
    if c.first_reply_differs is not None:
        noise = (
            f"The first model reply differed in {c.first_reply_differs} of the {c.traced} "
            "scenarios with both traces (two runs of one model on one code agree; runs made "
            "before decoding became repeatable could differ in a few)."
        )
        lines += [noise, ""]
    if c.only_a or c.only_b:
        lines.append(
            f"Not compared (played in one run only): {len(c.only_a)} in A, {len(c.only_b)} in B."
        )
    return "\n".join(lines).rstrip() + "\n"
