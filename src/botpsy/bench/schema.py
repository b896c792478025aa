"""The bench's data on disk: worker jobs and results, and ``report.json``.

Everything a run measured is kept (the raw repeats next to the summaries), so a
report can be re-plotted or compared later without re-running a model. The
schema is versioned; ``BenchReport.load`` refuses files it cannot read.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from botpsy.bench.errors import BenchError, BenchErrorKind
from botpsy.bench.machine import MachineInfo
from botpsy.bench.roofline import BandwidthResult, Diagnosis

SCHEMA_VERSION = 1
Backend = Literal["llama.cpp", "transformers"]


class Stat(BaseModel):
    """Median, min and max of repeated measurements."""

    median: float
    min: float
    max: float
    n: int

    @classmethod
    def of(cls, samples: Sequence[float]) -> Stat | None:
        """Summary of ``samples``; None when there are none."""
        if not samples:
            return None
        return cls(
            median=statistics.median(samples), min=min(samples), max=max(samples), n=len(samples)
        )


class PrefillSample(BaseModel):
    """One prompt evaluated from an empty cache: time to the first (greedy) token."""

    prompt_tokens: int
    ttft_s: float

    @property
    def tok_s(self) -> float:
        return self.prompt_tokens / self.ttft_s


class DecodeSample(BaseModel):
    """``tokens`` single-token steps after a prompt of ``n_past`` tokens."""

    tokens: int
    seconds: float
    n_past: int
    cpu_s: float | None = None  # CPU time of the whole process (all threads) over the steps

    @property
    def tok_s(self) -> float:
        return self.tokens / self.seconds

    def cpu_share(self, threads: int) -> float | None:
        """CPU time over ``threads`` x wall time: ~1 when the run had its cores to itself
        (llama.cpp's threads spin while they wait), lower when other processes took turns."""
        if self.cpu_s is None or self.seconds <= 0:
            return None
        return self.cpu_s / (self.seconds * threads)


class TurnSample(BaseModel):
    """One end-to-end tool-call turn from a cold cache: render -> generate -> parse, until the
    first complete call (``stopped_at_call``) or the end of generation."""

    prompt_id: str
    latency_s: float
    made_call: bool = False
    stopped_at_call: bool = False


class RawRepeat(BaseModel):
    """Everything measured in one repeat."""

    repeat: int
    prefill: list[PrefillSample] = Field(default_factory=list)
    decode: DecodeSample | None = None
    decode_1t: DecodeSample | None = None  # the same decode with one thread (scaling probe)
    turns: list[TurnSample] = Field(default_factory=list)


class AccuracyCase(BaseModel):
    """The grade of one accuracy case (``botpsy.rewards.score_calls``)."""

    id: str
    exact: bool
    reward: float
    error_type: str


class AccuracyResult(BaseModel):
    """Tool-call accuracy of a variant on a fixed small subset."""

    suite: str
    n: int
    accuracy: float  # fraction of cases with an exact match
    mean_reward: float  # partial credit (names, argument names, values)
    errors: dict[str, int] = Field(default_factory=dict)
    cases: list[AccuracyCase] = Field(default_factory=list)


class WorkerJob(BaseModel):
    """What one measuring subprocess does (passed to it as JSON)."""

    backend: Backend = "llama.cpp"
    model_path: str
    label: str  # the variant's name in the report: "q8_0", "hf-bf16"...
    threads: int
    prompt_lens: list[int]
    decode_tokens: int
    repeats: int
    n_ctx: int
    dtype: str = "float32"  # transformers only
    turn_max_tokens: int = 96
    turns: int = 3  # how many of the fixed turn prompts each repeat runs
    accuracy_cases: int = 0  # 0: do not measure accuracy in this job
    tool_choice: str = "required"
    format_name: str | None = None  # None: the model's own hint
    lora_path: str | None = None  # a GGUF LoRA adapter applied over the variant (llama.cpp)


class WorkerResult(BaseModel):
    """What one measuring subprocess prints."""

    job: WorkerJob
    load_s: float
    baseline_rss_mb: float  # the worker process before the model was loaded
    peak_rss_mb: float  # high-water resident set of the worker (VmHWM on Linux)
    weight_bytes: int | None = None  # transformers only: bytes of the weights in memory
    kv_bytes_per_position: int | None = None  # transformers only: K+V bytes per cached token
    format_name: str = ""
    repeats: list[RawRepeat] = Field(default_factory=list)
    accuracy: AccuracyResult | None = None
    wall_s: float = 0.0


class VariantResult(BaseModel):
    """The summary of one (variant, thread count) run, plus its raw repeats."""

    quant: str
    backend: Backend = "llama.cpp"
    threads: int
    path: str = ""
    size_mb: float  # MiB: the model file plus its LoRA adapter file, if any
    adapter_mb: float | None = None  # MiB of that adapter file (None: no adapter)
    source_quant: str = ""
    requantized: bool = False
    tensor_mb_by_type: dict[str, float] = Field(default_factory=dict)
    load_s: float
    peak_rss_mb: float  # MiB, VmHWM of the worker: Python + botpsy, weights, KV cache, buffers
    model_rss_mb: float  # peak minus the worker's footprint before loading
    kv_cache_mb: float | None = None  # MiB of KV cache allocated for the bench's n_ctx
    ttft_s: dict[int, Stat] = Field(default_factory=dict)
    prefill_tok_s: dict[int, Stat] = Field(default_factory=dict)
    decode_tok_s: Stat | None = None
    decode_tok_s_1t: Stat | None = None  # the scaling probe: same decode with one thread
    cpu_share: float | None = None  # median CPU time / (threads x wall) during decode
    bytes_per_token: int | None = None
    roofline_tok_s: float | None = None
    roofline_fraction: float | None = None
    effective_gb_s: float | None = None
    diagnosis: Diagnosis | None = None
    turn_latency_s: Stat | None = None
    turn_call_rate: float | None = None  # share of timed turns that produced a tool call
    accuracy: float | None = None
    accuracy_detail: AccuracyResult | None = None
    raw: list[RawRepeat] = Field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.quant}@{self.threads}t"


