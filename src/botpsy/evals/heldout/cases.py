"""The held-out request set: its cases, as written in ``data/heldout/FORMAT.md``.

The set (``fresh_requests.jsonl``) was written blind, by someone who saw only the tool
list and the demo data, so it measures the assistant on wording nobody here tuned for.
It is for measuring only: never train or tune on it (a test checks that no training
sample shares a request with it).

    from botpsy.evals.heldout.cases import load_cases
    cases = load_cases(limit=3)
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, model_validator

HELDOUT_FILE = "fresh_requests.jsonl"
# Cases left out of the scored set, and why. Each was found by the tests that no training
# sample or dev request shares a request with the set (tests/evals/heldout/): a request the
# model was trained on, or the agent developed against, measures nothing about new wording.
EXCLUDED: dict[str, str] = {
    "f104": "its request is word for word a user turn of the smol recipe's synthetic SFT data "
            "(seed 0), on which the shipped botpsy-smol was trained",
    "f066": "its request is word for word one of the project's tuned request sets (the "
            "everyday requests or a scenario turn), which the agent was developed against",
    "f132": "its request is, but for one word, dev request d134, which the agent was "
            "developed against (found when a third dev set held it word for word)",
}
# Monday 2026-12-07 09:00 in Berlin: the moment every request is made, and the day the
# demo store is seeded around (``botpsy init --demo --today 2026-12-07``).
HELDOUT_TODAY = date(2026, 12, 7)
HELDOUT_NOW = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)


class CaseClass(str, Enum):
    """What kind of request a case is; the report gives one figure per class."""

    create = "create"
    lookup = "lookup"
    two_step = "two_step"
    no_side_effect = "no_side_effect"
    edit = "edit"


class Matcher(BaseModel):
    """One check of a column's value; exactly one key is set."""

    equals: Any = None
    contains_all: list[str] | None = None
    contains_any: list[str] | None = None
    local_time: str | None = None  # YYYY-MM-DDTHH:MM, Europe/Berlin
    local_date: str | None = None  # YYYY-MM-DD, Europe/Berlin
    is_null: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _one_key(cls, data: Any) -> Any:
        if not isinstance(data, dict) or len(data) != 1:
            raise ValueError(f"a matcher has exactly one key, got {data!r}")
        return data

    @property
    def kind(self) -> str:
        return next(iter(self.model_fields_set))


class Change(BaseModel):
    """A store change a request must cause."""

    table: Literal["reminders", "events", "notes", "contacts", "emails", "files"]
    op: Literal["insert", "update", "delete"]
    id: int | None = None
    path: str | None = None
    fields: dict[str, Matcher] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _names_its_row(self) -> Change:
        if self.op != "insert" and self.table != "files" and self.id is None:
            raise ValueError(f"{self.op} of {self.table} needs an id")
        if self.op != "insert" and self.table == "files" and self.path is None:
            raise ValueError(f"{self.op} of a file needs a path")
        return self


class HeldoutCase(BaseModel):
    """One request, the store changes it must cause and the facts its reply must hold."""

    id: str
    case_class: CaseClass = Field(alias="class")
    request: str
    expect_changes: list[Change] = Field(default_factory=list)
    no_other_changes: bool = True
    answer_facts: list[list[str]] = Field(default_factory=list)

    model_config = {"populate_by_name": True}


class HeldoutDataError(ValueError):
    """A line of the set that does not fit FORMAT.md (its line number says which)."""


def default_path() -> Path:
    return Path(str(resources.files("botpsy.evals") / "data" / "heldout" / HELDOUT_FILE))


def load_cases(path: Path | None = None, *, limit: int | None = None,
               classes: list[str] | None = None, every: int = 1,
               include_excluded: bool = False) -> list[HeldoutCase]:
    """The cases in ``path`` (default: the shipped set, without ``EXCLUDED``), in file
    order; ``classes`` keeps only those classes, ``every`` every Nth case of each class
    (a smaller sample with every class in it), ``limit`` the first N after that."""
    if every < 1:
        raise ValueError(f"every must be >= 1, got {every}")
    source = path or default_path()
    if not source.is_file():
        raise FileNotFoundError(f"no held-out set at {source}")
    cases: list[HeldoutCase] = []
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            cases.append(HeldoutCase.model_validate_json(line))
        except ValidationError as exc:
            raise HeldoutDataError(f"{source}:{number}: {exc}") from None
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        raise HeldoutDataError(f"{source}: case ids repeat")
    if path is None and not include_excluded:
        cases = [c for c in cases if c.id not in EXCLUDED]
    if classes:
        wanted = {CaseClass(c) for c in classes}
        cases = [c for c in cases if c.case_class in wanted]
    if every > 1:
        seen: dict[CaseClass, int] = {}
        kept = []
        for case in cases:
            seen[case.case_class] = seen.get(case.case_class, -1) + 1
            if seen[case.case_class] % every == 0:
                kept.append(case)
        cases = kept
    return cases[:limit] if limit is not None else cases
