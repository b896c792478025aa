"""``botpsy audit``: the rich table, filters, JSON lines, a missing log."""

from __future__ import annotations

import json
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
    result = runner.invoke(app, ["--db", str(_log(tmp_path))], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "send_email" in result.output and "denied" in result.output
    assert "tool:read_email:c1" in result.output


def test_filters_and_json(tmp_path: Path) -> None:
    path = _log(tmp_path)
    result = runner.invoke(app, ["--db", str(path), "--decision", "denied", "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["tool"] for r in rows] == ["send_email"]


def test_missing_log_fails_clearly(tmp_path: Path) -> None:
    result = runner.invoke(app, ["--db", str(tmp_path / "none.db")])
    assert result.exit_code == 1 and "no audit log" in result.output


def test_mounts_as_a_subcommand(tmp_path: Path) -> None:
    root = typer.Typer()
    root.add_typer(app, name="audit")

    @root.command()
    def other() -> None:  # a second command makes ``root`` a group, as in botpsy's CLI
        pass

    result = runner.invoke(root, ["audit", "--db", str(_log(tmp_path)), "--json"])
    assert result.exit_code == 0 and len(result.output.splitlines()) == 2
