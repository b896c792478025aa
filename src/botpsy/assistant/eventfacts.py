"""An event's facts that a message passes on: "email nora what time we're meeting on saturday
and where".

Asked so, the 135M default model looked Nora up and sent her her own contact card ("climbing
partner, Saturdays"): the time and the place it was asked for were never looked up. They are
no free text: they are the start and the location of the one event the request names (by
its day, else by its words).

``EventFactsCheck`` reads which facts the request asks for ("what time", "when"; "where",
"with the address"), has the events looked up first (``agent.checks.Prerequisite``), and
holds the text of the message or item made (``includecheck.text_argument``) to one that
holds them, refusing a call that left one out. What a held or refused call may write is one
sentence that tells them ("Bouldering with Nora: Sat 12 Dec at 10:00, at Boulderhalle
Nord."): held to the facts alone by a pattern, the model filled the space around them with
the refusal's own words. A message the request dictates in its own words is left to the
intent check, which holds it to them, unless it asks for the facts besides ("..., with the
address": its words, then the sentence).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import best_fitting, words
from botpsy.agent.intent import MESSAGE_TOOLS, carries_more, dictated
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import CONTACT_FIELD, creates, name_family
from botpsy.assistant.daycheck import DayCheck
from botpsy.assistant.includecheck import text_argument
from botpsy.assistant.relative import moment
from botpsy.formats.grammar import pattern_literal
from botpsy.types import ToolSpec

_WHEN = re.compile(r"\bwhat\s+time\b|\bwhen\s+(?:we|we're|were|it|is|does|do|and\s+where)\b|"
                   r"\b(?:with|and|plus|incl\w*)\s+the\s+time\b|\bthe\s+details\b"
                   r"|\bthe\s+(?:time|date)\s+of\b", re.IGNORECASE)
# "email jamie the address of thursday's lunch with jonas": the place of the event named after
_WHERE = re.compile(r"\bwhere\b|\b(?:which|what)\s+room\b"
                    r"|\b(?:with|and|plus|incl\w*)\s+the\s+(?:address|location|venue)\b"
                    r"|\bthe\s+details\b|\bthe\s+(?:address|location|venue|place)\s+of\b",
                    re.IGNORECASE)
# more for the message to say than the facts: "... and ask if i should bring dessert"
_MORE = re.compile(r"\b(?:and|also|then)\s+(?:ask|asking|tell|say|saying|mention|let)\b",
                   re.IGNORECASE)


@dataclass(frozen=True)
class Told:
    """What a message must tell of an event: the facts as written ("10:00"), and one
    sentence that tells them."""

    facts: tuple[str, ...]
    sentence: str
    title: str = ""


def _telling(told: Told, request: str) -> dict[str, Any]:
    """What the text may be: the sentence alone, or, where the request has more for the
    message to say ("... and ask if i should bring dessert"), the sentence and then that;
    where it dictates the message and asks it to carry the facts too ("... that I'll meet
    him at the lunch place on thursday, with the address"), its words and then the sentence."""
    meant = dictated(request)
    if meant is not None:
        return {"enum": [f"{meant.body} {told.sentence}"]}
    if _MORE.search(request):
        return {"pattern": "^" + pattern_literal(told.sentence) + r'[^"\\]{0,160}$'}
    return {"enum": [told.sentence]}


_MAX_FACT = 80  # characters of a place or title told in a message


# A fact the request asks a new note to keep: "save the place in a new note", "jot down the
# time", "put the address in a note"
_KEPT = re.compile(r"\b(?:save|put|write|jot|note|keep|stick|copy|add)\s+(?:down\s+)?"
                   r"(?:the|its|that)\s+(?:(?P<where>place|address|location|venue|spot)|"
                   r"(?P<when>time|date))\b", re.IGNORECASE)


def asked_facts(request: str) -> tuple[str, ...]:
    """The event fields a request asks a message (or a note: ``_KEPT``) to tell:
    ``start``, ``location``."""
    if any(m.group("owner_of") for m in CONTACT_FIELD.finditer(request)):
        return ()  # "the address of my dentist": a person's, in the contacts
    kept = _KEPT.search(request)
    return tuple(field for field, asked, group in (("start", _WHEN, "when"),
                                                   ("location", _WHERE, "where"))
                 if asked.search(request) or (kept and kept.group(group)))


class EventFactsCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``days`` reads the days a request names as the tools do; ``spec_of`` gives a tool's
    spec by name (None for a tool it does not know)."""

    def __init__(self, days: DayCheck, spec_of: Callable[[str], ToolSpec | None]):
        self._days = days
        self._spec_of = spec_of

    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        if not self._asks(context.tool, context.request):
            return ()
        shown = any(family == "event" for family, _ in context.id_objects)
        return () if shown else ("event",)

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        arg = text_argument(context.tool)
        told = self._told(context) if self._asks(context.tool, context.request) else None
        if arg is None or told is None:
            return {}
        held = {arg: _telling(told, context.request)}
        properties = (context.tool.parameters or {}).get("properties") or {}
        if "subject" in properties and told.title:
            held["subject"] = {"enum": [told.title]}
        return held

    def judge(self, context: CallContext) -> Refusal | None:
        spec = context.spec or self._spec_of(context.call.name)
        if spec is None or not self._asks(spec, context.request):
            return None
        arg, told = text_argument(spec), self._told(context)
        if arg is None or told is None:
            return None
        written = context.call.arguments.get(arg)
        if isinstance(written, str) and all(f.casefold() in written.casefold() for f in told.facts):
            return None
        return Refusal(f"the request asks to tell {', '.join(told.facts)}: write it into {arg}",
                       {arg: _telling(told, context.request)})

    @staticmethod
    def _asks(spec: ToolSpec, request: str) -> bool:
        """Whether a message is asked to tell an event's facts, or a new note to keep
        them ("save the place in a new note"). Nothing else: "Where is Thursday's offsite?
        Remind me at 9 to leave for it" asks the answer where, not the reminder; a message
        the request dictates only when it asks for them besides its words
        (``intent.carries_more``: "..., with the address")."""
        if creates(spec.name) and name_family(spec.name) == "note":
            # a new note asked to keep a fact: "where am I having lunch with jonas? save
            # the place in a new note called Restaurants" (the model wrote the attendee)
            return text_argument(spec) is not None and bool(_KEPT.search(request))
        return (spec.name in MESSAGE_TOOLS and text_argument(spec) is not None
                and bool(asked_facts(request))
                and (dictated(request) is None or carries_more(request)))

    def _told(self, context: CallContext) -> Told | None:
        """The asked fields of the one event the request names ("10:00", "Boulderhalle
        Nord") and the sentence that tells them; None when no one event fits or it lacks
        a field asked for."""
        event = self._event(context)
        if event is None:
            return None
        start = moment(event.get("start"), self._days.zone())
        location = str(event.get("location") or "").strip()
        if "\n" in location or len(location) > _MAX_FACT:
            location = ""  # no place: a stranger's invitation may hold its note there
        asked = asked_facts(context.request)
        if ("start" in asked and start is None) or ("location" in asked and not location):
            return None
        title = str(event.get("title") or "").strip()
        if "\n" in title or len(title) > _MAX_FACT:
            title = ""  # no title to pass on either: a stranger's invitation may hold a note there
        facts, parts = [], [title or "The event"]
        if "start" in asked and start is not None:
            facts.append(f"{start:%H:%M}")
            parts.append(f"{start:%a %d %b} at {start:%H:%M}")
        if "location" in asked:
            facts.append(location)
            parts.append(f"at {location}")
        return Told(tuple(facts), f"{parts[0]}: {', '.join(parts[1:])}.", title)

    def _event(self, context: CallContext) -> dict | None:
        """The one shown event on the day the request names, else the one whose words fit
        it best."""
        events = {obj["id"]: obj for family, obj in context.id_objects if family == "event"}
        days = self._days.named_days(context.request)
        zone = self._days.zone()
        on_day = [e for e in events.values()
                  if (start := moment(e.get("start"), zone)) and start.date() in days]
        if len(on_day) == 1:
            return on_day[0]
        pool = {e["id"] for e in on_day} if on_day else set(events)
        items = [i for i in context.shown if i.family == "event" and i.id in pool]
        fitting = best_fitting(items, words(context.request))
        return events[fitting[0].id] if len(fitting) == 1 else None
