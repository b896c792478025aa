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
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from rich.progress import Progress

from botpsy.backends.base import ChatModel
from botpsy.evals.bfcl.categories import Category, CategoryKind, resolve
from botpsy.evals.bfcl.convert import bfcl_result, to_messages, tool_specs
from botpsy.evals.bfcl.dataset import TestCase, load_cases
from botpsy.evals.bfcl.multi_turn import run_conversation
from botpsy.evals.bfcl.results import (
    Mode,
    ResultRecord,
    RunManifest,
    append_result,
    model_dir_name,
    read_results,
    result_path,
    write_manifest,
    write_results,
)
from botpsy.evals.progress import progress_bar
from botpsy.types import GenerationParams

log = logging.getLogger(__name__)


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


def _package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "unknown"


def single_turn(
    model: ChatModel, case: TestCase, mode: Mode, params: GenerationParams
) -> ResultRecord:
    """Ask one single-turn case; the record holds BFCL's result and our extras."""
    messages = to_messages(case.turns[0])
    start = time.perf_counter()
    completion = model.complete(messages, tool_specs(case.functions), params)
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
    )


def run_case(
    model: ChatModel, category: Category, case: TestCase, mode: Mode, params: GenerationParams
) -> ResultRecord:
    """One case; a failing model call becomes a record with ``inference_error`` set."""
    try:
        if category.kind is CategoryKind.multi_turn:
            return run_conversation(model, case, mode, params)
        return single_turn(model, case, mode, params)
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


def _generate_category(
    model: ChatModel,
    category: Category,
    model_dir: Path,
    mode: Mode,
    limit: int | None,
    resume: bool,
    params: GenerationParams,
    bar: Progress,
) -> CategoryRun:
    if not category.runnable:
        return CategoryRun(category.name, not_run=category.not_run_reason)
    path = result_path(model_dir, category)
    cases = load_cases(category, limit=limit)
    todo = _pending(path, cases, resume)
    run = CategoryRun(category.name, resumed=len(cases) - len(todo), path=path)
    task = bar.add_task(category.name, total=len(cases), completed=run.resumed)
    for case in todo:
        record = run_case(model, category, case, mode, params)
        append_result(path, record)
        run.generated += 1
        run.failed += record.inference_error is not None
        bar.advance(task)
    if path.exists():
        write_results(path, read_results(path).values())  # sorted by id, as BFCL writes them
    return run


def generate(
    model: ChatModel,
    categories: Sequence[str],
    out_dir: str | Path,
    mode: Mode = "fc",
    limit: int | None = None,
    resume: bool = True,
    *,
    params: GenerationParams | None = None,
    progress: bool = True,
) -> GenerationSummary:
    """Write BFCL result files for ``categories`` (names or BFCL collections like ``non_live``)."""
    if mode not in ("fc", "prompt"):
        raise ValueError(f"mode must be 'fc' or 'prompt', got {mode!r}")
    chosen = resolve(list(categories))
    params = params or GenerationParams(max_tokens=512)
    model_dir = Path(out_dir) / "results" / model_dir_name(model.name)
    manifest = RunManifest(
        model=model.name,
        mode=mode,
        botpsy_version=_package_version("botpsy"),
        bfcl_eval_version=_package_version("bfcl-eval"),
        params=params.model_dump(),
        categories=[c.name for c in chosen if c.runnable],
        not_run={c.name: c.not_run_reason for c in chosen if c.not_run_reason},
        limit=limit,
        started=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    write_manifest(model_dir, manifest)
    summary = GenerationSummary(model_dir, mode)
    start = time.perf_counter()
    with progress_bar(progress) as bar:
        for category in chosen:
            summary.categories.append(
                _generate_category(model, category, model_dir, mode, limit, resume, params, bar)
            )
    summary.seconds = time.perf_counter() - start
    manifest.finished = datetime.now(UTC).isoformat(timespec="seconds")
    write_manifest(model_dir, manifest)
    return summary
