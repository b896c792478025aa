"""Calls that put a date on a day the user never named.

A 135M model asked to "put a dentist appointment in my calendar on Friday from 10:00
to 11:00" writes ``start="Fri 10:00", end="Sun 11:00"``, and for "lunch tomorrow" it
writes today's date or the example date of the tool's description. Each value is a
valid time, so the tool stores it. The agent can do better: it knows what the user
wrote. ``DayCheck`` reads the days a conversation's user messages name ("Friday",
"tomorrow", "next Monday", "March 17", "2025-03-18") with the store's own parser, and
refuses a call whose ``start``, ``due`` or ``date`` falls on another day (a bare "9:00"
falls on today, as the tools read it), or whose
``end`` falls on another day and is not within 12 hours after a right start (an evening
that runs past midnight is fine). A lookup (``list_events``, ``find_free_slots``) is
refused only when its range holds none of the named days, and a value the tools cannot
read at all ("Fri, 05/06/2025", "this weekend") is refused too, so that its retry is
narrowed instead of told the tool's error and writing it again. A call that adds an
item (``add_reminder``, ``create_event``) and gives it no day at all is refused as well,
and so is one whose ``start`` or ``due`` is on a named day but at no time of day, or at
another time, when the request names times of day ("stretch today at 15:00" written as
``due="today"``: the system prompt names the day, not the time, and the tools read a
bare day as its start). A request that names no day ("in 2 hours", "at 15:00") is not checked. The refusal goes
back to the model as the call's error, and it narrows the refused argument to the named
days (``day_pattern``): the grammar of the retry of ``single_call`` mode lets the model
write only those. ``expected`` says the same before the first call of a tool that adds
an item (``agent.checks.Anticipating``), so that call is held to the named days and
times from the start instead of being refused once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta

from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import acts_on_items, user_text
from botpsy.agent.intent import latest_request, looked_up
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import creates, name_family
from botpsy.agent.several import item_clauses, own_clause
from botpsy.assistant.errors import ToolInputError
from botpsy.assistant.relative import found_due, found_event, mentions_moment, relative_moment
from botpsy.assistant.timeutil import ParsedTime, parse_end, parse_when
from botpsy.extract import (
    MONTH,
    TimeRange,
    ahead_of_now,
    day_phrases,
    is_clock_time,
    says_when,
    time_ranges,
)
from botpsy.extract import times as found_times
from botpsy.types import Message, ToolCall

_AFTER_TOMORROW = re.compile(r"\bday\s+after\s+tomorrow\b", re.IGNORECASE)
DAY_ARGUMENTS = ("start", "due", "date")
LOOKUP_DAYS = timedelta(days=7)
# How far ahead a lookup of "my meeting with Priya" (no day named) may look.
UPCOMING_DAYS = 60
# A request about the past: its lookups may look back.
_PAST = re.compile(r"\b(?:last|ago|yesterday|previous|past|earlier|did|was|were|had|"
                   r"missed|overdue)\b", re.IGNORECASE)
MAX_OVERNIGHT = timedelta(hours=12)
_CLOCK = "([01][0-9]|2[0-3]):[0-5][0-9]"
_YEAR = re.compile(r"\b\d{4}\b")
ALL_DAY = re.compile(r"\b(?:all|whole)[\s-]day\b", re.IGNORECASE)
_MONTH_NAMED = re.compile(rf"\b(?:{MONTH})\b", re.IGNORECASE)  # "jan 12", not "23rd" alone


class DayCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``tz`` and ``now`` are the store's, so days mean what the tools take them to mean."""

    def __init__(self, tz: Callable[[], ZoneInfo], now: Callable[[], datetime],
                 takes: Callable[[str], Collection[str]] | None = None):
        """``takes`` gives a tool's parameter names; with it, a new item the request dates
        must be given its day (``undated``)."""
        self._tz = tz
        self._now = now
        self._takes = takes

    def zone(self) -> ZoneInfo:
        """The store's time zone, as the tools read times."""
        return self._tz()

    def judge(self, context: CallContext) -> Refusal | None:
        call, messages = context.call, context.messages
        relative = self._relative_refusal(call, messages)
        if relative is not None:
            return relative
        undated = self.undated(call)
        if not undated and not any(isinstance(call.arguments.get(a), str)
                                   for a in (*DAY_ARGUMENTS, "end")):
            return None
        said, request = context.said, context.request
        clause = self._own_clause(call, request)
        if clause is not None:  # one of several new items: its own clause says when
            said = request = clause
        named = self.named_days(said)
        if not named:
            return (self._unasked_due(call, clause, request, messages)
                    or self._undated_at_times(undated, request)
                    or self._past_range(call, messages))
        unreadable = {arg: None for arg in (*DAY_ARGUMENTS, "end")
                      if not self._readable(call.arguments.get(arg))}
        acts = acts_on_items(call.name)
        times = named_times(said)
        wrong = {**self._untimed(call, named, start_times(request)),
                 **(self._off_days if acts else self._missed_days)(call.arguments, named),
                 **unreadable, **({undated: None} if undated else {})}
        if not wrong:
            return None if acts else self._cut_range(call.arguments, named, times, messages)
        # a lookup looks at whole days: its retry writes them, with a time or not
        return self._refusal(call.arguments, wrong, named, times if acts else None)

    @staticmethod
    def _own_clause(call: ToolCall, request: str) -> str | None:
        """The clause of the new item a call adds, when the request asks for several
        (``several.own_clause``, by the item's text or title)."""
        if not creates(call.name):
            return None
        text = next((v for arg in ("text", "title")
                     if isinstance(v := call.arguments.get(arg), str) and v.strip()), None)
        return own_clause(call.name, request, text) if text else None

    def _unasked_due(self, call: ToolCall, clause: str | None, request: str,
                     messages: list[Message]) -> Refusal | None:
        """A due given to a new item whose request says no time at all ("add a todo, no
        date: fix the bike light": ``extract.says_when``) and looked nothing up (a found
        item may say it: "read work/vendor_call.md and remind me about the next call"),
        or to one of several new items
        whose own clause names no day, time or moment ("todo: new batteries for the smoke
        alarm. oh and remind me wed 7am to take the bins out": the batteries have none):
        refused, its retry held to no due. Why: the 135M model gave both reminders the
        bins' Wednesday 7am, and a todo said to have no date one for tomorrow 9:00; a time
        nobody gave is a guess, and an item without one is still what was asked."""
        if not creates(call.name) or not isinstance(call.arguments.get("due"), str):
            return None
        if clause is None and not _time_unsaid(request, messages):
            return None
        if clause is not None and (named_times(clause) or mentions_moment(clause)):
            return None
        whose = "this item (another item's is not its own)" if clause is not None else "it"
        return Refusal(f"due {call.arguments['due']!r}: the request names no day or time for "
                       f"{whose}; leave the due out", {"due": {"type": "null"}})

    def _pending_clause(self, context: CallContext) -> tuple[str | None, bool]:
        """Before a call that adds one of several new items a request asks for: the one
        clause of those whose item no shown item of the kind has yet, and whether the
        clauses left say different days or times (then none is held before the call: which
        item it makes is the model's choice, and the call is judged by its own clause)."""
        spec = context.tool
        clauses = item_clauses(spec.name, context.request)
        if not clauses:
            return None, False
        family = name_family(spec.name)
        made = {own_clause(spec.name, context.request, item.label)
                for item in context.shown if item.family == family and item.label}
        pending = [c for c in clauses if c not in made]
        if len(pending) == 1:
            return pending[0], False
        whens = {(frozenset(self.named_days(c)), frozenset(named_times(c))) for c in pending}
        return None, len(whens) > 1

    def expected(self, context: CallContext) -> dict[str, dict[str, str]]:
        """What a call of ``spec`` must write for this check to pass, before it is made:
        for a tool that adds an item, its ``start`` or ``due`` on a day the user named (at
        a time the latest request names, when it names any), its ``end`` on such a day,
        the day after (an evening past midnight) or a bare time, at one of the request's
        times when it names two or more ("from 9:00 to 9:30"), as a refused call's retry
        is held. Nothing when the user named no day, or the tool adds nothing."""
        spec, messages = context.tool, context.messages
        properties = (spec.parameters or {}).get("properties") or {}
        if not acts_on_items(spec.name):
            return self._expected_range(properties, messages)
        if not creates(spec.name):
            return {}
        moment = self.relative(messages)
        if moment is not None:
            return {arg: {"enum": [f"{moment:%Y-%m-%dT%H:%M}"]}
                    for arg in ("start", "due") if arg in properties}
        said, request = context.said, context.request
        clause, differ = self._pending_clause(context)
        if differ:
            return {}
        if clause is not None:
            said = request = clause
            if not self.named_days(clause) and not named_times(clause):
                # its own clause names no time: another item's is not its own
                return {"due": {"type": "null"}} if "due" in properties else {}
        named = self.named_days(said)
        if not named and "due" in properties and _time_unsaid(request, messages):
            return {"due": {"type": "null"}}  # no time said: none guessed (``_unasked_due``)
        if not named:
            coming = self.coming_times(request)
            return {arg: {"enum": coming} for arg in ("start", "due")
                    if arg in properties and coming}
        times, starts, span = named_times(request), start_times(request), one_span(request)
        if ALL_DAY.search(request) and not times:
            return self._whole_days(named, properties)
        held: dict[str, dict[str, str]] = {}
        for arg in ("start", "due"):
            if arg in properties:
                held[arg] = {"pattern": day_pattern(named, timed=bool(times), times=starts)}
        if "end" in properties and "start" in held:
            overnight = named | {day + timedelta(days=1) for day in named}
            # "2-4pm": its end; "from 9:00 to 9:30" (two times apart): one of those
            ends = ({f"{span.end:%H:%M}"} if span is not None
                    else times if len(times) >= 2 else set())
            held["end"] = {"pattern": day_pattern(overnight, bare_time=True, times=ends)}
        return held

    @staticmethod
    def _whole_days(named: set[date], properties: Collection[str]) -> dict[str, dict[str, str]]:
        """A new item the request says lasts all day: its start a named day and its end
        that day or the next, with no time of day (the calendar makes such an event an
        all-day one). Why: "mark dec 24 to 26 as xmas at mums, all day" was booked from
        14:00 to 16:00."""
        held = {arg: {"pattern": day_pattern(named, whole=True)} for arg in ("start", "due")
                if arg in properties}
        if "end" in properties and "start" in held:
            held["end"] = {"pattern": day_pattern(
                named | {day + timedelta(days=1) for day in named}, whole=True)}
        return held

    def _expected_range(self, properties: Collection[str], messages: list[Message]
                        ) -> dict[str, dict[str, str]]:
        """A lookup's range before it is made: the named days themselves when the user
        named any (narrower than the check, which passes any range that holds one: "What
        do I have tomorrow?" was listed from today to Friday), else from today on, unless
        the request asks about the past (``upcoming``).
        Why: asked to "find my meeting with Priya", a 135M model listed a day of 2025
        (its training data's), found nothing, and the action after it had no item."""
        if "start" not in properties and "date" not in properties:
            return {}
        today = self._now().astimezone(self._tz()).date()
        named = self.named_days(user_text(messages))
        if named:  # the named days themselves ("What do I have tomorrow?": tomorrow)
            starts = ends = named
        elif self.upcoming(messages):
            starts, ends = {today}, _days(today, today + timedelta(days=UPCOMING_DAYS))
        else:
            return {}
        # whole days: a range cut at a time of day the model made up ("Sunday" listed
        # from 00:00 to 15:00) missed the 18:00 dinner the request was about
        held = ({"start": {"pattern": day_pattern(starts, times={"00:00"})}}
                if "start" in properties else {})
        if "date" in properties:
            held["date"] = {"pattern": day_pattern(named or starts)}
        if "end" in properties and "start" in held:
            held["end"] = {"pattern": day_pattern(ends, whole=True)}
        return held

    def coming_times(self, request: str) -> list[str]:
        """The moments a request that names times of day but no day means: each time's
        next showing on the clock, today or tomorrow ("remind me at 8 to ..." at 09:00:
        08:00 tomorrow), as ISO text in order; none where the request counts from another
        item ("30 minutes before my 3pm call": not 15:00 itself)."""
        if mentions_moment(request):
            return []
        now = self._now().astimezone(self._tz())
        moments = []
        for clock in sorted(named_times(request)):
            moment = self.parse(f"next {clock}")
            if moment is not None and moment.value > now:
                moments.append(f"{moment.value:%Y-%m-%dT%H:%M}")
        return moments

    def _undated_at_times(self, undated: str | None, request: str) -> Refusal | None:
        """A new item given no day or time, for a request that names a time of day but no
        day ("at 8 remind me to ..."): refused, its retry held to that time's next showing."""
        coming = self.coming_times(request) if undated else []
        if not coming:
            return None
        return Refusal(f"the call gives no {undated}, and the request names a time "
                       f"({', '.join(coming)}); write it", {undated: {"enum": coming}})

    def _cut_range(self, arguments: dict, named: set[date], times: set[str],
                   messages: list[Message]) -> Refusal | None:
        """A lookup of a named day cut at a time of day the request does not name: refused,
        its retry held to whole days. "Make sunday dinner start at 5 instead of 6" was
        listed from 00:00 to 15:00, and the 18:00 dinner was not found."""
        cut = []
        for arg in ("start", "end"):
            parsed = self.parse(arguments.get(arg))
            if (parsed is not None and not parsed.date_only and parsed.value.date() in named
                    and f"{parsed.value:%H:%M}" not in {*times, "00:00"}):
                cut.append(f"{arg} {arguments[arg]!r}")
        if not cut:
            return None
        return Refusal(f"{' and '.join(cut)} cuts the day at a time the request does not "
                       "name; look at the whole day", self._expected_range(arguments, messages))

    def _past_range(self, call: ToolCall, messages: list[Message]) -> Refusal | None:
        """A lookup whose whole range lies before today, for a request about what is coming
        (``upcoming``): refused, its retry held to a range from today on."""
        if acts_on_items(call.name) or not self.upcoming(messages):
            return None
        today = self._now().astimezone(self._tz()).date()
        start = self.parse(call.arguments.get("start") or call.arguments.get("date"))
        if start is None or start.value.date() >= today:
            return None
        end = self._parse_end(call.arguments.get("end"), start.value)
        last = end.date() if end is not None else start.value.date() + LOOKUP_DAYS
        if last >= today:
            return None
        narrow = self._expected_range(call.arguments.keys(), messages)
        return Refusal(f"the range from {start.value.date().isoformat()} lies in the past, and "
                       f"the request asks about what is coming (today is {today.isoformat()}); "
                       "look from today on", narrow)

    def upcoming(self, messages: list[Message]) -> bool:
        """Whether a request that names no day asks about what is coming (not "last
        week", "did I", "yesterday")."""
        request = latest_request(messages)
        return not self.named_days(user_text(messages)) and not _PAST.search(request)

    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        """A new item whose time the request fixes relative to an event ("half an hour
        before my dentist appointment") needs the event looked up first, until a lookup
        has shown it (``agent.checks.Prerequisite``)."""
        spec, messages = context.tool, context.messages
        if not creates(spec.name) or not mentions_moment(context.request):
            return ()
        found = found_event(messages, self._tz()) or found_due(messages, self._tz())
        return () if found is not None else ("event",)

    def relative(self, messages: list[Message]) -> datetime | None:
        """The moment the latest request fixes relative to the event a lookup found ("an
        hour before it", "the evening before at 8pm"; ``assistant.relative``), or to the day
        a found item says a thing is due ("2 days before its due": ``found_due``), or None."""
        request = latest_request(messages)
        event = found_event(messages, self._tz())
        due = found_due(messages, self._tz()) if event is None else None
        # no event: the day a found item says a thing is due ("2 days before its due")
        start = event.start if event is not None else due
        moment = relative_moment(request, start) if start is not None else None
        return moment or self._from_now(request)

    def _from_now(self, request: str) -> datetime | None:
        """The moment a request that names no day counts from now ("remind me in 2 hours":
        ``extract.ahead_of_now``), to the minute, or None. Why: the 135M model wrote the
        tool description's example date for it, a day of 2025."""
        ahead = ahead_of_now(request)
        if not ahead or self.named_days(request) or mentions_moment(request):
            return None
        now = self._now().astimezone(self._tz()).replace(second=0, microsecond=0)
        return now + ahead[0].value

    def _relative_refusal(self, call: ToolCall, messages: list[Message]) -> Refusal | None:
        """A new item's start or due that is not the moment the request fixes relative to
        the item it looked up: refused, and its retry held to that moment."""
        if not creates(call.name):
            return None
        moment = self.relative(messages)
        if moment is None:
            return self._unfound_moment(call, messages)
        wrong = {}
        for arg in ("start", "due"):
            parsed = self.parse(call.arguments.get(arg))
            if arg in call.arguments and (parsed is None or parsed.value != moment):
                wrong[arg] = call.arguments[arg]
        if not wrong:
            return None
        when = f"{moment:%Y-%m-%dT%H:%M}"
        found = " and ".join(f"{arg} {value!r}" for arg, value in wrong.items())
        return Refusal(f"{found} is not the time the request asks for, counted from the item "
                       f"the lookup found or from now: {when}",
                       {arg: {"enum": [when]} for arg in wrong})

    def _unfound_moment(self, call: ToolCall, messages: list[Message]) -> Refusal | None:
        """A new item timed from another that no lookup found ("remind me an hour before
        the benefits enrollment closes", after a calendar search found nothing), where the
        request names no day or time of its own: its start or due can only be made up.
        Why: the 135M model then wrote "tomorrow 9:00", a reminder at a time nobody asked."""
        request = latest_request(messages)
        timed = [arg for arg in ("start", "due") if call.arguments.get(arg) is not None]
        if (not timed or not mentions_moment(request) or not looked_up(messages)
                or self.named_days(request) or named_times(request)):
            return None
        return Refusal(f"the request times it from an item no lookup found, so its {timed[0]} "
                       "would be made up: find that item first, or say it could not be found")

    def _untimed(self, call: ToolCall, named: set[date], times: set[str]) -> dict[str, ParsedTime]:
        """The start or due of a call that adds an item, on a named day but at none of the
        times of day the latest request names (or at no time at all); earlier requests'
        times are other items'."""
        if not times or not creates(call.name):
            return {}
        wrong = {}
        for arg in ("start", "due"):
            parsed = self.parse(call.arguments.get(arg))
            if parsed is not None and parsed.value.date() in named and (
                    parsed.date_only or f"{parsed.value:%H:%M}" not in times):
                wrong[arg] = parsed
        return wrong

    def undated(self, call: ToolCall) -> str | None:
        """The day argument (``due``, ``start``) of a call that adds an item
        (``add_*``, ``create_*``) and leaves it out: "remind me Saturday at 11" added a
        reminder with no due at all. None when the call gives a day or takes none."""
        if self._takes is None or not creates(call.name):
            return None
        if any(call.arguments.get(arg) is not None for arg in (*DAY_ARGUMENTS, "end")):
            return None
        takes = self._takes(call.name)
        return next((arg for arg in ("due", "start") if arg in takes), None)

    def _off_days(self, arguments: dict, named: set[date]) -> dict[str, ParsedTime | None]:
        """An act's start, due, date or end that falls on a day the user did not name."""
        wrong: dict[str, ParsedTime | None] = {}
        start = None
        for arg in DAY_ARGUMENTS:
            parsed = self.parse(arguments.get(arg))
            if parsed is None:
                continue
            start = start or parsed.value
            if parsed.value.date() not in named:
                wrong[arg] = parsed
        end = self._parse_end(arguments.get("end"), start)
        overnight = (start is not None and start.date() in named
                     and end is not None and timedelta(0) < end - start <= MAX_OVERNIGHT)
        if end is not None and end.date() not in named and not overnight:
            wrong["end"] = ParsedTime(end, False)
        if wrong and "end" in arguments and "end" not in wrong and start is not None:
            wrong["end"] = ParsedTime(start, False)  # it follows a wrong start: narrowed too
        return wrong

    def _missed_days(self, arguments: dict, named: set[date]) -> dict[str, ParsedTime | None]:
        """A lookup's days when its range holds none the user named: "What's on my
        calendar on Friday?" looked at Sunday. A wider range that holds the day passes (the
        week from today holds Friday); ``date`` is one day, and a range without an end runs
        ``LOOKUP_DAYS`` (``list_events``'s default)."""
        parsed = {arg: self.parse(arguments.get(arg)) for arg in DAY_ARGUMENTS}
        first = parsed["date"] or parsed["start"] or parsed["due"]
        if first is None:
            return {}
        end = self._parse_end(arguments.get("end"), first.value)
        if parsed["date"] is not None:
            last = first.value.date()
        else:
            last = end.date() if end is not None else first.value.date() + LOOKUP_DAYS
        if any(first.value.date() <= day <= last for day in named):
            return {}
        wrong: dict[str, ParsedTime | None] = {a: p for a, p in parsed.items() if p is not None}
        if end is not None:
            wrong["end"] = ParsedTime(end, True)
        return wrong

    def _readable(self, value: object) -> bool:
        """Whether the tools read ``value`` as a day or a time (absent counts as readable:
        the tool's default applies)."""
        if not isinstance(value, str) or not value.strip() or is_clock_time(value):
            return True
        return self.parse(value) is not None

    def named_days(self, text: str) -> set[date]:
        """The days the user's words name, read as the tools read them."""
        days = set()
        if _AFTER_TOMORROW.search(text):  # "tomorrow" in it is not the day meant
            days.add((self._now().astimezone(self._tz()) + timedelta(days=2)).date())
            text = _AFTER_TOMORROW.sub(" ", text)
        today = self._now().astimezone(self._tz()).date()
        past = bool(_PAST.search(text))
        for phrase in day_phrases(text):
            parsed = self.parse(phrase.text)
            if parsed is not None:
                days.add(parsed.value.date() if past else coming(phrase.text, parsed.value.date(),
                                                                today))
        return days

    def parse(self, value: object) -> ParsedTime | None:
        """``value`` read as the tools read a day or time, or None when they cannot."""
        if not isinstance(value, str) or not value.strip():
            return None  # a bare time of day is read too: the tools put it on today
        try:
            return parse_when(value, tz=self._tz(), now=self._now())
        except ToolInputError:
            return None  # unreadable: the tool itself refuses it, with its own message

    def _parse_end(self, value: object, start: datetime | None) -> datetime | None:
        if not isinstance(value, str) or start is None or is_clock_time(value):
            return None  # a bare end time falls on the start's day
        try:
            return parse_end(value, start=start, tz=self._tz(), now=self._now()).value
        except ToolInputError:
            return None

    @staticmethod
    def _refusal(
        arguments: dict, wrong: dict[str, ParsedTime | None], named: set[date],
        times: set[str] | None,
    ) -> Refusal:
        """Every argument off the named days, in one refusal that narrows them all (a retry
        that fixes the start alone would keep a wrong end, or write a wrong one). A start
        that had a time of day keeps one, one of the times the request names if it names
        any (a bare date start with a clock end is an error of its own); a start or due
        that had none gets one of the named times; an end too, when the request names two
        or more. A lookup's (``times`` None) are days, with or without a time."""
        days = ", ".join(f"{d:%A} {d.isoformat()}" for d in sorted(named))
        off = " and ".join(
            f"{arg} {arguments[arg]!r} falls on {when.value:%A} {when.value.date().isoformat()}"
            for arg, when in wrong.items() if when is not None and when.value.date() not in named)
        unread = " and ".join(f"{arg} {arguments[arg]!r}" for arg, when in wrong.items()
                              if when is None and arg in arguments)
        clock = ", ".join(sorted(times or ()))
        untimed = " and ".join(
            f"{arg} {arguments[arg]!r} is at {'no time of day' if when.date_only else f'{when.value:%H:%M}'}"
            for arg, when in wrong.items() if when is not None and when.value.date() in named)
        missing = " and ".join(arg for arg, when in wrong.items() if arg not in arguments)
        found = "; ".join([*([f"{off}, a day the request does not name"] if off else []),
                           *([f"{untimed}, not a time the request names ({clock})"]
                             if untimed and clock else []),
                           *([f"{unread} is no day or time the tools can read"] if unread else []),
                           *([f"the call gives no {missing}"] if missing else [])])
        reason = f"{found} (it names {days}); write the day {'and time ' if untimed else ''}the user said"
        if times is None:
            return Refusal(reason, {arg: {"pattern": day_pattern(named)} for arg in wrong})
        narrow = {}
        for arg, when in wrong.items():
            end = arg == "end"
            # an end is one of the named times only when there are two ("from 9 to 9:30"):
            # "at 9 for an hour" names no end time
            allowed = times if not end or len(times) >= 2 else set()
            # a start or due written without a time ("today") gets one when the request
            # names one ("tomorrow at 9am"); a ``date`` argument stays a day; an unreadable
            # value keeps a time only when the request names one
            had_time = when is not None and not when.date_only
            timed = had_time or (bool(allowed) and arg in ("start", "due"))
            if timed and len(named) == 1 and len(allowed) == 1:
                # one day at one time: one value, which a retry held to it needs no model for
                narrow[arg] = {"enum": [f"{next(iter(named)).isoformat()}T{next(iter(allowed))}"]}
                continue
            pattern = day_pattern(named, bare_time=end, timed=timed, times=allowed)
            narrow[arg] = {"pattern": pattern}
        return Refusal(reason, narrow)



