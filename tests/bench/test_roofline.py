"""Roofline arithmetic (table tests) and the bandwidth measurement."""

from __future__ import annotations

from pathlib import Path

import pytest

from botpsy.bench import roofline
from botpsy.bench.gguf_info import GgufInfo
from botpsy.bench.roofline import Bound

MIB = 2**20


def info(
    tensor_bytes: int,
    embedding: int,
    row: int,
    output: int | None,
    layers=30,
    kv_heads=3,
    head_dim=64,
) -> GgufInfo:
    return GgufInfo(
        path=Path("x.gguf"),
        file_bytes=tensor_bytes + 1000,
        tensor_bytes=tensor_bytes,
        n_params=0,
        file_type="q4_1",
        architecture="llama",
        embedding_bytes=embedding,
        embedding_row_bytes=row,
        output_bytes=output,
        n_layer=layers,
        n_head_kv=kv_heads,
        head_dim=head_dim,
    )


# SmolLM2-135M Q4_1 as shipped: 96,576,768 tensor bytes, tied Q8_0 embeddings of
# 30,081,024 bytes (49152 rows of 612 bytes).
SMOL = info(96_576_768, 30_081_024, 612, None)


@pytest.mark.parametrize(
    ("layers", "kv_heads", "head_dim", "n_past", "elem", "expected"),
    [
        (30, 3, 64, 0, 2, 0),
        (30, 3, 64, 1, 2, 2 * 30 * 3 * 64 * 2),  # K and V, every layer, f16
        (30, 3, 64, 160, 2, 160 * 23_040),
        (2, 4, 16, 10, 4, 2 * 2 * 4 * 16 * 10 * 4),  # f32 cache
    ],
)
def test_kv_read_bytes(layers, kv_heads, head_dim, n_past, elem, expected):
    assert roofline.kv_read_bytes(layers, kv_heads, head_dim, n_past, elem) == expected


def test_tied_embeddings_are_read_whole_plus_one_row():
    assert roofline.weight_read_bytes(SMOL) == 96_576_768 + 612


def test_untied_embeddings_cost_one_row_and_the_output_matrix():
    untied = info(tensor_bytes=130_000_000, embedding=30_000_000, row=600, output=30_000_000)
    # The output matrix is among the tensors; of the embedding table only one row is read.
    assert roofline.weight_read_bytes(untied) == 130_000_000 - 30_000_000 + 600


def test_decode_bytes_add_the_kv_cache_at_the_position():
    assert roofline.decode_bytes_per_token(SMOL, n_past=0) == roofline.weight_read_bytes(SMOL)
    assert (
        roofline.decode_bytes_per_token(SMOL, n_past=144) - roofline.weight_read_bytes(SMOL)
        == 144 * 23_040
    )


@pytest.mark.parametrize(
    ("bandwidth", "per_token", "limit"),
    [(30e9, 100_000_000, 300.0), (10e9, 50_000_000, 200.0), (1e9, 1e9, 1.0)],
)
def test_roofline_tok_s(bandwidth, per_token, limit):
    assert roofline.roofline_tok_s(bandwidth, int(per_token)) == pytest.approx(limit)


def test_fraction_and_effective_bandwidth_are_consistent():
    limit = roofline.roofline_tok_s(30e9, 96_577_380)
    fraction = roofline.roofline_fraction(250.0, limit)
    assert fraction == pytest.approx(250.0 * 96_577_380 / 30e9)
    assert roofline.effective_bandwidth(250.0, 96_577_380) / 30e9 == pytest.approx(fraction)


@pytest.mark.parametrize("bad", [0, -1])
def test_non_positive_inputs_are_rejected(bad):
    with pytest.raises(ValueError):
        roofline.roofline_tok_s(30e9, bad)
    with pytest.raises(ValueError):
        roofline.roofline_fraction(10.0, bad)


@pytest.mark.parametrize(
    ("fraction", "speedup", "scaling", "bound"),
    [
        (0.80, None, None, Bound.memory),
        (0.75, 1.9, 1.0, Bound.memory),  # at the threshold: memory, whatever the threads did
        (0.40, None, None, Bound.unknown),
        (0.40, 1.6, 1.1, Bound.compute),  # decode grew far more than the bandwidth did
        (0.40, 1.3, 1.0, Bound.compute),
        (0.40, 1.05, None, Bound.overhead),
        (0.40, 0.7, 1.2, Bound.overhead),  # more threads were slower: contention
    ],
)
def test_diagnose(fraction, speedup, scaling, bound):
    result = roofline.diagnose(fraction * 100, 100.0, speedup, bandwidth_scaling=scaling)
    assert result.bound is bound
    assert f"{fraction:.0%}" in result.note


