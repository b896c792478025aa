"""A reference the request asks a new item to carry (``ReferenceCheck``)."""

from __future__ import annotations

import json

import pytest

from botpsy.agent.rules import CallContext
from botpsy.assistant.referencecheck import ReferenceCheck, asked_reference, references
from botpsy.types import Message, ToolCall, ToolSpec

REMIND = ToolSpec(name="add_reminder", description="d", parameters={
    "type": "object", "required": ["text"],
    "properties": {"text": {"type": "string"}, "due": {"type": "string"}}})
REQUEST = "remind me sunday 7am to have the train ticket ready, put the booking code in the reminder"
MAIL = {"id": 11, "sender": "Rail <tickets@rail.example>", "subject": "Your e-ticket",
        "snippet": "Booking code QX7L2M. Train ICE 1007, departs 08:34"}


@pytest.mark.parametrize(("request_text", "named"), [
    (REQUEST, ("booking", "code")),
    ("set a reminder for wed, include the order number from shopright", ("order", "number")),
    ("a note called 'to do' with the invoice number from marta's email in it", ("invoice", "number")),
    ("remind me to call Priya with the number in it", None),   # a person's number
    ("put his number in the reminder", None),
    ("remind me to pack at 7", None),
])
def test_the_reference_a_request_asks_to_carry(request_text, named) -> None:
    assert asked_reference(request_text) == named


def test_the_value_after_a_references_name() -> None:
    assert references(MAIL["snippet"], ("booking", "code")) == {"QX7L2M"}
    assert references("Your order #A-48213 (1x shoes) has shipped", ("order", "number")) == {"A-48213"}
    assert references("Attached is invoice #2291 for the screens", ("invoice", "number")) == {"2291"}
    assert references("the order will ship soon", ("order", "number")) == set()
    assert references("see invoice-2291.pdf", ("invoice", "number")) == set()


def _said(*results: object) -> list[Message]:
    tools = [Message(role="tool", name="search_mail", source="tool:search_mail:c1",
                     content=json.dumps(r)) for r in results]
    return [Message(role="user", content=REQUEST), *tools]


def test_the_mail_is_searched_first_then_the_text_holds_the_reference() -> None:
    """The 135M model made the reminder at once, with no code in it."""
    check = ReferenceCheck({REMIND.name: REMIND}.get)
    assert check.needs_first(CallContext.before(REMIND, _said())) == ("email",)
    found = _said([MAIL])
    assert check.needs_first(CallContext.before(REMIND, found)) == ()
    held = {"text": {"enum": ["have the train ticket ready (booking code QX7L2M)"]}}
    assert check.expected(CallContext.before(REMIND, found)) == held
    bare = ToolCall(name="add_reminder", arguments={"text": "have the train ticket ready"})
    assert check(bare, found).narrow == held
    right = ToolCall(name="add_reminder", arguments={"text": "ticket ready, code QX7L2M"})
    assert check(right, found) is None
    # two codes shown: which one is unclear, so the check has no say
    other = {**MAIL, "id": 12, "snippet": "Booking code ZZ9K1P for the return"}
    assert check.expected(CallContext.before(REMIND, _said([MAIL, other]))) == {}
    # a search that showed none asks for no second one
    assert check.needs_first(CallContext.before(REMIND, _said([]))) == ()


def test_a_reference_named_in_brackets_and_a_messages_body() -> None:
    """"send jamie my train ticket details (booking code etc)" sent Jamie the body "Booking
    code": the request's words, with no lookup, so no code."""
    assert asked_reference("send jamie my train ticket details (booking code etc)") == (
        "booking", "code")
    assert asked_reference("remind me to pack (the big bag)") is None
    send = ToolSpec(name="send_email", description="d", parameters={"type": "object", "properties": {
        "to": {"type": "string"}, "body": {"type": "string"}}})
    check = ReferenceCheck({send.name: send}.get)
    asked = [Message(role="user", content="send jamie my train ticket details (booking code etc)")]
    assert check.needs_first(CallContext.before(send, asked)) == ("email",)
    found = [*asked, Message(role="tool", name="search_mail", source="tool:search_mail:c1",
                             content=json.dumps([MAIL]))]
    assert "QX7L2M" in check.expected(CallContext.before(send, found))["body"]["pattern"]


def test_a_line_added_carries_the_reference_by_its_name() -> None:
    """"add the booking code from my train ticket to my packing list file" appended the
    request's words "the booking code from my train ticket"."""
    append = ToolSpec(name="append_to_file", description="d", parameters={"type": "object", "properties": {
        "path": {"type": "string"}, "text": {"type": "string"}}})
    check = ReferenceCheck({append.name: append}.get)
    request = "add the booking code from my train ticket to my packing list file"
    found = [Message(role="user", content=request),
             Message(role="tool", name="search_mail", source="tool:search_mail:c1",
                     content=json.dumps([MAIL]))]
    assert check.expected(CallContext.before(append, found)) == {
        "text": {"enum": ["booking code QX7L2M"]}}
