"""TitleCheck: a title must say what, not only when."""

from __future__ import annotations

import pytest

from botpsy.assistant.titlecheck import TitleCheck, asked_titles, says_only_when
from botpsy.types import Message, ToolCall

BANK = "Schedule a call with the bank on Monday from 9:00 to 9:30."


@pytest.mark.parametrize(
    ("request_text", "titles"),
    [
        (BANK, ["call with the bank"]),
        ("Put a dentist appointment in my calendar on Friday from 10:00 to 11:00.",
         ["dentist appointment"]),
        ("Add lunch with Sara to my calendar tomorrow from 12:30 to 13:30.", ["lunch with Sara"]),
        ("Remind me to call Anna tomorrow at 9am", ["call Anna"]),
        ("Block next Monday, December 7, for the offsite", ["offsite"]),
        ("Find the babysitter's number and remind me to call her tonight",
         ["babysitter's number", "call her"]),
        ("Put it on Monday at 9:00", []),  # a pronoun is no title
        ("Add Monday at 9:00", []),
    ],
)
def test_asked_titles_take_off_the_verb_the_days_times_and_place(request_text, titles):
    assert asked_titles(request_text) == titles


@pytest.mark.parametrize(
    ("title", "only_when"),
    [("Monday", True), ("9:00", True), ("tomorrow 9:00", True), ("next Friday at 9am", True),
     ("Dec 7", True), ("Monday meeting", False), ("call", False), ("Anna tomorrow", False)],
)
def test_says_only_when(title, only_when):
    assert says_only_when(title) is only_when


def test_the_bank_call_titled_monday_is_refused_and_narrowed_to_the_request():
    call = ToolCall(name="create_event",
                    arguments={"title": "Monday", "start": "2026-12-07T09:00", "end": "09:30"})
    why = TitleCheck()(call, [Message(role="user", content=BANK)])
    assert why.reason.startswith("title 'Monday' says when, not what")
    assert why.narrow == {"title": {"enum": ["call with the bank"]}}


def test_titles_with_content_and_look_tools_pass_and_an_empty_request_does_not_narrow():
    said = [Message(role="user", content=BANK)]
    good = ToolCall(name="create_event", arguments={"title": "Bank call", "start": "Mon 9:00"})
    assert TitleCheck()(good, said) is None
    look = ToolCall(name="list_events", arguments={"title": "Monday"})
    assert TitleCheck()(look, said) is None
    bare = TitleCheck()(ToolCall(name="add_reminder", arguments={"text": "9:00"}),
                        [Message(role="user", content="Add Monday at 9:00")])
    assert bare.reason.startswith("text '9:00' says when") and bare.narrow == {}


@pytest.mark.parametrize("quoted", ["'Monday'", '"Monday"', "\u2018Monday\u2019"])
def test_a_title_the_user_gave_in_quotes_passes(quoted):
    call = ToolCall(name="create_note", arguments={"title": "Monday", "body": "laundry"})
    said = [Message(role="user", content=f"Make a note titled {quoted} that says laundry")]
    assert TitleCheck()(call, said) is None
