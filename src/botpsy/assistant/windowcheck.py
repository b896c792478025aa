"""Free time looked for in the part of the day the request names.

Asked to "find a free hour on thursday afternoon and block it", the 135M default model
called ``find_free_slots(day_start="Tue", day_end="Thu")``: weekdays where the tool takes
clock times. The tool refused it, the retry wrote the same, and no slot was ever found.
The request says which part of the day it means ("afternoon"), and a tool's window
arguments (``day_start``, ``day_end``) take the clock times of that part.

``WindowCheck`` holds those arguments, before the call (``agent.checks.Anticipating``) and
as a refusal, to the part the request names (or the hour from the one time it names: "am
I free friday at 11?" wrote the window 11:00 to 09:00), and to clock times (HH:MM) where it
names none. A request that names two parts, or a part in another language, is not narrowed: the
clock-time shape still holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.extract import times
from botpsy.types import ToolSpec

# The arguments that bound the window a tool looks in, and which end each is.
_ARGUMENTS = re.compile(r"^(?:day|window|search)_(?P<end>start|end)$")
# The clock times of each part of the day a request may name (a working afternoon ends at
# six; an evening is after work)
_PARTS: dict[str, tuple[str, str]] = {
    "morning": ("08:00", "12:00"),
    "afternoon": ("12:00", "18:00"),
    "evening": ("17:00", "22:00"),
}
_PART = re.compile(rf"\b(?P<part>{'|'.join(_PARTS)})s?\b", re.IGNORECASE)
_CLOCK = re.compile(r"^(?:[01]?\d|2[0-3]):[0-5]\d$")
_ONE_HOUR = timedelta(hours=1)  # the window of a time named alone: the hour from it
_CLOCK_PATTERN = "^[0-2]?[0-9]:[0-5][0-9]$"


def named_window(request: str) -> tuple[str, str] | None:
    """The clock times of the one part of the day a request names, or of the hour from
    the one time it names ("am I free friday at 11?": 11:00-12:00), or None (none, or
    several: "morning or afternoon" leaves the window to the tool's default)."""
    parts = {m["part"].lower() for m in _PART.finditer(request)}
    if parts:
        return _PARTS[parts.pop()] if len(parts) == 1 else None
    named = {f.value for f in times(request)}
    if len(named) != 1:
        return None
    start = datetime.combine(date.min, named.pop())
    end = min(start + _ONE_HOUR, datetime.combine(date.min, time(23, 59)))
    return f"{start:%H:%M}", f"{end:%H:%M}"


def window_arguments(spec: ToolSpec | None) -> dict[str, str]:
    """A tool's window arguments, each with the end it bounds ("start" or "end")."""
    properties = ((spec.parameters or {}).get("properties") or {}) if spec else {}
    return {arg: m["end"] for arg in properties if (m := _ARGUMENTS.match(arg))}


class WindowCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``spec_of`` gives a tool's spec by name (the registry's)."""

    def __init__(self, spec_of: Callable[[str], ToolSpec | None]):
        self._spec_of = spec_of

    def expected(self, context: CallContext) -> Mapping[str, Mapping[str, Any]]:
        arguments = window_arguments(context.tool)
        window = named_window(context.request)
        return {arg: _allowed(end, window) for arg, end in arguments.items()}

    def judge(self, context: CallContext) -> Refusal | None:
        arguments = window_arguments(context.spec or self._spec_of(context.call.name))
        window = named_window(context.request)
        for arg, end in arguments.items():
            value = context.call.arguments.get(arg)
            if value is None:
                continue
            if not isinstance(value, str) or not _CLOCK.match(value.strip()):
                return Refusal(f"{arg} must be a clock time (HH:MM), not {value!r}",
                               {arg: _allowed(end, window)})
            if window is not None and _minutes(value) != _minutes(_bound(end, window)):
                return Refusal(f"{arg} {value!r} is not the {end} of the part of the day the "
                               f"user named ({_bound(end, window)})",
                               {arg: _allowed(end, window)})
        return None


def _bound(end: str, window: tuple[str, str]) -> str:
    return window[0] if end == "start" else window[1]


def _allowed(end: str, window: tuple[str, str] | None) -> dict[str, Any]:
    """The schema of a window argument: the named part's bound, else any clock time."""
    if window is None:
        return {"type": "string", "pattern": _CLOCK_PATTERN}
    return {"enum": [_bound(end, window)]}


def _minutes(clock: str) -> int:
    hours, minutes = clock.strip().split(":")
    return int(hours) * 60 + int(minutes)
