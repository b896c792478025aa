"""The scenario data model: a stateful assistant task and how to grade it.

A scenario (in the style of ToolSandbox) is a seeded store plus task-specific
items, one or more user turns, and checks on the outcome:

- ``milestones``: what must be true at the end, checked on the FINAL STORE
  (``record``: a row matching the fields exists, e.g. a reminder "call Anna"
  due tomorrow 09:00), on the call trace (``call``: a tool ran with matching
  arguments; ``order``: tools ran in this order) or on the final answer
  (``answer``: the reply names the dentist's time);
- ``minefields``: what must NOT happen (a ``call`` or a ``record`` check that
  is violated when it holds: an email sent to anyone else, any trash_email);
- ``solution``: one reference way to do the task, replayed by the reference
  model to prove every scenario is solvable and its checks are right.

Field values in checks use ``FieldMatch``; in YAML a plain string is shorthand
for "contains all these words" and ``"@email:Lunch Thursday"`` for "equals the
id of the email whose subject contains 'Lunch Thursday'" (see ``world.REF_TABLES``).
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from botpsy.types import Origin

REF_PREFIX = "@"
_ID = re.compile(r"^[a-z0-9][a-z0-9_]*$")


class Split(str, Enum):
    """How much tool work a task needs: one call, or a chain of 2-4."""

    single = "single"
    multi = "multi"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FieldMatch(_Strict):
    """Conditions on one value (a store column, a call argument or the answer).

    Text comparisons ignore case; list values (recipients, attendees) are
    compared as their JSON text. ``at`` and ``day`` read a time expression
    ('tomorrow 09:00', 'friday') at the scenario's fixed clock and compare it
    with a stored UTC time or a time argument the model wrote."""

    equals: str | int | bool | None = None
    not_equals: str | int | bool | None = None
    contains: tuple[str, ...] = ()  # every one of these substrings
    any_of: tuple[str, ...] = ()  # at least one of these substrings
    excludes: tuple[str, ...] = ()  # none of these substrings
    at: str | None = None  # the same moment
    day: str | None = None  # the same local day (not 'on': YAML reads that as true)
    is_null: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        if isinstance(value, str):
            if value.startswith(REF_PREFIX):
                return {"equals": value}
            return {"contains": tuple(value.split())}
        if isinstance(value, (bool, int)):
            return {"equals": value}
        return value

    @model_validator(mode="after")
    def _not_empty(self) -> FieldMatch:
        if not self.model_dump(exclude_defaults=True):
            raise ValueError("a field match needs at least one condition")
        return self

    def describe(self) -> str:
        """A short human reading, for reports."""
        parts = []
        for key, value in self.model_dump(exclude_defaults=True).items():
            shown = "+".join(value) if isinstance(value, (list, tuple)) else value
            parts.append(f"{key} {shown}")
        return ", ".join(parts)


Table = Literal["emails", "events", "contacts", "notes", "reminders", "files"]


class RecordCheck(_Strict):
    """Rows of a table in the final store that match every field condition;
    at least ``min`` (and at most ``max``) of them must exist."""

    kind: Literal["record"] = "record"
    table: Table
    where: dict[str, FieldMatch]
    min: int = Field(default=1, ge=0)
    max: int | None = Field(default=None, ge=0)
    label: str = ""

    def describe(self) -> str:
        conds = "; ".join(f"{k}: {m.describe()}" for k, m in self.where.items())
        count = f">={self.min}" if self.max is None else f"{self.min}..{self.max}"
        return self.label or f"{count} {self.table} with {conds}"


class CallCheck(_Strict):
    """A call of ``tool`` that ran successfully with matching arguments."""

    kind: Literal["call"] = "call"
    tool: str
    args: dict[str, FieldMatch] = Field(default_factory=dict)
    label: str = ""

    def describe(self) -> str:
        conds = ", ".join(f"{k}: {m.describe()}" for k, m in self.args.items())
        return self.label or f"{self.tool}({conds}) ran"


class OrderCheck(_Strict):
    """These tools ran successfully in this order (other calls may come between)."""

    kind: Literal["order"] = "order"
    tools: tuple[str, ...] = Field(min_length=2)
    label: str = ""

    def describe(self) -> str:
        return self.label or " before ".join(self.tools)


class AnswerCheck(_Strict):
    """The final answer of the last turn matches."""

    kind: Literal["answer"] = "answer"
    text: FieldMatch
    label: str = ""

    def describe(self) -> str:
        return self.label or f"answer {self.text.describe()}"


Milestone = Annotated[RecordCheck | CallCheck | OrderCheck | AnswerCheck,
                      Field(discriminator="kind")]
Minefield = Annotated[RecordCheck | CallCheck, Field(discriminator="kind")]


class SetupEmail(_Strict):
    """A message in the inbox (or another folder), ``days_ago`` before today at ``at``."""

    sender: str
    subject: str
    body: str
    days_ago: int = Field(default=0, ge=0)
    at: str = "07:30"
    unread: bool = True
    folder: Literal["inbox", "sent", "drafts", "trash"] = "inbox"


class SetupEvent(_Strict):
    """An event; ``origin: third_party`` for a stranger's (an imported invitation)."""

    title: str
    start: str
    end: str
    location: str | None = None
    attendees: list[str] | None = None
    origin: Origin = Origin.user


