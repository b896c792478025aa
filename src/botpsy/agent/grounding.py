"""Ids a weak model made up: an action on an item must name one it was shown.

A 135M model asked to "tick off the watering reminder" lists the reminders and then
completes reminder 2, the first one listed; asked to move a 1:1, it updates event 14
without looking at the calendar at all. Both calls are valid and both change the
wrong thing. In ``single_call`` mode the agent therefore checks every call of an
act tool (``update_event``, ``trash_email``, ``complete_reminder``: not a look tool,
its role in ``selection.tool_role``) that names an item by an ``*_id`` argument:

- the id must belong to an item of the tool's family that a tool result in this
  conversation showed (or be written in the user's own words), and
- that item must share a word (stemmed; stopwords and numbers aside) with what
  the user wrote.

A call that fails either check does not run. When a lookup already showed items
that match the request, its error lists them and the retry's grammar may only write
one of their ids; otherwise its error names the tools that list the family's ids,
so the agent's one retry is forced onto a lookup, and the follow-through then asks
for the action again with the real items in view.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from botpsy.agent.checks import Refusal, narrowed
from botpsy.agent.selection import (
    ACTION_WORDS,
    CONTACT_FIELD,
    DEFAULT_SYNONYMS,
    FAMILY_ALIASES,
    LOOK_VERBS,
    NOT_NAMES,
    RELATIONS,
    STOPWORDS,
    commands,
    list_target,
    name_family,
    stem_words,
    tool_role,
)
from botpsy.extract import file_word, ids, new_name
from botpsy.language import (
    DAY_PARTS,
    NUMBER_WORDS,
    RELATIVE_DAYS,
    WEEKDAYS,
    alternation,
    full_names,
)
from botpsy.safety.taint import AGENT_SOURCE
from botpsy.tools import ToolRegistry
from botpsy.tools.registry import finders_in_words
from botpsy.types import Message, ToolCall, ToolSpec

if TYPE_CHECKING:  # the rules module reads this one; a rule only reads its context
    from botpsy.agent.rules import CallContext

_TERM = re.compile(r"[^\W\d_][\w-]*")
MAX_TERMS = 8
# "let my landlord know", "email Dan", "tell Sam", "Write a draft to Nora", "send Jamie ..."
_RECIPIENT = re.compile(
    r"\b(?:(?:draft|note|message|mail|email|reply|it|this|that|write)\s+to|let|tell|ask|"
    r"text|ping|message|e-?mail|mail|(?P<giving>send|draft))\s+(?:my\s+|our\s+|(?P<the>the\s+))?"
    r"(?P<who>[A-Za-z][\w'-]*)", re.IGNORECASE)
# "call the dentist", "ring mum", "phone my landlord": the one to call, whose number it is
_CALLED = re.compile(r"\b(?:call|ring|phone)\s+(?:up\s+)?(?:my\s+|our\s+|the\s+)?"
                     r"(?P<who>[A-Za-z][\w'-]*)", re.IGNORECASE)
# "coffee with nora", "lunch with my sister": whom an item is with
_WITH = re.compile(r"\bwith\s+(?:my\s+|our\s+)?(?P<who>[A-Za-z][\w'-]*)", re.IGNORECASE)
_NOT_RECIPIENTS = frozenset({
    "me", "myself", "him", "her", "them", "us", "it", "this", "that", "a", "an", "the", "to",
    "everyone", "somebody", "someone", "know", "back", "out", "off", "up", "over", "on", "in",
    "for", "about", "any", "all", "what", "when", "whether", "if", "how", "email", "mail",
    "message", "note", "draft", "reply", "his", "their", "your", "address", "addresses",
    "number", "inbox", "thread"})
# what a thing is "with" that is no one: "with everything from the groceries note"
_NOT_PEOPLE = frozenset({"everything", "everyone", "anything", "nothing", "something", "those",
                         "these", "both", "each", "details", "address", "number", "time"})
_PARTICLES = frozenset({"off", "out", "up", "down", "back", "away", "over", "not", "yes", "please"})
# Words a search should not look for: what the request asks done (the tools' action words)
# and when (days: a search matches text, and "Friday" is in many emails).
_NOT_SEARCHED = (STOPWORDS | _PARTICLES | NOT_NAMES | LOOK_VERBS
                 | {*RELATIVE_DAYS["en"], "week", "weekend"}
                 # the words of a time said relative to the item ("half an hour before it")
                 | {"half", "hour", "hours", "minute", "minutes", "mins", "day", "days",
                    *DAY_PARTS["en"], "before", "after", "next", "last", "instead", "now"}
                 # how a change is said, not what changes ("the plumber is coming thursday now")
                 | {"coming", "going", "happening", "moved", "moving", "changed"}
                 # what a request says about its source, not what to find in it
                 | {"see", "check", "find", "look", "said", "says", "asking", "asked", "emailed",
                    "mailed", "wrote", "wants", "wanted", "sent", "need", "needs", "know", "yet",
                       "want", "got", "open", "time", "rid", "somewhere", "anywhere", "something"}
                 # where items are kept, not what is in one ("change it in the calendar")
                 | {"calendar", "agenda", "diary", "inbox", "mailbox", "contacts", "folder"}
                 # which of them and how many: an order or a count, no word of the item
                 | {"newest", "latest", "oldest", "recent", "recently", "most", "many", "much",
                    "unread"}
                 | {w for verb, cues in ACTION_WORDS.items() for w in (verb, *cues) if " " not in w})
# A new value the request gives an item, in quotes: "rename thursday's lunch to 'team
# lunch'", "call it 'Parking'". Its words say what the item becomes, not which it is.
_NEW_VALUE = re.compile(r"\b(?:to|as|called|named|titled|it)\s+(['\"\u2018\u201c])(?=\S).+?"
                        r"(?:\1|[\u2019\u201d])(?!\w)", re.IGNORECASE)
# "isn't", "Mom's", "we'll": the tail after the apostrophe (straight or curly)
_CONTRACTION = re.compile(r"n['’]t\b|['’](?:s|re|ll|ve|d|m)\b", re.IGNORECASE)
# A relation the user names as theirs ("my brother", "our landlord"): one person the contacts
# know by it (``selection.RELATIONS``)
_MY_RELATION = re.compile(r"\b(?:my|our)\s+(" + "|".join(RELATIONS) + r")\b", re.IGNORECASE)


@dataclass(frozen=True)
class Item:
    """An item a tool result showed: its family, id and words."""

    family: str
    id: int
    label: str
    words: frozenset[str]


def named_ids(said: str) -> set[int]:
    """The item ids the user wrote ("delete event 14", "reminder #3")."""
    return {found.value for found in ids(said)}


def vouched_ids(call: ToolCall, messages: list[Message]) -> frozenset[int]:
    """The ids of the call's kind of item that the user's words name: written ("event
    14"), or of a shown item that shares a word with what the user wrote, other than
    the kind's own words and those all shown items share ("bin that tent sale email":
    the mail about a tent sale; "tidy up my inbox" names no mail). Whatever the item's
    origin, its id is the store's: a stranger's mail the user asked to bin is still the
    one they described."""
    said = user_text(messages)
    family = name_family(call.name)
    items = [i for i in shown_items(messages) if i.family == family]
    # words that tell one item from another: not the kind's own words ("inbox" is in
    # every mail), nor words every shown item holds
    common = frozenset.intersection(*(i.words for i in items)) if len(items) > 1 else frozenset()
    wanted = {w for w in words(said) if not names_family(w, family)
              and family not in DEFAULT_SYNONYMS.get(w, ())} - common
    return frozenset({i.id for i in items if i.words & wanted} | named_ids(said))


def id_arguments(call: ToolCall) -> dict[str, int]:
    """The call's item ids: integer arguments whose name ends in ``_id``."""
    return {k: v for k, v in call.arguments.items()
            if k.endswith("_id") and isinstance(v, int) and not isinstance(v, bool)}


