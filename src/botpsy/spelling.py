"""Misspelt words read as meant, against a closed vocabulary.

People type fast: "pasword", "remnd me", "tommorow", "whats the dentists adress". A
rule that keys on a word ("password", "remind", "tomorrow", "address") misses it
misspelt. A ``Speller`` reads a word of the text as one of its vocabulary's words when

- the word is not itself a vocabulary word,
- it lies one edit from one (two for long words; an edit is an insertion, a deletion,
  a substitution or a swap of neighbours; a speller may ask that two edits be an ending or
  hold a doubled or undoubled letter, the common second slip, so that a long word of its own
  the lists lack, such as a compound, is not read as a key word two slips away),
- it starts with the same letter (slips rarely hit the first key),
- it has at least five letters, or four with two letters swapped ("crad"),
- and it is no word of its own in English, German, French, Spanish, Italian or
  Portuguese ("fewer" stays "fewer", not "fever"; "heath" is not "health").

Which words are words of their own comes from pyspellchecker's word lists; the few
that lie within reach of a vocabulary word are kept in a small file beside the module
that owns the vocabulary, so a request never waits for the full lists to load (and
pyspellchecker, a ``dev`` extra, is needed only to rebuild that file). Each file
starts with a digest of what it was built from; a test per speller compares it.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import OSA

DICTIONARY_LANGUAGES = ("en", "de", "fr", "es", "it", "pt")
WORD = re.compile(r"[^\W\d_]+")
_MIN_LETTERS = 5
_DIGEST_LINE = "# vocabulary "


def _squeezed(word: str) -> str:
    """``word`` with each run of one letter written once ("tommorow" -> "tomorow")."""
    return re.sub(r"(.)\1+", r"\1", word)


def _second_slip_allowed(token: str, key: str) -> bool:
    """Whether two edits between ``token`` and ``key`` are a likely pair of slips: an
    ending added or dropped ("ibuprofenos"), or one slip besides doubled letters
    ("tommorow" for "tomorrow"); "chorleiterin" is no "cholesterin" (a letter added and
    one changed inside the word: a compound the lists lack)."""
    if token.startswith(key) or key.startswith(token):
        return True
    return OSA.distance(_squeezed(token), _squeezed(key)) <= 1


def fold(word: str) -> str:
    """``word`` lower-cased without accents ("Überweisung" -> "uberweisung")."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class Correction:
    """A word of the text (``start``/``end`` in it) read as the vocabulary word ``word``."""

    start: int
    end: int
    word: str


@dataclass
class Reading:
    """``text`` with misspelt words replaced, ``changed`` the spans of the replacements
    in it, and ``origin`` the position in the source text of each of its characters
    (plus the end), to map a match back."""

    text: str
    changed: list[tuple[int, int]] = field(default_factory=list)
    origin: list[int] = field(default_factory=list)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The source text's span of ``text[start:end]``."""
        if end <= start:
            return self.origin[start], self.origin[start]
        return self.origin[start], self.origin[end - 1] + 1


