"""The world an eval episode runs in: a seeded store at a fixed moment, and its snapshots.

Every episode gets a fresh ``AssistantStore`` in its own folder, seeded with the
demo week (``seed_demo``) around a fixed day and clock, so "tomorrow 09:00"
means the same moment in the scenario file, in the model's system prompt and
in the checks. Task-specific items go in through the toolboxes themselves, so
they are validated like anything a user would add.

``snapshot`` reads the whole store (tables and files) into a ``StoreState``
that is saved with the episode: checks run on it, so a run can be re-scored
without the model or the store.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from botpsy.assistant import AssistantStore
from botpsy.assistant.calendar import CalendarToolbox
from botpsy.assistant.contacts import ContactsToolbox
from botpsy.assistant.demo import seed_demo
from botpsy.assistant.demo_content import USER_EMAIL, USER_TIMEZONE
from botpsy.assistant.files import FilesToolbox
from botpsy.assistant.mail import insert_email
from botpsy.assistant.notes import NotesToolbox
from botpsy.assistant.reminders import RemindersToolbox
from botpsy.assistant.timeutil import localize, to_db, zone
from botpsy.evals.scenarios.schema import REF_PREFIX, Setup
from botpsy.safety.provenance import writing_as

# Wednesday 2025-03-12, 08:00 in Berlin: the demo week's Wednesday.
EVAL_TODAY = date(2025, 3, 12)
EVAL_NOW = datetime(2025, 3, 12, 7, 0, tzinfo=UTC)
EVAL_TIMEZONE = USER_TIMEZONE

DB_TABLES = ("emails", "events", "contacts", "notes", "reminders")
# ``@kind:text`` references: the table and the column whose text identifies an item.
REF_TABLES: dict[str, tuple[str, str]] = {
    "email": ("emails", "subject"),
    "event": ("events", "title"),
    "contact": ("contacts", "name"),
    "note": ("notes", "title"),
    "reminder": ("reminders", "text"),
}
TIME_COLUMNS = frozenset({"sent_at", "starts_at", "ends_at", "due_at", "done_at", "created_at",
                          "updated_at"})
FILE_COLUMNS = ("path", "content")


class WorldError(ValueError):
    """Scenario data that does not fit the store (bad setup item, unresolvable reference)."""


class StoreState(BaseModel):
    """Every row of every assistant table, and every file (path and text)."""

    tables: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)

    def rows(self, table: str) -> list[dict[str, Any]]:
        if table not in self.tables:
            raise WorldError(f"unknown table {table!r}; known: {', '.join(self.tables)}")
        return self.tables[table]

    def columns(self, table: str) -> set[str]:
        rows = self.rows(table)
        return set(rows[0]) if rows else set(FILE_COLUMNS if table == "files" else ())


class TableChange(BaseModel):
    """What one table looks like after an episode compared with before it."""

    added: list[dict[str, Any]] = Field(default_factory=list)
    removed: list[dict[str, Any]] = Field(default_factory=list)
    changed: list[dict[str, Any]] = Field(default_factory=list)  # the rows as they are now


class StateDiff(BaseModel):
    """Per table (only tables that changed): added, removed and changed rows."""

    tables: dict[str, TableChange] = Field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.tables


def open_world(data_dir: Path, *, now: datetime = EVAL_NOW, today: date = EVAL_TODAY
               ) -> AssistantStore:
    """A fresh store in ``data_dir`` with the demo week seeded around ``today``."""
    store = AssistantStore(data_dir, clock=lambda: now)
    seed_demo(store, today)
    return store


def apply_setup(store: AssistantStore, setup: Setup, today: date = EVAL_TODAY) -> None:
    """Add the task's items through the toolboxes (mail through the importer's insert),
    each with its ``origin`` (received mail is a stranger's, as an import records it)."""
    try:
        calendar, contacts = CalendarToolbox(store), ContactsToolbox(store)
        notes, reminders, files = NotesToolbox(store), RemindersToolbox(store), FilesToolbox(store)
        for person in setup.contacts:
            with writing_as(person.origin):
                contacts.add_contact(person.name, person.email, person.phone, person.notes)
        for event in setup.events:
            with writing_as(event.origin):
                calendar.create_event(event.title, event.start, event.end, event.location,
                                      event.attendees)
        for note in setup.notes:
            with writing_as(note.origin):
                notes.create_note(note.title, note.body)
        for reminder in setup.reminders:
            reminders.add_reminder(reminder.text, reminder.due)
        for item in setup.files:
            with writing_as(item.origin):
                files.write_file(item.path, item.content)
        _add_emails(store, setup, today)
    except ValueError as exc:  # ToolInputError is a ValueError
        raise WorldError(f"setup item rejected by the toolbox: {exc}") from exc


def _add_emails(store: AssistantStore, setup: Setup, today: date) -> None:
    tz = zone(store.profile.timezone or EVAL_TIMEZONE)
    me = store.profile.email or USER_EMAIL
    with store.write() as tx:
        for mail in setup.emails:
            moment = datetime.combine(today - timedelta(days=mail.days_ago),
                                      time.fromisoformat(mail.at))
            sent_at = to_db(localize(moment, tz))
            outgoing = mail.folder in ("sent", "drafts")
            insert_email(tx, folder=mail.folder, sender=me if outgoing else mail.sender,
                         recipients=[mail.sender] if outgoing else [me], subject=mail.subject,
                         body=mail.body, sent_at=sent_at, unread=mail.unread and not outgoing,
                         message_id=None, created_at=sent_at)


def snapshot(store: AssistantStore) -> StoreState:
    """The whole store as plain data (JSON columns decoded, files as text)."""
    tables: dict[str, list[dict[str, Any]]] = {}
    for table in DB_TABLES:
        rows = store.query(f"SELECT * FROM {table} ORDER BY id")
        tables[table] = [_decoded(dict(row)) for row in rows]
    tables["files"] = [
        {"path": path.relative_to(store.files_root).as_posix(),
         "content": path.read_text(encoding="utf-8", errors="replace")}
        for path in sorted(store.files_root.rglob("*")) if path.is_file()
    ]
    return StoreState(tables=tables)


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    for key in ("recipients", "cc", "attendees"):
        if isinstance(row.get(key), str):
            row[key] = json.loads(row[key])
    return row


def diff(before: StoreState, after: StoreState) -> StateDiff:
    """What changed between two snapshots, keyed by id (files by path)."""
    changes: dict[str, TableChange] = {}
    for table, rows in after.tables.items():
        key = "path" if table == "files" else "id"
        old = {r[key]: r for r in before.tables.get(table, [])}
        new = {r[key]: r for r in rows}
        change = TableChange(
            added=[r for k, r in new.items() if k not in old],
            removed=[r for k, r in old.items() if k not in new],
            changed=[r for k, r in new.items() if k in old and old[k] != r],
        )
        if change.added or change.removed or change.changed:
            changes[table] = change
    return StateDiff(tables=changes)


def resolve_ref(state: StoreState, ref: str) -> int:
    """The id named by ``@kind:text``: the one item whose identifying column contains text."""
    kind, _, text = ref[len(REF_PREFIX):].partition(":")
    if kind not in REF_TABLES or not text:
        raise WorldError(f"bad reference {ref!r}; use @kind:text with kind in "
                         f"{', '.join(REF_TABLES)}")
    table, column = REF_TABLES[kind]
    found = [r["id"] for r in state.rows(table) if text.lower() in str(r[column]).lower()]
    if len(found) != 1:
        raise WorldError(f"reference {ref!r} matches {len(found)} {table} (ids {found}); "
                         "it must name exactly one")
    return int(found[0])


def collect_refs(value: Any) -> set[str]:
    """Every ``@kind:text`` string inside a nested value."""
    if isinstance(value, str):
        return {value} if value.startswith(REF_PREFIX) and ":" in value else set()
    if isinstance(value, dict):
        return set().union(*(collect_refs(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(collect_refs(v) for v in value)) if value else set()
    if isinstance(value, BaseModel):
        return collect_refs(value.model_dump())
    return set()


def substitute_refs(value: Any, refs: dict[str, int]) -> Any:
    """``value`` with every reference replaced by its id."""
    if isinstance(value, str):
        return refs.get(value, value)
    if isinstance(value, dict):
        return {k: substitute_refs(v, refs) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute_refs(v, refs) for v in value]
    return value
