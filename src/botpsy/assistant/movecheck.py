"""Changes to an event that change what the request asked for, and keep the rest.

Told "Lunch with Jonas moves to 13:00" or "the dentist thing next Monday, make it 9
instead", a 135M model found the right event and then wrote ``update_event`` with the
event's own start and end, or with the title alone: a valid call that changes nothing,
reported as "Changed in your calendar". Asked to rename an event "Q3 planning", it wrote
the old title back.

``MoveCheck`` reads what the latest request fixes for an event a lookup showed:

- a new time of day ("to 13:00", "make it 9", "pushed to 4": a bare hour is the one
  nearest the event's old time) on the event's own day, or on the day the request
  names; or a move by a length ("push it back an hour", "30 minutes earlier":
  ``extract.shifts``); the end keeps the event's length, unless the request names a new
  length ("an hour and a half instead of an hour");
- a new title the user put in quotes after "rename" or "call it", or after "rename ... to".

It refuses an update of that event that does not write those values, and narrows the
retry to them (``agent.checks.Refusal``); ``expected`` holds the first call after the
lookup to them (``agent.checks.Anticipating``). A request that fixes none of them is
not checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from botpsy.agent.checks import Refusal
from botpsy.agent.intent import latest_request
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import QUOTED
from botpsy.assistant.daycheck import DayCheck, named_times
from botpsy.assistant.durationcheck import named_durations
from botpsy.assistant.relative import FoundEvent, found_event, shown_events
from botpsy.extract import new_name, shifts
from botpsy.types import Message

# The new time: "to 13:00", "make it 9", "pushed to 4pm" (not "to 4 people", "for 2 hours")
_TARGET = re.compile(
    r"\b(?:to|at|make it|until|till)\s+(?P<h>\d{1,2})(?:[:.](?P<m>[0-5]\d))?"
    r"(?:\s*(?P<half>am|pm))?\b(?!\s*(?:min|h\b|hours?|hrs?|people|persons|%))", re.IGNORECASE)
# "same end time", "keep the end": the start moves, the end stays
_SAME_END = re.compile(r"\bsame end\b|\bkeep(?:ing)? the end\b|\bend (?:time )?stays\b",
                       re.IGNORECASE)
_RENAME = re.compile(r"\b(?:rename|call it|retitle|change the (?:name|title))\b", re.IGNORECASE)
_UPDATE_TOOLS = ("update_event",)


@dataclass(frozen=True)
class Change:
    """What the request fixes for one event: its new start and end, its new title."""

    event_id: int
    start: datetime | None = None
    end: datetime | None = None
    title: str | None = None

    def arguments(self) -> dict[str, str]:
        found = {}
        if self.start is not None and self.end is not None:
            found = {"start": f"{self.start:%Y-%m-%dT%H:%M}", "end": f"{self.end:%Y-%m-%dT%H:%M}"}
        if self.title is not None:
            found["title"] = self.title
        return found


class MoveCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring."""

    def __init__(self, tz: Callable[[], ZoneInfo], now: Callable[[], datetime],
                 days: DayCheck | None = None):
        """``days``: the deployment's day check, whose reading of days and times this check
        shares (one of its own when none is given)."""
        self._tz = tz
        self._days = days or DayCheck(tz, now)

    def expected(self, context: CallContext) -> dict[str, dict[str, list]]:
        spec, messages = context.tool, context.messages
        if spec.name not in _UPDATE_TOOLS:
            return {}
        event = found_event(messages, self._tz()) or self._at_named_time(messages)
        change = self.change(event, messages) if event is not None else None
        if change is None:
            return {}
        held: dict[str, dict[str, list]] = {"event_id": {"enum": [event.id]}}
        return held | {arg: {"enum": [value]} for arg, value in change.arguments().items()}

    def _at_named_time(self, messages: list[Message]) -> FoundEvent | None:
        """The one shown event that starts at a time of day the request names, on a day
        it names if it names one ("my 3pm on Friday got pushed to 4"): an item found by
        when it is, not by its words."""
        request = latest_request(messages)
        times, days = named_times(request), self._days.named_days(request)
        at = [e for e in shown_events(messages, self._tz())
              if f"{e.start:%H:%M}" in times and (not days or e.start.date() in days)]
        return at[0] if len(at) == 1 else None

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        if call.name not in _UPDATE_TOOLS:
            return None
        events = {e.id: e for e in shown_events(context.messages, self._tz())}
        event_id = call.arguments.get("event_id")
        # an id the model wrote as a list or an object names no event (and is unhashable)
        event = events.get(event_id) if isinstance(event_id, int | str) else None
        change = self.change(event, context.messages) if event is not None else None
        if change is None:
            return None
        wanted = change.arguments()
        wrong = {arg: value for arg, value in wanted.items()
                 if not self._same(arg, call.arguments.get(arg), value)}
        kept = (change.start is not None and change.end is not None
                and change.end - change.start == event.end - event.start)
        if kept and "start" not in wrong and call.arguments.get("end") is None:
            wrong.pop("end", None)  # update_event keeps the length of an event moved by its start
        if not wrong:
            return None
        said = ", ".join(f"{arg} {value!r}" for arg, value in wrong.items())
        return Refusal(f"the call does not make the change the request asks for: it needs "
                       f"{said}", {arg: {"enum": [value]} for arg, value in wrong.items()})

    def _same(self, arg: str, written: object, wanted: str) -> bool:
        """Whether a written value is the wanted one, read as the tools read it ("thursday
        19:30" is 19:30 on Thursday)."""
        if not isinstance(written, str):
            return False
        if arg == "title":
            return written.strip() == wanted
        parsed = self._days.parse(written)
        return parsed is not None and f"{parsed.value:%Y-%m-%dT%H:%M}" == wanted

    def change(self, event: FoundEvent, messages: list[Message]) -> Change | None:
        """What the latest request fixes for ``event``, or None when it fixes nothing."""
        request = latest_request(messages)
        start = self._new_start(event, request)
        length = event.end - event.start
        lengths = named_durations(request)
        if lengths and _RESIZE.search(request):
            # "half an hour longer": the old length and that much more; "make it 2 hours":
            # the new length
            by = _LONGER.search(request) or _SHORTER.search(request)
            sign = 0 if by is None else 1 if by.re is _LONGER else -1
            length = length + sign * lengths[0] if sign else lengths[0]
            start = start or event.start
        title = _new_title(request)
        if start is None and title is None:
            return None
        end = start + length if start else None
        if start is not None and _SAME_END.search(request):  # "same end time"
            end = event.end.replace(year=start.year, month=start.month, day=start.day)
        return Change(event.id, start, end, title)

    def _new_start(self, event: FoundEvent, request: str) -> datetime | None:
        """The event's new start: the request's time of day on the day it names (else the
        event's own day)."""
        days = self._days.named_days(request)
        day = min(days) if len(days) == 1 else event.start.date()
        times = named_times(request)
        targets = list(_TARGET.finditer(request))
        moved = shifts(request)
        if targets:  # the time it goes to, not the one it had ("my 3pm ... pushed to 4")
            target = targets[-1]
            hour, minute = int(target.group("h")), int(target.group("m") or 0)
            half = (target.group("half") or "").lower()
            hour = hour % 12 + (12 if half == "pm" else 0) if half else _nearest(
                hour, event.start.hour) if target.group("m") is None else hour
        elif len(moved) == 1:  # "push my 3pm back an hour": the 3pm names the event
            return event.start + moved[0].value
        elif len(times) == 1:
            hour, minute = map(int, next(iter(times)).split(":"))
        elif days and day != event.start.date():
            hour, minute = event.start.hour, event.start.minute
        else:
            return None
        if hour > 23:
            return None
        return event.start.replace(year=day.year, month=day.month, day=day.day, hour=hour,
                                   minute=minute)


# "an hour and a half instead of an hour", "make it 2 hours", "extend it to 90 minutes"
_RESIZE = re.compile(r"\b(?:instead|longer|shorter|extend|shorten|make (?:it|the \w+)|"
                     r"\w+ to \d+\s*(?:min|h))", re.IGNORECASE)


# a length said as a change of the old one: "half an hour longer", "15 min shorter"
_LONGER = re.compile(r"\b(?:longer|more)\b", re.IGNORECASE)
_SHORTER = re.compile(r"\b(?:shorter|less)\b", re.IGNORECASE)


def _new_title(request: str) -> str | None:
    if not _RENAME.search(request):
        return None
    quoted = [m.group(2) for m in QUOTED.finditer(request)]
    # unquoted, the name after "rename ... to" ("rename the quarterly review to Q4
    # all-hands": the model wrote the old title back)
    return quoted[-1] if len(quoted) >= 1 else new_name(request)


def _nearest(hour: int, old: int) -> int:
    """A bare hour ("pushed to 4") as the clock hour nearest the old one: 16 after 15:00,
    9 after 08:30."""
    if hour > 12:
        return hour
    return min((hour, hour + 12), key=lambda h: abs(h - old))




