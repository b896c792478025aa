"""Events as long as the user said, and free slots of the length asked for.

Asked to "add a haircut on Saturday at 15:00 for 45 minutes", the 135M default model
writes ``start="Saturday 15:00", end="17:00"``; asked for "a free hour tomorrow", it
calls ``find_free_slots(duration_minutes=8)``; a "30-minute call at 15:00" ended at
20:00. Each value is valid, so the calendar stores a two-hour haircut. The request
says how long: ``DurationCheck`` reads the one length it names ("for 45 minutes",
"30-minute", "two hours", "an hour", "half an hour"; not "in 2 hours", "15 minutes
before", which say when) and refuses a call whose ``end`` is not that long after its
``start``, or whose ``*_minutes`` argument is another number. The refusal narrows the
argument to the one right value (``agent.checks.Refusal``), so the retry's grammar can
write nothing else. A start on a day the request does not name is left to the
``DayCheck``: an end computed from it would be wrong too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import acts_on_items
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.assistant.daycheck import DayCheck
from botpsy.assistant.errors import ToolInputError
from botpsy.assistant.timeutil import parse_end, parse_when
from botpsy.extract import durations, values

MINUTE_ARGUMENTS = re.compile(r"^(?:duration(?:_minutes)?|minutes|length_minutes)$")


def named_durations(text: str) -> list[timedelta]:
    """The lengths a text names, each once, in order ("in 2 hours" is a time, not one:
    ``extract.durations``)."""
    return list(values(durations(text)))


class DurationCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``tz`` and ``now`` are the store's, so times mean what the tools take them to mean."""

    def __init__(self, tz: Callable[[], ZoneInfo], now: Callable[[], datetime]):
        self._tz = tz
        self._now = now
        self._days = DayCheck(tz, now)

    def judge(self, context: CallContext) -> Refusal | None:
        call, said = context.call, context.said
        lengths = named_durations(said)
        if len(lengths) != 1:
            return None  # none, or several that a rule cannot pair with the calls
        (length,) = lengths
        minutes = round(length.total_seconds() / 60)
        for arg, value in call.arguments.items():
            if (MINUTE_ARGUMENTS.match(arg) and isinstance(value, int | float)
                    and value != minutes):
                return Refusal(f"{arg} {value!r} is not the {minutes} minutes the user asked for",
                               {arg: {"enum": [minutes]}})
        if not acts_on_items(call.name):
            return None
        return self._end(call.arguments, length, self._days.named_days(said))

    def _end(self, arguments: dict, length: timedelta, named: set) -> Refusal | None:
        """A start and end that are not ``length`` apart: the end narrowed to the right one."""
        start, end = arguments.get("start"), arguments.get("end")
        if not isinstance(start, str) or not isinstance(end, str):
            return None
        try:
            begin = parse_when(start, tz=self._tz(), now=self._now())
            finish = parse_end(end, start=begin.value, tz=self._tz(), now=self._now())
        except ToolInputError:
            return None  # unreadable: the DayCheck or the tool says so
        if begin.date_only or (named and begin.value.date() not in named):
            return None  # a whole day, or a wrong day the DayCheck refuses
        if finish.value - begin.value == length:
            return None
        right = begin.value + length
        allowed = [right.strftime("%Y-%m-%dT%H:%M")]
        if right.date() == begin.value.date():
            allowed.append(right.strftime("%H:%M"))
        return Refusal(f"end {end!r} is not {_spoken(length)} after start {start!r}, as the "
                       f"user asked; it ends at {right:%H:%M}", {"end": {"enum": allowed}})


def _spoken(length: timedelta) -> str:
    """A length in words: "45 minutes", "2 hours", "1 hour 30 minutes"."""
    hours, minutes = divmod(round(length.total_seconds() / 60), 60)
    parts = [f"{hours} hour{'s' * (hours != 1)}"] if hours else []
    parts += [f"{minutes} minute{'s' * (minutes != 1)}"] if minutes else []
    return " ".join(parts)