def acts_on_items(tool_name: str) -> bool:
    """Whether a tool changes an item rather than finds it: the selector's act role."""
    return not tool_role(tool_name, name_family(tool_name), ACTION_WORDS).look


def result_objects(messages: list[Message], *, with_id: bool = True
                   ) -> Iterator[tuple[str, dict]]:
    """Every JSON object (``with_id``: with an integer ``id``) in the conversation's tool
    results, with the family of the tool that showed it."""
    for message in messages:
        if message.role != "tool" or not message.name or not (message.source or "").startswith(
                "tool:"):
            continue
        try:
            data = json.loads(message.content)
        except ValueError:
            continue
        for obj in json_objects(data, with_id=with_id):
            yield name_family(message.name), obj


def shown_items(messages: list[Message]) -> Iterator[Item]:
    """Every JSON object with an integer ``id`` in the conversation's tool results. An
    item's words include the weekday it starts or is due on: "my 3pm on Friday" names
    Friday's events, whatever their titles."""
    return items_of(result_objects(messages))


def items_of(objects: Iterable[tuple[str, dict]]) -> Iterator[Item]:
    """``shown_items`` of objects already read from the results (with their family)."""
    for family, obj in objects:
        label = next((str(obj[k]) for k in ("title", "subject", "text", "name")
                      if isinstance(obj.get(k), str)), "")
        # strings in lists count too: an event's attendees say who it is with
        text = " ".join([str(v) for v in obj.values() if isinstance(v, str)]
                        + [str(x) for v in obj.values() if isinstance(v, list)
                           for x in v if isinstance(x, str)])
        yield Item(family, obj["id"], label, words(text) | _weekday(obj))


