"""Misspelt key words read as meant: "pasword" as "password", "Passwrot" as "Passwort".

A word of the text that is not itself a key word (``lexicon.VOCABULARY``) but lies
one edit from one (two for words of nine letters or more; an edit is an insertion,
a deletion, a substitution or a swap of neighbours) is read as that key word, when

- it starts with the same letter (slips rarely hit the first key),
- it has at least five letters, or four with two letters swapped ("crad"),
- and it is no word of its own in English, German, French, Spanish, Italian or
  Portuguese ("fewer" stays "fewer", not "fever"; "heath" is not "health").

The corrected reading goes through the same rules and look-alikes as the text, so
a corrected word decides only where the rules would decide on the key word itself.

Which words are words of their own comes from pyspellchecker's word lists; the few
that lie within reach of a key word are kept in ``fuzzy_known_words.txt`` beside
this module, so a request never waits for the full lists to load. After changing
the vocabulary, rebuild that file (pyspellchecker is in the ``dev`` extra)::

    python -m botpsy.safety.fuzzy
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import OSA

from botpsy.safety import lexicon

DICTIONARY_LANGUAGES = ("en", "de", "fr", "es", "it", "pt")
_WORD = re.compile(r"[^\W\d_]+")
_MIN_LETTERS = 5
KNOWN_WORDS_FILE = Path(__file__).with_name("fuzzy_known_words.txt")


@dataclass(frozen=True)
class Correction:
    """A word of the text (``start``/``end`` in it) read as the key word ``word``."""

    start: int
    end: int
    word: str


@dataclass
class FuzzyReading:
    """``text`` with misspelt key words replaced, ``changed`` the spans of the
    replacements in it, and ``origin`` the position in the source text of each of its
    characters (plus the end), to map a match back."""

    text: str
    changed: list[tuple[int, int]] = field(default_factory=list)
    origin: list[int] = field(default_factory=list)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The source text's span of ``text[start:end]``."""
        if end <= start:
            return self.origin[start], self.origin[start]
        return self.origin[start], self.origin[end - 1] + 1


def fold(word: str) -> str:
    """``word`` lower-cased without accents ("Überweisung" -> "uberweisung")."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@cache
def _vocabulary() -> dict[str, tuple[str, ...]]:
    """Key words by first letter."""
    by_first: dict[str, set[str]] = {}
    for word in lexicon.VOCABULARY:
        by_first.setdefault(word[0], set()).add(fold(word))
    return {first: tuple(sorted(words)) for first, words in by_first.items()}


def _max_edits(length: int) -> int:
    return 2 if length >= 9 else 1


def vocabulary_digest() -> str:
    """A fingerprint of what ``KNOWN_WORDS_FILE`` was built from: the key words, the
    dictionaries and the edit budget."""
    keys = sorted({fold(w) for w in lexicon.VOCABULARY})
    basis = "\n".join([*DICTIONARY_LANGUAGES, *keys, str([_max_edits(n) for n in range(20)])])
    return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]


@cache
def known_words() -> frozenset[str]:
    """Dictionary words (folded) within reach of a key word: words a person meant."""
    lines = KNOWN_WORDS_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def build_known_words() -> list[str]:
    """The dictionary words within reach of a key word, from pyspellchecker's lists."""
    from spellchecker import SpellChecker

    by_first: dict[str, set[str]] = defaultdict(set)
    for language in DICTIONARY_LANGUAGES:
        for word in SpellChecker(language=language).word_frequency.keys():  # noqa: SIM118
            folded = fold(word)
            by_first[folded[:1]].add(folded)
    near: set[str] = set()
    for first, keys in _vocabulary().items():
        pool = list(by_first[first])
        for key in keys:
            near.update(w for w, _, _ in process.extract(
                key, pool, scorer=OSA.distance, score_cutoff=_max_edits(len(key)), limit=None)
                if w != key)
    return sorted(near)


def main() -> None:
    """Rebuild ``KNOWN_WORDS_FILE``."""
    words = build_known_words()
    header = [f"# vocabulary {vocabulary_digest()}",
              "# words of en/de/fr/es/it/pt (pyspellchecker, MIT) within reach of a key word;",
              "# built by `python -m botpsy.safety.fuzzy`"]
    KNOWN_WORDS_FILE.write_text("\n".join([*header, *words]) + "\n", encoding="utf-8")
    print(f"{KNOWN_WORDS_FILE}: {len(words)} words")


def correction(word: str) -> str | None:
    """The key word ``word`` was meant to be, or None when it is one or none is near."""
    token = fold(word)
    keys = _vocabulary().get(token[:1], ())
    if len(token) < 4 or token in keys:
        return None
    edits = _max_edits(len(token))
    found = process.extractOne(token, keys, scorer=OSA.distance, score_cutoff=edits)
    if found is None:
        return None
    key = found[0]
    if len(token) < _MIN_LETTERS and sorted(token) != sorted(key):
        return None  # four letters: only a swap ("crad") is taken for a slip
    if token in known_words():
        return None
    return key


def corrections(text: str) -> list[Correction]:
    """Every misspelt key word in ``text``."""
    found = []
    for m in _WORD.finditer(text):
        if (key := correction(m.group())) is not None:
            found.append(Correction(m.start(), m.end(), key))
    return found


def fuzzy_reading(text: str) -> FuzzyReading | None:
    """``text`` with its misspelt key words read as meant; None when it has none."""
    found = corrections(text)
    if not found:
        return None
    reading = FuzzyReading(text="")
    pieces: list[str] = []
    last = 0
    for fix in found:
        pieces.append(text[last:fix.start])
        reading.origin += range(last, fix.start)
        start = sum(map(len, pieces))
        pieces.append(fix.word)
        reading.origin += [min(fix.start + i, fix.end - 1) for i in range(len(fix.word))]
        reading.changed.append((start, start + len(fix.word)))
        last = fix.end
    pieces.append(text[last:])
    reading.origin += [*range(last, len(text)), len(text)]
    reading.text = "".join(pieces)
    return reading


if __name__ == "__main__":
    main()
