"""Comparing two reports: pairing runs, ratios, which side is better."""

from __future__ import annotations

import pytest

from botpsy.bench.compare import RatioRow, compare, pair_runs, render_comparison

from .helpers import make_report, variant_row


def metric(comparison, run: str, name: str) -> RatioRow:
    return next(r for r in comparison.rows if r.run == run and r.metric == name)


def test_ratios_are_b_over_a_and_know_which_way_is_better():
    a = make_report([variant_row("q8_0", 2, 80.0, 138.0)], cpu="Laptop")
    b_row = variant_row("q8_0", 2, 120.0, 138.0)
    b_row.peak_rss_mb = 450.0
    b = make_report([b_row], cpu="Desktop")
    result = compare(a, b)
    decode = metric(result, "q8_0@2t", "decode tok/s")
    assert decode.ratio == pytest.approx(1.5) and decode.b_is_better is True
    memory = metric(result, "q8_0@2t", "peak RSS MB")
    assert (
        memory.ratio == pytest.approx(1.5) and memory.b_is_better is False
    )  # more memory is worse
    same = metric(result, "q8_0@2t", "load s")
    assert same.ratio == 1.0 and same.b_is_better is None
    assert "Laptop" in result.a_name and "Desktop" in result.b_name


def test_ttft_is_compared_at_the_longest_common_prompt():
    a = make_report(prompt_lens=(128, 512))
    b = make_report(prompt_lens=(128, 512, 2048))
    names = {row.metric for row in compare(a, b).rows}
    assert "TTFT s @512" in names and "prefill tok/s @512" in names
    assert not any("2048" in name for name in names)


def test_runs_pair_by_variant_at_the_most_threads_when_thread_counts_differ():
    a = make_report([variant_row("q8_0", 1, 50.0, 138.0), variant_row("q8_0", 2, 80.0, 138.0)])
    b = make_report([variant_row("q8_0", 8, 300.0, 138.0), variant_row("f16", 8, 200.0, 258.0)])
    pairs = pair_runs(a, b)
    assert [(ra.key, rb.key) for ra, rb in pairs] == [("q8_0@2t", "q8_0@8t")]
    assert metric(compare(a, b), "q8_0@2t / q8_0@8t", "decode tok/s").ratio == pytest.approx(3.75)


def test_missing_values_give_no_ratio():
    a = make_report([variant_row("q8_0", 2, 80.0, 138.0, accuracy=None)])
    b = make_report([variant_row("q8_0", 2, 80.0, 138.0, accuracy=0.5)])
    row = metric(compare(a, b), "q8_0@2t", "accuracy")
    assert row.ratio is None and row.b_is_better is None


def test_render_has_one_line_per_ratio():
    result = compare(make_report(), make_report())
    table = render_comparison(result)
    assert table.row_count == len(result.rows) > 0
