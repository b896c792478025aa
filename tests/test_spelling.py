"""The shared speller (``botpsy.spelling``) over a vocabulary of one's own."""

from __future__ import annotations

from pathlib import Path

from botpsy.spelling import Speller


def test_a_speller_reads_slips_as_its_words_and_maps_spans_back(tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_text("# vocabulary x\nfever\n", encoding="utf-8")
    speller = Speller(["fewer", "remind", "tomorrow"], known, long_word=8)
    assert speller.correction("remnd") == "remind"
    assert speller.correction("tommorow") == "tomorrow"  # two edits in a long word
    assert speller.correction("fever") is None  # a word of its own
    assert speller.correction("xemind") is None  # another first letter
    reading = speller.reading("pls remnd me")
    assert reading is not None and reading.text == "pls remind me"
    start, end = reading.changed[0]
    assert reading.span(start, end) == (4, 9)
    assert speller.file_digest() == "x" and speller.digest() != "x"


def test_a_speller_may_ask_that_a_second_slip_be_a_doubled_letter(tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_text("# vocabulary x\n", encoding="utf-8")
    words = ["tomorrow", "cholesterol"]
    loose = Speller(words, known, long_word=8)
    strict = Speller(words, known, long_word=8, strict_second_slip=True)
    assert strict.correction("tommorow") == "tomorrow"  # a doubled and an undoubled letter
    assert strict.correction("tomorow") == "tomorrow"  # one slip
    assert strict.correction("cholesterolos") == "cholesterol"  # an ending added
    assert loose.correction("chalestorol") == "cholesterol"
    assert strict.correction("chalestorol") is None  # two changed letters: not a slip pair
