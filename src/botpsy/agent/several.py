"""Several items named for one action: each gets its own call.

"tick off water the plants and the latency slide one" asks ``complete_reminder`` twice,
once per item. The loop ends a ``single_call`` turn once every clause's action has run
(``Agent._actions_left``), so after the first tick the second item was left undone, and
the answer said "Marked as done" as if the request were finished.

``next_item`` reads the request as its parts: the clause whose verb asks for the action,
and the clauses after it that ask for no other action ("and the latency slide one": an
item, no verb). A part whose words fit exactly one shown item of the action's kind best
(``grounding.best_fitting``, over the words that tell the shown items apart) names that
item. The first such item the turn has not acted on yet is the next call's, held to its
id, so the call is fully determined and runs through the same checks and gate.

Only an action that names its item by id is repeated this way, and only on an item that
a part of the request fits alone: "delete the standup and email Dan about it" has a part
that asks for another action, and "cancel the review and the other one" fits no single
item, so neither makes a further call.

A new item has no id: ``times_asked`` counts the clauses that ask for its tool ("todo: new
batteries for the smoke alarm. oh and remind me wed 7am to take the bins out" asks
``add_reminder`` twice), and the loop forces the tool again, with the calls made so far
in view, until each was made once; the model writes the second item's values, through
the same checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from botpsy.agent.grounding import Item, best_fitting, shown_items, words
from botpsy.agent.selection import (
    ACTION_WORDS,
    FAMILY_ALIASES,
    ToolRole,
    commands,
    name_family,
    stem_words,
    tool_role,
)
from botpsy.types import Message

# "a reminder", "another note", "a new event": a clause that names a new item of a kind
_NEW_ITEM = re.compile(r"\b(?:a|an|another|new|one\s+more)\s+(?:new\s+)?(?P<word>[\w-]+)",
                       re.IGNORECASE)


def _roles(action: str, others: Iterable[str]) -> tuple[ToolRole, list[ToolRole]]:
    """The role of ``action`` and those of the other act tools."""
    own = tool_role(action, name_family(action), ACTION_WORDS)
    rivals = [tool_role(name, name_family(name), ACTION_WORDS) for name in others
              if name != action]
    return own, [role for role in rivals if not role.look]


def _kind(word: str) -> str:
    """The item kind a word names ("todo", "reminders" -> "remind"), or the word's stem."""
    stems = stem_words(word)
    return FAMILY_ALIASES.get(stems[0], stems[0]) if stems else ""


def times_asked(action: str, request: str) -> int:
    """How many clauses of ``request`` (``selection.commands``) ask for a new item of
    ``action``'s kind: by opening with the kind's word ("remind me ...", "todo: ...") or by
    naming "a" new one ("make a reminder ..."). A clause that names "the reminder" adds to
    the one being made ("and put his number in the reminder"), and "and" inside one clause
    ("remind me to buy milk and eggs") leaves a second clause that names no kind."""
    kind = _kind(name_family(action))
    count = 0
    for clause in commands(request):
        first = clause.split()[0] if clause.split() else ""
        named = [m.group("word") for m in _NEW_ITEM.finditer(clause)]
        count += _kind(first) == kind or any(_kind(word) == kind for word in named)
    return count


def item_parts(request: str, action: str, others: Iterable[str]) -> list[str]:
    """The parts of ``request`` that name items for ``action``: the first clause that asks
    for it (``selection.commands``, ``ToolRole.asked_in``) and each clause right after it
    that asks for none of the ``others`` (the registry's other act tools)."""
    own, rivals = _roles(action, others)
    parts: list[str] = []
    for clause in commands(request):
        if any(role.asked_in(clause) for role in rivals) and not own.asked_in(clause):
            if parts:
                break
            continue
        if parts or own.asked_in(clause):
            parts.append(clause)
    return parts


def named_item(part: str, items: list[Item]) -> Item | None:
    """The one shown item that ``part`` fits best, over the words that tell the items apart
    (not those every shown item holds: "reminder" in each reminder); None when none or
    several fit equally."""
    common = frozenset.intersection(*(i.words for i in items)) if len(items) > 1 else frozenset()
    best = best_fitting(items, words(part) - common)
    return best[0] if len(best) == 1 else None


def next_item(action: str, request: str, messages: list[Message], done: set[int],
              others: Iterable[str]) -> int | None:
    """The id of the next item the request names for ``action`` (see the module doc) that
    is not in ``done``, or None: only when the request names two items or more."""
    parts = item_parts(request, action, others)
    if len(parts) < 2:
        return None
    family = name_family(action)
    items = [i for i in shown_items(messages) if i.family == family]
    named = [named_item(part, items) for part in parts]
    for item in named:
        if item is not None and item.id not in done:
            return item.id
    return None


# A clause that names an item holds this many words of its own at least ("todo", "oh" name none)
_ITEM_WORDS = 2


def item_clauses(action: str, request: str) -> list[str]:
    """The clauses of a request that asks for several new items of ``action``'s kind
    (``times_asked``) that each name one ("todo: new batteries for the smoke alarm. oh and
    remind me wed 7am to take the bins out": the batteries, then the bins); empty when it
    asks for one."""
    if times_asked(action, request) < 2:
        return []
    return [c for c in commands(request) if len(words(c)) >= _ITEM_WORDS]


def own_clause(action: str, request: str, text: str) -> str | None:
    """Of several new items a request asks for (``item_clauses``), the clause the item
    written as ``text`` comes from: the one that shares the most words with it, alone;
    None when the request asks for one item or no clause fits alone. Why: what one clause
    says of its item (a day, a time) is not the others' ("todo: A. oh and remind me wed
    7am to B": A has no day)."""
    clauses = item_clauses(action, request)
    wanted = words(text)
    scores = sorted(((len(words(c) & wanted), c) for c in clauses), reverse=True)
    if not scores or scores[0][0] == 0 or (len(scores) > 1 and scores[1][0] == scores[0][0]):
        return None
    return scores[0][1]
