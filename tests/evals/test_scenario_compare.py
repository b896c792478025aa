"""Comparing two scored scenario runs: flips, new minefield hits, the CLI's choice of kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from botpsy.evals.cli import app
from botpsy.evals.scenarios.checks import CheckResult
from botpsy.evals.scenarios.compare import (
    compare_scenarios,
    diverged_at,
    scenario_comparison_markdown,
)
from botpsy.evals.scenarios.score import Outcome, ScenarioRun, ScenarioScore
from botpsy.evals.scenarios.trace import Episode
from botpsy.types import Completion

runner = CliRunner()
MISSED = CheckResult(kind="record", label=">=1 notes with title: contains trip", passed=False)
MET = CheckResult(kind="call", label="search_contacts called", passed=True)
HIT = CheckResult(
    kind="call", label="delete_event(event_id: not_equals @event:Plumber)", passed=True
)


def _score(sid: str, outcome: Outcome, split: str = "single") -> ScenarioScore:
    solved = outcome is Outcome.success
    return ScenarioScore(
        scenario_id=sid,
        split=split,
        domain="notes",
        outcome=outcome,
        success=solved,
        credit=1.0 if solved else 0.0,
        milestones=[MET if solved else MISSED],
        violations=[HIT] if outcome is Outcome.minefield else [],
    )


def _write(path: Path, scores: list[ScenarioScore]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(s.model_dump_json() + "\n" for s in scores), encoding="utf-8")
    return path


@pytest.fixture
def two_runs(tmp_path) -> tuple[Path, Path]:
    """Run A as ``eval scenarios --out`` leaves it; run B as its bare score file."""
    a = [
        _score("kept", Outcome.success),
        _score("lost", Outcome.success, "multi"),
        _score("won", Outcome.failed),
        _score("unsafe", Outcome.partial, "multi"),
        _score("only_in_a", Outcome.success),
    ]
    b = [
        _score("kept", Outcome.success),
        _score("lost", Outcome.partial, "multi"),
        _score("won", Outcome.success),
        _score("unsafe", Outcome.minefield, "multi"),
    ]
    _write(tmp_path / "a" / "scores" / "scenarios.jsonl", a)
    return tmp_path / "a", _write(tmp_path / "b" / "scenarios.jsonl", b)


def test_flips_and_new_minefield_hits_on_the_shared_scenarios(two_runs):
    c = compare_scenarios(*two_runs)
    assert [f.scenario_id for f in c.fixed] == ["won"]
    assert [f.scenario_id for f in c.broken] == ["lost"]
    assert [f.scenario_id for f in c.new_minefield] == ["unsafe"]
    assert c.broken[0].why.startswith("missed: >=1 notes")  # B's reason for a loss
    assert c.new_minefield[0].why.startswith("violated: delete_event")
    assert c.only_a == ["only_in_a"] and c.only_b == []
    overall = c.groups[-1]
    assert overall.name == "all" and overall.a.scenarios == overall.b.scenarios == 4
    assert (overall.a.success_rate, overall.b.success_rate) == (0.5, 0.5)
    text = scenario_comparison_markdown(c)
    assert "| all | 4 | 2 → 2 | 50.0 → 50.0 | 0 → 1 | 1 | 1 | 1.00 |" in text
    assert "| multi | 2 | 1 → 0 |" in text
    assert (overall.solved.fixed, overall.solved.broken) == (1, 1)
    assert "`unsafe` (multi): partial → minefield" in text
    assert "1 in A, 0 in B" in text
    assert c.first_reply_differs is None and "differed in" not in text  # B kept no trace


def _traced(path: Path, replies: dict[str, list[str]]) -> None:
    runs = [
        ScenarioRun(
            scenario_id=sid,
            split="single",
            model="m",
            safety=True,
            episode=Episode(completions=[Completion(raw=r) for r in texts]),
        )
        for sid, texts in replies.items()
    ]
    _write(path / "results" / "scenarios.jsonl", runs)


def test_flips_say_where_the_runs_replies_first_differ(tmp_path):
    """One model, one code, two runs: a flip whose first reply differs came from the model; one
    with the same replies came from the code that judged them."""
    a = [_score("noise", Outcome.success), _score("code", Outcome.success)]
    b = [_score("noise", Outcome.failed), _score("code", Outcome.partial)]
    for name, scores in (("a", a), ("b", b)):
        _write(tmp_path / name / "scores" / "scenarios.jsonl", scores)
    _traced(tmp_path / "a", {"noise": ["call x", "done"], "code": ["call y", "done"]})
    _traced(tmp_path / "b", {"noise": ["call z"], "code": ["call y", "done"]})
    c = compare_scenarios(tmp_path / "a", tmp_path / "b")
    assert {f.scenario_id: f.diverged_at for f in c.broken} == {"noise": 1, "code": 0}
    assert (c.first_reply_differs, c.traced) == (1, 2)
    text = scenario_comparison_markdown(c)
    assert "(replies differ from the first)" in text and "(the same replies throughout)" in text
    assert "differed in 1 of the 2 scenarios" in text
    assert diverged_at(["a", "b"], ["a", "b", "c"]) == 3 and diverged_at([], []) == 0


def test_bad_or_missing_score_files_are_named(tmp_path, two_runs):
    bad = tmp_path / "bad" / "scenarios.jsonl"
    bad.parent.mkdir()
    bad.write_text('{"scenario_id": "x"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"scenarios.jsonl:1: not a scenario score"):
        compare_scenarios(two_runs[0], bad)
    with pytest.raises(FileNotFoundError, match="no scored scenario run"):
        compare_scenarios(two_runs[0], tmp_path / "nowhere")
    other = _write(tmp_path / "other" / "scenarios.jsonl", [_score("else", Outcome.success)])
    with pytest.raises(ValueError, match="no scenario in common"):
        compare_scenarios(two_runs[0], other)


def test_cli_compares_scenario_runs_and_refuses_mixed_kinds(two_runs, tmp_path):
    a, b = (str(p) for p in two_runs)
    shown = runner.invoke(app, ["compare", a, b, "--json"])
    assert shown.exit_code == 0, shown.output
    assert [f["scenario_id"] for f in json.loads(shown.output)["broken"]] == ["lost"]
    bfcl = tmp_path / "bfcl"
    bfcl.mkdir()
    mixed = runner.invoke(app, ["compare", a, str(bfcl)])
    assert mixed.exit_code == 2 and "not one of each" in mixed.output
    skipped = runner.invoke(app, ["compare", a, b, "--skip-first", "10"])
    assert skipped.exit_code == 2 and "BFCL runs only" in skipped.output
