"""A value the request asks a new item to carry (``IncludeCheck``)."""

from __future__ import annotations

import json
import re

from botpsy.agent.rules import CallContext
from botpsy.assistant.includecheck import IncludeCheck, asked_field
from botpsy.types import Message, ToolCall, ToolSpec

REMINDER = ToolSpec(name="add_reminder", description="d", parameters={
    "type": "object", "required": ["text", "due"],
    "properties": {"text": {"type": "string"}, "due": {"type": "string"}}})
PRIYA = {"id": 1, "name": "Priya Shah", "email": "priya.shah@northwind.example",
         "phone": "+49 30 5550 1201"}
REQUEST = ("look up Priya's phone number and make a reminder at 5 today to call her, "
           "with the number in it")


def _found(request: str, *contacts: dict) -> list[Message]:
    return [Message(role="user", content=request),
            Message(role="tool", name="search_contacts", source="tool:search_contacts:c1",
                    content=json.dumps(list(contacts)))]


def check() -> IncludeCheck:
    return IncludeCheck(lambda name: REMINDER if name == "add_reminder" else None)


def test_what_a_request_asks_to_include() -> None:
    assert asked_field(REQUEST) == "phone"
    assert asked_field("draft Jonas a note with her email address") == "email"
    assert asked_field("Call Priya about the number of guests") is None
    # a person added to an event is invited by address ("add Dan to the quarterly review")
    assert asked_field("add Dan to the quarterly review on friday") == "email"
    assert asked_field("add lunch with Sara to my calendar") is None
    # a named person's field, as "the number" is
    assert asked_field("start a note 'Designer contacts' with Marta's phone number in it") == "phone"
    # a field taken from someone and put into what is made
    assert asked_field("grab nora's number and stick it in a new note called Climbing") == "phone"
    assert asked_field("save his email in a note") == "email"
    assert asked_field("what is nora's number?") is None


def test_a_reminder_without_the_number_asked_for_is_refused_and_held_to_it() -> None:
    messages = _found(REQUEST, PRIYA)
    left_out = ToolCall(name="add_reminder", arguments={"text": "Call Priya's phone number",
                                                        "due": "2026-12-07T17:00"})
    why = check()(left_out, messages)
    assert why is not None
    pattern = why.narrow["text"]["pattern"]
    assert re.fullmatch(pattern, "Call Priya +49 30 5550 1201")
    assert not re.fullmatch(pattern, "Call Priya")
    assert check().expected(CallContext.before(REMINDER, messages)) == why.narrow
    kept = ToolCall(name="add_reminder", arguments={"text": "Call Priya, +49 30 5550 1201",
                                                    "due": "2026-12-07T17:00"})
    assert check()(kept, messages) is None


def test_nothing_is_held_without_one_contact_or_the_ask() -> None:
    two = {**PRIYA, "id": 2, "phone": "+49 30 5550 9999"}
    assert check().expected(CallContext.before(REMINDER, _found(REQUEST, PRIYA, two))) == {}
    assert check().expected(CallContext.before(REMINDER, _found("remind me to call Priya at 5", PRIYA))) == {}


def test_the_contact_whose_number_goes_in_is_looked_up_first():
    request = "remind me thursday 6pm to call my brother, and put his number in the reminder"
    assert asked_field(request) == "phone"
    assert check().needs_first(CallContext.before(REMINDER, [Message(role="user", content=request)])) == ("contact",)
    assert check().needs_first(CallContext.before(REMINDER, _found(request, PRIYA))) == ()


EVENT_PROPERTIES = {"title": {"type": "string"}, "start": {"type": "string"},
                    "end": {"type": "string"},
                    "attendees": {"type": ["array", "null"], "items": {"type": "string"}}}
CREATE = ToolSpec(name="create_event", description="d", parameters={
    "type": "object", "required": ["title", "start", "end"], "properties": EVENT_PROPERTIES})
UPDATE = ToolSpec(name="update_event", description="d", parameters={
    "type": "object", "required": ["event_id"],
    "properties": {"event_id": {"type": "integer"}, **EVENT_PROPERTIES}})


def test_an_email_asked_onto_an_invite_is_an_attendee() -> None:
    request = "coffee with priya wed 4pm, put her email on the invite"
    assert asked_field("add mum to the sunday dinner as a guest") == "email"
    events = IncludeCheck({"create_event": CREATE, "update_event": UPDATE}.get)
    before = [Message(role="user", content=request)]
    assert events.needs_first(CallContext.before(CREATE, before)) == ("contact",)
    found = _found(request, PRIYA)
    assert events.expected(CallContext.before(CREATE, found)) == {
        "attendees": {"enum": [[PRIYA["email"]]]}}
    bare = ToolCall(name="create_event", arguments={"title": "Coffee", "start": "wed 16:00",
                                                    "end": "wed 17:00"})
    assert events(bare, found).narrow == {"attendees": {"enum": [[PRIYA["email"]]]}}
    invited = bare.model_copy(update={"arguments": {**bare.arguments,
                                                    "attendees": [PRIYA["email"]]}})
    assert events(invited, found) is None


def test_an_updated_invite_keeps_the_guests_it_had() -> None:
    """update_event replaces the attendee list: the guest is added to the one shown."""
    request = "add priya to the sunday dinner as a guest"
    dinner = {"id": 14, "title": "Sunday dinner", "attendees": ["dad@home.example"]}
    messages = [*_found(request, PRIYA),
                Message(role="tool", name="search_events", source="tool:search_events:c2",
                        content=json.dumps([dinner]))]
    events = IncludeCheck({"update_event": UPDATE}.get)
    assert events.expected(CallContext.before(UPDATE, messages)) == {}
    call = ToolCall(name="update_event", arguments={"event_id": 14, "title": "Priya"})
    assert events(call, messages).narrow == {
        "attendees": {"enum": [["dad@home.example", PRIYA["email"]]]}}
