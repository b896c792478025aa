"""The decode-speed limit of this machine: memory bandwidth / bytes read per token.

Generating one token with a small dense model reads every weight once (and the
KV cache so far), while the arithmetic per byte is low, so on a CPU decode speed
is bounded above by ``bandwidth / bytes_per_token``. Here:

- ``measure_bandwidth`` measures the streaming-read bandwidth with numpy: the
  sum of a float64 array several times larger than the last-level cache,
  best of several repeats, single- and multi-threaded (numpy releases the GIL in
  reductions, so threads summing disjoint slices read memory in parallel);
- the rest are pure functions of their inputs (tested by table): bytes per
  token from a GGUF's tensor table, the roofline speed, the fraction of it a
  measured speed reaches, and a plain-words diagnosis of where the rest goes.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from enum import Enum

from pydantic import BaseModel, Field

from botpsy.bench.gguf_info import GgufInfo

MIB = 1 << 20
MIN_STREAM_BYTES = 256 * MIB
LLC_MULTIPLE = 8  # stream over 8x the last-level cache so it cannot serve the reads
MEMORY_BOUND_FRACTION = 0.75  # at or above this a variant is limited by bandwidth
THREAD_SPEEDUP_COMPUTE = 1.3  # more threads helping this much may mean arithmetic is the limit
# ... but only when decode gained this much more than the bandwidth itself did from 1 to N threads
# (on client CPUs one core cannot saturate memory, so bandwidth grows with threads too)
BEYOND_BANDWIDTH_SCALING = 1.15


class BandwidthResult(BaseModel):
    """Best-of streaming-read bandwidth with ``threads`` threads (bytes per second).

    ``cpu_share``: CPU time over ``threads`` x wall time during the best repeat; well
    below 1, other processes took the cores and the bandwidth (so the roofline) is
    understated. ``load_avg``: the 1/5/15-minute load average just before the test."""

    threads: int
    bytes_per_s: float
    array_mb: float
    repeats_gb_s: list[float]
    cpu_share: float | None = None
    load_avg: list[float] = Field(default_factory=list)

    @property
    def gb_s(self) -> float:
        return self.bytes_per_s / 1e9


class Bound(str, Enum):
    """What limits a variant's decode speed."""

    memory = "memory"  # close to the bandwidth roofline
    compute = "compute"  # more cores help: dequantization and dot products dominate
    overhead = "overhead"  # neither: fixed per-token costs or other processes on the CPU
    unknown = "unknown"  # below the roofline, and the evidence cannot tell why


class Diagnosis(BaseModel):
    """Where a variant's decode time goes, in one category and one sentence, with the evidence."""

    bound: Bound
    note: str
    thread_speedup: float | None = None
    bandwidth_share: float | None = None
    bandwidth_scaling: float | None = None  # bandwidth with the run's threads / with one
    ms_per_token: float | None = None
    memory_floor_ms: float | None = None  # bytes per token at full bandwidth


