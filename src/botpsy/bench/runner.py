"""``run_bench``: one command from a model spec to a written report.

Order of work, chosen so that bad input fails in the first second and loses
nothing: check the settings and that the output folder can be made, resolve the
model and read its GGUF (and adapter) headers, check the context against what the
model was trained for, and only then create the output folder; then record the
machine, measure the memory bandwidth, make (or reuse) the quantized variants,
and run one worker process per (variant, thread count).
A worker that fails is recorded in the report (``failed``); the others still run.
Ctrl-C stops the run but keeps what finished: ``BenchInterrupted`` carries a report
of the finished runs, marked partial, for the CLI to write.
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from botpsy import __version__
from botpsy.backends.model_files import (
    ModelNotFoundError,
    hf_weight_files,
    is_hf_model_folder,
    resolve_model,
    sha256_file,
    variants_dir,
)

# machine, roofline, summary and worker are read as modules: tests stand in for their
# measuring functions (tests/bench/conftest.py)
from botpsy.bench import machine, quantize, roofline, summary, worker
from botpsy.bench.accuracy import SUITE, available_cases
from botpsy.bench.config import (
    BenchConfig,
    PlannedRun,
    check_context,
    context_size,
    plan_jobs,
    setting_warnings,
    validate,
)
from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.gguf_info import GgufInfo, read_gguf_info, with_adapter
from botpsy.bench.machine import last_level_cache_bytes, load_average
from botpsy.bench.prompts import TURN_PROMPTS
from botpsy.bench.roofline import BandwidthResult, stream_array_bytes
from botpsy.bench.schema import BenchReport, BenchSettings, VariantResult
from botpsy.bench.summary import attach_diagnoses, share_accuracy
from botpsy.bench.worker import WorkerProgress, total_steps

BANDWIDTH_REPEATS = 10  # best-of: a pass is short, and other processes only ever slow it
# One of these makes a tokenizer transformers can load: fast (tokenizer.json), SentencePiece,
# byte-level BPE (vocab.json + merges.txt) or WordPiece.
HF_TOKENIZER_FILES = ("tokenizer.json", "tokenizer.model", "vocab.json", "vocab.txt")


class BenchInterrupted(KeyboardInterrupt):
    """Ctrl-C during the runs: ``report`` holds the runs that finished (None when none did)."""

    def __init__(self, report: BenchReport | None) -> None:
        super().__init__()
        self.report = report


def check_writable(out_dir: Path) -> None:
    """Fail now if ``out_dir`` could not be created and written, without creating anything:
    the nearest existing folder on its path must be a writable folder."""
    existing = out_dir
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise BenchError(
            BenchErrorKind.output_not_writable,
            f"cannot write to output folder {out_dir}: {existing} is not a writable folder",
        )


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


def _resolve(spec: str):
    try:
        return resolve_model(spec)
    except ModelNotFoundError as exc:
        raise BenchError(BenchErrorKind.model_not_found, str(exc)) from exc


def _gguf_of(spec: str, ref) -> Path:
    if ref.kind != "gguf":
        raise BenchError(
            BenchErrorKind.not_gguf,
            f"{spec!r} is a {ref.kind} model; the bench needs a GGUF (pass an HF folder as --hf-model)",
        )
    return Path(ref.location)


def resolve_gguf(spec: str) -> Path:
    """The GGUF file a model spec names (the bench measures llama.cpp variants of a GGUF)."""
    return _gguf_of(spec, _resolve(spec))


def resolve_adapter(spec: str) -> str | None:
    """The LoRA adapter a model spec puts over its GGUF (``botpsy-smol``, ``PATH+lora=A``):
    the bench applies it to every variant, so it measures the model the spec names."""
    return _resolve(spec).lora


def model_name(source: Path, adapter: str | None) -> str:
    """The report's name of the model: with an adapter it is another model than its base
    (``SmolLM2-135M-Instruct.Q4_1+botpsy-smol-lora``), so two reports do not look alike."""
    return f"{source.stem}+{Path(adapter).stem}" if adapter else source.stem


def check_hf_model(path: str) -> None:
    """An HF model folder transformers can load (config.json, weights and a tokenizer), or a
    GGUF it can dequantize. Checked before anything runs: a folder without weights or
    tokenizer failed only after every llama.cpp run."""
    target = Path(path)
    if target.is_file() and target.suffix == ".gguf":
        read_gguf_info(target)  # a truncated file fails here, not in the worker
        return
    if not is_hf_model_folder(target):
        raise BenchError(
            BenchErrorKind.model_not_found,
            f"--hf-model {path}: not an HF model folder (no config.json)",
        )
    if not hf_weight_files(target):
        raise BenchError(
            BenchErrorKind.model_not_found,
            f"--hf-model {path}: no weights (*.safetensors or *.bin) in the folder",
        )
    if not any((target / name).is_file() for name in HF_TOKENIZER_FILES):
        raise BenchError(
            BenchErrorKind.model_not_found,
            f"--hf-model {path}: no tokenizer (one of {', '.join(HF_TOKENIZER_FILES)})",
        )


def accuracy_cases_run(config: BenchConfig) -> tuple[int, list[str]]:
    """The accuracy cases the run will really grade (the suite has a fixed number), and a
    warning when fewer than asked."""
    if not config.accuracy_cases:
        return 0, []

    available = available_cases()
    if config.accuracy_cases <= available:
        return config.accuracy_cases, []
    warning = (
        f"--accuracy-cases {config.accuracy_cases}: {SUITE} has {available} cases; "
        f"all {available} are graded"
    )
    return available, [warning]


@dataclass(frozen=True)
class Preflight:
    """What the checks resolved: the run's config (accuracy cases as really run), the GGUF,
    its header (with the adapter's bytes), the adapter, and warnings about the settings."""

    config: BenchConfig
    source: Path
    info: GgufInfo
    adapter: str | None
    warnings: list[str] = field(default_factory=list)


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


def bandwidth_threads(config: BenchConfig) -> list[int]:
    """Thread counts of the bandwidth test: the run's, and always 1, so the diagnosis can
    compare how decode grows with threads against how the bandwidth itself grows."""
    return sorted(set(config.threads) | {1})


def measure_bandwidths(config: BenchConfig, steps: _Steps) -> list[BandwidthResult]:
    """Streaming-read bandwidth at every thread count of the run (and one), each with the
    load average just before it and its CPU share, so a starved test can be flagged."""
    import psutil

    size = stream_array_bytes(last_level_cache_bytes(), psutil.virtual_memory().available)
    results = []
    for threads in bandwidth_threads(config):
        load = load_average()
        result = roofline.measure_bandwidth(threads, size, repeats=BANDWIDTH_REPEATS)
        results.append(result.model_copy(update={"load_avg": load}))
        steps.advance(f"bandwidth, {threads} thread(s)")
    return results


def make_variants(
    config: BenchConfig, source: Path, info: GgufInfo, sha256: str, steps: _Steps
) -> list[quantize.Variant]:
    """The GGUF of every requested quant (made once, then reused from the cache)."""
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
    """One worker, summarised into a report row. A GGUF run's size and bytes per token
    include the adapter the job applies (llama.cpp reads it at every step)."""
    base = steps.done
    name = f"{run.job.label} x{run.job.threads}t"

    def on_progress(progress: WorkerProgress) -> None:
        steps.at(base + progress.done, f"{name}: {progress.what}")

    result = worker.run_worker(run.job, timeout_s=config.worker_timeout_s, on_progress=on_progress)
    steps.at(base + total_steps(run.job), f"{name}: done")
    gguf = (
        with_adapter(read_gguf_info(run.variant.path), run.job.lora_path) if run.variant else None
    )
    return summary.summarize_run(
        result,
        size_bytes=run.size_bytes or (result.weight_bytes or 0),
        bandwidth=bandwidth,
        info=gguf,
        variant=run.variant,
    )


def _settings(checked: Preflight, sha256: str, n_ctx: int) -> BenchSettings:
    config, adapter = checked.config, checked.adapter
    return BenchSettings(
        model=config.model,
        model_name=model_name(checked.source, adapter),
        model_path=str(checked.source),
        source_quant=checked.info.file_type,
        source_sha256=sha256,
        adapter_path=adapter,
        adapter_sha256=sha256_file(Path(adapter)) if adapter else None,
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


def preflight(config: BenchConfig) -> Preflight:
    """Every check that needs no measurement, in order: settings, output folder (checked,
    not yet made), model and adapter headers, context, HF folder; then the folder is made.
    Cheap, so the CLI runs it before showing progress."""
    validate(config)
    check_writable(config.out_dir)
    ref = _resolve(config.model)
    source = _gguf_of(config.model, ref)
    info = with_adapter(read_gguf_info(source), ref.lora)
    check_context(config, info.context_length)
    if config.hf_model:
        check_hf_model(config.hf_model)
    cases, warnings = accuracy_cases_run(config)
    ensure_writable(config.out_dir)
    return Preflight(
        config=replace(config, accuracy_cases=cases),
        source=source,
        info=info,
        adapter=ref.lora,
        warnings=warnings + setting_warnings(config),
    )


@dataclass
class RunOutcome:
    """The rows of the runs that finished, why the others failed, and whether Ctrl-C stopped
    the loop (then the runs after it never started)."""

    rows: list[VariantResult] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    interrupted: bool = False


def run_all(
    runs: list[PlannedRun], config: BenchConfig, steps: _Steps, bandwidth: list[BandwidthResult]
) -> RunOutcome:
    """Every planned run in turn; a failure is recorded and the next one runs, Ctrl-C ends
    the loop and keeps what finished."""
    outcome = RunOutcome()
    for run in runs:
        try:
            outcome.rows.append(run_planned(run, config, steps, bandwidth))
        except BenchError as exc:
            outcome.failed.append(f"{run.job.label} with {run.job.threads} thread(s) failed: {exc}")
        except KeyboardInterrupt:
            outcome.interrupted = True
            break
    return outcome


def _notes(adapter: str | None, outcome: RunOutcome, planned: int) -> list[str]:
    notes = [f"every variant runs with the LoRA adapter {adapter} applied"] if adapter else []
    if outcome.interrupted:
        done = len(outcome.rows) + len(outcome.failed)
        notes.append(f"interrupted (Ctrl-C) after {done} of {planned} runs: this report is partial")
    return notes


def run_bench(
    config: BenchConfig, on_step: StepCallback | None = None, checked: Preflight | None = None
) -> BenchReport:
    """Measure every variant and return the report (``report.write_report`` saves it).
    ``checked``: this config's ``preflight``, when the caller ran it already (the CLI, to
    show its warnings first); otherwise it runs here.

    Raises ``BenchInterrupted`` on Ctrl-C during the runs, carrying the partial report."""
    started = time.perf_counter()
    checked = checked or preflight(config)
    config, source, info = checked.config, checked.source, checked.info
    machine_info = machine.collect_machine()
    sha256 = sha256_file(source)
    steps = _Steps(total=len(bandwidth_threads(config)) + len(config.quants), on_step=on_step)
    bandwidth = measure_bandwidths(config, steps)
    variants = make_variants(config, source, info, sha256, steps)
    n_ctx = context_size(config, info.context_length)
    runs = plan_jobs(config, variants, n_ctx, checked.adapter)
    steps.total += sum(total_steps(run.job) for run in runs)
    outcome = run_all(runs, config, steps, bandwidth)
    if not outcome.rows:
        if outcome.interrupted:
            raise BenchInterrupted(None)
        raise BenchError(
            BenchErrorKind.worker_failed, "every measurement failed: " + " ; ".join(outcome.failed)
        )
    share_accuracy(outcome.rows)
    attach_diagnoses(outcome.rows, bandwidth)
    machine_info.load_avg_end = load_average()
    report = BenchReport(
        created=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        botpsy_version=__version__,
        settings=_settings(checked, sha256, n_ctx),
        machine=machine_info,
        bandwidth=bandwidth,
        variants=outcome.rows,
        wall_s=time.perf_counter() - started,
        notes=_notes(checked.adapter, outcome, len(runs)),
        warnings=checked.warnings,
        failed=outcome.failed,
        partial=outcome.interrupted,
    )
    if outcome.interrupted:
        raise BenchInterrupted(report)
    return report
