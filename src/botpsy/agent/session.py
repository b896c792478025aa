"""Conversations that survive a restart: one SQLite file of sessions and messages.

The CLI chat and the web server keep each conversation as a session: create,
append the messages of every turn, load it back (with its taint: untrusted tool
output stays marked, so a reloaded conversation is as guarded as a live one),
list them. A turn that stopped on a confirmation keeps its ``AgentResult`` as
the session's pending state, server-side, so the call that gets approved is the
one the agent proposed and not one a client sent back.

    store = SessionStore(data_dir / "sessions.db")
    info = store.create("Planning the trip")
    store.append(info.id, result.messages[len(history):])
"""

from __future__ import annotations

import sqlite3
import uuid
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field

from botpsy.agent.run_events import AgentResult
from botpsy.paths import default_data_dir
from botpsy.types import Message

SESSIONS_DB = "sessions.db"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    pending TEXT
);
CREATE TABLE IF NOT EXISTS session_messages (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
"""


def default_sessions_path() -> Path:
    """``sessions.db`` next to the assistant's database."""
    return default_data_dir() / SESSIONS_DB


class SessionNotFoundError(KeyError):
    """No session with that id."""


class SessionInfo(BaseModel):
    """A session's header: id, title, timestamps and how many messages it holds."""

    id: str
    title: str = ""
    created_at: datetime
    updated_at: datetime
    message_count: int = 0
    has_pending: bool = False


class Session(BaseModel):
    """A whole conversation."""

    info: SessionInfo
    messages: list[Message] = Field(default_factory=list)
    pending: AgentResult | None = None


def _now() -> str:
    return datetime.now(UTC).isoformat()


class SessionStore:
    """Sessions in one SQLite file (WAL mode, as every botpsy database: readers never
    block the writer, a killed process never leaves a half-written page); a connection
    per operation (thread-safe)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as db:
            db.execute("PRAGMA journal_mode = WAL")  # persistent: set once per file
            with db:
                db.executescript(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10)
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")  # under WAL: safe against a killed process
        return db

    def create(self, title: str = "", messages: list[Message] | None = None) -> SessionInfo:
        """A new session (optionally with its first messages)."""
        session_id = uuid.uuid4().hex
        stamp = _now()
        with closing(self._connect()) as db, db:
            db.execute("INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?,?,?,?)",
                       (session_id, title, stamp, stamp))
        if messages:
            self.append(session_id, messages)
        return self.info(session_id)

    def append(self, session_id: str, messages: list[Message]) -> SessionInfo:
        """Add ``messages`` at the end of the session, in one transaction."""
        with closing(self._connect()) as db, db:
            self._require(db, session_id)
            (last,) = db.execute("SELECT COALESCE(MAX(seq), -1) FROM session_messages "
                                 "WHERE session_id = ?", (session_id,)).fetchone()
            db.executemany(
                "INSERT INTO session_messages (session_id, seq, message) VALUES (?,?,?)",
                [(session_id, last + 1 + i, m.model_dump_json()) for i, m in enumerate(messages)],
            )
            db.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (_now(), session_id))
        return self.info(session_id)

    def set_pending(self, session_id: str, result: AgentResult | None) -> None:
        """Keep (or clear, with None) the result of a turn waiting for confirmation."""
        payload = None if result is None else result.model_dump_json()
        with closing(self._connect()) as db, db:
            self._require(db, session_id)
            db.execute("UPDATE sessions SET pending = ?, updated_at = ? WHERE id = ?",
                       (payload, _now(), session_id))

    def set_title(self, session_id: str, title: str) -> None:
        with closing(self._connect()) as db, db:
            self._require(db, session_id)
            db.execute("UPDATE sessions SET title = ? WHERE id = ?", (title, session_id))

    def load(self, session_id: str) -> Session:
        """The session with all its messages, in order."""
        with closing(self._connect()) as db:
            self._require(db, session_id)
            rows = db.execute("SELECT message FROM session_messages WHERE session_id = ? "
                              "ORDER BY seq", (session_id,)).fetchall()
            (pending,) = db.execute("SELECT pending FROM sessions WHERE id = ?",
                                    (session_id,)).fetchone()
        return Session(
            info=self.info(session_id),
            messages=[Message.model_validate_json(text) for (text,) in rows],
            pending=None if pending is None else AgentResult.model_validate_json(pending),
        )

    def info(self, session_id: str) -> SessionInfo:
        infos = self._infos("WHERE s.id = ?", (session_id,))
        if not infos:
            raise SessionNotFoundError(session_id)
        return infos[0]

    def list_sessions(self, limit: int | None = None) -> list[SessionInfo]:
        """Sessions, most recently updated first."""
        tail = "LIMIT ?" if limit is not None else ""
        return self._infos(f"ORDER BY s.updated_at DESC {tail}",
                           (limit,) if limit is not None else ())

    def delete(self, session_id: str) -> None:
        with closing(self._connect()) as db, db:
            self._require(db, session_id)
            db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    def _infos(self, clause: str, params: tuple) -> list[SessionInfo]:
        query = ("SELECT s.id, s.title, s.created_at, s.updated_at, s.pending IS NOT NULL, "
                 "(SELECT COUNT(*) FROM session_messages m WHERE m.session_id = s.id) "
                 f"FROM sessions s {clause}")
        with closing(self._connect()) as db:
            rows = db.execute(query, params).fetchall()
        return [SessionInfo(id=r[0], title=r[1], created_at=datetime.fromisoformat(r[2]),
                            updated_at=datetime.fromisoformat(r[3]), has_pending=bool(r[4]),
                            message_count=r[5]) for r in rows]

    @staticmethod
    def _require(db: sqlite3.Connection, session_id: str) -> None:
        if db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
            raise SessionNotFoundError(session_id)
