"""Calendar tools: create, list, update, delete, free slots; time zones and bad dates."""

from __future__ import annotations

import pytest

from botpsy.assistant.calendar import CalendarToolbox
from botpsy.assistant.errors import ErrorKind, ToolInputError
from botpsy.assistant.user_data import AssistantStore

from .helpers import count


@pytest.fixture
def cal(store: AssistantStore) -> CalendarToolbox:
    return CalendarToolbox(store)


def test_create_and_list_in_local_time(cal: CalendarToolbox, store: AssistantStore) -> None:
    event = cal.create_event(
        "Dentist",
        "tomorrow 8:30",
        "tomorrow 9:00",
        location="Main St 1",
        attendees=["dr@example.com"],
    )
    assert (event.start, event.end) == ("2025-03-06T08:30+01:00", "2025-03-06T09:00+01:00")
    assert event.attendees == ["dr@example.com"]
    stored = store.query_one("SELECT starts_at FROM events WHERE id = ?", (event.id,))
    assert stored["starts_at"] == "2025-03-06T07:30:00Z"
    assert [e.title for e in cal.list_events("2025-03-06", "2025-03-06")] == ["Dentist"]
    assert cal.list_events("2025-03-07", "2025-03-08") == []
    assert [e.id for e in cal.list_events()] == [event.id]  # default: a week from today


def test_list_events_includes_overlapping_events(cal: CalendarToolbox) -> None:
    cal.create_event("Night shift", "2025-03-05T22:00", "2025-03-06T06:00")
    assert [e.title for e in cal.list_events("2025-03-06", "2025-03-06")] == ["Night shift"]
    assert [e.title for e in cal.list_events("2025-03-05T23:00", "2025-03-05T23:30")] == [
        "Night shift"
    ]


def test_two_bare_dates_make_an_all_day_event(cal: CalendarToolbox) -> None:
    event = cal.create_event("Holiday", "2025-03-10", "2025-03-11")
    assert event.all_day
    assert (event.start, event.end) == ("2025-03-10T00:00+01:00", "2025-03-12T00:00+01:00")


def test_the_same_moment_shows_in_the_users_new_zone(
    cal: CalendarToolbox, store: AssistantStore
) -> None:
    event = cal.create_event("Call", "2025-03-06T15:00", "2025-03-06T16:00")
    store.set_profile(timezone="America/New_York")
    moved = cal.list_events("2025-03-06", "2025-03-06")[0]
    assert moved.id == event.id
    assert moved.start == "2025-03-06T09:00-05:00"


def test_events_across_a_daylight_saving_change(cal: CalendarToolbox) -> None:
    # Berlin moves from +01:00 to +02:00 at 02:00 on 2025-03-30.
    event = cal.create_event("Night train", "2025-03-30T01:00", "2025-03-30T04:00")
    assert (event.start, event.end) == ("2025-03-30T01:00+01:00", "2025-03-30T04:00+02:00")
    slots = cal.find_free_slots("2025-03-30", 60, day_start="00:00", day_end="06:00")
    assert [(s.start, s.minutes) for s in slots] == [
        ("2025-03-30T00:00+01:00", 60),
        ("2025-03-30T04:00+02:00", 120),
    ]


@pytest.mark.parametrize(
    ("start", "end", "message"),
    [
        ("tomorrow 10:00", "tomorrow 9:00", "must be after start"),
        ("tomorrow 10:00", "tomorrow 10:00", "must be after start"),
        ("someday", "tomorrow 10:00", "could not read"),
        ("2025-03-30T02:30", "2025-03-30T04:00", "does not exist"),
        ("2025-03-10T10:00", "2025-05-10T10:00", "at most 31 days"),
    ],
)
def test_create_event_rejects_bad_times_and_writes_nothing(
    cal: CalendarToolbox, store: AssistantStore, start: str, end: str, message: str
) -> None:
    with pytest.raises(ToolInputError, match=message) as caught:
        cal.create_event("X", start, end)
    assert caught.value.kind is ErrorKind.invalid_date
    assert count(store, "events") == 0


def test_create_event_rejects_bad_fields(cal: CalendarToolbox, store: AssistantStore) -> None:
    with pytest.raises(ToolInputError, match="title must not be empty"):
        cal.create_event(" ", "tomorrow 9:00", "tomorrow 10:00")
    with pytest.raises(ToolInputError, match="attendees"):
        cal.create_event("X", "tomorrow 9:00", "tomorrow 10:00", attendees=["a"] * 51)
    assert count(store, "events") == 0


