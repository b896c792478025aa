"""A reference the request asks a new item to carry: "put the booking code in the
reminder", "include the order number from shopright", "with the invoice number from
marta's email in it".

Asked so, the 135M default model made the reminder at once, with the user's words and no
code: the one thing asked to be at hand was missing, and the item looked done. A
booking code, order number or invoice number is in an item the user has (most often a
mail), so ``ReferenceCheck``:

- before a call that makes an item or a message, asks for a lookup of the kind the
  request takes it from (the mail where it names none) until a shown item holds a
  reference of that name (``agent.checks.Prerequisite``);
- once the shown items hold exactly one such reference ("Booking code QX7L2M", "order
  #A-48213"), holds the new item's text to one that contains it (``agent.checks.Anticipating``)
  and refuses a call that leaves it out.

Where the reference came from a stranger's mail, the write then asks for the user's
confirmation like any write after untrusted data (``safety``): a partial item made without
it is no way around that.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from botpsy.agent.checks import Refusal
from botpsy.agent.intent import APPEND_VERB, MESSAGE_TOOLS
from botpsy.agent.rules import CallContext, ContextCheck
from botpsy.agent.selection import name_family, source_families
from botpsy.assistant.includecheck import containing, text_argument
from botpsy.assistant.titlecheck import asked_titles
from botpsy.types import ToolSpec

# the nouns a reference is named by; "number" needs a word before it that says which
# ("the order number"): "with the number in it" is a person's (``includecheck``)
_NOUNS = ("code", "number", "no", "id", "reference", "ref", "pnr")
_ASKS = re.compile(
    r"(?:\b(?:put|include|including|add|with|plus|stick|copy|jot|write|paste)\s+(?:the|my|its|that|our)\s+"
    r"|\(\s*(?:the\s+|my\s+)?)"  # "send jamie my train ticket details (booking code etc)"
    r"(?:(?!(?:phone|mobile|contact|his|her|their)\b)(?P<which>[a-z-]+)\s+)?"
    r"(?P<noun>" + "|".join(_NOUNS) + r")\b", re.IGNORECASE)
# what may stand between a reference's name and its value: "code: X", "order #X", "no. X",
# "number is X"
_BETWEEN = frozenset({*_NOUNS, "#", ":", "is", "was", "no.", "nr", "nr."})
_VALUE = re.compile(r"^#?(?P<value>[A-Za-z0-9][A-Za-z0-9/-]*\d[A-Za-z0-9/-]*|\d{3,})$")
# "reminder to check the shoe delivery": the kind asked for is no part of what it says
_KIND_LEAD = re.compile(r"^(?:an?\s+)?(?:reminder|note|event|task|to-?do)\s+(?:to|for|about|that)\s+",
                        re.IGNORECASE)
# what a shown item holds its words in
_TEXT_FIELDS = ("subject", "snippet", "body", "content", "text", "title", "description", "notes")


def asked_reference(request: str) -> tuple[str, ...] | None:
    """The words a request names the reference it asks to carry by ("put the booking code
    in the reminder" -> ("booking", "code")), or None."""
    for match in _ASKS.finditer(request):
        which, noun = match.group("which"), match.group("noun").lower()
        if noun == "number" and which is None:
            continue
        return (which.lower(), noun) if which else (noun,)
    return None


def references(text: str, named: tuple[str, ...]) -> set[str]:
    """The values ``text`` gives a reference named by ``named`` ("Booking code QX7L2M." ->
    {"QX7L2M"}; "Your order #A-48213 has shipped" -> {"A-48213"} for ("order", "number")):
    the first token with a digit within a few words after the name's first word."""
    tokens = text.split()
    found = set()
    for i, token in enumerate(tokens):
        if token.strip(".,;:!?()[]\"'").lower() != named[0]:
            continue
        for nxt in tokens[i + 1:i + 5]:
            word = nxt.rstrip(".,;:!?)]\"'")
            if (value := _VALUE.match(word)) is not None:
                found.add(value.group("value"))
                break
            if word.lower() not in _BETWEEN:
                break
    return found


def carrying_argument(spec: ToolSpec | None) -> str | None:
    """The argument that holds the text ``spec`` writes: of a new item or message
    (``includecheck.text_argument``), or of an item added to ("append_to_file": "add the
    booking code from my train ticket to my packing list file")."""
    if spec is None:
        return None
    if spec.name.split("_", 1)[0] == APPEND_VERB:
        properties = (spec.parameters or {}).get("properties") or {}
        return "text" if "text" in properties else None
    return text_argument(spec)


class ReferenceCheck(ContextCheck):
    """A call check for the agent (``Agent(call_checks=[...])``): see the module docstring.
    ``spec_of`` gives a tool's spec by name (None for a tool it does not know)."""

    def __init__(self, spec_of: Callable[[str], ToolSpec | None]):
        self._spec_of = spec_of

    def _value(self, context: CallContext) -> str | None:
        """The one reference of the asked name the shown items hold, or None."""
        named = asked_reference(context.request)
        if named is None:
            return None
        values = {value for _family, obj in context.objects for field in _TEXT_FIELDS
                  if isinstance(obj.get(field), str) for value in references(obj[field], named)}
        return values.pop() if len(values) == 1 else None

    def needs_first(self, context: CallContext) -> tuple[str, ...]:
        if carrying_argument(context.tool) is None or asked_reference(context.request) is None:
            return ()
        if self._value(context) is not None:
            return ()
        kinds = [k for k in source_families(context.request) if k != "contact"]
        searched = {name_family(m.name) for m in context.results if m.name}  # found or not
        return tuple(k for k in (kinds or ["email"]) if k not in searched)

    def expected(self, context: CallContext) -> dict[str, dict[str, Any]]:
        arg = carrying_argument(context.tool)
        value = self._value(context) if arg is not None else None
        return {arg: _holding(context.tool, context.request, value)} if arg and value else {}

    def judge(self, context: CallContext) -> Refusal | None:
        spec = context.spec or self._spec_of(context.call.name)
        arg = carrying_argument(spec) if spec is not None else None
        value = self._value(context) if arg is not None else None
        if arg is None or value is None:
            return None
        written = context.call.arguments.get(arg)
        if isinstance(written, str) and value.lower() in written.lower():
            return None
        return Refusal(f"the request asks for the {' '.join(asked_reference(context.request) or ())} "
                       f"in it ({value}): write it into {arg}",
                       {arg: _holding(spec, context.request, value)})


def _holding(spec: ToolSpec, request: str, value: str) -> dict[str, Any]:
    """The schema keywords of a text that carries ``value``: what the request asks the item
    to say, then the reference by its name ("have the train ticket ready (booking code
    QX7L2M)"); a text that merely contains it where the request says nothing else. Why: held
    only to contain it, the 135M model wrote the value into a line copied from another mail.
    A message is only held to contain it (its words are the model's), and a line added to
    an item is the reference by its name ("booking code QX7L2M")."""
    named = " ".join(asked_reference(request) or ())
    if spec.name in MESSAGE_TOOLS:  # a message's body is the model's to word around it
        return {"pattern": containing(value)}
    if spec.name.split("_", 1)[0] == APPEND_VERB:  # a line added: the reference by its name
        return {"enum": [f"{named} {value}"]}
    asked = next(iter(asked_titles(request)), "")
    cut = _ASKS.search(asked) or re.search(rf"\b{re.escape(named)}\b", asked, re.IGNORECASE)
    said = _KIND_LEAD.sub("", asked[:cut.start()] if cut else asked).strip(" ,;:-")
    said = "" if said.lower() in ("the", "my", "a") else said
    if not said or value in said:
        return {"pattern": containing(value)}
    return {"enum": [f"{said} ({named} {value})"]}
