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

from typing import TYPE_CHECKING

from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import acts_on_items, off_request_id
from botpsy.tools import ToolRegistry
from botpsy.types import Message, ToolCall

if TYPE_CHECKING:
    from botpsy.agent.rules import CallContext


class LookupCheck:
    """A call check (``Agent(call_checks=[...])``); see the module docstring."""

    def __init__(self, registry: ToolRegistry):
        self.registry = registry

    def __call__(self, call: ToolCall, messages: list[Message]) -> Refusal | None:
        if acts_on_items(call.name):
            return None  # agent.grounding judges those
        return off_request_id(call, messages, self.registry, fit_needed=False)

    def judge(self, context: CallContext) -> Refusal | None:
        """The same rule over a call's ``CallContext`` (its provenance read once)."""
        if acts_on_items(context.call.name):
            return None
        return off_request_id(context.call, context.messages, self.registry, fit_needed=False,
                              said=context.said, shown=context.shown)
