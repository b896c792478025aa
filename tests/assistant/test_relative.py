"""Times counted from an item a lookup found (``assistant.relative``)."""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from botpsy.assistant.relative import found_event, mentions_moment, relative_moment
from botpsy.types import Message

BERLIN = ZoneInfo("Europe/Berlin")
START = datetime(2026, 12, 9, 10, 0, tzinfo=BERLIN)


@pytest.mark.parametrize(("text", "expected"), [
    ("remind me an hour before it", datetime(2026, 12, 9, 9, 0)),
    ("ping me 30 min before the meeting", datetime(2026, 12, 9, 9, 30)),
    ("half an hour before my appointment", datetime(2026, 12, 9, 9, 30)),
    ("add a reminder the evening before at 8pm", datetime(2026, 12, 8, 20, 0)),
    ("the day before at 7:30", datetime(2026, 12, 8, 7, 30)),
    # an hour said without am or pm is in the half of the day its part names
    ("remind me the evening before at 7 to wrap it", datetime(2026, 12, 8, 19, 0)),
    ("the afternoon before at 3:30", datetime(2026, 12, 8, 15, 30)),
    ("the morning before at 7", datetime(2026, 12, 8, 7, 0)),
    ("the evening before at 7am", datetime(2026, 12, 8, 7, 0)),
    ("the night before", datetime(2026, 12, 8, 20, 0)),
    ("2 days before", datetime(2026, 12, 7, 10, 0)),
    ("follow up 2 hours after it", datetime(2026, 12, 9, 12, 0)),
])
def test_a_relative_phrase_counts_from_the_items_start(text, expected) -> None:
    assert relative_moment(text, START) == expected.replace(tzinfo=BERLIN)
    assert mentions_moment(text)


@pytest.mark.parametrize("text", ["remind me at 3pm", "in 2 hours", "call Anna tomorrow"])
def test_other_times_are_not_relative(text) -> None:
    assert relative_moment(text, START) is None and not mentions_moment(text)


def _conversation(request: str, *events: dict) -> list[Message]:
    return [Message(role="user", content=request),
            Message(role="tool", name="search_events", source="tool:search_events",
                    content=json.dumps(list(events)))]


def test_the_found_event_is_the_one_that_fits_the_request_best() -> None:
    priya = {"id": 4, "title": "1:1 with Priya", "start": "2026-12-09T10:00+01:00"}
    school = {"id": 10, "title": "Parent-teacher meeting", "start": "2026-12-10T16:00+01:00"}
    found = found_event(_conversation("Find my 1:1 with Priya, remind me before", priya, school),
                        BERLIN)
    assert found is not None and found.id == 4 and found.start == START
    # two that fit as well as each other: no guess
    assert found_event(_conversation("remind me before my meeting",
                                     {**priya, "title": "Team meeting"}, school), BERLIN) is None
    assert found_event(_conversation("remind me before it"), BERLIN) is None


def test_a_due_day_a_found_mail_states_is_counted_from_its_date() -> None:
    """"that power bill email, remind me 2 days before its due": the mail says "due in 14
    days"; the 135M model cannot count that from the mail's date, the agent can."""
    from botpsy.assistant.relative import found_due

    bill = {"id": 17, "subject": "Your electricity bill is ready",
            "date": "2026-12-04T19:12+01:00",
            "snippet": "Your bill for last month is EUR 64.20, due in 14 days. Pay online."}
    said = "that power bill email, remind me 2 days before its due"
    messages = [Message(role="user", content=said),
                Message(role="tool", name="search_mail", source="tool:search_mail",
                        content=json.dumps([bill]))]
    due = found_due(messages, BERLIN)
    assert due == datetime(2026, 12, 18, 9, 0, tzinfo=BERLIN)
    assert relative_moment(said, due) == datetime(2026, 12, 16, 9, 0, tzinfo=BERLIN)
    dated = {**bill, "snippet": "The invoice is due on December 21. Thanks!"}
    messages[1] = messages[1].model_copy(update={"content": json.dumps([dated])})
    assert found_due(messages, BERLIN) == datetime(2026, 12, 21, 9, 0, tzinfo=BERLIN)
    # no mail that shares a word with the request, or none that states a due day
    assert found_due(messages[:1], BERLIN) is None
    messages[1] = messages[1].model_copy(update={"content": json.dumps([{**bill, "snippet": "Hi"}])})
    assert found_due(messages, BERLIN) is None
    # a window that closes or an offer that ends states its day the same way
    closes = {**bill, "snippet": "The bill window closes this Friday at noon."}
    messages[1] = messages[1].model_copy(update={"content": json.dumps([closes])})
    assert found_due(messages, BERLIN) == datetime(2026, 12, 11, 12, 0, tzinfo=BERLIN)
