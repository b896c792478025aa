"""Calendar words of the languages botpsy's users write in, in one place.

Checks that read a request or a tool result for dates (is "13" in "June 13" a day
or an id?) need the month and weekday names of every language the scope policy
covers, not only English. Names are lower-case and without accents (match them
against text folded the same way); abbreviations are listed where people write
them ("Sept", "mar.").
"""

from __future__ import annotations

LANGUAGES = ("en", "de", "fr", "es", "it", "pt")

MONTHS: dict[str, tuple[tuple[str, ...], ...]] = {
    "en": (("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
           ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
           ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
           ("december", "dec")),
    "de": (("januar", "jan", "jaenner"), ("februar", "feb"), ("maerz", "marz", "mrz"),
           ("april", "apr"), ("mai",), ("juni",), ("juli",), ("august", "aug"),
           ("september", "sep", "sept"), ("oktober", "okt"), ("november", "nov"),
           ("dezember", "dez")),
    "fr": (("janvier", "janv"), ("fevrier", "fevr"), ("mars",), ("avril", "avr"), ("mai",),
           ("juin",), ("juillet", "juil"), ("aout",), ("septembre", "sept"),
           ("octobre", "oct"), ("novembre", "nov"), ("decembre", "dec")),
    "es": (("enero", "ene"), ("febrero", "feb"), ("marzo", "mar"), ("abril", "abr"),
           ("mayo", "may"), ("junio", "jun"), ("julio", "jul"), ("agosto", "ago"),
           ("septiembre", "setiembre", "sep", "sept"), ("octubre", "oct"),
           ("noviembre", "nov"), ("diciembre", "dic")),
    "it": (("gennaio", "gen"), ("febbraio", "feb"), ("marzo", "mar"), ("aprile", "apr"),
           ("maggio", "mag"), ("giugno", "giu"), ("luglio", "lug"), ("agosto", "ago"),
           ("settembre", "set"), ("ottobre", "ott"), ("novembre", "nov"),
           ("dicembre", "dic")),
    "pt": (("janeiro", "jan"), ("fevereiro", "fev"), ("marco", "mar"), ("abril", "abr"),
           ("maio", "mai"), ("junho", "jun"), ("julho", "jul"), ("agosto", "ago"),
           ("setembro", "set"), ("outubro", "out"), ("novembro", "nov"),
           ("dezembro", "dez")),
}

WEEKDAYS: dict[str, tuple[tuple[str, ...], ...]] = {
    "en": (("monday", "mon"), ("tuesday", "tue", "tues"), ("wednesday", "wed"),
           ("thursday", "thu", "thurs"), ("friday", "fri"), ("saturday", "sat"),
           ("sunday", "sun")),
    "de": (("montag", "mo"), ("dienstag", "di"), ("mittwoch", "mi"), ("donnerstag", "do"),
           ("freitag", "fr"), ("samstag", "sonnabend", "sa"), ("sonntag", "so")),
    "fr": (("lundi",), ("mardi",), ("mercredi",), ("jeudi",), ("vendredi",), ("samedi",),
           ("dimanche",)),
    "es": (("lunes",), ("martes",), ("miercoles",), ("jueves",), ("viernes",), ("sabado",),
           ("domingo",)),
    "it": (("lunedi",), ("martedi",), ("mercoledi",), ("giovedi",), ("venerdi",),
           ("sabato",), ("domenica",)),
    "pt": (("segunda", "segunda-feira"), ("terca", "terca-feira"), ("quarta", "quarta-feira"),
           ("quinta", "quinta-feira"), ("sexta", "sexta-feira"), ("sabado",), ("domingo",)),
}


def full_names(table: dict[str, tuple[tuple[str, ...], ...]], lang: str = "en") -> list[str]:
    """The full names of ``table`` (``MONTHS``, ``WEEKDAYS``) in one language, in order."""
    return [names[0] for names in table[lang]]


def month_words() -> frozenset[str]:
    """Every month name and abbreviation, of every language."""
    return frozenset(w for months in MONTHS.values() for names in months for w in names)


def weekday_words() -> frozenset[str]:
    """Every weekday name and abbreviation of at least three letters, of every language
    (two-letter German ones, "do", "so", read as ordinary words elsewhere)."""
    return frozenset(w for days in WEEKDAYS.values() for names in days for w in names
                     if len(w) >= 3)
