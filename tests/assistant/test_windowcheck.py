"""WindowCheck: free time is looked for in the part of the day the request names."""

from __future__ import annotations

import pytest

from botpsy.agent.rules import CallContext
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.assistant.windowcheck import WindowCheck, named_window, window_arguments
from botpsy.types import Message, ToolCall, ToolSpec

AFTERNOON = "find a free hour on thursday afternoon and block it for tax paperwork"


@pytest.fixture(scope="module")
def slots(tmp_path_factory) -> ToolSpec:
    store = AssistantStore(tmp_path_factory.mktemp("store"))
    return next(t.spec for t in assistant_tools(store) if t.spec.name == "find_free_slots")


def _context(spec: ToolSpec, request: str, **arguments: object) -> CallContext:
    call = ToolCall(name=spec.name, arguments={"date": "Thursday", **arguments})
    return CallContext(call, [Message(role="user", content=request)], spec)


@pytest.mark.parametrize(("request_text", "window"), [
    (AFTERNOON, ("12:00", "18:00")),
    ("any gaps tomorrow morning?", ("08:00", "12:00")),
    ("free on friday evenings?", ("17:00", "22:00")),
    ("find me 30 minutes on friday", None),
    ("morning or afternoon, whichever is free", None),  # two parts: the tool's default
    # one time named alone: the hour from it (the model wrote 11:00 to 09:00)
    ("am I free friday at 11?", ("11:00", "12:00")),
    ("is 3pm on thursday free", ("15:00", "16:00")),
])
def test_the_part_of_the_day_named(request_text, window):
    assert named_window(request_text) == window


def test_the_window_arguments_of_a_tool(slots):
    assert window_arguments(slots) == {"day_start": "start", "day_end": "end"}


def test_a_named_part_fixes_the_window_before_the_call(slots):
    """The 135M model wrote day_start "Tue", day_end "Thu" for a Thursday afternoon."""
    context = CallContext.before(slots, [Message(role="user", content=AFTERNOON)])
    assert WindowCheck(lambda _: slots).expected(context) == {
        "day_start": {"enum": ["12:00"]}, "day_end": {"enum": ["18:00"]}}


def test_without_a_part_only_clock_times_may_be_written(slots):
    context = CallContext.before(slots, [Message(role="user", content="free slot on friday?")])
    expected = WindowCheck(lambda _: slots).expected(context)
    assert expected["day_start"]["pattern"] == expected["day_end"]["pattern"]


@pytest.mark.parametrize(("request_text", "arguments", "refused"), [
    (AFTERNOON, {"day_start": "Tue", "day_end": "Thu"}, "day_start must be a clock time"),
    (AFTERNOON, {"day_start": "09:00", "day_end": "18:00"}, "day_start '09:00' is not the start"),
    (AFTERNOON, {"day_start": "12:00", "day_end": "18:00"}, None),
    (AFTERNOON, {}, None),  # left to the tool: its default window
    ("free slot on friday?", {"day_start": "10:00", "day_end": "16:00"}, None),
    ("free slot on friday?", {"day_start": "friday"}, "day_start must be a clock time"),
])
def test_the_call_is_held_to_the_named_part(slots, request_text, arguments, refused):
    why = WindowCheck(lambda _: slots).judge(_context(slots, request_text, **arguments))
    assert (why is None) if refused is None else (refused in why.reason)


def test_a_refusal_narrows_the_retry_to_the_parts_bound(slots):
    why = WindowCheck(lambda _: slots).judge(
        _context(slots, AFTERNOON, day_start="Tue", day_end="Thu"))
    assert why.narrow == {"day_start": {"enum": ["12:00"]}}


def test_a_tool_without_a_window_is_left_alone(slots):
    call = ToolCall(name="create_event", arguments={"title": "x", "start": "Thursday 14:00"})
    context = CallContext(call, [Message(role="user", content=AFTERNOON)])
    assert WindowCheck(lambda _: None).judge(context) is None
