"""Generate and score the scenario eval; the two steps are apart on disk.

``run_scenarios(model, out_dir)`` runs every scenario in a fresh store (its own
temporary folder), writes one ``ScenarioRun`` per line to
``out_dir/results/scenarios.jsonl`` as it goes, then scores them
(``score_scenarios``) into ``out_dir/scores/`` (per-scenario lines, report.json,
report.md). ``score_scenarios(out_dir)`` re-scores saved results without the model.

    from botpsy.evals.scenarios import run_scenarios
    report = run_scenarios("smollm2", "runs/scenarios", split="single", limit=10)
    report = run_scenarios("reference", "runs/ref")   # replays the reference solutions
"""

from __future__ import annotations

import tempfile
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from functools import partial
from pathlib import Path
from typing import Protocol, TypeVar

from pydantic import BaseModel

from botpsy.agent import ToolSelector
from botpsy.assistant.demo import demo_injections
from botpsy.evals.call_mode import CallMode, check_call_mode
from botpsy.evals.progress import progress_bar
from botpsy.evals.scenarios.catalog import load_scenarios
from botpsy.evals.scenarios.checks import Matcher
from botpsy.evals.scenarios.harness import (
    ModelFactory,
    ModelSource,
    model_factory,
    resolve_call_mode,
    run_episode,
)
from botpsy.evals.scenarios.reference import reference_model
from botpsy.evals.scenarios.report import ScenarioReport, build_report, write_report
from botpsy.evals.scenarios.schema import Scenario, Split
from botpsy.evals.scenarios.score import RunErrorKind, ScenarioRun, ScenarioScore, score_run
from botpsy.evals.scenarios.world import (
    WorldError,
    apply_setup,
    collect_refs,
    diff,
    open_world,
    resolve_ref,
    snapshot,
)
from botpsy.types import GenerationParams

RESULTS_FILE = Path("results") / "scenarios.jsonl"
SCORES_DIR = Path("scores")
SCORES_FILE = SCORES_DIR / "scenarios.jsonl"
DEFAULT_MAX_TOKENS = 256


class TimedRun(Protocol):
    """What ``play_isolated`` records on a run (a ``ScenarioRun``, an ``InjectionRun``...)."""

    wall_s: float
    error: str | None
    error_kind: RunErrorKind | None


RunT = TypeVar("RunT", bound=TimedRun)
ItemT = TypeVar("ItemT")