def _time_unsaid(request: str, messages: list[Message]) -> bool:
    """Whether a new item's time is nobody's to give: the request says no time at all
    (``extract.says_when``) and nothing was looked up this turn (a found item may say it).
    The first call is held to no due and a due written anyway is refused, on this one
    reading."""
    return not says_when(request) and not looked_up(messages)


def coming(phrase: str, day: date, today: date) -> date:
    """The day a date said without its year (or month) means in a request about what is
    to come: its next showing ("jan 12" in December is next January's, "on the 3rd" after
    the 3rd next month's), not the one gone by, as the tools read it. Why: "dentist
    cleaning jan 12 at 10:15, stick it in the calendar" was held to a day of this year,
    eleven months past."""
    if day >= today or _YEAR.search(phrase) or not any(c.isdigit() for c in phrase):
        return day
    return day + (relativedelta(years=1) if _MONTH_NAMED.search(phrase) else relativedelta(months=1))


def _days(first: date, last: date) -> set[date]:
    """Every day from ``first`` to ``last``, both included."""
    return {first + timedelta(days=n) for n in range((last - first).days + 1)}


def one_span(text: str) -> TimeRange | None:
    """The one span of the clock a text names as one phrase ("2-4pm"), or None when it
    names none or several (``extract.time_ranges``)."""
    spans = time_ranges(text)
    return spans[0].value if len(spans) == 1 else None


