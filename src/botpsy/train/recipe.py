"""The four-stage recipe, chained: data -> SFT -> multi-teacher distillation -> balance
(SFT on a half no-call mix) -> DAPO x2 -> GGUF.

``main(get_preset("tiny", "runs/tiny"))`` runs everything and writes
``recipe_report.{json,md,png}``; a stage that already finished is skipped and
one that was interrupted resumes from its newest checkpoint, so re-running the
same command continues a long run. An optional ``evaluator`` (e.g. BFCL
non-live AST, ``botpsy.train.bfcl_eval``) scores the base model and each stage's
output; results are cached by model folder, so each model is scored once, and
stages a resumed run skips are scored too.

Run: ``botpsy train recipe --preset tiny --out runs/tiny [--bfcl-limit 20]``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from botpsy.formats import get_format
from botpsy.train import dapo, distill, export, sft
from botpsy.train.adapter_rl import FINAL_ADAPTER, LOWRANK_STAGE, final_adapter, truncate_to_adapter
from botpsy.train.common import StageCommon, StageResult, release_memory
from botpsy.train.data import DataConfig, DataStats, generate, save
from botpsy.train.evaluate import ModelEvaluator
from botpsy.train.isolate import run_isolated
from botpsy.train.launch import write_launch_bundle
from botpsy.train.loaders import read_samples
from botpsy.train.presets import RecipePlan
from botpsy.train.report import RecipeReport, write
from botpsy.train.score_run import record_scores
from botpsy.train.tiny import make_tiny_model


class CachedEvaluator:
    """Scores each model folder once (stage k's "before" is stage k-1's "after")."""

    def __init__(self, evaluator: ModelEvaluator) -> None:
        self.evaluator = evaluator
        self.cache: dict[str, dict[str, float]] = {}

    def __call__(self, model_dir: str) -> dict[str, float]:
        key = str(Path(model_dir).resolve())
        if key not in self.cache:
            self.cache[key] = dict(self.evaluator(model_dir))
        return self.cache[key]


def _prepare(config: DataConfig, train_file: str) -> DataStats:
    stats_file = Path(train_file).parent / "stats.json"
    if stats_file.exists():
        return DataStats.model_validate_json(stats_file.read_text(encoding="utf-8"))
    data = generate(config)
    save(data, stats_file.parent)
    return data.stats


PLAN_FILE = "recipe_plan.json"


def _settings(plan: RecipePlan) -> dict[str, Any]:
    """What a run's results depend on, flattened ("sft.max_steps": 96); notes aside, and
    paths inside the run folder written from it ("<out>/sft"), so a moved run still matches."""
    flat: dict[str, Any] = {}
    out = str(Path(plan.out_dir))

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict) and value:
            for key, item in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), item)
        elif isinstance(value, str) and (value == out or value.startswith(out + "/")):
            flat[prefix] = "<out>" + value[len(out):]
        else:
            flat[prefix] = value

    walk("", {k: v for k, v in asdict(plan).items() if k != "notes"})
    return json.loads(json.dumps(flat))  # as read back: tuples are lists


def check_plan(plan: RecipePlan) -> None:
    """Record the plan in a new run folder; in one that holds a run, refuse other settings.

    Why: a re-run resumes, reusing the saved data and skipping finished stages, so a
    run folder resumed with other options (``--scale 30`` on a smol run, other
    recipes) would silently keep the old data and stages under the new plan's name."""
    path = Path(plan.out_dir) / PLAN_FILE
    now = _settings(plan)
    if path.is_file():
        before = json.loads(path.read_text(encoding="utf-8"))
        # Settings only one side has came or went with a botpsy version: not the user's.
        changed = [f"{key}: {before[key]!r} -> {now[key]!r}"
                   for key in sorted(set(before) & set(now)) if before[key] != now[key]]
        if changed:
            raise ValueError(
                f"{plan.out_dir} holds a run made with other settings ({'; '.join(changed[:5])}"
                f"{'; ...' if len(changed) > 5 else ''}): re-run it with its own options, or "
                "give a new --out"
            )
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(now, indent=1, sort_keys=True), encoding="utf-8")


def prepare_data(plan: RecipePlan) -> DataStats:
    """Generate and save the data set (and the balance phase's) unless a previous run did;
    the main set's statistics."""
    if plan.balance and plan.balance_data:
        _prepare(plan.balance_data, plan.balance.train_file)
    return _prepare(plan.data, plan.sft.train_file)


def prepare_base(plan: RecipePlan) -> str:
    """The base HF model folder: given, built (tiny) or dequantized from a GGUF (smol)."""
    base = Path(plan.base_model)
    if (base / "config.json").exists():
        return str(base)
    if plan.base_source == "tiny":
        make_tiny_model(
            base, get_format(plan.sft.format), read_samples(plan.sft.train_file), plan.tiny
        )
    elif plan.base_source.startswith("gguf:"):
        from botpsy.train.gguf_import import dequantize_gguf_to_hf  # lazy: gguf

        dequantize_gguf_to_hf(plan.base_source.removeprefix("gguf:"), base)
    else:
        raise FileNotFoundError(f"base model folder {base} has no config.json")
    return str(base)


