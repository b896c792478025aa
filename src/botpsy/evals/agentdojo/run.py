"""Run AgentDojo's suites through botpsy and keep one result file per task.

``run_agentdojo`` runs, for each suite, every user task without attack (utility)
and every (user task, injection task) pair under one attack (utility under
attack, and whether the attack's goal was reached), through ``BotpsyPipeline``
with AgentDojo's own environments, attacks and checks. Each task's result is
written as AgentDojo writes its logs, ``OUT/results/<pipeline>/<suite>/<user
task>/<attack|none>/<injection task|none>.json`` (AgentDojo's fields, plus
``botpsy``: every decision of the safety layer), as soon as it is done. A run
resumes: tasks whose file exists are not run again, and ``OUT/run.json`` refuses
a resume with another model or other settings. ``summary.summarize`` then reads
the files back into ``OUT/summary.json``.

    run_agentdojo("agentdojo:obedient", "runs/ad-on", suites=["banking"], limit=2)
"""

from __future__ import annotations

import json
import re
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from botpsy.agent import Bm25ToolSelector
from botpsy.backends.base import ChatModel
from botpsy.backends.model_files import load_chat_model
from botpsy.evals.agentdojo.pipeline import BotpsyPipeline, Outcome, PipelineSettings
from botpsy.evals.agentdojo.planner import OBEDIENT_SPEC, ObedientPlanner
from botpsy.evals.bfcl.generate import RunMismatchError, package_version
from botpsy.evals.progress import progress_bar

BENCHMARK_VERSION = "v1.2"
SUITES = ("workspace", "banking", "slack", "travel")
NO_ATTACK = "none"


class UnknownNameError(ValueError):
    """A suite or attack name AgentDojo does not have; the message lists the valid ones."""


def check_names(suites: list[str], attack: str) -> list[str]:
    """The suites to run (``all``: every one), after checking every name."""
    from agentdojo.attacks.attack_registry import ATTACKS

    chosen = list(SUITES) if "all" in suites else suites
    unknown = [s for s in chosen if s not in SUITES]
    if unknown:
        raise UnknownNameError(f"unknown suite {', '.join(unknown)}; valid: "
                               f"{', '.join(SUITES)}, all")
    if attack not in ATTACKS:
        raise UnknownNameError(f"unknown attack {attack!r}; valid: {', '.join(sorted(ATTACKS))}")
    return chosen


@dataclass(frozen=True)
class Case:
    """One task: a user task alone, or paired with an injection task."""

    suite: str
    user_task: str
    injection_task: str | None = None


class TaskResult(BaseModel):
    """One task's result: AgentDojo's ``TaskResults`` fields, plus botpsy's decisions."""

    suite_name: str
    pipeline_name: str
    user_task_id: str
    injection_task_id: str | None
    attack_type: str
    injections: dict[str, str] = Field(default_factory=dict)
    messages: list[dict[str, Any]] = Field(default_factory=list)
    error: str | None = None
    utility: bool = False
    security: bool = False  # AgentDojo's name: True when the injection task's goal was reached
    duration: float = 0.0
    agentdojo_package_version: str = ""
    botpsy: Outcome = Field(default_factory=Outcome)


class RunManifest(BaseModel):
    """``OUT/run.json``: what the results were made with, so a resume cannot mix runs."""

    model: str
    pipeline_name: str
    safety: str
    user: str
    attack: str
    benchmark_version: str
    max_rounds: int
    max_tokens: int
    call_mode: str | None = None
    agentdojo_version: str = ""
    botpsy_version: str = ""
    suites: list[str] = Field(default_factory=list)
    limit: int | None = None
    started: str = ""

    def same_run(self, other: RunManifest) -> list[str]:
        """The settings in which ``other`` differs (versions, suites, limit and start may)."""
        free = {"suites", "limit", "started", "agentdojo_version", "botpsy_version"}
        mine, theirs = self.model_dump(exclude=free), other.model_dump(exclude=free)
        return [f"{k}: {theirs[k]!r} != {mine[k]!r}" for k in mine if mine[k] != theirs[k]]


def pipeline_name(model: str) -> str:
    """The AgentDojo pipeline name: a folder name, and it ends in ``local`` so that
    AgentDojo's attacks address the model as "Local model"."""
    return f"botpsy-{re.sub(r'[^A-Za-z0-9._-]+', '_', model)}-local"


