"""What a bench run measures: ``BenchConfig`` (defaults, ``--quick``), its validation, and
the plan of worker jobs it turns into.

Defaults are sized for a 2-core laptop: the full run (4 variants x 2 thread
counts) takes about a quarter of an hour, ``--quick`` a few minutes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from botpsy.bench import quantize
from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.prompts import TURN_PROMPTS
from botpsy.bench.schema import WorkerJob

DEFAULT_QUANTS = ["f16", "q8_0", "q4_k_m", "q4_0"]
QUICK_QUANTS = ["source", "q8_0"]
HF_DTYPES = {"float32": "hf-fp32", "bfloat16": "hf-bf16"}
MAX_PROMPT_LEN = 32768


def physical_cores() -> int:
    import psutil

    return psutil.cpu_count(logical=False) or os.cpu_count() or 1


@dataclass
class BenchConfig:
    """Everything a bench run needs; ``BenchConfig.create`` fills the defaults."""

    model: str = "smollm2"
    out_dir: Path = Path("bench-out")
    quants: list[str] = field(default_factory=lambda: list(DEFAULT_QUANTS))
    prompt_lens: list[int] = field(default_factory=lambda: [128, 512, 2048])
    threads: list[int] = field(default_factory=lambda: [1])
    repeats: int = 3
    decode_tokens: int = 64
    accuracy_cases: int = 20
    turn_max_tokens: int = 96
    turns: int = len(TURN_PROMPTS)
    hf_model: str | None = None
    cache_dir: Path | None = None
    quick: bool = False
    worker_timeout_s: float = 1800.0

    @classmethod
    def create(cls, *, quick: bool = False, **overrides) -> BenchConfig:
        """Defaults for a full or a ``--quick`` run; ``None`` overrides are ignored."""
        cores = physical_cores()
        base = cls(threads=sorted({1, cores}), quick=quick)
        if quick:
            base = replace(
                base,
                quants=list(QUICK_QUANTS),
                prompt_lens=[128, 512],
                threads=[cores],
                repeats=2,
                decode_tokens=32,
                accuracy_cases=8,
            )
        return replace(base, **{k: v for k, v in overrides.items() if v is not None})


def validate(config: BenchConfig) -> None:
    """Reject settings that cannot produce a meaningful run (before any work)."""
    checks = [
        (
            config.prompt_lens and all(8 <= n <= MAX_PROMPT_LEN for n in config.prompt_lens),
            f"prompt lengths must be between 8 and {MAX_PROMPT_LEN}, got {config.prompt_lens}",
        ),
        (
            config.threads and all(t >= 1 for t in config.threads),
            f"thread counts must be >= 1, got {config.threads}",
        ),
        (config.repeats >= 1, f"repeats must be >= 1, got {config.repeats}"),
        (config.decode_tokens >= 1, f"decode tokens must be >= 1, got {config.decode_tokens}"),
        (config.accuracy_cases >= 0, f"accuracy cases must be >= 0, got {config.accuracy_cases}"),
        (
            0 <= config.turns <= len(TURN_PROMPTS),
            f"turns must be between 0 and {len(TURN_PROMPTS)}, got {config.turns}",
        ),
    ]
    for ok, message in checks:
        if not ok:
            raise BenchError(BenchErrorKind.bad_setting, message)
    quantize.parse_quants(",".join(config.quants))


def context_needed(config: BenchConfig) -> int:
    """Tokens the longest prompt and the decode after it occupy (plus a margin)."""
    return max(config.prompt_lens) + config.decode_tokens + 16


def context_size(config: BenchConfig, trained: int | None = None) -> int:
    """KV-cache size: the longest prompt plus the decode, at least 2048 for the chat turns,
    rounded up to 256 (it is allocated up front and shows in peak memory), and no more than
    the ``trained`` context of the model (``check_context`` rejects runs that need more)."""
    needed = max(context_needed(config), 2048)
    size = -(-needed // 256) * 256
    return min(size, trained) if trained else size


def check_context(config: BenchConfig, trained: int | None) -> None:
    """Reject a run whose prompt + decode exceed the context the model was trained for.

    Why here: llama.cpp would otherwise be asked for a KV cache of that size, which fails
    only after the bandwidth test and the quantization ("Failed to create llama_context"
    for --decode-tokens 100000000), or decodes past what the model has ever seen."""
    needed = context_needed(config)
    if trained and needed > trained:
        raise BenchError(
            BenchErrorKind.bad_setting,
            f"the longest prompt ({max(config.prompt_lens)}) plus --decode-tokens "
            f"({config.decode_tokens}) need {needed} tokens of context; the model was trained "
            f"for {trained}",
        )


def logical_cores() -> int:
    return os.cpu_count() or 1


def setting_warnings(config: BenchConfig, cores: int | None = None) -> list[str]:
    """Settings that run but measure something odd: more threads than the machine has."""
    cores = cores or logical_cores()
    over = sorted(t for t in set(config.threads) if t > cores)
    if not over:
        return []
    message = (
        f"--threads {','.join(map(str, over))}: this machine has {cores} logical core(s); "
        "threads beyond that take turns on the cores (llama.cpp's threads spin while they "
        "wait), so those runs measure contention, not the model"
    )
    return [message]


@dataclass(frozen=True)
class PlannedRun:
    """One worker to run, with the variant it measures (None for transformers runs)."""

    job: WorkerJob
    variant: quantize.Variant | None
    size_bytes: int


def plan_jobs(
    config: BenchConfig, variants: list[quantize.Variant], n_ctx: int, adapter: str | None = None
) -> list[PlannedRun]:
    """Worker jobs: every variant at every thread count (most threads first; accuracy measured
    once per variant, in that first run), then the transformers runs at the most threads.
    ``adapter`` (a GGUF LoRA) is applied over every llama.cpp variant, and its file counts
    in their size: llama.cpp loads it next to the weights."""
    adapter_bytes = Path(adapter).stat().st_size if adapter else 0
    common = {
        "prompt_lens": sorted(config.prompt_lens),
        "decode_tokens": config.decode_tokens,
        "repeats": config.repeats,
        "n_ctx": n_ctx,
        "turn_max_tokens": config.turn_max_tokens,
        "turns": config.turns,
    }
    runs = []
    for variant in variants:
        for i, threads in enumerate(sorted(set(config.threads), reverse=True)):
            job = WorkerJob(
                model_path=str(variant.path),
                label=variant.quant,
                threads=threads,
                lora_path=adapter,
                accuracy_cases=config.accuracy_cases if i == 0 else 0,
                **common,
            )
            runs.append(PlannedRun(job, variant, variant.path.stat().st_size + adapter_bytes))
    if config.hf_model:
        for dtype, label in HF_DTYPES.items():
            job = WorkerJob(
                backend="transformers",
                model_path=config.hf_model,
                label=label,
                dtype=dtype,
                threads=max(config.threads),
                accuracy_cases=config.accuracy_cases,
                **common,
            )
            runs.append(PlannedRun(job, None, 0))
    return runs
