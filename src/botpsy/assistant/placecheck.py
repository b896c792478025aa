"""The place a request names for a new event: "haircut saturday 14:30 at Salon Kiez".

Asked that, the 135M default model booked the haircut on the right day and hours with no
location at all: the one thing the user would look up on the day was left out, and the
event is not the one asked for. ``PlaceCheck`` reads the place a request names after "at"
or "in" (``extract.places``: a name written with capitals, "in room 4.10") and holds a new
event's ``location`` to it, before the call (``agent.checks.Anticipating``) and as a
refusal of a call that leaves it out or writes another.

A new event held to a place whose request names nobody it is with is held to no attendees
as well: held to the place, the 135M model went on to invite a list of made-up names until
its tokens ran out inside the call.

A change of an event that exists is held only where the request says the event is at
that place now ("my 1:1 with priya is in room 4.10 now": ``selection.CHANGED_NOW``) or
moved to a room ("the parent-teacher meeting moved to room 3A"): a
place that only tells which event is meant ("the dinner at Luigi's moves to 8") is no
new location, and writing it would cut the one the event has.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import CHANGED_NOW, commands, creates, name_family
from botpsy.assistant.includecheck import attendee_argument
from botpsy.extract import ROOM_WORDS, places, values
from botpsy.types import ToolSpec

LOCATION = "location"
_ATTENDEE_ARGUMENTS = ("attendees",)
# A request that names someone an event is with: "with Priya", "invite Dan", an address
_NAMES_PEOPLE = re.compile(r"\b(?:with|w/|invite|inviting)\s+\w|@", re.IGNORECASE)
# "the parent-teacher meeting moved to room 3A": a new place for an event that exists
_MOVED_TO_ROOM = re.compile(r"\b(?:moved|moves|moving|changed|switched|relocated)\s+to\s+"
                            r"(?:the\s+)?" + ROOM_WORDS + r"\s+\d", re.IGNORECASE)


def asked_place(tool: str, request: str) -> str | None:
    """The one place a call of ``tool`` must write as the event's location, or None: the
    place a request that makes an event names, or the one a request says an event is at
    now; none where it names several."""
    if name_family(tool) != "event":
        return None
    if creates(tool):
        said = list(values(places(request)))
    elif tool.startswith("update"):
        said = list(values(p for clause in commands(request)
                           if CHANGED_NOW.search(clause) or _MOVED_TO_ROOM.search(clause)
                           for p in places(clause)))
    else:
        return None
    return said[0] if len(said) == 1 else None


class PlaceCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``spec_of`` gives a tool's spec by name (None for a tool it does not know)."""

    def __init__(self, spec_of: Callable[[str], ToolSpec | None]):
        self._spec_of = spec_of

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        spec = context.tool
        properties = (spec.parameters or {}).get("properties") or {}
        if LOCATION not in properties:
            return {}
        place = asked_place(spec.name, context.request)
        if place is None:
            return {}
        held: dict[str, dict[str, Any]] = {LOCATION: {"enum": [place]}}
        # nobody named, nobody invited: held to a place, the 135M model went on to invite
        # "Sara", "Lena", "Mike", "Jordan" ... until its tokens ran out inside the call
        unnamed = [arg for arg in _ATTENDEE_ARGUMENTS if arg in properties and creates(spec.name)
                   and not _NAMES_PEOPLE.search(context.request)
                   and attendee_argument(spec, context.request) is None]
        return held | {arg: {"type": "null"} for arg in unnamed}

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        spec = context.spec or self._spec_of(call.name)
        if spec is None or LOCATION not in ((spec.parameters or {}).get("properties") or {}):
            return None
        place = asked_place(call.name, context.request)
        written = call.arguments.get(LOCATION)
        if place is None or (isinstance(written, str)
                             and place.casefold() in written.casefold()):
            return None
        return Refusal(f"location {written!r} is not the place the request names: {place!r}",
                       {LOCATION: {"enum": [place]}})
