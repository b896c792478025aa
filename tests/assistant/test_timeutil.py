"""Parsing the dates a model writes, DST gaps, and the UTC storage round trip."""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

import pytest

from botpsy.assistant.errors import ErrorKind, ToolInputError
from botpsy.assistant.timeutil import from_db, parse_end, parse_when, show, to_db, zone

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2025, 3, 5, 9, 0, tzinfo=UTC)  # Wednesday, 10:00 in Berlin


@pytest.mark.parametrize(
    ("text", "expected", "date_only"),
    [
        ("2025-03-04T09:30", "2025-03-04T09:30+01:00", False),
        ("2025-03-04", "2025-03-04T00:00+01:00", True),
        ("2025-03-04T09:30Z", "2025-03-04T10:30+01:00", False),
        ("2025-03-04 09:30 -05:00", "2025-03-04T15:30+01:00", False),
        ("today", "2025-03-05T00:00+01:00", True),
        ("Tomorrow 9:00", "2025-03-06T09:00+01:00", False),
        ("tomorrow at 3pm", "2025-03-06T15:00+01:00", False),
        ("tomorrow noon", "2025-03-06T12:00+01:00", False),
        ("friday 14:00", "2025-03-07T14:00+01:00", False),
        ("wednesday", "2025-03-05T00:00+01:00", True),  # a bare weekday may be today
        ("next wednesday", "2025-03-12T00:00+01:00", True),
        ("in 2 hours", "2025-03-05T12:00+01:00", False),
        ("in 3 days", "2025-03-08T10:00+01:00", False),
        ("March 10 10:30", "2025-03-10T10:30+01:00", False),
        ("now", "2025-03-05T10:00+01:00", False),
    ],
)
def test_accepted_forms(text: str, expected: str, date_only: bool) -> None:
    parsed = parse_when(text, tz=BERLIN, now=NOW)
    assert parsed.value.isoformat(timespec="minutes") == expected
    assert parsed.date_only is date_only


def test_default_time_for_a_bare_day() -> None:
    parsed = parse_when("tomorrow", tz=BERLIN, now=NOW, default_time=time(9))
    assert parsed.value.isoformat(timespec="minutes") == "2025-03-06T09:00+01:00"
    assert parsed.date_only


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "soon",
        "tomorrow 25:00",
        "2025-13-45",
        "tomorrow 2025-01-01",
        "x" * 200,
        "next blursday",
        "in many hours",
    ],
)
def test_malformed_dates_get_a_clear_error(text: str) -> None:
    with pytest.raises(ToolInputError) as caught:
        parse_when(text, tz=BERLIN, now=NOW)
    assert caught.value.kind is ErrorKind.invalid_date
    assert "ISO 8601" in str(caught.value)


def test_a_time_skipped_by_daylight_saving_is_refused() -> None:
    with pytest.raises(ToolInputError, match="does not exist in Europe/Berlin"):
        parse_when("2025-03-30T02:30", tz=BERLIN, now=NOW)


def test_relative_forms_follow_the_users_zone() -> None:
    late = datetime(2025, 3, 5, 23, 30, tzinfo=UTC)  # already Thursday in Tokyo
    tokyo = parse_when("today", tz=ZoneInfo("Asia/Tokyo"), now=late)
    berlin = parse_when("today", tz=BERLIN, now=late)
    assert tokyo.value.date().isoformat() == "2025-03-06"
    assert berlin.value.date().isoformat() == "2025-03-06"  # 00:30 in Berlin
    new_york = parse_when("today", tz=ZoneInfo("America/New_York"), now=late)
    assert new_york.value.date().isoformat() == "2025-03-05"


def test_storage_is_utc_and_display_is_local() -> None:
    moment = datetime(2025, 7, 1, 14, 0, tzinfo=BERLIN)  # summer time, +02:00
    stored = to_db(moment)
    assert stored == "2025-07-01T12:00:00Z"
    assert from_db(stored) == moment
    assert show(stored, BERLIN) == "2025-07-01T14:00+02:00"
    assert show(stored, ZoneInfo("America/Los_Angeles")) == "2025-07-01T05:00-07:00"
    assert show(None, BERLIN) is None


def test_unknown_zone_name() -> None:
    with pytest.raises(ToolInputError, match="IANA"):
        zone("Nowhere/Special")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("19:00", "2025-03-11T19:00+01:00"),  # a bare time is on the start's day
        ("7pm", "2025-03-11T19:00+01:00"),
        ("at 7:30 pm", "2025-03-11T19:30+01:00"),
        ("noon", "2025-03-11T12:00+01:00"),
        ("tomorrow 19:00", "2025-03-06T19:00+01:00"),  # anything else reads as parse_when
        ("2025-03-12T09:00", "2025-03-12T09:00+01:00"),
    ],
)
def test_an_end_time_of_day_falls_on_the_start_day(text: str, expected: str) -> None:
    start = parse_when("Tuesday 18:00", tz=BERLIN, now=NOW).value  # 2025-03-11
    parsed = parse_end(text, start=start, tz=BERLIN, now=NOW)
    assert parsed.value.isoformat(timespec="minutes") == expected
    assert not parsed.date_only


def test_a_bare_number_is_not_a_time_of_day() -> None:
    """ "19" is no clock time: it reads as parse_when reads it, not as 19:00 that day."""
    start = parse_when("Tuesday 18:00", tz=BERLIN, now=NOW).value
    assert parse_end("19", start=start, tz=BERLIN, now=NOW) == parse_when("19", tz=BERLIN, now=NOW)


@pytest.mark.parametrize(("text", "expected"), [
    ("next 2:00", datetime(2026, 12, 8, 2, 0)),  # 02:00 has passed today
    ("next 14:00", datetime(2026, 12, 7, 14, 0)),
    ("next at 8am", datetime(2026, 12, 8, 8, 0)),
    ("2pm", datetime(2026, 12, 7, 14, 0)),
    ("at 2pm", datetime(2026, 12, 7, 14, 0)),
    ("at 14:30", datetime(2026, 12, 7, 14, 30)),
])
def test_clock_times_alone_and_the_next_one(text: str, expected: datetime) -> None:
    berlin = zone("Europe/Berlin")
    parsed = parse_when(text, tz=berlin, now=datetime(2026, 12, 7, 8, 0, tzinfo=UTC))
    assert parsed.value == expected.replace(tzinfo=berlin) and not parsed.date_only
