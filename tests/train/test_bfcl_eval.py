"""BFCL as the recipe's external evaluator: scores, GGUF cache, resume, score-run, reports.

Runs on the tiny recipe's models (``tiny_run``) with two cases per category, so
each model costs a few seconds in llama.cpp; runs are scored on copies, so the
shared run stays as the recipe tests expect it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from botpsy.train.common import StageResult
from botpsy.train.report import RecipeReport, markdown

pytest.importorskip("llama_cpp")
pytest.importorskip("bfcl_eval")

from botpsy.evals.bfcl.results import read_results
from botpsy.train.bfcl_eval import (
    GGUF_NAME,
    NON_LIVE_AST,
    BfclEvaluator,
    BfclSettings,
    bfcl_dir,
    cached_gguf,
    model_label,
)
from botpsy.train.cli import app

runner = CliRunner()
SETTINGS = BfclSettings(limit=2, threads=1)
KEYS = ["non_live_ast", "irrelevance", *NON_LIVE_AST]
STAGES = ["sft", "distill", "balance", "dapo1", "dapo2"]
GAIN = re.compile(r"\d\.\d{3} \([+-]\d\.\d{3}\)")


def copy_run(src: str | Path, dst: Path) -> Path:
    """A recipe run without checkpoints, exports or earlier BFCL files, nor its recorded plan
    (the fixture's steps are not the preset's: resumed as a run from before plans were kept)."""
    ignore = shutil.ignore_patterns("checkpoint-*", "gguf", "bfcl", "*.bfcl", "recipe_plan.json")
    shutil.copytree(src, dst, ignore=ignore)
    return dst


@pytest.fixture(scope="module")
def stage_model(tiny_run, tmp_path_factory) -> Path:
    """The tiny SFT model, laid out as a stage's ``<stage>/model`` folder."""
    plan, _ = tiny_run
    model = tmp_path_factory.mktemp("stage") / "model"
    shutil.copytree(Path(plan.sft.output_dir) / "model", model)
    return model


@pytest.fixture(scope="module")
def scores(stage_model) -> dict[str, float]:
    return BfclEvaluator(SETTINGS)(str(stage_model))


def test_evaluator_returns_named_scores_in_range(scores):
    assert list(scores) == KEYS
    assert NON_LIVE_AST == (
        "simple_python",
        "simple_java",
        "simple_javascript",
        "multiple",
        "parallel",
        "parallel_multiple",
    )
    assert all(0.0 <= v <= 1.0 for v in scores.values())


def _truth_calls(truth: list[dict]) -> list[dict]:
    """BFCL's possible answer as FC-mode calls: the first accepted value, optional ones left out."""
    return [
        {name: {k: v[0] for k, v in args.items() if "" not in v}}
        for ((name, args),) in (item.items() for item in truth)
    ]


def _seed(run_dir: Path, model: str, name: str, right: int) -> None:
    """Result files as if the model had answered ``right`` of the first two cases correctly."""
    from botpsy.evals.bfcl import category
    from botpsy.evals.bfcl.dataset import load_answers, load_cases
    from botpsy.evals.bfcl.results import ResultRecord, result_path, write_results

    cat = category(name)
    answers = load_answers(cat)
    records = [
        ResultRecord(
            id=case.id, result=_truth_calls(answers[case.id]) if i < right else "no", mode="fc"
        )
        for i, case in enumerate(load_cases(cat, limit=2))
    ]
    path = result_path(run_dir / "results" / model, cat)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_results(path, records)


def test_answers_kept_on_resume_and_non_live_ast_is_bfcls_aggregation(stage_model, tmp_path):
    """Seeded right answers survive the resume and give BFCL's non-trivial aggregation."""
    model = tmp_path / "seeded" / "model"
    shutil.copytree(stage_model, model)
    evaluator = BfclEvaluator(SETTINGS)
    run_dir = evaluator.run_dir(model)
    cached_gguf(model)  # first: a new GGUF clears the runs of older weights
    for name, right in (("simple_python", 2), ("multiple", 1), ("parallel", 2)):
        _seed(run_dir, "seeded", name, right)
    (run_dir / "evaluator.json").write_text(json.dumps(SETTINGS.stamp()))
    got = evaluator(str(model))
    assert (got["simple_python"], got["multiple"], got["parallel"]) == (1.0, 0.5, 1.0)
    # simple is the mean of its three languages, then the plain mean of four groups.
    simple = statistics.fmean(got[k] for k in NON_LIVE_AST[:3])
    parts = [simple, got["multiple"], got["parallel"], got["parallel_multiple"]]
    assert got["non_live_ast"] == pytest.approx(statistics.fmean(parts))
    assert got["non_live_ast"] >= (1 / 3 + 0.5 + 1) / 4
    (run_dir / "evaluator.json").write_text(json.dumps({"max_tokens": 1}))
    assert evaluator(str(model))["parallel"] == 0.0  # other settings: asked again, not resumed


