"""What every scope classifier shares, without numpy: its verdict, its error, the
fingerprint of its training rows, and the loader a ``SafetyConfig`` picks one with.

Two classifiers may sit beside the lexical rules (``ScopePolicy`` asks one only
where no rule matched): ``classifier`` (the Universal Sentence Encoder, slow to load
in a new process) and ``classifier_ngram`` (character n-grams and a linear model in
pure Python, read from a JSON file), or the mean of both (``classifier_mean``). This module
imports neither, so a process that only needs the n-gram one never imports numpy.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from botpsy.safety.config import ClassifierModel, Domain, WeakMatch

NONE = "none"
CASCADE_FILE = Path(__file__).with_name("scope_cascade.json")


class ClassifierMissingError(RuntimeError):
    """The encoder package or the weights file is not installed."""


@dataclass(frozen=True)
class ClassifierVerdict:
    """The domain the classifier puts a request in (None: none), and how sure it is
    that the request is sensitive at all (1 - the probability of "none")."""

    domain: Domain | None
    sensitive: float


class Classifier(Protocol):
    """What ``ScopePolicy`` asks of a scope classifier."""

    name: str  # how reports call it: "n-gram classifier"

    def verdict(self, text: str) -> ClassifierVerdict: ...

    def verdicts(self, texts: Sequence[str]) -> list[ClassifierVerdict]: ...


def read_json_file(path: Path, what: str, route: str) -> dict:
    """A shipped classifier file's JSON, or a ``ClassifierMissingError`` that says how to
    make it (``what``: "no n-gram scope classifier weights"; ``route``: its
    ``--train-classifier`` name)."""
    if not path.exists():
        raise ClassifierMissingError(f"{path}: {what}; make it with `python -m "
                                     f"botpsy.evals.safety_set --train-classifier {route}`")
    return json.loads(path.read_text(encoding="utf-8"))


def training_fingerprint(texts: Sequence[str], labels: Sequence[str]) -> str:
    """Which rows a model was trained on, to tell a stale weights file."""
    digest = hashlib.sha256("\n".join(f"{label}\t{text}" for text, label in
                                      zip(texts, labels, strict=True)).encode("utf-8"))
    return digest.hexdigest()[:16]


def softmax(scores: Sequence[float]) -> list[float]:
    """Probabilities from linear scores (the largest subtracted first: no overflow)."""
    top = max(scores)
    exp = [math.exp(s - top) for s in scores]
    total = sum(exp)
    return [e / total for e in exp]


def verdict_from(classes: Sequence[str], probabilities: Sequence[float],
                 threshold: float) -> ClassifierVerdict:
    """The likeliest domain when the probability that the text is sensitive (1 - that
    of "none") reaches ``threshold``, else None: one rule for every classifier."""
    none = list(classes).index(NONE)
    sensitive = float(1.0 - probabilities[none])
    if sensitive < threshold:
        return ClassifierVerdict(domain=None, sensitive=sensitive)
    best = max((i for i in range(len(classes)) if i != none), key=lambda i: probabilities[i])
    return ClassifierVerdict(domain=Domain(classes[best]), sensitive=sensitive)


@dataclass(frozen=True)
class Cascade:
    """Which rule matches a classifier route decides itself (``weak``), and the
    probability that the request is sensitive below which it overrules them
    (``threshold``). A rule's false alarm on a benign sense of its key word ("the bank"
    of a park, a "dose" of fresh air) would otherwise be final, since a classifier is
    asked only where no rule matched. Chosen per route by cross-validation on the
    training rows (``python -m botpsy.evals.safety_set --train-classifier``); the
    default leaves every rule match final."""

    weak: WeakMatch = WeakMatch.none
    threshold: float = 0.0
    trained_on: str = ""  # fingerprint of the training rows it was chosen on

    @classmethod
    def shipped(cls, model: ClassifierModel, path: Path = CASCADE_FILE) -> Cascade:
        """The cascade chosen for ``model``'s route."""
        data = read_json_file(path, "no cascade settings for the scope classifiers", model.value)
        if model.value not in data:
            raise ClassifierMissingError(f"{path}: no cascade settings for {model.value}; make them "
                                         "with `python -m botpsy.evals.safety_set "
                                         f"--train-classifier {model.value}`")
        entry = data[model.value]
        return cls(weak=WeakMatch(entry["weak"]), threshold=float(entry["threshold"]),
                   trained_on=str(entry["trained_on"]))

    def save(self, model: ClassifierModel, path: Path = CASCADE_FILE) -> None:
        """Write this route's entry, keeping the other routes' ones."""
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        data[model.value] = {"weak": self.weak.value, "threshold": self.threshold,
                             "trained_on": self.trained_on}
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def load_classifier(model: ClassifierModel) -> Classifier:
    """The classifier a config names, its weights loaded (once per process)."""
    from botpsy.safety.classifier_ngram import (
        NgramClassifier,  # cycle: botpsy.safety.classifier_ngram
    )

    if model is ClassifierModel.ngram:
        return NgramClassifier.shipped()
    from botpsy.safety.classifier import ScopeClassifier  # lazy: numpy

    if model is ClassifierModel.use:
        return ScopeClassifier()
    from botpsy.safety.classifier_mean import MeanClassifier  # cycle: botpsy.safety.classifier_mean

    return MeanClassifier((NgramClassifier.shipped(), ScopeClassifier()))
