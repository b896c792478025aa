"""iCalendar import (zones, floating and all-day times, UIDs, repeats) and export round trip."""

from __future__ import annotations

from pathlib import Path

import pytest
from icalendar import Calendar

from botpsy.assistant.calendar import CalendarToolbox
from botpsy.assistant.ics import calendar_to_ics, export_ics, import_ics
from botpsy.assistant.importing import IssueKind
from botpsy.assistant.user_data import AssistantStore
from botpsy.tools.render import render_result

from .helpers import count

ICS = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:ny-call@example.com
SUMMARY:Call with New York
DTSTART;TZID=America/New_York:20250306T090000
DTEND;TZID=America/New_York:20250306T100000
LOCATION:Phone
DESCRIPTION:Agenda: Q2 numbers\\, hiring.
ATTENDEE;CN=Ana Ruiz:mailto:ana@example.com
ATTENDEE:mailto:bo@example.com
END:VEVENT
BEGIN:VEVENT
UID:utc@example.com
SUMMARY:UTC meeting
DTSTART:20250306T120000Z
DURATION:PT45M
END:VEVENT
BEGIN:VEVENT
UID:floating@example.com
SUMMARY:Floating yoga
DTSTART:20250307T070000
DTEND:20250307T080000
RRULE:FREQ=WEEKLY
END:VEVENT
BEGIN:VEVENT
UID:holiday@example.com
SUMMARY:Holiday
DTSTART;VALUE=DATE:20250310
END:VEVENT
BEGIN:VEVENT
UID:no-start@example.com
SUMMARY:Broken
END:VEVENT
BEGIN:VEVENT
UID:backwards@example.com
SUMMARY:Backwards
DTSTART:20250306T120000Z
DTEND:20250306T110000Z
END:VEVENT
BEGIN:VEVENT
UID:untitled@example.com
DTSTART:20250308T120000Z
END:VEVENT
END:VCALENDAR
"""


@pytest.fixture
def ics_file(tmp_path: Path) -> Path:
    path = tmp_path / "cal.ics"
    path.write_text(ICS.replace("\n", "\r\n"))
    return path


def test_import_ics(store: AssistantStore, ics_file: Path) -> None:
    report = import_ics(store, ics_file)
    assert report.imported == 5
    kinds = {(issue.source, issue.kind) for issue in report.issues}
    assert ("no-start@example.com", IssueKind.missing_field) in kinds
    assert ("backwards@example.com", IssueKind.bad_value) in kinds
    assert ("floating@example.com", IssueKind.simplified) in kinds
    assert ("untitled@example.com", IssueKind.missing_field) in kinds
    events = {e.title: e for e in CalendarToolbox(store).list_events("2025-03-06", "2025-03-12")}
    call = events["Call with New York"]
    assert (call.start, call.end) == ("2025-03-06T15:00+01:00", "2025-03-06T16:00+01:00")
    assert call.attendees == ["Ana Ruiz <ana@example.com>", "bo@example.com"]
    assert call.location == "Phone"
    # the invitation's text reaches the model (as untrusted tool output, like mail)
    assert call.description == "Agenda: Q2 numbers, hiring."
    assert '"description"' not in render_result(events["UTC meeting"])  # none: left out
    assert events["UTC meeting"].end == "2025-03-06T13:45+01:00"
    assert events["Floating yoga"].start == "2025-03-07T07:00+01:00"  # read in the user's zone
    holiday = events["Holiday"]
    assert holiday.all_day and holiday.end == "2025-03-11T00:00+01:00"
    assert events["(no title)"].end == "2025-03-08T14:00+01:00"  # given one hour


def test_reimport_updates_by_uid(store: AssistantStore, ics_file: Path) -> None:
    import_ics(store, ics_file)
    ics_file.write_text(ICS.replace("Call with New York", "Call with NYC office"))
    report = import_ics(store, ics_file)
    assert (report.imported, report.updated) == (0, 5)
    assert count(store, "events") == 5
    titles = [e.title for e in CalendarToolbox(store).list_events("2025-03-06", "2025-03-06")]
    assert "Call with NYC office" in titles


def test_export_then_import_round_trip(
    store: AssistantStore, ics_file: Path, tmp_path: Path
) -> None:
    import_ics(store, ics_file)
    CalendarToolbox(store).create_event(
        "Made here",
        "2025-03-06T18:00",
        "2025-03-06T19:00",
        attendees=["Jamie", "Bo <bo@example.com>"],
    )
    out = tmp_path / "out.ics"
    assert export_ics(store, out) == 6
    parsed = Calendar.from_ical(out.read_bytes())
    assert len(list(parsed.walk("VEVENT"))) == 6
    with AssistantStore(tmp_path / "other", clock=store.now) as other:
        other.set_profile(timezone="Europe/Berlin")
        assert import_ics(other, out).imported == 6
        mine = CalendarToolbox(store).list_events("2025-03-01", "2025-03-31")
        theirs = CalendarToolbox(other).list_events("2025-03-01", "2025-03-31")
        strip = [(e.title, e.start, e.end, e.all_day, e.location, e.attendees) for e in mine]
        assert strip == [
            (e.title, e.start, e.end, e.all_day, e.location, e.attendees) for e in theirs
        ]


def test_export_of_an_empty_calendar_is_valid(store: AssistantStore) -> None:
    parsed = Calendar.from_ical(calendar_to_ics(store))
    assert str(parsed["PRODID"]).startswith("-//botpsy")


def test_not_an_ics_file(store: AssistantStore, tmp_path: Path) -> None:
    bad = tmp_path / "bad.ics"
    bad.write_text("hello, I am not a calendar")
    with pytest.raises(ValueError, match="not an iCalendar file"):
        import_ics(store, bad)
    assert count(store, "events") == 0
