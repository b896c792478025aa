"""From raw worker results to report rows: medians, roofline fractions, diagnoses.

Pure functions of their inputs (no model, no timing), so the arithmetic of the
report is tested on its own.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from botpsy.backends.quantize import Variant
from botpsy.bench import roofline
from botpsy.bench.gguf_info import GgufInfo
from botpsy.bench.roofline import BandwidthResult
from botpsy.bench.schema import RawRepeat, Stat, VariantResult, WorkerResult

MB = 2**20  # the report's sizes are MiB (labelled so); bandwidths are decimal GB/s


def bandwidth_for(threads: int, measured: list[BandwidthResult]) -> BandwidthResult | None:
    """The bandwidth measured with ``threads`` threads, else with the most threads not above it,
    else the fewest measured (a decode with t threads can stream no faster than t readers)."""
    if not measured:
        return None
    exact = [b for b in measured if b.threads == threads]
    if exact:
        return exact[0]
    below = [b for b in measured if b.threads < threads]
    if below:
        return max(below, key=lambda b: b.threads)
    return min(measured, key=lambda b: b.threads)


@dataclass(frozen=True)
class PrefillStats:
    """Per prompt length: time to first token and prefill tokens/s."""

    ttft_s: dict[int, Stat]
    tok_s: dict[int, Stat]


def prefill_stats(repeats: list[RawRepeat]) -> PrefillStats:
    """TTFT and prefill tokens/s per prompt length over the repeats."""
    ttft: dict[int, list[float]] = defaultdict(list)
    speed: dict[int, list[float]] = defaultdict(list)
    for repeat in repeats:
        for sample in repeat.prefill:
            ttft[sample.prompt_tokens].append(sample.ttft_s)
            speed[sample.prompt_tokens].append(sample.tok_s)
    return PrefillStats(
        ttft_s={n: Stat.of(v) for n, v in sorted(ttft.items())},  # type: ignore[misc]
        tok_s={n: Stat.of(v) for n, v in sorted(speed.items())},  # type: ignore[misc]
    )


def decode_position(repeats: list[RawRepeat]) -> int:
    """Mean context position during decode: where the KV-cache reads are counted."""
    samples = [r.decode for r in repeats if r.decode]
    if not samples:
        return 0
    return round(sum(s.n_past + s.tokens / 2 for s in samples) / len(samples))


def read_bytes_per_token(result: WorkerResult, info: GgufInfo | None, n_past: int) -> int | None:
    """Bytes one decode step reads: from the GGUF tensor table, or the worker's weight count (HF)."""
    if info is not None:
        return roofline.decode_bytes_per_token(info, n_past)
    if result.weight_bytes is not None:
        return result.weight_bytes + (result.kv_bytes_per_position or 0) * n_past
    return None


def kv_cache_bytes(result: WorkerResult, info: GgufInfo) -> int:
    """The f16 KV cache llama.cpp allocates up front for the job's n_ctx: part of peak RSS."""
    return roofline.kv_read_bytes(info.n_layer, info.n_head_kv, info.head_dim, result.job.n_ctx)


