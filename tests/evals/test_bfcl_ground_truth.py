"""BFCL's own ground truth, fed back as a model's answers, must score (almost) perfectly.

This runs the whole path: cases loaded from bfcl-eval, tools rendered through the
tool registry, a ChatModel asked, answers written as BFCL result files, multi-turn
calls executed against bfcl-eval's APIs, and the files scored by bfcl-eval's
checkers with botpsy's grader beside them.
"""

from __future__ import annotations

import json
import time

import pytest

from botpsy.evals.bfcl import category, generate, score
from botpsy.evals.bfcl.results import find_result_files, read_manifest, read_results

from .chat_models import OracleChatModel
from .conftest import NON_LIVE_AST, SUBSET, run_oracle

# Cases of BFCL's data that no answer can pass, found by the full pass (slow test):
# simple_java_36 and _65 want ints/booleans inside an ArrayList of "any", which BFCL's
# Java converter always turns into strings; simple_java_64 lists a dict answer as a
# bare string, which BFCL's dict checker iterates letter by letter.
UNREACHABLE = {"simple_java_36", "simple_java_64", "simple_java_65"}
# Where the grader and the checker cannot agree because of that last data quirk.
KNOWN_DISAGREEMENTS = {"simple_java_64"}


def test_non_live_ast_subsets_score_at_least_99(oracle_run):
    for name in NON_LIVE_AST:
        assert oracle_run.report.categories[name].accuracy >= 0.99, name


def test_irrelevance_scores_100_with_no_calls(oracle_run):
    scored = oracle_run.report.categories["irrelevance"]
    assert scored.accuracy == 1.0 and scored.total == SUBSET["irrelevance"]
    path = find_result_files(oracle_run.model_dir)["irrelevance"]
    assert all(isinstance(r.result, str) for r in read_results(path).values())  # text, not calls


def test_multi_turn_and_live_subsets_pass(oracle_run):
    for name in (
        "multi_turn_base",
        "multi_turn_miss_func",
        "multi_turn_miss_param",
        "live_simple",
        "live_relevance",
    ):
        assert oracle_run.report.categories[name].accuracy == 1.0, name


def test_grader_exact_agrees_with_checker_valid(oracle_run):
    for name, scored in oracle_run.report.categories.items():
        assert scored.disagreements == [], name
        if scored.exact_rate is not None:
            assert scored.exact_rate == scored.accuracy, name


def test_result_files_follow_bfcl_layout(oracle_run):
    files = find_result_files(oracle_run.model_dir)
    assert files["simple_python"].relative_to(oracle_run.model_dir).as_posix() == (
        "non_live/BFCL_v4_simple_python_result.json"
    )
    assert files["multi_turn_base"].parent.name == "multi_turn"
    line = json.loads(files["parallel"].read_text().splitlines()[0])
    assert line["id"] == "parallel_0"
    assert isinstance(line["result"], list) and all(len(call) == 1 for call in line["result"])
    assert {"latency", "input_token_count", "output_token_count", "raw", "mode"} <= set(line)
    turns = json.loads(files["multi_turn_base"].read_text().splitlines()[0])["result"]
    assert isinstance(turns, list) and all(isinstance(steps, list) for steps in turns)
    assert read_manifest(oracle_run.model_dir).model == "oracle"


def test_score_files_hold_bfcl_header_and_every_case(oracle_run):
    path = oracle_run.out / "scores" / "oracle" / "non_live" / "BFCL_v4_parallel_score.json"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["accuracy"] == 1.0 and lines[0]["total_count"] == SUBSET["parallel"]
    assert [line["id"] for line in lines[1:]] == [
        f"parallel_{i}" for i in range(SUBSET["parallel"])
    ]
    assert all(line["valid"] and line["exact"] for line in lines[1:])


