"""SubjectCheck: a message's subject is the one the request gives, word for word."""

from __future__ import annotations

import pytest

from botpsy.agent.rules import CallContext
from botpsy.assistant.subjectcheck import SubjectCheck, given_subject
from botpsy.types import Message, ToolCall, ToolSpec

MARTA = ("draft (dont send!) a mail to marta@silvadesign.example, subject 'Settings flow', "
         "saying scope hasn't changed so she can go ahead")
DRAFT = ToolSpec(name="draft_email", description="d", parameters={
    "type": "object", "required": ["to", "subject", "body"],
    "properties": {"to": {"type": "string"}, "subject": {"type": "string"},
                   "body": {"type": "string"}}})


@pytest.mark.parametrize(("request_text", "subject"), [
    (MARTA, "Settings flow"),
    ("email dan with subject: Q3 numbers, body the p95", "Q3 numbers"),
    ('send sam a mail, subject line "Hi there"', "Hi there"),
    ("subject - rent for december, to tom", "rent for december"),
    ("what was the subject of the last mail from dan?", None),
    ("email the subject teacher about the trip", None),
    ("email priya about the rent", None),
])
def test_the_subject_a_request_gives(request_text, subject):
    assert given_subject(request_text) == subject


def _context(request: str, **arguments: object) -> CallContext:
    call = ToolCall(name="draft_email", arguments={"to": "m@x.example", "body": "b", **arguments})
    return CallContext(call, [Message(role="user", content=request)], DRAFT)


def test_a_given_subject_holds_the_call_before_and_after():
    """The 135M model cut its subject from the body: "Scope hasn't changed so she can"."""
    before = CallContext.before(DRAFT, [Message(role="user", content=MARTA)])
    assert SubjectCheck().expected(before) == {"subject": {"enum": ["Settings flow"]}}
    why = SubjectCheck().judge(_context(MARTA, subject="Scope hasn't changed so she can"))
    assert why is not None and why.narrow == {"subject": {"enum": ["Settings flow"]}}
    assert SubjectCheck().judge(_context(MARTA, subject="settings flow")) is None


def test_without_a_given_subject_the_model_writes_its_own():
    before = CallContext.before(DRAFT, [Message(role="user", content="email priya the plan")])
    assert SubjectCheck().expected(before) == {}
    assert SubjectCheck().judge(_context("email priya the plan", subject="Plan")) is None
