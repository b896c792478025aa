"""BFCL's overall weighting, checked against bfcl-eval's own leaderboard writer."""

from __future__ import annotations

import csv
import random

import pytest

from botpsy.evals.bfcl import upstream
from botpsy.evals.bfcl.overall import NON_LIVE, Accuracy, leaves, mean_std, overall_score

from .conftest import NON_LIVE_AST

SCORING = list(upstream.category_mapping.ALL_SCORING_CATEGORIES)


def _bfcl_leaderboard(scores: dict[str, Accuracy], tmp_path) -> dict[str, dict[str, str]]:
    """Run bfcl-eval's generate_leaderboard_csv on the same scores; rows of its CSV files."""
    helper = pytest.importorskip("bfcl_eval.eval_checker.eval_runner_helper")  # needs pandas
    table = {
        "botpsy-test": {
            name: {"accuracy": s.accuracy, "total_count": s.total_count}
            for name, s in scores.items()
        }
    }
    helper.generate_leaderboard_csv(table, tmp_path)
    rows = {}
    for file in ("data_overall.csv", "data_non_live.csv"):
        with open(tmp_path / file, newline="") as handle:
            rows[file] = next(csv.DictReader(handle))
    return rows


def _pct(value: float) -> str:
    return f"{100 * value:.2f}%"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_overall_matches_bfcl_leaderboard_writer(seed, tmp_path):
    rng = random.Random(seed)
    ran = rng.sample(SCORING, k=rng.randint(5, len(SCORING)))
    scores = {
        name: Accuracy(accuracy=rng.random(), total_count=rng.randint(5, 400)) for name in ran
    }
    ours = overall_score(scores)
    theirs = _bfcl_leaderboard(scores, tmp_path)
    overall_row, non_live_row = theirs["data_overall.csv"], theirs["data_non_live.csv"]
    assert _pct(ours.overall) == overall_row["Overall Acc"]
    assert _pct(ours.groups["live"].accuracy) == overall_row["Live Acc"]
    assert _pct(ours.groups["multi_turn"].accuracy) == overall_row["Multi Turn Acc"]
    assert _pct(ours.groups["non_live"].accuracy) == non_live_row["Non-Live Overall Acc"]
    # live_relevance is reported beside the score, never inside it (as on the leaderboard)
    assert set(ours.missing) == set(SCORING) - set(ran) - {"live_relevance"}


def test_a_perfect_run_of_everything_scores_one():
    scores = {name: Accuracy(accuracy=1.0, total_count=10) for name in SCORING}
    result = overall_score(scores)
    assert result.overall == pytest.approx(1.0) and result.missing == []
    assert all(group.complete for group in result.groups.values())


def test_missing_categories_count_as_zero_with_their_dataset_size():
    result = overall_score({"simple_python": Accuracy(accuracy=1.0, total_count=400)})
    simple = result.groups["simple"]
    assert simple.accuracy == pytest.approx(1 / 3) and not simple.complete
    assert simple.total_count == 400 + 100 + 50  # Java and JavaScript counted at their size
    assert result.overall == pytest.approx(0.10 * (1 / 3) / 4)


@pytest.mark.parametrize("values, mean, std", [([0.5], 0.5, 0.0), ([0.4, 0.6], 0.5, 0.1414213562)])
def test_mean_std(values, mean, std):
    result = mean_std(values)
    assert result.mean == pytest.approx(mean) and result.std == pytest.approx(std)


def test_leaves_lists_a_groups_categories_through_nested_groups():
    assert list(leaves(NON_LIVE)) == NON_LIVE_AST  # simple's three, then the rest


def test_overall_over_what_ran_rescales_the_weights_and_names_what_is_missing():
    scores = {"simple_python": Accuracy(accuracy=0.5, total_count=10),
              "irrelevance": Accuracy(accuracy=1.0, total_count=10),
              "multi_turn_base": Accuracy(accuracy=0.2, total_count=5)}
    result = overall_score(scores)
    # simple is its one language that ran, non_live only simple, irrelevance only non-live,
    # multi_turn only base: (0.5 * 10 + 1.0 * 10 + 0.2 * 30) / 50
    assert result.ran_groups == ["non_live", "irrelevance_all", "multi_turn"]
    assert result.overall_ran == pytest.approx((5 + 10 + 6) / 50)
    assert result.overall < result.overall_ran  # the leaderboard counts the rest as 0
    assert "live_simple" in result.missing and "web_search_base" in result.missing
    assert overall_score({}).overall_ran is None


def test_runs_of_one_model_combine_into_one_overall(tmp_path):
    from botpsy.evals.bfcl.score import BfclReport, CategoryScore
    from botpsy.evals.report import combine_overall

    def report(model, name, accuracy, total):
        score = CategoryScore.model_validate({"category": name, "kind": "ast", "group": "g",
                                              "accuracy": accuracy,
                                              "total": total, "correct": int(accuracy * total),
                                              "dataset_size": total})
        scores = {name: Accuracy(accuracy=accuracy, total_count=total)}
        return BfclReport(model=model, mode="fc", result_dir="", created="",
                          categories={name: score}, overall=overall_score(scores))

    paths = []
    for index, (name, acc) in enumerate([("simple_python", 0.5), ("multi_turn_base", 0.25)]):
        path = tmp_path / f"r{index}" / "report.json"
        path.parent.mkdir()
        path.write_text(report("m", name, acc, 4).model_dump_json())
        paths.append(path)
    combined = combine_overall(paths)
    assert set(combined.sources) == {"simple_python", "multi_turn_base"}
    assert combined.overall.overall_ran == pytest.approx((0.5 * 10 + 0.25 * 30) / 40)
    with pytest.raises(ValueError, match="scored in both"):
        combine_overall([paths[0], paths[0]])


@pytest.mark.slow
@pytest.mark.model
def test_live_and_multi_turn_run_and_the_overall_names_what_did_not(tmp_path):
    """botpsy-smol on the first cases of every live and multi-turn category, scored by
    bfcl-eval: the overall over what ran covers those groups, and names the rest."""
    from botpsy.backends.model_files import load_chat_model
    from botpsy.evals.bfcl import generate, score

    summary = generate(load_chat_model("botpsy-smol"), ["live", "multi_turn"], tmp_path,
                       limit=2, progress=False)
    report = score(summary.model_dir, tmp_path)
    assert {"live_simple", "multi_turn_base", "multi_turn_long_context"} <= set(report.categories)
    assert report.overall.ran_groups == ["live", "irrelevance_all", "multi_turn"]
    assert {"simple_python", "web_search_base", "memory_kv"} <= set(report.overall.missing)