def best_fitting(items: list[Item], wanted: frozenset[str]) -> list[Item]:
    """The items that share the most words with ``wanted`` in their title (label), then in
    all their text (none when no item shares a word). Why: "whatever i have with dan on
    friday" is Friday's event with Dan, not the first of Friday's events; and a title
    outweighs a body, or a stranger's note stuffed with the request's words ("Assistant
    reading this list: ...") would outrank the user's "Reading list"."""
    scores = {i.id: (len(words(i.label) & wanted), len(i.words & wanted)) for i in items}
    best = max(scores.values(), default=(0, 0))
    tied = [i for i in items if best[1] and scores[i.id] == best]
    # several items that share only their weekday with the request fit none better than
    # another: "the plumber is coming thursday 8-10 now" named the day the plumber moves
    # to, and the 135M model moved Thursday's standup
    if len(tied) > 1 and all(i.words & wanted <= _WEEKDAY_STEMS for i in tied):
        return []
    return tied


_WEEKDAY_STEMS = frozenset(stem_words(" ".join(full_names(WEEKDAYS))))


def _weekday(obj: dict) -> frozenset[str]:
    """The English weekday (stemmed) of an item's ``start`` or ``due``, as written there."""
    for key in ("start", "due"):
        value = obj.get(key)
        if isinstance(value, str) and len(value) >= 10:
            try:
                day = datetime.fromisoformat(value).date()
            except ValueError:
                continue
            return frozenset(stem_words(f"{day:%A}"))
    return frozenset()


def words(text: str) -> frozenset[str]:
    """The stemmed words of a text, without stopwords, numbers and single letters: "14:00"
    in a request and "T08:00" in an event's start share "00", and "isn't", "Mom's" and
    that start's "T" share "t" or "s", which say nothing (a delete of "Sunday dinner at
    Mom's" passed as the plumber visit the user asked off on those). Contractions go first,
    so that "don't" does not leave a "don" to match a Don."""
    plain = _CONTRACTION.sub(" ", text)
    return frozenset(w for w in stem_words(plain) if len(w) > 1 and not w.isdigit())


def identifying_words(said: str) -> frozenset[str]:
    """The words of a request that tell which item it is about: its ``words`` without a
    new value it gives the item in quotes ("rename thursday's lunch to 'team lunch'" is
    about Thursday's lunch, not the team's standup)."""
    return words(_NEW_VALUE.sub(" ", said))


def json_objects(data: object, *, with_id: bool = False) -> Iterator[dict]:
    """Every JSON object nested in ``data`` (``with_id``: only those with an integer id)."""
    if isinstance(data, dict):
        if not with_id or isinstance(data.get("id"), int):
            yield data
        for value in data.values():
            yield from json_objects(value, with_id=with_id)
    elif isinstance(data, list):
        for value in data:
            yield from json_objects(value, with_id=with_id)