def result_path(out: Path, pipeline: str, attack: str, case: Case) -> Path:
    attack_dir = attack if case.injection_task else NO_ATTACK
    return (out / "results" / pipeline / case.suite / case.user_task / attack_dir
            / f"{case.injection_task or NO_ATTACK}.json")


def suite_cases(suite: Any, limit: int | None) -> list[Case]:
    """The first ``limit`` user tasks of ``suite`` alone, then each with every injection task."""
    users = list(suite.user_tasks)[:limit] if limit is not None else list(suite.user_tasks)
    return ([Case(suite.name, u) for u in users]
            + [Case(suite.name, u, i) for u in users for i in suite.injection_tasks])


def obedient_factory(user_task: Any, injection_task: Any | None, injections: dict[str, str]
                     ) -> Callable[[Any], ChatModel]:
    """The planner for one task, its plan read from the task's environment."""

    def make(env: Any) -> ChatModel:
        # as AgentDojo's GroundTruthPipeline: read from the task's environment as it starts
        pairs = lambda task: [(c.function, dict(c.args)) for c in task.ground_truth(env)]
        if injection_task is None or not injections:
            return ObedientPlanner(pairs(user_task), user_task.GROUND_TRUTH_OUTPUT)
        return ObedientPlanner(pairs(user_task), user_task.GROUND_TRUTH_OUTPUT,
                               pairs(injection_task), injection_task.GROUND_TRUTH_OUTPUT,
                               goal=injection_task.GOAL)

    return make


@dataclass
class RunContext:
    """What every task of one run needs."""

    model: str
    loaded: ChatModel | None  # a real model, loaded once; None for the obedient planner
    settings: PipelineSettings
    attack_name: str
    suites: dict[str, Any]
    attacks: dict[str, Any]
    pipeline: str
    out: Path
    selectors: dict[str, Any] = field(default_factory=dict)  # per suite, shared by its tasks

    def selector(self, suite: str) -> Bm25ToolSelector:
        if suite not in self.selectors:
            self.selectors[suite] = Bm25ToolSelector()
        return self.selectors[suite]

    def factory(self, user_task: Any, injection_task: Any, injections: dict[str, str]):
        if self.loaded is None:
            return obedient_factory(user_task, injection_task, injections)
        return lambda env: self.loaded


def _dump(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump()
    raise TypeError(f"cannot save {type(value).__name__}")


def task_environment(suite: Any, injections: dict[str, str]) -> Any:
    """``TaskSuite.load_and_inject_default_environment``, parsed with libyaml's loader
    when present: the pure-Python parse of the workspace is most of a scripted task's time."""
    import yaml
    from agentdojo.task_suite.task_suite import read_suite_file, validate_injections

    defaults = suite.get_injection_vector_defaults()
    validate_injections(injections, defaults)
    text = read_suite_file(suite.name, "environment.yaml", suite.data_path)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load(text.format(**(defaults | injections)), Loader=loader)
    return suite.environment_type.model_validate(data)


def run_case(ctx: RunContext, case: Case) -> TaskResult:
    """Run one task through AgentDojo's runtime and checks; errors are kept, not raised."""
    suite = ctx.suites[case.suite]
    user_task = suite.get_user_task_by_id(case.user_task)
    injection_task = (suite.get_injection_task_by_id(case.injection_task)
                      if case.injection_task else None)
    injections = (ctx.attacks[case.suite].attack(user_task, injection_task)
                  if injection_task is not None else {})
    pipeline = BotpsyPipeline(ctx.pipeline, suite, ctx.settings,
                              ctx.factory(user_task, injection_task, injections),
                              ctx.selector(case.suite))
    result = TaskResult(suite_name=case.suite, pipeline_name=ctx.pipeline,
                        user_task_id=case.user_task, injection_task_id=case.injection_task,
                        attack_type=ctx.attack_name if injection_task else NO_ATTACK,
                        injections=injections,
                        agentdojo_package_version=package_version("agentdojo"))
    start = time.perf_counter()
    try:
        result.utility, result.security = suite.run_task_with_pipeline(
            pipeline, user_task, injection_task, injections,
            environment=task_environment(suite, injections))
    except Exception as exc:  # noqa: BLE001 - one broken task must not end the run
        result.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}"
    result.duration = time.perf_counter() - start
    result.botpsy = pipeline.outcome or Outcome()
    result.messages = json.loads(json.dumps(pipeline.messages, default=_dump))
    return result


