"""An update of an event writes the change the request asks for (``MoveCheck``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from botpsy.agent.rules import CallContext
from botpsy.assistant.movecheck import MoveCheck
from botpsy.types import Message, ToolCall, ToolSpec

BERLIN = ZoneInfo("Europe/Berlin")
LUNCH = {"id": 9, "title": "Lunch with Jonas", "start": "2026-12-10T12:30+01:00",
         "end": "2026-12-10T13:30+01:00"}
REVIEW = {"id": 12, "title": "Design review", "start": "2026-12-11T15:00+01:00",
          "end": "2026-12-11T16:00+01:00"}
UPDATE = ToolSpec(name="update_event", description="d", parameters={
    "type": "object", "required": ["event_id"],
    "properties": {"event_id": {"type": "integer"}, "title": {"type": ["string", "null"]},
                   "start": {"type": ["string", "null"]}, "end": {"type": ["string", "null"]}}})


@pytest.fixture
def check() -> MoveCheck:
    return MoveCheck(lambda: BERLIN, lambda: datetime(2026, 12, 7, 8, 0, tzinfo=UTC))


def _found(request: str, *events: dict) -> list[Message]:
    return [Message(role="user", content=request),
            Message(role="tool", name="search_events", source="tool:search_events",
                    content=json.dumps(list(events)))]


@pytest.mark.parametrize(("request_text", "event", "expected"), [
    ("Lunch with Jonas moves to 13:00", LUNCH,
     {"start": "2026-12-10T13:00", "end": "2026-12-10T14:00"}),  # the length is kept
    ("the design review got pushed to 4", REVIEW,  # a bare hour nearest the old one
     {"start": "2026-12-11T16:00", "end": "2026-12-11T17:00"}),
    ("move lunch with Jonas to Friday", LUNCH,  # another day, the same hours
     {"start": "2026-12-11T12:30", "end": "2026-12-11T13:30"}),
    ("make lunch with Jonas an hour and a half instead of an hour", LUNCH,
     {"start": "2026-12-10T12:30", "end": "2026-12-10T14:00"}),
    ('Rename the design review to "API review"', REVIEW, {"title": "API review"}),
    # unquoted: the model wrote the old title back
    ("rename the design review to API review", REVIEW, {"title": "API review"}),
    ("Actually make lunch with Jonas start at 12:00, same end time", LUNCH,
     {"start": "2026-12-10T12:00", "end": "2026-12-10T13:30"}),
    ("make lunch with Jonas half an hour longer", LUNCH,  # the old length and 30 more
     {"start": "2026-12-10T12:30", "end": "2026-12-10T14:00"}),
    ("push lunch with Jonas back an hour", LUNCH,  # a move by a length, the length kept
     {"start": "2026-12-10T13:30", "end": "2026-12-10T14:30"}),
    ("the design review, 30 minutes earlier please", REVIEW,
     {"start": "2026-12-11T14:30", "end": "2026-12-11T15:30"}),
])
def test_the_change_the_request_fixes(check, request_text, event, expected):
    held = check.expected(CallContext.before(UPDATE, _found(request_text, event)))
    expected = {"event_id": event["id"], **expected}  # the event found is the one changed
    assert held == {arg: {"enum": [value]} for arg, value in expected.items()}


def test_an_event_named_by_its_time_is_the_one_changed(check):
    """"My 3pm on Friday got pushed to 4": no word of the request is in its title."""
    other = {**REVIEW, "id": 13, "title": "Board slides", "start": "2026-12-11T10:00+01:00",
             "end": "2026-12-11T11:00+01:00"}
    held = check.expected(CallContext.before(UPDATE, _found("my 3pm on friday got pushed to 4", other, REVIEW)))
    assert held == {"event_id": {"enum": [12]}, "start": {"enum": ["2026-12-11T16:00"]},
                    "end": {"enum": ["2026-12-11T17:00"]}}


def test_an_update_that_changes_nothing_is_refused_and_narrowed(check):
    """The model wrote the event's own times back and called it changed."""
    said = _found("Lunch with Jonas moves to 13:00", LUNCH)
    same = ToolCall(name="update_event", arguments={
        "event_id": 9, "start": "2026-12-10T12:30+01:00", "end": "2026-12-10T13:30+01:00"})
    why = check(same, said)
    assert why is not None and why.narrow["start"] == {"enum": ["2026-12-10T13:00"]}
    moved = ToolCall(name="update_event", arguments={
        "event_id": 9, "start": "2026-12-10T13:00", "end": "2026-12-10T14:00+01:00"})
    assert check(moved, said) is None
    start_only = ToolCall(name="update_event", arguments={"event_id": 9,
                                                          "start": "2026-12-10T13:00"})
    assert check(start_only, said) is None  # the tool keeps the length of a moved event
    assert check(same, _found("What's the lunch with Jonas about?", LUNCH)) is None
    assert check.expected(CallContext.before(UPDATE, _found("Lunch with Jonas", LUNCH))) == {}


@pytest.mark.parametrize("event_id", [[9], {"id": 9}, None, "9"])
def test_an_id_that_is_no_number_names_no_event(check, event_id):
    """A model that writes the id as a list or an object gets no crash from the check:
    it names no event, and the tool's own validation answers it."""
    call = ToolCall(name="update_event", arguments={"event_id": event_id, "start": "13:00"})
    context = CallContext(call=call, messages=_found("Lunch with Jonas moves to 13:00", LUNCH),
                          spec=UPDATE)
    assert check.judge(context) is None
