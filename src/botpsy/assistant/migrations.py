"""The assistant database's schema, as an ordered list of migration steps.

Step ``n`` takes a database from ``PRAGMA user_version`` n-1 to n. Never edit a
step that has shipped: add a new one, so every existing database can follow.
Times are stored as UTC text ``YYYY-MM-DDTHH:MM:SSZ``, which sorts and compares
correctly as plain strings; lists (recipients, attendees) as JSON arrays.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    """One schema step; ``apply`` runs inside the step's transaction."""

    version: int
    description: str
    apply: Callable[[sqlite3.Connection], None]


def split_statements(sql: str) -> list[str]:
    """Complete SQL statements of ``sql``, in order.

    Splitting on ';' alone would cut trigger bodies apart;
    ``sqlite3.complete_statement`` knows where a statement really ends.
    """
    statements: list[str] = []
    pending = ""
    for piece in sql.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n\t;"):
                statements.append(pending.strip())
            pending = ""
    if pending.strip(" \n\t;"):
        raise ValueError(f"incomplete SQL statement at the end of script: {pending.strip()!r}")
    return statements


def run_script(conn: sqlite3.Connection, sql: str) -> None:
    """Execute a multi-statement script inside the current transaction.

    ``Connection.executescript`` would COMMIT first and break the
    one-transaction-per-step guarantee, so statements run one by one.
    """
    for statement in split_statements(sql):
        conn.execute(statement)


def fts5_available(conn: sqlite3.Connection) -> bool:
    """Whether this SQLite build has the FTS5 full-text extension."""
    options = {row[0] for row in conn.execute("PRAGMA compile_options")}
    if "ENABLE_FTS5" in options:
        return True
    try:  # some builds load FTS5 without advertising it
        conn.execute("CREATE VIRTUAL TABLE temp.fts5_probe USING fts5(x)")
        conn.execute("DROP TABLE temp.fts5_probe")
    except sqlite3.OperationalError:
        return False
    return True


BASE_SCHEMA = """
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE emails (
    id          INTEGER PRIMARY KEY,
    folder      TEXT NOT NULL CHECK (folder IN ('inbox', 'sent', 'drafts', 'trash')),
    message_id  TEXT UNIQUE,
    sender      TEXT NOT NULL DEFAULT '',
    recipients  TEXT NOT NULL DEFAULT '[]',
    cc          TEXT NOT NULL DEFAULT '[]',
    subject     TEXT NOT NULL DEFAULT '',
    body        TEXT NOT NULL DEFAULT '',
    sent_at     TEXT,
    unread      INTEGER NOT NULL DEFAULT 1 CHECK (unread IN (0, 1)),
    in_reply_to INTEGER REFERENCES emails(id) ON DELETE SET NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX emails_by_folder_date ON emails(folder, sent_at);

CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    uid         TEXT NOT NULL UNIQUE,
    title       TEXT NOT NULL CHECK (title <> ''),
    starts_at   TEXT NOT NULL,
    ends_at     TEXT NOT NULL,
    all_day     INTEGER NOT NULL DEFAULT 0 CHECK (all_day IN (0, 1)),
    location    TEXT,
    attendees   TEXT NOT NULL DEFAULT '[]',
    description TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL,
    CHECK (ends_at > starts_at)
);
CREATE INDEX events_by_start ON events(starts_at);

CREATE TABLE contacts (
    id         INTEGER PRIMARY KEY,
    uid        TEXT UNIQUE,
    name       TEXT NOT NULL CHECK (name <> ''),
    email      TEXT,
    phone      TEXT,
    notes      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE INDEX contacts_by_email ON contacts(email COLLATE NOCASE);

CREATE TABLE notes (
    id         INTEGER PRIMARY KEY,
    title      TEXT NOT NULL CHECK (title <> ''),
    body       TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE reminders (
    id         INTEGER PRIMARY KEY,
    text       TEXT NOT NULL CHECK (text <> ''),
    due_at     TEXT,
    done       INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    created_at TEXT NOT NULL,
    done_at    TEXT
);
CREATE INDEX reminders_by_due ON reminders(done, due_at);
"""

# An external-content FTS5 index over notes, kept in step by triggers, so a
# note and its index entry change in the same transaction.
NOTES_FTS = """
CREATE VIRTUAL TABLE notes_fts USING fts5(
    title, body, content='notes', content_rowid='id', tokenize='porter unicode61'
);
CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, body)
    VALUES ('delete', old.id, old.title, old.body);
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, title, body)
    VALUES ('delete', old.id, old.title, old.body);
    INSERT INTO notes_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
END;
INSERT INTO notes_fts(notes_fts) VALUES ('rebuild');
"""


def _base_schema(conn: sqlite3.Connection) -> None:
    run_script(conn, BASE_SCHEMA)


def _notes_fts(conn: sqlite3.Connection) -> None:
    # Without FTS5 the step still counts as applied; note search then uses LIKE.
    if fts5_available(conn):
        run_script(conn, NOTES_FTS)


ORIGIN_TABLES = ("emails", "events", "contacts", "notes", "reminders")
ORIGIN_COLUMN = (
    "origin TEXT NOT NULL DEFAULT 'third_party' CHECK (origin IN ('user', 'third_party'))"
)

# What an existing item's origin is, when the store never recorded it. Only what botpsy
# can prove is the user's: mail in sent/drafts, events with botpsy's own UIDs, contacts
# without a UID (vCard imports keep theirs), notes and reminders (no importer writes
# them). Everything else (the inbox, imported invitations and cards) stays a stranger's.
# Items written on an injection's say-so before this step cannot be told apart: the
# documented cost (docs/safety.md).
ORIGIN_BACKFILL = """
UPDATE emails SET origin = 'user' WHERE folder IN ('sent', 'drafts');
UPDATE events SET origin = 'user' WHERE uid LIKE '%@botpsy';
UPDATE contacts SET origin = 'user' WHERE uid IS NULL;
UPDATE notes SET origin = 'user';
UPDATE reminders SET origin = 'user';
CREATE TABLE file_origins (
    path   TEXT PRIMARY KEY,
    origin TEXT NOT NULL CHECK (origin IN ('user', 'third_party'))
);
"""


def _item_origins(conn: sqlite3.Connection) -> None:
    # New rows that forget to say default to a stranger's: the safe side.
    for table in ORIGIN_TABLES:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {ORIGIN_COLUMN}")
    run_script(conn, ORIGIN_BACKFILL)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "mail, calendar, contacts, notes, reminders, settings", _base_schema),
    Migration(2, "full-text index over notes (FTS5, when available)", _notes_fts),
    Migration(3, "where each item came from (origin: user or third_party)", _item_origins),
)
