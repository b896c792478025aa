"""The calendar words of every language botpsy reads."""

from botpsy.language import LANGUAGES, MONTHS, WEEKDAYS, month_words, weekday_words


def test_every_language_has_twelve_months_and_seven_days():
    for lang in LANGUAGES:
        assert len(MONTHS[lang]) == 12 and len(WEEKDAYS[lang]) == 7, lang


def test_names_are_folded_lower_case_and_short_ones_are_left_out_of_weekdays():
    words = month_words() | weekday_words()
    assert all(w == w.lower() and w.isascii() for w in words)
    assert {"juni", "juin", "junio", "giugno", "junho", "maerz"} <= month_words()
    assert "do" not in weekday_words() and "donnerstag" in weekday_words()