class Speller:
    """Reads misspelt words of a text as words of ``vocabulary``.

    ``known_words_file`` holds the dictionary words within reach of the vocabulary
    (``build_known_words``; ``write_known_words`` rebuilds it). ``long_word``: from this
    length on a word may be two edits away ("tommorow" for "tomorrow")."""

    def __init__(self, vocabulary: Iterable[str], known_words_file: Path, *,
                 long_word: int = 9, source: str = "", strict_second_slip: bool = False,
                 ) -> None:
        self.vocabulary = frozenset(fold(w) for w in vocabulary if w)
        self.known_words_file = known_words_file
        self.long_word = long_word
        self.source = source  # the command that rebuilds the file, for its header
        self.strict_second_slip = strict_second_slip

    @cached_property
    def _by_first(self) -> dict[str, tuple[str, ...]]:
        by_first: dict[str, set[str]] = {}
        for word in self.vocabulary:
            by_first.setdefault(word[0], set()).add(word)
        return {first: tuple(sorted(words)) for first, words in by_first.items()}

    def max_edits(self, length: int) -> int:
        return 2 if length >= self.long_word else 1

    def digest(self) -> str:
        """A fingerprint of what the known-words file is built from: the vocabulary,
        the dictionaries and the edit budget."""
        basis = "\n".join([*DICTIONARY_LANGUAGES, *sorted(self.vocabulary),
                           str([self.max_edits(n) for n in range(20)])])
        return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]

    def file_digest(self) -> str:
        """The digest the known-words file was built for ("" when it has none)."""
        first = self.known_words_file.read_text(encoding="utf-8").split("\n", 1)[0]
        return first.removeprefix(_DIGEST_LINE) if first.startswith(_DIGEST_LINE) else ""

    @cached_property
    def known_words(self) -> frozenset[str]:
        """Dictionary words (folded) within reach of a vocabulary word: words a person meant."""
        lines = self.known_words_file.read_text(encoding="utf-8").splitlines()
        return frozenset(line for line in lines if line and not line.startswith("#"))

    def build_known_words(self) -> list[str]:
        """The dictionary words within reach of a vocabulary word, from pyspellchecker's
        lists (the ``dev`` extra)."""
        from spellchecker import SpellChecker

        by_first: dict[str, set[str]] = defaultdict(set)
        for language in DICTIONARY_LANGUAGES:
            for word in SpellChecker(language=language).word_frequency.keys():  # noqa: SIM118
                folded = fold(word)
                by_first[folded[:1]].add(folded)
        near: set[str] = set()
        for first, keys in self._by_first.items():
            pool = list(by_first[first])
            for key in keys:
                near.update(w for w, _, _ in process.extract(
                    key, pool, scorer=OSA.distance, score_cutoff=self.max_edits(len(key)),
                    limit=None) if w != key)
        return sorted(near)

    def write_known_words(self) -> int:
        """Rebuild the known-words file; the number of words written."""
        words = self.build_known_words()
        header = [f"{_DIGEST_LINE}{self.digest()}",
                  "# words of en/de/fr/es/it/pt (pyspellchecker, MIT) near a vocabulary word;",
                  f"# built by `{self.source}`"]
        self.known_words_file.write_text("\n".join([*header, *words]) + "\n", encoding="utf-8")
        return len(words)

    def correction(self, word: str) -> str | None:
        """The vocabulary word ``word`` was meant to be, or None when it is one or none
        is near."""
        token = fold(word)
        keys = self._by_first.get(token[:1], ())
        if len(token) < 4 or token in keys:
            return None
        found = process.extractOne(token, keys, scorer=OSA.distance,
                                   score_cutoff=self.max_edits(len(token)))
        if found is None:
            return None
        key = found[0]
        if found[1] > self.max_edits(len(key)):
            # the edit budget is the meant word's, as the known-words file was built:
            # "personal" is two edits from "person", which allows one
            return None
        if found[1] > 1 and self.strict_second_slip and not _second_slip_allowed(token, key):
            return None  # two slips of which neither is a doubled letter: a word of its own
        if len(token) < _MIN_LETTERS and sorted(token) != sorted(key):
            return None  # four letters: only a swap ("crad") is taken for a slip
        if token in self.known_words:
            return None
        return key

    def corrections(self, text: str) -> list[Correction]:
        """Every misspelt vocabulary word in ``text``."""
        found = []
        for m in WORD.finditer(text):
            if (key := self.correction(m.group())) is not None:
                found.append(Correction(m.start(), m.end(), key))
        return found

    def reading(self, text: str, found: list[Correction] | None = None) -> Reading | None:
        """``text`` with its misspelt words (``found``, else ``corrections``) read as
        meant; None when it has none."""
        found = self.corrections(text) if found is None else found
        if not found:
            return None
        reading = Reading(text="")
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
