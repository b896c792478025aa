"""Audit log: an append-only record of every call the model proposed and what
became of it, in SQLite.

One row per decision, so a confirmed call shows both its ``needs_confirmation``
row and its ``confirmed`` row (with the result). The table lives in its own file
or in the assistant's database (``AuditLog(store_db_path)``): it creates only the
``audit_log`` table and touches nothing else. Arguments and results are stored
redacted (card numbers, SSNs, IBANs, written-out secrets masked), so the log is
not a copy of what the safety layer protects.

No effect without its row: a call that is about to run is written first
(``begin``: status ``pending``, committed and synced to disk) and completed with
its result after (``complete``). A process killed in between leaves a pending row
(the call may or may not have run) and never an effect nobody recorded. Rows keep
the taint evidence (the ``TaintFinding`` list: copied text, untrusted addresses,
their sources), so the log says *why* a call was gated, not only that it was.
Text that SQLite cannot store (lone surrogates) is kept in an escaped form.

Read it with ``botpsy audit`` or ``AuditLog(path).entries(...)``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from botpsy.safetext import storable
from botpsy.safety.policy import redact
from botpsy.safety.taint import TaintFinding

if TYPE_CHECKING:
    from botpsy.tools.registry import ToolResult
    from botpsy.types import ToolCall

_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ts TEXT NOT NULL,
    session_id TEXT,
    round INTEGER,
    call_id TEXT,
    tool TEXT NOT NULL,
    arguments TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    taint_sources TEXT NOT NULL DEFAULT '[]',
    result_ok INTEGER,
    result_summary TEXT NOT NULL DEFAULT '',
    error_kind TEXT,
    status TEXT NOT NULL DEFAULT 'done',
    evidence TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS audit_log_session ON audit_log(session_id, id);
"""
# Columns added after the first release: (name, declaration). Old logs get them on
# open (``_migrate``); a read-only viewer reads old logs without them.
_ADDED_COLUMNS = (
    ("status", "TEXT NOT NULL DEFAULT 'done'"),
    ("evidence", "TEXT NOT NULL DEFAULT '[]'"),
)
SUMMARY_CHARS = 300
REQUEST_TOOL = "(request)"  # the tool name of rows that record a declined user request


class AuditDecision(str, Enum):
    """What the agent did with a proposed call (or a request)."""

    executed = "executed"  # ran without asking (read-only, or auto-approved and untainted)
    blocked_scope = "blocked_scope"  # out of the deployment's scope (money, personal data, health)
    needs_confirmation = "needs_confirmation"  # waiting for a person
    confirmed = "confirmed"  # a person said yes; the call ran
    denied = "denied"  # a person (or DenyAll) said no
    invalid = "invalid"  # unknown tool or arguments that fail the schema
    blocked_loop = "blocked_loop"  # the identical call already ran in this turn


class AuditStatus(str, Enum):
    """Whether a row's outcome is known."""

    done = "done"  # the decision is final (and, for a call that ran, its result is in)
    pending = "pending"  # written before the call ran; no result followed (the process stopped)


class AuditEntry(BaseModel):
    """One row of the audit log."""

    id: int | None = None
    ts: datetime = Field(default_factory=lambda: datetime.now(UTC))
    session_id: str | None = None
    round: int | None = None
    call_id: str | None = None
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    decision: AuditDecision
    reason: str = ""
    taint_sources: list[str] = Field(default_factory=list)
    result_ok: bool | None = None
    result_summary: str = ""
    error_kind: str | None = None
    status: AuditStatus = AuditStatus.done
    evidence: list[TaintFinding] = Field(default_factory=list)

    @classmethod
    def of_call(
        cls,
        call: ToolCall,
        decision: AuditDecision,
        reason: str,
        *,
        session_id: str | None = None,
        round_: int | None = None,
        taint_sources: list[str] | None = None,
        evidence: list[TaintFinding] | None = None,
        result: ToolResult | None = None,
    ) -> AuditEntry:
        """The row of one decision on ``call`` (and its result, once it ran): one way
        to write it for the agent and the MCP server alike."""
        return cls(
            session_id=session_id, round=round_, call_id=call.id, tool=call.name,
            arguments=call.arguments, decision=decision, reason=reason,
            taint_sources=taint_sources or [], evidence=evidence or [],
            result_ok=None if result is None else result.ok,
            result_summary="" if result is None else result.content,
            error_kind=None if result is None or result.error_kind is None
            else result.error_kind.value,
        )