@pytest.mark.parametrize(
    ("speedup", "scaling", "words"),
    [
        # one core cannot saturate memory on client CPUs: bandwidth grew as much as decode
        (1.6, 1.6, "about what the bandwidth itself grew (x1.60)"),
        (1.6, 1.5, "about what the bandwidth itself grew"),
        # the bandwidth's own scaling was not measured: no verdict from the threads
        (1.6, None, "was not measured"),
    ],
)
def test_a_thread_speedup_the_bandwidth_explains_proves_no_arithmetic(speedup, scaling, words):
    # diagnose called any speedup >= 1.3 "arithmetic, which memory alone would not"
    result = roofline.diagnose(40.0, 100.0, speedup, bandwidth_scaling=scaling)
    assert result.bound is Bound.unknown and words in result.note
    assert "undetermined" in result.note and result.bandwidth_scaling == scaling


def test_compute_verdict_names_both_scalings():
    result = roofline.diagnose(40.0, 100.0, 1.8, bandwidth_scaling=1.2)
    assert result.bound is Bound.compute
    assert "x1.80 decode while the bandwidth grew only x1.20" in result.note


def test_diagnose_splits_the_time_per_token():
    result = roofline.diagnose(50.0, 200.0, 1.6, bandwidth_scaling=1.1)  # 20 ms/token; bytes 5 ms
    assert result.ms_per_token == pytest.approx(20.0) and result.memory_floor_ms == 5.0
    assert "20.0 ms/token, of which 5.0 ms" in result.note and "other 15.0 ms" in result.note


@pytest.mark.parametrize(
    ("speedup", "share", "bound", "words"),
    [
        (None, 0.4, Bound.compute, "x2.5 more bytes/s"),
        (1.05, 0.4, Bound.compute, "more bytes/s"),  # peers prove memory could deliver more
        (1.05, 0.9, Bound.overhead, "not saturated"),  # as fast as its peers: not this format
        (None, 0.9, Bound.unknown, "--threads"),
        (1.6, 0.4, Bound.compute, "gave x1.60"),  # thread evidence comes first
    ],
)
def test_diagnose_with_the_peers_bandwidth(speedup, share, bound, words):
    result = roofline.diagnose(30.0, 100.0, speedup, share, bandwidth_scaling=1.1)
    assert result.bound is bound and words in result.note


@pytest.mark.parametrize(
    ("llc", "available", "expected"),
    [
        (None, None, 256 * MIB),
        (32 * MIB, None, 256 * MIB),
        (64 * MIB, None, 512 * MIB),  # 8x the cache
        (64 * MIB, 1024 * MIB, 256 * MIB),  # at most a quarter of free memory
        (None, 100 * MIB, 64 * MIB),  # never below 64 MiB
    ],
)
def test_stream_array_bytes(llc, available, expected):
    assert roofline.stream_array_bytes(llc, available) == expected


@pytest.mark.parametrize("threads", [1, 2])
def test_measure_bandwidth_reports_best_of_repeats(threads):
    result = roofline.measure_bandwidth(threads=threads, array_bytes=16 * MIB, repeats=3)
    assert result.threads == threads
    assert len(result.repeats_gb_s) == 3
    assert result.gb_s == pytest.approx(max(result.repeats_gb_s), rel=1e-3)
    assert result.array_mb == pytest.approx(16, rel=1e-6)
    assert 0.1 < result.gb_s < 10_000


def test_measure_bandwidth_rejects_zero_threads():
    with pytest.raises(ValueError):
        roofline.measure_bandwidth(threads=0, array_bytes=MIB)


def test_measure_bandwidth_records_its_cpu_share():
    result = roofline.measure_bandwidth(threads=1, array_bytes=16 * MIB, repeats=3)
    assert result.cpu_share is not None and 0.2 < result.cpu_share <= 1.2


def test_adapter_bytes_are_read_every_step():
    from dataclasses import replace

    assert roofline.weight_read_bytes(replace(SMOL, adapter_bytes=19_192_320)) == (
        96_576_768 + 612 + 19_192_320)