def test_attendees_given_as_one_string(cal: CalendarToolbox) -> None:
    event = cal.create_event(
        "Sync", "tomorrow 9:00", "tomorrow 9:30", attendees="ana@example.com, bo@example.com"
    )  # type: ignore[arg-type]
    assert event.attendees == ["ana@example.com", "bo@example.com"]


def test_update_event_moves_start_and_keeps_length(cal: CalendarToolbox) -> None:
    event = cal.create_event("1:1", "2025-03-05T10:00", "2025-03-05T10:30", location="4.03")
    moved = cal.update_event(event.id, start="2025-03-05T14:00")
    assert (moved.start, moved.end) == ("2025-03-05T14:00+01:00", "2025-03-05T14:30+01:00")
    assert moved.location == "4.03" and moved.title == "1:1"
    renamed = cal.update_event(event.id, title="1:1 with Priya", attendees=["priya@x.example"])
    assert renamed.start == moved.start and renamed.attendees == ["priya@x.example"]
    longer = cal.update_event(event.id, end="2025-03-05T15:00")
    assert longer.end == "2025-03-05T15:00+01:00"


def test_update_event_bad_input_changes_nothing(cal: CalendarToolbox) -> None:
    event = cal.create_event("1:1", "2025-03-05T10:00", "2025-03-05T10:30")
    with pytest.raises(ToolInputError, match="must be after start"):
        cal.update_event(event.id, end="2025-03-05T09:00")
    with pytest.raises(ToolInputError, match="no event with id 99; list_events gives the ids"):
        cal.update_event(99, title="x")
    assert cal.list_events("today", "today")[0] == event


def test_delete_event(cal: CalendarToolbox, store: AssistantStore) -> None:
    event = cal.create_event("Gone", "tomorrow 9:00", "tomorrow 10:00")
    assert cal.delete_event(event.id).title == "Gone"
    assert count(store, "events") == 0
    with pytest.raises(ToolInputError, match="no event"):
        cal.delete_event(event.id)


def test_find_free_slots_around_busy_times(cal: CalendarToolbox) -> None:
    cal.create_event("Standup", "2025-03-06T09:30", "2025-03-06T09:45")
    cal.create_event("Lunch", "2025-03-06T12:00", "2025-03-06T13:00")
    cal.create_event("Overlap", "2025-03-06T12:30", "2025-03-06T13:30")
    cal.create_event("Late", "2025-03-06T16:45", "2025-03-06T18:00")
    slots = cal.find_free_slots("tomorrow", 30)
    assert [(s.start[11:16], s.end[11:16], s.minutes) for s in slots] == [
        ("09:00", "09:30", 30),
        ("09:45", "12:00", 135),
        ("13:30", "16:45", 195),
    ]
    assert [s.minutes for s in cal.find_free_slots("tomorrow", 150)] == [195]
    assert cal.find_free_slots("tomorrow", 240) == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"duration_minutes": 0}, "duration_minutes"),
        ({"duration_minutes": 2000}, "duration"),
        ({"day_start": "18:00"}, "later than day_start"),
        ({"day_end": "5pm"}, "like 09:00"),
        ({"date": "the day after"}, "could not read"),
    ],
)
def test_find_free_slots_bad_input(cal: CalendarToolbox, kwargs: dict, message: str) -> None:
    args = {"date": "tomorrow", "duration_minutes": 30} | kwargs
    with pytest.raises(ToolInputError, match=message):
        cal.find_free_slots(**args)


@pytest.mark.parametrize(
    ("start", "end", "message"),
    [
        ("2025-03-06", "2025-03-05", "end must be after start"),
        ("whenever", None, "could not read"),
        ("today", "2025-02-30", "could not read"),
    ],
)
def test_list_events_bad_ranges(
    cal: CalendarToolbox, start: str, end: str | None, message: str
) -> None:
    with pytest.raises(ToolInputError, match=message):
        cal.list_events(start, end)


def test_a_lookup_ending_at_the_midnight_its_day_starts_is_that_day(cal: CalendarToolbox) -> None:
    """ "What am I doing on Saturday": a model wrote start '2025-03-06', end
    '2025-03-06T00:00:00', an empty range no one asks for."""
    cal.create_event("Dentist", "2025-03-06T08:30", "2025-03-06T09:00")
    for end in ("2025-03-06T00:00:00", "2025-03-06T00:00"):
        assert [e.title for e in cal.list_events("2025-03-06", end)] == ["Dentist"]
        assert [e.title for e in cal.search_events("dentist", "2025-03-06", end)] == ["Dentist"]
    # a timed start with the same end stays an error, and so does an end before the start
    for start, end in (("2025-03-06T08:00", "2025-03-06T08:00"),
                       ("2025-03-06", "2025-03-05T23:00")):
        with pytest.raises(ToolInputError, match="end must be after start"):
            cal.list_events(start, end)


