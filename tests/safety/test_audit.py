"""The audit log: append-only rows, filters, redaction, sharing a database file, rows
written before a call runs, WAL, odd text, taint evidence, migration of old logs."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from botpsy.safety.audit import AuditDecision, AuditEntry, AuditLog, AuditStatus
from botpsy.safety.taint import TaintFinding, TaintKind


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


def test_begin_writes_a_pending_row_that_complete_finishes(tmp_path: Path) -> None:
    from botpsy.tools.registry import ToolResult

    log = AuditLog(tmp_path / "audit.db")
    row = log.begin(_entry(AuditDecision.executed, call_id="c1"))
    (stored,) = log.entries()
    assert stored.status is AuditStatus.pending and stored.result_ok is None
    log.complete(row, ToolResult(name="send_email", call_id="c1", ok=True, content="sent"))
    (stored,) = log.entries()
    assert stored.status is AuditStatus.done and stored.result_ok and stored.result_summary == "sent"


def test_every_database_is_in_wal_mode(tmp_path: Path) -> None:
    from botpsy.agent.session import SessionStore
    from botpsy.assistant import AssistantStore

    AuditLog(tmp_path / "audit.db")
    SessionStore(tmp_path / "sessions.db")
    AssistantStore(tmp_path / "data").close()
    for path in (tmp_path / "audit.db", tmp_path / "sessions.db", tmp_path / "data/assistant.db"):
        with closing(sqlite3.connect(path)) as db:
            assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",), path


def test_text_sqlite_cannot_encode_is_stored_escaped(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.db")
    log.record(AuditEntry(tool="create_note\ud800", decision=AuditDecision.invalid,
                          arguments={"title\udfff": "a\ud800b", "n": ["\x00\x1b[31m"]},
                          reason="bad \ud83d", result_summary="x\udc80"))
    (stored,) = log.entries()
    assert stored.tool == "create_note\\ud800"
    assert stored.arguments == {"title\\udfff": "a\\ud800b", "n": ["\x00\x1b[31m"]}
    assert stored.reason == "bad \\ud83d" and stored.result_summary == "x\\udc80"


def test_taint_evidence_is_kept_redacted(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.db")
    findings = [
        TaintFinding(kind=TaintKind.copied_text, source="tool:read_note:c1",
                     evidence="wifi password: hunter22! for the guests"),
        TaintFinding(kind=TaintKind.untrusted_address, source="tool:read_email:c2",
                     evidence="eve@evil.example"),
    ]
    log.record(_entry(AuditDecision.denied, evidence=findings))
    (stored,) = log.entries()
    assert [(f.kind, f.source) for f in stored.evidence] == [(f.kind, f.source) for f in findings]
    assert stored.evidence[1].evidence == "eve@evil.example"
    assert "hunter22" not in stored.evidence[0].evidence


OLD_SCHEMA = """
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT, ts TEXT NOT NULL, session_id TEXT, round INTEGER,
    call_id TEXT, tool TEXT NOT NULL, arguments TEXT NOT NULL, decision TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '', taint_sources TEXT NOT NULL DEFAULT '[]',
    result_ok INTEGER, result_summary TEXT NOT NULL DEFAULT '', error_kind TEXT
);
INSERT INTO audit_log (ts, tool, arguments, decision)
    VALUES ('2026-01-01T00:00:00+00:00', 'send_email', '{}', 'confirmed');
"""


def test_an_old_log_is_read_and_migrated(tmp_path: Path) -> None:
    path = tmp_path / "audit.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(OLD_SCHEMA)
    (old,) = AuditLog(path, read_only=True).entries()  # a viewer changes nothing
    assert old.status is AuditStatus.done and old.evidence == []
    log = AuditLog(path)
    log.record(_entry(AuditDecision.denied, evidence=[
        TaintFinding(kind=TaintKind.context, source="tool:read_email:c1")]))
    first, second = log.entries()
    assert first.decision is AuditDecision.confirmed and first.evidence == []
    assert second.evidence[0].source == "tool:read_email:c1"
