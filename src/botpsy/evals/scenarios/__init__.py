"""Stateful assistant scenarios (ToolSandbox-style): tasks over the real toolboxes.

- ``schema``: ``Scenario`` with setup, turns, milestones, minefields, solution;
- ``catalog``: ``load_scenarios`` from ``evals/data/scenarios/*.yaml``;
- ``world``: fresh seeded stores at a fixed clock, snapshots, references;
- ``harness``: runs the real Agent (safety on with a simulated user, or off);
- ``checks`` / ``score``: milestones and minefields on the saved trace and final store;
- ``runner``: ``run_scenarios`` (generate + score) and ``score_scenarios`` (re-score);
- ``reference``: replays the reference solutions (the ``reference`` model spec).
"""

from botpsy.evals.scenarios.catalog import ScenarioFileError, load_scenarios
from botpsy.evals.scenarios.report import ScenarioReport
from botpsy.evals.scenarios.runner import generate_scenario, run_scenarios, score_scenarios
from botpsy.evals.scenarios.schema import Scenario, Split
from botpsy.evals.scenarios.score import Outcome, ScenarioRun, ScenarioScore

__all__ = [
    "Outcome",
    "Scenario",
    "ScenarioFileError",
    "ScenarioReport",
    "ScenarioRun",
    "ScenarioScore",
    "Split",
    "generate_scenario",
    "load_scenarios",
    "run_scenarios",
    "score_scenarios",
]
