"""Grade one held-out run from the store's change set and the final reply (pure functions).

A case passes when every expected change is found in the store's diff, no other change
was made (when the case says ``no_other_changes``), and every answer fact holds in the
final reply. Changes that no expectation claims are the run's *junk side effects*, a
figure of their own: a lookup that also created a contact is a wrong answer and an
unwanted write, and the second is the worse failure.

Bookkeeping columns (``BOOKKEEPING``) are left out of the diff: reading an email flips
its ``unread`` flag, which is the tool's documented behaviour and not a change the user
would see as a side effect; ids, timestamps of creation and per-item origin are the
store's own.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import Enum
from typing import Any

from pydantic import BaseModel, Field

from botpsy.assistant.demo_content import USER_TIMEZONE
from botpsy.assistant.timeutil import from_db, zone
from botpsy.evals.heldout.cases import Change, HeldoutCase, Matcher
from botpsy.evals.scenarios.world import StateDiff, TableChange

BOOKKEEPING = frozenset({"unread", "created_at", "updated_at", "uid", "message_id", "origin"})


class Op(str, Enum):
    insert = "insert"
    update = "update"
    delete = "delete"


class RowChange(BaseModel):
    """One row (or file) the run inserted, updated or deleted, with its columns as now."""

    table: str
    op: Op
    key: str  # the row's id, or the file's path
    row: dict[str, Any] = Field(default_factory=dict)

    def label(self) -> str:
        return f"{self.op.value} {self.table} {self.key}"


class CaseGrade(BaseModel):
    """The verdict on one case: what held, what did not, and the junk changes."""

    case_id: str
    case_class: str
    passed: bool
    missing_changes: list[str] = Field(default_factory=list)  # expectations not found
    junk_changes: list[str] = Field(default_factory=list)  # changes nobody asked for
    missing_facts: list[list[str]] = Field(default_factory=list)
    error: str | None = None


def row_changes(changes: StateDiff, before_rows: dict[str, dict[Any, dict[str, Any]]]
                ) -> list[RowChange]:
    """The diff as one list of row changes, without rows that changed only in
    bookkeeping columns. ``before_rows``: table -> key -> row before the run."""
    found: list[RowChange] = []
    for table, change in changes.tables.items():
        found += _table_changes(table, change, before_rows.get(table, {}))
    return found


def _table_changes(table: str, change: TableChange, before: dict[Any, dict[str, Any]]
                   ) -> list[RowChange]:
    key = "path" if table == "files" else "id"
    out = [RowChange(table=table, op=Op.insert, key=str(r[key]), row=r) for r in change.added]
    out += [RowChange(table=table, op=Op.delete, key=str(r[key]), row=r) for r in change.removed]
    for row in change.changed:
        old = before.get(row[key], {})
        if any(old.get(c) != v for c, v in row.items() if c not in BOOKKEEPING):
            out.append(RowChange(table=table, op=Op.update, key=str(row[key]), row=row))
    return out


def matches(matcher: Matcher, value: Any) -> bool:
    """Whether a stored value satisfies one FORMAT.md matcher."""
    kind = matcher.kind
    if kind == "is_null":
        return (value is None) == bool(matcher.is_null)
    if kind == "equals":
        return value == matcher.equals or str(value) == str(matcher.equals)
    text = _text(value).lower()
    if kind == "contains_all":
        return all(w.lower() in text for w in matcher.contains_all or [])
    if kind == "contains_any":
        return any(w.lower() in text for w in matcher.contains_any or [])
    moment = _local(value)
    if moment is None:
        return False
    if kind == "local_time":
        return moment.strftime("%Y-%m-%dT%H:%M") == matcher.local_time
    return moment.date() == date.fromisoformat(matcher.local_date or "")


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(_text(v) for v in value)
    return "" if value is None else str(value)


def _local(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return from_db(value).astimezone(zone(USER_TIMEZONE))
    except ValueError:
        return None


def _fits(expected: Change, change: RowChange) -> bool:
    if change.table != expected.table or change.op.value != expected.op:
        return False
    if expected.op != "insert":
        wanted = expected.path if expected.table == "files" else str(expected.id)
        if change.key != wanted:
            return False
    return all(matches(m, change.row.get(column)) for column, m in expected.fields.items())


def grade_case(case: HeldoutCase, changes: list[RowChange], reply: str,
               error: str | None = None) -> CaseGrade:
    """Grade a run: each expectation claims the first unclaimed change that fits it;
    the changes left over are junk."""
    left = list(changes)
    missing: list[str] = []
    for expected in case.expect_changes:
        hit = next((c for c in left if _fits(expected, c)), None)
        if hit is None:
            missing.append(_describe(expected))
        else:
            left.remove(hit)
    junk = [c.label() for c in left] if case.no_other_changes else []
    lowered = reply.lower()
    facts = [alts for alts in case.answer_facts if not any(a.lower() in lowered for a in alts)]
    passed = error is None and not missing and not junk and not facts
    return CaseGrade(case_id=case.id, case_class=case.case_class.value, passed=passed,
                     missing_changes=missing, junk_changes=junk, missing_facts=facts,
                     error=error)


def _describe(expected: Change) -> str:
    target = expected.path or (expected.id if expected.id is not None else "")
    return f"{expected.op} {expected.table} {target}".strip()
