"""Writing reports: JSON, Markdown, PNG plots, one self-contained HTML page."""

from __future__ import annotations

import re

import pytest

from botpsy.bench.report import (
    headline,
    method_notes,
    render_markdown,
    report_warnings,
    results_table,
    roofline_table,
    verdict,
    write_report,
)
from botpsy.bench.roofline import Bound, Diagnosis
from botpsy.bench.schema import BenchReport

from .helpers import make_report, variant_row

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_write_report_writes_every_file(tmp_path):
    report = make_report()
    files = write_report(report, tmp_path / "out")
    assert BenchReport.load(files.json) == report
    names = {p.path.name for p in files.plots}
    assert names == {"decode_tok_s.png", "ttft_vs_prompt.png", "accuracy_vs_size.png", "memory.png"}
    for plot in files.plots:
        assert plot.path.read_bytes().startswith(PNG_MAGIC)
    markdown = files.markdown.read_text()
    for name in names:
        assert f"]({name})" in markdown


def test_html_is_self_contained(tmp_path):
    files = write_report(make_report(), tmp_path)
    html = files.html.read_text()
    assert html.count('src="data:image/png;base64,') == len(files.plots)
    assert not re.search(r'src="(?!data:)', html)  # no external images or scripts
    assert "<table>" in html and "q8_0" in html


def test_plots_without_accuracy_are_skipped(tmp_path):
    report = make_report([variant_row("q4_1", 2, 100.0, 94.0, accuracy=None)])
    files = write_report(report, tmp_path)
    assert "accuracy_vs_size.png" not in {p.path.name for p in files.plots}


def test_results_table_has_a_cell_for_every_header():
    table = results_table(make_report())
    assert "TTFT s @128" in table.headers and "TTFT s @512" in table.headers
    assert all(len(row) == len(table.headers) for row in table.rows)
    assert [row[0] for row in table.rows] == ["q4_1", "q8_0"]


def test_verdict_at_the_memory_limit():
    row = variant_row("f16", 2, 90.0, 258.0)
    row.roofline_fraction = 0.82
    assert "memory-bound" in verdict(make_report([row]))


def test_verdict_below_the_limit_says_where_the_rest_goes():
    row = variant_row("q4_1", 2, 100.0, 94.0)
    row.roofline_fraction = 0.4
    row.diagnosis = Diagnosis(bound=Bound.compute, note="more threads gave x1.7")
    text = verdict(make_report([row]))
    assert "40%" in text and "more threads gave x1.7" in text


def test_markdown_warns_about_a_loaded_machine():
    report = make_report()
    report.machine.load_avg_start = [5.0, 4.0, 3.0]
    assert "other processes shared the CPU" in render_markdown(report, [])
    report.machine.load_avg_start = [0.2, 0.2, 0.2]
    assert "other processes shared the CPU" not in render_markdown(report, [])


def test_markdown_flags_runs_that_did_not_get_their_cores():
    starved, fine = variant_row("q4_1", 2, 50.0, 94.0), variant_row("q8_0", 2, 90.0, 138.0)
    starved.cpu_share, fine.cpu_share = 0.55, 0.98
    text = render_markdown(make_report([starved, fine]), [])
    assert "q4_1@2t had 55% of its 2 core(s)" in text
    assert "q8_0@2t had" not in text


def test_sizes_are_labelled_mib_and_the_roofline_recomputes_from_the_table():
    # "MB" was MiB next to decimal GB/s: MB read/token / GB/s did not give the roofline
    report = make_report()
    assert {"size MiB", "peak RSS MiB"} <= set(results_table(report).headers)
    table = roofline_table(report)
    col = {name: i for i, name in enumerate(table.headers)}
    for row, cells in zip(report.variants, table.rows, strict=True):
        mb, gb_s = float(cells[col["MB read/token"]]), report.bandwidth[0].gb_s
        row.roofline_tok_s = report.bandwidth[0].bytes_per_s / row.bytes_per_token
        assert 1000 * gb_s / mb == pytest.approx(row.roofline_tok_s, rel=1e-3)
    assert any("MiB (2^20 bytes)" in note and "GB/s" in note for note in method_notes(report))


def test_the_report_says_what_peak_rss_counts(tmp_path):
    # peak RSS read as the model's footprint: Python baseline, mmap'd weights, the bench's n_ctx
    rows = [variant_row("q4_1", 2, 100.0, 94.0)]
    rows[0].kv_cache_mb = 45.0
    report = make_report(rows)
    note = next(n for n in method_notes(report) if n.startswith("Peak RSS"))
    assert "VmHWM" in note and "~50 MiB before the model loads" in note
    assert "n_ctx=2048 (45 MiB here; the assistant allocates n_ctx=4096, 90 MiB)" in note
    memory = next(p for p in write_report(report, tmp_path).plots if p.path.name == "memory.png")
    assert "VmHWM" in memory.title and "n_ctx=2048" in memory.title


def test_warnings_open_the_report():
    starved = variant_row("q4_1", 2, 50.0, 94.0)
    starved.cpu_share = 0.5
    report = make_report([starved])
    report.failed = ["hf-fp32 with 2 thread(s) failed: [worker_failed] no tokenizer"]
    report.warnings = ["--threads 64: this machine has 2 logical core(s)"]
    text = render_markdown(report, [])
    assert text.index("## Warnings") < text.index("## Machine")
    for words in ("no tokenizer", "--threads 64", "q4_1@2t had 50%"):
        assert f"- Warning: {words}" in text or words in text.split("## Machine")[0]


def test_a_starved_bandwidth_test_is_flagged():
    # the bandwidth test ran once with no load check: a starved test understates the roofline
    report = make_report()
    report.bandwidth[0].cpu_share = 0.45
    report.bandwidth[0].load_avg = [3.1, 2.0, 1.0]
    (line,) = [w for w in report_warnings(report) if "bandwidth test" in w]
    assert "1 thread(s) had 45% of its cores" in line and "[3.1]" in line
    report.bandwidth[0].cpu_share = 0.98
    assert not any("bandwidth test" in w for w in report_warnings(report))


def test_weights_that_fit_in_the_last_level_cache_are_flagged():
    report = make_report()  # 94 and 138 MiB read per token
    report.machine.llc_bytes = 100 * 2**20
    (line,) = [w for w in report_warnings(report) if "last-level cache" in w]
    assert line.startswith("q4_1:") and "q8_0" not in line
    report.machine.llc_bytes = 32 * 2**20
    assert not any("last-level cache" in w for w in report_warnings(report))


def test_a_partial_report_says_so():
    report = make_report()
    report.partial = True
    text = render_markdown(report, [])
    assert text.startswith("# Device bench: tiny (partial)")
    assert "partial report" in text


def test_headline_shows_what_the_roofline_counted():
    row = variant_row("q4_1", 1, 100.0, 112.1)
    row.adapter_mb = 18.3
    line = headline(row)
    assert "size 112.1 MiB incl. 18.3 MiB adapter" in line
    assert f"at {row.bytes_per_token / 1e6:.1f} MB read/token" in line
