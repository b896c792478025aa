"""Reports: report.json / report.md / accuracy.png, comparisons, mean ± std over runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from botpsy.evals.bfcl import score
from botpsy.evals.bfcl.categories import UnknownCategoryError
from botpsy.evals.bfcl.results import find_result_files, read_results, write_results
from botpsy.evals.report import (
    compare,
    comparison_markdown,
    load_report,
    runs_markdown,
    summarize_runs,
)


def test_report_files_are_written_and_read_back(oracle_run):
    scores = oracle_run.out / "scores" / "oracle"
    report = load_report(scores)
    assert report == oracle_run.report
    markdown = (scores / "report.md").read_text()
    assert "| simple_python | 100.0 | 25/400 |" in markdown
    assert "## Not run" not in markdown  # nothing was skipped in this run
    assert (scores / "accuracy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_load_report_explains_a_missing_run(tmp_path):
    with pytest.raises(FileNotFoundError, match="score the run first"):
        load_report(tmp_path)
    (tmp_path / "report.json").write_text('{"model": 3}')
    with pytest.raises(ValueError, match="report.json is not a BFCL report"):
        load_report(tmp_path)


def test_compare_refuses_a_run_that_does_not_exist(oracle_run, tmp_path, monkeypatch):
    # a typo used to fall back to the current folder and compare it with itself
    monkeypatch.chdir(oracle_run.out / "scores" / "oracle")  # holds a report.json
    with pytest.raises(FileNotFoundError, match="no run at typo-a"):
        compare("typo-a", "typo-b")


def _copied_parallel(oracle_run, tmp_path):
    """A copy of the oracle run's results, and its parallel result file."""
    model_dir = tmp_path / "results" / "oracle"
    shutil.copytree(oracle_run.model_dir, model_dir)
    return model_dir, find_result_files(model_dir)["parallel"]


@pytest.fixture(scope="module")
def broken_run(oracle_run, tmp_path_factory):
    """A copy of the oracle run whose first two parallel answers lost a call."""
    tmp_path = tmp_path_factory.mktemp("broken")
    model_dir, path = _copied_parallel(oracle_run, tmp_path)
    records = read_results(path)
    for rid in ("parallel_0", "parallel_1"):
        records[rid].result = records[rid].result[:1]
    write_results(path, records.values())
    report = score(model_dir, tmp_path, categories=["parallel", "simple_python"], progress=False)
    return report, tmp_path / "scores" / "oracle"


def test_compare_reports_deltas_and_flipped_cases(oracle_run, broken_run):
    report, scores_b = broken_run
    comparison = compare(oracle_run.out / "scores" / "oracle", scores_b / "report.json")
    rows = {row.category: row for row in comparison.categories}
    assert rows["parallel"].broken == ["parallel_0", "parallel_1"] and rows["parallel"].fixed == []
    assert rows["parallel"].delta == pytest.approx(-2 / 25)
    assert rows["simple_python"].delta == 0 and rows["simple_python"].broken == []
    assert comparison.overall_b < comparison.overall_a
    assert rows["irrelevance"].b is None and rows["irrelevance"].delta is None  # not in run B
    # two of two flips against A: p = 2 * (1/2)^2 = 0.5, far from significant
    assert rows["parallel"].p_value == pytest.approx(0.5)
    assert rows["simple_python"].p_value is None  # nothing flipped: no evidence either way
    assert "| parallel | 100.0 | 92.0 | -8.0 | 25 | 0 | 2 | 0.50 |" in comparison_markdown(
        comparison
    )
    assert comparison.non_live_a is None  # run B has no Java, JavaScript or multiple cases
    assert report.categories["parallel"].error_types == {
        "parallel_function_checker_no_order:wrong_count": 2
    }


@pytest.fixture(scope="module")
def short_run(oracle_run, tmp_path_factory):
    """A run on the first 10 parallel cases only, its first answer wrong."""
    tmp_path = tmp_path_factory.mktemp("short")
    model_dir, path = _copied_parallel(oracle_run, tmp_path)
    records = dict(list(read_results(path).items())[:10])
    records["parallel_0"].result = records["parallel_0"].result[:1]
    write_results(path, records.values())
    score(model_dir, tmp_path, categories=["parallel"], progress=False)
    return tmp_path / "scores" / "oracle"


def test_compare_scores_runs_of_different_sizes_on_their_shared_cases(oracle_run, short_run):
    """A 10-case run against a 25-case one: both are scored on the 10 cases both have."""
    comparison = compare(oracle_run.out / "scores" / "oracle", short_run)
    row = next(r for r in comparison.categories if r.category == "parallel")
    assert (row.cases, row.a, row.b) == (10, 1.0, pytest.approx(0.9))
    assert row.broken == ["parallel_0"]
    held_out = compare(oracle_run.out / "scores" / "oracle", short_run, skip_first=1)
    row = next(r for r in held_out.categories if r.category == "parallel")
    assert (row.cases, row.a, row.b, row.broken) == (9, 1.0, 1.0, [])
    assert "first 1 cases left out" in comparison_markdown(held_out)
    with pytest.raises(ValueError, match="skip_first"):
        compare(oracle_run.out / "scores" / "oracle", short_run, skip_first=-1)


