"""PhoneCheck: a phone number a call writes must be one the conversation showed."""

from __future__ import annotations

import json

import pytest

from botpsy.agent.rules import CallContext
from botpsy.assistant.phonecheck import PhoneCheck, shown_numbers
from botpsy.types import Message, ToolCall

LENA = ("Add Lena Hoffmann, lena.hoffmann@mailbox.example, to my contacts and email her that "
        "climbing on Saturday starts at 10.")
LUKAS = "Save a new contact: Lukas Brandt, lukas.brandt@mailbox.example, +49 151 5550 330."


def _said(text: str, *results: object) -> list[Message]:
    tools = [Message(role="tool", name="read_email", source="tool:read_email",
                     content=json.dumps(r)) for r in results]
    return [Message(role="user", content=text), *tools]


def _add(**arguments: object) -> ToolCall:
    return ToolCall(name="add_contact", arguments={"name": "X", **arguments})


@pytest.mark.parametrize(
    ("arguments", "messages"),
    [
        ({"phone": "+491515550330"}, _said(LUKAS)),  # the same digits, spelled otherwise
        ({"phone": "+49 170 5550 199"},  # from the photographer's email signature
         _said("A photographer emailed me. Add them to my contacts.",
               {"id": 9, "body": "Best, Mia Kraus, Studio Licht, +49 170 5550 199"})),
        ({"email": "lena.hoffmann@mailbox.example"}, _said(LENA)),  # no number written
        ({"phone": None}, _said(LENA)),
    ],
)
def test_numbers_the_conversation_showed_pass(arguments, messages):
    assert PhoneCheck()(_add(**arguments), messages) is None


def test_a_made_up_number_is_refused_and_left_out_when_none_was_given():
    """add_lena_and_email: "starts at 10" became ``phone="10"``; no number was given, so the
    retry may only write null."""
    why = PhoneCheck()(_add(phone="10"), _said(LENA))
    assert "phone '10' is not a number the user gave" in why.reason
    assert why.narrow == {"phone": {"type": "null"}}


def test_a_made_up_number_is_narrowed_to_the_numbers_shown():
    messages = _said("Add the photographer to my contacts",
                     {"id": 9, "body": "Mia Kraus, +49 170 5550 199"})
    why = PhoneCheck()(_add(phone="123456789"), messages)
    assert why.narrow == {"phone": {"enum": ["+49 170 5550 199"]}}
    assert shown_numbers(CallContext(_add(), messages)) == ["+49 170 5550 199"]


def test_lookups_are_not_checked():
    assert PhoneCheck()(ToolCall(name="search_contacts", arguments={"query": "12345"}),
                        _said("Who has the number 555?")) is None


def test_with_no_number_in_view_a_new_contacts_phone_is_held_to_null():
    """"Save a new contact: Ines Kaya, ines.kaya@example.org" had its address written as
    her phone; with no number anywhere, the first call's grammar leaves the phone out."""
    from botpsy.types import ToolSpec

    spec = ToolSpec(name="add_contact", description="d", parameters={
        "type": "object", "required": ["name"],
        "properties": {"name": {"type": "string"}, "phone": {"type": ["string", "null"]}}})
    assert PhoneCheck().expected(CallContext.before(spec, _said("Save Ines Kaya, ines@x.example"))) == {
        "phone": {"type": "null"}}
    # a number given: the number (``test_a_new_contact_takes_the_one_number_the_request_gives_it``)
    assert PhoneCheck().expected(CallContext.before(spec, _said("Save Ines Kaya, +49 151 5550 330"))) == {
        "phone": {"enum": ["+49 151 5550 330"]}}


def test_a_new_contact_takes_the_one_number_the_request_gives_it():
    """"new contact pls - Felix Braun, felix.braun@..., 0151 5550 9921, he's my bouldering
    coach": held to the note, the 135M model left the number out."""
    from botpsy.agent.rules import CallContext
    from botpsy.types import ToolSpec
    spec = ToolSpec(name="add_contact", description="d", parameters={"type": "object", "properties": {
        "name": {"type": "string"}, "phone": {"type": ["string", "null"]}}})
    said = [Message(role="user", content="new contact pls - Felix Braun, felix.braun@mailbox.example, "
                                         "0151 5550 9921, he's my bouldering coach")]
    assert PhoneCheck().expected(CallContext.before(spec, said)) == {"phone": {"enum": ["0151 5550 9921"]}}
    two = [Message(role="user", content="save Felix, 0151 5550 9921 or 030 5550 1234")]
    assert PhoneCheck().expected(CallContext.before(spec, two)) == {}
