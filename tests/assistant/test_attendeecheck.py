"""AttendeeCheck: a new event lists only people the request names or a lookup showed."""

from __future__ import annotations

import json

import pytest

from botpsy.assistant.attendeecheck import AttendeeCheck, named_people
from botpsy.types import Message, ToolCall

TAX = "find a free hour on thursday afternoon and block it for tax paperwork"


def _said(text: str, *results: object) -> list[Message]:
    tools = [Message(role="tool", name="search_contacts", source="tool:search_contacts",
                     content=json.dumps(r)) for r in results]
    return [Message(role="user", content=text), *tools]


def _event(*attendees: str) -> ToolCall:
    return ToolCall(name="create_event", arguments={
        "title": "x", "start": "2026-12-10T13:30", "attendees": list(attendees)})


def test_the_people_a_request_names():
    assert named_people("set up 45 mins with jonas on the 15th at 2pm") == {"jonas"}
    assert named_people("lunch with Priya and Dan friday at 1") == {"priya", "dan"}
    assert "paperwork" not in named_people(TAX)


@pytest.mark.parametrize(("request_text", "attendees", "results", "refused"), [
    (TAX, ["tax paperwork"], (), True),                       # what it is for, not a person
    ("lunch with Priya and Dan friday at 1", ["Priya", "Dan"], (), False),
    ("lunch with priya friday at 1", ["priya@x.example"],        # her looked-up address
     ({"id": 1, "name": "Priya Shah", "email": "priya@x.example"},), False),
    ("lunch with my partner friday", ["Jamie Lee"],             # the contact a lookup showed
     ({"id": 2, "name": "Jamie Lee", "email": "jamie@x.example"},), False),
    ("lunch with Priya friday at 1", ["Priya", "Sara"], (), True),  # one made up
])
def test_attendees_nobody_named_are_refused(request_text, attendees, results, refused):
    why = AttendeeCheck()(_event(*attendees), _said(request_text, *results))
    assert (why is not None) is refused


def test_the_retry_keeps_the_named_people_or_none():
    why = AttendeeCheck()(_event("Priya", "Sara"),
                                        _said("lunch with Priya friday at 1"))
    assert why.narrow == {"attendees": {"type": "array", "items": {"enum": ["Priya"]},
                                        "maxItems": 1}}
    why = AttendeeCheck()(_event("tax paperwork"), _said(TAX))
    assert why.narrow == {"attendees": {"type": "null"}}
