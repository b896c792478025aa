"""Reminder and to-do tools: add, list and tick off.

A due time is optional (a plain to-do has none). It may be ISO 8601 or a plain
form like 'tomorrow 9:00' or 'friday'; a day without a time means 09:00 local.
A bare time of day that has passed today means tomorrow, as on a phone ("remind me
at 9" in the evening); any other time in the past is refused, because a reminder
there could never go off and is almost always a made-up date.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, time, timedelta

from botpsy.assistant import inputs
from botpsy.assistant.errors import ErrorKind, ToolInputError, not_found
from botpsy.assistant.records import Record
from botpsy.assistant.timeutil import parse_when, show, to_db
from botpsy.assistant.toolbox import Toolbox, exposed
from botpsy.extract import is_clock_time
from botpsy.safety.provenance import write_origin
from botpsy.types import Origin

DEFAULT_DUE_TIME = time(9, 0)
PAST_GRACE = timedelta(minutes=1)  # "now" and a time said a moment ago still count
MAX_LISTED = 50


class Reminder(Record):
    """A reminder; ``due`` is local ISO time or None for a plain to-do."""

    id: int
    text: str
    due: str | None = None
    done: bool = False


class RemindersToolbox(Toolbox):
    """The user's reminders and to-dos."""

    domain = "reminders"

    @exposed(writes=True)
    def add_reminder(self, text: str, due: str | None = None) -> Reminder:
        """Add a reminder or to-do.

        Args:
            text: What to remember.
            due: When, e.g. '2025-03-04T09:00' or 'tomorrow 9:00'; leave out for a to-do.
        """
        text = inputs.text(text, "text", max_chars=500)
        due_at = None
        if due is not None and str(due).strip():
            due_at = to_db(self._due(due))
        now = to_db(self.store.now())
        with self.store.write() as tx:
            new_id = insert_reminder(tx, text, due_at, now)
        return self._reminder(self._row(new_id))

    def _due(self, due: str) -> datetime:
        """The due moment of ``due``: a passed bare time of day rolls to tomorrow; a
        passed day or moment is refused (nothing is written)."""
        now = self.store.now().astimezone(self.store.tz)
        parsed = parse_when(due, tz=self.store.tz, now=now, default_time=DEFAULT_DUE_TIME)
        moment = parsed.value
        if moment >= now - PAST_GRACE:
            return moment
        if is_clock_time(due):
            return moment + timedelta(days=1)
        if parsed.date_only and moment.date() == now.date():
            return moment  # "today": due now, still on the list
        raise ToolInputError(
            f"due {moment.isoformat(timespec='minutes')} is in the past (now "
            f"{now.isoformat(timespec='minutes')}); give a later time, e.g. 'tomorrow 9:00'",
            ErrorKind.invalid_date,
        )

    @exposed(writes=False)
    def list_reminders(self, include_done: bool = False) -> list[Reminder]:
        """List reminders, soonest due first; to-dos without a date come last.

        Args:
            include_done: Also list completed reminders.
        """
        where = "" if include_done else "WHERE done = 0"
        rows = self.store.query(
            f"SELECT * FROM reminders {where} ORDER BY done, due_at IS NULL, due_at, id LIMIT ?",
            (MAX_LISTED,),
        )
        return [self._reminder(row) for row in rows]

    @exposed(writes=True, side_effect=True)  # changes a reminder the user has
    def complete_reminder(self, reminder_id: int) -> Reminder:
        """Mark a reminder as done.

        Args:
            reminder_id: The id from list_reminders.
        """
        row = self._row(reminder_id)
        if not row["done"]:
            with self.store.write() as tx:
                tx.execute(
                    "UPDATE reminders SET done = 1, done_at = ? WHERE id = ?",
                    (to_db(self.store.now()), row["id"]),
                )
        return self._reminder(self._row(row["id"]))

    def preview_complete_reminder(self, reminder_id: int) -> str:
        return f"the reminder \u201c{self._row(reminder_id)['text']}\u201d"

    def _row(self, reminder_id: int) -> sqlite3.Row:
        reminder_id = inputs.item_id(reminder_id, "reminder_id")
        row = self.store.query_one("SELECT * FROM reminders WHERE id = ?", (reminder_id,))
        if row is None:
            raise not_found("reminder", reminder_id, "list_reminders")
        return row

    def _reminder(self, row: sqlite3.Row) -> Reminder:
        return Reminder(
            id=row["id"],
            text=row["text"],
            due=show(row["due_at"], self.store.tz),
            done=bool(row["done"]),
            origin=Origin(row["origin"]),
        )


def insert_reminder(conn: sqlite3.Connection, text: str, due_at: str | None, now: str,
                    origin: Origin | None = None) -> int:
    """Insert one reminder inside the caller's transaction; returns its id. ``origin``
    None: the current call's (``write_origin``)."""
    cursor = conn.execute(
        "INSERT INTO reminders (text, due_at, created_at, origin) VALUES (?, ?, ?, ?)",
        (text, due_at, now, (origin or write_origin()).value),
    )
    return int(cursor.lastrowid)
