"""NameCheck: a new contact takes the whole name the request writes."""

from __future__ import annotations

import pytest

from botpsy.assistant.namecheck import NameCheck, written_names
from botpsy.types import Message, ToolCall

ANA = "add Ana Costa to my contacts, ana.costa@mailbox.example - she's Mia's swim coach"


def test_the_whole_names_a_request_writes():
    assert written_names(ANA) == ["Ana Costa"]
    assert written_names("Lunch with Priya on Monday December 14") == []  # days are no names
    assert written_names("Save Tom Becker as a contact") == ["Tom Becker"]  # the verb is no name


@pytest.mark.parametrize(("name", "refused"), [
    ("ana", True),          # part of the name
    ("Ana Costa", False),
    ("ana costa", False),
    ("Mia", False),         # another name: not this check's to judge
])
def test_a_part_of_the_written_name_is_refused(name, refused):
    call = ToolCall(name="add_contact", arguments={"name": name, "email": "a@x.example"})
    why = NameCheck()(call, [Message(role="user", content=ANA)])
    assert (why is not None) is refused
    if refused:
        assert why.narrow == {"name": {"enum": ["Ana Costa"]}}


@pytest.mark.parametrize(("request_text", "notes"), [
    ("add Ana Costa to my contacts, ana.costa@mailbox.example - she's Mia's swim coach",
     "Mia's swim coach"),
    ("save Bob, 0176 555, he is our plumber", "our plumber"),
    ("add contact Tim who's Dan's brother", "Dan's brother"),
    ("add Tom to contacts", None),
    ("save Ana - her number is 0176", None),  # her number is a field, not who she is
])
def test_what_the_request_says_the_person_is_goes_into_the_notes(request_text, notes):
    from botpsy.agent.rules import CallContext
    from botpsy.assistant.namecheck import described
    from botpsy.types import ToolSpec
    assert described(request_text) == notes
    spec = ToolSpec(name="add_contact", description="d", parameters={"type": "object", "properties": {
        "name": {"type": "string"}, "notes": {"type": "string"}}})
    held = NameCheck().expected(CallContext.before(spec, [Message(role="user", content=request_text)]))
    assert held == ({"notes": {"enum": [notes]}} if notes else {})
