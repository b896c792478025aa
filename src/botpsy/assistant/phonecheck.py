"""Phone numbers a call makes up.

Asked to "add Lena Hoffmann, lena.hoffmann@mailbox.example, to my contacts and email her
that climbing on Saturday starts at 10", the 135M default model writes ``phone="10"``;
asked to add Clara or a photographer, it writes ``phone="123456789"`` or ``"12345"``.
Each is a valid string, so the address book stores a number nobody gave. Every number a
call may rightly write is in the conversation: in what the user wrote or in a tool result
(the photographer's email signature, a contact lookup).

``PhoneCheck`` refuses a call of an act tool whose phone argument holds a number the
conversation never showed (compared by its digits, so "+49 151 5550 330" and
"+491515550330" are one number). Its refusal narrows the argument
(``agent.checks.Refusal``): to the numbers the conversation shows, or, when it shows none,
to ``null``, so that the retry's grammar can only leave the number out. A number taken
from an email still meets the safety gate, which judges values out of untrusted output.
"""

from __future__ import annotations

import re

from botpsy import extract
from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import acts_on_items
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import creates, name_family
from botpsy.extract import digits

# Arguments that hold a phone number.
_ARGUMENTS = re.compile(r"^(?:phone|phone_?number|mobile|tel|telephone)$", re.IGNORECASE)


def phone_numbers(text: str) -> list[str]:
    """The phone numbers in a text, as written, in order, each number once
    (``extract.phone_numbers``)."""
    return [found.text for found in extract.phone_numbers(text)]


def shown_numbers(context: CallContext) -> list[str]:
    """Every number the conversation shows: the user's words first, then tool results,
    each number once by its digits."""
    return context.shown_values(phone_numbers, key=digits)


class PhoneCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring."""

    def expected(self, context: CallContext) -> dict[str, dict[str, str]]:
        """Before a call of an act tool: its optional phone arguments left out (null) when
        the conversation shows no number at all (``agent.checks.Anticipating``). Why:
        asked to "save Ines Kaya, ines.kaya@example.org", a 135M model wrote the address
        as her phone, which the check then refused."""
        spec = context.tool
        if not acts_on_items(spec.name):
            return {}
        if shown_numbers(context):
            return self._given(context)
        parameters = spec.parameters or {}
        required = set(parameters.get("required") or [])
        return {arg: {"type": "null"} for arg in parameters.get("properties") or {}
                if _ARGUMENTS.match(arg) and arg not in required}

    @staticmethod
    def _given(context: CallContext) -> dict[str, dict[str, list[str]]]:
        """A new contact's phone held to the one number the request gives it ("new contact
        - Felix Braun, felix@..., 0151 5550 9921"). Why: held to a note the request also
        gives, the 135M model left the number out."""
        spec = context.tool
        given = phone_numbers(context.request)
        if name_family(spec.name) != "contact" or not creates(spec.name) or len(given) != 1:
            return {}
        properties = (spec.parameters or {}).get("properties") or {}
        return {arg: {"enum": given} for arg in properties if _ARGUMENTS.match(arg)}

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        if not acts_on_items(call.name):
            return None
        written = {arg: value for arg, value in call.arguments.items()
                   if _ARGUMENTS.match(arg) and isinstance(value, str) and value.strip()}
        if not written:
            return None
        shown = shown_numbers(context)
        known = {digits(n) for n in shown}
        wrong = {arg: value for arg, value in written.items() if digits(value) not in known}
        if not wrong:
            return None
        found = " and ".join(f"{arg} {value!r}" for arg, value in wrong.items())
        if not shown:
            return Refusal(f"{found} is not a number the user gave or a lookup showed; leave "
                           "it out (null) or ask the user for it",
                           {arg: {"type": "null"} for arg in wrong})
        return Refusal(f"{found} is not a number the user gave or a lookup showed; the "
                       f"numbers the conversation shows: {', '.join(shown[:5])}",
                       {arg: {"enum": shown} for arg in wrong})
