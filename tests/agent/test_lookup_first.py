"""single_call mode: a request that must find its item first looks it up, then acts
with what was found (``Agent._lookup_first``, ``Selection.looked``, the checks'
anticipation of the action after the lookup)."""

from __future__ import annotations

from datetime import UTC, datetime

from botpsy.agent import Agent, Bm25ToolSelector
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.assistant.runtime import assistant_call_checks
from botpsy.safety import ApproveAll, SafetyConfig
from botpsy.tools import ToolRegistry
from botpsy.types import ToolCall

from .helpers import call_text, scripted

MONDAY = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)  # 09:00 in Berlin


def _agent(store: AssistantStore, outputs: list[str]) -> Agent:
    registry = ToolRegistry(assistant_tools(store))
    return Agent(scripted(outputs), registry, safety=SafetyConfig(), confirmer=ApproveAll(),
                 tool_selector=Bm25ToolSelector(), call_mode="single_call",
                 call_checks=assistant_call_checks(store, registry))


def _store(tmp_path) -> AssistantStore:
    store = AssistantStore(tmp_path, clock=lambda: MONDAY)
    store.set_profile(timezone="Europe/Berlin")
    registry = ToolRegistry(assistant_tools(store))
    registry.execute(ToolCall(name="create_event", arguments={
        "title": "1:1 with Priya", "start": "2026-12-09T10:00", "end": "2026-12-09T10:30"}))
    registry.execute(ToolCall(name="create_event", arguments={
        "title": "Lunch with Jonas", "start": "2026-12-10T12:30", "end": "2026-12-10T13:30"}))
    return store


def test_a_two_step_request_looks_up_and_counts_the_reminder_from_what_it_found(tmp_path):
    """The first call may only look at the calendar; the reminder after it is held to
    an hour before the meeting it found, so the one call its grammar admits is that."""
    store = _store(tmp_path)
    due = "2026-12-09T09:00"
    agent = _agent(store, [call_text("search_events", query="Priya"),
                           call_text("add_reminder", text="Meeting with Priya", due=due)])
    result = agent.run("Find my meeting with Priya and remind me an hour before it")
    assert [(s.call.name, s.decision.value) for s in result.steps] == [
        ("search_events", "executed"), ("add_reminder", "executed")]
    first, second = agent.model.backend.grammars[:2]
    assert "search_events" in first and "add_reminder" not in first
    assert due in second  # the due the request fixes, counted from the found start
    saved = store.query_one("SELECT due_at FROM reminders")
    assert saved["due_at"] == "2026-12-09T08:00:00Z"


def test_a_wrong_relative_due_is_refused_with_the_right_one(tmp_path):
    store = _store(tmp_path)
    agent = _agent(store, [call_text("search_events", query="Priya"),
                           call_text("add_reminder", text="Priya", due="2026-12-09T10:00"),
                           call_text("add_reminder", text="Priya", due="2026-12-09T09:00")])
    result = agent.run("Find my meeting with Priya and remind me an hour before it")
    assert [s.decision.value for s in result.steps] == ["executed", "invalid", "executed"]
    assert "2026-12-09T09:00" in (result.steps[1].reason or "")


def test_an_edit_looks_its_item_up_before_it_acts(tmp_path):
    """ "Lunch with Jonas moves to 13:00": update_event needs an id, so the first call
    finds the event; the update after it may only name that event."""
    store = _store(tmp_path)
    agent = _agent(store, [call_text("search_events", query="Jonas"),
                           call_text("update_event", event_id=2, start="2026-12-10T13:00",
                                     end="2026-12-10T14:00")])
    result = agent.run("Lunch with Jonas moves to 13:00")
    assert [(s.call.name, s.decision.value) for s in result.steps] == [
        ("search_events", "executed"), ("update_event", "confirmed")]
    first = agent.model.backend.grammars[0]
    assert "search_events" in first and "update_event" not in first
    assert store.query_one("SELECT starts_at FROM events WHERE id = 2")["starts_at"] == (
        "2026-12-10T12:00:00Z")


def test_an_item_already_in_view_is_not_looked_up_again(tmp_path):
    store = _store(tmp_path)
    agent = _agent(store, [call_text("search_events", query="Jonas"),
                           call_text("delete_event", event_id=2)])
    first = agent.run("When is lunch with Jonas?")
    second = agent.run("Cancel it, the lunch with Jonas is off", first.messages)
    assert [s.call.name for s in second.steps] == ["delete_event"]
