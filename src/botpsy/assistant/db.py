"""SQLite for the assistant: connection setup, versioned migrations, the writer transaction.

One database file holds mail, calendar, contacts, notes, reminders and settings.
``open_db`` turns on WAL (readers never block the writer, a crash never leaves a
half-written page), foreign keys and a busy timeout, then brings the schema up to
date. Each migration step runs in its own ``BEGIN IMMEDIATE`` transaction and bumps
``PRAGMA user_version`` inside it, so a step is applied completely or not at all
and running the migrations again is a no-op.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from botpsy.assistant.migrations import MIGRATIONS, Migration

DEFAULT_BUSY_TIMEOUT_MS = 5000


class SchemaVersionError(RuntimeError):
    """The database was written by a newer botpsy (or its version history has a gap)."""


@dataclass
class MigrationReport:
    """Schema versions before and after ``migrate``, and the steps that ran."""

    from_version: int
    to_version: int
    applied: list[int] = field(default_factory=list)


def open_db(
    path: str | Path,
    *,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    migrations: Sequence[Migration] = MIGRATIONS,
) -> sqlite3.Connection:
    """Open (creating if needed) the database at ``path`` and migrate it.

    The connection is in autocommit mode: every write goes through ``write_tx``,
    so transaction boundaries are explicit rather than left to the sqlite3 module.
    """
    conn = sqlite3.connect(
        str(path),
        isolation_level=None,
        timeout=busy_timeout_ms / 1000,
        check_same_thread=False,  # the store serialises access with its own lock
    )
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        conn.execute("PRAGMA journal_mode = WAL")
        # NORMAL under WAL survives a killed process; only a power cut can lose
        # the last commits, never corrupt the file.
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn, migrations)
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def write_tx(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One writer transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error.

    IMMEDIATE takes the write lock up front, so two writers wait on the busy
    timeout instead of failing half-way with SQLITE_BUSY on their first write.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version stored in the database header."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(
    conn: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS
) -> MigrationReport:
    """Apply the steps newer than the database's version, each in its own transaction."""
    _check_sequence(migrations)
    start = user_version(conn)
    latest = len(migrations)
    if start > latest:
        raise SchemaVersionError(
            f"database schema version {start} is newer than this botpsy knows ({latest})"
        )
    report = MigrationReport(from_version=start, to_version=start)
    if start == latest:  # the common case: no write lock needed
        return report
    for step in migrations:
        with write_tx(conn):
            # Re-read inside the lock: another process may have migrated meanwhile.
            if user_version(conn) >= step.version:
                continue
            step.apply(conn)
            conn.execute(f"PRAGMA user_version = {step.version}")
        report.applied.append(step.version)
        report.to_version = step.version
    return report


def _check_sequence(migrations: Sequence[Migration]) -> None:
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise SchemaVersionError(f"migration versions must be 1..n in order, got {versions}")


def table_exists(conn: sqlite3.Connection, name: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    return row is not None
