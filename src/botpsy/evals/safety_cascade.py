"""Choose each classifier route's cascade by cross-validation on the training rows.

A classifier route asks its classifier where no rule matched; with a cascade
(``safety.classifier_base.Cascade``) it also asks it where every rule match is weak
(a misspelt key word, a lone key word: ``config.WeakMatch``), and takes the rules'
block back when the classifier's probability that the request is sensitive stays
below the cascade's threshold. Which matches count as weak, and that threshold, are
chosen here on the training rows alone: the route's decisions are rebuilt from the
rules' hits on each row and the classifier's out-of-fold probabilities (each row
judged by a model fitted on the other folds, as ``safety_set`` chooses the
classifiers' own settings), and the cascade with the fewest wrong decisions wins
(false alarms and misses alike); a tie keeps the smaller change, so every rule match
stays final unless overruling some of them is right more often than not.

``python -m botpsy.evals.safety_set --train-classifier`` runs it after the classifiers'
own search and writes ``safety/scope_cascade.json``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from botpsy.safety.classifier_base import NONE, Cascade
from botpsy.safety.config import WeakMatch
from botpsy.safety.policy import ScopeHit, classify, weak_match

# Probabilities of "sensitive" under which a weak match is overruled: a rule match is
# evidence of its own, so the grid stays below the classifiers' own thresholds.
CASCADE_GRID_THRESHOLD = (0.02, 0.05, 0.1, 0.2, 0.3, 0.5)


class CascadeChoice(BaseModel):
    """One cascade setting and the route's out-of-fold decisions on the training rows."""

    weak: WeakMatch
    threshold: float
    precision: float
    recall: float
    false_alarms: int
    misses: int

    @property
    def errors(self) -> int:
        return self.false_alarms + self.misses


def route_blocks(hits: Sequence[Sequence[ScopeHit]], weak: Sequence[bool],
                 sensitive: Sequence[float], route_threshold: float,
                 threshold: float) -> list[bool]:
    """The route's decision on each row: a row the rules matched stays blocked unless
    its match is weak and the classifier's probability is under ``threshold``; a row
    they did not match is blocked at the classifier's own ``route_threshold``."""
    return [(p >= threshold or not w) if h else p >= route_threshold
            for h, w, p in zip(hits, weak, sensitive, strict=True)]


def cascade_choices(texts: Sequence[str], labels: Sequence[str], sensitive: Sequence[float],
                    route_threshold: float, hits: Sequence[Sequence[ScopeHit]] | None = None,
                    ) -> list[CascadeChoice]:
    """Every cascade of the grid (``WeakMatch.none`` once: the route as it is), scored on
    out-of-fold ``sensitive`` probabilities; ``hits`` are the rules' (every domain
    blocked, as by default), computed when not given."""
    hits = [classify(t) for t in texts] if hits is None else hits
    truth = [label != NONE for label in labels]
    choices = []
    for kind in WeakMatch:
        weak = [weak_match(t, h, kind) for t, h in zip(texts, hits, strict=True)]
        for threshold in (0.0,) if kind is WeakMatch.none else CASCADE_GRID_THRESHOLD:
            blocked = route_blocks(hits, weak, sensitive, route_threshold, threshold)
            tp = sum(t and b for t, b in zip(truth, blocked))
            choices.append(CascadeChoice(
                weak=kind, threshold=threshold, precision=tp / max(1, sum(blocked)),
                recall=tp / max(1, sum(truth)), false_alarms=sum(blocked) - tp,
                misses=sum(truth) - tp))
    return choices


def best_cascade(choices: Sequence[CascadeChoice]) -> CascadeChoice:
    """The cascade with the fewest wrong decisions; on a tie the one that overrules
    least (the earlier kind of ``WeakMatch``, then the lower threshold)."""
    order = list(WeakMatch)
    return min(choices, key=lambda c: (c.errors, order.index(c.weak), c.threshold))


def choose_cascade(texts: Sequence[str], labels: Sequence[str], sensitive: Sequence[float],
                   route_threshold: float, trained_on: str,
                   hits: Sequence[Sequence[ScopeHit]] | None = None) -> tuple[Cascade, CascadeChoice]:
    """The route's cascade (``best_cascade``) and how it scored."""
    best = best_cascade(cascade_choices(texts, labels, sensitive, route_threshold, hits))
    return Cascade(weak=best.weak, threshold=best.threshold, trained_on=trained_on), best
