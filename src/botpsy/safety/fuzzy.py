"""Misspelt key words read as meant: "pasword" as "password", "Passwrot" as "Passwort".

A word of the text that is not itself a key word (``lexicon.VOCABULARY``) but lies
one edit from one (two for words of nine letters or more, an ending or one of them a
doubled or undoubled letter: "Chorleiterin", a compound the word lists lack, is no "Cholesterin")
is read as that key word,
by the rules of ``botpsy.spelling.Speller`` (same first letter, at least five letters
or a swap, and no word of its own in any of the six languages: "fewer" stays "fewer",
not "fever"; "heath" is not "health").

The corrected reading goes through the same rules and look-alikes as the text, so
a corrected word decides only where the rules would decide on the key word itself.

The dictionary words within reach of a key word are kept in ``fuzzy_known_words.txt``
beside this module. After changing the vocabulary, rebuild that file (pyspellchecker is
in the ``dev`` extra)::

    python -m botpsy.safety.fuzzy
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from botpsy.safety import lexicon
from botpsy.spelling import Correction, Reading, Speller

KNOWN_WORDS_FILE = Path(__file__).with_name("fuzzy_known_words.txt")
FuzzyReading = Reading

__all__ = ["KNOWN_WORDS_FILE", "Correction", "FuzzyReading", "correction", "corrections",
           "fuzzy_reading", "speller"]


@cache
def speller() -> Speller:
    """The scope policy's speller over its key words."""
    return Speller(lexicon.VOCABULARY, KNOWN_WORDS_FILE, source="python -m botpsy.safety.fuzzy",
                   strict_second_slip=True)


def correction(word: str) -> str | None:
    """The key word ``word`` was meant to be, or None when it is one or none is near."""
    return speller().correction(word)


def corrections(text: str) -> list[Correction]:
    """Every misspelt key word in ``text``."""
    return speller().corrections(text)


def fuzzy_reading(text: str) -> FuzzyReading | None:
    """``text`` with its misspelt key words read as meant; None when it has none."""
    return speller().reading(text)


if __name__ == "__main__":
    print(f"{KNOWN_WORDS_FILE}: {speller().write_known_words()} words")