class BenchSettings(BaseModel):
    """How the run was asked for and what it resolved to."""

    model: str
    model_name: str  # the GGUF's stem, "+" the adapter's stem when one is applied
    model_path: str
    source_quant: str
    source_sha256: str
    adapter_path: str | None = None  # the LoRA adapter applied over every llama.cpp variant
    adapter_sha256: str | None = None
    quants: list[str]
    prompt_lens: list[int]
    threads: list[int]
    repeats: int
    decode_tokens: int
    n_ctx: int
    quick: bool = False
    turn_prompts: list[str] = Field(default_factory=list)
    turn_tool_choice: str = "required"
    accuracy_suite: str | None = None
    accuracy_cases: int = 0
    hf_model: str | None = None


class BenchReport(BaseModel):
    """``report.json``: settings, machine, bandwidth, one entry per measured run."""

    schema_version: int = SCHEMA_VERSION
    created: str
    botpsy_version: str = ""
    settings: BenchSettings
    machine: MachineInfo
    bandwidth: list[BandwidthResult] = Field(default_factory=list)
    variants: list[VariantResult] = Field(default_factory=list)
    wall_s: float = 0.0
    notes: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)  # settings the run doubts (--threads 64...)
    failed: list[str] = Field(default_factory=list)  # runs that did not finish, with the reason
    partial: bool = False  # interrupted (Ctrl-C): only the runs that finished are here

    def best_decode(self) -> VariantResult | None:
        """The fastest-decoding run."""
        runs = [v for v in self.variants if v.decode_tok_s]
        return max(runs, key=lambda v: v.decode_tok_s.median, default=None)  # type: ignore[union-attr]

    def best_roofline(self) -> VariantResult | None:
        """The run closest to the bandwidth limit."""
        runs = [v for v in self.variants if v.roofline_fraction is not None]
        return max(runs, key=lambda v: v.roofline_fraction, default=None)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path) -> BenchReport:
        """Read a report.json (or the report.json inside a folder); clear errors when it is not one."""
        path = Path(path)
        if path.is_dir():
            path = path / "report.json"
        if not path.is_file():
            raise BenchError(BenchErrorKind.bad_report, f"no bench report at {path}")
        try:
            report = cls.model_validate_json(path.read_text(encoding="utf-8"))
        except ValidationError as exc:
            raise BenchError(
                BenchErrorKind.bad_report, f"{path} is not a bench report: {exc.errors()[0]['msg']}"
            ) from exc
        if report.schema_version != SCHEMA_VERSION:
            raise BenchError(
                BenchErrorKind.bad_report,
                f"{path} has schema {report.schema_version}, expected {SCHEMA_VERSION}",
            )
        return report
