"""Typed values in a user's words or a tool's text: days, times of day, when phrases, lengths,
offsets, email addresses, phone numbers, item ids, file names and quoted titles, each found
once, here.

The agent's checks (day, duration, address, phone, title, grounding) and the taint
tracker each ask the same questions of a text: which addresses does it hold, which
number is a phone number, how long is "an hour and a half". Answered in one module, a
fix to one reader is a fix to all, and the language data they read lives in
``botpsy.language``. Each extractor returns ``Found`` values in text order: the kind,
the text as written, its span, and its parsed value where one can be read without the
store (a day phrase's date needs the store's zone and clock: ``assistant.timeutil``
reads it). The patterns read English, as the checks always have; a reader of another
language takes its tables from ``botpsy.language`` the same way.

    >>> [f.value for f in durations("a 30-minute call, then two hours of work")]
    [datetime.timedelta(seconds=1800), datetime.timedelta(seconds=7200)]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, time, timedelta
from enum import Enum
from typing import Generic, TypeVar

from botpsy.language import (
    CLOCK_WORDS,
    DAY_PARTS,
    MONTHS,
    NUMBER_WORDS,
    ONE_ARTICLES,
    RELATIVE_DAYS,
    ROUGH_WHEN,
    UNIT_MINUTES,
    WEEKDAYS,
    alternation,
    full_names,
    month_words,
    unit_of,
    unit_words,
)

V = TypeVar("V")


class Kind(str, Enum):
    """What a found value is."""

    day = "day"
    time = "time"
    duration = "duration"
    offset = "offset"
    email = "email"
    phone = "phone"
    id = "id"
    when = "when"
    file = "file"
    title = "title"
    shift = "shift"
    place = "place"


@dataclass(frozen=True)
class Found(Generic[V]):
    """One value found in a text: its kind, the text as written, where it stands
    (``text[span[0]:span[1]]``), and its parsed value (None where it needs more than the
    text to read)."""

    kind: Kind
    text: str
    span: tuple[int, int]
    value: V


# ---- days and times ---------------------------------------------------------------

WEEKDAY = "|".join(full_names(WEEKDAYS))
MONTH = alternation(w for names in MONTHS["en"] for w in names)
# "yesterday" is not a day a call is held to (a request about the past reads it as such),
# as before the words moved here.
_HELD_DAYS = alternation(set(RELATIVE_DAYS["en"]) - {"yesterday"})
# Weekday abbreviations that are no other English word ("fri", "thurs"), and those that
# are ("wed", "sat", "sun"): a day only after "this", "next" or "on", or before a time ("sat
# at 10", "wed 7am").
_SHORT_DAY = alternation(w for names in WEEKDAYS["en"] for w in names[1:]
                         if w not in ("wed", "sat", "sun"))
_WORD_DAY = "wed|sat|sun"
_AT_TIME_AHEAD = r"(?=\.?,?\s+(?:at\s+\d|\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)\b|\d{1,2}[:.]\d\d))"
# The year a date is written with ("2 Jan 2030", "January 2, 2030"): part of the day it
# names, or a date in a later year is read as its next showing
_YEAR_AFTER = r"(?:19|20)\d\d(?!\d|[:.]\d)"
# A weekday of the week after this one: "tuesday next week", "thu of next week", "next week
# on friday" (``DayWord.week_after``), one phrase so the weekday is not read as this week's.
# The words that put a weekday in next week, after it and before it (``day_word`` reads them too).
_NEXT_WEEK_AFTER = r"\s+(?:of\s+)?next\s+week"
_NEXT_WEEK_BEFORE = r"next\s+week\s+(?:on\s+)?"
_IN_NEXT_WEEK = (rf"(?:{WEEKDAY}|{_SHORT_DAY}|{_WORD_DAY}){_NEXT_WEEK_AFTER}"
                 rf"|{_NEXT_WEEK_BEFORE}(?:{WEEKDAY}|{_SHORT_DAY}|{_WORD_DAY})")
# Day phrases as a user writes them (a word-like abbreviation only where it reads as a day).
# A time of day right after a day of the month: "at 8pm", ", 9am", "from 14:00"
_TIME_AFTER_DAY = (r",?\s+(?:(?:at|from|@)\s+\d|\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)\b"
                   r"|\d{1,2}:\d{2}\b)")
DAY_PHRASE = re.compile(
    rf"\b(?:{_IN_NEXT_WEEK})\b"
    rf"|\b(?:(?:next|this)\s+)?(?:{_HELD_DAYS}|{WEEKDAY}|{_SHORT_DAY})\b"
    rf"|\b(?:next|this)\s+(?:{_WORD_DAY})\b|(?<=\bon\s)(?:{_WORD_DAY})\b"
    rf"|\b(?:{_WORD_DAY})\b{_AT_TIME_AHEAD}"
    r"|\b\d{4}-\d{2}-\d{2}\b"
    rf"|\b(?:{MONTH})\.?\s+\d{{1,2}}(?:(?:st|nd|rd|th)?,?\s+{_YEAR_AFTER})?\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTH})\b(?:,?\s+{_YEAR_AFTER}\b)?"
    # a day of the month alone, where it can only be a day ("on the 23rd", not "the 3rd email")
    rf"|(?<=\b(?:on|by)\sthe\s)\d{{1,2}}(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:{MONTH})\b)"
    # or one a time of day follows ("remind me the 18th at 8pm", "the 3rd, 9am")
    rf"|(?<=\bthe\s)\d{{1,2}}(?:st|nd|rd|th)\b(?={_TIME_AFTER_DAY})",
    re.IGNORECASE,
)
# Times of day as a user writes them: "9:30", "14:00", "9am", "7.30 pm" (a bare number is
# not one: "2 hours", "room 12").
TIME_PHRASE = re.compile(
    r"\b([01]?\d|2[0-3])(?:[:.]([0-5]\d))?\s*(am|pm)\b|\b([01]?\d|2[0-3]):([0-5]\d)\b",
    re.IGNORECASE)
# "at 5", "at 9": an hour without am/pm or minutes (not "at 5 people", "at 9:30", "at 2h").
BARE_AT = re.compile(r"\bat\s+([01]?\d|2[0-3])\b(?![:.]\d|\s*(?:am|pm|a\.m|p\.m|h\b|hours?|hrs?|"
                     r"min|mins|minutes?|people|persons|%|o'clock))", re.IGNORECASE)
# A whole value that is an ISO date or a clock time, nothing else ("2025-03-04T09:30Z",
# "13:00"): a value that says when, never whom or which.
ISO_DATE_OR_TIME = re.compile(
    r"^\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?:[+-]\d{2}:?\d{2}|Z)?)?$"
    r"|^\d{1,2}:\d{2}(?::\d{2})?$")


# A whole value that is a clock time and nothing else: "19:00", "7pm", "at 2 p.m.", "noon".
_CLOCK_ONLY = re.compile(
    r"^(?:at\s+)?(?:\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?"
    rf"|{alternation(CLOCK_WORDS['en'])})$"
)
# "at 8pm", "at 9", "at 8.30": a clock time after "at", its hour as written.
_AT_CLOCK = re.compile(r"\bat\s+(?P<h>\d{1,2})(?:[:.](?P<m>[0-5]\d))?\s*(?P<half>am|pm)?\b",
                       re.IGNORECASE)
# A month name of any language, beside a number that is then a day of the month:
# "June 13", "13th of June", "13. Juni", "13 de junio" (in text folded lower-case).
_ANY_MONTH = "(?:" + alternation(month_words()) + ")"
_MONTH_BEFORE = re.compile(rf"\b{_ANY_MONTH}\.?\s+$")
_MONTH_AFTER = re.compile(rf"^(?:st|nd|rd|th|er|o|\.)?\s+(?:of\s+|de\s+|di\s+)?{_ANY_MONTH}\b")


# A whole value that starts with a day word: "tomorrow 9:00", "next friday 3pm", "today,
# at noon" (``day_word``).
_WEEKDAY_INDEX = {name: index for index, names in enumerate(WEEKDAYS["en"]) for name in names}
_DAY_WORD = re.compile(
    rf"^(?:(?P<week_before>{_NEXT_WEEK_BEFORE})|(?P<next>next\s+|this\s+))?(?P<day>"
    + alternation([*RELATIVE_DAYS["en"], *_WEEKDAY_INDEX])
    + rf")\b(?P<week_after>{_NEXT_WEEK_AFTER}\b)?(?:\s*,?\s*(?:at\s+)?(?P<rest>.*))?$",
    re.IGNORECASE)
# A whole value that is a time from now: "in 2 hours", "in 90 min" (``from_now``).
_FROM_NOW = re.compile(rf"^in\s+(?P<n>\d{{1,4}})\s*(?P<unit>{alternation(unit_words('en'))})$",
                       re.IGNORECASE)


@dataclass(frozen=True)
class DayWord:
    """A day a word names: ``offset`` days from today ("tomorrow": 1) or the coming
    ``weekday`` (0 is Monday; never today when ``strictly_next``, as in "next Friday"; in
    the week after this one, Monday to Sunday, when ``week_after``: "tuesday next week" said
    on a Monday is eight days on, not tomorrow), and what the value says after it ("9:00" in
    "tomorrow at 9:00")."""

    offset: int | None
    weekday: int | None
    strictly_next: bool
    rest: str
    week_after: bool = False

    def on(self, today: date) -> date:
        """The date it names, counted from ``today`` (the store's, in its zone)."""
        if self.offset is not None:
            return today + timedelta(days=self.offset)
        if self.week_after:
            return today + timedelta(days=7 - today.weekday() + self.weekday)
        ahead = (self.weekday - today.weekday()) % 7
        if ahead == 0 and self.strictly_next:
            ahead = 7
        return today + timedelta(days=ahead)


def day_word(value: str) -> Found[DayWord] | None:
    """A whole value that starts with a day word ("tomorrow 9:00", "next friday 3pm",
    "monday"), read; None for any other value. Unlike ``day_phrases`` it reads a tool's
    argument, not running text: abbreviations ("fri") count."""
    match = _DAY_WORD.match(value)
    if match is None:
        return None
    word = match["day"].lower()
    weekday = _WEEKDAY_INDEX.get(word)
    week_after = weekday is not None and bool(match["week_before"] or match["week_after"])
    read = DayWord(RELATIVE_DAYS["en"].get(word), weekday, bool(match["next"]),
                   (match["rest"] or "").strip(), week_after)
    return Found(Kind.day, match.group(), match.span(), read)


def from_now(value: str) -> Found[timedelta] | None:
    """A whole value that is a time from now ("in 2 hours", "in 90 min"), read; else None."""
    match = _FROM_NOW.match(value)
    if match is None:
        return None
    ahead = timedelta(minutes=int(match["n"]) * UNIT_MINUTES[unit_of(match["unit"])])
    return Found(Kind.offset, match.group(), match.span(), ahead)


# A day of the month right after a weekday: "tue the 15th", "friday, 11th"
_WEEKDAY_DATE = re.compile(rf",?\s+(?:the\s+)?(\d{{1,2}}(?:st|nd|rd|th))\b(?!\s+(?:of\s+)?(?:{MONTH})\b)",
                           re.IGNORECASE)


_WEEKDAY_NAME = re.compile(rf"(?:{WEEKDAY}|{_SHORT_DAY}|{_WORD_DAY})", re.IGNORECASE)
_DATE_GAP = re.compile(r",?\s+(?:the\s+)?")


def day_phrases(text: str) -> list[Found[None]]:
    """The days a text names ("Friday", "next Monday", "tomorrow", "March 17",
    "2025-03-18"), unparsed: what day "Friday" is depends on the store's zone and clock
    (``assistant.timeutil.parse_when`` reads each). A weekday with its day of the month
    ("tue the 15th") is that day of the month: the weekday only confirms it."""
    found = []
    matches = list(DAY_PHRASE.finditer(text))
    for index, m in enumerate(matches):
        after = matches[index + 1] if index + 1 < len(matches) else None
        weekday = _WEEKDAY_NAME.fullmatch(m.group()) is not None
        dated = _WEEKDAY_DATE.match(text, m.end()) if weekday else None
        if dated:
            found.append(Found(Kind.day, dated.group(1), dated.span(1), None))
        elif not (weekday and after is not None
                  and _DATE_GAP.fullmatch(text, m.end(), after.start())
                  and _WEEKDAY_NAME.fullmatch(after.group()) is None):
            found.append(Found(Kind.day, m.group(), m.span(), None))  # "tue 15 dec": the date
    return found


@dataclass(frozen=True)
class TimeRange:
    """A span of the clock a text names as one phrase ("2-4pm", "from 9 to 5"): the
    first time is a start, the second its end."""

    start: time
    end: time


# "2-4pm", "2 to 4pm", "11-1pm", "14-16h", "9:30-11am", "from 2 to 4": a start and an end
# in one phrase. Only the end need say am, pm or "h" ("4pm" says which 2 is meant); without
# it, "from" must lead ("from 2 to 4"), since "2 to 4 people" is a count.
_CLOCK_PART = r"([01]?\d|2[0-3])(?:[:.]([0-5]\d))?"
TIME_RANGE = re.compile(
    rf"(?<![\w:.-])(?P<from>from\s+)?{_CLOCK_PART}\s*(am|pm)?\s*(?:-|–|to|till|until)\s*"
    rf"{_CLOCK_PART}(?:\s*(am|pm)\b|(h)\b|(?![\w:.%-]|\s+(?:{alternation(unit_words('en'))}"
    r"|people|persons|guests)\b))",
    re.IGNORECASE)
# A part of the day next to a bare hour says which half of the clock it means: "tonight at
# 7" is 19:00, "at 5 in the morning" 05:00 (``DAY_PARTS``' hours; "tonight" is the night).
_PART_HOURS = {**DAY_PARTS["en"], "tonight": DAY_PARTS["en"]["night"]}
# Words that may stand between an hour and the part of the day that speaks for it.
_PART_GAP = rf"(?:[\s,]+|\b(?:in|on|at|the|this|tomorrow|today|{WEEKDAY})\b)*"
_PART_BEFORE = re.compile(rf"\b(?P<part>{alternation(_PART_HOURS)})\b{_PART_GAP}$", re.IGNORECASE)
_PART_AFTER = re.compile(rf"^{_PART_GAP}\b(?P<part>{alternation(_PART_HOURS)})\b", re.IGNORECASE)
PART_REACH = 30  # characters around a bare hour where a part of the day speaks for it


# What may follow a bare span for it to be the clock's: the end, a mark, or a word that
# leads on to what or when ("9-11 for deep work"), not a count's noun ("2-3 bottles")
_BARE_SPAN_END = re.compile(rf"\s*(?:$|[,.;:!?)]|(?:for|on|at|in|with|and|to|tomorrow|today|"
                            rf"tonight|{WEEKDAY}|{_SHORT_DAY})\b)", re.IGNORECASE)


def time_ranges(text: str) -> list[Found[TimeRange]]:
    """The clock spans a text names as one phrase ("2-4pm": 14:00 to 16:00, "11-1pm":
    11:00 to 13:00, "14-16h", "from 9 to 5": 09:00 to 17:00; "9-11" beside a day: 09:00 to
    11:00), in text order."""
    found = []
    dated = bool(TIME_RANGE.search(text)) and bool(day_phrases(text))
    for match in TIME_RANGE.finditer(text):
        led, h1, m1, half1, h2, m2, half2, h24 = match.groups()
        # a bare "9-11" is a span of the clock beside a day ("block tue 9-11"), else it may
        # be anything ("items 2-4")
        if not (half2 or h24 or led or m2 or (dated and _BARE_SPAN_END.match(text, match.end()))):
            continue
        end = _range_end(int(h2), int(m2 or 0), half2, bool(h24), text, match.span())
        start = _range_start(int(h1), int(m1 or 0), half1, half2, bool(h24), end)
        if start is not None and end is not None and start < end:
            found.append(Found(Kind.time, match.group(), match.span(), TimeRange(start, end)))
    return found


def _range_end(hour: int, minute: int, half: str | None, h24: bool, text: str,
               span: tuple[int, int]) -> time | None:
    """The end of a span: as written with am/pm or "h", else as a bare hour reads."""
    if half:
        return time(_half_day(hour, half), minute) if hour <= 12 else None
    return time(hour if h24 else _bare_in(text, span, hour), minute)


def _range_start(hour: int, minute: int, half: str | None, end_half: str | None, h24: bool,
                 end: time | None) -> time | None:
    """The start of a span. Without its own am/pm it takes the end's when that keeps it
    before the end ("2-4pm": 14:00), else the other half ("11-1pm": 11:00)."""
    if end is None:
        return None
    if half:
        return time(_half_day(hour, half), minute) if hour <= 12 else None
    if h24 or hour > 12:
        return time(hour, minute)
    if end_half:
        same = time(_half_day(hour, end_half), minute)
        return same if same < end else time(hour % 12, minute)
    # a bare start ("from 9 to 5"): the half of the day that puts it before the end
    later = time(hour % 12 + 12, minute)
    return later if bare_hour(hour) >= 12 and later < end else time(hour % 12, minute)


def _half_day(hour: int, half: str) -> int:
    """The 24-hour clock hour of "4pm", "12am"."""
    return hour % 12 + (12 if half.lower() == "pm" else 0)


def _bare_in(text: str, span: tuple[int, int], hour: int, *, clock: bool = False) -> int:
    """The clock hour a bare hour means where it stands: a part of the day right beside it
    (only words like "in the", "this", "tomorrow" between) says which half ("tonight at
    7": 19; "at 5 in the morning": 5); else ``bare_hour``, or the hour as written for a
    ``clock`` time ("3:30" stays 03:30 unless a part of the day says otherwise)."""
    if not 1 <= hour <= 12:
        return hour
    start, end = span
    before, after = text[max(0, start - PART_REACH):start], text[end:end + PART_REACH]
    part = _PART_BEFORE.search(before) or _PART_AFTER.match(after)
    if part is None:
        return hour if clock else bare_hour(hour)
    return hour % 12 + 12 if _PART_HOURS[part.group("part").lower()] >= 12 else hour % 12


_CLOCK_WORD = re.compile(rf"\b(?:{alternation(CLOCK_WORDS['en'])})\b", re.IGNORECASE)


def times(text: str) -> list[Found[time]]:
    """The times of day a text names, in text order: "9am" 09:00, "7.30 pm" 19:30,
    "14:00"; a span's two ends ("2-4pm": 14:00 and 16:00, ``time_ranges``); a bare "at 5"
    is 17:00 and "at 9" 09:00 (``bare_hour``), unless a part of the day beside it says
    otherwise ("tonight at 7": 19:00, ``_bare_in``), which holds for "7:30" too; "noon" is
    12:00 and "midnight" 00:00 (``CLOCK_WORDS``)."""
    found: list[Found[time]] = []
    for span in time_ranges(text):
        found.append(Found(Kind.time, span.text, span.span, span.value.start))
        found.append(Found(Kind.time, span.text, span.span, span.value.end))
    taken = [span.span for span in found]

    def free(match: re.Match[str]) -> bool:
        return not any(a <= match.start() < b for a, b in taken)

    found += [Found(Kind.time, m.group(), m.span(), time(_bare_in(text, m.span(), int(m.group(1)))))
              for m in BARE_AT.finditer(text) if free(m)]
    # "at noon", "midnight": a time of day said as a word
    found += [Found(Kind.time, m.group(), m.span(), time(*CLOCK_WORDS["en"][m.group().lower()]))
              for m in _CLOCK_WORD.finditer(text) if free(m)]
    for match in filter(free, TIME_PHRASE.finditer(text)):
        hour, minute, half, hour24, minute24 = match.groups()
        if hour24 is not None:
            clock = time(_bare_in(text, match.span(), int(hour24), clock=True),
                         int(minute24))
        else:
            clock = time(_half_day(int(hour), half), int(minute or 0))
        found.append(Found(Kind.time, match.group(), match.span(), clock))
    return sorted(found, key=lambda f: f.span)


def is_clock_time(text: str) -> bool:
    """Whether ``text`` is a time of day and nothing else (``19:00``, ``7pm``, ``noon``)."""
    return isinstance(text, str) and bool(_CLOCK_ONLY.match(" ".join(text.lower().split())))


def at_times(text: str) -> list[Found[time]]:
    """The clock times after "at", the hour as written ("at 8" is 08:00, not
    ``bare_hour``'s reading: after "the morning before" or "the evening before" the part
    of the day says which 8 is meant); an hour past 23 is none."""
    found = []
    for match in _AT_CLOCK.finditer(text):
        hour, minute = int(match.group("h")), int(match.group("m") or 0)
        half = (match.group("half") or "").lower()
        if half:
            hour = hour % 12 + (12 if half == "pm" else 0)
        if hour < 24:
            found.append(Found(Kind.time, match.group(), match.span(), time(hour, minute)))
    return found


def is_day_of_month(folded: str, start: int, end: int) -> bool:
    """Whether the number at ``folded[start:end]`` (a lower-cased text) is a day of the
    month, with a month name of any language beside it ("June 13", "13. Juni")."""
    return bool(_MONTH_BEFORE.search(folded[max(0, start - 16):start])
                or _MONTH_AFTER.match(folded[end:end + 20]))


def bare_hour(hour: int) -> int:
    """The clock hour a bare "at 5" means: 1 to 6 are afternoon or evening (17:00), 7 to
    12 morning or noon, 13 to 23 as written. People rarely mean 5 in the morning without
    saying so, and rarely mean 9 in the evening by "at 9" in a plan for the day."""
    return hour + 12 if 1 <= hour <= 6 else hour


# ---- lengths and offsets ------------------------------------------------------------

_COUNTS = {**dict.fromkeys(ONE_ARTICLES["en"], 1), **NUMBER_WORDS["en"]}
_COUNT_WORDS = alternation(_COUNTS)
# A length's units: minutes and hours; a bare "h" is left out, since "14h" is a clock time
# in much of Europe.
_LENGTH_UNITS = alternation(w for w in unit_words("en", ("minute", "hour")) if len(w) > 1)
# "45 minutes", "30-minute", "two hours", "1.5 hrs", "an hour and a half", "a free hour";
# "half an hour"
DURATION = re.compile(
    rf"\b(?:(?P<half>half(?:\s+an?\s+|[\s-]+)hour)|(?P<amount>\d+(?:[.,]\d+)?|{_COUNT_WORDS})[\s-]*"
    rf"(?:free\s+)?(?P<unit>{_LENGTH_UNITS})(?P<and_half>\s+and\s+a\s+half)?)\b",
    re.IGNORECASE)
# A length that says when, not how long: "in 2 hours", "15 minutes before", "every hour".
_WHEN_BEFORE = re.compile(r"\b(?:in|within|every|each)\s+$", re.IGNORECASE)
_WHEN_AFTER = re.compile(r"^\s+(?:before|after|ago|early|earlier|late|later|from\s+now)\b",
                         re.IGNORECASE)
# An offset from another item: "an hour before it", "30 min before the meeting", "2 days
# ahead of it". Unlike a length it counts days and weeks too, and at most three digits.
OFFSET = re.compile(
    rf"\b(?P<n>\d{{1,3}}|half\s+an?|{_COUNT_WORDS})\s*(?P<unit>{alternation(unit_words('en'))})"
    r"\s+(?P<side>before|ahead of|prior to|after)\b", re.IGNORECASE)


# A move of an item by a length: "push it back an hour", "delay by 2 hours", "bring it
# forward 15 min" (the verb within a few words before the length, hyphened ones too: "push
# the dentist check-up back an hour"), "30 minutes later".
_LATER_VERB = re.compile(
    r"\b(?:(?:push|move|shift|bump)(?:e?d|ing|s)?(?:\s+[\w'-]+){0,3}?\s+(?:back|out|later)"
    r"|(?:delay(?:ed|ing|s)?|postpon(?:e|ed|ing|es))(?:\s+[\w'-]+){0,3}?)\b(?:\s+by)?\s*$",
    re.IGNORECASE)
_EARLIER_VERB = re.compile(
    r"\b(?:bring|brought|pull(?:ed|ing|s)?|move[ds]?|moving|shift(?:ed|ing|s)?|bump(?:ed|ing|s)?)"
    r"(?:\s+[\w'-]+){0,3}?\s+(?:forward|up|earlier)\b(?:\s+by)?\s*$", re.IGNORECASE)
_LATER_AFTER = re.compile(r"^\s+(?:later|back)\b", re.IGNORECASE)
_EARLIER_AFTER = re.compile(r"^\s+(?:earlier|sooner)\b", re.IGNORECASE)
_SHIFT_REACH = 40  # characters before a length where the verb that moves by it stands


def _shift_sign(text: str, match: re.Match[str]) -> int:
    """+1 where a length moves an item later ("push it back an hour", "an hour later"),
    -1 earlier ("bring it forward 15 min", "half an hour earlier"), else 0."""
    before, after = text[max(0, match.start() - _SHIFT_REACH):match.start()], text[match.end():]
    if _LATER_AFTER.match(after) or _LATER_VERB.search(before):
        return 1
    if _EARLIER_AFTER.match(after) or _EARLIER_VERB.search(before):
        return -1
    return 0


def shifts(text: str) -> list[Found[timedelta]]:
    """The moves by a length a text asks for, signed: "push it back an hour" is plus one
    hour, "bring it forward 15 min" minus fifteen minutes. A shift says when, not how
    long, so ``durations`` leaves it out."""
    found = []
    for match in DURATION.finditer(text):
        sign = _shift_sign(text, match)
        length = _length(match) if sign else None
        if length:
            found.append(Found(Kind.shift, match.group(), match.span(), sign * length))
    return found


def durations(text: str) -> list[Found[timedelta]]:
    """The lengths a text names, in order ("for 45 minutes", "30-minute", "two hours",
    "an hour and a half", "half an hour"). A length that says when is none: "in 2 hours",
    "15 minutes before", "every hour" (``offsets`` reads the ones before or after), "push
    it back an hour" (``shifts``)."""
    found = []
    for match in DURATION.finditer(text):
        if (_WHEN_BEFORE.search(text[:match.start()]) or _WHEN_AFTER.match(text[match.end():])
                or _shift_sign(text, match)):
            continue
        length = _length(match)
        if length:
            found.append(Found(Kind.duration, match.group(), match.span(), length))
    return found


def _length(match: re.Match[str]) -> timedelta | None:
    """A ``DURATION`` match as a timedelta (None for a number that reads as none)."""
    if match.group("half"):
        return timedelta(minutes=30)
    amount = match.group("amount").lower()
    try:
        count = float(_COUNTS.get(amount, amount.replace(",", ".")))
    except ValueError:
        return None
    minutes = count * UNIT_MINUTES[unit_of(match.group("unit"))]
    minutes += 30 if match.group("and_half") else 0
    return timedelta(minutes=minutes) if minutes > 0 else None


# A moment counted from now: "in 2 hours", "in half an hour", "in 20 min", "3 days from now".
_FROM_NOW_PHRASE = re.compile(
    rf"\bin\s+(?P<n>\d{{1,3}}|half\s+an?|{_COUNT_WORDS})\s*(?P<unit>{alternation(unit_words('en'))})\b"
    rf"|\b(?P<n2>\d{{1,3}}|half\s+an?|{_COUNT_WORDS})\s*(?P<unit2>{alternation(unit_words('en'))})"
    r"\s+from\s+now\b", re.IGNORECASE)


def ahead_of_now(text: str) -> list[Found[timedelta]]:
    """The moments a text counts from now, as lengths: "remind me in 2 hours" is two hours
    ahead, "in half an hour" thirty minutes."""
    found = []
    for match in _FROM_NOW_PHRASE.finditer(text):
        amount = (match.group("n") or match.group("n2")).lower()
        unit = match.group("unit") or match.group("unit2")
        count = (0.5 if amount.startswith("half") else
                 float(amount) if amount.isdigit() else _COUNTS[amount])
        ahead = timedelta(minutes=count * UNIT_MINUTES[unit_of(unit)])
        found.append(Found(Kind.offset, match.group(), match.span(), ahead))
    return found


def offsets(text: str) -> list[Found[timedelta]]:
    """The offsets from another item a text names, signed: "an hour before it" is minus
    one hour, "2 days after" plus two days."""
    found = []
    for match in OFFSET.finditer(text):
        amount = match.group("n").lower()
        count = (0.5 if amount.startswith("half") else
                 float(amount) if amount.isdigit() else _COUNTS[amount])
        delta = timedelta(minutes=count * UNIT_MINUTES[unit_of(match.group("unit"))])
        signed = delta if match.group("side").lower() == "after" else -delta
        found.append(Found(Kind.offset, match.group(), match.span(), signed))
    return found


# ---- when phrases -----------------------------------------------------------------

# Parts of the day that say when; not "night": "game night" is a title.
_WHEN_PARTS = alternation(set(DAY_PARTS["en"]) - {"night"})
# "on Friday", "from 10:00 to 11:00", "at 9am", "for an hour", "in the morning": a day,
# time or length with the words that lead to it.
WHEN = re.compile(
    rf"(?:\b(?:on|at|from|to|until|till|by|for)\s+)?(?:\bthe\s+\d{{1,2}}(?:st|nd|rd|th)\b|{DAY_PHRASE.pattern}"
    rf"|{TIME_PHRASE.pattern}|\b\d{{1,2}}:\d{{2}}\b|(?<=at )\d{{1,2}}\b"
    rf"|\b(?:half an hour|an hour and a half|an? (?:hour|minute)|(?:\d+|"
    rf"{alternation(NUMBER_WORDS['en'])})\s*(?:{alternation(unit_words('en', ('minute', 'hour')))})\b)"
    rf"|\b(?:(?:in|on)\s+the\s+)?(?:{_WHEN_PARTS}|tonight)\b)",
    re.IGNORECASE,
)
# one or more of them ending a text: "Anna tomorrow at 9am"
_WHEN_TAIL = re.compile(rf"(?:[\s,]*(?:{WHEN.pattern}))+[\s.]*$", re.IGNORECASE)
# Words that say when, beside weekday and month names (``WHEN_NAME``).
WHEN_WORDS = frozenset({*RELATIVE_DAYS["en"], *DAY_PARTS["en"], *CLOCK_WORDS["en"], "next",
                        "this", "am", "pm", "day", "week"})
WHEN_NAME = re.compile(rf"^(?:{WEEKDAY}|{MONTH})$", re.IGNORECASE)


_ROUGH_WHEN = re.compile(rf"\b(?:{alternation(ROUGH_WHEN['en'])})s?\b", re.IGNORECASE)
# A time ruled out: "no date", "without a due date", "no deadline"
_NO_WHEN = re.compile(r"\b(?:no|without(?:\s+an?)?)\s+(?:due\s+)?(?:date|deadline|due|time)\b",
                      re.IGNORECASE)


def says_when(text: str) -> bool:
    """Whether a text says when at all: a day, a time, a length or offset, a part of the
    day, or a rough word of time ("next week", "later", "before the meeting",
    ``language.ROUGH_WHEN``), a time it rules out aside ("no date"). A text that says
    none leaves a new item's time unsaid."""
    text = _NO_WHEN.sub(" ", text)
    return bool(WHEN.search(text) or day_phrases(text) or times(text) or offsets(text)
                or _ROUGH_WHEN.search(text))


def when_phrases(text: str) -> list[Found[None]]:
    """The day, time and length phrases of a text with the words that lead to them ("on
    Friday", "from 10:00 to 11:00", "for an hour"): what a title is not."""
    return [Found(Kind.when, m.group(), m.span(), None) for m in WHEN.finditer(text)]


def when_tail(text: str) -> Found[None] | None:
    """The run of day and time phrases that ends a text ("Anna tomorrow at 9am": "tomorrow
    at 9am"), or None."""
    match = _WHEN_TAIL.search(text)
    return Found(Kind.when, match.group(), match.span(), None) if match else None


# ---- addresses, numbers, ids ----------------------------------------------------------

# A whole email address in text.
EMAIL_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# What a model wrote as an address, cut or not ("lena@hoffmann", "bo@").
_WRITTEN_ADDRESS = re.compile(r"[\w.+-]+@[\w.-]*")
# A phone number as people write one: digits with spaces, dots, dashes, slashes or
# brackets between them, perhaps a leading "+".
_PHONE = re.compile(r"\+?\(?\d[\d ./()-]{4,}\d")
MIN_PHONE_DIGITS = 6  # fewer is no phone number ("10", "2025")
# A dated or timed value is no phone number: "2025-03-04", "14:00".
_NOT_A_PHONE = re.compile(r"\d{4}-\d{2}-\d{2}|\d:\d{2}")
# "delete event 14", "reminder #3": an id the user wrote (a bare "14:00" is not one)
NAMED_ID = re.compile(
    r"(?:#|\b(?:id|event|email|mail|note|reminder|contact|no\.?)\s*#?\s*)(\d+)\b", re.IGNORECASE)
# The words before a number that make it an item's id in a stranger's text ("delete the
# file with ID '13'", "#7", "Nr. 4"): to be put before a number's own pattern.
ID_CUE = r"(?:\bids?\b|#|\bno\b\.?|\bnumbers?\b|\bnr\b\.?)\W{0,3}"


def emails(text: str, *, partial: bool = False) -> list[Found[str]]:
    """The email addresses in a text, in order, each with its lower-cased address as value.

    ``partial``: also an address cut short ("lena@hoffmann", "bo@"). An address argument
    a model wrote is read so, since what it would send to is the question, and a cut
    address is a wrong one; a text's addresses (``partial=False``) are whole ones only,
    so that "@" in running text ("me @ home") is none."""
    pattern = _WRITTEN_ADDRESS if partial else EMAIL_ADDRESS
    return [Found(Kind.email, m.group(), m.span(), m.group().lower())
            for m in pattern.finditer(text)]


def digits(text: str) -> str:
    """The digits of a number, which is what makes two spellings the same number."""
    return re.sub(r"\D", "", text)


def phone_numbers(text: str) -> list[Found[str]]:
    """The phone numbers in a text, as written, in order, each number once (by its
    digits, the value: "+49 151 5550 330" and "+491515550330" are one number)."""
    found: dict[str, Found[str]] = {}
    for match in _PHONE.finditer(text):
        written = match.group().strip(" ./-")
        number = digits(written)
        if len(number) >= MIN_PHONE_DIGITS and not _NOT_A_PHONE.search(written):
            start = match.start() + match.group().index(written)
            found.setdefault(number, Found(Kind.phone, written, (start, start + len(written)),
                                           number))
    return list(found.values())


def ids(text: str) -> list[Found[int]]:
    """The item ids a user wrote, by a word that says so: "delete event 14", "reminder
    #3", "id 7" (a bare number is none: "at 14", "14:00")."""
    return [Found(Kind.id, m.group(), m.span(), int(m.group(1))) for m in NAMED_ID.finditer(text)]


# "todo.md", "latency_numbers.csv": a name and an extension, not part of an address,
# a link or a longer dotted word ("v1.2.3", "example.com/x")
_FILE_NAME = re.compile(r"(?<![\w@./-])([\w-]+\.[A-Za-z][A-Za-z0-9]{1,3})(?![\w@/-]|\.\w)")
_WEB_ENDINGS = frozenset({"com", "org", "net", "de", "io", "fr", "es", "it", "uk", "eu", "co"})


def file_names(text: str) -> list[Found[str]]:
    """The file names a text writes ("add a line to todo.md": "todo.md"), in order, each
    once, without web addresses ("example.com")."""
    found: dict[str, Found[str]] = {}
    for m in _FILE_NAME.finditer(text):
        name = m.group(1)
        if name.rsplit(".", 1)[1].lower() not in _WEB_ENDINGS:
            found.setdefault(name, Found(Kind.file, name, m.span(1), name))
    return list(found.values())


# The new name a request gives an item: "rename the quarterly review to Q4 all-hands",
# "change the title of X to Y"
_RENAMED_TO = re.compile(r"\b(?:rename|retitle|change\s+the\s+(?:name|title)\s+of)\b[^.;!?]*?"
                         r"\b(?:to|as)\s+(?P<new>.+?)\s*(?:$|[.;!?,](?:\s|$)|\s+(?:and|then)\s)",
                         re.IGNORECASE)


def new_name(text: str) -> str | None:
    """The new name a text gives an item it renames, unquoted or quoted, as written
    ("rename the quarterly review to Q4 all-hands": "Q4 all-hands"), or None."""
    match = _RENAMED_TO.search(text)
    return match.group("new").strip(" '\"\u2018\u2019\u201c\u201d") if match else None


# A file named by a word or two and "file": "my todo file", "the budget file", "my packing
# list file" ("the whole file", "the attached file" name none: the word describes the file)
_WORD_FILE = re.compile(
    r"\b(?:my|the|our|that)\s+(?!(?:whole|same|new|other|attached|entire|csv|text|this|that|"
    r"right|last|first|next|old)\s)(?P<name>[\w-]+(?:\s+[\w-]+)?)\s+file\b", re.IGNORECASE)
_NAME_JOINS = re.compile(r"[\s_-]+")


def file_word(text: str) -> str | None:
    """The words a text names a file by, without its extension ("add X to my todo file":
    "todo"; "my packing list file": "packing list"), or None; a file named whole
    ("todo.md") is ``file_names``'."""
    match = _WORD_FILE.search(text)
    return match.group("name") if match and not file_names(text) else None


def same_file_name(words: str, stem: str) -> bool:
    """Whether a file's name without its extension (``stem``, "packing_list") is the one
    ``words`` say ("packing list", "packing-list"): people write the joins as spaces."""
    return _NAME_JOINS.sub("_", words.casefold()) == _NAME_JOINS.sub("_", stem.casefold())


# A line of a to-do file ticked off: "tick off slides for dan in todo.md", "mark the
# plumber one done in my todo file", "cross off milk from the shopping list file"
TICK_VERB = re.compile(r"\b(?:tick|check|cross|strike)\s+off\b|\bmark\b", re.IGNORECASE)
_MARKED_DONE = re.compile(r"\s+(?:as\s+)?(?:done|complete|completed|finished|ticked)\b",
                          re.IGNORECASE)
# where the line is: "in todo.md", "from my todo file", "on the packing list file"
_IN_FILE = re.compile(r"\s+(?:in|on|from)\s+(?:my\s+|the\s+|our\s+)?(?:[\w/-]+\.[A-Za-z0-9]{1,4}"
                      r"|(?:[\w-]+\s+){0,2}file)\b", re.IGNORECASE)
_TICK_JOIN = re.compile(r"\s*(?:,|\band\b|&)\s*", re.IGNORECASE)
_LINE_WORDS = re.compile(r"^(?:the|my)\s+|\s+(?:line|item|one|entry|box|task)s?$", re.IGNORECASE)


def ticked_lines(text: str) -> list[str]:
    """The lines a request asks to tick off in a file it names, as it writes them ("tick
    off slides for dan in todo.md" -> ["slides for dan"]), or none: a request that names
    no file ticks off items of other kinds (a reminder)."""
    verb = TICK_VERB.search(text)
    if verb is None:
        return []
    rest = text[verb.end():]
    if verb.group().lower() == "mark":
        done = _MARKED_DONE.search(rest)
        if done is None:
            return []
        rest = rest[:done.start()] + rest[done.end():]
    place = _IN_FILE.search(rest)
    if place is not None:
        rest = rest[:place.start()]  # what follows the file says why, not what
    elif not _IN_FILE.search(" " + text[:verb.start()]):  # "in notes/todo.md check off ..."
        return []
    rest = rest.strip(" .,!?")
    items = (_LINE_WORDS.sub("", part.strip(" .,!?'\"")) for part in _TICK_JOIN.split(rest))
    return [item for item in items if item]


# ---- titles ------------------------------------------------------------------------
_QUOTES = (("'", "'"), ('"', '"'), ("\u2018", "\u2019"), ("\u201c", "\u201d"))
# The name a request gives the item it makes, in quotes: "a new note called 'for sam - dad
# bday'", "new note 'xmas cards' -> ...", "an event titled "Offsite"".
_NAMED_TITLE = re.compile(
    r"(?:\b(?:called|named|titled|entitled)|\b(?:new|a)\s+(?:note|list|event|file))\s+"
    r"[\'\"\u2018\u201c](?P<title>[^\'\"\u2019\u201d]{1,80})[\'\"\u2019\u201d]", re.IGNORECASE)
# The same name unquoted, where nothing but a mark or the end of a sentence follows it (a
# few words; "a new note called Restaurants", "a note called paint colours: hall white"):
# what follows anything else ("called hamburg with those things") may be no part of it.
_BARE_TITLE = re.compile(
    r"\b(?:note|list|event|reminder|entry)\s+(?:called|named|titled|entitled)\s+"
    r"(?P<title>[^\W\d_][^\s,.;:!?\'\"]*(?:\s+[^\s,.;:!?\'\"]+){0,4}?)"
    r"\s*(?=$|[.;!?]|\s*(?:->|=>|:|\u2192|\s[-\u2013\u2014]\s))", re.IGNORECASE)
# Words that start what follows a name rather than go on with it ("called hamburg with
# those things"): an unquoted name holding one is no name.
_LINKING = frozenset({"with", "and", "from", "for", "that", "which", "about", "of", "to", "in",
                      "on", "at", "containing", "listing", "using", "so", "then"})


def titles(text: str) -> list[Found[str]]:
    """The titles a text gives the items it makes ("a new note called 'for sam'": "for
    sam"; unquoted where it ends the sentence: "a new note called Restaurants"), in order,
    each once; a quoted phrase that names nothing made ("add 'call the bank' to todo.md")
    is no title."""
    found: dict[str, Found[str]] = {}
    matches = sorted([*_NAMED_TITLE.finditer(text), *_BARE_TITLE.finditer(text)],
                     key=lambda m: m.start("title"))
    for m in matches:
        title = m.group("title").strip()
        if title and not (m.re is _BARE_TITLE and _LINKING.intersection(title.lower().split()[1:])):
            found.setdefault(title.casefold(), Found(Kind.title, title, m.span("title"), title))
    return list(found.values())


# What a request gives a new item as its text, after its name and a mark: "new note 'xmas
# cards' -> aunt rosa, the webers", "a note called paint colours: hall white, bath blue".
_NAMED_TEXT = re.compile(
    r"(?:\b(?:called|named|titled|entitled)|\bnew\s+(?:note|list))\s+"
    r"(?:[\'\"\u2018\u201c][^\'\"\u2019\u201d]{1,80}[\'\"\u2019\u201d]|[^:'\"\n]{1,60}?)"
    r"\s*(?:->|=>|:|=|\u2192|\s[-\u2013\u2014]\s)\s*(?P<text>\S.*)$", re.IGNORECASE)
# A request that opens by labelling a note with its kind (and a quoted title), then what it
# holds: "quick note: ...", "note - ...", "new note 'xmas cards' -> ..."
_LABELLED_TEXT = re.compile(
    r"^\W*(?:[a-z]+\s+)?notes?\s*(?:([\'\"\u2018\u201c]).+?[\'\"\u2019\u201d]\s*)?"
    r"(?::|->|=>|\u2192|\s[-\u2013\u2014]\s)\s*(?P<text>\S.*)$", re.IGNORECASE)
# What a note named in quotes holds, after "with": "a note titled 'Packing for Lisbon' with
# passport, sunscreen and the travel adapter", up to the sentence's end; not a thing taken
# from elsewhere ("with the invoice number from marta's email", "with her number in it",
# "with everything from the groceries note"), which is looked up
_QUOTED_WITH = re.compile(
    r"\b(?:called|named|titled|entitled)\s+[\'\"\u2018\u201c][^\'\"\u2019\u201d]{1,80}[\'\"\u2019\u201d]"
    r"\s*,?\s+(?:with|containing|listing|saying)\s+"
    r"(?!(?:his|her|their|its|everything|all\s+the|whatever)\b)"
    r"(?P<text>[^.?!;\n]*?[^.?!;\n\s])\s*(?:[.?!;]|$)", re.IGNORECASE)
_TAKEN = re.compile(r"\b(?:from|in\s+it|in\s+there)\b", re.IGNORECASE)
# A sentence after the text that asks for something else: "... . oh and remind me to ..."
_NEXT_ASK = re.compile(r"[.!?;]\s+(?:oh\s+)?(?:and\s+|also\s+|then\s+)?(?:please\s+)?"
                       r"(?:remind|add|put|create|make|send|e-?mail|schedule|book|text|tell)\b.*$",
                       re.IGNORECASE)


def given_text(text: str) -> str | None:
    """The text a request gives the new note it names or labels, after the name and a mark
    ("->", ":"), whole, or None: "new note 'xmas cards' -> aunt rosa, the webers next
    door" and "quick note: mia is shoe size 31 now" give what follows the mark. Why one
    reader: the text is the user's own wording of the note, so the call that makes it is
    held to it before it runs and judged against it after; a sentence after it that asks
    for something else ("... . oh and remind me to ...") is another item, not the text."""
    match = _NAMED_TEXT.search(text) or _LABELLED_TEXT.match(text)
    if match is None:
        listed = _QUOTED_WITH.search(text)
        if listed is None or _TAKEN.search(listed.group("text")):
            return None
        return listed.group("text").strip(" ,")
    said = _NEXT_ASK.sub("", match.group("text")).strip().rstrip(" .!;,")
    return said or None


def is_quoted(value: str, text: str) -> bool:
    """Whether ``text`` gives ``value`` in quotes of any kind ("a note titled 'Monday'"):
    the writer's own wording, kept as written."""
    value, text = value.strip().lower(), text.lower()
    return any(f"{a}{value}{b}" in text for a, b in _QUOTES)


# ---- places ------------------------------------------------------------------------
# Where a thing happens, as a request names it after "at" or "in": a name written with
# capitals ("at Salon Kiez", "at Luigi's", "in Berlin") or a numbered room ("in room 4.10");
# a number after the name is part of it ("at Pier 7"), a time after it is not ("at Luigi's 7pm").
# the words a numbered place is named by: "room 4.10", "Room 2.01", "hall 3"
ROOM_WORDS = r"(?i:room|office|hall|building|floor)"
_PLACE = re.compile(
    r"\b(?:at|in|to(?=\s+(?:the\s+)?" + ROOM_WORDS + r"\s+\d))\s+(?:the\s+)?(?P<place>" + ROOM_WORDS
    + r"\s+\d[\w.-]*"
    r"|[A-Z][\w'\u2019&.-]*(?:\s+(?:[A-Z][\w'\u2019&.-]*|\d+(?!\d*(?:[:.]\d|\s*(?:am|pm|h)\b))[\w.]*))*)")
# Capitalised words after "at" or "in" that say when, not where
_NOT_PLACES = frozenset({*(n for names in WEEKDAYS["en"] for n in names), *month_words(),
                         *RELATIVE_DAYS["en"], *DAY_PARTS["en"], *CLOCK_WORDS["en"], "i",
                         "the", "a", "an", "my", "our", "your", "his", "her", "their", "this",
                         "that", "it", "me"})


# A street address said without "at": "Oderberger Str 5", "Kastanienallee 12", "12 Baker
# Street" is left to "at" (a number first is too often a count)
_STREET_WORDS = r"(?:Str\.?|Stra(?:ß|ss)e|Street|St\.|Road|Rd\.?|Avenue|Ave\.?|Allee|Platz|Weg|Gasse|Lane)"
_STREET = re.compile(
    rf"\b(?P<place>[A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*)*\s+{_STREET_WORDS}\s+\d{{1,4}}[a-z]?"
    r"|[A-Z][a-z\u00e4\u00f6\u00fc\u00df]+(?:stra(?:ß|ss)e|str\.|allee|platz|weg|gasse|damm|ufer)"
    r"\s+\d{1,4}[a-z]?)\b(?![:.]\d)")


def places(text: str) -> list[Found[str]]:
    """The places a text names where a thing happens ("haircut saturday 14:30 at Salon
    Kiez": "Salon Kiez"; "my 1:1 is in room 4.10 now": "room 4.10"; a street address
    alone: "Oderberger Str 5"), in order; never a day, a month or a time ("at Noon", "in
    December")."""
    found = [Found(Kind.place, m.group("place"), m.span("place"), m.group("place"))
             for m in _STREET.finditer(text)]
    taken = [f.span for f in found]
    for match in _PLACE.finditer(text):
        if any(a <= match.start("place") < b for a, b in taken):
            continue
        place = match.group("place").rstrip(".")
        first = re.sub(r"['\u2019]s$", "", place.split()[0].lower())
        if first in _NOT_PLACES:
            continue
        found.append(Found(Kind.place, place, match.span("place"), place))
    return sorted(found, key=lambda f: f.span)


def values(found: list[Found[V]]) -> Iterator[V]:
    """The values of ``found``, each once, in order."""
    return iter(dict.fromkeys(f.value for f in found))
