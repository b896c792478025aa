"""From raw worker results to report rows (pure arithmetic, no model)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from botpsy.backends.quantize import Variant
from botpsy.bench.gguf_info import GgufInfo
from botpsy.bench.roofline import BandwidthResult, Bound, decode_bytes_per_token
from botpsy.bench.schema import (
    AccuracyResult,
    DecodeSample,
    PrefillSample,
    RawRepeat,
    Stat,
    TurnSample,
    WorkerJob,
    WorkerResult,
)
from botpsy.bench.summary import (
    attach_diagnoses,
    bandwidth_for,
    decode_position,
    share_accuracy,
    summarize_run,
)

from .helpers import variant_row

INFO = GgufInfo(
    path=Path("m.gguf"),
    file_bytes=98_000_000,
    tensor_bytes=96_576_768,
    n_params=134_515_008,
    file_type="q8_0",
    architecture="llama",
    embedding_bytes=30_081_024,
    embedding_row_bytes=612,
    output_bytes=None,
    n_layer=30,
    n_head_kv=3,
    head_dim=64,
    bytes_by_type={"q8_0": 96_436_224, "f32": 140_544},
)


def bw(threads: int, gb_s: float) -> BandwidthResult:
    return BandwidthResult(
        threads=threads, bytes_per_s=gb_s * 1e9, array_mb=256, repeats_gb_s=[gb_s]
    )


def worker_result(
    decode_seconds: list[float], *, threads: int = 2, accuracy: AccuracyResult | None = None
) -> WorkerResult:
    job = WorkerJob(
        model_path="m.gguf",
        label="q8_0",
        threads=threads,
        prompt_lens=[128, 512],
        decode_tokens=32,
        repeats=len(decode_seconds),
        n_ctx=2048,
    )
    repeats = [
        RawRepeat(
            repeat=i,
            prefill=[
                PrefillSample(prompt_tokens=128, ttft_s=0.4 + i * 0.1),
                PrefillSample(prompt_tokens=512, ttft_s=2.0),
            ],
            decode=DecodeSample(
                tokens=32, seconds=seconds, n_past=128, cpu_s=seconds * threads * 0.95
            ),
            turns=[
                TurnSample(
                    prompt_id="weather", latency_s=1.0 + i, made_call=True, stopped_at_call=True
                )
            ],
        )
        for i, seconds in enumerate(decode_seconds)
    ]
    return WorkerResult(
        job=job,
        load_s=0.5,
        baseline_rss_mb=50.0,
        peak_rss_mb=300.0,
        repeats=repeats,
        accuracy=accuracy,
    )


@pytest.mark.parametrize(
    ("threads", "expected"),
    [(1, 1), (2, 2), (3, 2), (8, 4), (0, 1)],
)
def test_bandwidth_for_picks_the_closest_not_above(threads, expected):
    measured = [bw(1, 20.0), bw(2, 30.0), bw(4, 35.0)]
    assert bandwidth_for(threads, measured).threads == expected


def test_bandwidth_for_nothing_measured():
    assert bandwidth_for(2, []) is None


def test_decode_position_is_the_mean_context_during_decode():
    result = worker_result([0.4, 0.5])
    assert decode_position(result.repeats) == 128 + 16


def test_summarize_run_medians_and_roofline():
    result = worker_result([0.4, 0.5, 0.32])  # 80, 64, 100 tok/s
    variant = Variant(quant="q8_0", path=Path("m.gguf"), source_quant="q4_1")
    row = summarize_run(
        result,
        size_bytes=98_000_000,
        bandwidth=[bw(1, 20.0), bw(2, 30.0)],
        info=INFO,
        variant=variant,
    )
    assert row.decode_tok_s.median == pytest.approx(80.0)
    assert (row.decode_tok_s.min, row.decode_tok_s.max) == pytest.approx((64.0, 100.0))
    assert row.ttft_s[128].median == pytest.approx(0.5) and row.ttft_s[512].median == 2.0
    assert row.prefill_tok_s[512].median == pytest.approx(256.0)
    per_token = decode_bytes_per_token(INFO, 144)
    assert row.bytes_per_token == per_token
    assert row.roofline_tok_s == pytest.approx(30e9 / per_token)  # the 2-thread bandwidth
    assert row.roofline_fraction == pytest.approx(80.0 / (30e9 / per_token))
    assert row.effective_gb_s == pytest.approx(80.0 * per_token / 1e9)
    assert row.model_rss_mb == 250.0 and row.peak_rss_mb == 300.0
    assert row.turn_latency_s.median == pytest.approx(2.0)
    assert row.turn_call_rate == 1.0
    assert row.cpu_share == pytest.approx(0.95)
    assert row.requantized and row.source_quant == "q4_1"
    assert row.tensor_mb_by_type["q8_0"] == pytest.approx(96_436_224 / 2**20)
    assert row.size_mb == pytest.approx(98_000_000 / 2**20)
    assert len(row.raw) == 3


def test_summarize_transformers_run_uses_the_worker_weight_count():
    result = worker_result([0.5])
    result.job.backend = "transformers"
    result.weight_bytes, result.kv_bytes_per_position = 538_000_000, 46_080
    row = summarize_run(result, size_bytes=538_000_000, bandwidth=[bw(2, 30.0)])
    assert row.bytes_per_token == 538_000_000 + 46_080 * 144
    assert row.backend == "transformers"


def test_summarize_without_bandwidth_leaves_the_roofline_empty():
    row = summarize_run(worker_result([0.5]), size_bytes=1, bandwidth=[], info=INFO)
    assert row.roofline_fraction is None and row.roofline_tok_s is None
    assert row.decode_tok_s.median == 64.0


def test_diagnoses_use_the_thread_speedup_of_the_same_variant():
    one, two = variant_row("q4_1", 1, 60.0, 94.0), variant_row("q4_1", 2, 100.0, 94.0)
    alone = variant_row("q8_0", 2, 80.0, 138.0)
    attach_diagnoses([one, two, alone], [bw(1, 20.0), bw(2, 22.0)])
    assert two.diagnosis.bound is Bound.compute and "x1.67" in two.diagnosis.note
    assert two.diagnosis.bandwidth_scaling == pytest.approx(1.1)
    # the 1-thread run is judged by the 1-to-2-thread evidence, bandwidth scaling included
    assert one.diagnosis.bandwidth_scaling == pytest.approx(1.1)
    assert one.diagnosis.thread_speedup == two.diagnosis.thread_speedup  # the same evidence
    assert alone.diagnosis.bound is Bound.unknown  # no 1-thread run, no peers: no evidence


def test_the_one_thread_probe_of_a_run_is_its_own_evidence():
    row = variant_row("q8_0", 2, 120.0, 138.0)
    row.decode_tok_s_1t = Stat.of([60.0, 62.0])
    attach_diagnoses([row], [bw(1, 20.0), bw(2, 22.0)])
    assert row.diagnosis.bound is Bound.compute and "x1.97" in row.diagnosis.note


def test_a_speedup_matching_the_bandwidth_scaling_is_undetermined():
    # one core reached half the bandwidth: decode x1.97 with 2 threads proves no arithmetic
    row = variant_row("q8_0", 2, 120.0, 138.0)
    row.decode_tok_s_1t = Stat.of([60.0, 62.0])
    attach_diagnoses([row], [bw(1, 12.0), bw(2, 22.0)])
    assert row.diagnosis.bound is Bound.unknown and "x1.83" in row.diagnosis.note
    attach_diagnoses([row], [bw(2, 22.0)])  # the 1-thread bandwidth was not measured
    assert row.diagnosis.bound is Bound.unknown and "not measured" in row.diagnosis.note


def test_a_variant_far_below_its_peers_bandwidth_is_compute_bound():
    slow, fast = variant_row("q4_1", 2, 100.0, 94.0), variant_row("f16", 2, 95.0, 258.0)
    attach_diagnoses([slow, fast])
    assert slow.diagnosis.bound is Bound.compute and "more bytes/s" in slow.diagnosis.note
    assert fast.diagnosis.bound is Bound.unknown  # the best streamer has no peer to beat it


def test_accuracy_is_shared_between_thread_counts():
    measured = variant_row("q8_0", 2, 80.0, 138.0, accuracy=0.75)
    other = variant_row("q8_0", 1, 50.0, 138.0, accuracy=None)
    unrelated = variant_row("q4_0", 1, 50.0, 88.0, accuracy=None)
    share_accuracy([measured, other, unrelated])
    assert other.accuracy == 0.75 and unrelated.accuracy is None


def test_the_adapter_is_read_every_step_and_counted_in_the_row():
    adapted = replace(INFO, adapter_path=Path("a.gguf"), adapter_bytes=19_192_320,
                      adapter_file_bytes=19_221_056)
    plain = summarize_run(worker_result([0.5]), size_bytes=1, bandwidth=[bw(2, 30.0)], info=INFO)
    row = summarize_run(worker_result([0.5]), size_bytes=1, bandwidth=[bw(2, 30.0)], info=adapted)
    assert row.bytes_per_token - plain.bytes_per_token == 19_192_320
    assert row.roofline_tok_s < plain.roofline_tok_s
    assert row.adapter_mb == pytest.approx(19_221_056 / 2**20) and plain.adapter_mb is None


def test_the_kv_cache_of_the_bench_context_is_recorded():
    row = summarize_run(worker_result([0.5]), size_bytes=1, bandwidth=[], info=INFO)
    assert row.kv_cache_mb == pytest.approx(2 * 30 * 3 * 64 * 2048 * 2 / 2**20)  # 45 MiB
