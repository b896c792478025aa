"""Dates and times for the tools: parse what a model writes, store UTC, show local time.

The database keeps UTC text (``2025-03-04T08:00:00Z``); tools show times in the
user's zone with their offset (``2025-03-04T09:00+01:00``) so a small model never
has to convert. Input may be ISO 8601 or a few plain forms a model is likely to
write: ``today``, ``tomorrow 9:00``, ``next friday 3pm``, ``in 2 hours``,
``March 4 10:30``. Anything else is a ``ToolInputError`` that lists the accepted
forms, never a silent guess: dateutil's fuzzy mode is deliberately not used. The
plain forms' words and patterns are ``botpsy.extract``'s (``day_word``, ``from_now``,
``is_clock_time``); what they mean in the user's zone is read here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dateutil import parser as date_parser

from botpsy.assistant.errors import ErrorKind, ToolInputError
from botpsy.extract import day_word, from_now, is_clock_time
from botpsy.language import CLOCK_WORDS

ACCEPTED_FORMS = (
    "use ISO 8601 like 2025-03-04T09:30 or 2025-03-04, "
    "or forms like 'today 17:00', 'tomorrow 9:00', 'next friday 3pm', 'in 2 hours'"
)
MAX_INPUT_CHARS = 80


@dataclass(frozen=True)
class ParsedTime:
    """A parsed moment in the user's zone; ``date_only`` when no time of day was given."""

    value: datetime
    date_only: bool