def test_an_end_given_as_a_bare_time_is_on_the_start_day(cal: CalendarToolbox) -> None:
    """ "Yoga on Tuesday from 18:00 to 19:00" as a model writes it: the end is not today."""
    event = cal.create_event("Yoga", "Tuesday 18:00", "19:00")
    assert (event.start, event.end) == ("2025-03-11T18:00+01:00", "2025-03-11T19:00+01:00")
    moved = cal.update_event(event.id, start="Friday 9:00", end="9:45")
    assert (moved.start, moved.end) == ("2025-03-07T09:00+01:00", "2025-03-07T09:45+01:00")
    with pytest.raises(ToolInputError):  # still before the start: refused, not moved a day
        cal.create_event("Late", "Tuesday 18:00", "17:00")
    with pytest.raises(ToolInputError):  # a bare day then a bare time: refused as before
        cal.create_event("Bank", "Tuesday", "9:00")


def test_end_times_of_day_in_listings_updates_and_at_midnight(cal: CalendarToolbox) -> None:
    """A bare end is read on the start's day everywhere a span is given, midnight on the day
    after; seconds are allowed; a whole-day start with a bare end is refused for an event."""
    late = cal.create_event("Party", "Friday 20:00", "midnight")
    assert (late.start, late.end) == ("2025-03-07T20:00+01:00", "2025-03-08T00:00+01:00")
    yoga = cal.create_event("Yoga", "Tuesday 18:00", "19:00:00")
    assert yoga.end == "2025-03-11T19:00+01:00"
    longer = cal.update_event(yoga.id, end="19:30")  # only the end: on the old start's day
    assert (longer.start, longer.end) == ("2025-03-11T18:00+01:00", "2025-03-11T19:30+01:00")
    assert [e.title for e in cal.list_events("Tuesday 9:00", "19:00")] == ["Yoga"]
    assert [e.title for e in cal.list_events("Tuesday", "17:00")] == []  # midnight to 17:00
    with pytest.raises(ToolInputError, match="give the start a time"):
        cal.create_event("Bank", "today", "9:00")


@pytest.mark.parametrize("start", ["2025-03-04T12:30", "yesterday 9:00", "2024-03-10"])
def test_a_new_event_on_a_past_day_is_refused_and_nothing_is_written(
    cal: CalendarToolbox, store: AssistantStore, start: str
) -> None:
    with pytest.raises(ToolInputError, match="has passed") as caught:
        cal.create_event("Lunch with Sara", start, "2025-03-06T13:30")
    assert caught.value.kind is ErrorKind.invalid_date
    assert "today is 2025-03-05" in str(caught.value)
    assert count(store, "events") == 0


def test_earlier_today_is_still_a_valid_start(cal: CalendarToolbox) -> None:
    event = cal.create_event("Meeting", "today 8:00", "11:00")
    assert event.start == "2025-03-05T08:00+01:00" and event.end == "2025-03-05T11:00+01:00"


def test_search_events_finds_upcoming_events_by_words(cal: CalendarToolbox) -> None:
    """Today is 2025-03-05 in these tests."""
    cal.create_event("1:1 with Priya", "2025-03-12T10:00", "2025-03-12T10:30")
    cal.create_event("Dentist", "2025-03-06T08:30", "2025-03-06T09:00", location="Main St 1")
    cal.create_event("Lunch", "2025-04-20T12:00", "2025-04-20T13:00", attendees=["priya@x.example"])
    cal.create_event("Priya farewell", "2025-09-01T18:00", "2025-09-01T20:00")  # 90 days on
    assert [e.title for e in cal.search_events("priya")] == ["1:1 with Priya", "Lunch"]
    assert [e.title for e in cal.search_events("main st")] == ["Dentist"]  # the place counts
    # every word first, then any of them
    assert [e.title for e in cal.search_events("dentist priya")] == [
        "Dentist", "1:1 with Priya", "Lunch"]
    assert [e.title for e in cal.search_events("priya", end="2025-03-31")] == ["1:1 with Priya"]
    assert [e.title for e in cal.search_events("priya", start="2025-08-30")] == ["Priya farewell"]
    assert cal.search_events("nobody") == []
    with pytest.raises(ToolInputError):
        cal.search_events("priya", start="2025-03-10", end="2025-03-01")
