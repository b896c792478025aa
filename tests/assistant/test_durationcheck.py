"""DurationCheck: an event as long as the user said, free slots of the asked length."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from botpsy.assistant.durationcheck import DurationCheck, named_durations
from botpsy.types import Message, ToolCall

BERLIN = ZoneInfo("Europe/Berlin")
THURSDAY = datetime(2026, 12, 3, 8, 20, tzinfo=UTC)  # Thursday 3 December, 09:20 in Berlin
HAIRCUT = "Add a haircut on Saturday at 15:00 for 45 minutes at Salon Mitte."


@pytest.fixture
def check() -> DurationCheck:
    return DurationCheck(lambda: BERLIN, lambda: THURSDAY)


def _said(text: str) -> list[Message]:
    return [Message(role="user", content=text)]


def test_each_length_is_named_once() -> None:
    """The lengths themselves are ``extract.durations``' (tests/test_extract.py)."""
    assert named_durations("An hour for lunch, then an hour and a half, then an hour.") == [
        timedelta(hours=1), timedelta(minutes=90)]


def test_an_event_longer_than_asked_is_refused_and_narrowed_to_the_right_end(check) -> None:
    """haircut_with_location ended at 17:00 instead of 15:45."""
    call = ToolCall(name="create_event", arguments={
        "title": "Haircut", "start": "Saturday 15:00", "end": "17:00"})
    why = check(call, _said(HAIRCUT))
    assert "end '17:00' is not 45 minutes after start 'Saturday 15:00'" in why.reason
    assert why.narrow == {"end": {"enum": ["2026-12-05T15:45", "15:45"]}}


@pytest.mark.parametrize(
    "arguments",
    [
        {"title": "Haircut", "start": "Saturday 15:00", "end": "15:45"},
        {"title": "Haircut", "start": "2026-12-05T15:00", "end": "2026-12-05T15:45"},
        # a wrong day is the DayCheck's: an end from it would be wrong too
        {"title": "Haircut", "start": "Sunday 15:00", "end": "17:00"},
        {"title": "Haircut", "start": "Saturday 15:00"},  # no end: the tool says so
    ],
)
def test_the_right_length_and_other_checks_cases_pass(check, arguments) -> None:
    assert check(ToolCall(name="create_event", arguments=arguments), _said(HAIRCUT)) is None


def test_a_free_slot_search_for_another_length_is_narrowed(check) -> None:
    """free_hour_tomorrow asked for 8 minutes."""
    call = ToolCall(name="find_free_slots", arguments={"date": "tomorrow", "duration_minutes": 8})
    why = check(call, _said("When do I have a free hour tomorrow?"))
    assert why.narrow == {"duration_minutes": {"enum": [60]}}
    right = ToolCall(name="find_free_slots", arguments={"date": "tomorrow", "duration_minutes": 60})
    assert check(right, _said("When do I have a free hour tomorrow?")) is None


def test_requests_without_one_length_are_not_checked(check) -> None:
    call = ToolCall(name="create_event", arguments={"title": "X", "start": "15:00", "end": "19:00"})
    assert check(call, _said("Add dinner at 15:00")) is None
    assert check(call, _said("Book 1.5 hours for the review, or half an hour")) is None