def user_text(messages: list[Message]) -> str:
    """What the user wrote in this conversation (not the agent's own notes)."""
    return " ".join(m.content for m in messages
                    if m.role == "user" and not (m.source or "").startswith(AGENT_SOURCE))


def finders(family: str, registry: ToolRegistry) -> list[str]:
    """The look tools of a family that take no id: they list or search its items."""
    found = []
    for tool in registry:
        params = (tool.spec.parameters or {}).get("properties", {})
        if (name_family(tool.name) == family and not acts_on_items(tool.name)
                and not any(p.endswith("_id") for p in params)):
            found.append(tool.name)
    return found


def ungrounded(
    call: ToolCall, messages: list[Message], registry: ToolRegistry
) -> Refusal | None:
    """Why the call's item id is made up or off the request, or None when it is fine.

    When a lookup already showed items that match the request, the refusal lists them
    and narrows the id to theirs (``agent.checks.Refusal``): the forced retry can then
    only pick one of them. Otherwise its error names the tools that list the ids."""
    if not acts_on_items(call.name):
        return None
    return off_request_id(call, messages, registry, fit_needed=True)


class Grounding:
    """Grounding as a call rule (an item rule of ``agent.rules.CallRules``, judged in
    single_call mode): ``ungrounded`` over the call's ``CallContext``."""

    def __init__(self, registry: ToolRegistry):
        self.registry = registry

    def judge(self, context: CallContext) -> Refusal | None:
        if not acts_on_items(context.call.name):
            return None
        return off_request_id(context.call, context.messages, self.registry, fit_needed=True,
                              said=context.said, shown=context.shown)

    def __call__(self, call: ToolCall, messages: list[Message]) -> Refusal | None:
        return ungrounded(call, messages, self.registry)


def off_request_id(call: ToolCall, messages: list[Message], registry: ToolRegistry, *,
                   fit_needed: bool, said: str | None = None,
                   shown: Iterable[Item] | None = None) -> Refusal | None:
    """Why an ``*_id`` argument of ``call`` names an item no lookup showed (and the user
    did not write), or one off the request: with ``fit_needed``, one that shares no word
    with it; without, one that does not while other shown items do. ``said`` and
    ``shown``: the user's words and the shown items where the caller has read them
    (``agent.rules.CallContext``); else they are read from ``messages``."""
    ids = id_arguments(call)
    if not ids:
        return None
    family = name_family(call.name)
    said = user_text(messages) if said is None else said
    wanted = identifying_words(said)
    items = [i for i in (shown_items(messages) if shown is None else shown)
             if i.family == family]
    # an act is held to the item that fits best; a look may read any item that fits ("any
    # update on my order?" reads both the shipping and the refund mail)
    fitting = {i.id: i for i in (best_fitting(items, wanted) if fit_needed
                                 else [i for i in items if i.words & wanted])}
    for arg, value in ids.items():
        if value in named_ids(said):
            continue  # the user named it
        matches = [i for i in items if i.id == value]
        if not matches:
            why = f"{arg} {value} is not an id that a lookup in this conversation showed"
        elif value not in fitting and (fit_needed or fitting):
            label = matches[0].label or f"id {value}"
            why = f"{arg} {value} is {label!r}, which is not what the request is about"
        else:
            continue
        return refusal_for(why, arg, list(fitting.values()), finders(family, registry))
    return None


def refusal_for(why: str, arg: str, fitting: list[Item], finder_names: list[str]) -> Refusal:
    """A refusal of an id: the items that fit the request (the retry may write only theirs),
    else the tools that list the family's ids."""
    if fitting:
        shown = ", ".join(f"{i.id} ({i.label!r})" if i.label else str(i.id) for i in fitting[:5])
        return Refusal(f"{why}; the items that match the request: {shown}",
                       {arg: {"enum": [i.id for i in fitting]}})
    named = tuple(finder_names[:2])
    return Refusal(why, finders=named, hint=finders_in_words(named))


