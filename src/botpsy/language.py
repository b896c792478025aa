"""Calendar and time words of the languages botpsy's users write in, in one place.

Checks that read a request or a tool result for dates (is "13" in "June 13" a day
or an id?) need the month and weekday names of every language the scope policy
covers, not only English. Names are lower-case and without accents (match them
against text folded the same way); abbreviations are listed where people write
them ("Sept", "mar."). Beside month and weekday names: relative days, number words,
clock words and parts of the day, and the units of a length, for English, German, French
and Spanish (Italian and Portuguese where cheap). Readers that only read English take
the ``"en"`` table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

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
    "en": (("monday", "mon"), ("tuesday", "tue", "tues"), ("wednesday", "wed", "weds"),
           ("thursday", "thu", "thur", "thurs"), ("friday", "fri"), ("saturday", "sat"),
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


# Days named relative to today, as the offset in days from today. English lists only the
# words the readers take today ("the day after tomorrow" is a phrase the day check reads
# on its own, since "tomorrow" inside it is not the day meant). German "morgen" is both
# tomorrow and (as "Morgen") the morning, and Spanish "manana" tomorrow and the morning
# (``DAY_PARTS``): a reader of those languages must tell them apart.
RELATIVE_DAYS: dict[str, dict[str, int]] = {
    "en": {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1},
    "de": {"heute": 0, "morgen": 1, "gestern": -1, "uebermorgen": 2, "vorgestern": -2},
    "fr": {"aujourd'hui": 0, "ce soir": 0, "demain": 1, "hier": -1, "apres-demain": 2,
           "avant-hier": -2},
    "es": {"hoy": 0, "esta noche": 0, "manana": 1, "ayer": -1, "pasado manana": 2,
           "anteayer": -2},
    "it": {"oggi": 0, "stasera": 0, "domani": 1, "ieri": -1, "dopodomani": 2},
    "pt": {"hoje": 0, "amanha": 1, "ontem": -1, "depois de amanha": 2},
}

# Counts written as words: one to twenty and the round numbers a length is said in ("half
# an hour" is a phrase, read by the duration extractor).
NUMBER_WORDS: dict[str, dict[str, int]] = {
    "en": {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
           "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
           "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45,
           "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90},
    "de": {"eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fuenf": 5, "sechs": 6, "sieben": 7,
           "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwoelf": 12, "dreizehn": 13,
           "vierzehn": 14, "fuenfzehn": 15, "sechzehn": 16, "siebzehn": 17, "achtzehn": 18,
           "neunzehn": 19, "zwanzig": 20, "dreissig": 30, "vierzig": 40,
           "fuenfundvierzig": 45, "fuenfzig": 50, "sechzig": 60, "neunzig": 90},
    "fr": {"un": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7,
           "huit": 8, "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "treize": 13,
           "quatorze": 14, "quinze": 15, "seize": 16, "dix-sept": 17, "dix-huit": 18,
           "dix-neuf": 19, "vingt": 20, "trente": 30, "quarante": 40,
           "quarante-cinq": 45, "cinquante": 50, "soixante": 60, "quatre-vingt-dix": 90},
    "es": {"uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7,
           "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13,
           "catorce": 14, "quince": 15, "dieciseis": 16, "diecisiete": 17, "dieciocho": 18,
           "diecinueve": 19, "veinte": 20, "treinta": 30, "cuarenta": 40,
           "cuarenta y cinco": 45, "cincuenta": 50, "sesenta": 60, "noventa": 90},
}

# The indefinite article, which counts one in "an hour", "eine Stunde", "une heure".
# Family relations, each group the words people write for one ("Mom." on a card, "mum's
# email" in a request), and the roles that name one person the contacts know by them.
RELATION_GROUPS: dict[str, tuple[tuple[str, ...], ...]] = {
    "en": (("mom", "mum", "mother", "mommy", "mummy", "mama"), ("dad", "father", "daddy", "papa"),
           ("grandma", "granny", "grandmother", "nana", "oma"),
           ("grandpa", "grandfather", "granddad", "grandad", "opa"),
           ("brother", "bro"), ("sister", "sis"), ("wife", "spouse"), ("husband", "spouse")),
}
ROLES: dict[str, tuple[str, ...]] = {
    "en": ("partner", "landlord", "landlady", "boss", "manager", "neighbour", "neighbor",
           "babysitter", "doctor", "dentist"),
}


def relation_forms(word: str, lang: str = "en") -> tuple[str, ...]:
    """The words of the relation ``word`` is one of ("mum": "mom", "mum", "mother", ...;
    "mums", a plural or a possessive written without its apostrophe, too), or ``(word,)``
    for any other word."""
    for base in dict.fromkeys((word, word.removesuffix("s"))):
        forms = [w for group in RELATION_GROUPS[lang] if base in group for w in group]
        if forms:
            return tuple(dict.fromkeys(forms))
    return (word,)


# The words that multiply a count said in words ("two thousand", "a hundred").
MULTIPLIERS: dict[str, dict[str, int]] = {
    "en": {"hundred": 100, "thousand": 1000, "million": 1_000_000},
}
ONE_ARTICLES: dict[str, tuple[str, ...]] = {
    "en": ("a", "an"), "de": ("ein", "eine", "einen"), "fr": ("un", "une"),
    "es": ("un", "una", "uno"),
}

# Words of a clock time with no digits, as (hour, minute).
CLOCK_WORDS: dict[str, dict[str, tuple[int, int]]] = {
    "en": {"noon": (12, 0), "midday": (12, 0), "midnight": (0, 0)},
    "de": {"mittag": (12, 0), "mitternacht": (0, 0)},
    "fr": {"midi": (12, 0), "minuit": (0, 0)},
    "es": {"mediodia": (12, 0), "medianoche": (0, 0)},
    "it": {"mezzogiorno": (12, 0), "mezzanotte": (0, 0)},
    "pt": {"meio-dia": (12, 0), "meia-noite": (0, 0)},
}

# Parts of the day, with the hour a part means when the text gives no time ("the evening
# before": 19:00).
DAY_PARTS: dict[str, dict[str, int]] = {
    "en": {"morning": 8, "afternoon": 14, "evening": 19, "night": 20},
    "de": {"vormittag": 10, "nachmittag": 14, "abend": 19, "nacht": 20},
    "fr": {"matin": 8, "apres-midi": 14, "soir": 19, "nuit": 20},
    "es": {"manana": 8, "tarde": 14, "noche": 20},
}

# Words that say when only roughly, beside days, times and lengths: a request that says
# one of them asks for a time, though not one a reader can fix ("remind me next week").
ROUGH_WHEN: dict[str, tuple[str, ...]] = {
    "en": ("day", "then", "week", "weekend", "month", "year", "later", "soon", "asap", "eod", "due",
           "deadline", "before", "after", "until", "till", "christmas", "xmas", "easter",
           "breakfast", "lunch", "lunchtime", "dinner", "bedtime"),
}

# Units of a length or an offset, each with the words written for it (singular, plural,
# abbreviations).
DURATION_UNITS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"minute": ("minute", "minutes", "min", "mins"),
           "hour": ("hour", "hours", "hr", "hrs", "h"),
           "day": ("day", "days"), "week": ("week", "weeks")},
    "de": {"minute": ("minute", "minuten", "min"), "hour": ("stunde", "stunden", "std", "h"),
           "day": ("tag", "tage", "tagen"), "week": ("woche", "wochen")},
    "fr": {"minute": ("minute", "minutes", "min"), "hour": ("heure", "heures", "h"),
           "day": ("jour", "jours"), "week": ("semaine", "semaines")},
    "es": {"minute": ("minuto", "minutos", "min"), "hour": ("hora", "horas", "h"),
           "day": ("dia", "dias"), "week": ("semana", "semanas")},
}
UNIT_MINUTES = {"minute": 1, "hour": 60, "day": 1440, "week": 10080}


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of ``words`` (an iterable of plain words), longest first so a
    word is never cut to a shorter one it starts with ("minutes" before "min")."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


def unit_words(lang: str = "en", units: tuple[str, ...] = tuple(UNIT_MINUTES)) -> list[str]:
    """Every word of ``units`` (``"minute"``, ``"hour"``, ...) in one language."""
    return [w for unit in units for w in DURATION_UNITS[lang][unit]]


def unit_of(word: str, lang: str = "en") -> str:
    """The unit (``"minute"``, ``"hour"``, ``"day"``, ``"week"``) a unit word names."""
    folded = word.lower()
    for unit, words in DURATION_UNITS[lang].items():
        if folded in words:
            return unit
    raise KeyError(f"{word!r} names no unit in {lang!r}")
