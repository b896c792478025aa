"""The cascade: a classifier route takes back the rules' block of a request whose every
match is weak (``config.WeakMatch``) when it is sure enough the request is benign."""

from __future__ import annotations

import pytest

from botpsy.evals.safety_set import training_rows_fingerprint
from botpsy.safety import SafetyConfig, ScopePolicy, classify
from botpsy.safety.classifier_base import Cascade, ClassifierMissingError, ClassifierVerdict
from botpsy.safety.config import ClassifierModel, Domain, WeakMatch
from botpsy.safety.policy import weak_match


class _Sure:
    """A classifier stand-in, equally sure of every request that it is sensitive."""

    name = "stand-in"

    def __init__(self, sensitive: float):
        self.sensitive, self.calls = sensitive, 0

    def verdict(self, text: str) -> ClassifierVerdict:
        self.calls += 1
        domain = Domain.money if self.sensitive >= 0.9 else None
        return ClassifierVerdict(domain=domain, sensitive=self.sensitive)


LONE_WORD = "Put the Johnny Cash record on my playlist"  # one key word read as money
PHRASE = "Transfer 200 euros to my landlord"
CARD = "Note my card 4111 1111 1111 1111"


@pytest.mark.parametrize(("kind", "lone", "phrase", "card"), [
    (WeakMatch.none, False, False, False),
    (WeakMatch.misspelt, False, False, False),
    (WeakMatch.one_word, True, False, False),
    (WeakMatch.words, True, False, False),
    (WeakMatch.any, True, True, False),  # an identifier is never weak
])
def test_which_matches_are_weak(kind: WeakMatch, lone: bool, phrase: bool, card: bool) -> None:
    for text, weak in ((LONE_WORD, lone), (PHRASE, phrase), (CARD, card)):
        hits = classify(text)
        assert hits, text
        assert weak_match(text, hits, kind) is weak, (kind, text)
    assert not weak_match("Add lunch on Friday", [], WeakMatch.any)  # nothing matched


def test_a_misspelt_key_word_is_marked_as_read_from_a_misspelling() -> None:
    text = "Email Dana my pasword"
    hits = classify(text)
    assert hits and all(h.misspelt for h in hits)
    assert weak_match(text, hits, WeakMatch.misspelt)
    assert not any(h.misspelt for h in classify("Email Dana my password"))


def test_two_key_words_are_one_word_only_when_they_share_it() -> None:
    text = "Pay the bank 50 euros"
    hits = classify(text)
    assert len({(h.start, h.end) for h in hits}) > 1
    assert not weak_match(text, hits, WeakMatch.one_word)


def test_the_classifier_takes_back_a_weak_match_it_is_sure_is_benign() -> None:
    cascade = Cascade(weak=WeakMatch.one_word, threshold=0.2)
    benign = _Sure(0.05)
    policy = ScopePolicy(classifier=benign, cascade=cascade)
    overruled = policy.check_request(LONE_WORD)
    assert not overruled.blocked and overruled.hits and benign.calls == 1
    assert policy.check_request(PHRASE).blocked  # a phrase stays final
    doubtful = ScopePolicy(classifier=_Sure(0.3), cascade=cascade)
    assert doubtful.check_request(LONE_WORD).blocked  # not sure enough that it is benign


def test_without_a_cascade_every_rule_match_stays_final() -> None:
    benign = _Sure(0.0)
    assert ScopePolicy(classifier=benign).check_request(LONE_WORD).blocked
    assert benign.calls == 0
    rules_only = ScopePolicy(cascade=Cascade(weak=WeakMatch.any, threshold=0.5))
    assert rules_only.check_request(LONE_WORD).blocked  # no classifier: the rules decide


def test_a_domain_that_is_not_blocked_does_not_count_against_weakness() -> None:
    config = SafetyConfig(blocked_domains=[Domain.money])
    policy = ScopePolicy(config, classifier=_Sure(0.0),
                         cascade=Cascade(weak=WeakMatch.one_word, threshold=0.2))
    assert not policy.check_request(LONE_WORD).blocked


def test_cascade_settings_round_trip_per_route(tmp_path) -> None:
    path = tmp_path / "cascade.json"
    ngram = Cascade(weak=WeakMatch.one_word, threshold=0.05, trained_on="t")
    mean = Cascade(weak=WeakMatch.any, threshold=0.1, trained_on="t")
    ngram.save(ClassifierModel.ngram, path)
    mean.save(ClassifierModel.mean, path)
    assert Cascade.shipped(ClassifierModel.ngram, path) == ngram
    assert Cascade.shipped(ClassifierModel.mean, path) == mean
    with pytest.raises(ClassifierMissingError, match="--train-classifier use"):
        Cascade.shipped(ClassifierModel.use, path)
    with pytest.raises(ClassifierMissingError, match="--train-classifier use"):
        Cascade.shipped(ClassifierModel.use, tmp_path / "absent.json")


@pytest.mark.parametrize("model", list(ClassifierModel))
def test_the_shipped_cascades_were_chosen_on_the_training_rows(model: ClassifierModel) -> None:
    """If this fails, the training rows changed: rechoose them (and retrain) with
    `python -m botpsy.evals.safety_set --train-classifier`."""
    cascade = Cascade.shipped(model)
    assert cascade.trained_on == training_rows_fingerprint()
    assert 0.0 <= cascade.threshold < 0.5


def test_a_classifier_route_from_the_config_carries_its_shipped_cascade() -> None:
    policy = ScopePolicy(SafetyConfig(scope_classifier=True, scope_classifier_model="ngram"))
    assert policy.cascade == Cascade.shipped(ClassifierModel.ngram)
    assert ScopePolicy().cascade is None  # the rules alone: every match is final


def test_a_report_names_the_matches_its_route_decides() -> None:
    from botpsy.evals.safety_set import route_name

    cascade = Cascade(weak=WeakMatch.one_word, threshold=0.1)
    named = route_name(ScopePolicy(classifier=_Sure(0.0), cascade=cascade))
    assert named == "rules + stand-in, deciding one_word rule matches under 0.1"
    assert route_name(ScopePolicy(classifier=_Sure(0.0))) == "rules + stand-in"
    assert route_name(ScopePolicy()) == "rules"
