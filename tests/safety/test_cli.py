"""``botpsy audit``: the rich table, filters, JSON lines, a missing log."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import typer
from typer.testing import CliRunner

from botpsy.safety.audit import AuditDecision, AuditEntry, AuditLog
from botpsy.safety.cli import app

runner = CliRunner()


def _log(tmp_path: Path) -> Path:
    path = tmp_path / "audit.db"
    log = AuditLog(path)
    log.record(AuditEntry(tool="read_email", decision=AuditDecision.executed, session_id="s1",
                          round=1, arguments={"email_id": 7}, result_ok=True,
                          result_summary="From: eve"))
    log.record(AuditEntry(tool="send_email", decision=AuditDecision.denied, session_id="s1",
                          round=2, arguments={"to": "eve@evil.example"},
                          reason="non-interactive", taint_sources=["tool:read_email:c1"]))
    return path


def test_table(tmp_path: Path) -> None:
    result = runner.invoke(app, ["--data-dir", str(_log(tmp_path).parent)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "send_email" in result.output and "denied" in result.output
    assert "tool:read_email:c1" in result.output


def test_filters_and_json(tmp_path: Path) -> None:
    path = _log(tmp_path)
    result = runner.invoke(app, ["--data-dir", str(path.parent), "--decision", "denied", "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["tool"] for r in rows] == ["send_email"]


def test_missing_log_fails_clearly_and_names_the_fix(tmp_path: Path) -> None:
    result = runner.invoke(app, ["--data-dir", str(tmp_path / "none")])
    assert result.exit_code == 1 and "no audit log" in result.output
    assert "--data-dir" in result.output


def test_db_is_a_deprecated_spelling_that_still_works(tmp_path: Path) -> None:
    path = _log(tmp_path)
    result = runner.invoke(app, ["--db", str(path), "--json"])
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == 2
    assert "--db is deprecated; write --data-dir" in result.stderr
    both = runner.invoke(app, ["--db", str(path), "--data-dir", str(tmp_path)])
    assert both.exit_code == 2 and "give --data-dir only" in both.output


def test_markup_in_a_logged_call_is_shown_as_text(tmp_path: Path) -> None:
    path = _log(tmp_path)
    AuditLog(path).record(AuditEntry(tool="create_note", decision=AuditDecision.executed,
                                     arguments={"title": "groceries [/x] [bold]list"}))
    result = runner.invoke(app, ["--data-dir", str(tmp_path)], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "[/x] [bold]list" in result.output


def test_a_file_that_is_no_audit_log_is_refused_and_left_alone(tmp_path: Path) -> None:
    other = tmp_path / "assistant.db"
    sqlite3.connect(other).execute("CREATE TABLE notes (id INTEGER)").connection.commit()
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"x")
    for path in (other, junk):
        before = path.read_bytes()
        result = runner.invoke(app, ["--db", str(path)])
        assert result.exit_code == 2 and "not a botpsy audit log" in result.output
        assert path.read_bytes() == before  # a viewer never writes
    assert runner.invoke(app, ["--db", str(tmp_path)]).exit_code == 1  # a folder


def test_mounts_as_a_subcommand(tmp_path: Path) -> None:
    root = typer.Typer()
    root.add_typer(app, name="audit")

    @root.command()
    def other() -> None:  # a second command makes ``root`` a group, as in botpsy's CLI
        pass

    result = runner.invoke(root, ["audit", "--data-dir", str(_log(tmp_path).parent), "--json"])
    assert result.exit_code == 0 and len(result.output.splitlines()) == 2


def test_the_table_shows_taint_evidence_and_unfinished_calls(tmp_path: Path) -> None:
    from botpsy.safety.taint import TaintFinding, TaintKind

    path = tmp_path / "audit.db"
    log = AuditLog(path)
    log.record(AuditEntry(tool="draft_email", decision=AuditDecision.denied,
                          arguments={"to": "eve@evil.example"}, evidence=[
                              TaintFinding(kind=TaintKind.untrusted_address,
                                           source="tool:read_email:c9",
                                           evidence="eve@evil.example")]))
    log.begin(AuditEntry(tool="create_note", decision=AuditDecision.executed,
                         arguments={"title": "x"}, reason="clear \x1b[2J screen"))
    result = runner.invoke(app, ["--data-dir", str(tmp_path)], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "untrusted_address (tool:read_email:c9): eve@evil.example" in result.output
    assert "no result: stopped while it ran" in result.output
    assert "\x1b" not in result.output and "clear \\x1b[2J screen" in result.output
    shown = runner.invoke(app, ["--data-dir", str(tmp_path), "--json"]).output.splitlines()
    assert json.loads(shown[0])["evidence"][0]["evidence"] == "eve@evil.example"
    assert json.loads(shown[1])["status"] == "pending"
