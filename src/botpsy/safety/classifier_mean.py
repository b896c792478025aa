"""The two scope classifiers together: a request is judged sensitive where the mean of
their probabilities reaches a threshold of its own.

The n-gram classifier (``classifier_ngram``) reads spellings, the sentence encoder
(``classifier``) reads meaning; they err on different requests, so their mean is surer
than either (the cross-validation on the training rows that
``python -m botpsy.evals.safety_set --train-classifier mean`` runs says by how much,
and picks the threshold). Each keeps its own weights file; this one adds a small JSON
file, ``scope_classifier_mean.json``, with the threshold and the fingerprint of the rows
it was chosen on. A deployment picks it with ``scope_classifier_model = "mean"``; it
needs the sentence encoder's package like ``"use"`` does.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from botpsy.safety.classifier_base import ClassifierVerdict, read_json_file, verdict_from

MEAN_SETTINGS_FILE = Path(__file__).with_name("scope_classifier_mean.json")


class Member(Protocol):
    """What the mean asks of each classifier: its classes and their probabilities."""

    @property
    def classes(self) -> tuple[str, ...]: ...

    def class_probabilities(self, texts: Sequence[str]) -> Sequence[Sequence[float]]: ...


@dataclass(frozen=True)
class MeanSettings:
    """The threshold on the mean probability that a request is sensitive."""

    threshold: float
    trained_on: str  # fingerprint of the training rows it was chosen on

    def save(self, path: Path = MEAN_SETTINGS_FILE) -> None:
        path.write_text(json.dumps({"threshold": self.threshold, "trained_on": self.trained_on})
                        + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path = MEAN_SETTINGS_FILE) -> MeanSettings:
        data = read_json_file(path, "no threshold for the mean of the scope classifiers", "mean")
        return cls(threshold=float(data["threshold"]), trained_on=str(data["trained_on"]))


class MeanClassifier:
    """The mean of its members' class probabilities (matched by class name), judged by
    ``verdict_from`` at the threshold of ``settings``."""

    name = "mean of the n-gram and sentence-encoder classifiers"

    def __init__(self, members: Sequence[Member], settings: MeanSettings | None = None,
                 threshold: float | None = None):
        classes = {tuple(sorted(m.classes)) for m in members}
        if len(members) < 2 or len(classes) != 1:
            raise ValueError("the mean needs two or more classifiers of the same classes, "
                             f"got {[m.classes for m in members]}")
        self.members = tuple(members)
        self.classes = classes.pop()
        settings = settings or MeanSettings.load()
        self.threshold = settings.threshold if threshold is None else threshold

    def class_probabilities(self, texts: Sequence[str]) -> list[list[float]]:
        """The members' probabilities of each class, averaged, in ``classes`` order."""
        rows = [[0.0] * len(self.classes) for _ in texts]
        for member in self.members:
            where = [member.classes.index(c) for c in self.classes]
            for row, probs in zip(rows, member.class_probabilities(texts), strict=True):
                for i, j in enumerate(where):
                    row[i] += float(probs[j]) / len(self.members)
        return rows

    def verdicts(self, texts: Sequence[str]) -> list[ClassifierVerdict]:
        return [verdict_from(self.classes, row, self.threshold)
                for row in self.class_probabilities(texts)]

    def verdict(self, text: str) -> ClassifierVerdict:
        return self.verdicts([text])[0]