def test_evaluator_asks_the_first_cases_in_fc_mode_free_decoding(stage_model, scores):
    evaluator = BfclEvaluator(SETTINGS)
    report = evaluator.report(stage_model)  # resumed: nothing asked again
    assert sorted(report.categories) == sorted([*NON_LIVE_AST, "irrelevance"])
    assert all(c.total == 2 for c in report.categories.values())
    assert (report.mode, report.tool_choice, report.early_stop is not None) == ("fc", "auto", True)
    manifest = json.loads((Path(report.result_dir) / "run.json").read_text())
    assert manifest["generated"] == 14 and manifest["params"]["temperature"] == 0.0
    assert report.result_dir.startswith(str(stage_model.parent / "bfcl" / "runs" / "first-2"))


def test_gguf_is_cached_loads_and_is_rebuilt_when_weights_change(stage_model, scores):
    from transformers import AutoTokenizer

    from botpsy.train.export import check_gguf

    gguf = stage_model.parent / "bfcl" / GGUF_NAME
    assert bfcl_dir(stage_model) == gguf.parent and gguf.is_file()
    check = check_gguf(gguf, "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n", threads=1)
    assert check.n_vocab == len(AutoTokenizer.from_pretrained(stage_model))
    built = gguf.stat().st_mtime_ns
    assert BfclEvaluator(SETTINGS)(str(stage_model)) == scores
    assert gguf.stat().st_mtime_ns == built  # reused
    evaluator = BfclEvaluator(SETTINGS)
    sentinel = evaluator.run_dir(stage_model) / "stale"
    sentinel.write_text("from the old weights")
    weights = next(stage_model.glob("*.safetensors"))
    later = built + 10**9
    os.utime(weights, ns=(later, later))
    assert evaluator(str(stage_model)) == scores  # same weights, so the same answers
    assert gguf.stat().st_mtime_ns > built and not sentinel.exists()


def test_scores_are_deterministic_across_fresh_runs(stage_model, scores, tmp_path):
    again = tmp_path / "again" / "model"
    shutil.copytree(stage_model, again)
    assert BfclEvaluator(SETTINGS)(str(again)) == scores
    first, second = (
        BfclEvaluator(SETTINGS).run_dir(m) / "results" / model_label(m)
        for m in (stage_model, again)
    )
    files = sorted(first.rglob("*_result.json"))
    assert len(files) == 7
    for path in files:
        answers = {i: r.result for i, r in read_results(path).items()}
        twin = read_results(second / path.relative_to(first))
        assert answers == {i: r.result for i, r in twin.items()}


def test_bad_model_folders_and_settings_are_clear_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="model folder not found"):
        BfclEvaluator(SETTINGS)(str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="no config.json"):
        BfclEvaluator(SETTINGS)(str(tmp_path))
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(FileNotFoundError, match="no .safetensors"):
        BfclEvaluator(SETTINGS)(str(tmp_path))
    with pytest.raises(ValueError, match="limit"):
        BfclSettings(limit=0)


def _check_scored_run(run: Path) -> RecipeReport:
    """Every stage's before = the previous model's after, on disk and in the report."""
    report = RecipeReport.model_validate_json((run / "recipe_report.json").read_text())
    assert [s.stage for s in report.stages] == STAGES
    assert list(report.base_scores) == KEYS
    previous = report.base_scores
    for name, stage in zip(STAGES, report.stages):
        on_disk = StageResult.model_validate_json((run / name / "stage_result.json").read_text())
        assert on_disk.external_before == previous == stage.external_before
        assert list(on_disk.external_after) == KEYS == list(stage.external_after)
        assert (run / name / "bfcl" / GGUF_NAME).is_file()
        previous = on_disk.external_after
    assert (run / "base.bfcl" / GGUF_NAME).is_file()
    md = (run / "recipe_report.md").read_text()
    assert "## BFCL before and after each stage" in md
    assert "| model | " + " | ".join(KEYS) + " |" in md
    rows = [line for line in md.splitlines() if line.startswith(("| base | ", "| sft | "))]
    assert len(rows) == 3  # base in the BFCL table; sft in the stage table and the BFCL table
    for name in STAGES:
        (row,) = [line for line in md.splitlines() if line.startswith(f"| {name} | 0.")]
        assert len(GAIN.findall(row)) == len(KEYS)
    png = (run / "recipe_report.png").read_bytes()
    assert png[:4] == b"\x89PNG" and int.from_bytes(png[16:20], "big") > 1500  # three panels
    return report