def _scored_stage(
    run: Callable[[Any, Any], StageResult], cfg: Any, evaluator: ModelEvaluator | None
) -> tuple[StageResult, dict[str, dict[str, float]]]:
    """A stage in a child process: its result and the scores it computed, which the parent
    keeps (stage k's "after" is stage k+1's "before": scored once, not twice)."""
    result = run(cfg, evaluator)
    return result, evaluator.cache if isinstance(evaluator, CachedEvaluator) else {}


def _step(plan: RecipePlan, label: str, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in its own process when the plan says so, else here (then its memory is
    released before the next step starts)."""
    if plan.stage_processes:
        return run_isolated(fn, *args, label=label)
    result = fn(*args)
    release_memory()
    return result


def _run_stage(
    plan: RecipePlan,
    run: Callable[[Any, Any], StageResult],
    cfg: Any,
    evaluator: ModelEvaluator | None,
) -> StageResult:
    """One stage; the scores a child process computed join the parent's cache."""
    label = f"stage {Path(cfg.output_dir).name}"
    result, scores = _step(plan, label, _scored_stage, run, cfg, evaluator)
    if isinstance(evaluator, CachedEvaluator):
        evaluator.cache.update(scores)
    return result


def run_stages(plan: RecipePlan, evaluator: ModelEvaluator | None) -> list[StageResult]:
    """The stages in order (SFT, distillation, balance, DAPO x2); with adapter-aware RL, the
    model RL starts from (balance's, or distillation's) is truncated to
    its adapter before DAPO."""
    results = []
    for cfg in plan.stages:
        if cfg is plan.dapo1 and plan.adapter_rl:
            balance_input = plan.balance.model if plan.balance else None
            parts = plan.adapter_rl.parts(plan.before_rl, balance_input)
            out = Path(plan.out_dir) / LOWRANK_STAGE
            _step(plan, "the rank truncation", truncate_to_adapter, plan.base_model, parts, out)
        results.append(_run_stage(plan, _runner(cfg), cfg, evaluator))
    return results


def _runner(cfg: StageCommon) -> Callable[[Any, Any], StageResult]:
    """The ``main`` of a stage config's kind (both SFT phases share SFT's)."""
    if isinstance(cfg, sft.SFTStageConfig):
        return sft.main
    if isinstance(cfg, distill.DistillStageConfig):
        return distill.main
    return dapo.main


def carry_final_adapter(plan: RecipePlan) -> str | None:
    """The note on the exact final adapter of adapter-aware RL (None without it)."""
    if not plan.adapter_rl:
        return None
    energy = final_adapter(
        plan.base_model,
        Path(plan.dapo2.output_dir) / "model",
        Path(plan.out_dir) / FINAL_ADAPTER,
        plan.adapter_rl.final_rank,
        plan.adapter_rl.final_rank_pattern,
    )
    return (
        f"Final adapter: rank {plan.adapter_rl.describe(final=True)}, {energy:.6f} of the change's "
        f"energy ({FINAL_ADAPTER}/)"
    )


def score_resumed(
    plan: RecipePlan, stages: list[StageResult], cached: CachedEvaluator
) -> list[StageResult]:
    """External scores for the stages a resumed run skipped (trained earlier, maybe unscored),
    written into their ``stage_result.json``: the report then covers every stage."""
    scored = []
    for cfg, stage in zip(plan.stages, stages):
        if stage.skipped:
            before, after = cached(cfg.model), cached(str(Path(cfg.output_dir) / "model"))
            stage = record_scores(cfg.output_dir, before, after).model_copy(
                update={"skipped": True}
            )
        scored.append(stage)
    return scored


def main(
    plan: RecipePlan, evaluator: ModelEvaluator | None = None, launch: Any = None
) -> RecipeReport:
    """Run the whole recipe (or write the launch bundle for a multi-GPU preset, launched as
    ``launch``, a ``botpsy.train.launch.LaunchSettings``)."""
    if plan.launch_only:
        script = write_launch_bundle(plan, launch)
        report = RecipeReport(
            preset=plan.preset,
            out_dir=plan.out_dir,
            base_model=plan.base_model,
            launch_script=str(script),
            notes=plan.notes,
        )
        write(report, Path(plan.out_dir))
        return report
    started = time.time()
    check_plan(plan)
    stats = prepare_data(plan)
    base = prepare_base(plan)
    cached = CachedEvaluator(evaluator) if evaluator else None
    report = RecipeReport(
        preset=plan.preset,
        out_dir=plan.out_dir,
        base_model=base,
        data=stats,
        base_scores=cached(base) if cached else {},
        notes=plan.notes,
    )
    report.stages = run_stages(plan, cached)
    if cached:
        report.stages = score_resumed(plan, report.stages, cached)
    note = carry_final_adapter(plan)
    if note:
        report.notes = [*report.notes, note]
    if plan.export:
        report.export = export.main(plan.export)
    report.seconds = time.time() - started
    write(report, Path(plan.out_dir))
    return report
