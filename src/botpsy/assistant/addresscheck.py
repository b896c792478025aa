"""Email addresses a call makes up or cuts short.

Asked to "save Lena Hoffmann as a contact, her email is lena@hoffmann.example", the
135M default model writes ``email="lena@hoffmann"``; asked to email Jonas without a
lookup, a model may guess ``jonas@example.com``. The first is refused by the tool
(and retried the same way), the second is a valid address of a stranger. The agent
can do better: every address a call may rightly write is in the conversation, in
what the user wrote, the user's own profile, or a tool result (a contact lookup).

``AddressCheck`` refuses a call of an act tool whose address argument (``to``,
``email``, ...) holds an address the conversation never showed. Its refusal narrows
the argument to the addresses the user gave or a contact lookup showed
(``agent.checks.Refusal``; never one out of an email's text, where an injection puts
its own): the grammar of the retry can then only write one of them (several,
comma-separated, for a recipient list). It only refuses: an address it lets through
still goes through the safety gate, which judges addresses taken from untrusted tool
output.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from email import policy

from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import acts_on_items, recipient_words
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import name_family
from botpsy.extract import emails
from botpsy.formats.grammar import pattern_literal
from botpsy.types import Message

# Arguments that hold addresses; those in _LISTS may hold several.
_ARGUMENTS = re.compile(r"^(?:to|cc|bcc|recipients?|e_?mail|email_address)$", re.IGNORECASE)
_LISTS = frozenset({"to", "cc", "bcc", "recipients", "recipient"})
# A request that sends to the user too: "cc me", "send it to myself as well"
_ME = re.compile(r"\b(?:me|myself|my\s+own|my\s+address)\b", re.IGNORECASE)
# Tool families whose results may be offered to a retry: the user's own address book.
TRUSTED_FAMILIES = frozenset({"contact"})
# Of those results only the ``email`` fields are offered: a card's notes are free text,
# and an imported .vcf card's notes are a stranger's. (An escaped quote before "email"
# is that text inside a JSON string, not a field.)
_EMAIL_FIELD = re.compile(r'(?<!\\)"email"\s*:\s*"([^"\\]*)"')


def addresses(text: str) -> list[str]:
    """The whole email addresses in a text, lower-cased, in order, each once."""
    return list(dict.fromkeys(found.value for found in emails(text)))


def written_addresses(value: str) -> list[str]:
    """What an address argument would send to: the address-like words a model wrote
    (cut ones too, "lena@hoffmann"), and the addresses a mail header parser reads in
    it, as the tools do (a quoted local part, ``"eve"@evil.example``, is
    ``eve@evil.example`` to them but no address-like word)."""
    found = [written.text for written in emails(value, partial=True)]
    try:
        header = policy.default.header_factory("To", value.replace(";", ","))
        found += [a.addr_spec for a in header.addresses if a.username and a.domain]
    except (ValueError, IndexError, TypeError):  # the tool reports what it cannot read
        pass
    return list(dict.fromkeys(found))


def shown_addresses(
    context: CallContext, own: Iterable[str] = (), families: Iterable[str] | None = None
) -> list[str]:
    """Every address the conversation shows: the user's words first, then the user's own
    (``own``), then tool results; with ``families``, only the ``email`` fields of the
    results of those tools (what a retry may be offered)."""
    own = [a.lower() for a in own if a]
    if families is None:
        return context.shown_values(addresses, own=own)
    kept = set(families)

    def email_fields(message: Message) -> str:
        if name_family(message.name or "") not in kept:
            return ""
        return " ".join(_EMAIL_FIELD.findall(message.content))

    return context.shown_values(addresses, own=own, read=email_fields)


class AddressCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``own`` gives the user's own addresses (the profile's), which the conversation's
    messages do not carry (they are in the system prompt)."""

    def __init__(self, own: Callable[[], Iterable[str]] = tuple):
        self._own = own

    def judge(self, context: CallContext) -> Refusal | None:
        call = context.call
        if not acts_on_items(call.name):
            return None
        written = {arg: written_addresses(value) for arg, value in call.arguments.items()
                   if _ARGUMENTS.match(arg) and isinstance(value, str)}
        own = list(self._own())
        shown = shown_addresses(context, own)
        wrong = {arg: [a for a in found if a.rstrip(".").lower() not in shown]
                 for arg, found in written.items()}
        wrong = {arg: found for arg, found in wrong.items() if found}
        if not wrong:
            return self._to_self(context, written, own)
        found = " and ".join(f"{arg} {found[0]!r}" for arg, found in wrong.items())
        # offered for the retry: only addresses the user gave or a contact lookup showed,
        # never one out of an email's text (where an injection would put its own)
        offered = shown_addresses(context, own, families=TRUSTED_FAMILIES)
        if not offered:
            return Refusal(f"{found} is not an address the user wrote or a lookup showed; "
                           "look the address up first")
        return Refusal(f"{found} is not an address the user wrote or a lookup showed; the "
                       f"addresses the user gave or the contacts show: {', '.join(offered[:5])}",
                       {arg: address_keywords(offered, arg.lower() in _LISTS) for arg in wrong})

    @staticmethod
    def _to_self(context: CallContext, written: dict[str, list[str]], own: list[str]
                 ) -> Refusal | None:
        """A message to the user's own address, where the request writes out whom it goes
        to and never says "me": "email sam.morgan@... and tell him I'm in" sent Sam the
        reply and then the same words to the user."""
        own = [a.lower() for a in own if a]
        named = [a for a in addresses(context.request) if a not in own]
        to_self = [arg for arg, found in written.items()
                   if any(a.rstrip(".").lower() in own for a in found)]
        if not to_self or not named or _ME.search(context.request):
            return None
        return Refusal(f"{to_self[0]} is the user's own address; the request writes to "
                       f"{', '.join(named)}", {arg: address_keywords(named, arg.lower() in _LISTS)
                                                for arg in to_self})

    def expected(self, context: CallContext) -> dict[str, dict[str, object]]:
        """Before a call of an act tool: its address arguments held to the addresses the
        conversation shows (``agent.checks.Anticipating``), once the user wrote one or a
        contact lookup showed one. Why: shown Dan's card, a 135M model wrote
        ``to="Dan Okafor"``, which no mail tool can read, and spent the turn's retry on it.
        Every address the check accepts stays writable (a sender a mail showed too: the
        gate judges that one); the user's own only when nothing else is shown."""
        spec = context.tool
        if not acts_on_items(spec.name):
            return {}
        properties = (spec.parameters or {}).get("properties") or {}
        required = set((spec.parameters or {}).get("required") or [])
        own = [a.lower() for a in self._own() if a]
        # a held argument must be written: an optional one (a cc, a new contact's email)
        # only when the latest request itself gives an address ("Ines, ines@x.example")
        given = addresses(context.request)
        arguments = [arg for arg in properties if _ARGUMENTS.match(arg)
                     and (arg in required or given)]
        trusted = [a for a in shown_addresses(context, families=TRUSTED_FAMILIES)
                   if a not in own]
        if not arguments or not trusted:
            return {}
        shown = [a for a in shown_addresses(context, own) if a not in own] + own
        return {arg: address_keywords(shown, arg.lower() in _LISTS) for arg in arguments}


    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        """A draft or send to someone the request names but gives no address for ("let my
        landlord know ..."), with no contact lookup yet: the contacts are looked up first
        (``agent.checks.Prerequisite``)."""
        spec = context.tool
        properties = (spec.parameters or {}).get("properties") or {}
        if not acts_on_items(spec.name) or not any(_ARGUMENTS.match(a) for a in properties):
            return ()
        if addresses(context.request) or not recipient_words(context.request):
            return ()
        shown = shown_addresses(context, families=TRUSTED_FAMILIES)
        return () if shown else tuple(sorted(TRUSTED_FAMILIES))


def address_keywords(shown: list[str], several: bool) -> dict[str, object]:
    """The schema keywords that let a retry write only ``shown`` addresses: one of them,
    or (``several``) a comma-separated list of them."""
    if not several:
        return {"enum": shown}
    one = "(" + "|".join(pattern_literal(a) for a in shown) + ")"
    return {"pattern": f"^{one}(, ?{one})*$"}
