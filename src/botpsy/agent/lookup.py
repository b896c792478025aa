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

A search for the kind's own name ("notes" in the notes, "inbox" in the mail) looks for no
item: "what do i need from the shop? it's in my notes" searched the notes for "notes". It
is refused, and the retry's query is held to the request's phrases that name no kind.

Model-agnostic: a model that searches before it reads never meets the first rule, and
one that reads what it found never meets the second.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from botpsy.agent.checks import Refusal
from botpsy.agent.grounding import acts_on_items, off_request_id, search_terms, user_text
from botpsy.agent.selection import FAMILY_ALIASES, name_family, stem_words
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
        return own_kind_query(call, user_text(messages)) or off_request_id(
            call, messages, self.registry, fit_needed=False)

    def judge(self, context: CallContext) -> Refusal | None:
        """The same rule over a call's ``CallContext`` (its provenance read once)."""
        if acts_on_items(context.call.name):
            return None
        return own_kind_query(context.call, context.said) or off_request_id(context.call, context.messages, self.registry, fit_needed=False,
                              said=context.said, shown=context.shown)


# Words that name no item, whatever the request ("anything new in my mail?").
_INDEFINITE = frozenset({"anything", "something", "everything", "nothing", "somewhere",
                         "anywhere", "everywhere"})


def _kind_word(word: str, family: str) -> bool:
    """Whether ``word`` only names the kind ("notes" for notes, "inbox" for emails)."""
    stems = stem_words(word)
    return bool(stems) and all(FAMILY_ALIASES.get(w, w) == family for w in stems)


def own_kind_query(call: ToolCall, said: str) -> Refusal | None:
    """Why a search looks for its own kind's name instead of an item, or None (see the
    module docstring); the retry may write the request's phrases without such a word. A
    request with no such phrase keeps its search: it names nothing else to look for."""
    query = call.arguments.get("query")
    family = name_family(call.name)
    if not isinstance(query, str) or not query.split() or not family:
        return None
    if not all(_kind_word(w, family) for w in query.split()):
        return None
    kept = (" ".join(w for w in t.split() if not (_kind_word(w, family)
                                                 or w.lower() in _INDEFINITE))
            for t in search_terms(said, family))
    terms = list(dict.fromkeys(t for t in kept if t))
    if not terms:
        return None  # "anything new in my mail?": nothing else to look for
    why = (f"query {query!r} only names what {call.name} searches, not the item the request "
           f"asks about: search for {terms[0]!r}")
    return Refusal(why, {"query": {"enum": terms}})
