"""iCalendar (.ics) import and export of the calendar, with the ``icalendar`` library.

Import: each VEVENT becomes an event keyed by its UID (importing again updates
instead of duplicating). Zoned times keep their moment, floating times are read
in the user's zone, all-day events span whole local days. Repeating events are
imported as their first occurrence, and the report says so.
Export: events in UTC with their UIDs, so another calendar can re-import them.

Origin: an invitation (a calendar sent with METHOD:REQUEST, or an event organised by
someone other than the user) is a stranger's text; the rest of the user's own
calendar export is theirs. ``origin`` overrides both (``botpsy assistant import
--from-others``).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

from icalendar import Calendar, vCalAddress
from icalendar import Event as IcsEvent

from botpsy.assistant.calendar import checked_span, new_uid
from botpsy.assistant.errors import ToolInputError
from botpsy.assistant.importing import ImportReport, IssueKind
from botpsy.assistant.timeutil import from_db, localize, to_db
from botpsy.assistant.user_data import AssistantStore
from botpsy.safety.provenance import merged, write_origin
from botpsy.types import Origin

PRODID = "-//botpsy//assistant calendar//EN"
NO_MAIL = "invalid:nomail"  # the usual URI for an attendee without an address
DEFAULT_LENGTH = timedelta(hours=1)


def import_ics(store: AssistantStore, path: str | Path, origin: Origin | None = None
               ) -> ImportReport:
    """Import the events of an .ics file; raises ValueError when it is not iCalendar.
    ``origin`` None: each event's (``event_origin``), or a stranger's for all when
    ``write_origin()`` says so."""
    if origin is None and write_origin() is Origin.third_party:
        origin = Origin.third_party
    data = Path(path).read_bytes()
    try:
        calendar = Calendar.from_ical(data)
    except ValueError as exc:
        raise ValueError(f"{path}: not an iCalendar file ({exc})") from exc
    report = ImportReport()
    now = to_db(store.now())
    invitation = str(calendar.get("METHOD") or "").upper() == "REQUEST"
    with store.write() as tx:
        for component in calendar.walk("VEVENT"):
            row = _event_row(store, component, report)
            if row is None:
                continue
            row["origin"] = (origin or event_origin(store, component, invitation)).value
            known = tx.execute("SELECT id, origin FROM events WHERE uid = ?",
                               (row["uid"],)).fetchone()
            if known:
                row["origin"] = merged(known["origin"], Origin(row["origin"])).value
                tx.execute(
                    "UPDATE events SET title = :title, starts_at = :starts_at, ends_at = :ends_at,"
                    " all_day = :all_day, location = :location, attendees = :attendees,"
                    " description = :description, origin = :origin WHERE uid = :uid",
                    row,
                )
                report.updated += 1
            else:
                tx.execute(
                    "INSERT INTO events (uid, title, starts_at, ends_at, all_day, location,"
                    " attendees, description, created_at, origin) VALUES (:uid, :title,"
                    " :starts_at, :ends_at, :all_day, :location, :attendees, :description,"
                    " :created_at, :origin)",
                    row | {"created_at": now},
                )
                report.imported += 1
    return report


def event_origin(store: AssistantStore, component: IcsEvent, invitation: bool) -> Origin:
    """A stranger's when the calendar is an invitation or someone else organised the
    event; the user's own otherwise."""
    organizer = str(component.get("ORGANIZER") or "")
    organizer = organizer[7:] if organizer.lower().startswith("mailto:") else organizer
    own = store.profile.email.lower()
    if invitation or (organizer and organizer.lower() != own):
        return Origin.third_party
    return Origin.user


