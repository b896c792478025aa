"""Reminder tools: due dates in several forms, clear errors, listing order, completion."""

from __future__ import annotations

import pytest

from botpsy.assistant.errors import ErrorKind, ToolInputError
from botpsy.assistant.reminders import RemindersToolbox
from botpsy.assistant.user_data import AssistantStore

from .helpers import count


@pytest.fixture
def reminders(store: AssistantStore) -> RemindersToolbox:
    return RemindersToolbox(store)


@pytest.mark.parametrize(
    ("due", "expected"),
    [
        ("tomorrow 9:00", "2025-03-06T09:00+01:00"),
        ("2025-03-10T18:30", "2025-03-10T18:30+01:00"),
        ("friday", "2025-03-07T09:00+01:00"),  # a day alone: 09:00
        ("in 2 hours", "2025-03-05T12:00+01:00"),
        ("9:00", "2025-03-06T09:00+01:00"),  # passed today at 10:00: tomorrow, as on a phone
        ("11:30", "2025-03-05T11:30+01:00"),  # still ahead today
        ("today", "2025-03-05T09:00+01:00"),  # today's date: due now, kept
        ("now", "2025-03-05T10:00+01:00"),
        (None, None),
        ("", None),
    ],
)
def test_add_reminder_due_forms(
    reminders: RemindersToolbox, due: str | None, expected: str | None
) -> None:
    assert reminders.add_reminder("Call Sam", due).due == expected


@pytest.mark.parametrize("due", ["tomorrowish", "32/13/2025", "next week-ish 9", "25:61"])
def test_malformed_due_is_a_clear_error_and_nothing_is_written(
    reminders: RemindersToolbox, store: AssistantStore, due: str
) -> None:
    with pytest.raises(ToolInputError, match="ISO 8601") as caught:
        reminders.add_reminder("Call Sam", due)
    assert caught.value.kind is ErrorKind.invalid_date
    assert count(store, "reminders") == 0


def test_empty_text_is_refused(reminders: RemindersToolbox) -> None:
    with pytest.raises(ToolInputError, match="text must not be empty"):
        reminders.add_reminder("   ", "tomorrow")


def test_list_orders_by_due_with_todos_last_and_completes(reminders: RemindersToolbox) -> None:
    todo = reminders.add_reminder("Renew passport")
    later = reminders.add_reminder("Pay bill", "2025-03-10")
    sooner = reminders.add_reminder("Water plants", "tomorrow 8:00")
    assert [r.id for r in reminders.list_reminders()] == [sooner.id, later.id, todo.id]
    done = reminders.complete_reminder(sooner.id)
    assert done.done
    assert reminders.complete_reminder(sooner.id).done  # completing twice is harmless
    assert [r.id for r in reminders.list_reminders()] == [later.id, todo.id]
    assert [r.id for r in reminders.list_reminders(include_done=True)] == [
        later.id,
        todo.id,
        sooner.id,
    ]


def test_complete_unknown_reminder(reminders: RemindersToolbox) -> None:
    with pytest.raises(ToolInputError, match="no reminder with id 5; list_reminders gives the ids"):
        reminders.complete_reminder(5)


@pytest.mark.parametrize("due", ["2025-03-04T12:30", "yesterday 9:00", "2024-12-24", "today 8:00"])
def test_a_due_time_in_the_past_is_refused_and_nothing_is_written(
    reminders: RemindersToolbox, store: AssistantStore, due: str
) -> None:
    with pytest.raises(ToolInputError, match="in the past") as caught:
        reminders.add_reminder("Call Sam", due)
    assert caught.value.kind is ErrorKind.invalid_date
    assert "2025-03-05T10:00" in str(caught.value)  # the error says what now is
    assert count(store, "reminders") == 0