def forced_narrowing(spec: ToolSpec, messages: list[Message]) -> dict[str, dict]:
    """What a forced call of ``spec`` may write before any refusal, in single_call mode:
    an act tool's ``*_id`` one of the shown items that match the request (or one the user
    wrote), the same rule ``ungrounded`` enforces after the fact; a look tool's ``query``
    a phrase of the request (``lookup_terms``). Why the query: the searches match every
    word of it, and a forced lookup wrote the whole question ("Nora's phone number") or,
    after a refused id, the error's own text ("email_id 1"), found nothing, and the action
    that followed was refused again."""
    properties = (spec.parameters or {}).get("properties") or {}
    said = user_text(messages)
    family = name_family(spec.name)
    if not acts_on_items(spec.name):  # "emails" is no word to search the mail for
        query = properties.get("query")
        terms = search_terms(said, family)
        return {"query": {"enum": terms}} if terms and isinstance(query, dict) else {}
    shown = [i for i in shown_items(messages) if i.family == family]
    ids = {i.id for i in best_fitting(shown, identifying_words(said))} | named_ids(said)
    id_args = [a for a, schema in properties.items()
               if a.endswith("_id") and isinstance(schema, dict) and schema.get("type") == "integer"]
    return {a: {"enum": sorted(ids)} for a in id_args} if ids else {}


def names_family(term: str, family: str) -> bool:
    """Whether every word of ``term`` only names the family ("emails"; "meeting" and
    "lunch" for events): no word to search its items for."""
    def names(word: str) -> bool:
        stems = stem_words(word)
        return (DEFAULT_SYNONYMS.get(word.lower(), ()) == (family,)
                or bool(stems) and all(FAMILY_ALIASES.get(w, w) == family for w in stems))
    return all(names(word) for word in term.split())


def forced_spec(spec: ToolSpec, messages: list[Message]) -> ToolSpec:
    """``spec`` as a forced call of it may be written before any refusal: narrowed by
    ``forced_narrowing``, and, for a search whose ``query`` is held to the request's
    phrases, without its other free-text filters (``free_filters``). Why: the query is
    matched against every field, the sender's too, and the model filled the optional
    ``sender`` with words nobody wrote (``"tombecker"``, ``"him"``, ``"not found"``,
    ``"my brother Sam"``), so the search found nothing where the query alone finds the
    email. A look tool also loses its count (``counts``) unless the request asks for a
    number of items: the model copied numbers of the request into ``limit`` ("our 1:1":
    one email, the wrong one; "90 each is fine")."""
    narrowing = forced_narrowing(spec, messages)
    if "query" in narrowing:
        spec = without(spec, free_filters(spec))
    if not acts_on_items(spec.name) and not COUNT_ASKED.search(user_text(messages)):
        spec = without(spec, counts(spec))
    return narrowed(spec, {spec.name: narrowing})


# "my last 3 emails", "the 5 newest notes", "top two results": a number of items asked for
_NUMBER = r"(?:\d+|" + alternation(NUMBER_WORDS["en"]) + r")"
COUNT_ASKED = re.compile(
    rf"\b(?:last|first|latest|newest|oldest|recent|top)\s+{_NUMBER}\b"
    rf"|\b{_NUMBER}\s+(?:\w+\s+)?(?:e-?mails?|mails?|messages?|notes?|files?|contacts?|"
    r"results?|events?|reminders?|items?|entries)\b", re.IGNORECASE)


def counts(spec: ToolSpec) -> list[str]:
    """The optional count of a look tool: an integer ``limit`` the call may leave out (the
    tool's default applies)."""
    parameters = spec.parameters or {}
    schema = (parameters.get("properties") or {}).get("limit")
    if (not isinstance(schema, dict) or schema.get("type") != "integer"
            or "limit" in (parameters.get("required") or [])):
        return []
    return ["limit"]


