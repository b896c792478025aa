"""``botpsy init``: create, refuse to overwrite, replace with --force, seed the demo."""

from __future__ import annotations

from pathlib import Path

import typer
from typer.testing import CliRunner

from botpsy.agent.session import SESSIONS_DB, SessionStore
from botpsy.assistant.cli import app
from botpsy.assistant.notes import NotesToolbox
from botpsy.assistant.user_data import AssistantStore
from botpsy.safety.audit import AuditLog
from botpsy.safety.cli import AUDIT_DB

runner = CliRunner()
# Mounted the way the botpsy CLI mounts it, so the command line is ``botpsy init ...``.
botpsy = typer.Typer()
botpsy.add_typer(app)


@botpsy.command()
def version() -> None:
    """A second command, so typer keeps ``init`` as a named subcommand."""


def test_init_creates_an_empty_store(tmp_path: Path) -> None:
    result = runner.invoke(botpsy, ["init", "--data-dir", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    assert AssistantStore.exists(tmp_path / "s")
    assert (tmp_path / "s" / "files").is_dir()


def test_init_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    with AssistantStore(tmp_path) as store:
        NotesToolbox(store).create_note("Precious", "do not lose")
    result = runner.invoke(botpsy, ["init", "--demo", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "already exists" in result.output and "nothing was changed" in result.output
    with AssistantStore(tmp_path) as store:
        assert [h.title for h in NotesToolbox(store).search_notes("precious")] == ["Precious"]
        assert store.query_one("SELECT count(*) AS n FROM emails")["n"] == 0


def test_init_force_demo_replaces_the_store(tmp_path: Path) -> None:
    with AssistantStore(tmp_path) as store:
        NotesToolbox(store).create_note("Old", "old note")
        (store.files_root / "old.txt").write_text("old")
    SessionStore(tmp_path / SESSIONS_DB).create(title="about the old mail")
    AuditLog(tmp_path / AUDIT_DB)
    result = runner.invoke(
        botpsy, ["init", "--demo", "--force", "--today", "2025-03-05", "--data-dir", str(tmp_path)]
    )
    assert not (tmp_path / SESSIONS_DB).exists()  # conversations quoting the old store go
    assert (tmp_path / AUDIT_DB).exists()  # the record of what ran stays
    assert result.exit_code == 0, result.output
    assert "33 emails" in result.output and "prompt injections" in result.output
    with AssistantStore(tmp_path) as store:
        assert store.query_one("SELECT count(*) AS n FROM notes WHERE title = 'Old'")["n"] == 0
        assert not (store.files_root / "old.txt").exists()
        assert store.profile.name == "Alex Morgan"


def test_init_bad_day_changes_nothing(tmp_path: Path) -> None:
    with AssistantStore(tmp_path) as store:
        NotesToolbox(store).create_note("Keep", "keep")
    result = runner.invoke(
        botpsy, ["init", "--demo", "--force", "--today", "March", "--data-dir", str(tmp_path)]
    )
    assert result.exit_code == 2
    with AssistantStore(tmp_path) as store:
        assert [h.title for h in NotesToolbox(store).search_notes("keep")] == ["Keep"]


def test_import_brings_contacts_calendar_and_mail_in(tmp_path: Path) -> None:
    store_dir = str(tmp_path / "s")
    (tmp_path / "a.vcf").write_text(
        "BEGIN:VCARD\nVERSION:3.0\nFN:Felix Braun\nEMAIL:felix@studio.example\nEND:VCARD\n")
    (tmp_path / "c.ics").write_text(
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//t//EN\nBEGIN:VEVENT\nUID:1@t\n"
        "DTSTAMP:20250301T000000Z\nDTSTART:20250310T090000Z\nDTEND:20250310T100000Z\n"
        "SUMMARY:Dentist\nEND:VEVENT\nEND:VCALENDAR\n")
    (tmp_path / "m.eml").write_text(
        "From: Sam <sam@x.example>\nTo: alex@example.com\nSubject: Hi\n"
        "Date: Mon, 3 Mar 2025 10:00:00 +0000\n\nHello there\n")
    for name, kind in (("a.vcf", "contacts"), ("c.ics", "calendar"), ("m.eml", "mail")):
        result = runner.invoke(botpsy, ["import", str(tmp_path / name), "--data-dir", store_dir])
        assert result.exit_code == 0 and f"{kind} from" in result.output, result.output
        assert "1 imported" in result.output
    with AssistantStore(tmp_path / "s") as store:
        assert store.query("select title from events")[0]["title"] == "Dentist"
        assert store.query("select subject from emails")[0]["subject"] == "Hi"


def test_import_says_when_nothing_could_be_read(tmp_path: Path) -> None:
    (tmp_path / "junk.vcf").write_text("junk")
    result = runner.invoke(botpsy, ["import", str(tmp_path / "junk.vcf"), "--data-dir",
                                    str(tmp_path / "s")])
    assert result.exit_code == 1 and "nothing in" in result.output
    missing = runner.invoke(botpsy, ["import", str(tmp_path / "none.ics")])
    assert missing.exit_code == 2 and "no such file" in missing.output
