"""The n-gram scope classifier: its features, its arithmetic (the same as scikit-learn's
where it was trained), its weights file, the shipped model, and its config switch."""

from __future__ import annotations

import subprocess
import sys

import pytest

from botpsy.evals.safety_set import training_rows_fingerprint
from botpsy.safety import SafetyConfig, ScopePolicy
from botpsy.safety.classifier_base import (
    ClassifierMissingError,
    load_classifier,
)
from botpsy.safety.classifier_ngram import (
    NgramClassifier,
    NgramFeatures,
    NgramWeights,
)
from botpsy.safety.config import ClassifierModel, Domain


def test_features_fold_accents_look_alikes_and_digits() -> None:
    features = NgramFeatures(2, 3, words=True)
    assert features("Pаy 40 €") == features("pay 99")  # Cyrillic a, any number
    assert features("Überweisung") == features("uberweisung")
    grams = features("pay rent")
    assert " p" in grams and "ay " in grams and "w:pay rent" in grams
    assert "y r" not in grams  # character n-grams stay inside a word
    assert not any(g.startswith("w:") for g in NgramFeatures(2, 3, words=False)("pay rent"))


def test_a_misspelling_keeps_most_of_the_word_s_ngrams() -> None:
    features = NgramFeatures(2, 4, words=False)
    right, wrong = set(features("password")), set(features("pasword"))
    assert len(right & wrong) >= len(right) // 2


def _toy_weights(threshold: float = 0.6) -> NgramWeights:
    # "pay" votes money; "none" has a bias
    return NgramWeights(classes=("money", "none"), intercept=(0.0, 1.0), threshold=threshold,
                        trained_on="toy", features=NgramFeatures(2, 2, words=True),
                        idf={"w:pay": 1.0, "w:lunch": 1.0},
                        coef={"w:pay": (6.0, -6.0), "w:lunch": (-2.0, 2.0)})


def test_verdicts_follow_the_weights_and_the_threshold() -> None:
    judge = NgramClassifier(_toy_weights())
    pay, lunch, unknown = judge.verdicts(["pay", "lunch", "zzz"])
    assert pay.domain is Domain.money and pay.sensitive > 0.99
    assert lunch.domain is None and unknown.domain is None
    assert unknown.sensitive == pytest.approx(1 / (1 + 2.718281828))  # intercepts alone
    assert NgramClassifier(_toy_weights(), threshold=0.99999999).verdict("pay").domain is None


def test_weights_round_trip_and_a_missing_file_says_how_to_train(tmp_path) -> None:
    path = tmp_path / "w.json"
    _toy_weights().save(path)
    loaded = NgramWeights.load(path)
    assert loaded == _toy_weights()
    with pytest.raises(ClassifierMissingError, match="--train-classifier ngram"):
        NgramWeights.load(tmp_path / "absent.json")


def test_the_arithmetic_is_scikit_learns() -> None:
    """The run-time scores reproduce the fitted tf-idf and logistic regression."""
    pytest.importorskip("sklearn")
    from botpsy.evals.safety_set import _ngram_model

    texts = ["pay the rent", "wire money to Ann", "my head aches", "aspirin dose",
             "lunch with Ann", "move the meeting", "call the bank", "pay Ann back later",
             "headache pills", "note about lunch"]
    labels = ["money", "money", "health", "health", "none", "none", "none", "money", "health",
              "none"]
    features = NgramFeatures(2, 4, words=True)
    model = _ngram_model(features, 4.0).fit(texts, labels)
    vectoriser, logistic = model[0], model[-1]
    grams = vectoriser.get_feature_names_out()
    judge = NgramClassifier(NgramWeights(
        classes=tuple(logistic.classes_), intercept=tuple(logistic.intercept_), threshold=0.5,
        trained_on="toy", features=features, idf=dict(zip(grams, vectoriser.idf_)),
        coef={g: tuple(col) for g, col in zip(grams, logistic.coef_.T)}))
    asked = ["pay Bob the rent", "my back aches", "lunch at the bank", "nothing known here"]
    for text, expected in zip(asked, model.predict_proba(asked)):
        assert judge.probabilities(text) == pytest.approx(list(expected), abs=1e-9)


def test_shipped_weights_were_trained_on_the_training_rows() -> None:
    """If this fails, the tuned rows or the generated negatives changed: retrain with
    `python -m botpsy.evals.safety_set --train-classifier ngram`."""
    weights = NgramWeights.load()
    assert weights.trained_on == training_rows_fingerprint()
    assert weights.classes == ("health", "money", "none", "personal_data")
    assert 0.5 <= weights.threshold < 1.0 and len(weights.coef) > 1000


MONEY_AND_ORDINARY = {  # language: (a transfer, an ordinary calendar request)
    "en": ("Transfer 40 euros to Paula's bank account", "Add lunch with Sam on Friday at noon"),
    "de": ("Überweise Paula 40 Euro aufs Konto", "Trag Mittagessen mit Sam am Freitag ein"),
    "fr": ("Fais un virement de 40 euros à Paula", "Ajoute un déjeuner avec Sam vendredi midi"),
    "es": ("Haz una transferencia de 40 euros a Paula",
           "Añade una comida con Sam el viernes a mediodía"),
    "it": ("Fai un bonifico di 40 euro a Paula", "Aggiungi un pranzo con Sam venerdì a mezzogiorno"),
    "pt": ("Faz uma transferência de 40 euros para a Paula",
           "Adiciona um almoço com o Sam na sexta ao meio-dia"),
}


@pytest.mark.parametrize("lang", sorted(MONEY_AND_ORDINARY))
def test_the_shipped_classifier_reads_each_language(lang: str) -> None:
    money, ordinary = NgramClassifier.shipped().verdicts(MONEY_AND_ORDINARY[lang])
    assert money.domain is Domain.money and ordinary.domain is None


def test_a_misspelt_credential_is_judged_personal_data() -> None:
    assert NgramClassifier.shipped().verdict("what's my pasword for the wifi").domain is (
        Domain.personal_data)


def test_one_shipped_classifier_per_process() -> None:
    assert NgramClassifier.shipped() is NgramClassifier.shipped()
    assert load_classifier(ClassifierModel.ngram) is NgramClassifier.shipped()


def test_a_config_picks_the_ngram_classifier_without_the_encoder_package(monkeypatch) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    config = SafetyConfig(scope_classifier=True, scope_classifier_model="ngram")
    policy = ScopePolicy(config)
    assert isinstance(policy.classifier, NgramClassifier)
    judged = policy.check_request("what's my pasword for the wifi")
    assert judged.domain is Domain.personal_data and "scope classifier" in judged.reason


def test_it_loads_without_numpy() -> None:
    """The point of this classifier is a cheap cold start: no numpy, no scikit-learn."""
    code = ("import sys; from botpsy.safety.classifier_ngram import NgramClassifier; "
            "NgramClassifier.shipped().verdict('hello'); "
            "print(sorted(m for m in ('numpy', 'sklearn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout
    assert out.strip() == "[]"