def _redact_values(value: Any) -> Any:
    """``value`` with every string inside it redacted (and storable), structure kept."""
    if isinstance(value, str):
        return redact(storable(value))
    if isinstance(value, dict):
        return {storable(str(k)): _redact_values(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_redact_values(v) for v in value]
    return value


def summarize(text: str, limit: int = SUMMARY_CHARS) -> str:
    """The first ``limit`` characters of ``text`` on one line, redacted."""
    flat = " ".join(redact(storable(text)).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "\u2026"


class AuditLogError(ValueError):
    """The file is not an audit log botpsy can read (or create)."""


class AuditLog:
    """Append-only audit table in a SQLite file (WAL mode).

    One connection, shared by the threads of the web server under a lock; other
    connections (the assistant store's, a viewer's) may use the file at the same
    time. A row announcing a call that is about to run is committed with
    ``synchronous = FULL`` (on disk before the call runs); other rows need no sync
    of their own. ``read_only`` opens an existing log for viewing: nothing is
    created or written, so pointing a viewer at the wrong file cannot change it."""

    def __init__(self, path: str | Path, *, read_only: bool = False):
        self.path = Path(path)
        self.read_only = read_only
        self._lock = threading.Lock()
        try:
            if not read_only:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect()
        except (sqlite3.DatabaseError, OSError) as exc:
            raise AuditLogError(f"{self.path} is not a botpsy audit log ({exc})") from None
        try:
            if read_only:
                self._db.execute("SELECT 1 FROM audit_log LIMIT 1")
                return
            self._db.execute("PRAGMA journal_mode = WAL")  # persistent: set once per file
            with self._db:
                self._db.executescript(_SCHEMA)
                _migrate(self._db)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise AuditLogError(f"{self.path} is not a botpsy audit log ({exc})") from None

    def _connect(self) -> sqlite3.Connection:
        if self.read_only:
            uri = f"{self.path.resolve().as_uri()}?mode=ro"
            return sqlite3.connect(uri, uri=True, timeout=10, check_same_thread=False)
        return sqlite3.connect(self.path, timeout=10, check_same_thread=False)

    @contextmanager
    def _writing(self, *, durable: bool) -> Iterator[sqlite3.Connection]:
        """One write transaction; ``durable``: synced to disk when it commits."""
        with self._lock:
            self._db.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
            with self._db:
                yield self._db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def record(self, entry: AuditEntry) -> AuditEntry:
        """Append ``entry`` (arguments, evidence and summary redacted); returns it with its id."""
        arguments = _redact_values(entry.arguments)
        evidence = [_redacted_finding(f) for f in entry.evidence]
        row = (
            entry.ts.isoformat(), _text(entry.session_id), entry.round, _text(entry.call_id),
            storable(entry.tool), json.dumps(arguments, ensure_ascii=False),
            entry.decision.value, storable(entry.reason),
            json.dumps([storable(s) for s in entry.taint_sources]),
            None if entry.result_ok is None else int(entry.result_ok),
            summarize(entry.result_summary), _text(entry.error_kind), entry.status.value,
            json.dumps(evidence, ensure_ascii=False),
        )
        with self._writing(durable=entry.status is AuditStatus.pending) as db:
            cur = db.execute(
                "INSERT INTO audit_log (ts, session_id, round, call_id, tool, arguments, decision,"
                " reason, taint_sources, result_ok, result_summary, error_kind, status, evidence)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            new_id = cur.lastrowid
        return entry.model_copy(update={"id": new_id, "arguments": arguments,
                                        "result_summary": row[10]})

    def begin(self, entry: AuditEntry) -> AuditEntry:
        """Record a call that is about to run (status ``pending``), synced before it runs."""
        return self.record(entry.model_copy(update={"status": AuditStatus.pending}))

    def complete(self, entry: AuditEntry, result: ToolResult) -> AuditEntry:
        """Fill in the result of the call ``begin`` recorded; the row becomes ``done``."""
        if entry.id is None:
            raise ValueError("complete() needs the entry begin() returned (with its id)")
        done = entry.model_copy(update={
            "status": AuditStatus.done, "result_ok": result.ok,
            "result_summary": summarize(result.content),
            "error_kind": None if result.error_kind is None else result.error_kind.value,
        })
        with self._writing(durable=False) as db:
            db.execute(
                "UPDATE audit_log SET status = ?, result_ok = ?, result_summary = ?,"
                " error_kind = ? WHERE id = ? AND status = ?",
                (done.status.value, int(result.ok), done.result_summary,
                 _text(done.error_kind), entry.id, AuditStatus.pending.value),
            )
        return done

    def entries(
        self,
        *,
        session_id: str | None = None,
        decision: AuditDecision | str | None = None,
        tool: str | None = None,
        since: datetime | None = None,
        limit: int | None = 100,
    ) -> list[AuditEntry]:
        """Entries matching every given filter, oldest first (the newest ``limit``)."""
        clauses, params = [], []
        for column, value in (("session_id", session_id), ("tool", tool)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        if decision is not None:
            clauses.append("decision = ?")
            params.append(AuditDecision(decision).value)
        if since is not None:
            clauses.append("ts >= ?")
            params.append(since.isoformat())
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        tail = "LIMIT ?" if limit is not None else ""
        if limit is not None:
            params.append(limit)
        query = f"SELECT * FROM (SELECT * FROM audit_log {where} ORDER BY id DESC {tail}) ORDER BY id"
        with self._lock:
            cursor = self._db.execute(query, params)
            cursor.row_factory = sqlite3.Row
            rows = cursor.fetchall()
        return [_entry(row) for row in rows]


def _redacted_finding(finding: TaintFinding) -> dict[str, Any]:
    """A finding as stored: its quoted text redacted like the arguments, its kind kept."""
    fields = finding.model_dump(mode="json")
    return {**_redact_values(fields), "kind": fields["kind"]}


def _text(value: str | None) -> str | None:
    return None if value is None else storable(value)


def _migrate(db: sqlite3.Connection) -> None:
    """Add the columns a log written by an older botpsy lacks (old rows: done, no evidence)."""
    have = {row[1] for row in db.execute("PRAGMA table_info(audit_log)")}
    for name, declaration in _ADDED_COLUMNS:
        if name not in have:
            db.execute(f"ALTER TABLE audit_log ADD COLUMN {name} {declaration}")


def _entry(row: sqlite3.Row) -> AuditEntry:
    columns = row.keys()  # an old log opened read-only lacks the newer columns
    return AuditEntry(
        id=row["id"],
        ts=datetime.fromisoformat(row["ts"]),
        session_id=row["session_id"],
        round=row["round"],
        call_id=row["call_id"],
        tool=row["tool"],
        arguments=json.loads(row["arguments"]),
        decision=AuditDecision(row["decision"]),
        reason=row["reason"],
        taint_sources=json.loads(row["taint_sources"]),
        result_ok=None if row["result_ok"] is None else bool(row["result_ok"]),
        result_summary=row["result_summary"],
        error_kind=row["error_kind"],
        status=AuditStatus(row["status"]) if "status" in columns else AuditStatus.done,
        evidence=json.loads(row["evidence"]) if "evidence" in columns else [],
    )
