"""A value the request asks a new item to carry: "with the number in it", "grab nora's
number and stick it in a new note".

Asked to "look up Priya's phone number and make a reminder at 5 today to call her, with
the number in it", the 135M default model found the number and wrote the reminder "Call
Priya's phone number": the one thing the user asked to have at hand was left out.

``IncludeCheck`` reads what the latest request asks to include ("with the number in it",
"with her email", "include his phone number") and, once a lookup showed exactly one
contact with that field, holds the text of the item made (a reminder's ``text``, a note's
or message's ``body``, an event's ``description``) to one that contains it: before the
call (``agent.checks.Anticipating``), and as a refusal of a call that left it out.

An email asked onto an invite ("put her email on the invite", "add mum to the sunday
dinner as a guest") goes into the event's attendees instead: a new event's list is that
address, an updated event's list is the one it had plus that address (the tool replaces
the list). Asked so, the 135M model wrote the event without any attendee.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.intent import MESSAGE_TOOLS
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import commands, creates, joined_kinds
from botpsy.extract import digits
from botpsy.formats.grammar import pattern_literal
from botpsy.types import ToolSpec

# "with the number in it", "with her email", "include his phone number", "and add her address"
_ASKED = re.compile(
    r"\b(?:with|include|including|plus|add|put)\s+(?:the|his|her|their|its|[\w-]+['\u2019]s)\s+"
    r"(?P<field>(?:phone\s+|mobile\s+)?number|phone|mobile|e-?mail(?:\s+address)?)\b",
    re.IGNORECASE)
# A contact's field the request takes and puts into what it makes: "grab nora's number and
# stick it in a new note", "save his email in a note", "put mum's number into the reminder"
_FIELD = r"((?:phone\s+|mobile\s+)?number|phone|mobile|e-?mail(?:\s+address)?)"
_OWNER = r"(?:his|her|their|[\w-]+['\u2019]s)"
_PUTS = r"(?:put|stick|save|add|write|copy|paste|jot|keep|store|drop)"
_CARRIED = re.compile(
    rf"\b{_OWNER}\s+{_FIELD}\b[^.;?!]*?\b{_PUTS}\s+(?:it|that|this|them)\s+(?:down\s+)?"
    rf"(?:in|into|on|onto|to)\b|\b{_PUTS}\s+{_OWNER}\s+{_FIELD}\s+(?:down\s+)?"
    r"(?:in|into|on|onto|to)\b", re.IGNORECASE)
# Where an item made holds free text, by tool argument name, in order of preference.
_TEXT_ARGUMENTS = ("text", "body", "description")


# "as a guest", "as an attendee", "on the invite": a person invited, by their address
_AS_GUEST = re.compile(r"\bas\s+(?:a|an|our|my)?\s*(?:guest|attendee|invitee)s?\b"
                       r"|\b(?:on|to|in)\s+the\s+invit(?:e|ation)\b", re.IGNORECASE)
# Where an event holds the people invited, by tool argument name.
ATTENDEE_ARGUMENTS = ("attendees", "participants", "invitees", "guests")


def asked_field(request: str) -> str | None:
    """The contact field a request asks to include ("phone" or "email"), or None."""
    match = _ASKED.search(request) or _CARRIED.search(request)
    if match is None:
        # "add Dan to the quarterly review on friday": a person joined to an event is
        # invited by their address, as "as a guest" says
        joined = any("event" in joined_kinds(clause) for clause in commands(request))
        return "email" if _AS_GUEST.search(request) or joined else None
    field = next(f for f in match.groups() if f)  # the alternative that matched
    return "email" if "mail" in field.lower() else "phone"


def attendee_argument(spec: ToolSpec, request: str) -> str | None:
    """The argument of an event tool that an address the request asks onto the invite goes
    into, or None (no such argument, or the request asks for no address there)."""
    if text_argument(spec) is not None or asked_field(request) != "email":
        return None
    properties = (spec.parameters or {}).get("properties") or {}
    return next((arg for arg in ATTENDEE_ARGUMENTS if arg in properties), None)


def text_argument(spec: ToolSpec) -> str | None:
    """The argument that holds the text of what ``spec`` makes, or None."""
    if not (creates(spec.name) or spec.name in MESSAGE_TOOLS):
        return None
    properties = (spec.parameters or {}).get("properties") or {}
    return next((arg for arg in _TEXT_ARGUMENTS if arg in properties), None)


class IncludeCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``spec_of`` gives a tool's spec by name (None for a tool it does not know)."""

    def __init__(self, spec_of: Callable[[str], ToolSpec | None]):
        self._spec_of = spec_of

    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        """The contact whose field the request asks to include, until a lookup showed one
        ("remind me ... to call my brother, and put his number in the reminder")
        (``agent.checks.Prerequisite``)."""
        spec = context.tool
        if asked_field(context.request) is None or (
                text_argument(spec) is None and attendee_argument(spec, context.request) is None):
            return ()
        shown = any(family == "contact" for family, _ in context.id_objects)
        return () if shown else ("contact",)

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        spec = context.tool
        value = self._value(context)
        arg = text_argument(spec)
        if value is None:
            return {}
        if arg is not None:
            return {arg: {"pattern": containing(value)}}
        invited = attendee_argument(spec, context.request)
        if invited is None or not creates(spec.name):
            return {}  # an update's list is the event's own plus the address: judged below
        return {invited: {"enum": [[value]]}}

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        spec = context.spec or self._spec_of(call.name)
        if spec is None:
            return None
        value = self._value(context)
        if value is None:
            return None
        arg = text_argument(spec)
        if arg is not None:
            written = call.arguments.get(arg)
            if isinstance(written, str) and _holds(written, value):
                return None
            return Refusal(f"the request asks for {value!r} in it: write it into {arg}",
                           {arg: {"pattern": containing(value)}})
        invited = attendee_argument(spec, context.request)
        if invited is None:
            return None
        written = call.arguments.get(invited)
        if isinstance(written, list) and any(_holds(str(w), value) for w in written):
            return None
        listed = [*attendees_of(context, call.arguments.get("event_id")), value]
        return Refusal(f"the request invites {value!r}: write it into {invited}",
                       {invited: {"enum": [list(dict.fromkeys(listed))]}})

    @staticmethod
    def _value(context: CallContext) -> str | None:
        """The one shown contact's value of the field the request asks to include."""
        field = asked_field(context.request)
        if field is None:
            return None
        values = {str(obj[field]) for family, obj in context.id_objects
                  if family == "contact" and isinstance(obj.get(field), str) and obj[field]}
        return values.pop() if len(values) == 1 else None


def attendees_of(context: CallContext, event_id: object) -> list[str]:
    """The attendees a lookup showed for the event ``event_id`` (none for a new event)."""
    for family, obj in context.id_objects:
        if family == "event" and obj.get("id") == event_id and isinstance(obj.get("attendees"), list):
            return [str(a) for a in obj["attendees"]]
    return []


def _holds(text: str, value: str) -> bool:
    """Whether ``text`` holds ``value``; a phone number by its digits."""
    if "@" in value:
        return value.lower() in text.lower()
    return digits(value) in digits(text)


def containing(value: str) -> str:
    """A JSON-schema pattern of a one-line JSON string that contains ``value``."""
    # bounded: a grammar that lets a small model write freely before the value let it
    # write on until its token budget ran out, the value never written
    free = r'[^"\\]{0,40}'
    return f"^{free}{pattern_literal(value)}{free}$"
