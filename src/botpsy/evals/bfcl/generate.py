"""The generation step: ask a ChatModel every BFCL case and write BFCL result files.

    from botpsy.evals.bfcl import generate
    generate(model, ["non_live", "multi_turn_base"], "runs/smollm2", mode="fc", limit=20)

writes ``runs/smollm2/results/<model>/<group>/BFCL_v4_<category>_result.json``.
Each answer is appended as soon as it exists, so an interrupted run resumes
where it stopped (ids already in the file are skipped; ids whose inference
failed are tried again). Scoring is a separate step (``botpsy.evals.bfcl.score``)
that needs no model.

Modes: ``fc`` gives the model the tools in its own chat format and stores the
calls it parsed; ``prompt`` stores the raw text for BFCL's own parser (use a
model loaded with the ``pythonic`` format, whose ``[f(a=1)]`` calls BFCL reads).

Tool choice: ``auto`` lets the model decide between text and calls (free
decoding); ``required`` makes it call one or more of the offered tools with
schema-valid arguments (grammar-constrained decoding on llama.cpp). In
irrelevance categories "required" cannot be right, and is still run and scored
as it is. In multi-turn conversations it forces the first step of each user
turn; the steps after tool results are free, so that a turn can end.

Single-turn answers are asked with short probe budgets first and kept when their
verdict is decided (``early_stop``): see ``botpsy.evals.bfcl.early_stop``.

``parallel`` > 1 asks that many cases at once from threads, for models that can
serve them together (``load_chat_model(..., parallel=N)``: a GGUF on the batched
llama.cpp backend, or an HTTP endpoint). Answers are appended as they finish and
the file is sorted by id at the end, so the result is the same file.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from rich.progress import Progress

from botpsy.backends.base import ChatModel, check_concurrency
from botpsy.evals.bfcl.categories import Category, CategoryKind, resolve
from botpsy.evals.bfcl.convert import bfcl_result, to_messages, tool_specs
from botpsy.evals.bfcl.dataset import TestCase, load_cases
from botpsy.evals.bfcl.early_stop import EarlyStop, ask, default_policy
from botpsy.evals.bfcl.multi_turn import run_conversation
from botpsy.evals.bfcl.results import (
    Mode,
    ResultRecord,
    RunManifest,
    append_result,
    model_dir_name,
    read_manifest,
    read_results,
    result_path,
    write_manifest,
    write_results,
)
from botpsy.evals.progress import progress_bar
from botpsy.types import GenerationParams

log = logging.getLogger(__name__)

TOOL_CHOICES = ("auto", "required")


@dataclass
class CategoryRun:
    """What the generation step did for one category."""

    category: str
    generated: int = 0
    resumed: int = 0  # already in the result file, not asked again
    failed: int = 0  # the model call raised; the record keeps the error
    not_run: str | None = None  # why the category was skipped
    path: Path | None = None


@dataclass
class GenerationSummary:
    model_dir: Path
    mode: Mode
    categories: list[CategoryRun] = field(default_factory=list)
    seconds: float = 0.0


def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "unknown"


def single_turn(
    model: ChatModel,
    case: TestCase,
    mode: Mode,
    params: GenerationParams,
    early_stop: EarlyStop | None = None,
) -> ResultRecord:
    """Ask one single-turn case; the record holds BFCL's result and our extras
    (``latency`` covers every probe pass)."""
    messages = to_messages(case.turns[0])
    start = time.perf_counter()
    answer = ask(model, messages, tool_specs(case.functions), params, early_stop)
    completion = answer.completion
    return ResultRecord(
        id=case.id,
        result=bfcl_result(completion, mode),
        mode=mode,
        input_token_count=completion.usage.prompt_tokens,
        output_token_count=completion.usage.completion_tokens,
        latency=time.perf_counter() - start,
        raw=completion.raw,
        parse_errors=[e.model_dump(mode="json") for e in completion.parse_errors],
        reasoning=completion.reasoning,
        timings=completion.timings.model_dump(),
        stopped=answer.stopped.value if answer.stopped else None,
        passes=answer.passes,
    )


def _policy(category: Category, early_stop: EarlyStop | None) -> EarlyStop | None:
    """The early-stop rules for a category: in irrelevance any call decides the verdict,
    where answers are one call a second call does."""
    if early_stop is None:
        return None
    return replace(
        early_stop,
        any_call_decides=category.kind is CategoryKind.irrelevance,
        max_calls=1 if category.single_call else None,
    )


def run_case(
    model: ChatModel,
    category: Category,
    case: TestCase,
    mode: Mode,
    params: GenerationParams,
    early_stop: EarlyStop | None = None,
) -> ResultRecord:
    """One case; a failing model call becomes a record with ``inference_error`` set."""
    try:
        if category.kind is CategoryKind.multi_turn:
            return run_conversation(model, case, mode, params)
        return single_turn(model, case, mode, params, _policy(category, early_stop))
    except Exception as exc:
        log.warning("%s: inference failed: %s", case.id, exc, exc_info=True)
        return ResultRecord(
            id=case.id,
            result=[] if category.kind is CategoryKind.multi_turn else "",
            mode=mode,
            inference_error=f"{type(exc).__name__}: {exc}",
        )


def _pending(path: Path, cases: list[TestCase], resume: bool) -> list[TestCase]:
    """Cases still to ask; drops failed records from the file so they are asked again."""
    if not path.exists():
        return cases
    if not resume:
        path.unlink()
        return cases
    done = read_results(path, salvage=True)
    kept = {rid: r for rid, r in done.items() if r.inference_error is None}
    if len(kept) != len(done):
        write_results(path, kept.values())
    return [case for case in cases if case.id not in kept]


@dataclass(frozen=True)
class _Settings:
    mode: Mode
    limit: int | None
    resume: bool
    params: GenerationParams
    early_stop: EarlyStop | None
    parallel: int = 1


def _answers(
    model: ChatModel, work: list[tuple[Category, TestCase]], run: _Settings
) -> Iterator[tuple[Category, ResultRecord]]:
    """The records of ``work`` as they finish: in order, or ``run.parallel`` at a time.

    One pool serves every category, so the long answers that end a category do
    not leave the model's other sequences idle.
    """

    def ask_one(item: tuple[Category, TestCase]) -> tuple[Category, ResultRecord]:
        category, case = item
        return category, run_case(model, category, case, run.mode, run.params, run.early_stop)

    if run.parallel <= 1:
        yield from map(ask_one, work)
        return
    pool = ThreadPoolExecutor(max_workers=run.parallel, thread_name_prefix="bfcl")
    try:
        futures = [pool.submit(ask_one, item) for item in work]
        for future in as_completed(futures):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # an interrupted run keeps what finished


@dataclass
class _Plan:
    """One category of a run: its file, the cases still to ask, its progress task."""

    category: Category
    done: CategoryRun
    todo: list[TestCase] = field(default_factory=list)
    task: int | None = None


def _plan(category: Category, model_dir: Path, run: _Settings, bar: Progress) -> _Plan:
    if not category.runnable:
        return _Plan(category, CategoryRun(category.name, not_run=category.not_run_reason))
    path = result_path(model_dir, category)
    cases = load_cases(category, limit=run.limit)
    todo = _pending(path, cases, run.resume)
    done = CategoryRun(category.name, resumed=len(cases) - len(todo), path=path)
    task = bar.add_task(category.name, total=len(cases), completed=done.resumed)
    return _Plan(category, done, todo, task)


def _finish_files(plans: list[_Plan]) -> None:
    """Sort each result file by id, as BFCL writes them."""
    for plan in plans:
        path = plan.done.path
        if path is not None and path.exists():
            write_results(path, read_results(path).values())


class RunMismatchError(ValueError):
    """Resuming into a result folder made by another model (of the same name) or with
    other generation settings: the answers would be mixed, or another model's."""


