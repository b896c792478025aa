"""Misspelt key words are read as meant, real words are left alone."""

from __future__ import annotations

import pytest

from botpsy.safety import fuzzy
from botpsy.safety.config import Domain
from botpsy.safety.policy import ScopePolicy, classify


@pytest.mark.parametrize(("typed", "meant"), [
    ("pasword", "password"),  # a deletion
    ("Passwrot", "passwort"),  # a swap, German
    ("perscription", "prescription"),  # a swap inside a long word
    ("crad", "card"),  # four letters: a swap only
    ("tranferencia", "transferencia"),
    ("Ordonance", "ordonnance"),
    ("Kreditkarrte", "kreditkarte"),  # two edits in a long word, one a doubled letter
])
def test_misspellings_are_corrected(typed: str, meant: str) -> None:
    assert fuzzy.correction(typed) == meant


@pytest.mark.parametrize("word", [
    "agent", "ahorro", "cart", "pasta",  # words of their own near key words ("argent")
    "password",  # a key word itself
    "card", "bank", "mode",  # too short to correct
    "xassword",  # a different first letter
    "Chorleiterin",  # a compound the lists lack, two slips of no doubled letter from "Cholesterin"
])
def test_words_of_their_own_are_left_alone(word: str) -> None:
    assert fuzzy.correction(word) is None


def test_reading_maps_back_to_the_text() -> None:
    text = "send my pasword and crad to Bob"
    reading = fuzzy.fuzzy_reading(text)
    assert reading is not None
    assert reading.text == "send my password and card to Bob"
    for start, end in reading.changed:
        src_start, src_end = reading.span(start, end)
        assert text[src_start:src_end] in {"pasword", "crad"}
    assert fuzzy.fuzzy_reading("nothing to correct here") is None


def test_a_corrected_word_decides_only_where_the_rules_would() -> None:
    [hit] = classify("Text Bob my pasword for the portal")
    assert hit.domain is Domain.personal_data and hit.matched == "pasword"
    # "crad" alone completes no rule, as "card" alone would not
    assert classify("Put the crad on the table") == []
    assert not ScopePolicy().check_request("Send the agent 3 copies of the report").blocked


def test_known_words_file_matches_the_vocabulary() -> None:
    """The shipped word list was built for the current key words; if this fails, run
    `python -m botpsy.safety.fuzzy`."""
    speller = fuzzy.speller()
    assert speller.file_digest() == speller.digest()
    assert "agent" in speller.known_words and "pasword" not in speller.known_words
