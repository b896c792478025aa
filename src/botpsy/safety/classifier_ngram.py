"""A scope classifier that is cheap to load: character n-grams and a linear model, in
pure Python.

It reads what the rules do not name ("zap 30 quid over to Ellie", "mein Hals
kratzt, was nehme ich?") in English, German, French, Spanish, Italian and
Portuguese. A request is read as the rules read it (look-alike letters, fullwidth
forms and accents folded, ``policy.Normalised``), lower-cased, digits as 0; its
features are the character n-grams of each word (padded with a space at both
ends, so a misspelt "pasword" still shares most of them with "password") and,
where the settings say so, its words and word pairs. They are weighted by tf-idf
(sublinear counts, l2-normalised, as scikit-learn's ``TfidfVectorizer``) and a
multinomial logistic regression gives each domain a probability.

Why beside the sentence encoder (``classifier.py``)? The encoder parses its
tokenizer and unpacks its weights in every new process, more than a cold ``botpsy
ask`` can spare (``benchmarks/scope_latency.py`` measures both); this one loads a JSON file and needs neither numpy nor scikit-learn at
run time. It reads less: a deployment opts in with ``scope_classifier = true`` and
``scope_classifier_model = "ngram"``. The vocabulary, its idf and the weights are in
``scope_classifier_ngram.json`` beside this module, rebuilt from the training rows
alone (the tuned rows of the labelled set and generated ordinary requests; the
settings chosen by cross-validation on them) by
``python -m botpsy.evals.safety_set --train-classifier ngram``.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise
from pathlib import Path

from botpsy.safety.classifier_base import (
    ClassifierVerdict,
    read_json_file,
    softmax,
    verdict_from,
)
from botpsy.safety.policy import Normalised

NGRAM_MODEL_FILE = Path(__file__).with_name("scope_classifier_ngram.json")
_WORD = re.compile(r"[^\W_]+")
_DIGIT = re.compile(r"\d")
_WORD_PREFIX = "w:"  # a word feature, never a character n-gram (those hold no colon)


@dataclass(frozen=True)
class NgramFeatures:
    """How a request becomes features: character n-grams of ``shortest`` to ``longest``
    characters inside each space-padded word, and with ``words`` its words and word
    pairs. Callable, so scikit-learn's vectoriser uses this very function in training."""

    shortest: int = 2
    longest: int = 5
    words: bool = True

    def __call__(self, text: str) -> list[str]:
        tokens = _WORD.findall(_DIGIT.sub("0", Normalised(text).folded.lower()))
        grams = []
        for token in tokens:
            padded = f" {token} "
            for n in range(self.shortest, min(self.longest, len(padded)) + 1):
                grams += [padded[i:i + n] for i in range(len(padded) - n + 1)]
        if self.words:
            grams += [_WORD_PREFIX + t for t in tokens]
            grams += [f"{_WORD_PREFIX}{a} {b}" for a, b in pairwise(tokens)]
        return grams


@dataclass(frozen=True)
class NgramWeights:
    """The trained model: per known feature its idf and one weight per class."""

    classes: tuple[str, ...]
    intercept: tuple[float, ...]
    threshold: float  # block when the probability of sensitive reaches it
    trained_on: str  # fingerprint of the training texts and labels
    features: NgramFeatures
    idf: dict[str, float] = field(repr=False)
    coef: dict[str, tuple[float, ...]] = field(repr=False)  # feature -> weight per class

    def save(self, path: Path = NGRAM_MODEL_FILE) -> None:
        """One JSON file, rounded to six significant digits (the decisions do not move)."""
        data = {"classes": list(self.classes), "intercept": [_round(x) for x in self.intercept],
                "threshold": self.threshold, "trained_on": self.trained_on,
                "features": {"shortest": self.features.shortest, "longest": self.features.longest,
                             "words": self.features.words},
                "weights": {g: [_round(self.idf[g]), *(_round(x) for x in self.coef[g])]
                            for g in sorted(self.coef)}}
        path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n",
                        encoding="utf-8")

    @classmethod
    def load(cls, path: Path = NGRAM_MODEL_FILE) -> NgramWeights:
        data = read_json_file(path, "no n-gram scope classifier weights", "ngram")
        weights = data["weights"]
        return cls(classes=tuple(data["classes"]), intercept=tuple(data["intercept"]),
                   threshold=float(data["threshold"]), trained_on=data["trained_on"],
                   features=NgramFeatures(**data["features"]),
                   idf={g: w[0] for g, w in weights.items()},
                   coef={g: tuple(w[1:]) for g, w in weights.items()})


def _round(x: float) -> float:
    return float(f"{x:.6g}")


class NgramClassifier:
    """The trained n-gram classifier: ``verdict(text)`` for one request."""

    name = "n-gram classifier"

    def __init__(self, weights: NgramWeights | None = None, threshold: float | None = None):
        self.weights = weights or NgramWeights.load()
        self.threshold = self.weights.threshold if threshold is None else threshold

    @classmethod
    def shipped(cls) -> NgramClassifier:
        """The classifier of the weights file beside this module, loaded once per
        process and shared (a server builds a policy per session)."""
        with _LOCK:
            return _shipped()

    def vector(self, text: str) -> dict[str, float]:
        """The request's known features, tf-idf weighted and l2-normalised."""
        counts = Counter(g for g in self.weights.features(text) if g in self.weights.idf)
        values = {g: (1.0 + math.log(n)) * self.weights.idf[g] for g, n in counts.items()}
        norm = math.sqrt(sum(v * v for v in values.values())) or 1.0
        return {g: v / norm for g, v in values.items()}

    def probabilities(self, text: str) -> list[float]:
        """Class probabilities (softmax of the linear scores) in ``weights.classes`` order."""
        scores = list(self.weights.intercept)
        for gram, value in self.vector(text).items():
            for i, w in enumerate(self.weights.coef[gram]):
                scores[i] += value * w
        return softmax(scores)

    @property
    def classes(self) -> tuple[str, ...]:
        return self.weights.classes

    def class_probabilities(self, texts: Sequence[str]) -> list[list[float]]:
        """One row of ``probabilities`` per text (what ``classifier_mean`` averages)."""
        return [self.probabilities(t) for t in texts]

    def verdict(self, text: str) -> ClassifierVerdict:
        return verdict_from(self.weights.classes, self.probabilities(text), self.threshold)

    def verdicts(self, texts: Sequence[str]) -> list[ClassifierVerdict]:
        return [self.verdict(t) for t in texts]


_LOCK = threading.Lock()


@cache
def _shipped() -> NgramClassifier:
    return NgramClassifier(NgramWeights.load())
