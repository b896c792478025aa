"""The assistant's data: one SQLite database and one sandboxed files folder.

``AssistantStore(data_dir)`` owns ``data_dir/assistant.db`` and ``data_dir/files/``
plus the user's profile (name, email, time zone) kept in the settings table.
Toolboxes borrow the store; every write goes through ``store.write()`` so it is
one transaction, serialised with the other threads of this process by a lock and
with other processes by SQLite's write lock.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self
from zoneinfo import ZoneInfo

from pydantic import BaseModel, field_validator

from botpsy.assistant.db import open_db, table_exists, write_tx
from botpsy.assistant.timeutil import zone
from botpsy.paths import default_data_dir

DB_NAME = "assistant.db"
FILES_DIR = "files"
_PROFILE_KEY = "profile"


class Profile(BaseModel):
    """Who the assistant works for; ``timezone`` is an IANA zone name."""

    name: str = ""
    email: str = ""
    timezone: str = "UTC"

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        zone(value)
        return value


class AssistantStore:
    """The database and files root under ``data_dir``; usable as a context manager.

    ``clock`` returns the current aware time; tests and the demo pass a fixed one
    so that "today" and "tomorrow" mean the same thing on every run.
    """

    def __init__(
        self,
        data_dir: str | Path | None = None,
        *,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.files_root = (self.data_dir / FILES_DIR).resolve()
        self.files_root.mkdir(exist_ok=True)
        self.db_path = self.data_dir / DB_NAME
        self._clock = clock or (lambda: datetime.now(UTC))
        self._lock = threading.RLock()
        self.db = open_db(self.db_path)

    @staticmethod
    def exists(data_dir: str | Path) -> bool:
        """Whether a store database is already present in ``data_dir``."""
        return (Path(data_dir) / DB_NAME).exists()

    def now(self) -> datetime:
        """The current time (aware, UTC) according to the store's clock."""
        return self._clock().astimezone(UTC)

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; everything inside commits together or not at all."""
        with self._lock, write_tx(self.db) as conn:
            yield conn

    def query(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        """All rows of a read query."""
        with self._lock:
            return self.db.execute(sql, params).fetchall()

    def query_one(
        self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()
    ) -> sqlite3.Row | None:
        """The first row of a read query, or None."""
        with self._lock:
            return self.db.execute(sql, params).fetchone()

    def has_table(self, name: str) -> bool:
        """Whether the database has table ``name`` (e.g. the optional FTS index)."""
        with self._lock:
            return table_exists(self.db, name)

    def get_setting(self, key: str, default: Any = None) -> Any:
        """A JSON value from the settings table."""
        row = self.query_one("SELECT value FROM settings WHERE key = ?", (key,))
        return default if row is None else json.loads(row["value"])

    def set_setting(self, key: str, value: Any, conn: sqlite3.Connection | None = None) -> None:
        """Store a JSON value; pass ``conn`` to join an open write transaction."""
        sql = (
            "INSERT INTO settings(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        )
        if conn is not None:
            conn.execute(sql, (key, json.dumps(value)))
            return
        with self.write() as tx:
            tx.execute(sql, (key, json.dumps(value)))

    @property
    def profile(self) -> Profile:
        return Profile.model_validate(self.get_setting(_PROFILE_KEY, {}))

    def set_profile(self, **changes: str) -> Profile:
        """Update some profile fields; validated before anything is written."""
        profile = Profile.model_validate(self.profile.model_dump() | changes)
        self.set_setting(_PROFILE_KEY, profile.model_dump())
        return profile

    @property
    def tz(self) -> ZoneInfo:
        """The user's time zone; every time a tool shows is in this zone."""
        return zone(self.profile.timezone)

    def close(self) -> None:
        with self._lock:
            self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