def test_compare_gives_non_live_ast_with_bfcl_weighting(oracle_run, broken_run):
    comparison = compare(oracle_run.out / "scores" / "oracle", oracle_run.out / "scores" / "oracle")
    assert comparison.non_live_a == comparison.non_live_b == pytest.approx(1.0)
    assert comparison.non_live_test is not None  # every AST category compared case by case
    assert (comparison.non_live_test.fixed, comparison.non_live_test.broken) == (0, 0)
    assert "| non-live AST | 100.0 | 100.0 | +0.0 |  | 0 | 0 |  |" in comparison_markdown(
        comparison
    )


def test_runs_summary_gives_mean_and_std(oracle_run, broken_run):
    summary = summarize_runs([oracle_run.report, broken_run[0]])
    assert summary.runs == 2
    assert summary.categories["parallel"].mean == pytest.approx(0.96)
    assert summary.categories["parallel"].std == pytest.approx(0.0565685, rel=1e-4)
    assert summary.categories["simple_python"].std == 0.0
    assert "| parallel | 96.0 ± 5.7 | 2 |" in runs_markdown(summary)
    assert len(summary.categories["irrelevance"].values) == 1  # only run A has it
    with pytest.raises(ValueError):
        summarize_runs([])


def test_score_takes_collections_and_refuses_unknown_names(oracle_run, tmp_path):
    """``-c non_live`` scores the non-live files as generation reads it; a typo is an error."""
    report = score(oracle_run.model_dir, tmp_path, categories=["non_live"], progress=False)
    assert {"parallel", "simple_python", "irrelevance"} <= set(report.categories)
    assert not any(name.startswith("multi_turn") for name in report.categories)
    with pytest.raises(UnknownCategoryError, match="paralel"):
        score(oracle_run.model_dir, tmp_path, categories=["paralel"], progress=False)


def test_a_run_on_part_of_the_cases_says_so(oracle_run, short_run):
    """10 of 200 parallel cases: the groups it feeds are incomplete, and the report warns."""
    import json

    report = json.loads((short_run / "report.json").read_text())
    assert report["categories"]["parallel"]["total"] == 10
    assert report["overall"]["groups"]["non_live"]["complete"] is False
    text = (short_run / "report.md").read_text()
    assert "**Partial run**: parallel 10/200 cases" in text
    from botpsy.evals.bfcl.run_report import bfcl_markdown
    from botpsy.evals.bfcl.score import BfclReport

    # a complete run's report (botpsy-smol on all 1,390 non-live cases), kept as test data
    full = Path(__file__).parents[1] / "data" / "bfcl_full_report.json"
    whole = BfclReport.model_validate_json(full.read_text())
    assert "Partial run" not in bfcl_markdown(whole)  # all 1,390 non-live cases


def test_strict_fc_scoring_reads_the_raw_text_and_says_so(oracle_run, tmp_path):
    """--strict-fc decodes answers from raw text as BFCL's Hermes handler: a repaired call
    (here: the raw text's closing tag lost) counts for botpsy's parser, not for BFCL's."""
    model_dir, path = _copied_parallel(oracle_run, tmp_path)
    records = read_results(path)
    first = records["parallel_0"]
    calls = [{"name": n, "arguments": a} for call in first.result for n, a in call.items()]
    first.raw = "\n".join(f"<tool_call>\n{json.dumps(c)}\n</tool_call>" for c in calls)
    records["parallel_1"].raw = "<tool_call>\n" + json.dumps(calls[0])  # unclosed
    write_results(path, records.values())
    lenient = score(model_dir, tmp_path / "a", categories=["parallel"], progress=False)
    strict = score(model_dir, tmp_path / "b", categories=["parallel"], progress=False,
                   strict_fc=True)
    a, b = lenient.categories["parallel"], strict.categories["parallel"]
    assert b.correct < a.correct and strict.decoding == "bfcl-hermes"
    assert "BFCL's Hermes FC handler" in (tmp_path / "b/scores/oracle/report.md").read_text()


def test_strict_fc_leaves_answers_without_hermes_markup_and_refuses_other_formats(
    oracle_run, tmp_path
):
    """Lines without Hermes call text (bfcl-eval's own, an endpoint's) keep their calls;
    a run asked in another chat format cannot be read as Hermes at all."""
    model_dir, path = _copied_parallel(oracle_run, tmp_path)
    records = read_results(path)
    for record in records.values():
        record.raw = ""  # as in a line bfcl-eval wrote
    write_results(path, records.values())
    strict = score(model_dir, tmp_path / "s", categories=["parallel"], progress=False,
                   strict_fc=True)
    assert strict.categories["parallel"].accuracy == 1.0
    manifest = json.loads((model_dir / "run.json").read_text())
    (model_dir / "run.json").write_text(json.dumps({**manifest, "chat_format": "qwen35"}))
    with pytest.raises(ValueError, match="in the 'qwen35' format"):
        score(model_dir, tmp_path / "q", categories=["parallel"], progress=False, strict_fc=True)