def summarize_run(
    result: WorkerResult,
    *,
    size_bytes: int,
    bandwidth: list[BandwidthResult],
    info: GgufInfo | None = None,
    variant: Variant | None = None,
) -> VariantResult:
    """One report row from one worker result. ``info``/``variant`` are given for GGUF runs."""
    job = result.job
    prefill = prefill_stats(result.repeats)
    decode = Stat.of([r.decode.tok_s for r in result.repeats if r.decode])
    decode_1t = Stat.of([r.decode_1t.tok_s for r in result.repeats if r.decode_1t])
    shares = [r.decode.cpu_share(job.threads) for r in result.repeats if r.decode]
    cpu_share = Stat.of([x for x in shares if x is not None])
    timed_turns = [t for r in result.repeats for t in r.turns]
    turns = Stat.of([t.latency_s for t in timed_turns])
    per_token = read_bytes_per_token(result, info, decode_position(result.repeats))
    bw = bandwidth_for(job.threads, bandwidth)
    limit = roofline.roofline_tok_s(bw.bytes_per_s, per_token) if bw and per_token else None
    return VariantResult(
        quant=job.label,
        backend=job.backend,
        threads=job.threads,
        path=job.model_path,
        size_mb=size_bytes / MB,
        adapter_mb=info.adapter_file_bytes / MB if info and info.adapter_path else None,
        kv_cache_mb=kv_cache_bytes(result, info) / MB if info else None,
        source_quant=variant.source_quant if variant else "",
        requantized=variant.requantized if variant else False,
        tensor_mb_by_type={k: v / MB for k, v in (info.bytes_by_type if info else {}).items()},
        load_s=result.load_s,
        peak_rss_mb=result.peak_rss_mb,
        model_rss_mb=result.peak_rss_mb - result.baseline_rss_mb,
        ttft_s=prefill.ttft_s,
        prefill_tok_s=prefill.tok_s,
        decode_tok_s=decode,
        decode_tok_s_1t=decode_1t,
        cpu_share=cpu_share.median if cpu_share else None,
        bytes_per_token=per_token,
        roofline_tok_s=limit,
        roofline_fraction=roofline.roofline_fraction(decode.median, limit)
        if decode and limit
        else None,
        effective_gb_s=roofline.effective_bandwidth(decode.median, per_token) / 1e9
        if decode and per_token
        else None,
        turn_latency_s=turns,
        turn_call_rate=sum(t.made_call for t in timed_turns) / len(timed_turns)
        if timed_turns
        else None,
        accuracy=result.accuracy.accuracy if result.accuracy else None,
        accuracy_detail=result.accuracy,
        raw=result.repeats,
    )


@dataclass(frozen=True)
class ThreadScaling:
    """Decode with ``threads`` threads over decode with one."""

    speedup: float
    threads: int


def thread_speedup(row: VariantResult, rows: list[VariantResult]) -> ThreadScaling | None:
    """Decode with more threads over decode with one: from the run's own one-thread probe,
    else from the same variant's separate one-thread and widest runs."""
    if row.decode_tok_s is None:
        return None
    if row.decode_tok_s_1t is not None:
        return ThreadScaling(row.decode_tok_s.median / row.decode_tok_s_1t.median, row.threads)
    same = {
        r.threads: r.decode_tok_s.median
        for r in rows
        if (r.backend, r.quant) == (row.backend, row.quant) and r.decode_tok_s
    }
    if 1 not in same or len(same) < 2:
        return None
    return ThreadScaling(same[max(same)] / same[1], max(same))


def bandwidth_scaling(threads: int, measured: list[BandwidthResult]) -> float | None:
    """Bandwidth with ``threads`` threads over bandwidth with one, when both were measured."""
    by_threads = {b.threads: b.bytes_per_s for b in measured}
    if 1 not in by_threads or threads not in by_threads:
        return None
    return by_threads[threads] / by_threads[1]


def bandwidth_share(row: VariantResult, rows: list[VariantResult]) -> float | None:
    """This run's effective read bandwidth over the best of the runs with the same backend and
    threads (None when it is the only one)."""
    peers = [
        r.effective_gb_s
        for r in rows
        if (r.backend, r.threads) == (row.backend, row.threads) and r.effective_gb_s
    ]
    if row.effective_gb_s is None or len(peers) < 2:
        return None
    return row.effective_gb_s / max(peers)


def attach_diagnoses(
    rows: list[VariantResult], bandwidth: list[BandwidthResult] | None = None
) -> None:
    """Diagnose every run from its roofline fraction, thread scaling (against the bandwidth's
    own scaling over the same thread counts) and peers' bandwidth."""
    for row in rows:
        if row.decode_tok_s is not None and row.roofline_tok_s:
            scaling = thread_speedup(row, rows)
            row.diagnosis = roofline.diagnose(
                row.decode_tok_s.median,
                row.roofline_tok_s,
                scaling.speedup if scaling else None,
                bandwidth_share(row, rows),
                bandwidth_scaling(scaling.threads, bandwidth or []) if scaling else None,
            )


def share_accuracy(rows: list[VariantResult]) -> None:
    """Accuracy does not depend on the thread count: runs without their own measurement
    take the one measured for the same variant."""
    measured = {(r.backend, r.quant): r for r in rows if r.accuracy_detail is not None}
    for row in rows:
        source = measured.get((row.backend, row.quant))
        if row.accuracy is None and source is not None:
            row.accuracy = source.accuracy
