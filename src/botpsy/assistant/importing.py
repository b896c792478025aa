"""What an importer reports: how many items came in, how many were already there,
and a categorised issue for each item that could not be read (the others still
come in)."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, Field


class IssueKind(str, Enum):
    """Why one item of an import was skipped or changed."""

    unreadable = "unreadable"  # the item could not be parsed at all
    missing_field = "missing_field"  # a required field (date, title, name) is absent
    bad_value = "bad_value"  # a field is present but unusable (end before start...)
    simplified = "simplified"  # imported, but something was dropped (recurrence rule...)


class ImportIssue(BaseModel):
    """One problem with one item; ``source`` says which (file, key, UID)."""

    source: str
    kind: IssueKind
    message: str


class ImportReport(BaseModel):
    """The outcome of one import."""

    imported: int = 0
    updated: int = 0
    duplicates: int = 0
    issues: list[ImportIssue] = Field(default_factory=list)

    def add_issue(self, source: str, kind: IssueKind, message: str) -> None:
        self.issues.append(ImportIssue(source=source, kind=kind, message=message))
