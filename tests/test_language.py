"""The calendar words of every language botpsy reads."""

import pytest

from botpsy.language import LANGUAGES, MONTHS, WEEKDAYS, month_words, weekday_words


def test_every_language_has_twelve_months_and_seven_days():
    for lang in LANGUAGES:
        assert len(MONTHS[lang]) == 12 and len(WEEKDAYS[lang]) == 7, lang


def test_names_are_folded_lower_case_and_short_ones_are_left_out_of_weekdays():
    words = month_words() | weekday_words()
    assert all(w == w.lower() and w.isascii() for w in words)
    assert {"juni", "juin", "junio", "giugno", "junho", "maerz"} <= month_words()
    assert "do" not in weekday_words() and "donnerstag" in weekday_words()


def test_each_reader_language_has_its_time_words_folded_lower_case():
    from botpsy.language import (
        CLOCK_WORDS,
        DAY_PARTS,
        DURATION_UNITS,
        NUMBER_WORDS,
        ONE_ARTICLES,
        RELATIVE_DAYS,
    )

    for lang in ("en", "de", "fr", "es"):
        tables = (RELATIVE_DAYS, NUMBER_WORDS, ONE_ARTICLES, CLOCK_WORDS, DAY_PARTS, DURATION_UNITS)
        for table in tables:
            words = [*table[lang]] + [w for ws in DURATION_UNITS[lang].values() for w in ws]
            assert all(w == w.lower() and w.isascii() for w in words), (lang, table)
        assert set(DURATION_UNITS[lang]) == {"minute", "hour", "day", "week"}
        assert sorted(NUMBER_WORDS[lang].values())[:20] == list(range(1, 21)), lang
        assert {0, 1, -1} <= set(RELATIVE_DAYS[lang].values()), lang
    assert RELATIVE_DAYS["de"]["morgen"] == 1 and NUMBER_WORDS["fr"]["quarante-cinq"] == 45


def test_unit_words_and_their_units():
    import re

    from botpsy.language import alternation, unit_of, unit_words

    assert unit_of("Mins") == "minute" and unit_of("stunden", "de") == "hour"
    with pytest.raises(KeyError):
        unit_of("fortnight")
    assert set(unit_words("en", ("hour",))) == {"hour", "hours", "hr", "hrs", "h"}
    # longest first: "minutes" is matched whole, never cut to "min"
    assert re.match(alternation(["min", "minutes", "mins"]), "minutes").group() == "minutes"


def test_a_relation_is_read_in_each_of_its_words_plural_and_possessive_too():
    from botpsy.language import relation_forms
    assert relation_forms("mums") == relation_forms("mom") == relation_forms("mother")
    assert "mum" in relation_forms("mother")
    assert relation_forms("sis") == ("sister", "sis")
    assert relation_forms("dogs") == ("dogs",)
