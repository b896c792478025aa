"""The place a request names for an event (``PlaceCheck``, ``extract.places``)."""

from __future__ import annotations

import pytest

from botpsy.agent.rules import CallContext
from botpsy.assistant.placecheck import PlaceCheck, asked_place
from botpsy.extract import places
from botpsy.types import Message, ToolCall, ToolSpec

CREATE = ToolSpec(name="create_event", description="d", parameters={
    "type": "object", "required": ["title", "start", "end"],
    "properties": {a: {"type": "string"} for a in ("title", "start", "end", "location")}})
UPDATE = ToolSpec(name="update_event", description="d", parameters={
    "type": "object", "required": ["event_id"],
    "properties": {"event_id": {"type": "integer"}, "location": {"type": "string"}}})


@pytest.mark.parametrize(("text", "found"), [
    ("haircut saturday 14:30 at Salon Kiez, takes like 45 min. add it", ["Salon Kiez"]),
    ("my 1:1 with priya is in room 4.10 now", ["room 4.10"]),
    ("dinner at Luigi's friday 7pm", ["Luigi's"]),
    ("dentist at Dr. Weber tomorrow", ["Dr. Weber"]),
    # days, months and times are when, not where
    ("lunch at Noon on Monday", []), ("a meeting in December", []), ("call at 3", []),
    ("I am at home", []),
])
def test_the_places_a_request_names(text: str, found: list[str]) -> None:
    assert [f.value for f in places(text)] == found


def test_a_new_event_is_held_to_the_place_the_request_names() -> None:
    """The 135M model booked the haircut with no location."""
    said = [Message(role="user", content="haircut saturday 14:30 at Salon Kiez, takes like 45 min")]
    check = PlaceCheck({"create_event": CREATE}.get)
    assert check.expected(CallContext.before(CREATE, said)) == {"location": {"enum": ["Salon Kiez"]}}
    # nobody named: nobody invited (held to the place, the model listed made-up names)
    invite = ToolSpec(name="create_event", description="d", parameters={
        "type": "object", "properties": {"location": {"type": "string"},
                                         "attendees": {"type": ["array", "null"]}}})
    assert check.expected(CallContext.before(invite, said)) == {
        "location": {"enum": ["Salon Kiez"]}, "attendees": {"type": "null"}}
    with_priya = [Message(role="user", content="lunch with Priya friday 12:30 at Luigi's")]
    assert check.expected(CallContext.before(invite, with_priya)) == {
        "location": {"enum": ["Luigi's"]}}
    bare = ToolCall(name="create_event", arguments={"title": "haircut", "start": "s", "end": "e"})
    why = check(bare, said)
    assert why is not None and why.narrow == {"location": {"enum": ["Salon Kiez"]}}
    placed = ToolCall(name="create_event", arguments={"title": "haircut", "start": "s",
                                                      "end": "e", "location": "Salon Kiez, Berlin"})
    assert check(placed, said) is None


def test_a_changed_event_is_held_only_to_where_the_request_says_it_is_now() -> None:
    assert asked_place("update_event", "my 1:1 with priya is in room 4.10 now") == "room 4.10"
    # a place and its street, then "now"
    assert asked_place("update_event", "lunch with jonas is at Udon House, Invalidenstrasse now "
                                       "- update the location") == "Udon House"
    assert asked_place("update_event", "the party is at Luigi's, now tell me who comes") is None
    # the place tells which dinner is meant: no new location
    assert asked_place("update_event", "the dinner at Luigi's moves to 8") is None
    # moved to a room: the room is where it is now (the 135M model wrote no location)
    assert asked_place("update_event", "the parent-teacher meeting moved to room 3A, update it") == (
        "room 3A")
    assert asked_place("update_event", "move the standup to friday") is None
    # a room written with a capital, its number with a dot
    assert asked_place("update_event", "the roadmap review is in Room 2.01 now") == "Room 2.01"
    assert asked_place("create_event", "lunch with Jonas tomorrow at 12") is None
    assert asked_place("add_reminder", "remind me at Salon Kiez") is None
    said = [Message(role="user", content="the dinner at Luigi's moves to 8")]
    assert PlaceCheck({"update_event": UPDATE}.get).expected(CallContext.before(UPDATE, said)) == {}
