"""Writing reports: JSON, Markdown, PNG plots, one self-contained HTML page."""

from __future__ import annotations

import re

from botpsy.bench.report import render_markdown, results_table, verdict, write_report
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
