"""Milestone and minefield checks: pure functions of a saved episode and final store.

``Matcher`` reads a ``FieldMatch`` against one value (a store column, a call
argument, the answer); ``evaluate`` grades any check kind against a
``CheckContext`` (final store snapshot, call trace, final answer, resolved
references) and returns a ``CheckResult`` with a detail line a person can act on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel

from botpsy.assistant.timeutil import from_db, parse_when, zone
from botpsy.evals.scenarios.schema import (
    AnswerCheck,
    CallCheck,
    FieldMatch,
    OrderCheck,
    RecordCheck,
)
from botpsy.evals.scenarios.trace import CallRecord
from botpsy.evals.scenarios.world import EVAL_NOW, EVAL_TIMEZONE, StoreState, WorldError

Check = RecordCheck | CallCheck | OrderCheck | AnswerCheck


class CheckResult(BaseModel):
    """The verdict on one milestone or minefield."""

    kind: str
    label: str
    passed: bool
    detail: str = ""


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class Matcher:
    """Reads field matches at the episode's clock, zone and references."""

    refs: Mapping[str, int] = field(default_factory=dict)
    now: datetime = EVAL_NOW
    timezone: str = EVAL_TIMEZONE

    def moment(self, value: Any) -> datetime | None:
        """A stored UTC time or a time expression as an aware datetime (None if neither)."""
        if not isinstance(value, str) or not value.strip():
            return None
        try:
            return from_db(value)
        except ValueError:
            pass
        try:
            return parse_when(value, tz=zone(self.timezone), now=self.now).value
        except ValueError:
            return None

    def _day(self, value: Any) -> date | None:
        moment = self.moment(value)
        return None if moment is None else moment.astimezone(zone(self.timezone)).date()

    def _equals(self, value: Any, expected: str | int | bool) -> bool:
        if isinstance(expected, str) and expected in self.refs:
            expected = self.refs[expected]
        if isinstance(expected, bool):
            return str(value).strip().lower() in {str(expected).lower(), str(int(expected))}
        if isinstance(expected, int):
            try:
                return int(str(value).strip()) == expected
            except ValueError:
                return False
        return str(value).strip().lower() == expected.strip().lower()

    def value(self, match: FieldMatch, value: Any) -> bool:
        """Whether ``value`` meets every condition of ``match``."""
        if match.is_null is not None and (value in (None, "")) != match.is_null:
            return False
        if value is None:  # only "is null" and "excludes" can hold for a missing value
            return not any((match.equals is not None, match.not_equals is not None,
                            match.contains, match.any_of, match.at, match.day))
        if match.equals is not None and not self._equals(value, match.equals):
            return False
        if match.not_equals is not None and self._equals(value, match.not_equals):
            return False
        text = _text(value).lower()
        if any(part.lower() not in text for part in match.contains):
            return False
        if match.any_of and not any(part.lower() in text for part in match.any_of):
            return False
        if any(part.lower() in text for part in match.excludes):
            return False
        if match.at is not None and (self.moment(value) is None
                                     or self.moment(value) != self.moment(match.at)):
            return False
        return match.day is None or (self._day(value) is not None
                                    and self._day(value) == self._day(match.day))

    def call(self, check: CallCheck, name: str, arguments: Mapping[str, Any]) -> bool:
        """Whether a call (name + arguments) is the one ``check`` describes."""
        return name == check.tool and all(
            self.value(m, arguments.get(key)) for key, m in check.args.items())


@dataclass(frozen=True)
class CheckContext:
    """Everything a check may look at."""

    state: StoreState
    calls: list[CallRecord]
    final_text: str
    matcher: Matcher = field(default_factory=Matcher)


def matching_rows(check: RecordCheck, ctx: CheckContext) -> list[dict[str, Any]]:
    """The rows of the final store that meet every condition of ``check``."""
    rows = ctx.state.rows(check.table)
    columns = ctx.state.columns(check.table)
    unknown = sorted(set(check.where) - columns) if rows else []
    if unknown:
        raise WorldError(f"{check.table} has no column {', '.join(unknown)}; "
                         f"columns: {', '.join(sorted(columns))}")
    return [r for r in rows
            if all(ctx.matcher.value(m, r.get(col)) for col, m in check.where.items())]


def _record(check: RecordCheck, ctx: CheckContext) -> CheckResult:
    found = matching_rows(check, ctx)
    ok = len(found) >= check.min and (check.max is None or len(found) <= check.max)
    shown = [{"id": r.get("id", r.get("path")), **{c: r.get(c) for c in check.where}}
             for r in found[:3]]
    return CheckResult(kind="record", label=check.describe(), passed=ok,
                       detail=f"{len(found)} matching row(s) {_text(shown)[:400]}")


def _call(check: CallCheck, ctx: CheckContext) -> CheckResult:
    ran = [c for c in ctx.calls if c.ran]
    hits = [c for c in ran if ctx.matcher.call(check, c.name, c.arguments)]
    if hits:
        return CheckResult(kind="call", label=check.describe(), passed=True,
                           detail=f"{len(hits)} matching call(s)")
    same = [c for c in ctx.calls if c.name == check.tool]
    detail = ("no call of " + check.tool if not same else
              "calls of the tool did not match or did not run: "
              + "; ".join(f"{_text(c.arguments)} -> {c.decision.value}" for c in same[:3]))
    return CheckResult(kind="call", label=check.describe(), passed=False, detail=detail)


def _order(check: OrderCheck, ctx: CheckContext) -> CheckResult:
    names = [c.name for c in ctx.calls if c.ran]
    position = 0
    for name in names:
        if position < len(check.tools) and name == check.tools[position]:
            position += 1
    ok = position == len(check.tools)
    return CheckResult(kind="order", label=check.describe(), passed=ok,
                       detail="ran: " + (" > ".join(names) or "nothing"))


def _answer(check: AnswerCheck, ctx: CheckContext) -> CheckResult:
    ok = ctx.matcher.value(check.text, ctx.final_text)
    shown = " ".join(ctx.final_text.split())[:160]
    return CheckResult(kind="answer", label=check.describe(), passed=ok, detail=f"answer: {shown}")


def evaluate(check: Check, ctx: CheckContext) -> CheckResult:
    """Grade one check; as a minefield it is violated when ``passed`` is True."""
    if isinstance(check, RecordCheck):
        return _record(check, ctx)
    if isinstance(check, CallCheck):
        return _call(check, ctx)
    if isinstance(check, OrderCheck):
        return _order(check, ctx)
    return _answer(check, ctx)


def proposed_matches(check: CallCheck, ctx: CheckContext) -> list[CallRecord]:
    """Calls matching ``check`` that were proposed but did not run (near misses of a minefield)."""
    return [c for c in ctx.calls if not c.ran and ctx.matcher.call(check, c.name, c.arguments)]
