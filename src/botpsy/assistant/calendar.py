"""Calendar tools: list, create, change and delete events, and find free time.

Times are stored in UTC and shown in the user's zone (``store.tz``), so an event
keeps its real moment when the user travels or the clocks change. Inputs accept
ISO 8601 or plain forms like 'tomorrow 14:00' (see ``timeutil``). Import and
export of .ics files live in ``ics``.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from pydantic import Field

from botpsy.assistant import inputs
from botpsy.assistant.errors import ErrorKind, ToolInputError, not_found
from botpsy.assistant.records import Record
from botpsy.assistant.timeutil import (
    ParsedTime,
    from_db,
    localize,
    parse_end,
    parse_when,
    range_stop,
    show,
    to_db,
)
from botpsy.assistant.toolbox import Toolbox, exposed
from botpsy.extract import is_clock_time
from botpsy.safety.provenance import merged, write_origin
from botpsy.types import Origin

MAX_ATTENDEES = 50
MAX_EVENTS_LISTED = 50
MAX_EVENT_DAYS = 31
SEARCH_DAYS = 90  # how far ahead search_events looks by default


class Event(Record):
    """A calendar event; ``start``/``end`` are local ISO times with offset."""

    id: int
    title: str
    start: str
    end: str
    location: str | None = None
    attendees: list[str] = Field(default_factory=list)
    all_day: bool = False
    # An imported invitation's DESCRIPTION (agenda, dial-in); left out when empty.
    description: str | None = None


class FreeSlot(Record):
    """A free stretch of a day, at least as long as asked for."""

    start: str
    end: str
    minutes: int


class CalendarToolbox(Toolbox):
    """The user's calendar."""

    domain = "calendar"

    @exposed(writes=False)
    def list_events(self, start: str = "today", end: str | None = None) -> list[Event]:
        """List events between two dates or times (a date alone means the whole day).

        Args:
            start: First day or time, e.g. '2025-03-04' or 'today'.
            end: Last day or time; default: 7 days after start.
        """
        begin = self._when(start, "start")
        stop = self._lookup_stop(begin, end, timedelta(days=7))
        rows = self.store.query(
            "SELECT * FROM events WHERE starts_at < ? AND ends_at > ? "
            "ORDER BY starts_at, id LIMIT ?",
            (to_db(stop), to_db(begin.value), MAX_EVENTS_LISTED),
        )
        return [self._event(row) for row in rows]

    @exposed(writes=False)
    def search_events(self, query: str, start: str = "today", end: str | None = None
                      ) -> list[Event]:
        """Find events by words in their title, place, attendees or description, soonest
        first.

        Args:
            query: Words to look for, e.g. a name or 'dentist'.
            start: First day or time to look from, e.g. 'today' or '2025-03-04'.
            end: Last day or time; default: 90 days after start.
        """
        words = inputs.search_words(query)
        begin = self._when(start, "start")
        stop = self._lookup_stop(begin, end, timedelta(days=SEARCH_DAYS))
        return self._matching(words, " AND ", begin.value, stop) or self._matching(
            words, " OR ", begin.value, stop)

    def _matching(self, words: list[str], joiner: str, begin: datetime, stop: datetime
                  ) -> list[Event]:
        """The events in a range whose text holds all (``AND``) or any (``OR``) of the words."""
        haystack = inputs.unhyphenated(
            "(title || ' ' || coalesce(location, '') || ' ' || attendees || ' ' || description)")
        where = joiner.join(f"{haystack} LIKE ? ESCAPE '\\'" for _ in words)
        rows = self.store.query(
            f"SELECT * FROM events WHERE starts_at < ? AND ends_at > ? AND ({where}) "
            "ORDER BY starts_at, id LIMIT ?",
            (to_db(stop), to_db(begin), *[inputs.like_pattern(w) for w in words],
             MAX_EVENTS_LISTED),
        )
        return [self._event(row) for row in rows]

    @exposed(writes=True)
    def create_event(
        self,
        title: str,
        start: str,
        end: str,
        location: str | None = None,
        attendees: list[str] | None = None,
    ) -> Event:
        """Add an event to the calendar.

        Args:
            title: What the event is.
            start: Start time, e.g. '2025-03-04T14:00' or 'tomorrow 14:00'.
            end: End time, e.g. '2025-03-04T15:00' or 'tomorrow 15:00'; a bare time
                like '15:00' is on the start's day.
            location: Where it happens.
            attendees: Names or email addresses of the people invited.
        """
        row = {
            "uid": new_uid(),
            "title": inputs.text(title, "title", single_line=True),
            "location": inputs.optional_text(location, "location"),
            "attendees": json.dumps(_attendees(attendees)),
            "created_at": to_db(self.store.now()),
            "origin": write_origin().value,
        }
        begin = self._not_past_day(self._when(start, "start"))
        span = self._span(begin, self._end(end, begin))
        with self.store.write() as tx:
            cursor = tx.execute(
                "INSERT INTO events (uid, title, starts_at, ends_at, all_day, location, attendees,"
                " created_at, origin) VALUES (:uid, :title, :starts_at, :ends_at, :all_day,"
                " :location, :attendees, :created_at, :origin)",
                row | span.columns(),
            )
        return self._event(self._row(int(cursor.lastrowid)))

    def _not_past_day(self, begin: ParsedTime) -> ParsedTime:
        """Refuse a new event on a day that is over: asked to add one, a small model that
        writes a past day has made the date up (often copying an example), and the
        user would find the event nowhere. Earlier today is fine ("I am in a meeting
        since 9"); past events come in through .ics import."""
        today = self.store.now().astimezone(self.store.tz).date()
        day = begin.value.astimezone(self.store.tz).date()
        if day < today:
            raise ToolInputError(
                f"start {day.isoformat()} is a day that has passed (today is "
                f"{today.isoformat()}); give today or a later day, e.g. 'tomorrow 14:00'",
                ErrorKind.invalid_date,
            )
        return begin

    @exposed(writes=True, side_effect=True)
    def update_event(
        self,
        event_id: int,
        title: str | None = None,
        start: str | None = None,
        end: str | None = None,
        location: str | None = None,
        attendees: list[str] | None = None,
    ) -> Event:
        """Change some fields of an event; fields left out stay as they are.

        Args:
            event_id: The event to change.
            title: New title.
            start: New start time.
            end: New end time; a bare time like '15:00' is on the start's day.
            location: New location.
            attendees: New list of attendees (replaces the old one).
        """
        row = self._row(event_id)
        span = self._updated_span(row, start, end)
        changes = {
            "id": row["id"],
            "title": row["title"]
            if title is None
            else inputs.text(title, "title", single_line=True),
            "location": row["location"]
            if location is None
            else inputs.optional_text(location, "location"),
            "attendees": row["attendees"]
            if attendees is None
            else json.dumps(_attendees(attendees)),
            "origin": merged(row["origin"], write_origin()).value,
        }
        with self.store.write() as tx:
            tx.execute(
                "UPDATE events SET title = :title, starts_at = :starts_at, ends_at = :ends_at,"
                " all_day = :all_day, location = :location, attendees = :attendees,"
                " origin = :origin WHERE id = :id",
                changes | span.columns(),
            )
        return self._event(self._row(row["id"]))

    @exposed(writes=True, side_effect=True)
    def delete_event(self, event_id: int) -> Event:
        """Delete an event; returns what was deleted.

        Args:
            event_id: The event to delete.
        """
        row = self._row(event_id)
        with self.store.write() as tx:
            tx.execute("DELETE FROM events WHERE id = ?", (row["id"],))
        return self._event(row)

    @exposed(writes=False)
    def find_free_slots(
        self,
        date: str,
        duration_minutes: int = 30,
        day_start: str = "09:00",
        day_end: str = "17:00",
    ) -> list[FreeSlot]:
        """Find free time on a day that is at least duration_minutes long.

        Args:
            date: The day, e.g. '2025-03-04' or 'tomorrow'.
            duration_minutes: Minimum length of a free slot in minutes.
            day_start: Start of the working day, HH:MM.
            day_end: End of the working day, HH:MM.
        """
        minutes = inputs.limit(duration_minutes, "duration_minutes", 24 * 60)
        day = self._when(date, "date").value.date()
        tz = self.store.tz
        window_start = localize(datetime.combine(day, _clock_time(day_start, "day_start")), tz)
        window_end = localize(datetime.combine(day, _clock_time(day_end, "day_end")), tz)
        if window_end <= window_start:
            raise ToolInputError("day_end must be later than day_start")
        rows = self.store.query(
            "SELECT starts_at, ends_at FROM events WHERE starts_at < ? AND ends_at > ? "
            "ORDER BY starts_at",
            (to_db(window_end), to_db(window_start)),
        )
        busy = [(from_db(r["starts_at"]), from_db(r["ends_at"])) for r in rows]
        return [
            FreeSlot(
                start=s.astimezone(tz).isoformat(timespec="minutes"),
                end=e.astimezone(tz).isoformat(timespec="minutes"),
                minutes=int((e - s).total_seconds() // 60),
                origin=Origin.user,  # times only: no one's words
            )
            for s, e in free_gaps(window_start, window_end, busy, timedelta(minutes=minutes))
        ]

    # -- helpers --------------------------------------------------------------------
    def _when(self, value: str, field: str) -> ParsedTime:
        return parse_when(_as_text(value, field), tz=self.store.tz, now=self.store.now())

    def _end(self, value: str, begin: ParsedTime, *, event: bool = True) -> ParsedTime:
        """The end of a span that starts at ``begin``: a bare time is on its day. For an
        event, a bare time after a bare day ("Monday" to "9:00") is refused: the start
        needs a time of its own, or the event would silently run from midnight. A listing
        may run from midnight ("today" to "17:00")."""
        _as_text(value, "end")
        if event and begin.date_only and is_clock_time(value):
            raise ToolInputError(
                f"end {value!r} is a time of day but the start is a whole day; give the start "
                "a time too, like 'Tuesday 18:00', or give both as days for an all-day event",
                ErrorKind.invalid_date,
            )
        return parse_end(value, start=begin.value, tz=self.store.tz, now=self.store.now())

    def _lookup_stop(self, begin: ParsedTime, end: str | None, default: timedelta) -> datetime:
        """Where a lookup from ``begin`` stops: ``default`` after it without an ``end``,
        else as ``range_stop`` reads the end; an end at or before the start is an error."""
        if end is None:
            return begin.value + default
        stop = range_stop(begin, self._end(end, begin, event=False))
        if stop <= begin.value:
            raise ToolInputError("end must be after start", ErrorKind.invalid_date)
        return stop

    def _span(self, begin: ParsedTime, stop: ParsedTime) -> Span:
        """Start and end checked; two bare dates make an all-day event, end day included."""
        all_day = begin.date_only and stop.date_only
        end = stop.value + timedelta(days=1) if all_day else stop.value
        return checked_span(begin.value, end, all_day)

    def _updated_span(self, row: sqlite3.Row, start: str | None, end: str | None) -> Span:
        """The span after an update; moving only the start keeps the event's length."""
        old_start, old_end = from_db(row["starts_at"]), from_db(row["ends_at"])
        if start is None and end is None:
            return Span(old_start, old_end, bool(row["all_day"]))
        begin = (
            self._when(start, "start")
            if start is not None
            else ParsedTime(old_start.astimezone(self.store.tz), bool(row["all_day"]))
        )
        if end is not None:
            return self._span(begin, self._end(end, begin))
        return checked_span(
            begin.value,
            begin.value + (old_end - old_start),
            bool(row["all_day"]) and begin.date_only,
        )

    def preview_update_event(self, event_id: int, **_changes: object) -> str:
        event = self._event(self._row(event_id))
        return f"the event \u201c{event.title}\u201d ({event.start})"

    def preview_delete_event(self, event_id: int) -> str:
        return self.preview_update_event(event_id)

    def _row(self, event_id: int) -> sqlite3.Row:
        event_id = inputs.item_id(event_id, "event_id")
        row = self.store.query_one("SELECT * FROM events WHERE id = ?", (event_id,))
        if row is None:
            raise not_found("event", event_id, "list_events")
        return row

    def _event(self, row: sqlite3.Row) -> Event:
        tz = self.store.tz
        return Event(
            id=row["id"],
            title=row["title"],
            start=show(row["starts_at"], tz),
            end=show(row["ends_at"], tz),
            location=row["location"],
            attendees=json.loads(row["attendees"]),
            all_day=bool(row["all_day"]),
            description=row["description"] or None,
            origin=Origin(row["origin"]),
        )


@dataclass(frozen=True)
class Span:
    """An event's checked start and end (aware datetimes)."""

    start: datetime
    end: datetime
    all_day: bool = False

    def columns(self) -> dict[str, str | int]:
        """The span as values for the events table's columns."""
        return {
            "starts_at": to_db(self.start),
            "ends_at": to_db(self.end),
            "all_day": int(self.all_day),
        }


def _as_text(value: object, field: str) -> str:
    """``value`` when it is text; a date or time given as anything else is refused."""
    if not isinstance(value, str):
        raise ToolInputError(f"{field} must be a date or time as text", ErrorKind.invalid_date)
    return value


def checked_span(start: datetime, end: datetime, all_day: bool = False) -> Span:
    """``Span`` after checking that the end is after the start and not absurdly far."""
    if end <= start:
        raise ToolInputError(
            f"end ({end.isoformat(timespec='minutes')}) must be after start "
            f"({start.isoformat(timespec='minutes')})",
            ErrorKind.invalid_date,
        )
    if end - start > timedelta(days=MAX_EVENT_DAYS):
        raise ToolInputError(
            f"an event may last at most {MAX_EVENT_DAYS} days", ErrorKind.invalid_date
        )
    return Span(start, end, all_day)


def free_gaps(
    start: datetime, end: datetime, busy: list[tuple[datetime, datetime]], minimum: timedelta
) -> list[tuple[datetime, datetime]]:
    """Stretches of [start, end) not covered by any busy interval, at least ``minimum`` long."""
    gaps: list[tuple[datetime, datetime]] = []
    cursor = start
    for busy_start, busy_end in sorted(busy):
        if busy_start > cursor and min(busy_start, end) - cursor >= minimum:
            gaps.append((cursor, min(busy_start, end)))
        cursor = max(cursor, busy_end)
        if cursor >= end:
            break
    if end - cursor >= minimum:
        gaps.append((cursor, end))
    return gaps


def _clock_time(value: str, field: str) -> time:
    try:
        return time.fromisoformat(inputs.text(value, field, max_chars=8))
    except ValueError as exc:
        raise ToolInputError(
            f"{field} must be a time like 09:00, got {value!r}", ErrorKind.invalid_date
        ) from exc


def _attendees(values: list[str] | None) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):  # a model may send "a@x.org, b@y.org"
        values = values.split(",")
    if not isinstance(values, list) or len(values) > MAX_ATTENDEES:
        raise ToolInputError(f"attendees must be a list of at most {MAX_ATTENDEES} names")
    return [inputs.text(v, "attendee", single_line=True) for v in values if str(v).strip()]


def new_uid() -> str:
    """A globally unique iCalendar UID for an event made here."""
    return f"{uuid.uuid4()}@botpsy"
