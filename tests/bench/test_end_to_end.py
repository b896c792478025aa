"""A tiny bench on the real default model, end to end: quantize, workers, report files."""

from __future__ import annotations

import pytest

from botpsy.bench.config import BenchConfig
from botpsy.bench.report import write_report
from botpsy.bench.runner import run_bench
from botpsy.bench.schema import BenchReport

pytestmark = pytest.mark.model


def test_tiny_bench_on_smollm2(default_gguf, tmp_path):
    steps: list[tuple[int, int]] = []
    config = BenchConfig.create(
        model=str(default_gguf),
        out_dir=tmp_path / "out",
        cache_dir=tmp_path / "cache",
        quants=["source", "q8_0"],
        prompt_lens=[32, 64],
        threads=[1],
        repeats=1,
        decode_tokens=8,
        accuracy_cases=1,
        turns=1,
        turn_max_tokens=48,
    )
    report = run_bench(config, lambda done, total, what: steps.append((done, total)))
    files = write_report(report, config.out_dir)

    assert [(v.quant, v.threads) for v in report.variants] == [("q4_1", 1), ("q8_0", 1)]
    assert report.settings.source_quant == "q4_1" and not report.notes
    source, q8 = report.variants
    assert not source.requantized and q8.requantized and q8.size_mb > source.size_mb
    for row in report.variants:
        assert set(row.ttft_s) == {32, 64} and row.ttft_s[64].median > 0
        assert row.decode_tok_s.median > 1 and 0 < row.roofline_fraction < 2
        assert row.peak_rss_mb > row.size_mb and row.load_s > 0
        assert row.turn_latency_s is not None and row.accuracy is not None
        assert row.bytes_per_token > row.size_mb * 2**20 * 0.9
    assert steps[-1][0] == steps[-1][1]  # progress reached its total
    assert BenchReport.load(files.json) == report
    assert len(files.plots) == 4 and files.html.stat().st_size > 10_000
    assert list((tmp_path / "cache").glob("*-q8_0.gguf"))  # the variant was cached
