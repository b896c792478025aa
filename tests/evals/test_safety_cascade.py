"""Choosing a route's cascade on out-of-fold probabilities: its arithmetic."""

from __future__ import annotations

from botpsy.evals.safety_cascade import CascadeChoice, best_cascade, cascade_choices, route_blocks
from botpsy.safety import classify
from botpsy.safety.config import WeakMatch


def test_route_blocks_overrules_only_weak_matches_below_the_threshold() -> None:
    hits = [["h"], ["h"], ["h"], [], []]
    weak = [True, True, False, False, False]
    sensitive = [0.05, 0.5, 0.0, 0.95, 0.5]
    assert route_blocks(hits, weak, sensitive, 0.9, 0.1) == [False, True, True, True, False]


def test_cascade_choices_count_false_alarms_and_misses() -> None:
    texts = ["Put the Johnny Cash record on my playlist", "Check my bank balance", "Add lunch on Friday"]
    labels = ["none", "money", "none"]
    # the classifier is sure the first is benign and the second sensitive
    choices = cascade_choices(texts, labels, [0.01, 0.95, 0.1], route_threshold=0.9)
    kept = next(c for c in choices if c.weak is WeakMatch.none)
    assert (kept.false_alarms, kept.misses) == (1, 0)
    best = best_cascade(choices)
    assert best.errors == 0 and best.weak is not WeakMatch.none
    hits = [classify(t) for t in texts]
    assert cascade_choices(texts, labels, [0.01, 0.95, 0.1], 0.9, hits) == choices


def test_best_cascade_keeps_the_smaller_change_on_a_tie() -> None:
    def choice(weak: WeakMatch, threshold: float, errors: int) -> CascadeChoice:
        return CascadeChoice(weak=weak, threshold=threshold, precision=1.0, recall=1.0,
                             false_alarms=errors, misses=0)

    none, lone, every = (choice(WeakMatch.none, 0.0, 3), choice(WeakMatch.one_word, 0.2, 3),
                         choice(WeakMatch.any, 0.1, 3))
    assert best_cascade([every, lone, none]) == none
    better = choice(WeakMatch.any, 0.05, 2)
    assert best_cascade([none, lone, better]) == better
    assert best_cascade([choice(WeakMatch.words, 0.3, 1), choice(WeakMatch.words, 0.1, 1)]
                        ).threshold == 0.1
