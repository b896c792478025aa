"""A moment the request fixes relative to an item a lookup found.

"Find my meeting with Priya and remind me an hour before it" fixes the reminder's due
once the meeting is found: its start less an hour. "Check when the parent-teacher
meeting is and add a reminder the evening before at 8pm" fixes 20:00 on the day before.
A 135M model shown the event writes the event's own start, or a day it makes up; the
arithmetic is the agent's to do, from the request's words and the found item's start.

``relative_moment`` reads the request's phrase ("an hour before it", "30 minutes before",
"the day before at 9", "the evening before at 8pm", "2 days before"); ``found_start``
picks the one event that the conversation's lookups showed and that shares a word with
what the user wrote. Both say nothing when they cannot tell: the call is then not held.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from botpsy.agent.grounding import result_objects, user_text, words
from botpsy.assistant.errors import ToolInputError
from botpsy.assistant.timeutil import parse_when
from botpsy.extract import Found, at_times, day_phrases, offsets
from botpsy.language import DAY_PARTS, alternation
from botpsy.types import Message

# "the day before (at 9)", "the evening before at 8pm", "the night before", "that morning"
_DAY_BEFORE = re.compile(
    rf"\b(?:the\s+)?(?P<part>day|{alternation(DAY_PARTS['en'])})\s+before\b"
    r"|\bthe\s+(?P<same>morning|afternoon|evening)\s+of\b", re.IGNORECASE)
# The time of day a part of the day means when the request gives none ("the day before": 9).
_PART_TIMES = {"day": time(9), **{part: time(hour) for part, hour in DAY_PARTS["en"].items()}}


@dataclass(frozen=True)
class FoundEvent:
    """The event a lookup showed that the request is about."""

    id: int
    title: str
    start: datetime
    end: datetime
    words: frozenset[str] = frozenset()


def relative_moment(text: str, start: datetime) -> datetime | None:
    """The moment ``text`` fixes relative to ``start`` (an aware datetime), or None when
    it names none: "an hour before it" -> start - 1 h; "the evening before at 8pm" ->
    20:00 the day before; "the day before" -> 09:00 the day before."""
    found = offsets(text)
    if found:
        return start + found[0].value
    day = _DAY_BEFORE.search(text)
    if day is None:
        return None
    part = (day.group("part") or day.group("same")).lower()
    moment = start if day.group("same") else start - timedelta(days=1)
    clock = _in_part(_clock_found(text[day.end():]) or _clock_found(text), part)
    return moment.replace(hour=clock.hour, minute=clock.minute, second=0, microsecond=0)


def mentions_moment(text: str) -> bool:
    """Whether ``text`` fixes a time relative to another item ("an hour before it")."""
    return bool(offsets(text) or _DAY_BEFORE.search(text))


def shown_events(messages: list[Message], tz: ZoneInfo) -> list[FoundEvent]:
    """Every event the conversation's lookups showed (by id, the latest showing)."""
    found: dict[int, FoundEvent] = {}
    for family, obj in result_objects(messages):
        start = moment(obj.get("start"), tz)
        if family != "event" or start is None:
            continue
        end = moment(obj.get("end"), tz) or start
        text = " ".join(str(v) for v in obj.values() if isinstance(v, str))
        found[obj["id"]] = FoundEvent(obj["id"], str(obj.get("title") or ""), start, end,
                                      words(text))
    return list(found.values())


def found_event(messages: list[Message], tz: ZoneInfo) -> FoundEvent | None:
    """The event the conversation's lookups showed whose words (title, location, notes)
    share the most with the user's, or None when none does or several tie."""
    wanted = words(user_text(messages))
    ranked = sorted(((len(event.words & wanted), event) for event in shown_events(messages, tz)),
                    key=lambda pair: -pair[0])
    ranked = [pair for pair in ranked if pair[0]]
    if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return ranked[0][1]


# "due in 14 days", "due on 18 December", "due by Friday", "the window closes this Friday at
# noon", "the offer ends on the 20th": the day an item says a thing is due or over
_DUE = re.compile(r"\b(?:due|closes|ends|expires|deadline\s+is)\s+(?:(?:on|by)\s+)?"
                  r"(?P<when>in\s+\d+\s+(?:days?|weeks?)\b|[^.,;!?\n]{3,40})", re.IGNORECASE)
_TEXT_FIELDS = ("body", "snippet", "text", "content")


def found_due(messages: list[Message], tz: ZoneInfo) -> datetime | None:
    """The day a shown item says something is due ("Your bill ... is EUR 64.20, due in 14
    days", counted from the mail's date), for the one such item whose words share the most
    with the user's, at 09:00 when it gives no time; None when none or several tie. What
    "remind me 2 days before its due" counts from when the lookup found a mail, not an
    event: the 135M model cannot add 14 days to a mail's date."""
    wanted = words(user_text(messages))
    ranked: dict[int, tuple[int, datetime]] = {}
    for _, obj in result_objects(messages):
        due = _stated_due(obj, tz)
        text = " ".join(str(v) for v in obj.values() if isinstance(v, str))
        if due is not None and (score := len(words(text) & wanted)):
            ranked[obj["id"]] = (score, due)
    best = sorted(ranked.values(), key=lambda pair: -pair[0])
    if not best or (len(best) > 1 and best[1][0] == best[0][0]):
        return None
    return best[0][1]


def _stated_due(obj: dict, tz: ZoneInfo) -> datetime | None:
    """The due day an item's text states, read as of the item's own date (a mail's)."""
    anchor = moment(obj.get("date"), tz)
    for field in _TEXT_FIELDS:
        text = obj.get(field)
        match = _DUE.search(text) if isinstance(text, str) else None
        if match is None or anchor is None:
            continue
        when = match.group("when").strip()
        for phrase in [when, *(p.text for p in day_phrases(when))]:
            try:
                parsed = parse_when(phrase, tz=tz, now=anchor)
            except ToolInputError:
                continue
            due = parsed.value
            return due.replace(hour=9, minute=0, second=0, microsecond=0) if (
                parsed.date_only or phrase.lower().startswith("in ")) else due
    return None


def moment(value: object, tz: ZoneInfo) -> datetime | None:
    """An item's ISO time (``start``, ``due``) in the store's zone, or None."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment.astimezone(tz) if moment.tzinfo else moment.replace(tzinfo=tz)


def _clock_found(text: str) -> Found[time] | None:
    """The first clock time after "at" in ``text`` (``extract.at_times``), or None."""
    found = at_times(text)
    return found[0] if found else None


_HALF_DAY = re.compile(r"(?:am|pm)\s*$", re.IGNORECASE)


def _in_part(found: Found[time] | None, part: str) -> time:
    """The time of day a part of the day and its clock time say together: the clock as
    written when it says am or pm, or its hour in the part's half of the day ("the evening
    before at 7": 19:00, as a person means it; "the morning before at 7": 07:00); the
    part's own time when no clock is given."""
    if found is None:
        return _PART_TIMES[part]
    clock = found.value
    if _HALF_DAY.search(found.text) or not 1 <= clock.hour <= 11:
        return clock
    return clock.replace(hour=clock.hour + 12) if _PART_TIMES[part].hour >= 12 else clock