def test_rescoring_from_files_needs_no_model_and_gives_the_same_scores(oracle_run, tmp_path):
    again = score(oracle_run.model_dir, tmp_path, progress=False)
    assert {n: c.accuracy for n, c in again.categories.items()} == {
        n: c.accuracy for n, c in oracle_run.report.categories.items()
    }
    # and twice in one process (the multi-turn checker caches API state per conversation)
    third = score(oracle_run.model_dir, tmp_path, categories=["multi_turn_base"], progress=False)
    assert third.categories["multi_turn_base"].accuracy == 1.0


def test_overall_uses_bfcl_weighting_and_flags_missing_categories(oracle_run):
    overall = oracle_run.report.overall
    assert "web_search_base" in overall.missing and not overall.groups["agentic"].complete
    assert overall.groups["agentic"].accuracy == 0.0
    assert 0.0 < overall.overall < 0.6  # agentic (40 %) was not run


def test_resume_skips_answered_cases_and_retries_failures(tmp_path):
    cat = category("simple_python")
    first = OracleChatModel([cat])
    generate(first, ["simple_python"], tmp_path, limit=3, progress=False)
    second = OracleChatModel([cat])
    summary = generate(second, ["simple_python"], tmp_path, limit=5, progress=False)
    assert second.calls == 2 and summary.categories[0].resumed == 3
    records = read_results(find_result_files(summary.model_dir)["simple_python"])
    assert sorted(records) == [f"simple_python_{i}" for i in range(5)]


def test_prompt_mode_stores_text_that_bfcl_parses(tmp_path):
    run = run_oracle(
        tmp_path,
        {"simple_python": 10, "parallel_multiple": 10, "multi_turn_base": 2},
        mode="prompt",
    )
    path = find_result_files(run.model_dir)["simple_python"]
    assert all(r.result.startswith("[") for r in read_results(path).values())
    assert all(c.accuracy == 1.0 for c in run.report.categories.values())
    assert run.report.mode == "prompt"


def test_categories_needing_outside_services_are_listed_not_run(tmp_path):
    summary = generate(
        OracleChatModel([]), ["web_search_base", "memory_kv"], tmp_path, progress=False
    )
    reasons = {run.category: run.not_run for run in summary.categories}
    assert "web search" in reasons["web_search_base"] and "memory" in reasons["memory_kv"]
    assert read_manifest(summary.model_dir).not_run.keys() == reasons.keys()


@pytest.mark.slow
def test_full_ground_truth_pass(tmp_path):
    """Every case of every runnable category; prints its duration (1.5-3.5 min, 2 cores)."""
    limits = {
        name: None
        for name in [
            *NON_LIVE_AST,
            "irrelevance",
            "live_simple",
            "live_multiple",
            "live_parallel",
            "live_parallel_multiple",
            "live_irrelevance",
            "live_relevance",
            "multi_turn_base",
            "multi_turn_miss_func",
            "multi_turn_miss_param",
            "multi_turn_long_context",
        ]
    }
    start = time.perf_counter()
    run = run_oracle(tmp_path, limits)
    print(f"full ground-truth pass: {time.perf_counter() - start:.0f} s")
    cats = run.report.categories
    for name in NON_LIVE_AST:
        wrong = {i for i in _invalid_ids(run, name)}
        assert wrong <= UNREACHABLE, (name, wrong)
        if name != "simple_java":
            assert cats[name].accuracy >= 0.99, name
    assert cats["irrelevance"].accuracy == 1.0 and cats["live_irrelevance"].accuracy == 1.0
    for name in (
        "multi_turn_base",
        "multi_turn_miss_func",
        "multi_turn_miss_param",
        "multi_turn_long_context",
    ):
        assert cats[name].accuracy == 1.0, name
    disagreements = {d.id for c in cats.values() for d in c.disagreements}
    assert disagreements == KNOWN_DISAGREEMENTS


def _invalid_ids(run, name: str) -> list[str]:
    group = category(name).group
    path = run.out / "scores" / "oracle" / group / f"BFCL_v4_{name}_score.json"
    return [
        json.loads(line)["id"]
        for line in path.read_text().splitlines()[1:]
        if not json.loads(line)["valid"]
    ]