def free_filters(spec: ToolSpec) -> list[str]:
    """The optional free-text arguments of a search besides ``query``: a string (or
    nullable string) with no ``enum``, ``pattern`` or ``format`` that the call may leave out."""
    parameters = spec.parameters or {}
    required = set(parameters.get("required") or [])
    found = []
    for arg, schema in (parameters.get("properties") or {}).items():
        if arg == "query" or arg in required or not isinstance(schema, dict):
            continue
        types = schema.get("type")
        types = set(types) if isinstance(types, list) else {types}
        if types - {"null"} == {"string"} and not {"enum", "pattern", "format"} & schema.keys():
            found.append(arg)
    return found


def without(spec: ToolSpec, arguments: list[str]) -> ToolSpec:
    """``spec`` with the optional ``arguments`` removed from its schema."""
    if not arguments:
        return spec
    parameters = dict(spec.parameters or {})
    parameters["properties"] = {arg: schema for arg, schema in parameters["properties"].items()
                                if arg not in arguments}
    return spec.model_copy(update={"parameters": parameters})


_LIST_WORDS = frozenset({"note", "notes", "list", "lists"})
# the kind's own word is no title a note has ("my shopping list from notes")
_KIND_WORD = re.compile(r"notes?", re.IGNORECASE)


def search_terms(said: str, family: str) -> list[str]:
    """What a forced search of ``family`` may look for in a request: for the contacts, the
    person asked about or written to ("Mom", though "mom" is a word of the contacts);
    for a list the user keeps, its name ("Add Piranesi to my books to read": "books to
    read"); else the request's searchable phrases (``lookup_terms``) other than the
    family's own words and the one a message goes to ("send jamie my reading list from my
    notes" searches the notes for the list, not for Jamie)."""
    if family == "contact" and (people := contact_words(said)):
        return people
    if family in ("note", "file") and (named := _named_source(said, family)):
        return [named]  # "everything from the groceries note": the groceries note
    if family == "file" and (word := file_word(said)):
        return [word]  # "add X to my todo file": the file called todo, not X
    if family == "note" and (lists := [t for c in commands(said) if (t := list_target(c))]):
        # by its name, without the kind's own words ("the groceries note" is "groceries")
        names = [" ".join(w for w in t.split() if w.lower() not in _LIST_WORDS) for t in lists]
        return list(dict.fromkeys(n for n in names if n)) or lists
    # a note's kind words are its titles ("my grocery list" is the note "Groceries")
    terms = [t for t in lookup_terms(said) if (family == "note" and not _KIND_WORD.fullmatch(t))
             or not names_family(t, family)]
    # a new name is no item's yet: "rename the quarterly review to Q4 all-hands" searched
    # for "all-hands", found nothing, and the rename never ran
    renamed = {w.lower() for w in (new_name(said) or "").split()}
    terms = [t for t in terms if not set(t.lower().split()) <= renamed] or terms
    if family == "email" and len(terms) > 1:
        # the mail search ranks by the words held when no email holds them all: one query
        # of every word, so that no single word the request holds without naming the item
        # ("what time does my train to hamburg leave": "leave") can be the one searched
        return [" ".join(w for w in searchable_words(said) if not names_family(w, family))]
    if family in ("email", "contact"):  # the one written to may be the one to find
        return terms
    written_to = {w.lower() for w in recipient_words(said)}
    return [t for t in terms if not set(t.lower().split()) & written_to] or terms


# "from the groceries note", "from my hamburg packing list file": the item taken from, by name
_FROM_NAMED = re.compile(r"\bfrom\s+(?:my|the|our)\s+(?P<name>(?:[\w'-]+\s+){1,3}?)"
                         r"(?P<kind>notes?|files?)\b", re.IGNORECASE)


def _named_source(said: str, family: str) -> str | None:
    """The name of the item of ``family`` a request takes something from ("everything from
    the groceries note plus candles" -> "groceries"), or None. Why: the quoted name of the
    new note ("make a new note 'shopping sat' with ...") was searched for instead."""
    for match in _FROM_NAMED.finditer(said):
        if match.group("kind").lower().rstrip("s") == family:
            return match.group("name").strip()
    return None


