"""Comparing two reports: pairing runs, ratios, which side is better."""

from __future__ import annotations

import json

import pytest

from botpsy.bench.compare import RatioRow, compare, pair_runs, render_comparison, write_comparison

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
    memory = metric(result, "q8_0@2t", "peak RSS MiB")
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


def test_every_difference_between_the_reports_is_a_warning():
    # compare gave a ratio table with no word about different CPUs, builds, models or settings
    a = make_report([variant_row("q8_0", 2, 80.0, 138.0)], cpu="Laptop")
    b = make_report([variant_row("q8_0", 2, 120.0, 138.0)], cpu="Desktop")
    a.machine.packages, b.machine.packages = {"llama_cpp_python": "0.3.36"}, {
        "llama_cpp_python": "0.3.40"}
    b.settings.model_name, b.settings.source_sha256 = "other", "f" * 64
    b.settings.decode_tokens, b.settings.n_ctx, b.settings.threads = 64, 4096, [8]
    b.settings.adapter_sha256 = "a" * 64
    warnings = "\n".join(compare(a, b).warnings)
    expected = [
        "CPU differs: A 'Laptop', B 'Desktop'",
        "llama_cpp_python version differs: A 0.3.36, B 0.3.40",
        "model differs",
        "model sha256 differs",
        "adapter sha256 differs",
        "decode tokens differs: A 32, B 64",
        "n_ctx differs",
        "threads differs: A [1, 2], B [8]",
    ]
    for words in expected:
        assert words in warnings
    assert compare(a, a).warnings == []


def test_pairing_different_thread_counts_is_said():
    # 1-thread runs were silently paired with 8-thread ones
    a = make_report([variant_row("q8_0", 1, 50.0, 138.0)])
    b = make_report([variant_row("q8_0", 8, 300.0, 138.0)])
    result = compare(a, b)
    assert result.thread_pairs == [(1, 8)]
    assert any("A's 1-thread runs are paired with B's 8-thread runs" in w for w in result.warnings)
    same = compare(a, a)
    assert same.thread_pairs == [(1, 1)] and not any("paired" in w for w in same.warnings)


def test_the_reports_own_warnings_are_carried():
    starved = variant_row("q8_0", 2, 50.0, 138.0)
    starved.cpu_share = 0.5
    a, b = make_report([variant_row("q8_0", 2, 80.0, 138.0)]), make_report([starved])
    b.partial = True
    warnings = compare(a, b).warnings
    assert any(w.startswith("B: q8_0@2t had 50% of its 2 core(s)") for w in warnings)
    assert any(w.startswith("B: partial report") for w in warnings)
    assert not any(w.startswith("A:") for w in warnings)


def test_comparison_json_and_markdown_open_with_the_warnings(tmp_path):
    a = make_report([variant_row("q8_0", 2, 80.0, 138.0)], cpu="Laptop")
    b = make_report([variant_row("q8_0", 2, 120.0, 138.0)], cpu="Desktop")
    json_path, md_path = write_comparison(compare(a, b), tmp_path)
    data = json.loads(json_path.read_text())
    assert next(iter(data)) == "warnings" and "CPU differs" in data["warnings"][0]
    assert any(r["metric"] == "decode tok/s" and r["ratio"] == 1.5 for r in data["rows"])
    markdown = md_path.read_text()
    assert markdown.index("## Warnings") < markdown.index("## Ratios")
    assert "| q8_0@2t | decode tok/s | 80 | 120 | 1.50x | higher |" in markdown


def test_runs_left_out_of_the_pairing_are_named():
    a = make_report([variant_row("q8_0", 1, 50.0, 138.0), variant_row("q8_0", 2, 80.0, 138.0)])
    b = make_report([variant_row("q8_0", 2, 90.0, 138.0), variant_row("f16", 2, 60.0, 258.0)])
    warnings = compare(a, b).warnings
    assert "runs only in A, not compared: q8_0@1t" in warnings
    assert "runs only in B, not compared: f16@2t" in warnings
