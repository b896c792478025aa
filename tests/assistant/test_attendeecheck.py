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


@pytest.mark.parametrize(("request_text", "people"), [
    ("set up 45 mins with jonas on the 15th at 2pm", ["jonas"]),
    ("lunch w/ Priya and Dan on friday", ["Priya", "Dan"]),
    ("invite Priya, Dan and Jamie to the review", ["Priya", "Dan", "Jamie"]),
    ("dinner with Jonas Weber sunday", ["Jonas Weber"]),
    ("coffee and cake with Sara at 3", ["Sara"]),      # "and" only goes on from a person
    ("a call with the dentist tomorrow", []),           # a filler word
    ("drinks with everyone from work", []),             # a group
    ("block 2 hours with no meetings", []),
    (TAX, []),
])
def test_the_people_an_event_is_with(request_text: str, people: list[str]) -> None:
    from botpsy.assistant.attendeecheck import with_people
    assert with_people(request_text) == people


def test_a_new_event_is_held_to_the_people_it_is_with_until_a_lookup_shows_someone():
    """"set up 45 mins with jonas on the 15th": the 135M model left Jonas out."""
    from botpsy.agent.rules import CallContext
    from botpsy.types import ToolSpec
    spec = ToolSpec(name="create_event", description="d", parameters={"type": "object", "properties": {
        "title": {"type": "string"}, "attendees": {"type": "array", "items": {"type": "string"}}}})
    request = "set up 45 mins with jonas on the 15th at 2pm"
    assert AttendeeCheck().expected(CallContext.before(spec, _said(request))) == {
        "attendees": {"enum": [["jonas"]]}}
    card = {"id": 3, "name": "Jonas Weber", "email": "jonas@northwind.example"}
    assert AttendeeCheck().expected(CallContext.before(spec, _said(request, [card]))) == {}
    assert AttendeeCheck().expected(CallContext.before(spec, _said("lunch friday at 1"))) == {}


def test_a_changed_event_lists_no_one_new_that_nobody_named():
    """"the parent-teacher meeting moved to room 3A": the 135M model also set its attendees
    to Priya, whom another event the search showed lists."""
    events = [{"id": 10, "title": "Parent-teacher meeting", "start": "2026-12-10T16:00",
               "attendees": []},
              {"id": 8, "title": "1:1", "start": "2026-12-08T10:00",
               "attendees": ["Priya Shah <priya@northwind.example>"]}]
    said = [Message(role="user", content="the parent-teacher meeting moved to room 3A"),
            Message(role="tool", name="search_events", source="tool:search_events",
                    content=json.dumps(events))]
    moved = ToolCall(name="update_event", arguments={
        "event_id": 10, "location": "room 3A", "attendees": ["Priya Shah <priya@northwind.example>"]})
    refusal = AttendeeCheck()(moved, said)
    assert refusal is not None and refusal.narrow == {"attendees": {"type": "null"}}
    kept = ToolCall(name="update_event", arguments={"event_id": 8, "attendees": [
        "Priya Shah <priya@northwind.example>"]})
    assert AttendeeCheck()(kept, said) is None  # the list it had
    card = {"id": 5, "name": "Linda Morgan", "email": "linda@home.example", "notes": "Mom."}
    asked = [Message(role="user", content="add mum to the sunday dinner as a guest"),
             Message(role="tool", name="search_contacts", source="tool:search_contacts",
                     content=json.dumps([card])), said[1]]
    invited = ToolCall(name="update_event", arguments={"event_id": 10,
                                                       "attendees": ["linda@home.example"]})
    assert AttendeeCheck()(invited, asked) is None  # a contact looked up
