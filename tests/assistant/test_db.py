"""Connection settings, migrations (idempotent, atomic, versioned) and the write transaction."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from botpsy.assistant.db import (
    SchemaVersionError,
    migrate,
    open_db,
    table_exists,
    user_version,
    write_tx,
)
from botpsy.assistant.migrations import MIGRATIONS, Migration, run_script, split_statements


def test_open_db_sets_wal_foreign_keys_and_busy_timeout(tmp_path: Path) -> None:
    conn = open_db(tmp_path / "a.db", busy_timeout_ms=1234)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 1234
        assert user_version(conn) == len(MIGRATIONS)
        for table in ("emails", "events", "contacts", "notes", "reminders", "settings"):
            assert table_exists(conn, table)
    finally:
        conn.close()


def test_migrations_are_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    open_db(path).close()
    conn = open_db(path)  # second open: nothing to do
    try:
        report = migrate(conn)
        assert report.applied == []
        assert report.from_version == report.to_version == len(MIGRATIONS)
        schema = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        migrate(conn)
        assert conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == schema
    finally:
        conn.close()


def test_fresh_database_reports_every_step(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "a.db", isolation_level=None)
    report = migrate(conn)
    conn.close()
    assert report.applied == [m.version for m in MIGRATIONS]
    assert (report.from_version, report.to_version) == (0, len(MIGRATIONS))


def test_failing_step_leaves_the_previous_version_and_no_trace(tmp_path: Path) -> None:
    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("step failed midway")

    steps = (MIGRATIONS[0], Migration(2, "broken", broken))
    conn = sqlite3.connect(tmp_path / "a.db", isolation_level=None)
    with pytest.raises(RuntimeError, match="midway"):
        migrate(conn, steps)
    assert user_version(conn) == 1
    assert not table_exists(conn, "half_done")
    assert not conn.in_transaction
    conn.close()


def test_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    open_db(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.close()
    with pytest.raises(SchemaVersionError, match="newer"):
        open_db(path)


def test_migration_versions_must_be_consecutive(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "a.db", isolation_level=None)
    with pytest.raises(SchemaVersionError, match="1..n"):
        migrate(conn, (Migration(2, "skips 1", lambda c: None),))
    conn.close()


def test_write_tx_commits_or_rolls_back(tmp_path: Path) -> None:
    conn = open_db(tmp_path / "a.db")
    with write_tx(conn) as tx:
        tx.execute("INSERT INTO settings VALUES ('a', '1')")
    with pytest.raises(sqlite3.IntegrityError), write_tx(conn) as tx:
        tx.execute("INSERT INTO settings VALUES ('b', '2')")
        tx.execute("INSERT INTO settings VALUES ('a', '3')")  # duplicate key
    keys = [row[0] for row in conn.execute("SELECT key FROM settings")]
    assert keys == ["a"]
    assert not conn.in_transaction
    conn.close()


def test_split_statements_keeps_trigger_bodies_whole() -> None:
    sql = """
    CREATE TABLE t (x);
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN
        INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);
    END;
    ;
    """
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


def test_split_statements_rejects_an_unfinished_script() -> None:
    with pytest.raises(ValueError, match="incomplete"):
        split_statements("CREATE TABLE t (x); CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;")


def test_run_script_stays_inside_the_open_transaction(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "a.db", isolation_level=None)
    conn.execute("BEGIN")
    run_script(conn, "CREATE TABLE a (x); CREATE TABLE b (y);")
    assert conn.in_transaction  # executescript would have committed here
    conn.execute("ROLLBACK")
    assert not table_exists(conn, "a")
    conn.close()