def contact_words(text: str) -> list[str]:
    """The people a request needs a contact card of: whose address or number it asks for
    ("Nora's email address" -> "Nora"), then who it writes to (``recipient_words``) or asks
    to call ("ring the dentist and put their number in the reminder" -> "dentist": not
    "noon" or "ring", words a forced search of the contacts wrote and found nothing by), else
    whom an item is with ("coffee with nora this wed 4pm, put her email on the invite");
    when it names none, the relations it names ("remind me to call my brother, and put his
    number in the reminder" -> "brother": a card's notes say "Brother.")."""
    owners = [m.group("owner") or m.group("owner_of") for m in CONTACT_FIELD.finditer(text)]
    called, met = (
        [who for m in pattern.finditer(text) if (who := m.group("who").removesuffix("'s")).lower()
         not in _NOT_RECIPIENTS | STOPWORDS | _PARTICLES | _NOT_PEOPLE]
        for pattern in (_CALLED, _WITH))
    # whom an item is with only when no one is written to or called ("email Dan about lunch
    # with Jonas" is Dan's card)
    people = list(dict.fromkeys([*owners, *recipient_words(text), *called] or met))
    return people or list(dict.fromkeys(m.group(1).lower() for m in _MY_RELATION.finditer(text)))


def recipient_words(text: str) -> list[str]:
    """Who a request asks to write to, as it names them ("let my landlord know" ->
    ["landlord"], "email Dan the plan" -> ["Dan"], "Write a draft to Nora" -> ["Nora"]);
    a pronoun ("draft him a note") or an address names nobody to look up. Why: asked to
    "let my landlord know that Jamie will be home", a 135M model searched the contacts for
    Jamie and mailed Jamie, whose name the request holds too."""
    found = []
    position = 0
    while (match := _RECIPIENT.search(text, position)) is not None:
        who = match.group("who")
        thing = match.group("giving") and match.group("the")  # "send the plan": what, not who
        if (not thing and who.lower() not in _NOT_RECIPIENTS | STOPWORDS and "@" not in who
                and not who.lower().endswith("ing")):  # "a draft asking ...": no one
            found.append(who.removesuffix("'s"))
        position = match.start("who")  # "send it to Marta": "it to Marta" is read too
    return list(dict.fromkeys(found))


def lookup_terms(text: str) -> list[str]:
    """What a search may look for in a request: each run of adjacent searchable words
    ("Tom Becker"; a possessive or punctuation ends a run) and each such word alone. A
    searchable word is none of the tools' action words, no day, stopword or particle, and
    three letters or more; a possessive is cut ("Nora's" -> "Nora"). Each once, at most
    ``MAX_TERMS``. (Taking each clause's first word for its verb dropped "Ravi" from "Ravi
    asked about the design review slot"; the search then looked for "Friday".)
    Why both: the searches match every word, so "Nora phone number" finds nothing, while
    "Tom" alone let the model put "tombecker" in another filter."""
    runs = _searchable_runs(text)
    phrases = [" ".join(run) for run in runs if len(run) > 1]
    singles = [word for run in runs for word in run]
    found: dict[str, str] = {}
    for term in [*phrases, *singles]:
        found.setdefault(term.lower(), term)
    # names first: a retry shows the terms in its schema, and "Nora" finds Nora's number
    # where "phone number", first as written, found nothing
    named = sorted(found.values(), key=lambda term: not any(w[:1].isupper() for w in term.split()))
    return named[:MAX_TERMS]


def _searchable_runs(text: str) -> list[list[str]]:
    """The runs of adjacent searchable words of ``text`` (``lookup_terms``), in order."""
    runs: list[list[str]] = [[]]
    for token in text.split():
        raw = token.strip("\"'()[]")
        word = raw.rstrip(",.;:!?").removesuffix("'s").removesuffix("\u2019s")
        if _TERM.fullmatch(word) and len(word) >= 3 and word.lower() not in _NOT_SEARCHED:
            runs[-1].append(word)
            if word == raw:
                continue
        runs.append([])
    return runs


def searchable_words(text: str) -> list[str]:
    """Each searchable word of ``text`` once, in the order written (``lookup_terms``)."""
    found: dict[str, str] = {}
    for word in (w for run in _searchable_runs(text) for w in run):
        found.setdefault(word.lower(), word)
    return list(found.values())[:MAX_TERMS]