def _plain(value: Any) -> Any:
    """A setting as run.json holds it (tuples read back as lists)."""
    return json.loads(json.dumps(value, default=str))


def check_resumable(previous: RunManifest | None, manifest: RunManifest) -> None:
    """Refuse to resume ``previous``'s answers under ``manifest``'s model or settings.
    A folder from before sources were recorded (no ``model_source``) is trusted by name."""
    if previous is None:
        return
    pairs = {
        "model": (previous.model_source, manifest.model_source),
        "mode": (previous.mode, manifest.mode),
        "tool_choice": (previous.tool_choice, manifest.tool_choice),
        "early stop": (previous.early_stop, manifest.early_stop),
        **{name: (previous.params.get(name), value) for name, value in manifest.params.items()
           if name in previous.params},
    }
    for name, (old, new) in pairs.items():
        if _plain(old) != _plain(new) and not (name == "model" and None in (old, new)):
            raise RunMismatchError(
                f"{manifest.model}: the results in this folder were made with {name} {old!r}, "
                f"not {new!r}; resuming would mix them (use --no-resume or another --out)"
            )


def _tool_choice(params: GenerationParams, tool_choice: str | None) -> GenerationParams:
    choice = tool_choice or params.tool_choice
    if choice not in TOOL_CHOICES:
        raise ValueError(f"tool_choice must be one of {TOOL_CHOICES}, got {choice!r}")
    return params.model_copy(update={"tool_choice": choice})


def _early_stop(early_stop: EarlyStop | bool, tool_choice: str) -> EarlyStop | None:
    if isinstance(early_stop, EarlyStop):
        return early_stop
    return default_policy(tool_choice) if early_stop else None


