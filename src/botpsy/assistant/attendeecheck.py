"""The people a new event lists: only those the request names or a lookup showed.

Asked to "find a free hour on thursday afternoon and block it for tax paperwork", the
135M default model made the event with the attendee "tax paperwork": what the time is
for, listed as a person. An attendee nobody named is a junk part of the event (and, in a
calendar that sends invitations, a stranger's inbox). ``AttendeeCheck`` refuses a new
event whose attendees hold one that is neither an address the conversation shows nor a
name the request gives as a person ("with jonas", "invite Priya and Dan", a capitalised
name) or a lookup showed (a contact's name), and narrows the retry to the people named,
or to none.
"""

from __future__ import annotations

import re
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import NOT_NAMES, STOPWORDS, creates, name_family
from botpsy.assistant.addresscheck import shown_addresses
from botpsy.assistant.includecheck import ATTENDEE_ARGUMENTS, attendees_of
from botpsy.extract import WHEN_WORDS
from botpsy.types import ToolCall

# who an event is with, as the request says it: "with jonas", "w/ Priya and Dan", "invite Sam"
_WITH = re.compile(r"\b(?:with|w/|invite|inviting|invited|and|&)\s+(?P<who>[\w'\u2019-]+"
                   r"(?:\s+[A-Z][\w'\u2019-]*)?)", re.IGNORECASE)
# a capitalised word that does not open a sentence: a name ("lunch on friday with Priya")
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z\u00e0-\u00ff'\u2019-]+\b")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")


def named_people(request: str) -> set[str]:
    """The words a request names people by, lower-cased: those after "with", "invite" or
    "and" that are no day, time or filler word, and capitalised words past its start."""
    found = set()
    for match in _WITH.finditer(request):
        found |= {w.lower().removesuffix("'s") for w in _WORD.findall(match["who"])}
    found |= {m.group().lower().removesuffix("'s") for m in _NAME.finditer(request.strip())}
    return {w for w in found if w not in STOPWORDS and w not in WHEN_WORDS
            and w not in NOT_NAMES}


def _shown_names(context: CallContext) -> set[str]:
    """The words of the names the tool results showed (a contact's, a sender's)."""
    names = set()
    for _family, obj in context.objects:
        for key in ("name", "sender"):
            if isinstance(obj.get(key), str):
                names |= {w.lower() for w in _WORD.findall(obj[key].split("<")[0])}
    return names


# whom an event is with, as the request writes them: "with jonas", "w/ Priya and Dan",
# "invite Jonas Weber" (a second word is the name's when it is capitalised: the rest of
# the pattern reads case-blind, this part does not, so "with jonas on the 15th" is Jonas)
_PERSON = r"[\w'\u2019-]+(?:\s+[A-Z][\w'\u2019-]*)?"
_WITH_PEOPLE = re.compile(r"(?i:\b(?:with|w/|invite|inviting|invited))\s+"
                          r"(?P<who>" + _PERSON + r"(?:\s*(?:,|(?i:and)|&)\s+" + _PERSON + r")*)")
_JOIN = re.compile(r"\s*(?:,|\b(?i:and)\b|&)\s+")
# words after "with" that name a group or no one, not a person to list
_NO_ONE = frozenset({"everyone", "everybody", "anyone", "anybody", "someone", "somebody",
                     "people", "team", "family", "friends", "folks", "colleagues", "others",
                     "all", "nobody"})


def with_people(request: str) -> list[str]:
    """The people a request says an event is with, as written ("45 mins with jonas" ->
    ["jonas"], "lunch w/ Priya and Dan" -> ["Priya", "Dan"]), none of them a day, time,
    filler word or group ("with the team", "with everyone")."""
    found: list[str] = []
    for match in _WITH_PEOPLE.finditer(request):
        for who in _JOIN.split(match["who"]):
            who = who.strip().removesuffix("'s").removesuffix("\u2019s")
            words = [w.lower() for w in _WORD.findall(who)]
            if words and not any(w in STOPWORDS or w in WHEN_WORDS or w in NOT_NAMES
                                 or w in _NO_ONE for w in words):
                found.append(who)
    return list(dict.fromkeys(found))


def _listed_argument(call: ToolCall) -> str | None:
    """The argument of ``call`` that lists the event's people, where it writes a list."""
    return next((a for a in ATTENDEE_ARGUMENTS if isinstance(call.arguments.get(a), list)), None)


class AttendeeCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    Before a new event (``agent.checks.Anticipating``), where no lookup showed anyone, its
    attendees are held to the people the request says it is with (``with_people``): asked
    to "set up 45 mins with jonas on the 15th", the 135M model left Jonas out."""

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        spec = context.tool
        if name_family(spec.name) != "event" or not creates(spec.name):
            return {}
        properties = (spec.parameters or {}).get("properties") or {}
        arg = next((a for a in ATTENDEE_ARGUMENTS if a in properties), None)
        if arg is None or _shown_names(context) or shown_addresses(context):
            return {}  # whom a lookup showed: the model's choice, which judge() holds
        people = with_people(context.request)
        return {arg: {"enum": [people]}} if people else {}

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        if name_family(call.name) != "event":
            return None
        if not creates(call.name):
            return self._changed_list(context)
        arg = _listed_argument(call)
        if arg is None:
            return None
        people = named_people(context.request) | _shown_names(context)
        addresses = set(shown_addresses(context))
        strangers = [p for p in call.arguments[arg] if isinstance(p, str) and p.strip()
                     and p.strip().lower() not in addresses
                     and not {w.lower() for w in _WORD.findall(p)} <= people]
        if not strangers:
            return None
        kept = [p for p in call.arguments[arg] if p not in strangers]
        narrow = ({"type": "array", "items": {"enum": kept}, "maxItems": len(kept)} if kept
                  else {"type": "null"})
        return Refusal(f"{arg} {strangers[0]!r} is no one the request names or a lookup "
                       "showed; list only the people the event is with", {arg: narrow})

    @staticmethod
    def _changed_list(context: CallContext) -> Refusal | None:
        """A change of an event that lists someone it did not list, the request does not
        name and no contact lookup showed. Why: asked that "the parent-teacher meeting
        moved to room 3A", the 135M model also set its attendees to Priya, whom another
        event a search showed lists. The retry leaves the list as it is."""
        call = context.call
        arg = _listed_argument(call)
        if arg is None:
            return None
        had = {a.strip().lower() for a in attendees_of(context, call.arguments.get("event_id"))}
        # a contact a lookup showed is someone to add ("add mum to the sunday dinner")
        had |= {str(obj[key]).strip().lower() for family, obj in context.objects
                if family == "contact" for key in ("email", "name") if obj.get(key)}
        people = named_people(context.request)
        strangers = [p for p in call.arguments[arg] if isinstance(p, str) and p.strip()
                     and p.strip().lower() not in had
                     and not {w.lower() for w in _WORD.findall(p.split("<")[0])} & people]
        if not strangers:
            return None
        return Refusal(f"{arg} {strangers[0]!r} is no one the event lists or the request names; "
                       "leave the event's people as they are", {arg: {"type": "null"}})
