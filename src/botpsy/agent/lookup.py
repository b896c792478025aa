"""A lookup by id must be of an item the conversation showed, and of what was asked.

Asked for "Jamie's number", a 135M model called ``get_contact(1)`` without a search and
answered with Priya's card as "Done: ...". ``agent.grounding`` holds the act tools to the
items shown; ``LookupCheck`` holds the look tools that take an id (``get_contact``,
``read_note``, ``read_email``) to the same rule, so that a wrong item is never shown as
the answer:

- the id must be one a tool result in this conversation showed, or one the user wrote;
- when some shown items of the family share a word with the request and this one does
  not, the call reads the wrong item: it is refused, and the retry may only write the
  ids of those that fit. (When none fits, "read my newest email", any shown id may be
  read.)

Model-agnostic: a model that searches before it reads never meets the first rule, and
one that reads what it found never meets the second.
"""

from __future__ import annotations

from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import (
    acts_on_items,
    finders,
    id_arguments,
    named_ids,
    refusal_for,
    shown_items,
    user_text,
    words,
)
from botpsy.agent.selection import name_family
from botpsy.tools import ToolRegistry
from botpsy.types import Message, ToolCall


class LookupCheck:
    """A call check (``Agent(call_checks=[...])``); see the module docstring."""

    def __init__(self, registry: ToolRegistry):
        self.registry = registry

    def __call__(self, call: ToolCall, messages: list[Message]) -> Refusal | None:
        ids = id_arguments(call)
        if not ids or acts_on_items(call.name):
            return None
        family = name_family(call.name)
        said = user_text(messages)
        wanted = words(said)
        items = [i for i in shown_items(messages) if i.family == family]
        fitting = {i.id: i for i in items if i.words & wanted}
        for arg, value in ids.items():
            if value in named_ids(said):
                continue
            matches = [i for i in items if i.id == value]
            if not matches:
                why = f"{arg} {value} is not an id that a lookup in this conversation showed"
            elif fitting and value not in fitting:
                label = matches[0].label or f"id {value}"
                why = f"{arg} {value} is {label!r}, which is not what the request is about"
            else:
                continue
            return refusal_for(why, arg, list(fitting.values()), finders(family, self.registry))
        return None