def test_score_run_fills_stage_results_and_report(tiny_run, tmp_path):
    plan, _ = tiny_run
    run = copy_run(plan.out_dir, tmp_path / "run")
    args = ["score-run", "--run", str(run), "--limit", "2", "--threads", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    report = _check_scored_run(run)
    notes = [n for n in report.notes if n.startswith("External scores: BFCL")]
    assert len(notes) == 1 and "the first 2 cases" in notes[0]
    assert runner.invoke(app, args).exit_code == 0  # again: same scores, note not repeated
    again = _check_scored_run(run)
    assert again.base_scores == report.base_scores and again.notes == report.notes
    assert not (Path(plan.out_dir) / "base.bfcl").exists()  # the copy was scored


def test_recipe_command_scores_live_and_fills_resumed_stages(tiny_run, tmp_path):
    plan, _ = tiny_run
    run = copy_run(plan.out_dir, tmp_path / "run")
    args = ["recipe", "--preset", "tiny", "--bfcl-limit", "2", "--bfcl-threads", "1", "--out"]
    result = runner.invoke(app, [*args, str(run)])
    assert result.exit_code == 0, result.output
    report = _check_scored_run(run)
    assert all(s.skipped for s in report.stages)
    on_disk = StageResult.model_validate_json((run / "sft" / "stage_result.json").read_text())
    assert not on_disk.skipped


def _error(args: list[str]) -> str:
    """The message of a command that must fail as a usage error (exit code 2), unboxed."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())


def test_score_run_on_a_folder_without_stages_is_a_clear_error(tmp_path):
    assert "no finished stage" in _error(["score-run", "--run", str(tmp_path)])
    assert "run folder not found" in _error(["score-run", "--run", str(tmp_path / "nope")])
    (tmp_path / "sft").mkdir()
    (tmp_path / "sft" / "stage_result.json").write_text("{}")
    assert "without a model folder" in _error(["score-run", "--run", str(tmp_path)])


def _stage(name: str, before: dict[str, float], after: dict[str, float]) -> StageResult:
    return StageResult(
        stage=name,
        output_dir=name,
        model_dir=f"{name}/model",
        external_before=before,
        external_after=after,
    )


def test_markdown_has_one_bfcl_row_per_model_with_gains():
    base = {"non_live_ast": 0.1, "irrelevance": 0.9, "simple_python": 0.2}
    sft = {"non_live_ast": 0.4, "irrelevance": 0.7, "simple_python": 0.5}
    report = RecipeReport(
        preset="p",
        out_dir="o",
        base_model="b",
        base_scores=base,
        stages=[_stage("sft", base, sft), _stage("distill", {}, {})],
    )
    lines = markdown(report).splitlines()
    start = lines.index("## BFCL before and after each stage")
    assert lines[start + 4 : start + 8] == [
        "| model | non_live_ast | irrelevance | simple_python |",
        "|---|---|---|---|",
        "| base | 0.100 | 0.900 | 0.200 |",
        "| sft | 0.400 (+0.300) | 0.700 (-0.200) | 0.500 (+0.300) |",
    ]
    assert lines[start + 8] == ""  # the unscored stage has no row
    unscored = report.model_copy(update={"base_scores": {}, "stages": report.stages[1:]})
    assert "BFCL" not in markdown(unscored)


def test_a_stage_that_starts_from_another_model_gets_a_row_for_it():
    """Adapter-aware RL starts DAPO from a rank truncation of the balance model: the
    truncation's loss shows as its own row, and DAPO's gain is over the truncation."""
    base = {"non_live_ast": 0.0, "irrelevance": 1.0}
    balance = {"non_live_ast": 0.4, "irrelevance": 0.9}
    truncated = {"non_live_ast": 0.35, "irrelevance": 0.1}
    dapo = {"non_live_ast": 0.35, "irrelevance": 0.2}
    report = RecipeReport(
        preset="p",
        out_dir="o",
        base_model="b",
        base_scores=base,
        stages=[_stage("balance", base, balance), _stage("dapo1", truncated, dapo)],
    )
    rows = [line for line in markdown(report).splitlines() if line.startswith("| ")][-4:]
    assert rows[1:] == [
        "| balance | 0.400 (+0.400) | 0.900 (-0.100) |",
        "| before dapo1 | 0.350 (-0.050) | 0.100 (-0.800) |",
        "| dapo1 | 0.350 (+0.000) | 0.200 (+0.100) |",
    ]
    # after an unscored stage there is nothing to compare the next one's start with
    gap = report.model_copy(
        update={"stages": [_stage("balance", base, {}), _stage("dapo1", truncated, dapo)]}
    )
    rows = [line.split(" |")[0] for line in markdown(gap).splitlines() if line.startswith("| ")]
    assert "| before dapo1" not in rows and "| dapo1" in rows