def zone(name: str) -> ZoneInfo:
    """The ``ZoneInfo`` for an IANA name, with a clear error for unknown names."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ToolInputError(
            f"unknown time zone {name!r}; use an IANA name like 'Europe/Berlin'",
            ErrorKind.invalid_date,
        ) from exc


def parse_when(
    text: str, *, tz: ZoneInfo, now: datetime, default_time: time | None = None
) -> ParsedTime:
    """Parse ``text`` as a moment in zone ``tz``; ``now`` anchors relative forms.

    A date without a time gets ``default_time`` (midnight when None) and
    ``date_only=True`` so callers can treat it as a whole day.
    """
    cleaned = _normalized(text)
    if not cleaned:
        raise ToolInputError(f"empty date; {ACCEPTED_FORMS}", ErrorKind.invalid_date)
    if len(cleaned) > MAX_INPUT_CHARS or "\x00" in cleaned:
        raise ToolInputError(
            f"date text too long or malformed; {ACCEPTED_FORMS}", ErrorKind.invalid_date
        )
    local_now = now.astimezone(tz)
    if cleaned == "now":
        return ParsedTime(local_now.replace(second=0, microsecond=0), False)
    if (ahead := from_now(cleaned)) is not None:
        return ParsedTime((local_now + ahead.value).replace(microsecond=0), False)
    if (word := day_word(cleaned)) is not None:
        day = word.value.on(local_now.date())
        return _with_time_of_day(day, word.value.rest, text, tz, default_time)
    if cleaned.startswith("next ") and is_clock_time(cleaned[5:]):
        return _next_clock_time(cleaned[5:].removeprefix("at "), text, tz, local_now)
    if is_clock_time(cleaned):  # "2pm", "at 2pm": today at that time, never a bare day
        return _with_time_of_day(local_now.date(), cleaned.removeprefix("at "), text, tz, None)
    return _parse_absolute(cleaned, text, tz, local_now.date(), default_time)


def _next_clock_time(clock: str, original: str, tz: ZoneInfo, local_now: datetime) -> ParsedTime:
    """"next 2:00": the first time the clock shows it after now (today or tomorrow). Why:
    asked for a reminder at the next 2:00, a model wrote that due, which read as nothing."""
    today = _with_time_of_day(local_now.date(), clock, original, tz, None)
    if today.value > local_now:
        return today
    return _with_time_of_day(local_now.date() + timedelta(days=1), clock, original, tz, None)


def _normalized(text: str) -> str:
    """Lower case with single spaces; "" for anything that is not text."""
    return " ".join(text.strip().lower().split()) if isinstance(text, str) else ""


def parse_end(text: str, *, start: datetime, tz: ZoneInfo, now: datetime) -> ParsedTime:
    """Parse an end time that follows ``start``: a bare time of day (``19:00``, ``7pm``,
    ``noon``) falls on the start's day, as in "Tuesday from 18:00 to 19:00", and
    ``midnight`` (00:00) on the day after, as in "20:00 to midnight"; any other form reads
    as ``parse_when`` reads it. Without this, "19:00" would mean today even for an event
    that starts next week."""
    if not is_clock_time(text):
        return parse_when(text, tz=tz, now=now)
    cleaned = _normalized(text).removeprefix("at ")
    local_start = start.astimezone(tz)
    parsed = _with_time_of_day(local_start.date(), cleaned, text, tz, None)
    if parsed.value.time() == time(0) and parsed.value <= local_start:
        next_day = local_start.date() + timedelta(days=1)
        return _with_time_of_day(next_day, cleaned, text, tz, None)
    return parsed


def range_stop(begin: ParsedTime, end: ParsedTime) -> datetime:
    """Where a lookup from ``begin`` to ``end`` stops: the end of the day for a day
    alone. An end at the very midnight a whole-day start begins ("2026-12-12" to
    "2026-12-12T00:00") is that day too: a model asked about Saturday wrote it, and no one
    asks for an empty range. Any other end stays as written (one at or before the start
    is the caller's error to report)."""
    midnight = begin.value.time() == time(0)
    whole_day = end.date_only or (midnight and end.value == begin.value)
    return end.value + timedelta(days=1) if whole_day else end.value


def _with_time_of_day(
    day: date, rest: str, original: str, tz: ZoneInfo, default_time: time | None
) -> ParsedTime:
    if not rest:
        return ParsedTime(localize(datetime.combine(day, default_time or time(0)), tz), True)
    if rest in CLOCK_WORDS["en"]:
        clock = time(*CLOCK_WORDS["en"][rest])
        return ParsedTime(localize(datetime.combine(day, clock), tz), False)
    base = datetime.combine(day, time(0))
    parsed = _dateutil(rest, original, base)
    if parsed.date() != day or parsed.tzinfo is not None:
        raise ToolInputError(
            f"could not read {original!r} as a day and a time; {ACCEPTED_FORMS}",
            ErrorKind.invalid_date,
        )
    return ParsedTime(localize(parsed, tz), False)


def _parse_absolute(
    cleaned: str, original: str, tz: ZoneInfo, today: date, default_time: time | None
) -> ParsedTime:
    midnight = datetime.combine(today, time(0))
    parsed = _dateutil(cleaned, original, midnight)
    # dateutil cannot say whether the text had a time of day; parse again with a
    # different default time: if the time changes with it, no time was given.
    probe = _dateutil(cleaned, original, datetime.combine(today, time(1, 1)))
    date_only = (parsed.hour, parsed.minute) != (probe.hour, probe.minute)
    if date_only:
        parsed = datetime.combine(parsed.date(), default_time or time(0))
        return ParsedTime(localize(parsed, tz), True)
    if parsed.tzinfo is not None:
        return ParsedTime(parsed.astimezone(tz), False)
    return ParsedTime(localize(parsed, tz), False)


def _dateutil(text: str, original: str, default: datetime) -> datetime:
    try:
        return date_parser.parse(text, default=default)
    except (date_parser.ParserError, ValueError, OverflowError) as exc:
        raise ToolInputError(
            f"could not read {original!r} as a date; {ACCEPTED_FORMS}", ErrorKind.invalid_date
        ) from exc


def localize(naive: datetime, tz: ZoneInfo) -> datetime:
    """Attach ``tz`` to a wall-clock time, refusing times skipped by a DST change."""
    aware = naive.replace(tzinfo=tz)
    round_trip = aware.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
    if round_trip != naive.replace(tzinfo=None):
        raise ToolInputError(
            f"{naive:%Y-%m-%d %H:%M} does not exist in {tz.key} (the clocks skip it); "
            "pick another time",
            ErrorKind.invalid_date,
        )
    return aware


def to_db(moment: datetime) -> str:
    """UTC storage text for an aware datetime."""
    if moment.tzinfo is None:
        raise ValueError("to_db needs an aware datetime")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def from_db(text: str) -> datetime:
    """The aware UTC datetime of a stored value."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def show(text: str | None, tz: ZoneInfo) -> str | None:
    """A stored UTC value as local ISO text with offset, to the minute."""
    if text is None:
        return None
    return from_db(text).astimezone(tz).isoformat(timespec="minutes")


def show_date(text: str, tz: ZoneInfo) -> str:
    """A stored UTC value as the local calendar date."""
    return from_db(text).astimezone(tz).date().isoformat()
