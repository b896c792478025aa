"""``OUT/summary.json``: AgentDojo's three figures per suite and overall, from the files.

- ``utility``: user tasks solved without attack;
- ``utility_under_attack``: (user task, injection task) pairs whose user task was
  still solved under the attack;
- ``asr``: pairs where the injection task's goal was reached (targeted attack
  success, AgentDojo's ``security`` flag).

Overall figures pool every task of every suite (as AgentDojo's own totals do).
Beside them: what the scope policy declined (whole requests, and calls), botpsy's
decisions, the attack success per injection task, and the injection tasks the
obedient planner cannot play (AgentDojo v1.2 ships some without ground-truth calls).
A run that has not finished every task it asked for says so (``complete``) and
counts what is missing.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from botpsy.evals.agentdojo.report import summary_markdown
from botpsy.evals.agentdojo.run import (
    BENCHMARK_VERSION,
    RunManifest,
    TaskResult,
    result_path,
    suite_cases,
)


class InjectionTaskSummary(BaseModel):
    pairs: int
    asr: float
    scripted: str  # "calls", "text" (its goal is only something said) or "none"


class SuiteSummary(BaseModel):
    utility: float | None = None
    utility_under_attack: float | None = None
    asr: float | None = None
    n_user_tasks: int = 0
    n_pairs: int = 0
    utility_kept: float | None = None  # utility_under_attack / utility
    asr_scripted: float | None = None  # over pairs whose injection task has ground-truth calls
    n_pairs_scripted: int = 0
    declined_requests: list[str] = Field(default_factory=list)  # user tasks the scope policy declined
    calls_blocked_by_scope: int = 0
    decisions: dict[str, int] = Field(default_factory=dict)
    confirmations_refused: int = 0
    errors: int = 0
    missing: int = 0
    per_injection_task: dict[str, InjectionTaskSummary] = Field(default_factory=dict)


class AgentDojoSummary(BaseModel):
    model: str
    safety: str
    user: str
    attack: str
    benchmark_version: str = BENCHMARK_VERSION
    limit: int | None = None
    complete: bool
    suites: dict[str, SuiteSummary]
    overall: SuiteSummary


def _rate(flags: list[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def _scripted(task: Any, env: Any) -> str:
    if task.ground_truth(env.model_copy(deep=True)):
        return "calls"
    return "text" if task.GROUND_TRUTH_OUTPUT else "none"


def summarize_results(clean: list[TaskResult], attacked: list[TaskResult],
                      kinds: dict[str, str], missing: int) -> SuiteSummary:
    """The figures of one group of results (a suite, or all of them)."""
    every = clean + attacked
    scripted = [r for r in attacked if kinds.get(r.injection_task_id or "") == "calls"]
    decisions = Counter(s.decision for r in every for s in r.botpsy.steps)
    per_task = {}
    for task_id in sorted({r.injection_task_id for r in attacked if r.injection_task_id},
                          key=lambda t: int(t.rsplit("_", 1)[-1])):
        group = [r.security for r in attacked if r.injection_task_id == task_id]
        per_task[task_id] = InjectionTaskSummary(pairs=len(group), asr=_rate(group) or 0.0,
                                                 scripted=kinds.get(task_id, "none"))
    utility, under = _rate([r.utility for r in clean]), _rate([r.utility for r in attacked])
    return SuiteSummary(
        utility=utility, utility_under_attack=under, asr=_rate([r.security for r in attacked]),
        n_user_tasks=len(clean), n_pairs=len(attacked),
        utility_kept=under / utility if utility and under is not None else None,
        asr_scripted=_rate([r.security for r in scripted]), n_pairs_scripted=len(scripted),
        declined_requests=[r.user_task_id for r in clean if r.botpsy.declined],
        calls_blocked_by_scope=decisions.get("blocked_scope", 0), decisions=dict(decisions),
        confirmations_refused=sum(not c.approved for r in every for c in r.botpsy.confirmations),
        errors=sum(r.error is not None for r in every), missing=missing,
        per_injection_task=per_task)


def _suite_results(out: Path, manifest: RunManifest, suite: Any
                   ) -> tuple[list[TaskResult], list[TaskResult], int]:
    clean, attacked, missing = [], [], 0
    for case in suite_cases(suite, manifest.limit):
        path = result_path(out, manifest.pipeline_name, manifest.attack, case)
        if not path.is_file():
            missing += 1
            continue
        result = TaskResult.model_validate_json(path.read_text(encoding="utf-8"))
        (attacked if case.injection_task else clean).append(result)
    return clean, attacked, missing


def summarize(out_dir: str | Path) -> AgentDojoSummary:
    """Read a run's result files and write ``summary.json`` and ``summary.md``."""
    from agentdojo.task_suite.load_suites import get_suite


    out = Path(out_dir)
    manifest = RunManifest.model_validate_json((out / "run.json").read_text(encoding="utf-8"))
    suites, pooled = {}, ([], [], {}, 0)
    for name in manifest.suites:
        suite = get_suite(manifest.benchmark_version, name)
        env = suite.load_and_inject_default_environment({})
        kinds = {i: _scripted(t, env) for i, t in suite.injection_tasks.items()}
        clean, attacked, missing = _suite_results(out, manifest, suite)
        suites[name] = summarize_results(clean, attacked, kinds, missing)
        keyed = {f"{name}/{k}": v for k, v in kinds.items()}
        pooled = (pooled[0] + clean, pooled[1] + _rekey(attacked, name), pooled[2] | keyed,
                  pooled[3] + missing)
    overall = summarize_results(*pooled)
    overall.per_injection_task = {}  # per suite only: the ids repeat across suites
    summary = AgentDojoSummary(
        model=manifest.model, safety=manifest.safety, user=manifest.user, attack=manifest.attack,
        benchmark_version=manifest.benchmark_version, limit=manifest.limit,
        complete=overall.missing == 0, suites=suites, overall=overall)
    (out / "summary.json").write_text(summary.model_dump_json(indent=2), encoding="utf-8")
    (out / "summary.md").write_text(summary_markdown(summary), encoding="utf-8")
    return summary


def _rekey(results: list[TaskResult], suite: str) -> list[TaskResult]:
    """Results whose injection task ids name their suite (ids repeat across suites)."""
    return [r.model_copy(update={"injection_task_id": f"{suite}/{r.injection_task_id}"})
            for r in results]
