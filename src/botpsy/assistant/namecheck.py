"""A new contact's whole name, where the request writes it.

Asked to "add Ana Costa to my contacts, ana.costa@mailbox.example - she's Mia's swim
coach", the 135M default model saved the contact "ana": a card nobody can tell from the
next Ana, and not the one asked for. The request writes the whole name (capitalised
words in a row). ``NameCheck`` refuses a new contact whose ``name`` is only part of a
name the request writes, and narrows the retry to that whole name.

What the request says the person is ("- she's Mia's swim coach", ", he's my plumber")
goes into the card's notes: the model left it out, and it is how the user finds the card
again. It is held before the call (``agent.checks.Anticipating``).
"""

from __future__ import annotations

import re
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import (
    ACTION_WORDS,
    DEFAULT_SYNONYMS,
    NOT_NAMES,
    STOPWORDS,
    creates,
    name_family,
)

NAME_ARGUMENT = "name"
# two to four capitalised words in a row ("Ana Costa", "Mary Ann de Vries" aside: a
# lower-case particle ends it), each at least two letters
_FULL_NAME = re.compile(r"\b[A-Z][a-z\u00e0-\u00ff'\u2019-]+(?:\s+[A-Z][a-z\u00e0-\u00ff'\u2019-]+){1,3}\b")


# words a request opens with, capitalised for that alone: a verb or a filler word
_COMMAND_WORDS = frozenset({*ACTION_WORDS, *(w for ws in ACTION_WORDS.values() for w in ws),
                            *DEFAULT_SYNONYMS, *STOPWORDS, "please", "pls", "can", "could"})


def written_names(request: str) -> list[str]:
    """The whole names a request writes: capitalised words in a row, none of them a day or
    a month, in order."""
    found = []
    for match in _FULL_NAME.finditer(request):
        parts = match.group().split()
        if parts[0].lower() in _COMMAND_WORDS:  # "Save Tom Becker as a contact"
            parts = parts[1:]
        if len(parts) > 1 and not any(p.lower() in NOT_NAMES for p in parts):
            found.append(" ".join(parts))
    return found


NOTES_ARGUMENT = "notes"
# who the person is, said after the card's details: "- she's Mia's swim coach", ", he is
# our plumber", "and they're the new landlord", "who's Dan's sister"
_DESCRIBED = re.compile(
    r"(?:(?:\s[-\u2013\u2014]+\s*|[,;(]\s*|\band\s+)"
    r"(?:she|he|they)(?:['\u2019]s|['\u2019]re|\s+is|\s+are)|\bwho(?:['\u2019]s|\s+is))\s+"
    r"(?P<what>[^.;!?()\n]{3,80})", re.IGNORECASE)


def described(request: str) -> str | None:
    """What a request says the person it adds is ("... - she's Mia's swim coach" ->
    "Mia's swim coach"), or None."""
    match = _DESCRIBED.search(request)
    return match.group("what").strip(" ,") if match else None


def _adds_contact(name: str) -> bool:
    return name_family(name) == "contact" and creates(name)


class NameCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring."""

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        spec = context.tool
        properties = (spec.parameters or {}).get("properties") or {}
        if not _adds_contact(spec.name) or NOTES_ARGUMENT not in properties:
            return {}
        what = described(context.request)
        return {NOTES_ARGUMENT: {"enum": [what]}} if what else {}

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        if not _adds_contact(call.name):
            return None
        written = call.arguments.get(NAME_ARGUMENT)
        if not isinstance(written, str) or not written.strip():
            return None
        words = written.casefold().split()
        for name in written_names(context.request):
            whole = name.casefold().split()
            if words != whole and set(words) < set(whole):
                return Refusal(f"name {written!r} is part of the name the user wrote: {name!r}",
                               {NAME_ARGUMENT: {"enum": [name]}})
        return None