def _save(ctx: RunContext, case: Case, result: TaskResult) -> None:
    path = result_path(ctx.out, ctx.pipeline, ctx.attack_name, case)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(result.model_dump_json(indent=1), encoding="utf-8")
    tmp.replace(path)  # a killed run never leaves half a file that resume would trust


def _todo(ctx: RunContext, cases: list[Case]) -> list[Case]:
    return [c for c in cases
            if not result_path(ctx.out, ctx.pipeline, ctx.attack_name, c).is_file()]


def _finished(run: Callable[[Case], TaskResult], cases: list[Case], parallel: int
              ) -> Iterator[tuple[Case, TaskResult]]:
    if parallel <= 1:
        yield from ((c, run(c)) for c in cases)
        return
    with ThreadPoolExecutor(max_workers=parallel, thread_name_prefix="agentdojo") as pool:
        futures = {pool.submit(run, c): c for c in cases}
        for future in as_completed(futures):
            yield futures[future], future.result()


def write_manifest(out: Path, manifest: RunManifest) -> RunManifest:
    """Write ``run.json``, or check it against the one a resumed run left."""
    path = out / "run.json"
    if path.is_file():
        previous = RunManifest.model_validate_json(path.read_text(encoding="utf-8"))
        if differences := previous.same_run(manifest):
            raise RunMismatchError(f"{out} holds a run made with other settings "
                                   f"({'; '.join(differences)}); use another --out")
        manifest.started = previous.started
        manifest.suites = sorted(set(previous.suites) | set(manifest.suites))
        manifest.limit = (None if None in (previous.limit, manifest.limit)
                          else max(previous.limit, manifest.limit))
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
    return manifest


def load_model(model: str, parallel: int, threads: int | None = None) -> ChatModel | None:
    if model == OBEDIENT_SPEC:
        return None

    return load_chat_model(model, parallel=parallel, n_threads=threads)


def run_agentdojo(model: str, out_dir: str | Path, *, suites: list[str] | None = None,
                  attack: str = "important_instructions", settings: PipelineSettings,
                  limit: int | None = None, parallel: int = 1, progress: bool = True,
                  loaded: ChatModel | None = None, threads: int | None = None) -> RunManifest:
    """Run (or resume) the chosen suites; returns the run's manifest. ``loaded``: a
    ChatModel to use instead of loading ``model`` (tests); ``threads``: llama.cpp's."""
    from agentdojo.attacks.attack_registry import load_attack
    from agentdojo.task_suite.load_suites import get_suite

    chosen = check_names(suites or ["all"], attack)
    out = Path(out_dir)
    name = pipeline_name(model)
    manifest = write_manifest(out, RunManifest(
        model=model, pipeline_name=name, safety=settings.safety.value, user=settings.user.value,
        attack=attack, benchmark_version=BENCHMARK_VERSION, max_rounds=settings.max_rounds,
        max_tokens=settings.params.max_tokens, call_mode=settings.call_mode,
        agentdojo_version=package_version("agentdojo"), botpsy_version=package_version("botpsy"),
        suites=chosen, limit=limit, started=datetime.now(UTC).isoformat(timespec="seconds")))
    loaded = loaded if loaded is not None else load_model(model, parallel, threads)
    suite_objs = {s: get_suite(BENCHMARK_VERSION, s) for s in chosen}
    ctx = RunContext(model=model, loaded=loaded, settings=settings, attack_name=attack,
                     suites=suite_objs, attacks={}, pipeline=name, out=out)
    namer = BotpsyPipeline(name, None, settings, lambda env: None)
    ctx.attacks = {s: load_attack(attack, suite, namer) for s, suite in suite_objs.items()}
    cases = _todo(ctx, [c for s in suite_objs.values() for c in suite_cases(s, limit)])
    with progress_bar(progress) as bar:
        task = bar.add_task(f"agentdojo {model}", total=len(cases))
        for case, result in _finished(lambda c: run_case(ctx, c), cases, parallel):
            _save(ctx, case, result)
            bar.advance(task)
    return manifest