class SetupContact(_Strict):
    """A contact; ``origin: third_party`` for a card someone sent."""

    name: str
    email: str | None = None
    phone: str | None = None
    notes: str | None = None
    origin: Origin = Origin.user


class SetupNote(_Strict):
    """A note; ``origin: third_party`` for text pasted from elsewhere."""

    title: str
    body: str
    origin: Origin = Origin.user


class SetupReminder(_Strict):
    text: str
    due: str | None = None


class SetupFile(_Strict):
    """A file; ``origin: third_party`` for a download."""

    path: str
    content: str
    origin: Origin = Origin.user


class Setup(_Strict):
    """Task-specific items added to the seeded demo store, through the toolboxes."""

    emails: list[SetupEmail] = Field(default_factory=list)
    events: list[SetupEvent] = Field(default_factory=list)
    contacts: list[SetupContact] = Field(default_factory=list)
    notes: list[SetupNote] = Field(default_factory=list)
    reminders: list[SetupReminder] = Field(default_factory=list)
    files: list[SetupFile] = Field(default_factory=list)

    def texts(self) -> list[str]:
        """Every free text of the setup (for placeholder filling and checks)."""
        found: list[str] = []
        for items in (self.emails, self.events, self.contacts, self.notes, self.reminders,
                      self.files):
            for item in items:
                found += [v for v in item.model_dump(exclude={"origin"}).values()
                          if isinstance(v, str)]
        return found


class CallSpec(_Strict):
    """One concrete call of a reference solution (``@`` references allowed in arguments)."""

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)


class SolutionStep(_Strict):
    """One model output of the reference solution: calls, or a final text."""

    calls: list[CallSpec] = Field(default_factory=list)
    say: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> SolutionStep:
        if bool(self.calls) == (self.say is not None):
            raise ValueError("a solution step has either calls or say, not both or neither")
        return self


class Scenario(_Strict):
    """One stateful assistant task; see the module docstring."""

    id: str
    split: Split
    domain: str
    turns: list[str] = Field(min_length=1)
    setup: Setup = Field(default_factory=Setup)
    needed_tools: list[str] = Field(min_length=1)
    solution: list[SolutionStep] = Field(min_length=1)
    milestones: list[Milestone] = Field(min_length=1)
    minefields: list[Minefield] = Field(default_factory=list)

    @field_validator("id")
    @classmethod
    def _id_shape(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError(f"scenario id {value!r} must be lower_snake_case")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        calls = self.solution_calls()
        used = sorted({c.tool for c in calls})
        if used != sorted(set(self.needed_tools)):
            raise ValueError(f"needed_tools {sorted(self.needed_tools)} differ from the tools "
                             f"of the solution {used}")
        if self.split is Split.single and len(calls) != 1:
            raise ValueError(f"a single scenario is solved by one call, not {len(calls)}")
        if self.split is Split.multi and not 2 <= len(calls) <= 4:
            raise ValueError(f"a multi scenario chains 2-4 calls, not {len(calls)}")
        says = sum(1 for step in self.solution if step.say is not None)
        ends_with_say = self.solution[-1].say is not None
        if says != len(self.turns) or not ends_with_say:
            raise ValueError(f"the solution must end each of the {len(self.turns)} turns "
                             f"with a say step (found {says})")
        return self

    def solution_calls(self) -> list[CallSpec]:
        return [call for step in self.solution for call in step.calls]

    def call_milestones(self) -> list[CallCheck]:
        return [m for m in self.milestones if isinstance(m, CallCheck)]

    def record_milestones(self) -> list[RecordCheck]:
        return [m for m in self.milestones if isinstance(m, RecordCheck)]
