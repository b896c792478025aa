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

from botpsy.safety.config import ClassifierModel, Domain

NONE = "none"


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
