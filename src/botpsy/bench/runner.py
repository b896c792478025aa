"""``run_bench``: one command from a model spec to a written report.

Order of work, chosen so that bad input fails in the first second and loses
nothing: check the settings and the output folder, resolve the model, then
record the machine, measure the memory bandwidth, make (or reuse) the
quantized variants, and run one worker process per (variant, thread count).
A worker that fails is recorded in the report's notes; the others still run.
"""

from __future__ import annotations

import datetime as dt
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from botpsy.backends.store import is_hf_model_folder
from botpsy.bench import quantize
from botpsy.bench.config import BenchConfig, PlannedRun, context_size, plan_jobs, validate
from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.gguf_info import GgufInfo, read_gguf_info
from botpsy.bench.prompts import TURN_PROMPTS
from botpsy.bench.roofline import BandwidthResult
from botpsy.bench.schema import BenchReport, BenchSettings, VariantResult
from botpsy.bench.worker import WorkerProgress, total_steps

BANDWIDTH_REPEATS = 10  # best-of: a pass takes ~10 ms, other processes only ever slow it


def ensure_writable(out_dir: Path) -> None:
    """Create ``out_dir`` and prove a file can be written there, or fail clearly now."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out_dir, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise BenchError(
            BenchErrorKind.output_not_writable,
            f"cannot write to output folder {out_dir}: {exc.strerror or exc}",
        ) from exc


def resolve_gguf(spec: str) -> Path:
    """The GGUF file a model spec names (the bench measures llama.cpp variants of a GGUF)."""
    from botpsy.backends.store import ModelNotFoundError, resolve_model

    try:
        ref = resolve_model(spec)
    except ModelNotFoundError as exc:
        raise BenchError(BenchErrorKind.model_not_found, str(exc)) from exc
    if ref.kind != "gguf":
        raise BenchError(
            BenchErrorKind.not_gguf,
            f"{spec!r} is a {ref.kind} model; the bench needs a GGUF (pass an HF folder as --hf-model)",
        )
    return Path(ref.location)


def resolve_adapter(spec: str) -> str | None:
    """The LoRA adapter a model spec puts over its GGUF (``botpsy-smol``, ``PATH+lora=A``):
    the bench applies it to every variant, so it measures the model the spec names."""
    from botpsy.backends.store import resolve_model

    return resolve_model(spec).lora


def check_hf_model(path: str) -> None:
    """An HF model folder (with config.json) or a GGUF transformers can dequantize."""
    target = Path(path)
    if target.is_file() and target.suffix == ".gguf":
        return
    if not is_hf_model_folder(target):
        raise BenchError(
            BenchErrorKind.model_not_found,
            f"--hf-model {path}: not an HF model folder (no config.json)",
        )


StepCallback = Callable[[int, int, str], None]  # (done, total, what)


@dataclass
class _Steps:
    """Progress over the whole run: fixed steps (bandwidth, quantization) plus worker steps."""

    total: int
    on_step: StepCallback | None
    done: int = 0

    def advance(self, what: str, n: int = 1) -> None:
        self.at(self.done + n, what)

    def at(self, done: int, what: str) -> None:
        self.done = done
        if self.on_step:
            self.on_step(self.done, self.total, what)


def measure_bandwidths(config: BenchConfig, steps: _Steps) -> list[BandwidthResult]:
    """Streaming-read bandwidth at every thread count of the run."""
    import psutil

    from botpsy.bench.machine import last_level_cache_bytes
    from botpsy.bench.roofline import measure_bandwidth, stream_array_bytes

    size = stream_array_bytes(last_level_cache_bytes(), psutil.virtual_memory().available)
    results = []
    for threads in sorted(set(config.threads)):
        results.append(measure_bandwidth(threads, size, repeats=BANDWIDTH_REPEATS))
        steps.advance(f"bandwidth, {threads} thread(s)")
    return results


def make_variants(
    config: BenchConfig, source: Path, info: GgufInfo, sha256: str, steps: _Steps
) -> list[quantize.Variant]:
    """The GGUF of every requested quant (made once, then reused from the cache)."""
    from botpsy.backends.store import variants_dir

    folder = config.cache_dir or variants_dir()
    variants = []
    for quant in config.quants:
        variant = quantize.make_variant(
            source, quant, folder, source_sha256=sha256, source_quant=info.file_type
        )
        if all(v.path != variant.path for v in variants):  # "source" and its own type are one file
            variants.append(variant)
        steps.advance(f"variant {variant.quant}" + (" (cached)" if variant.cached else ""))
    return variants


def run_planned(
    run: PlannedRun, config: BenchConfig, steps: _Steps, bandwidth: list[BandwidthResult]
) -> VariantResult:
    """One worker, summarised into a report row."""
    from botpsy.bench.summary import summarize_run
    from botpsy.bench.worker import run_worker

    base = steps.done
    name = f"{run.job.label} x{run.job.threads}t"

    def on_progress(progress: WorkerProgress) -> None:
        steps.at(base + progress.done, f"{name}: {progress.what}")

    result = run_worker(run.job, timeout_s=config.worker_timeout_s, on_progress=on_progress)
    steps.at(base + total_steps(run.job), f"{name}: done")
    gguf = read_gguf_info(run.variant.path) if run.variant else None
    return summarize_run(
        result,
        size_bytes=run.size_bytes or (result.weight_bytes or 0),
        bandwidth=bandwidth,
        info=gguf,
        variant=run.variant,
    )


def _settings(
    config: BenchConfig, source: Path, info: GgufInfo, sha256: str, n_ctx: int
) -> BenchSettings:
    from botpsy.bench.accuracy import SUITE

    return BenchSettings(
        model=config.model,
        model_name=source.stem,
        model_path=str(source),
        source_quant=info.file_type,
        source_sha256=sha256,
        quants=config.quants,
        prompt_lens=sorted(config.prompt_lens),
        threads=sorted(set(config.threads)),
        repeats=config.repeats,
        decode_tokens=config.decode_tokens,
        n_ctx=n_ctx,
        quick=config.quick,
        turn_prompts=[p.id for p in TURN_PROMPTS[: config.turns]],
        accuracy_suite=SUITE if config.accuracy_cases else None,
        accuracy_cases=config.accuracy_cases,
        hf_model=config.hf_model,
    )


def preflight(config: BenchConfig) -> Path:
    """Every check that needs no measurement, in order: settings, output folder, model(s).
    Returns the GGUF to measure. Cheap, so the CLI runs it before showing progress."""
    validate(config)
    ensure_writable(config.out_dir)
    source = resolve_gguf(config.model)
    if config.hf_model:
        check_hf_model(config.hf_model)
    return source


def run_bench(config: BenchConfig, on_step: StepCallback | None = None) -> BenchReport:
    """Measure every variant and return the report (``report.write_report`` saves it)."""
    from botpsy import __version__
    from botpsy.backends.store import sha256_file
    from botpsy.bench.machine import collect_machine, load_average
    from botpsy.bench.summary import attach_diagnoses, share_accuracy

    started = time.perf_counter()
    source = preflight(config)
    machine = collect_machine()
    info, sha256 = read_gguf_info(source), sha256_file(source)
    steps = _Steps(total=len(set(config.threads)) + len(config.quants), on_step=on_step)
    bandwidth = measure_bandwidths(config, steps)
    variants = make_variants(config, source, info, sha256, steps)
    n_ctx = context_size(config)
    adapter = resolve_adapter(config.model)
    runs = plan_jobs(config, variants, n_ctx, adapter)
    steps.total += sum(total_steps(run.job) for run in runs)
    rows = []
    notes = [f"every variant runs with the LoRA adapter {adapter} applied"] if adapter else []
    for run in runs:
        try:
            rows.append(run_planned(run, config, steps, bandwidth))
        except BenchError as exc:
            notes.append(f"{run.job.label} with {run.job.threads} thread(s) failed: {exc}")
    if not rows:
        raise BenchError(
            BenchErrorKind.worker_failed, "every measurement failed: " + " ; ".join(notes)
        )
    share_accuracy(rows)
    attach_diagnoses(rows)
    machine.load_avg_end = load_average()
    return BenchReport(
        created=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        botpsy_version=__version__,
        settings=_settings(config, source, info, sha256, n_ctx),
        machine=machine,
        bandwidth=bandwidth,
        variants=rows,
        wall_s=time.perf_counter() - started,
        notes=notes,
    )