def _event_row(
    store: AssistantStore, component: IcsEvent, report: ImportReport
) -> dict[str, object] | None:
    uid = str(component.get("UID") or "").strip() or new_uid()
    if component.get("DTSTART") is None:
        report.add_issue(uid, IssueKind.missing_field, "no DTSTART; skipped")
        return None
    try:
        start, end, all_day = _times(store, component, uid, report)
        span = checked_span(start, end, all_day)
    except (ToolInputError, ValueError, TypeError) as exc:
        report.add_issue(uid, IssueKind.bad_value, f"{exc}; skipped")
        return None
    title = " ".join(str(component.get("SUMMARY") or "").split())
    if not title:
        title = "(no title)"
        report.add_issue(uid, IssueKind.missing_field, "no SUMMARY; titled '(no title)'")
    if component.get("RRULE") is not None:
        report.add_issue(
            uid, IssueKind.simplified, "repeating event: only the first occurrence was imported"
        )
    location = str(component.get("LOCATION") or "").strip() or None
    return {
        "uid": uid,
        "title": title,
        "starts_at": to_db(span.start),
        "ends_at": to_db(span.end),
        "all_day": int(span.all_day),
        "location": location,
        "attendees": json.dumps(_attendees(component)),
        "description": str(component.get("DESCRIPTION") or ""),
    }


def _times(
    store: AssistantStore, component: IcsEvent, uid: str, report: ImportReport
) -> tuple[datetime, datetime, bool]:
    raw_start = component.get("DTSTART").dt
    all_day = not isinstance(raw_start, datetime)
    start = _moment(store, raw_start)
    if component.get("DTEND") is not None or component.get("DURATION") is not None:
        end = _moment(store, component.end)
    elif all_day:
        end = start + timedelta(days=1)  # RFC 5545: a DATE start alone lasts one day
    else:
        end = start + DEFAULT_LENGTH
        report.add_issue(uid, IssueKind.simplified, "no end or duration; given one hour")
    return start, end, all_day


def _moment(store: AssistantStore, value: date | datetime) -> datetime:
    """An aware datetime; dates are local midnights, floating times are local."""
    if not isinstance(value, datetime):
        return localize(datetime.combine(value, time(0)), store.tz)
    if value.tzinfo is None:
        return localize(value, store.tz)
    return value


def _attendees(component: IcsEvent) -> list[str]:
    raw = component.get("ATTENDEE")
    if raw is None:
        return []
    people = raw if isinstance(raw, list) else [raw]
    result = []
    for person in people:
        address = str(person)
        address = address[7:] if address.lower().startswith("mailto:") else ""
        name = str(person.params.get("CN", "")).strip()
        if name and address:
            result.append(f"{name} <{address}>")
        elif name or address:
            result.append(name or address)
    return result


def calendar_to_ics(store: AssistantStore) -> bytes:
    """All events as one iCalendar document."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    stamp = store.now()
    for row in store.query("SELECT * FROM events ORDER BY starts_at, id"):
        calendar.add_component(_ics_event(store, row, stamp))
    return calendar.to_ical()


def export_ics(store: AssistantStore, path: str | Path) -> int:
    """Write all events to an .ics file; returns how many were written."""
    data = calendar_to_ics(store)
    Path(path).write_bytes(data)
    return data.count(b"BEGIN:VEVENT")


def _ics_event(store: AssistantStore, row: sqlite3.Row, stamp: datetime) -> IcsEvent:
    event = IcsEvent()
    event.add("uid", row["uid"])
    event.add("dtstamp", stamp)
    event.add("summary", row["title"])
    start, end = from_db(row["starts_at"]), from_db(row["ends_at"])
    if row["all_day"]:  # all-day events are local dates, not instants
        event.add("dtstart", start.astimezone(store.tz).date())
        event.add("dtend", end.astimezone(store.tz).date())
    else:
        event.add("dtstart", start.astimezone(UTC))
        event.add("dtend", end.astimezone(UTC))
    if row["location"]:
        event.add("location", row["location"])
    if row["description"]:
        event.add("description", row["description"])
    for person in json.loads(row["attendees"]):
        event.add("attendee", _address(person), encode=0)
    return event


def _address(person: str) -> vCalAddress:
    name, _, rest = person.partition("<")
    if rest.endswith(">") and "@" in rest:
        address = vCalAddress("mailto:" + rest[:-1].strip())
        if name.strip():
            address.params["CN"] = name.strip()
        return address
    if "@" in person and " " not in person.strip():
        return vCalAddress("mailto:" + person.strip())
    address = vCalAddress(NO_MAIL)
    address.params["CN"] = person.strip()
    return address