def generate(
    model: ChatModel,
    categories: Sequence[str],
    out_dir: str | Path,
    mode: Mode = "fc",
    limit: int | None = None,
    resume: bool = True,
    *,
    params: GenerationParams | None = None,
    tool_choice: str | None = None,
    early_stop: EarlyStop | bool = True,
    progress: bool = True,
    parallel: int = 1,
) -> GenerationSummary:
    """Write BFCL result files for ``categories`` (names or BFCL collections like ``non_live``).

    ``tool_choice`` ("auto" or "required") overrides ``params.tool_choice``.
    ``early_stop``: True for the default probes of the tool choice, an
    ``EarlyStop`` for others, False to ask every case with the full ``max_tokens``.
    ``parallel``: cases asked at once; at most the model's ``concurrency``.
    """
    if mode not in ("fc", "prompt"):
        raise ValueError(f"mode must be 'fc' or 'prompt', got {mode!r}")
    check_concurrency(model, parallel)
    chosen = resolve(list(categories))
    params = _tool_choice(params or GenerationParams(max_tokens=512), tool_choice)
    policy = _early_stop(early_stop, params.tool_choice)
    model_dir = Path(out_dir) / "results" / model_dir_name(model.name)
    previous = read_manifest(model_dir) if resume else None
    manifest = _manifest(model, mode, params, policy, chosen, limit, previous)
    write_manifest(model_dir, manifest)
    summary = GenerationSummary(model_dir, mode)
    settings = _Settings(mode, limit, resume, params, policy, parallel)
    start = time.perf_counter()
    with progress_bar(progress) as bar:
        plans = [_plan(category, model_dir, settings, bar) for category in chosen]
        summary.categories = [plan.done for plan in plans]
        by_name = {plan.category.name: plan for plan in plans}
        work = [(plan.category, case) for plan in plans for case in plan.todo]
        try:
            for category, record in _answers(model, work, settings):
                plan = by_name[category.name]
                append_result(plan.done.path, record)
                plan.done.generated += 1
                plan.done.failed += record.inference_error is not None
                bar.advance(plan.task)
                _save_progress(manifest, previous, summary, start, model_dir)
        finally:
            _finish_files(plans)
            _save_progress(manifest, previous, summary, start, model_dir)
    manifest.finished = datetime.now(UTC).isoformat(timespec="seconds")
    write_manifest(model_dir, manifest)
    return summary


def new_manifest(
    model: ChatModel, mode: Mode, params: GenerationParams, **extra: Any
) -> RunManifest:
    """A ``run.json`` for a session starting now: the model (with what its name loaded),
    the versions and the generation settings; ``extra`` fills the other fields."""
    return RunManifest(
        model=model.name,
        model_source=getattr(model, "source", None),
        chat_format=getattr(getattr(model, "format", None), "name", None),
        mode=mode,
        tool_choice=params.tool_choice,
        botpsy_version=package_version("botpsy"),
        bfcl_eval_version=package_version("bfcl-eval"),
        params=params.model_dump(),
        started=datetime.now(UTC).isoformat(timespec="seconds"),
        **extra,
    )


def _manifest(
    model: ChatModel,
    mode: Mode,
    params: GenerationParams,
    policy: EarlyStop | None,
    chosen: list[Category],
    limit: int | None,
    previous: RunManifest | None,
) -> RunManifest:
    """``run.json`` for this session; refuses to resume a run made with other settings.
    Resumed, ``limit`` is the larger of the two (None: every case), as the files hold."""
    manifest = new_manifest(
        model,
        mode,
        params,
        early_stop=asdict(policy) if policy else None,
        categories=[c.name for c in chosen if c.runnable],
        not_run={c.name: c.not_run_reason for c in chosen if c.not_run_reason},
        limit=limit,
    )
    check_resumable(previous, manifest)
    if previous is not None:
        manifest.started = previous.started or manifest.started
        manifest.model_source = manifest.model_source or previous.model_source
        if limit is not None:
            manifest.limit = None if previous.limit is None else max(limit, previous.limit)
    return manifest


def _save_progress(
    manifest: RunManifest,
    previous: RunManifest | None,
    summary: GenerationSummary,
    start: float,
    model_dir: Path,
) -> None:
    """Totals so far into ``run.json`` (kept up to date if the run is stopped)."""
    summary.seconds = time.perf_counter() - start
    _add_totals(manifest, previous, summary)
    write_manifest(model_dir, manifest)


def _add_totals(
    manifest: RunManifest, previous: RunManifest | None, summary: GenerationSummary
) -> None:
    """Cases asked and wall time so far, those of the sessions this one resumes included."""
    manifest.generated = sum(run.generated for run in summary.categories)
    manifest.generation_s = round(summary.seconds, 1)
    if previous is not None:
        manifest.generated += previous.generated
        manifest.generation_s = round(manifest.generation_s + previous.generation_s, 1)
