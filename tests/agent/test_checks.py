"""Refusals that narrow what a retry may write."""

from __future__ import annotations

from botpsy.agent.checks import (
    Refusal,
    combine,
    determined_arguments,
    kept_arguments,
    narrowed,
    remember,
)
from botpsy.types import ToolCall, ToolSpec

SPEC = ToolSpec(
    name="create_event",
    description="Add an event.",
    parameters={
        "type": "object",
        "properties": {"start": {"type": "string", "description": "Start."}, "end": {}},
        "required": ["start"],
    },
)


def test_remember_keeps_a_refusals_narrowing_and_returns_its_reason():
    narrowing: dict = {}
    call = ToolCall(name="create_event", arguments={"start": "Sun"})
    assert remember(narrowing, call, Refusal("plain reason")) == "plain reason"
    assert narrowing == {}
    why = Refusal("start is on Sunday", {"start": {"pattern": "^2026-12-04"}})
    assert remember(narrowing, call, why) == "start is on Sunday"
    remember(narrowing, call, Refusal("end too", {"end": {"pattern": "^11:00$"}}))
    assert narrowing == {
        "create_event": {"start": {"pattern": "^2026-12-04"}, "end": {"pattern": "^11:00$"}}
    }
    assert str(why) == "start is on Sunday"


def test_narrowed_merges_keywords_into_a_copy_of_the_schema():
    narrowing = {"create_event": {"start": {"pattern": "^2026-12-04"}, "nope": {"enum": [1]}}}
    out = narrowed(SPEC, narrowing)
    assert out.parameters["properties"]["start"] == {
        "type": "string", "description": "Start.", "pattern": "^2026-12-04"
    }
    assert "nope" not in out.parameters["properties"]  # undeclared arguments are not added
    assert "pattern" not in SPEC.parameters["properties"]["start"]  # the original is untouched
    assert narrowed(SPEC, {}) is SPEC
    assert narrowed(SPEC, {"other_tool": {"start": {"pattern": "x"}}}) is SPEC


def test_combine_joins_every_objection_and_narrowing():
    assert combine([]) is None
    both = combine([Refusal("day", {"start": {"pattern": "^2026"}}), "plain",
                    Refusal("title", {"title": {"pattern": "bank"}})])
    assert both.reason == "day; and plain; and title"
    assert both.narrow == {"start": {"pattern": "^2026"}, "title": {"pattern": "bank"}}


def test_a_narrowed_argument_is_required_and_not_null():
    spec = ToolSpec(name="add_reminder", parameters={
        "type": "object",
        "properties": {"text": {"type": "string"},
                       "due": {"type": ["string", "null"], "default": None}},
        "required": ["text"],
    })
    out = narrowed(spec, {"add_reminder": {"due": {"pattern": "^2026-12-04"}}})
    assert out.parameters["required"] == ["text", "due"]
    assert out.parameters["properties"]["due"] == {
        "type": "string", "default": None, "pattern": "^2026-12-04"
    }
    assert spec.parameters["required"] == ["text"]  # the original is untouched


def test_a_retry_keeps_the_plain_values_the_refusal_did_not_narrow():
    call = ToolCall(name="find_free_slots", arguments={
        "date": "tomorrow", "duration_minutes": 30, "busy": ["x"], "strict": True})
    why = Refusal("an hour", {"duration_minutes": {"enum": [60]}})
    assert kept_arguments(call, why) == {"date": {"enum": ["tomorrow"]},
                                         "strict": {"enum": [True]}}


def test_a_schema_holding_every_argument_to_one_value_determines_the_call():
    spec = ToolSpec(name="add_reminder", parameters={
        "type": "object", "required": ["text"],
        "properties": {"text": {"type": "string"}, "due": {"type": ["string", "null"]}}})
    refused = ToolCall(name="add_reminder", arguments={"text": "call Anna at 9", "due": "tomorrow 9:00"})
    why = Refusal("the text repeats the time", {"text": {"enum": ["call Anna"]}})
    retry = narrowed(narrowed(spec, {"add_reminder": why.narrow}),
                     {"add_reminder": kept_arguments(refused, why)})
    assert determined_arguments(retry) == {"text": "call Anna", "due": "tomorrow 9:00"}
    # a free argument (the due not kept), two allowed values, or no arguments: the model decides
    assert determined_arguments(narrowed(spec, {"add_reminder": why.narrow})) is None
    two = narrowed(spec, {"add_reminder": {"text": {"enum": ["a", "b"]}, "due": {"enum": ["x"]}}})
    assert determined_arguments(two) is None
    assert determined_arguments(ToolSpec(name="list_reminders", parameters={"type": "object"})) is None