def play_isolated(run: RunT, label: str, play: Callable[[Path], None]) -> RunT:
    """Call ``play`` with a fresh temporary folder (named after ``label``) and time it.

    A failure is recorded in ``run``, not raised, so one broken case does not end
    a whole eval: ``setup_error`` when the world could not be built, otherwise
    ``runner_error`` with the start of the traceback."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"botpsy-{label}-") as tmp:
        try:
            play(Path(tmp))
        except WorldError as exc:
            run.error, run.error_kind = str(exc), RunErrorKind.setup_error
        except Exception as exc:  # noqa: BLE001 - one broken case must not end the run
            run.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}"
            run.error_kind = RunErrorKind.runner_error
    run.wall_s = time.perf_counter() - start
    return run


def write_runs(path: Path, label: str, items: Sequence[ItemT],
               run_one: Callable[[ItemT], BaseModel], progress: bool, parallel: int = 1) -> None:
    """Run every item and write each result to ``path`` as one JSON line as soon as it is
    done, under a progress bar named ``label``; at the end the lines are put back in the
    order of ``items``.

    ``parallel`` > 1 runs that many items at once in threads (each item plays in its
    own store; the model must serve that many requests, see ``model_factory``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines: dict[int, str] = {}
    with path.open("w", encoding="utf-8") as sink, progress_bar(progress) as bar:
        task = bar.add_task(label, total=len(items))
        for index, result in _run_all(items, run_one, parallel):
            lines[index] = result.model_dump_json() + "\n"
            sink.write(lines[index])
            sink.flush()  # a crash keeps every finished item
            bar.advance(task)
    path.write_text("".join(lines[i] for i in sorted(lines)), encoding="utf-8")


def _run_all(items: Sequence[ItemT], run_one: Callable[[ItemT], BaseModel],
             parallel: int) -> Iterator[tuple[int, BaseModel]]:
    """(index, result) of every item as it finishes, in order when ``parallel`` is 1."""
    if parallel <= 1:
        yield from ((i, run_one(item)) for i, item in enumerate(items))
        return
    pool = ThreadPoolExecutor(max_workers=parallel, thread_name_prefix="episode")
    try:
        futures = {pool.submit(run_one, item): i for i, item in enumerate(items)}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def generate_scenario(scenario: Scenario, factory: ModelFactory, *, safety: bool,
                      params: GenerationParams, tool_selector: ToolSelector | None = None,
                      call_mode: CallMode | str | None = None) -> ScenarioRun:
    """Run one scenario in a fresh store; failures come back categorised in the run.
    ``call_mode`` None: the model's shipped default."""
    run = ScenarioRun(scenario_id=scenario.id, split=scenario.split, model="", safety=safety)
    play = partial(_play, scenario, factory, run, params=params, tool_selector=tool_selector,
                   call_mode=call_mode)
    return play_isolated(run, scenario.id, play)


def _play(scenario: Scenario, factory: ModelFactory, run: ScenarioRun, tmp: Path,
          params: GenerationParams, tool_selector: ToolSelector | None,
          call_mode: CallMode | str | None) -> None:
    store = open_world(tmp / "store")
    try:
        apply_setup(store, scenario.setup)
        before = snapshot(store)
        run.refs = {ref: resolve_ref(before, ref) for ref in sorted(collect_refs(scenario))}
        model = factory(scenario, run.refs)
        run.model = model.name
        run.call_mode = resolve_call_mode(model.name, call_mode)
        matcher = Matcher(run.refs)
        run.episode = run_episode(model, store, scenario.turns, safety=run.safety,
                                  expected=scenario.call_milestones(), matcher=matcher,
                                  params=params, audit_path=tmp / "audit.db",
                                  tool_selector=tool_selector, call_mode=run.call_mode,
                                  records=scenario.record_milestones())
        run.final_state = snapshot(store)
        run.changes = diff(before, run.final_state)
        run.ambient = [p for item in demo_injections(store) for p in item.attack_calls]
    finally:
        store.close()


def read_runs(path: Path) -> list[ScenarioRun]:
    if not path.is_file():
        raise FileNotFoundError(f"no scenario results at {path}; generate them first")
    lines = path.read_text(encoding="utf-8").splitlines()
    return [ScenarioRun.model_validate_json(line) for line in lines if line.strip()]


def write_lines(path: Path, items: Iterable[BaseModel]) -> None:
    """``items`` as JSON lines in ``path`` (its folder made if needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(item.model_dump_json() + "\n" for item in items), encoding="utf-8")


def score_scenarios(out_dir: str | Path, scenarios: list[Scenario] | None = None
                    ) -> ScenarioReport:
    """Score saved results (no model needed) and write the score files and report."""
    out = Path(out_dir)
    runs = read_runs(out / RESULTS_FILE)
    known = {s.id: s for s in (scenarios if scenarios is not None else load_scenarios())}
    missing = [r.scenario_id for r in runs if r.scenario_id not in known]
    if missing:
        raise ValueError(f"results name scenarios that do not exist (any more): {missing}")
    scores: list[ScenarioScore] = [score_run(known[r.scenario_id], r) for r in runs]
    write_lines(out / SCORES_FILE, scores)
    report = build_report(scores, runs)
    write_report(report, out / SCORES_DIR)
    return report


def run_scenarios(
    model: ModelSource,
    out_dir: str | Path,
    split: Split | str | None = None,
    limit: int | None = None,
    safety: bool = True,
    *,
    every: int = 1,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    tool_selector: ToolSelector | None = None,
    call_mode: CallMode | str | None = None,
    scenarios: list[Scenario] | None = None,
    progress: bool = True,
    parallel: int = 1,
) -> ScenarioReport:
    """Generate every (selected) scenario with ``model``, then score them.

    ``model``: a spec for ``load_chat_model`` (``smollm2``, a .gguf path,
    ``openai:URL#model``...), ``reference``, a ChatModel, or a factory
    ``(scenario, refs) -> ChatModel``. ``safety``: the deployment's safety layer
    with a simulated user (True) or a naive agent that approves everything.
    ``call_mode``: the Agent's (``auto`` | ``single_call``); None is the model's
    shipped default. The mode used is saved in each result and in the report.
    ``split``, ``every`` and ``limit`` pick the scenarios (see ``load_scenarios``) unless
    ``scenarios`` are given. ``parallel``: scenarios played at once (a spec is then
    loaded to serve that many requests together)."""
    call_mode = check_call_mode(call_mode)
    chosen = (scenarios if scenarios is not None
              else load_scenarios(split=split, limit=limit, every=every))
    factory = model_factory(model, reference=reference_model, parallel=parallel)
    params = GenerationParams(max_tokens=max_tokens)
    out = Path(out_dir)
    generate = partial(generate_scenario, factory=factory, safety=safety, params=params,
                       tool_selector=tool_selector, call_mode=call_mode)
    write_runs(out / RESULTS_FILE, "scenarios", chosen, generate, progress, parallel)
    return score_scenarios(out, chosen)