def stream_array_bytes(llc_bytes: int | None, available_bytes: int | None) -> int:
    """Size of the bandwidth test array: >= 8x the LLC, >= 256 MiB, <= a quarter of free RAM."""
    size = max(MIN_STREAM_BYTES, LLC_MULTIPLE * (llc_bytes or 0))
    if available_bytes:
        size = min(size, max(available_bytes // 4, 64 * MIB))
    return size


def measure_bandwidth(
    threads: int = 1, array_bytes: int = MIN_STREAM_BYTES, repeats: int = 5
) -> BandwidthResult:
    """Best-of-``repeats`` read bandwidth of a numpy sum over ``array_bytes`` with ``threads`` threads."""
    import numpy as np

    if threads < 1 or repeats < 1:
        raise ValueError(f"threads and repeats must be >= 1, got {threads}, {repeats}")
    data = np.ones(array_bytes // 8, dtype=np.float64)  # ones(): pages are touched before timing
    chunks = np.array_split(data, threads)
    rates, shares = [], []
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(np.sum, chunks))  # warm-up: page tables, thread start
        for _ in range(repeats):
            start, cpu_start = time.perf_counter(), time.process_time()
            list(pool.map(np.sum, chunks))
            seconds, cpu_s = time.perf_counter() - start, time.process_time() - cpu_start
            rates.append(data.nbytes / seconds)
            shares.append(cpu_s / (seconds * threads))
    best = max(range(repeats), key=rates.__getitem__)
    return BandwidthResult(
        threads=threads,
        bytes_per_s=rates[best],
        array_mb=data.nbytes / MIB,
        repeats_gb_s=[round(rate / 1e9, 3) for rate in rates],
        cpu_share=round(shares[best], 3),
    )


def kv_read_bytes(
    n_layer: int, n_head_kv: int, head_dim: int, n_past: int, bytes_per_elem: int = 2
) -> int:
    """Bytes of K and V one decode step reads at context position ``n_past`` (f16 cache by default)."""
    return 2 * n_layer * n_head_kv * head_dim * n_past * bytes_per_elem


def weight_read_bytes(info: GgufInfo) -> int:
    """Weight bytes one decode step streams.

    All tensors are read once, except the token embedding table when the output
    projection is separate: then a step reads only one embedding row. With tied
    embeddings the output matmul reads the whole table (the row lookup is extra).
    A LoRA adapter's tensors (``info.adapter_bytes``) are read once per step too.
    """
    embedding_skipped = 0 if info.tied_embeddings else info.embedding_bytes
    return info.tensor_bytes - embedding_skipped + info.embedding_row_bytes + info.adapter_bytes


def decode_bytes_per_token(info: GgufInfo, n_past: int = 0, kv_bytes_per_elem: int = 2) -> int:
    """Total bytes one decode step reads at context position ``n_past``: weights + KV cache."""
    kv = kv_read_bytes(info.n_layer, info.n_head_kv, info.head_dim, n_past, kv_bytes_per_elem)
    return weight_read_bytes(info) + kv


def roofline_tok_s(bandwidth_bytes_s: float, bytes_per_token: int) -> float:
    """The fastest possible decode: every token needs ``bytes_per_token`` from memory."""
    if bytes_per_token <= 0:
        raise ValueError(f"bytes per token must be positive, got {bytes_per_token}")
    return bandwidth_bytes_s / bytes_per_token


def roofline_fraction(decode_tok_s: float, limit_tok_s: float) -> float:
    """How much of the roofline a measured decode speed reaches (1.0 = at the limit)."""
    if limit_tok_s <= 0:
        raise ValueError(f"roofline must be positive, got {limit_tok_s}")
    return decode_tok_s / limit_tok_s


def effective_bandwidth(decode_tok_s: float, bytes_per_token: int) -> float:
    """The read bandwidth (bytes/s) a decode speed implies."""
    return decode_tok_s * bytes_per_token


def diagnose(
    decode_tok_s: float,
    limit_tok_s: float,
    thread_speedup: float | None = None,
    bandwidth_share: float | None = None,
    bandwidth_scaling: float | None = None,
) -> Diagnosis:
    """Classify a variant's decode speed against its roofline, with the evidence in words.

    The time per token splits into the floor (the bytes at full bandwidth) and
    what comes on top. ``thread_speedup``: decode tok/s with the run's threads
    over decode tok/s with one thread (None when not measured).
    ``bandwidth_scaling``: the measured bandwidth with those threads over the
    bandwidth with one (None when not measured). A speedup only proves arithmetic
    when it clearly beats the bandwidth's own growth: on client CPUs one core
    cannot saturate memory, so a memory-bound decode speeds up with threads too.
    ``bandwidth_share``: this variant's effective read bandwidth over the best any
    variant reached at the same thread count (None with a single variant); well
    below 1, memory could have delivered more.
    """
    fraction = roofline_fraction(decode_tok_s, limit_tok_s)
    ms, floor_ms = 1000 / decode_tok_s, 1000 / limit_tok_s
    pct = (
        f"{fraction:.0%} of the bandwidth roofline ({ms:.1f} ms/token, of which {floor_ms:.1f} ms "
        "streams the bytes at full bandwidth)"
    )
    rest = ms - floor_ms
    evidence = {
        "thread_speedup": thread_speedup,
        "bandwidth_share": bandwidth_share,
        "bandwidth_scaling": bandwidth_scaling,
        "ms_per_token": ms,
        "memory_floor_ms": floor_ms,
    }
    threads_helped = thread_speedup is not None and thread_speedup >= THREAD_SPEEDUP_COMPUTE
    if fraction >= MEMORY_BOUND_FRACTION:
        note = f"{pct}: memory-bound; only fewer bytes per token go faster"
        return Diagnosis(bound=Bound.memory, note=note, **evidence)
    if (
        threads_helped
        and bandwidth_scaling is not None
        and thread_speedup >= bandwidth_scaling * BEYOND_BANDWIDTH_SCALING  # type: ignore[operator]
    ):
        note = (
            f"{pct}; the other {rest:.1f} ms is arithmetic (unpacking or converting the "
            f"weights, dot products): a second thread count gave x{thread_speedup:.2f} decode "
            f"while the bandwidth grew only x{bandwidth_scaling:.2f}, which memory alone would not"
        )
        return Diagnosis(bound=Bound.compute, note=note, **evidence)
    if bandwidth_share is not None and bandwidth_share < MEMORY_BOUND_FRACTION:
        note = (
            f"{pct}; the other {rest:.1f} ms is arithmetic per byte (unpacking this "
            f"format's weights): another variant streamed x{1 / bandwidth_share:.1f} more bytes/s "
            "with the same threads, so memory could deliver more"
        )
        return Diagnosis(bound=Bound.compute, note=note, **evidence)
    if thread_speedup is not None and not threads_helped:
        note = (
            f"{pct}; threads gave x{thread_speedup:.2f} and memory is not saturated: the other "
            f"{rest:.1f} ms are fixed per-token costs (graph setup, thread sync, logits) "
            "or other processes on the CPU"
        )
        return Diagnosis(bound=Bound.overhead, note=note, **evidence)
    if threads_helped and bandwidth_scaling is None:
        note = (
            f"{pct}; threads gave x{thread_speedup:.2f} decode, but how the bandwidth itself grows "
            "from 1 thread was not measured (one core may not saturate memory), so arithmetic "
            "and memory cannot be told apart: undetermined"
        )
        return Diagnosis(bound=Bound.unknown, note=note, **evidence)
    if threads_helped:
        note = (
            f"{pct}; threads gave x{thread_speedup:.2f} decode, about what the bandwidth itself "
            f"grew (x{bandwidth_scaling:.2f}): the thread comparison cannot tell arithmetic "
            "from memory: undetermined"
        )
        return Diagnosis(bound=Bound.unknown, note=note, **evidence)
    note = f"{pct}; run with --threads 1,N to tell compute from overhead"
    return Diagnosis(bound=Bound.unknown, note=note, **evidence)