def start_times(text: str) -> set[str]:
    """The times of day a start may be at: every time the text names but the end of its
    one span ("block thursday 2-4pm": 14:00, never 16:00)."""
    span = one_span(text)
    ends = {f"{span.end:%H:%M}"} if span is not None else set()
    return named_times(text) - ends


def named_times(text: str) -> set[str]:
    """The times of day a text names, as "HH:MM" ("9am" -> "09:00", "7.30 pm" -> "19:30";
    a bare "at 5" is 17:00 and "at 9" 09:00: ``extract.bare_hour``)."""
    return {f"{found.value:%H:%M}" for found in found_times(text)}


def day_pattern(
    named: set[date], *, bare_time: bool = False, timed: bool = False, times: set[str] = frozenset(),
    whole: bool = False,
) -> str:
    """A JSON-schema ``pattern`` for a value on one of the ``named`` days, in ISO form with
    a time of day (optional unless ``timed``; one of ``times`` when given; an ``end`` may
    also be a bare time, on the start's day; none at all when ``whole``, the day itself):
    what the retry's grammar lets the model write for a refused day."""
    days = "|".join(d.isoformat() for d in sorted(named))
    if whole:
        return f"^({days})$"
    clock = f"({'|'.join(sorted(times))})(:00)?" if times else f"{_CLOCK}(:[0-5][0-9])?"
    if bare_time:
        return f"^(({days})[T ])?{clock}$"
    return f"^({days})[T ]{clock}$" if timed else f"^({days})([T ]{clock})?$"
