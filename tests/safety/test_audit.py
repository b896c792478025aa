"""The audit log: append-only rows, filters, redaction, sharing a database file."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from botpsy.safety.audit import AuditDecision, AuditEntry, AuditLog


def _entry(decision: AuditDecision, tool: str = "send_email", **kw) -> AuditEntry:
    return AuditEntry(tool=tool, decision=decision, arguments={"to": "bob@example.com"}, **kw)


def test_record_and_read_back(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.db")
    first = log.record(_entry(AuditDecision.needs_confirmation, session_id="s1", round=1,
                              call_id="c1", taint_sources=["tool:read_email:c0"]))
    log.record(_entry(AuditDecision.confirmed, session_id="s1", round=1, call_id="c1",
                      result_ok=True, result_summary="sent\n  to bob", error_kind=None))
    entries = log.entries()
    assert [e.decision for e in entries] == [AuditDecision.needs_confirmation,
                                            AuditDecision.confirmed]
    assert entries[0].id == first.id and entries[0].taint_sources == ["tool:read_email:c0"]
    assert entries[1].result_ok is True and entries[1].result_summary == "sent to bob"
    assert entries[0].ts.tzinfo is not None


def test_filters_and_limit_keep_the_newest(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.db")
    for i in range(5):
        log.record(_entry(AuditDecision.executed, tool=f"t{i % 2}", session_id=f"s{i % 2}"))
    log.record(_entry(AuditDecision.denied, session_id="s1"))
    assert [e.tool for e in log.entries(session_id="s0")] == ["t0", "t0", "t0"]
    assert [e.decision for e in log.entries(decision="denied")] == [AuditDecision.denied]
    assert [e.id for e in log.entries(limit=2)] == [5, 6]
    assert log.entries(since=datetime.now(UTC) + timedelta(minutes=1)) == []
    assert len(log.entries(tool="t1", limit=None)) == 2


def test_arguments_and_results_are_redacted(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.db")
    log.record(AuditEntry(tool="send_email", decision=AuditDecision.blocked_scope,
                          arguments={"body": ["card 4111 1111 1111 1111"], "n": 3},
                          result_summary="password: hunter22!"))
    stored = log.entries()[0]
    assert stored.arguments == {"body": ["card •••• 1111"], "n": 3}
    assert "hunter22" not in stored.result_summary
    raw = (tmp_path / "audit.db").read_bytes()
    assert b"4111 1111" not in raw and b"hunter22" not in raw


def test_shares_a_database_file_without_touching_other_tables(tmp_path: Path) -> None:
    path = tmp_path / "assistant.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        db.execute("INSERT INTO notes (body) VALUES ('keep me')")
    AuditLog(path).record(_entry(AuditDecision.executed))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT body FROM notes").fetchall() == [("keep me",)]
        assert db.execute("SELECT COUNT(*) FROM audit_log").fetchone() == (1,)
