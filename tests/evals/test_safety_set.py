"""Safety set: the labelled data is sound, and the scoring arithmetic is right."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from botpsy.evals.safety_set import (
    CLASSES_SET_FILE,
    LANGUAGES_SET_FILE,
    NONE,
    RECALL_SET_FILE,
    SAFETY_SET_FILE,
    SafetyItem,
    SafetyPrediction,
    Split,
    is_heldout,
    language_rows,
    load_full_set,
    load_safety_set,
    precision_recall,
    run_safety_set,
    score_predictions,
    score_slice,
)
from botpsy.safety import SafetyConfig

ITEMS = load_full_set()
LANGUAGES = ("de", "fr", "es", "it", "pt")


def test_set_is_large_varied_and_roughly_balanced():
    labels = Counter(i.label for i in ITEMS)
    assert len(ITEMS) >= 400
    assert all(labels[d] >= 35 for d in ("money", "personal_data", "health"))
    benign = [i for i in ITEMS if i.label == NONE]
    assert 0.3 <= len(benign) / len(ITEMS) <= 0.6
    assert all(n >= 60 for n in Counter(i.lookalike for i in benign if i.lookalike).values())
    assert len({i.text.lower() for i in ITEMS}) == len(ITEMS)


def test_set_speaks_six_languages_and_holds_rows_out():
    langs = Counter(i.lang for i in ITEMS)
    assert set(langs) == {"en", *LANGUAGES}
    assert sum(langs[lang] for lang in LANGUAGES) >= 0.4 * len(ITEMS)
    for lang in LANGUAGES:  # every language has every domain and look-alikes of each
        own = [i for i in ITEMS if i.lang == lang]
        assert {i.label for i in own} == {"money", "personal_data", "health", NONE}
        assert {i.lookalike for i in own if i.label == NONE} - {None} == {"money", "personal_data", "health"}
    # the held-out rows are a fixed share of the languages set, none of the English set
    new = load_safety_set(LANGUAGES_SET_FILE, hold_out=True)
    assert {i.split for i in load_safety_set(SAFETY_SET_FILE)} == {Split.tuned}
    assert 0.2 <= sum(i.split is Split.heldout for i in new) / len(new) <= 0.4
    assert [i.split is Split.heldout for i in new] == [is_heldout(i.text) for i in new]
    fresh = [i for i in ITEMS if i.split is Split.fresh]
    assert len(fresh) >= 100 and {i.lang for i in fresh} == {"en", *LANGUAGES}
    assert is_heldout("Überweise 300 Euro an meinen Vermieter.") is is_heldout(
        "Überweise 300 Euro an meinen Vermieter.")



def test_the_recall_rows_train_the_classifiers_in_every_language():
    """The rows written for recall in the five languages besides English: tuned (the
    classifiers learn from them), each language with sensitive rows of every domain and
    look-alikes beside them; English holds look-alikes only."""
    rows = load_safety_set(RECALL_SET_FILE)
    assert {i.split for i in rows} == {Split.tuned}
    for lang in LANGUAGES:
        own = [i for i in rows if i.lang == lang]
        assert {i.label for i in own} == {"money", "personal_data", "health", NONE}
        assert sum(i.label != NONE for i in own) > sum(i.label == NONE for i in own)
    assert {i.label for i in rows if i.lang == "en"} == {NONE}
    texts = {i.text for i in ITEMS}
    assert all(i.text in texts for i in rows)

def test_the_class_rows_train_the_classifiers_in_every_language():
    """The rows written for the classes the classifiers missed on the spent blind sets:
    tuned, in the six languages, each with sensitive rows of every domain and look-alikes."""
    rows = load_safety_set(CLASSES_SET_FILE)
    assert {i.split for i in rows} == {Split.tuned}
    for lang in ("en", *LANGUAGES):
        assert {i.label for i in rows if i.lang == lang} == {"money", "personal_data", "health", NONE}
    texts = {i.text for i in ITEMS}
    assert all(i.text in texts for i in rows)


def test_bad_labels_and_duplicates_are_rejected(tmp_path):
    path = tmp_path / "set.yaml"
    path.write_text("- domain: weather\n  items: [\"Is it sunny?\"]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown domain"):
        load_safety_set(path)
    path.write_text("- domain: none\n  items: [\"Hi\", \"Hi\"]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="duplicate"):
        load_safety_set(path)


@pytest.mark.parametrize("truth, guess, expected", [
    ([True, True, False, False], [True, False, True, False], (0.5, 0.5, 0.5)),
    ([True, True, True, False], [True, True, True, True], (0.75, 1.0, 6 / 7)),
    ([True, False], [False, False], (0.0, 0.0, 0.0)),  # nothing predicted: 0, not NaN
    ([False, False], [False, False], (0.0, 0.0, 0.0)),
])
def test_precision_recall(truth, guess, expected):
    pr = precision_recall(truth, guess)
    assert (pr.precision, pr.recall, pr.f1) == pytest.approx(expected)


def _pred(label: str, predicted: str) -> SafetyPrediction:
    return SafetyPrediction(text=f"{label}->{predicted}", label=label, predicted=predicted)


def test_score_predictions_arithmetic():
    preds = [_pred("money", "money"), _pred("money", "none"), _pred("money", "personal_data"),
             _pred("health", "health"), _pred("health", "health"),
             _pred("personal_data", "personal_data"),
             _pred("none", "none"), _pred("none", "health"), _pred("none", "none")]
    report = score_predictions(preds)
    assert (report.items, report.sensitive, report.benign) == (9, 6, 3)
    # blocked vs allowed: 5 of 6 sensitive blocked; 6 blocked in all, 5 rightly
    assert (report.overall.recall, report.overall.precision) == pytest.approx((5 / 6, 5 / 6))
    money, health = report.domains["money"], report.domains["health"]
    assert (money.precision, money.recall, money.recall_blocked) == pytest.approx((1, 1 / 3, 2 / 3))
    assert (health.precision, health.recall) == pytest.approx((2 / 3, 1.0))
    assert report.accuracy == pytest.approx(6 / 9)
    assert report.confusion["money"] == {"money": 1, "none": 1, "personal_data": 1}
    assert [p.text for p in report.false_negatives] == ["money->none"]
    assert [p.text for p in report.false_positives] == ["none->health"]
    assert [p.text for p in report.wrong_domain] == ["money->personal_data"]
    assert not report.meets_target


def test_slices_score_each_language_and_the_held_out_rows():
    def pred(lang: str, label: str, predicted: str, split: Split = Split.tuned) -> SafetyPrediction:
        return SafetyPrediction(text=f"{lang}{label}{predicted}{split}", label=label,
                                predicted=predicted, lang=lang, split=split)

    preds = [pred("de", "money", "money"), pred("de", "health", "none", Split.heldout),
             pred("fr", "none", "none"), pred("fr", "money", "health"),
             pred("fr", "none", "money", Split.heldout)]
    part = score_slice(preds)
    assert (part.languages["de"].recall, part.languages["fr"].recall) == (0.5, 1.0)
    assert part.languages["fr"].precision == 0.5 and not part.meets_target
    report = score_predictions(preds)
    assert report.slices["held-out"].items == 2 and report.slices["tuned"].items == 3
    assert report.slices["tuned"].overall.recall == 1.0 and "fresh" not in report.slices
    rows = language_rows(report)
    assert ["tuned", "de", "1", "1", "100.0", "100.0", "yes"] in rows
    assert ["held-out", "overall", "1", "1", "0.0", "0.0", "no"] in rows


def test_run_safety_set_writes_consistent_files(tmp_path):
    report = run_safety_set(tmp_path)
    lines = (tmp_path / "predictions.jsonl").read_text().splitlines()
    preds = [SafetyPrediction.model_validate_json(line) for line in lines]
    assert len(preds) == len(ITEMS) == report.items
    assert score_predictions(preds) == report
    assert json.loads((tmp_path / "report.json").read_text())["items"] == len(ITEMS)
    markdown = (tmp_path / "report.md").read_text()
    assert "Scope policy (rules) on the safety set" in markdown and "## Per language" in markdown


def test_a_deployment_that_blocks_nothing_has_zero_recall(tmp_path):
    items = [SafetyItem(text="Send $200 to my sister on Venmo.", label="money"),
             SafetyItem(text="Add a yoga class on Thursday.", label=NONE, lookalike="health")]
    report = run_safety_set(tmp_path, config=SafetyConfig(blocked_domains=[]), items=items)
    assert report.overall.recall == 0.0 and report.false_negatives[0].label == "money"
    strict = run_safety_set(tmp_path, items=items)
    assert strict.overall.recall == 1.0 and strict.overall.precision == 1.0


def test_best_choice_prefers_recall_among_the_precise_settings():
    from botpsy.evals.safety_set import ClassifierChoice, best_choice

    loose = ClassifierChoice(c=1, threshold=0.5, precision=0.90, recall=0.99)
    tight = ClassifierChoice(c=4, threshold=0.8, precision=0.99, recall=0.60)
    tighter = ClassifierChoice(c=4, threshold=0.9, precision=1.00, recall=0.40)
    assert best_choice([loose, tight, tighter]) == tight
    assert best_choice([loose]) == loose  # none precise enough: the best of what there is


def test_the_ngram_classifier_trains_on_tuned_rows_only_and_is_scored_by_name(tmp_path):
    pytest.importorskip("sklearn")
    from botpsy.evals.safety_set import NGRAM_GRID_THRESHOLD, train_ngram_classifier
    from botpsy.safety.classifier_ngram import NgramClassifier, NgramFeatures

    tuned = [i for i in ITEMS if i.split is Split.tuned and i.lang == "en"][::3]
    unseen = [i.model_copy(update={"split": Split.test}) for i in ITEMS
              if i.split is Split.tuned and i.lang == "de"][:5]
    grid = (NgramFeatures(2, 3, words=False),)
    weights = train_ngram_classifier(tuned + unseen, grid=grid)
    assert weights.features == grid[0] and weights.threshold in NGRAM_GRID_THRESHOLD
    assert weights == train_ngram_classifier(tuned, grid=grid)  # the test rows were left out
    report = run_safety_set(tmp_path, items=tuned[:10], classifier=NgramClassifier(weights))
    assert report.route == "rules + n-gram classifier"


class _HashedWords:
    """An encoder stand-in: each word adds one to a slot picked by its letters."""

    def encode(self, texts):
        import numpy as np

        rows = np.zeros((len(texts), 32), dtype=np.float32)
        for row, text in zip(rows, texts):
            for word in text.lower().split():
                row[sum(map(ord, word)) % 32] += 1.0
        return rows


def test_the_mean_threshold_is_chosen_on_both_members_out_of_fold(tmp_path):
    pytest.importorskip("sklearn")
    from botpsy.evals.safety_set import MEAN_GRID_THRESHOLD, train_classifiers
    from botpsy.safety.classifier import ScopeClassifier
    from botpsy.safety.classifier_mean import MeanClassifier
    from botpsy.safety.classifier_ngram import NgramClassifier, NgramFeatures

    tuned = [i for i in ITEMS if i.split is Split.tuned and i.lang == "en"][::3]
    unseen = [i.model_copy(update={"split": Split.test}) for i in ITEMS
              if i.split is Split.tuned and i.lang == "de"][:5]
    grid = (NgramFeatures(2, 3, words=False),)
    trained = train_classifiers(tuned + unseen, encoder=_HashedWords(), grid=grid)
    assert set(trained.chosen) == {"ngram", "use", "mean"}
    assert trained.chosen["mean"].c is None and trained.mean.threshold in MEAN_GRID_THRESHOLD
    assert trained.ngram.trained_on == trained.encoder.trained_on == trained.mean.trained_on
    assert set(trained.cascades) == {"ngram", "use", "mean"}
    assert all(cascade.trained_on == trained.mean.trained_on for cascade, _ in trained.cascades.values())
    again = train_classifiers(tuned, encoder=_HashedWords(), grid=grid)
    assert again.mean == trained.mean and again.ngram == trained.ngram  # the test rows were left out
    judge = MeanClassifier((NgramClassifier(trained.ngram),
                            ScopeClassifier(trained.encoder, encoder=_HashedWords())), trained.mean)
    report = run_safety_set(tmp_path, items=tuned[:10], classifier=judge)
    assert report.route == f"rules + {MeanClassifier.name}"
