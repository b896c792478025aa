"""The write gate as a table: every state-changing assistant tool x trusted or untrusted
context x who answers (a person, nobody, ``--yes``), through the real call pipeline on
the demo store. The same ``CallPipeline`` serves the CLI, the terminal chat, the web page
and the assistant API (which defer the question as a pending call)."""

from __future__ import annotations

import pytest

from botpsy.agent.calls import CallPipeline, tool_message
from botpsy.agent.guard import Repeat
from botpsy.assistant import assistant_tools
from botpsy.evals.scenarios.world import open_world
from botpsy.safety import ApproveAll, AuditDecision, DenyAll, SafetyConfig, TaintTracker
from botpsy.safety.confirm import ApproveUntainted
from botpsy.tools import ToolRegistry
from botpsy.types import Message, ToolCall

WRITES_ONLY = {"draft_email", "create_event", "create_note", "append_to_note", "add_reminder",
               "append_to_file"}
SIDE_EFFECTS = {"send_email", "reply_email", "trash_email", "update_event", "delete_event",
                "add_contact", "complete_reminder", "write_file"}
PRIYA = "priya.shah@northwind.example"


def _id(store, table: str, column: str, text: str) -> int:
    return store.query_one(f"SELECT id FROM {table} WHERE {column} LIKE ?", (f"%{text}%",))["id"]


def _calls(store) -> dict[str, dict]:
    mail = _id(store, "emails", "folder", "inbox")
    return {
        "draft_email": {"to": PRIYA, "subject": "Agenda", "body": "See you."},
        "send_email": {"to": PRIYA, "subject": "Agenda", "body": "See you."},
        "reply_email": {"email_id": mail, "body": "Thanks!"},
        "trash_email": {"email_id": mail},
        "create_event": {"title": "Focus", "start": "tomorrow 10:00", "end": "tomorrow 11:00"},
        "update_event": {"event_id": _id(store, "events", "title", "Quarterly review"),
                         "location": "Room 2"},
        "delete_event": {"event_id": _id(store, "events", "title", "Plumber visit")},
        "add_contact": {"name": "Lena Hoffmann", "email": "lena@hoffmann.example"},
        "create_note": {"title": "Parking", "body": "Level 3"},
        "append_to_note": {"note_id": _id(store, "notes", "title", "Groceries"), "text": "oil"},
        "add_reminder": {"text": "Call Anna", "due": "tomorrow 9:00"},
        "complete_reminder": {"reminder_id": _id(store, "reminders", "text", "Water")},
        "write_file": {"path": "notes/new.md", "content": "hello"},
        "append_to_file": {"path": "notes/todo.md", "text": "hello"},
    }


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """One demo store for the table: its rows only run calls that are refused."""
    store = open_world(tmp_path_factory.mktemp("gate") / "store")
    yield store, ToolRegistry(assistant_tools(store))
    store.close()


def test_every_state_changing_tool_is_declared_and_in_the_table(world):
    _, registry = world
    declared = {t.name for t in registry if t.spec.changes_state}
    assert declared == WRITES_ONLY | SIDE_EFFECTS
    assert {t.name for t in registry if t.side_effect} == SIDE_EFFECTS


def _context(store, registry: ToolRegistry, untrusted: bool) -> TaintTracker:
    """What was read before the call: the user's own reminders, or a stranger's mail."""
    read = (ToolCall(name="read_email", arguments={"email_id": _id(store, "emails", "subject",
                                                                    "top 10 deals")})
            if untrusted else ToolCall(name="list_reminders"))
    result = registry.execute(read)
    assert result.trusted is not untrusted
    return TaintTracker.from_messages([Message(role="user", content="Do it."),
                                       tool_message(result)])


ASKERS = {"person": ApproveAll, "nobody": DenyAll, "--yes": lambda: ApproveUntainted(DenyAll())}


@pytest.mark.parametrize("untrusted", [False, True], ids=["own-data", "strangers-data"])
@pytest.mark.parametrize("tool_name", sorted(WRITES_ONLY | SIDE_EFFECTS))
def test_write_gate_table(world, tool_name: str, untrusted: bool) -> None:
    """For each who-answers: whether the call may run; a refused one is settled (nothing
    runs) and its notice says why and what to do. Calls that would run are not run here
    (the store is shared); ``test_a_confirmed_write_runs_and_records_a_strangers_origin``
    runs them."""
    store, registry = world
    call = ToolCall(name=tool_name, arguments=_calls(store)[tool_name])
    taint = _context(store, registry, untrusted).check(call)
    free = not untrusted and (tool_name in WRITES_ONLY or tool_name == "add_contact")
    for asker, make in ASKERS.items():
        confirmer = make()
        pipeline = CallPipeline(registry, SafetyConfig(), confirmer, None, "s")
        review = pipeline.review(call, taint, Repeat.fresh)
        if free:  # a local write (or the auto-approved contact) on the user's own words
            assert review.decision is AuditDecision.executed
            continue
        assert review.decision is AuditDecision.needs_confirmation
        assert review.request is not None
        if untrusted:  # the question names the stranger's item and the tool that read it
            assert "read_email: email" in review.request.summary()
            assert "top 10 deals" in review.request.summary()
        approved = asker == "person" or (asker == "--yes" and not untrusted)
        if approved:
            assert confirmer.confirm(review.request) is True
            continue
        outcome = pipeline.settle(review, 1)
        assert outcome.step.decision is AuditDecision.denied and outcome.step.result is None
        assert "non-interactive" in outcome.step.notice and "botpsy chat" in outcome.step.notice


def test_a_confirmed_write_runs_and_records_a_strangers_origin(tmp_path):
    """Yes after a stranger's mail: each write runs, and what it wrote is a stranger's from
    then on (its text may carry theirs), so reading it later taints that turn too."""
    store = open_world(tmp_path / "store")
    registry = ToolRegistry(assistant_tools(store))
    try:
        calls = _calls(store)
        for tool_name, table in [("create_note", "notes"), ("add_reminder", "reminders"),
                                 ("create_event", "events"), ("draft_email", "emails"),
                                 ("append_to_note", "notes"), ("add_contact", "contacts")]:
            call = ToolCall(name=tool_name, arguments=calls[tool_name])
            pipeline = CallPipeline(registry, SafetyConfig(), ApproveAll(), None, "s")
            review = pipeline.review(call, _context(store, registry, True).check(call),
                                     Repeat.fresh)
            outcome = pipeline.settle(review, 1)
            assert outcome.step.decision is AuditDecision.confirmed
            assert outcome.step.result is not None and outcome.step.result.ok
            row_id = outcome.step.result.data.id
            origin = store.query_one(f"SELECT origin FROM {table} WHERE id = ?", (row_id,))
            assert origin["origin"] == "third_party", tool_name
        own = registry.execute(ToolCall(name="list_reminders"))
        assert not own.trusted and "Call Anna" in " ".join(own.provenance.items)
    finally:
        store.close()
